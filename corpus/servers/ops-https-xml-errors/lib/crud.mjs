// Generic object CRUD shared by the core, maintenance, backup and event-management interfaces.
import { bad, notFound, isObj, isStr, clone, nowMicros, isoUtc, epochFloat, CURRENT_VERSION, GLOBAL_TEAM, bug, newKey } from './util.mjs';
import { store } from './store.mjs';
import { canRead, canWrite, assertRead, assertWrite } from './auth.mjs';
import { compileFilter, sortRows, page, project, intParam, fieldsParam, sortDir10 } from './query.mjs';
import {
  SERVER_FIELDS,
  knownFields,
  checkRequired,
  runPrepare,
  decorate,
  afterDelete,
  hasSecGrp,
  finishService,
  EVENT_TYPES,
  DEFAULT_BACKUP_KEY,
  teamInUse,
} from './types.mjs';

export function defaultAcl() {
  return {
    owner: 'nobody',
    app: 'SA-ITOA',
    sharing: 'app',
    modifiable: true,
    can_write: true,
    perms: { read: ['*'], write: ['admin', 'itoa_admin', 'itoa_team_admin'] },
  };
}

export function stripServer(input) {
  const o = clone(input);
  for (const f of SERVER_FIELDS) delete o[f];
  return o;
}

export function stamp(type, obj, prev, _ctx) {
  const m = nowMicros();
  const out = { _key: obj._key };
  for (const [k, v] of Object.entries(obj)) if (k !== '_key') out[k] = v;
  out.object_type = type;
  out._owner = prev?._owner ?? 'nobody';
  out._user = prev?._user ?? 'nobody';
  out._version = CURRENT_VERSION;
  out.acl = prev?.acl ? clone(prev.acl) : defaultAcl();
  out.mod_source = 'REST';
  out.mod_timestamp = isoUtc(m);
  if (isStr(out.title)) out.identifying_name = out.title.toLowerCase();
  if (hasSecGrp(type) && out.sec_grp === undefined) out.sec_grp = GLOBAL_TEAM;
  if (EVENT_TYPES.includes(type)) {
    out.create_time = prev?.create_time ?? epochFloat(m);
    out.mod_time = epochFloat(m);
  }
  if (type === 'service') finishService(out);
  return out;
}

function checkObjectType(type, input) {
  if (input.object_type !== undefined && input.object_type !== type) {
    throw bad(`object_type ${JSON.stringify(input.object_type)} does not match the endpoint type ${type}`);
  }
}

export function requireObject(body, what = 'payload') {
  if (!isObj(body)) throw bad(`The ${what} must be a JSON object`);
  return body;
}

function afterWrite(type, obj) {
  if (type === 'service') {
    for (const e of store.all('entity')) {
      for (const s of e.services || []) if (s._key === obj._key) s.title = obj.title;
    }
  }
}

function commit(type, obj, prev, ctx) {
  assertWrite(ctx.user, type, obj);
  store.put(type, obj);
  afterWrite(type, obj, prev);
  return obj;
}

// Create, or overwrite when the given _key already exists (full object).
export function createObject(ctx, type, body, { upsert = true } = {}) {
  const input = requireObject(body);
  checkObjectType(type, input);
  if (input._key !== undefined && (!isStr(input._key) || !input._key)) throw bad('_key must be a non-empty string');
  const key = input._key;
  const prev = key !== undefined ? store.get(type, key) : undefined;
  if (prev) {
    if (!upsert) throw bad(`An object with _key ${key} already exists`);
    assertRead(ctx.user, type, prev);
    assertWrite(ctx.user, type, prev);
  }
  const obj = stripServer(input);
  delete obj.object_type;
  checkRequired(type, obj);
  obj._key = key ?? newKey();
  runPrepare(type, obj, prev, ctx);
  const out = stamp(type, obj, prev, ctx);
  return commit(type, out, prev, ctx);
}

export function loadReadable(ctx, type, key) {
  const obj = store.get(type, key);
  if (!obj) throw notFound(`Object not found: ${type}/${key}`);
  assertRead(ctx.user, type, obj);
  return obj;
}

export function updateObject(ctx, type, key, body, partial) {
  const input = requireObject(body);
  const prev = loadReadable(ctx, type, key);
  assertWrite(ctx.user, type, prev);
  checkObjectType(type, input);
  if (input._key !== undefined && input._key !== key) throw bad('_key in the payload does not match the _key in the path');
  const patch = stripServer(input);
  delete patch.object_type;
  let obj;
  if (partial && !bug('partial_overwrites')) {
    const known = knownFields(type);
    for (const k of Object.keys(prev)) known.add(k);
    obj = clone(prev);
    for (const [k, v] of Object.entries(patch)) if (known.has(k)) obj[k] = v;
    for (const f of SERVER_FIELDS) if (!(f in prev)) delete obj[f];
  } else {
    obj = patch;
  }
  obj._key = key;
  if (!(partial && bug('partial_overwrites'))) checkRequired(type, obj);
  runPrepare(type, obj, prev, ctx);
  const out = stamp(type, obj, prev, ctx);
  return commit(type, out, prev, ctx);
}

export function deleteOne(ctx, type, key) {
  const obj = loadReadable(ctx, type, key);
  assertWrite(ctx.user, type, obj);
  if (type === 'backup_restore' && key === DEFAULT_BACKUP_KEY) {
    throw bad('The default scheduled backup cannot be deleted');
  }
  if (type === 'team') {
    if (key === GLOBAL_TEAM) throw bad('The Global team cannot be deleted');
    if (teamInUse(key)) throw bad('The team still owns objects; move or delete them first');
  }
  store.del(type, key);
  afterDelete(type, obj);
}

// Shared list parameters -> selected rows (readable, filtered, sorted, paged).
export function selectRows(ctx, type, opts = {}) {
  const q = ctx.query;
  const limit = intParam(q, opts.limitParam || 'limit');
  const offset = intParam(q, opts.offsetParam || 'offset');
  const sortKey = q.get('sort_key') || undefined;
  const asc = opts.sortDir ? opts.sortDir(q) : sortDir10(q);
  const pred = compileFilter(q.has(opts.filterParam || 'filter') ? q.get(opts.filterParam || 'filter') : undefined);
  let rows = store.rows(type).filter((r) => canRead(ctx.user, type, r.obj));
  if (opts.pre) rows = rows.filter((r) => opts.pre(r.obj));
  rows = rows.filter((r) => pred(r.obj));
  sortRows(rows, sortKey, asc);
  const total = rows.length;
  if (limit === 0 && !opts.limitZeroAll) rows = [];
  else rows = page(rows, offset, limit === 0 ? undefined : limit);
  return { rows, total };
}

export function listObjects(ctx, type, opts = {}) {
  const fields = fieldsParam(ctx.query);
  const { rows } = selectRows(ctx, type, opts);
  return rows.map((r) => {
    let o = decorate(type, r.obj, ctx);
    if (opts.post) o = opts.post(o);
    return project(o, fields);
  });
}

export function countObjects(ctx, type, opts = {}) {
  const pred = compileFilter(ctx.query.has('filter') ? ctx.query.get('filter') : undefined);
  let n = 0;
  for (const r of store.rows(type)) {
    if (!(opts.ignoreAccess || canRead(ctx.user, type, r.obj))) continue;
    if (pred(r.obj)) n++;
  }
  return n;
}

export function bulkDelete(ctx, type, opts = {}) {
  const { rows } = selectRows(ctx, type, opts);
  for (const r of rows) {
    if (!canWrite(ctx.user, type, r.obj)) continue;
    if (type === 'backup_restore' && r.obj._key === DEFAULT_BACKUP_KEY && !bug('default_backup_bulk_delete')) continue;
    if (type === 'team' && (r.obj._key === GLOBAL_TEAM || teamInUse(r.obj._key))) continue;
    store.del(type, r.obj._key);
    afterDelete(type, r.obj);
  }
}

export function bulkUpdate(ctx, type, body, partial) {
  if (!Array.isArray(body)) throw bad('The payload must be a JSON array of objects, each with _key');
  body.forEach((o, i) => {
    if (!isObj(o)) throw bad(`Element ${i} of the payload is not an object`);
    if (!isStr(o._key) || !o._key) throw bad(`Element ${i} of the payload has no _key`);
  });
  // validate everything first so that the operation is all-or-nothing
  for (const o of body) {
    const prev = store.get(type, o._key);
    if (!prev) {
      if (partial) throw notFound(`Object not found: ${type}/${o._key}`);
      continue;
    }
    assertRead(ctx.user, type, prev);
    assertWrite(ctx.user, type, prev);
  }
  const snapshot = body.map((o) => [o._key, store.copy(type, o._key)]);
  const keys = [];
  try {
    for (const o of body) {
      if (store.has(type, o._key)) updateObject(ctx, type, o._key, o, partial);
      else createObject(ctx, type, o);
      keys.push(o._key);
    }
  } catch (e) {
    for (const [k, prev] of snapshot) {
      if (prev) store.put(type, prev);
      else store.del(type, k);
    }
    throw e;
  }
  return keys;
}
