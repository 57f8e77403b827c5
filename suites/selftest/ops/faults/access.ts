import type { ApiHandler, ApiRequest } from '../../../../reference-impl/http/types';
import type { OpsConfig, OpsUser } from '../../../../reference-impl/ops/config';
import { withHeader } from '../../fault';
import type { OpsFault } from '../fault';

const basic = (u: OpsUser) => `Basic ${Buffer.from(`${u.name}:${u.password}`).toString('base64')}`;
const admin = (c: OpsConfig) => c.users.find((u) => !u.readOnly)!;
const isReader = (c: OpsConfig) => (r: ApiRequest) => c.users.some((u) => u.readOnly && r.headers.authorization === basic(u));
const isCount = (r: ApiRequest) => /\/count$/.test(r.path);
const isWrite = (r: ApiRequest) => r.method !== 'GET';

/** Requests of the read-only user that `when` selects are served with the administrator's rights. */
const asAdminWhen =
  (when: (r: ApiRequest) => boolean) =>
  (inner: ApiHandler, c: OpsConfig): ApiHandler =>
  (req) =>
    inner(isReader(c)(req) && when(req) ? withHeader(req, 'authorization', basic(admin(c))) : req);

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
