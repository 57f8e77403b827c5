import type { ApiHandler, ApiRequest, ApiResponse } from '../../../../reference-impl/http/types';
import { notFound } from '../../../../reference-impl/ops/errors';
import { mapRequest, mapResponse, withBody } from '../../fault';
import { opsPath, type OpsFault } from '../fault';
import type { Doc } from '../../../core/json';

const ITOA = 'itoa_interface';
const ACTIONS = new Set(['bulk_update', 'count', 'retire', 'restore', 'retire_retirable', 'count_retirable']);
const segs = (r: ApiRequest) => opsPath(r.path, ITOA);
const ok = (res: ApiResponse) => res.status < 300;
const isObj = (v: unknown): v is Doc => typeof v === 'object' && v !== null && !Array.isArray(v);

/** `<object_type>` alone (list, create, bulk delete). */
const onType = (r: ApiRequest) => segs(r)?.length === 1 && !segs(r)![0].startsWith('get_');
/** `<object_type>/<_key>` (read, update, delete by key). */
const onKey = (r: ApiRequest) => segs(r)?.length === 2 && !ACTIONS.has(segs(r)![1]);

/** A second request to the implementation, as the same caller. */
function call(inner: ApiHandler, req: ApiRequest, method: string, parts: string[], query: Record<string, string> = {}, body?: unknown) {
  const base = req.path.slice(0, req.path.indexOf(`/${ITOA}`) + ITOA.length + 1);
  const sub: ApiRequest = {
    ...req,
    method,
    path: `${base}/${parts.map(encodeURIComponent).join('/')}`,
    query: new URLSearchParams(query),
    body: undefined,
    rawBody: '',
  };
  return inner(body === undefined ? sub : withBody(sub, body));
}

/** Rewrites the objects of a successful read by key or list. */
const eachRead = (change: (d: Doc) => void) =>
  mapResponse(
    (r, res) => r.method === 'GET' && ok(res) && (onKey(r) || onType(r)),
    (res) => {
      for (const d of Array.isArray(res.body) ? res.body : [res.body]) if (isObj(d)) change(d);
      return res;
    },
  );

export const coreFaults: OpsFault[] = [
  {
    id: 'create-answers-without-key',
    description: 'POST <object_type> answers the new key as `key` instead of `_key`',
    breaks: ['OPS-CORE-CREATE'],
    collateral: ['OPS-COMMON-KEY-OBJECT-TYPE'],
    only: ['ops.core.create-returns-key'],
    wrap: mapResponse(
      (r, res) => r.method === 'POST' && onType(r) && ok(res),
      (res) => ({ ...res, body: { key: (res.body as Doc)._key } }),
    ),
  },
  {
    id: 'read-without-object-type',
    description: 'stored objects are read back without object_type',
    breaks: ['OPS-COMMON-KEY-OBJECT-TYPE'],
    only: ['ops.core.create-returns-key'],
    wrap: eachRead((d) => delete d.object_type),
  },
  {
    id: 'delete-by-key-deletes-next',
    description: 'DELETE <object_type>/<_key> also deletes the object stored after it',
    breaks: ['OPS-CORE-DELETE'],
    only: ['ops.core.delete-by-key'],
    wrap: (inner) => async (req) => {
      if (!(req.method === 'DELETE' && onKey(req))) return inner(req);
      const [type, key] = segs(req)!;
      const all = await call(inner, req, 'GET', [type]);
      const res = await inner(req);
      const ks = Array.isArray(all.body) ? all.body.map((d) => String((d as Doc)._key)) : [];
      const next = ks[ks.indexOf(key) + 1];
      if (ok(res) && ks.includes(key) && next !== undefined) await call(inner, req, 'DELETE', [type, next]);
      return res;
    },
  },
  {
    id: 'count-ignores-filter',
    description: 'GET <object_type>/count counts every row whatever the filter',
    breaks: ['OPS-CORE-COUNT'],
    only: ['ops.core.count'],
    wrap: mapRequest(
      (r) => r.method === 'GET' && segs(r)?.[1] === 'count',
      (r) => ({ ...r, query: new URLSearchParams() }),
    ),
  },
  {
    id: 'identifying-name-keeps-case',
    description: 'identifying_name is the title as written, not lower-cased',
    breaks: ['OPS-COMMON-IDENTIFYING-NAME'],
    only: ['ops.core.identifying-name'],
    wrap: eachRead((d) => typeof d.title === 'string' && (d.identifying_name = d.title)),
  },
  {
    id: 'identifying-name-not-renamed',
    description: 'identifying_name is set on create only and keeps the first title after a rename',
    breaks: ['OPS-COMMON-IDENTIFYING-NAME'],
    only: ['ops.core.identifying-name'],
    wrap: (inner) => {
      const first = new Map<string, unknown>();
      return eachRead((d) => {
        const k = String(d._key);
        if (!first.has(k)) first.set(k, d.identifying_name);
        d.identifying_name = first.get(k);
      })(inner);
    },
  },
  {
    id: 'mod-timestamp-frozen',
    description: 'mod_timestamp is set on create and never moves on later writes',
    breaks: ['OPS-COMMON-FIELDS'],
    only: ['ops.core.common-fields'],
    wrap: (inner) => {
      const first = new Map<string, unknown>();
      return eachRead((d) => {
        const k = String(d._key);
        if (!first.has(k)) first.set(k, d.mod_timestamp);
        d.mod_timestamp = first.get(k);
      })(inner);
    },
  },
  {
    id: 'version-not-stamped',
    description: 'objects are stored without _version',
    breaks: ['OPS-VERSION-OBJECT-VERSION', 'OPS-COMMON-FIELDS'],
    only: ['ops.core.common-fields'],
    wrap: eachRead((d) => delete d._version),
  },
  {
    id: 'sec-grp-default-by-title',
    description: 'an object created without sec_grp is put in the Global team by its title instead of its key',
    breaks: ['OPS-COMMON-SEC-GRP-DEFAULT'],
    only: ['ops.core.common-fields'],
    wrap: mapRequest(
      (r) => r.method === 'POST' && onType(r) && isObj(r.body) && r.body.sec_grp === undefined,
      (r) => withBody(r, { ...(r.body as Doc), sec_grp: 'Global' }),
    ),
  },
  {
    id: 'create-with-key-answers-but-keeps',
    description: 'POST <object_type> with the _key of an existing object answers that _key but writes nothing',
    breaks: ['OPS-CORE-CREATE-UPSERT'],
    only: ['ops.core.create-or-update'],
    wrap: (inner) => async (req) => {
      const key = isObj(req.body) ? req.body._key : undefined;
      if (!(req.method === 'POST' && onType(req) && typeof key === 'string')) return inner(req);
      const found = await call(inner, req, 'GET', [segs(req)![0], key]);
      return ok(found) ? { status: 200, body: { _key: key } } : inner(req);
    },
  },
  {
    id: 'partial-update-not-written',
    description: 'POST <object_type>/<_key>?is_partial_data=1 answers the key but the write is lost',
    breaks: ['OPS-CORE-UPDATE'],
    only: ['ops.core.read-after-write'],
    wrap: (inner) => async (req) => {
      if (!(req.method === 'POST' && onKey(req) && req.query.get('is_partial_data') === '1')) return inner(req);
      const [type, key] = segs(req)!;
      const found = await call(inner, req, 'GET', [type, key]);
      return ok(found) ? { status: 200, body: { _key: key } } : found;
    },
  },
  {
    id: 'supported-types-without-relationships',
    description: 'get_supported_object_types leaves out entity_relationship and entity_relationship_rule',
    breaks: ['OPS-CORE-SUPPORTED-TYPES-EXTRA'],
    only: ['ops.core.supported-object-types'],
    wrap: mapResponse(
      (r, res) => segs(r)?.[0] === 'get_supported_object_types' && Array.isArray(res.body),
      (res) => ({ ...res, body: (res.body as string[]).filter((t) => !t.startsWith('entity_relationship')) }),
    ),
  },
  {
    id: 'supported-types-stale-table',
    description: 'get_supported_object_types answers an old table without custom_threshold_windows and entity_type',
    breaks: ['OPS-CORE-OBJECT-TYPES'],
    collateral: ['OPS-CORE-SUPPORTED-TYPES'],
    only: ['ops.core.supported-object-types'],
    wrap: mapResponse(
      (r, res) => segs(r)?.[0] === 'get_supported_object_types' && Array.isArray(res.body),
      (res) => ({ ...res, body: (res.body as string[]).filter((t) => t !== 'custom_threshold_windows' && t !== 'entity_type') }),
    ),
  },
  {
    id: 'alias-values-flattened',
    description: 'single-field alias values are stored as a comma-joined string instead of an array',
    breaks: ['OPS-ENTITY-ALIAS-VALUES'],
    only: ['ops.core.alias-list'],
    wrap: eachRead((d) => {
      const id = d.identifier;
      if (d.object_type !== 'entity' || !isObj(id) || !Array.isArray(id.fields)) return;
      for (const f of id.fields as string[]) if (Array.isArray(d[f])) d[f] = (d[f] as string[]).join(',');
    }),
  },
  {
    id: 'vlatest-path-404',
    description: 'paths with vLatest after the interface segment answer 404',
    breaks: ['OPS-VERSION-PATH', 'OPS-VERSION-LATEST-ONLY'],
    only: ['ops.versioning.vlatest-path'],
    wrap: (inner) => (req) => (/_interface\/vLatest(\/|$)/.test(req.path) ? notFound(`No such endpoint: ${req.path}`) : inner(req)),
  },
];
