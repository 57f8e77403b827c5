import type { ApiHandler, ApiRequest, ApiResponse } from '../../../../reference-impl/http/types';
import { mapResponse, withBody } from '../../fault';
import { opsPath, type OpsFault } from '../fault';
import type { Doc } from '../../../core/json';

const ITOA = 'itoa_interface';
const action = (r: ApiRequest) => {
  const s = opsPath(r.path, ITOA);
  return s?.length === 2 && s[0] === 'entity' ? s[1] : undefined;
};
const isAction = (method: string, name: string) => (r: ApiRequest) => r.method === method && action(r) === name;
const ok = (res: ApiResponse) => res.status < 300;
const named = (r: ApiRequest) => {
  const data = (r.body as { data?: unknown } | undefined)?.data;
  return Array.isArray(data) ? data.map(String) : [];
};

/** A second request to the implementation on `entity/...`, as the same caller. */
function call(inner: ApiHandler, req: ApiRequest, method: string, parts: string[], query: Record<string, string> = {}, body?: unknown) {
  const base = req.path.slice(0, req.path.lastIndexOf('/entity/'));
  const sub: ApiRequest = {
    ...req,
    method,
    path: `${base}/entity/${parts.map(encodeURIComponent).join('/')}`,
    query: new URLSearchParams(query),
    body: undefined,
    rawBody: '',
  };
  return inner(body === undefined ? sub : withBody(sub, body));
}

const setServices = (inner: ApiHandler, req: ApiRequest, key: string, services: unknown) =>
  call(inner, req, 'POST', [key], { is_partial_data: '1' }, { services });

/** A retire after which each listed entity is linked again to `kept` of the services it had (none where undefined). */
const relinkAfterRetire =
  (kept: (services: unknown[]) => unknown[] | undefined) =>
  (inner: ApiHandler): ApiHandler =>
  async (req) => {
    if (!isAction('POST', 'retire')(req)) return inner(req);
    const before = new Map<string, unknown>();
    for (const k of named(req)) before.set(k, ((await call(inner, req, 'GET', [k])).body as Doc | undefined)?.services);
    const res = await inner(req);
    if (ok(res))
      for (const [k, services] of before) {
        const again = Array.isArray(services) ? kept(services) : undefined;
        if (again) await setServices(inner, req, k, again);
      }
    return res;
  };

export const entityFaults: OpsFault[] = [
  {
    id: 'retire-keeps-service-links',
    description: 'entity/retire marks the entities retired but leaves them linked to their services',
    breaks: ['OPS-ENTITY-RETIRE'],
    only: ['ops.entity.retire-restore'],
    wrap: relinkAfterRetire((services) => services),
  },
  {
    id: 'retire-unlinks-first-service-only',
    description: 'entity/retire un-links each entity from the first of its services only, leaving it linked to the others',
    breaks: ['OPS-ENTITY-RETIRE'],
    only: ['ops.entity.retire-restore'],
    wrap: relinkAfterRetire((services) => (services.length > 1 ? services.slice(1) : undefined)),
  },
  {
    id: 'retire-answers-nothing',
    description: 'entity/retire retires the entities but answers an empty array',
    breaks: ['OPS-ENTITY-RETIRE'],
    only: ['ops.entity.retire-restore'],
    wrap: mapResponse(
      (r, res) => isAction('POST', 'retire')(r) && ok(res),
      (res) => ({ ...res, body: [] }),
    ),
  },
  {
    id: 'restore-not-relinking',
    description: 'entity/restore makes the entities active without linking them back to their services',
    breaks: ['OPS-ENTITY-RESTORE'],
    only: ['ops.entity.retire-restore'],
    wrap: (inner) => async (req) => {
      if (!isAction('POST', 'restore')(req)) return inner(req);
      const res = await inner(req);
      if (ok(res)) for (const k of named(req)) await setServices(inner, req, k, []);
      return res;
    },
  },
  {
    id: 'retire-first-only',
    description: 'entity/retire retires only the first listed entity, and answers every listed key',
    breaks: ['OPS-ENTITY-RETIRE'],
    // Restore of an entity that was never retired has nothing to re-link: the restore rule is judged on it too.
    collateral: ['OPS-ENTITY-RESTORE'],
    only: ['ops.entity.retire-restore'],
    wrap: (inner) => async (req) => {
      if (!isAction('POST', 'retire')(req) || named(req).length < 2) return inner(req);
      const res = await inner(withBody(req, { data: named(req).slice(0, 1) }));
      return ok(res) ? { ...res, body: named(req) } : res;
    },
  },
  {
    id: 'restore-first-only',
    description: 'entity/restore restores only the first listed entity, and answers every listed key',
    breaks: ['OPS-ENTITY-RESTORE'],
    only: ['ops.entity.retire-restore'],
    wrap: (inner) => async (req) => {
      if (!isAction('POST', 'restore')(req) || named(req).length < 2) return inner(req);
      const res = await inner(withBody(req, { data: named(req).slice(0, 1) }));
      return ok(res) ? { ...res, body: named(req) } : res;
    },
  },
  {
    id: 'restore-swaps-services',
    description: 'entity/restore re-links each listed entity to the services of the next one listed',
    breaks: ['OPS-ENTITY-RESTORE'],
    only: ['ops.entity.retire-restore'],
    wrap: (inner) => async (req) => {
      if (!isAction('POST', 'restore')(req) || named(req).length < 2) return inner(req);
      const res = await inner(req);
      if (!ok(res)) return res;
      const ks = named(req);
      const links = await Promise.all(ks.map(async (k) => ((await call(inner, req, 'GET', [k])).body as Doc | undefined)?.services));
      for (const [i, k] of ks.entries()) await setServices(inner, req, k, links[(i + 1) % ks.length] ?? []);
      return res;
    },
  },
  {
    id: 'retire-retirable-ne-zero',
    description: 'entity/retire_retirable selects entities with {retirable: {$ne: 0}}, which also matches entities without the flag',
    breaks: ['OPS-ENTITY-RETIRE-RETIRABLE'],
    only: ['ops.entity.retire-retirable'],
    wrap: (inner) => async (req) => {
      if (!isAction('POST', 'retire_retirable')(req)) return inner(req);
      const base = req.path.slice(0, req.path.lastIndexOf('/entity/'));
      const list = await inner({
        ...req,
        method: 'GET',
        path: `${base}/entity`,
        query: new URLSearchParams({ filter: JSON.stringify({ retirable: { $ne: 0 }, retired: { $ne: 1 } }) }),
        body: undefined,
        rawBody: '',
      });
      const keys = Array.isArray(list.body) ? list.body.map((e) => String((e as Doc)._key)) : [];
      return call(inner, req, 'POST', ['retire'], {}, { data: keys });
    },
  },
  {
    id: 'count-retirable-without-permissions',
    description: 'entity/count_retirable summaries lack permissions',
    breaks: ['OPS-ENTITY-COUNT-RETIRABLE'],
    only: ['ops.entity.count-retirable'],
    wrap: mapResponse(
      (r, res) => isAction('GET', 'count_retirable')(r) && Array.isArray(res.body),
      (res) => ({ ...res, body: (res.body as Doc[]).map(({ permissions: _, ...rest }) => rest) }),
    ),
  },
  {
    id: 'count-retirable-lists-every-entity',
    description: 'entity/count_retirable lists every active entity, flagged or not',
    breaks: ['OPS-ENTITY-COUNT-RETIRABLE'],
    only: ['ops.entity.count-retirable'],
    wrap: (inner) => async (req) => {
      const res = await inner(req);
      if (!(isAction('GET', 'count_retirable')(req) && Array.isArray(res.body))) return res;
      const template = (res.body as Doc[])[0] ?? {};
      const base = req.path.slice(0, req.path.lastIndexOf('/entity/'));
      const all = await inner({ ...req, path: `${base}/entity`, query: new URLSearchParams() });
      const entities = Array.isArray(all.body) ? (all.body as Doc[]) : [];
      return {
        ...res,
        body: entities.map((e) => ({
          ...template,
          object_type: 'entity',
          title: e.title,
          retirable: e.retirable ?? 0,
          sec_grp: e.sec_grp,
          _key: e._key,
        })),
      };
    },
  },
];
