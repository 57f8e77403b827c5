// Generic object engine shared by the core, maintenance, backup and event-management interfaces.
import { coll } from './store.mjs';
import { canReadTeams, canWriteTeams, permissionsFor } from './auth.mjs';
import { listParams, parseFilter, select, project } from './query.mjs';
import { bugs } from './bugs.mjs';
import {
  ApiError,
  Reply,
  bad,
  notFound,
  forbidden,
  conflict,
  clone,
  isObj,
  newKey,
  parseBool,
  CURRENT_VERSION,
  GLOBAL_TEAM,
  isoTs,
  modTimeStr,
  plainTs,
  epochNow,
  lowerTitle,
} from './util.mjs';

export const REGISTRY = {};
export function register(def) {
  REGISTRY[def.collection || def.name] = def;
  return def;
}

export const COMMON_SERVER_FIELDS = [
  '_key',
  'object_type',
  '_version',
  '_user',
  '_owner',
  'create_by',
  'create_source',
  'create_time',
  'mod_by',
  'mod_source',
  'mod_time',
  'mod_timestamp',
  'identifying_name',
  'permissions',
  '_type',
];

export function teamsOf(def, doc) {
  if (def.teamsOf) return def.teamsOf(doc);
  if (def.teamMode === 'none') return [];
  if (def.teamMode === 'sec_grp_list' && Array.isArray(doc.sec_grp_list) && doc.sec_grp_list.length) return doc.sec_grp_list;
  return [typeof doc.sec_grp === 'string' ? doc.sec_grp : GLOBAL_TEAM];
}
export const readable = (def, doc, user) => canReadTeams(user, teamsOf(def, doc));
export const writable = (def, doc, user) => user.canWrite && canWriteTeams(user, teamsOf(def, doc));

export function requireWriter(ctx) {
  if (!ctx.user.canWrite) throw forbidden(`User '${ctx.user.name}' has read-only access and cannot change objects`);
}

export function teamExists(key) {
  return coll('team').has(key);
}

export function viewOf(def, doc, ctx) {
  let v = clone(doc);
  if (def.permissions !== false && def.teamMode !== 'none') v.permissions = permissionsFor(ctx.user, teamsOf(def, doc));
  if (def.view) v = def.view(v, ctx, doc) || v;
  return v;
}

/** fetch a readable object or 404 */
export function getReadable(def, key, ctx) {
  const doc = coll(def.collection || def.name).get(key);
  if (!doc || !readable(def, doc, ctx.user)) throw notFound(`No ${def.name} object with _key '${key}' exists or you cannot read it`);
  return doc;
}
export function getWritable(def, key, ctx) {
  requireWriter(ctx);
  const doc = getReadable(def, key, ctx);
  if (!writable(def, doc, ctx.user)) throw forbidden(`You do not have write access to ${def.name} '${key}'`);
  return doc;
}

const KEY_RE = /^[A-Za-z0-9_.:@-]{1,200}$/;

/**
 * Build (but do not store) the new version of an object.
 * mode: 'create' | 'replace' | 'partial'
 */
export function prepare(def, ctx, payload, { old = null, mode }) {
  if (!isObj(payload)) throw bad(`The payload for ${def.name} must be a JSON object`);
  const objectType = def.objectType || def.name;
  if (payload.object_type !== undefined && payload.object_type !== objectType)
    throw bad(`object_type '${payload.object_type}' does not match the endpoint's object type '${objectType}'`);
  const owned = new Set([...COMMON_SERVER_FIELDS, ...(def.serverOwned || [])]);
  const clean = {};
  for (const [k, v] of Object.entries(payload)) if (!owned.has(k)) clean[k] = clone(v);

  let doc;
  if (mode === 'partial') {
    doc = { ...clone(old), ...clean };
  } else {
    for (const f of bugs.has('replace-skips-required') && old ? [] : def.required || ['title']) {
      if (clean[f] === undefined || clean[f] === null || clean[f] === '')
        throw bad(`Required field '${f}' is missing from the ${def.name} payload (is_partial_data=0 needs the whole object)`);
    }
    doc = clean;
    if (old) for (const k of owned) if (old[k] !== undefined && k !== 'permissions') doc[k] = clone(old[k]);
  }
  if (def.teamMode !== 'none' && def.name !== 'team') {
    if (doc.sec_grp === undefined || doc.sec_grp === null) doc.sec_grp = old?.sec_grp ?? GLOBAL_TEAM;
    if (typeof doc.sec_grp !== 'string') throw bad(`Field 'sec_grp' must be a string (a team key)`);
    if (!teamExists(doc.sec_grp)) throw bad(`Field 'sec_grp' names team '${doc.sec_grp}', which does not exist`);
  }
  if (doc.title !== undefined && (typeof doc.title !== 'string' || doc.title.trim() === ''))
    throw bad(`Field 'title' must be a non-empty string`);
  if (doc.description !== undefined && doc.description !== null && typeof doc.description !== 'string')
    throw bad(`Field 'description' must be a string`);
  if (def.normalize) def.normalize(doc, ctx, old, mode, clean);
  if (def.validate) def.validate(doc, ctx, old, mode);

  const teams = teamsOf(def, doc);
  if (!canWriteTeams(ctx.user, teams)) throw forbidden(`You do not have write access to team(s) ${teams.join(', ')}`);

  // server stamps
  const now = new Date();
  doc.object_type = objectType;
  doc._version = CURRENT_VERSION;
  if (!old) {
    doc._key = doc._key ?? newKey();
    doc._user = ctx.pathUser || 'nobody';
    doc._owner = ctx.user.name;
    if (def.createTime !== 'none') {
      doc.create_time = def.createTime === 'plain' ? plainTs(now) : def.createTime === 'epoch' ? epochNow() : isoTs(now);
      doc.create_by = ctx.user.name;
      doc.create_source = 'REST';
    }
  } else {
    doc._key = old._key;
  }
  if (def.stamps !== 'light') {
    doc.mod_by = ctx.user.name;
    doc.mod_source = 'REST';
    doc.mod_time = modTimeStr(now);
    doc.mod_timestamp = isoTs(now);
    if (typeof doc.title === 'string') doc.identifying_name = lowerTitle(doc.title);
  } else {
    doc.mod_time = epochNow();
  }
  delete doc.permissions;
  return doc;
}

export function commit(def, doc, old, ctx) {
  coll(def.collection || def.name).put(doc);
  if (def.afterWrite) def.afterWrite(doc, old, ctx);
  return doc;
}

// ---------------------------------------------------------------- handlers

export function visibleRows(def, ctx, pred = () => true) {
  return coll(def.collection || def.name)
    .rows()
    .filter((r) => readable(def, r.doc, ctx.user) && pred(r.doc))
    .map((r) => ({ doc: viewOf(def, r.doc, ctx), seq: r.seq, raw: r.doc }));
}

export function handleList(def, ctx, opts) {
  const p = listParams(ctx.params, opts);
  const rows = select(visibleRows(def, ctx), p);
  return rows.map((r) => project(r.doc, p.fields));
}

export function handleCount(def, ctx, filterName = 'filter') {
  const f = parseFilter(ctx.params.get(filterName));
  const rows = visibleRows(def, ctx);
  return { count: f ? rows.filter((r) => f(r.doc)).length : rows.length };
}

export async function handleCreate(def, ctx) {
  requireWriter(ctx);
  const payload = await ctx.json(true);
  if (!isObj(payload)) throw bad(`The payload for ${def.name} must be a JSON object`);
  const c = coll(def.collection || def.name);
  if (payload._key !== undefined) {
    if (typeof payload._key !== 'string' || !KEY_RE.test(payload._key))
      throw bad(`Field '_key' must be a string of letters, digits, '_', '-', '.', ':' or '@'`);
    const old = c.get(payload._key);
    if (old) {
      if (!readable(def, old, ctx.user)) throw conflict(`_key '${payload._key}' is already in use`);
      if (!writable(def, old, ctx.user)) throw forbidden(`You do not have write access to ${def.name} '${payload._key}'`);
      const doc = prepare(def, ctx, payload, { old, mode: 'replace' });
      commit(def, doc, old, ctx);
      return new Reply(200, { _key: doc._key });
    }
  }
  const doc = prepare(def, ctx, payload, { mode: 'create' });
  if (payload._key !== undefined) doc._key = payload._key;
  commit(def, doc, null, ctx);
  return new Reply(201, { _key: doc._key });
}

export function partialFlag(ctx) {
  if (bugs.has('partial-flag-ignored')) return ctx.params.get('is_partial_data') === 'true';
  return parseBool(ctx.params.get('is_partial_data'), 'is_partial_data', false);
}

export async function handleUpdate(def, ctx, key) {
  const partial = partialFlag(ctx);
  const old = getWritable(def, key, ctx);
  const payload = await ctx.json(true);
  if (isObj(payload) && payload._key !== undefined && payload._key !== key)
    throw bad(`The payload's _key '${payload._key}' does not match the _key in the path '${key}'`);
  const doc = prepare(def, ctx, payload, { old, mode: partial ? 'partial' : 'replace' });
  commit(def, doc, old, ctx);
  return { _key: doc._key };
}

export async function handleBulkUpdate(def, ctx) {
  const partial = partialFlag(ctx);
  requireWriter(ctx);
  const payload = await ctx.json(true);
  if (!Array.isArray(payload) || payload.length === 0) throw bad('The bulk_update payload must be a non-empty array of objects');
  const seen = new Set();
  const prepared = payload.map((item, i) => {
    if (!isObj(item)) throw bad(`Item ${i} of the bulk_update payload is not an object`);
    if (typeof item._key !== 'string' || !item._key) throw bad(`Item ${i} of the bulk_update payload has no _key`);
    if (seen.has(item._key)) throw bad(`_key '${item._key}' appears more than once in the payload`);
    seen.add(item._key);
    const old = getWritable(def, item._key, ctx);
    return [prepare(def, ctx, item, { old, mode: partial ? 'partial' : 'replace' }), old];
  });
  for (const [doc, old] of prepared) commit(def, doc, old, ctx);
  return { _key: prepared.map(([d]) => d._key) };
}

export function handleGet(def, ctx, key) {
  if (bugs.has('get-by-key-leak')) {
    const doc = coll(def.collection || def.name).get(key);
    if (!doc) throw notFound(`No ${def.name} object with _key '${key}' exists or you cannot read it`);
    return viewOf(def, doc, ctx);
  }
  return viewOf(def, getReadable(def, key, ctx), ctx);
}

export function deleteOne(def, doc, ctx) {
  coll(def.collection || def.name).delete(doc._key);
  if (def.afterDelete) def.afterDelete(doc, ctx);
}

export function handleDeleteOne(def, ctx, key) {
  const doc = getWritable(def, key, ctx);
  if (def.canDelete) def.canDelete(doc, ctx, false); // throws when protected
  deleteOne(def, doc, ctx);
  return undefined; // empty body
}

export function handleBulkDelete(def, ctx, opts) {
  requireWriter(ctx);
  const p = listParams(ctx.params, opts);
  p.fields = null;
  if (bugs.has('bulk-delete-ignores-filter')) p.filter = null;
  const rows = select(
    visibleRows(def, ctx, (d) => writable(def, d, ctx.user)),
    p,
  );
  for (const r of rows) {
    if (def.canDelete) {
      try {
        def.canDelete(r.raw, ctx, true);
      } catch (e) {
        if (e instanceof ApiError) continue;
        throw e;
      }
    }
    deleteOne(def, r.raw, ctx);
  }
  return undefined;
}
