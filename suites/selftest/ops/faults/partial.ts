import type { ApiHandler, ApiRequest } from '../../../../reference-impl/http/types';
import { mapRequest, withBody } from '../../fault';
import { opsPath, type OpsFault } from '../fault';
import type { Doc } from '../../../core/json';

const ITOA = 'itoa_interface';
const ACTIONS = new Set(['bulk_update', 'count', 'retire', 'restore', 'retire_retirable', 'count_retirable']);
/** Fields the service schema names; anything else is what a schema-bound writer would drop. */
const SCHEMA_FIELDS = new Set([
  '_key',
  'title',
  'description',
  'enabled',
  'kpis',
  'entity_rules',
  'sec_grp',
  'tags',
  'services_depends_on',
  'base_service_template_id',
]);

const segs = (r: ApiRequest) => opsPath(r.path, ITOA);
const isObj = (v: unknown): v is Doc => typeof v === 'object' && v !== null && !Array.isArray(v);
const isUpdateByKey = (r: ApiRequest) => r.method === 'POST' && segs(r)?.length === 2 && !ACTIONS.has(segs(r)![1]) && isObj(r.body);
const isBulkUpdate = (r: ApiRequest) => r.method === 'POST' && segs(r)?.[1] === 'bulk_update' && Array.isArray(r.body);
const flag = (r: ApiRequest) => r.query.get('is_partial_data');
const isFullUpdate = (r: ApiRequest) => isUpdateByKey(r) && flag(r) !== '1';

function withFlag(req: ApiRequest, value: string): ApiRequest {
  const query = new URLSearchParams(req.query);
  query.set('is_partial_data', value);
  return { ...req, query };
}

async function stored(inner: ApiHandler, req: ApiRequest): Promise<Doc | undefined> {
  const res = await inner({ ...req, method: 'GET', query: new URLSearchParams(), body: undefined, rawBody: '' });
  return res.status < 300 && isObj(res.body) ? res.body : undefined;
}

/** A merge in the style of general-purpose deep-merge helpers: objects recursively, arrays index by index. */
function deepMerge(a: unknown, b: unknown): unknown {
  if (Array.isArray(a) && Array.isArray(b)) return a.map((v, i) => (i < b.length ? deepMerge(v, b[i]) : v)).concat(b.slice(a.length));
  if (isObj(a) && isObj(b))
    return Object.fromEntries([...new Set([...Object.keys(a), ...Object.keys(b)])].map((k) => [k, k in b ? deepMerge(a[k], b[k]) : a[k]]));
  return b;
}

export const partialFaults: OpsFault[] = [
  {
    id: 'partial-flag-swapped',
    description: 'is_partial_data=1 is handled as a full replace and is_partial_data=0 merges',
    breaks: ['OPS-PARTIAL-MERGE', 'OPS-PARTIAL-REPLACE'],
    only: ['ops.partial.merge', 'ops.partial.replace'],
    wrap: mapRequest(
      (r) => isUpdateByKey(r) && (flag(r) === '0' || flag(r) === '1'),
      (r) => withFlag(r, flag(r) === '1' ? '0' : '1'),
    ),
  },
  {
    id: 'partial-deep-merge',
    description: 'is_partial_data=1 merges nested objects and arrays into the stored ones instead of replacing the fields sent',
    breaks: ['OPS-PARTIAL-MERGE'],
    only: ['ops.partial.merge'],
    wrap: (inner) => async (req) => {
      if (!(isUpdateByKey(req) && flag(req) === '1')) return inner(req);
      const before = await stored(inner, req);
      return inner(before ? withFlag(withBody(req, deepMerge(before, req.body)), '0') : req);
    },
  },
  {
    id: 'full-update-zero-is-truthy',
    description: 'is_partial_data=0 is read as a non-empty string, so a full update merges and keeps the old fields',
    breaks: ['OPS-PARTIAL-REPLACE'],
    only: ['ops.partial.replace'],
    wrap: mapRequest(
      (r) => isUpdateByKey(r) && flag(r) === '0',
      (r) => withFlag(r, '1'),
    ),
  },
  {
    id: 'partial-default-is-one',
    description: 'an update without is_partial_data is treated as a partial update',
    breaks: ['OPS-PARTIAL-DEFAULT'],
    only: ['ops.partial.replace'],
    wrap: mapRequest(
      (r) => isUpdateByKey(r) && flag(r) === null,
      (r) => withFlag(r, '1'),
    ),
  },
  {
    id: 'full-update-drops-unknown-fields',
    description: 'a full update writes only the fields of the schema and drops the others',
    breaks: ['OPS-PARTIAL-UNKNOWN-FIELDS'],
    only: ['ops.partial.replace'],
    wrap: mapRequest(isFullUpdate, (r) =>
      withBody(r, Object.fromEntries(Object.entries(r.body as Doc).filter(([k]) => SCHEMA_FIELDS.has(k)))),
    ),
  },
  {
    id: 'full-update-title-from-store',
    description: 'a full update without title takes the stored title instead of being refused',
    breaks: ['OPS-PARTIAL-REQUIRED-FIELDS'],
    only: ['ops.partial.required-fields'],
    wrap: (inner) => async (req) => {
      if (!(isFullUpdate(req) && (req.body as Doc).title === undefined)) return inner(req);
      const before = await stored(inner, req);
      return inner(before ? withBody(req, { ...(req.body as Doc), title: before.title }) : req);
    },
  },
  {
    id: 'full-update-required-check-skipped',
    description: 'a full update without title is accepted and stores an empty title',
    breaks: ['OPS-PARTIAL-REQUIRED-FIELDS'],
    only: ['ops.partial.required-fields'],
    wrap: mapRequest(
      (r) => isFullUpdate(r) && (r.body as Doc).title === undefined,
      (r) => withBody(r, { ...(r.body as Doc), title: '' }),
    ),
  },
  {
    id: 'bulk-update-first-only',
    description: 'bulk_update writes only the first object of the array but answers every key',
    breaks: ['OPS-CORE-BULK-UPDATE'],
    only: ['ops.core.bulk-update'],
    wrap: (inner) => async (req) => {
      if (!isBulkUpdate(req)) return inner(req);
      const entries = req.body as Doc[];
      const res = await inner(withBody(req, entries.slice(0, 1)));
      return res.status < 300 ? { ...res, body: { _key: entries.map((e) => e._key) } } : res;
    },
  },
  {
    id: 'bulk-update-default-partial',
    description: 'bulk_update without is_partial_data merges instead of replacing',
    breaks: ['OPS-PARTIAL-DEFAULT'],
    only: ['ops.core.bulk-update'],
    wrap: mapRequest(
      (r) => isBulkUpdate(r) && flag(r) === null,
      (r) => withFlag(r, '1'),
    ),
  },
  {
    id: 'bulk-update-always-merges',
    description: 'bulk_update ignores is_partial_data and always merges',
    breaks: ['OPS-PARTIAL-DEFAULT', 'OPS-PARTIAL-REPLACE'],
    only: ['ops.core.bulk-update'],
    wrap: mapRequest(isBulkUpdate, (r) => withFlag(r, '1')),
  },
  {
    id: 'bulk-update-partial-replaces',
    description: 'bulk_update with is_partial_data=1 replaces each object with its payload',
    breaks: ['OPS-PARTIAL-MERGE'],
    only: ['ops.core.bulk-update'],
    wrap: mapRequest(
      (r) => isBulkUpdate(r) && flag(r) === '1',
      (r) => withFlag(r, '0'),
    ),
  },
  {
    id: 'bulk-update-keys-rotated',
    description: 'bulk_update applies each object of the array to the key of the next one',
    breaks: ['OPS-CORE-BULK-UPDATE'],
    only: ['ops.core.bulk-update'],
    wrap: mapRequest(
      (r) => isBulkUpdate(r) && (r.body as unknown[]).length > 1,
      (r) => {
        const objs = r.body as Doc[];
        return withBody(
          r,
          objs.map((o, i) => ({ ...o, _key: objs[(i + 1) % objs.length]!._key })),
        );
      },
    ),
  },
  {
    id: 'maintenance-full-update-merges',
    description: 'a maintenance window update with is_partial_data=0 merges the payload into the stored window',
    breaks: ['OPS-PARTIAL-REPLACE'],
    only: ['ops.partial.replace'],
    wrap: fullUpdateMergesOn('maintenance_services_interface'),
  },
  {
    id: 'backup-full-update-merges',
    description: 'a backup job update with is_partial_data=0 merges the payload into the stored job',
    breaks: ['OPS-PARTIAL-REPLACE'],
    only: ['ops.partial.replace'],
    wrap: fullUpdateMergesOn('backup_restore_interface'),
  },
  {
    id: 'maintenance-partial-moves-end-time',
    description: 'a partial update of a maintenance window that does not send end_time moves it a minute on',
    breaks: ['OPS-PARTIAL-MERGE'],
    only: ['ops.partial.merge'],
    wrap: alsoChanges('maintenance_services_interface', 'end_time', (v) => (typeof v === 'number' ? v + 60 : v)),
  },
  {
    id: 'backup-partial-resets-job-type',
    description: 'a partial update of a backup job that does not send job_type sets it to Restore',
    breaks: ['OPS-PARTIAL-MERGE'],
    only: ['ops.partial.merge'],
    wrap: alsoChanges('backup_restore_interface', 'job_type', () => 'Restore'),
  },
];

/**
 * After a successful partial update by key on `iface` that does not send `field`, the stored object's `field` is
 * rewritten by `change` (a second partial update): a merge that touches a field it was not sent.
 */
function alsoChanges(iface: string, field: string, change: (v: unknown) => unknown) {
  return (inner: ApiHandler): ApiHandler =>
    async (req) => {
      const at = opsPath(req.path, iface);
      const partial = req.method === 'POST' && at?.length === 2 && at[1] !== 'bulk_update' && flag(req) === '1' && isObj(req.body);
      if (!partial || field in (req.body as Doc)) return inner(req);
      const res = await inner(req);
      const now = res.status < 300 ? await stored(inner, req) : undefined;
      if (now && field in now)
        await inner(withBody({ ...req, query: new URLSearchParams({ is_partial_data: '1' }) }, { [field]: change(now[field]) }));
      return res;
    };
}

/** An update by key on `iface` with is_partial_data=0 taken as a partial one: the fields it omits stay. */
function fullUpdateMergesOn(iface: string) {
  return mapRequest(
    (r) => r.method === 'POST' && opsPath(r.path, iface)?.length === 2 && flag(r) === '0',
    (r) => withFlag(r, '1'),
  );
}
