// Generic object-collection behaviour shared by the core, maintenance and backup interfaces.
import { bad, notFound, forbidden, conflict, GLOBAL, isPlainObject, clone, newKey, qp, bool01Param, intParam } from './util.mjs';
import { Reply } from './util.mjs';
import { canRead, canWrite } from './access.mjs';
import { core, stamp } from './store.mjs';
import { applyShared, parseFilter, sortBy, sortDir01 } from './query.mjs';
import { bug } from './bugs.mjs';

// Fields the server maintains; a client value for them is ignored.
export const SERVER_FIELDS = new Set([
  '_key',
  'object_type',
  '_user',
  '_version',
  'mod_source',
  'mod_timestamp',
  'mod_time',
  'identifying_name',
  'create_time',
  'create_by',
  'create_source',
  'mod_by',
  'permissions',
  '_type',
]);

export const COMMON_SCHEMA = ['title', 'description', 'sec_grp', '_owner'];

export function teamExists(key) {
  return core.team.has(key);
}

export const defaultHooks = {
  schema: [],
  required: ['title'],
  readable: (doc, u) => canRead(u, doc.sec_grp),
  writable: (doc, u) => canWrite(u, doc.sec_grp),
  normalize: () => {},
  view: (doc) => doc,
  uniqueTitle: false,
  onCreate: () => {},
  beforeDelete: () => {},
  afterDelete: () => {},
};

export function hooksFor(registry, type) {
  return { ...defaultHooks, ...(registry[type] || {}) };
}

function schemaHas(h, existing, name, incoming) {
  if (COMMON_SCHEMA.includes(name) || h.schema.includes(name)) return true;
  if (existing && Object.hasOwn(existing, name)) return true;
  if (h.dynamicSchema?.(existing, incoming).includes(name)) return true;
  return false;
}

// Write one object. partial: is_partial_data=1 semantics. Returns {doc, created}.
export function writeObject(coll, type, h, ctx, incoming, existing, partial, forcedKey) {
  if (!isPlainObject(incoming)) throw bad('The payload must be a JSON object (dictionary) following the schema of ' + type);
  let doc;
  if (existing && partial) {
    doc = clone(existing);
    for (const [k, v] of Object.entries(incoming)) {
      if (SERVER_FIELDS.has(k) || k === '__proto__') continue;
      if (!schemaHas(h, existing, k, incoming)) continue; // not in the original schema: not written
      doc[k] = clone(v);
    }
  } else {
    doc = bug('full_update_merges') && existing ? clone(existing) : {};
    for (const [k, v] of Object.entries(incoming)) if (!SERVER_FIELDS.has(k) && k !== '__proto__') doc[k] = clone(v);
    if (existing)
      for (const k of ['create_time', 'create_by', 'create_source', '_type']) {
        if (k in existing) doc[k] = existing[k];
      }
    for (const r of h.required) {
      if (!(r in doc) || doc[r] === null || doc[r] === undefined) {
        throw bad(`Missing required field '${r}' (is_partial_data=0 requires the required fields of the schema)`);
      }
    }
  }
  if ('title' in doc && typeof doc.title !== 'string') throw bad("Field 'title' must be a string");
  if (h.secGrp !== false) {
    if (doc.sec_grp === undefined || doc.sec_grp === null) doc.sec_grp = GLOBAL;
    if (typeof doc.sec_grp !== 'string' || !teamExists(doc.sec_grp)) throw bad(`Unknown security group (team) '${doc.sec_grp}'`);
  }
  const key = existing ? existing._key : forcedKey || newKey();
  if (typeof key !== 'string' || key === '') throw bad('_key must be a non-empty string');
  doc._key = key;
  doc.object_type = h.objectType || type;
  if (existing && !h.writable(existing, ctx.user)) throw forbidden(`No write access to ${type} '${key}'`);
  h.normalize(doc, ctx, existing, partial);
  if (!h.writable(doc, ctx.user)) throw forbidden(`No write access to the security group of this ${type}`);
  if (h.uniqueTitle && typeof doc.title === 'string') {
    const lc = doc.title.toLowerCase();
    for (const o of coll.all()) {
      if (o._key !== key && typeof o.title === 'string' && o.title.toLowerCase() === lc) {
        throw conflict(`A ${type} with the title '${doc.title}' already exists`);
      }
    }
  }
  stamp(doc, ctx, { keepVersion: Boolean(existing && partial) });
  if (!existing) h.onCreate(doc, ctx);
  coll.put(key, doc);
  return { doc, created: !existing };
}

export function readableViews(coll, h, ctx) {
  return coll
    .all()
    .filter((d) => h.readable(d, ctx.user))
    .map((d) => h.view(d, ctx));
}

export function listObjects(coll, h, ctx) {
  return applyShared(readableViews(coll, h, ctx), ctx.q).rows;
}

export function getObject(coll, h, ctx, key) {
  const d = coll.get(key);
  if (!d || !h.readable(d, ctx.user)) throw notFound(`Object '${key}' not found`);
  return h.view(d, ctx);
}

export function countObjects(coll, h, ctx, { accessRestricted }) {
  let items = coll.all();
  if (accessRestricted) items = items.filter((d) => h.readable(d, ctx.user));
  items = items.map((d) => h.view(d, ctx));
  const pred = parseFilter(qp(ctx.q, 'filter'));
  return { count: pred ? items.filter(pred).length : items.length };
}

export function createObject(coll, type, h, ctx, body) {
  if (!isPlainObject(body)) throw bad('The payload must be a JSON object (dictionary) following the schema of ' + type);
  let existing;
  if (body._key !== undefined) {
    if (typeof body._key !== 'string' || body._key === '') throw bad('_key must be a non-empty string');
    existing = coll.get(body._key);
    if (existing && !h.readable(existing, ctx.user)) throw forbidden(`No access to ${type} '${body._key}'`);
  }
  const { doc, created } = writeObject(coll, type, h, ctx, body, existing, false, body._key);
  return new Reply(created ? 201 : 200, { _key: doc._key });
}

export function updateObject(coll, type, h, ctx, key, body) {
  const partial = bool01Param(ctx.q, 'is_partial_data', 0) === 1;
  const existing = coll.get(key);
  if (!existing || !h.readable(existing, ctx.user)) throw notFound(`Object '${key}' not found`);
  const { doc } = writeObject(coll, type, h, ctx, body, existing, partial);
  return { _key: doc._key };
}

export function deleteOne(coll, type, h, ctx, key) {
  const d = coll.get(key);
  if (!d || !h.readable(d, ctx.user)) throw notFound(`Object '${key}' not found`);
  if (!h.writable(d, ctx.user)) throw forbidden(`No write access to ${type} '${key}'`);
  h.beforeDelete(d, ctx, 'single');
  coll.delete(key);
  h.afterDelete(d, ctx);
  return new Reply(200, undefined, true);
}

// Bulk delete: the shared query parameters select the rows (filter, sort, offset, limit); only rows
// the caller can write are candidates.
export function deleteMany(coll, _type, h, ctx) {
  if (!ctx.user.write || (ctx.user.write !== '*' && ctx.user.write.length === 0)) throw forbidden('Read-only user');
  const items = coll.all().filter((d) => h.readable(d, ctx.user) && h.writable(d, ctx.user));
  const views = items.map((d) => h.view(d, ctx));
  const pred = parseFilter(qp(ctx.q, 'filter'));
  let sel = pred ? views.filter(pred) : views;
  const sk = qp(ctx.q, 'sort_key');
  const asc = sortDir01(ctx.q);
  if (sk) sel = sortBy(sel, sk, asc);
  const off = intParam(ctx.q, 'offset');
  const lim = intParam(ctx.q, 'limit');
  if (off !== undefined) sel = sel.slice(off);
  if (lim !== undefined) sel = sel.slice(0, lim);
  for (const v of sel) {
    const d = coll.get(v._key);
    if (!d) continue;
    if (h.protectedFromBulk?.(d)) continue;
    h.beforeDelete(d, ctx, 'bulk');
    coll.delete(v._key);
    h.afterDelete(d, ctx);
  }
  return new Reply(200, undefined, true);
}
