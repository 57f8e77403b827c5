// Generic object CRUD used by the core, maintenance, backup and event-management interfaces.
import {
  HttpError,
  bad,
  notFound,
  clone,
  isObj,
  isStr,
  newKey,
  nowParts,
  isoMicro,
  spaceMicro,
  epochFloat,
  SCHEMA_VERSION,
  GLOBAL_TEAM,
  boolParam01,
  qp,
} from './util.mjs';
import {
  coll,
  snapshotAll,
  restoreAll,
  canRead,
  canWrite,
  visibleList,
  getReadable,
  getWritable,
  requireWriter,
  checkTargetTeams,
  objTeams,
} from './store.mjs';
import { selectShared, parseFields, project, filterPredicate } from './query.mjs';
import { bug } from './bugs.mjs';

// fields the server owns: a client can neither set nor remove them
export const SERVER_FIELDS = [
  '_key',
  'object_type',
  '_version',
  '_user',
  '_owner',
  'mod_source',
  'mod_timestamp',
  'mod_time',
  'mod_by',
  'identifying_name',
  'create_time',
  'create_by',
  'create_source',
  'permissions',
  'acl',
  '_type',
];
const COMMON_KNOWN = ['title', 'description', 'sec_grp', ...SERVER_FIELDS];

export function deepMerge(target, patch) {
  for (const [k, v] of Object.entries(patch)) {
    if (k === '__proto__' || k === 'constructor' || k === 'prototype') continue;
    if (isObj(v) && isObj(target[k])) deepMerge(target[k], v);
    else target[k] = clone(v);
  }
  return target;
}

export function defaultAcl(user) {
  return {
    app: 'SA-ITOA',
    owner: 'nobody',
    sharing: 'app',
    can_write: true,
    modifiable: true,
    perms: { read: ['*'], write: ['admin', 'ops_admin', 'ops_team_admin'] },
    created_by: user ? user.name : 'nobody',
  };
}

// stamps the server-owned fields on an object about to be stored
export function stamp(kind, user, obj, prev) {
  const p = nowParts();
  const keep = prev || {};
  obj._key = keep._key || obj._key;
  obj.object_type = kind.type;
  obj._version = SCHEMA_VERSION;
  obj._user = 'nobody';
  obj._owner = keep._owner !== undefined ? keep._owner : kind.owner ? kind.owner(user) : 'nobody';
  obj.mod_source = 'rest_api';
  obj.mod_timestamp = isoMicro(p);
  obj.mod_by = user.name;
  if (kind.timeStyle === 'event') {
    obj.mod_time = epochFloat(p);
    obj.create_time = keep.create_time !== undefined ? keep.create_time : epochFloat(p);
  } else {
    obj.mod_time = spaceMicro(p);
    obj.create_time = keep.create_time !== undefined ? keep.create_time : isoMicro(p);
  }
  obj.create_by = keep.create_by !== undefined ? keep.create_by : user.name;
  obj.create_source = keep.create_source !== undefined ? keep.create_source : 'rest_api';
  obj.acl = keep.acl !== undefined ? clone(keep.acl) : defaultAcl(user);
  delete obj.permissions; // computed per caller on every read
  if (kind.type === 'entity') obj._type = 'entity';
  else delete obj._type;
  if (isStr(obj.title)) obj.identifying_name = obj.title.toLowerCase();
  if (kind.stamp) kind.stamp(obj, prev, user, p);
  return obj;
}

function checkKeyField(k) {
  if (!isStr(k) || !k.trim()) throw bad('_key must be a non-empty string');
  if (k.length > 255) throw bad('_key must be at most 255 characters');
  if (k.includes('/')) throw bad('_key must not contain "/"');
}

function requireTitle(kind, body) {
  for (const f of kind.required || ['title']) {
    if (body[f] === undefined || body[f] === null || body[f] === '')
      throw bad(`Missing required field "${f}" for object type ${kind.type}`);
  }
}

function baseValidate(kind, body) {
  if (body.title !== undefined && (!isStr(body.title) || (!body.title.trim() && (kind.required || ['title']).includes('title'))))
    throw bad('Field "title" must be a non-empty string');
  if (body.description !== undefined && body.description !== null && !isStr(body.description))
    throw bad('Field "description" must be a string');
  if (body.sec_grp !== undefined && (!isStr(body.sec_grp) || !body.sec_grp)) throw bad('Field "sec_grp" must be a non-empty string');
  if (body.object_type !== undefined && body.object_type !== kind.type)
    throw bad(`Field "object_type" is "${body.object_type}" but the request addresses object type ${kind.type}`);
}

function strip(body) {
  const out = {};
  for (const [k, v] of Object.entries(body)) if (!SERVER_FIELDS.includes(k)) out[k] = clone(v);
  return out;
}

function targetTeams(kind, obj) {
  if (kind.targetTeams) return kind.targetTeams(obj);
  return objTeams(kind.type, obj);
}

// render one stored object for a caller
export function present(kind, user, obj) {
  const out = clone(obj);
  if (kind.present) return kind.present(out, user, obj);
  return out;
}

export function listObjects(kind, ctx, names) {
  if (kind.beforeRead) kind.beforeRead();
  const rows = selectShared(visibleList(ctx.user, kind.type), ctx.query, names);
  const fields = parseFields(ctx.query, names?.fields || 'fields');
  return rows.map((o) => project(present(kind, ctx.user, o), fields));
}

export function countObjects(kind, ctx, { ignoreAccess = false } = {}) {
  const pred = filterPredicate(qp(ctx.query, 'filter'));
  const base = ignoreAccess ? [...coll(kind.type).values()] : visibleList(ctx.user, kind.type);
  return { count: base.filter(pred).length };
}

export function getObject(kind, ctx, key) {
  if (kind.beforeRead) kind.beforeRead();
  return present(kind, ctx.user, getReadable(ctx.user, kind.type, key, kind.label));
}

// full write of a new object (or, with upsert, of an existing one)
export function createObject(kind, ctx, body, { upsert = false } = {}) {
  requireWriter(ctx.user);
  if (!isObj(body)) throw bad(`The payload must be a JSON object describing one ${kind.type}`);
  let key;
  if (body._key !== undefined) {
    checkKeyField(body._key);
    key = body._key;
    const existing = coll(kind.type).get(key);
    if (existing) {
      if (!canRead(ctx.user, kind.type, existing)) throw notFound(`${kind.label || kind.type} with key "${key}" does not exist`);
      if (!upsert) throw bad(`An object of type ${kind.type} with key "${key}" already exists`);
      return { created: false, key: replaceObject(kind, ctx, key, body, false) };
    }
  }
  baseValidate(kind, body);
  requireTitle(kind, body);
  if (kind.validate) kind.validate(body, { full: true, user: ctx.user, prev: null });
  const obj = strip(body);
  obj._key = key || (kind.newKey ? kind.newKey(obj) : newKey(kind.prefix));
  if (kind.defaults) kind.defaults(obj, ctx.user);
  if (!obj.sec_grp && kind.type !== 'team') obj.sec_grp = GLOBAL_TEAM;
  if (kind.type === 'team') obj.sec_grp = GLOBAL_TEAM;
  const teams = kind.type === 'team' ? [GLOBAL_TEAM] : targetTeams(kind, obj);
  checkTargetTeams(ctx.user, teams);
  if (kind.normalize) kind.normalize(obj, null, ctx.user);
  stamp(kind, ctx.user, obj, null);
  coll(kind.type).set(obj._key, obj);
  if (kind.afterWrite) kind.afterWrite(obj, null, ctx.user);
  return { created: true, key: obj._key };
}

// update of one existing object; partial = is_partial_data
export function replaceObject(kind, ctx, key, body, partial) {
  requireWriter(ctx.user);
  const prev = getWritable(ctx.user, kind.type, key, kind.label);
  if (!isObj(body)) throw bad(`The payload must be a JSON object describing one ${kind.type}`);
  if (body._key !== undefined && body._key !== key)
    throw bad(`The _key in the payload ("${body._key}") differs from the _key in the path ("${key}")`);
  if (kind.immutable?.(prev)) throw bad(kind.immutable(prev));
  baseValidate(kind, body);
  let obj;
  if (partial && !bug('partial_overwrites')) {
    if (kind.validate) kind.validate(body, { full: false, user: ctx.user, prev });
    const known = new Set([...COMMON_KNOWN, ...(kind.known || []), ...Object.keys(prev)]);
    const patch = {};
    for (const [k, v] of Object.entries(strip(body))) if (known.has(k)) patch[k] = v;
    obj = deepMerge(clone(prev), patch);
    if (obj.title !== undefined && (!isStr(obj.title) || !obj.title)) throw bad('Field "title" must be a non-empty string');
  } else {
    if (!partial) requireTitle(kind, body);
    if (kind.validate) kind.validate(body, { full: true, user: ctx.user, prev });
    obj = strip(body);
    for (const f of SERVER_FIELDS) if (prev[f] !== undefined) obj[f] = clone(prev[f]);
    if (kind.keepOnFull) for (const f of kind.keepOnFull) if (prev[f] !== undefined && obj[f] === undefined) obj[f] = clone(prev[f]);
  }
  obj._key = key;
  if (kind.type === 'team') obj.sec_grp = GLOBAL_TEAM;
  else if (!obj.sec_grp) obj.sec_grp = GLOBAL_TEAM;
  const teams = kind.type === 'team' ? [GLOBAL_TEAM] : targetTeams(kind, obj);
  if (kind.type !== 'team') checkTargetTeams(ctx.user, teams);
  if (kind.normalize) kind.normalize(obj, prev, ctx.user);
  stamp(kind, ctx.user, obj, prev);
  coll(kind.type).set(key, obj);
  if (kind.afterWrite) kind.afterWrite(obj, prev, ctx.user);
  return key;
}

export function deleteObject(kind, ctx, key) {
  requireWriter(ctx.user);
  const o = getWritable(ctx.user, kind.type, key, kind.label);
  if (kind.undeletable) {
    const why = kind.undeletable(o, false);
    if (why) throw bad(why);
  }
  coll(kind.type).delete(key);
  if (kind.afterDelete) kind.afterDelete(o);
}

// DELETE on the collection: the shared parameters select the rows; an incorrect filter selects all
export function bulkDelete(kind, ctx, names) {
  requireWriter(ctx.user);
  const rows = selectShared(visibleList(ctx.user, kind.type), ctx.query, names);
  let n = 0;
  for (const o of rows) {
    if (!canWrite(ctx.user, kind.type, o)) continue;
    if (kind.undeletable?.(o, true)) continue;
    coll(kind.type).delete(o._key);
    if (kind.afterDelete) kind.afterDelete(o);
    n += 1;
  }
  return n;
}

// POST <type>/bulk_update: all-or-nothing; unknown keys are created (full objects only)
export function bulkUpdate(kind, ctx, body) {
  requireWriter(ctx.user);
  const partial = boolParam01(ctx.query, 'is_partial_data', false);
  if (!Array.isArray(body)) throw bad('The bulk_update payload must be a JSON array of objects, each with a _key');
  if (!body.length) throw bad('The bulk_update payload is an empty array');
  const seen = new Set();
  body.forEach((o, i) => {
    if (!isObj(o)) throw bad(`Element ${i} of the bulk_update payload is not an object`);
    if (o._key === undefined) throw bad(`Element ${i} of the bulk_update payload has no _key`);
    checkKeyField(o._key);
    if (seen.has(o._key)) throw bad(`_key "${o._key}" appears twice in the bulk_update payload`);
    seen.add(o._key);
  });
  // dry run on copies so nothing changes when one element fails
  const store = coll(kind.type);
  const saved = snapshotAll();
  try {
    let last;
    for (const o of body) {
      if (store.has(o._key)) last = replaceObject(kind, ctx, o._key, o, partial);
      else {
        if (partial) throw notFound(`${kind.label || kind.type} with key "${o._key}" does not exist (a partial update cannot create it)`);
        last = createObject(kind, ctx, o, { upsert: true }).key;
      }
    }
    return { _key: last };
  } catch (e) {
    restoreAll(saved);
    throw e;
  }
}

export function methodNotAllowed(allowed) {
  return new HttpError(405, `Method not allowed here; allowed: ${allowed.join(', ')}`, { Allow: allowed.join(', ') });
}
