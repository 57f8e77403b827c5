import type { ApiHandler, ApiRequest } from '../../../../reference-impl/http/types';
import type { OpsConfig, OpsUser } from '../../../../reference-impl/ops/config';
import { withHeader } from '../../fault';
import type { Doc } from '../../../core/json';
import type { OpsFault } from '../fault';

const basic = (u: OpsUser) => `Basic ${Buffer.from(`${u.name}:${u.password}`).toString('base64')}`;
const admin = (c: OpsConfig) => c.users.find((u) => !u.readOnly)!;
const isReader = (c: OpsConfig) => (r: ApiRequest) => c.users.some((u) => u.readOnly && r.headers.authorization === basic(u));
const isCount = (r: ApiRequest) => /\/count$/.test(r.path);
const isWrite = (r: ApiRequest) => r.method !== 'GET';

const isRestricted = (c: OpsConfig) => (r: ApiRequest) =>
  c.users.some((u) => !u.readOnly && u.readGroups && r.headers.authorization === basic(u));
const isEither = (c: OpsConfig) => (r: ApiRequest) => isReader(c)(r) || isRestricted(c)(r);
const isByKey = (r: ApiRequest) =>
  r.method === 'GET' && /\/itoa_interface\/(vLatest\/)?[a-z_]+\/[^/]+$/.test(r.path) && !/\/(count|count_retirable)$/.test(r.path);
const isGet = (r: ApiRequest) => r.method === 'GET';
const isList = (r: ApiRequest) => isGet(r) && !isCount(r) && !isByKey(r);

/** Requests of the callers `who` picks that `when` selects are served with the administrator's rights. */
const asAdminFor =
  (who: (c: OpsConfig) => (r: ApiRequest) => boolean, when: (r: ApiRequest) => boolean) =>
  (inner: ApiHandler, c: OpsConfig): ApiHandler =>
  (req) =>
    inner(who(c)(req) && when(req) ? withHeader(req, 'authorization', basic(admin(c))) : req);
/** Requests of the read-only user that `when` selects are served with the administrator's rights. */
const asAdminWhen = (when: (r: ApiRequest) => boolean) => asAdminFor(isReader, when);
const ONLY_READABLE = ['ops.auth.results-readable'];

export const accessFaults: OpsFault[] = [
  {
    id: 'read-only-user-can-write',
    description: "the read-only user's creates, updates and deletes are served",
    breaks: ['OPS-AUTH-ACCESS-CHECKS'],
    only: ['ops.auth.read-only-user'],
    wrap: asAdminWhen(isWrite),
  },
  {
    id: 'read-only-user-can-delete',
    description: 'the write check covers POST only: the read-only user can delete',
    breaks: ['OPS-AUTH-ACCESS-CHECKS'],
    only: ['ops.auth.read-only-user'],
    wrap: asAdminWhen((r) => r.method === 'DELETE'),
  },
  {
    id: 'read-only-list-unfiltered',
    description: 'lists are not restricted to what the caller can read, while counts are',
    breaks: ['OPS-AUTH-RESULTS-READABLE', 'OPS-AUTH-COUNTS'],
    only: ['ops.auth.results-readable'],
    wrap: asAdminWhen((r) => r.method === 'GET' && !isCount(r)),
  },
  {
    id: 'read-only-count-unfiltered',
    // The core count may count every object (only counts of windows and jobs are said to reflect access).
    description: 'counts of maintenance windows and backup jobs include objects the caller cannot read',
    breaks: ['OPS-AUTH-COUNTS'],
    only: ['ops.auth.results-readable'],
    wrap: asAdminWhen((r) => r.method === 'GET' && isCount(r)),
  },
  {
    id: 'restricted-reads-global-by-key',
    description: 'a read by key of the team-restricted user skips the team check: it reads objects of the Global team it cannot read',
    breaks: ['OPS-AUTH-RESULTS-READABLE'],
    only: ONLY_READABLE,
    wrap: asAdminFor(isRestricted, isByKey),
  },
  {
    id: 'restricted-reads-all-but-teams',
    description:
      'every read of the team-restricted user but that of team objects (by key, list, count) is served as the administrator: it reads objects of the Global team it cannot read',
    breaks: ['OPS-AUTH-RESULTS-READABLE'],
    only: ONLY_READABLE,
    wrap: asAdminFor(isRestricted, (r) => isGet(r) && !/\/itoa_interface\/(vLatest\/)?team(\/|$)/.test(r.path)),
  },
  {
    id: 'restricted-lists-unfiltered',
    description: 'lists of the team-restricted user show every team, while its reads by key and counts are restricted',
    breaks: ['OPS-AUTH-RESULTS-READABLE'],
    // Its window and job counts then fall short of its lists.
    collateral: ['OPS-AUTH-COUNTS'],
    only: ONLY_READABLE,
    wrap: asAdminFor(isRestricted, isList),
  },
  {
    id: 'restricted-counts-unfiltered',
    description: 'window and job counts of the team-restricted user count the Global team it cannot read',
    breaks: ['OPS-AUTH-COUNTS'],
    only: ['ops.maintenance.counts-readable', 'ops.backup.counts-readable'],
    wrap: asAdminFor(isRestricted, (r) => isGet(r) && isCount(r)),
  },
  {
    id: 'reader-entity-list-unfiltered',
    description: 'entity lists are not restricted to what the caller can read (service lists are)',
    breaks: ['OPS-AUTH-RESULTS-READABLE'],
    only: ONLY_READABLE,
    wrap: asAdminFor(isEither, (r) => isGet(r) && /\/itoa_interface\/(vLatest\/)?entity$/.test(r.path)),
  },
  {
    id: 'reader-retirable-unfiltered',
    description: 'count_retirable lists retirable entities of every team to every caller',
    breaks: ['OPS-AUTH-RESULTS-READABLE'],
    only: ONLY_READABLE,
    wrap: asAdminFor(isEither, (r) => isGet(r) && /\/entity\/count_retirable$/.test(r.path)),
  },
  {
    id: 'reader-pack-list-unfiltered',
    description: 'the authoring list shows custom content packs of every team, while a read by key is restricted',
    breaks: ['OPS-AUTH-RESULTS-READABLE'],
    only: ONLY_READABLE,
    wrap: asAdminFor(isEither, (r) => isGet(r) && /\/content_pack_authorship\/content_pack$/.test(r.path)),
  },
  {
    id: 'read-only-lists-show-other-writers-team',
    description:
      "lists of the read-only user also show the objects of the team-restricted writer's team (a grant the reader was never given)",
    breaks: ['OPS-AUTH-RESULTS-READABLE'],
    // Its window and job counts then fall short of its lists.
    collateral: ['OPS-AUTH-COUNTS'],
    only: ONLY_READABLE,
    wrap: (inner, c) => async (req) => {
      const res = await inner(req);
      if (!isReader(c)(req) || !isList(req) || res.status !== 200 || !Array.isArray(res.body)) return res;
      const all = await inner(withHeader(req, 'authorization', basic(admin(c))));
      const granted = new Set(c.users.filter((u) => !u.readOnly && u.readGroups).flatMap((u) => u.readGroups ?? []));
      const mine = new Set((res.body as Doc[]).map((d) => d._key));
      const extra = (Array.isArray(all.body) ? (all.body as Doc[]) : []).filter((d) => granted.has(String(d.sec_grp)) && !mine.has(d._key));
      return { ...res, body: [...(res.body as Doc[]), ...extra] };
    },
  },
  {
    id: 'anonymous-served-as-admin',
    description: 'a request without credentials is served as the administrator',
    breaks: ['OPS-AUTH-ACCESS-CHECKS'],
    only: ['ops.auth.basic'],
    wrap: (inner, c) => (req) => inner(req.headers.authorization ? req : withHeader(req, 'authorization', basic(admin(c)))),
  },
  {
    id: 'unknown-user-served-as-admin',
    description: 'credentials of an unknown user fall back to the administrator',
    breaks: ['OPS-AUTH-ACCESS-CHECKS'],
    only: ['ops.auth.basic'],
    wrap: (inner, c) => (req) => {
      const given = Buffer.from(String(req.headers.authorization ?? '').replace(/^Basic /, ''), 'base64')
        .toString('utf8')
        .split(':')[0];
      return inner(
        req.headers.authorization && !c.users.some((u) => u.name === given) ? withHeader(req, 'authorization', basic(admin(c))) : req,
      );
    },
  },
];
