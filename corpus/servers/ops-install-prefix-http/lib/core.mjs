// Core interface (itoa_interface): generic object CRUD and the entity/service special endpoints.
import crypto from 'node:crypto';
import {
  GLOBAL,
  bad,
  invalid,
  notFound,
  forbidden,
  methodNotAllowed,
  isObj,
  clone,
  deepMerge,
  boolParam,
  hexKey,
  uuid,
  isoOffset,
  modTime,
  titleToIdentifying,
  SCHEMA_VERSION,
} from './util.mjs';
import { db, CORE_TYPES, UNUSED_CORE_TYPES, stamp, teamOf } from './store.mjs';
import { canRead, canWrite } from './auth.mjs';
import { sharedQuery, select, project, filterPredicate } from './query.mjs';
import { ctwPresent, ctwValidate, handleCtwSpecial } from './ctw.mjs';
import { handleLibrary } from './contentpacks.mjs';
import { handleAuthoring } from './authoring.mjs';

const ALL_CORE = [...CORE_TYPES, ...UNUSED_CORE_TYPES];

export const kpiKey = () => crypto.randomBytes(20).toString('hex');

// Team used for access checks on a core object.
export function accessTeam(type, obj) {
  return type === 'team' ? obj._key : teamOf(obj);
}
export function readable(user, type, obj) {
  return canRead(user, accessTeam(type, obj));
}
function writable(user, type, obj) {
  if (type === 'team') return canWrite(user, GLOBAL);
  return canWrite(user, teamOf(obj));
}

export function permissionsFor(user, team) {
  const r = canRead(user, team);
  const w = canWrite(user, team);
  return { user: user.name, group: { read: r, write: w, delete: w }, read: r, write: w, delete: w };
}

export function presentCore(type, obj, user) {
  const o = clone(obj);
  o.permissions = permissionsFor(user, accessTeam(type, obj));
  if (type === 'custom_threshold_windows') return ctwPresent(o, user);
  return o;
}

function requireType(type) {
  if (!ALL_CORE.includes(type)) throw bad(`(400, 'Unsupported object type: ${String(type).slice(0, 80)}')`, 'UNSUPPORTED_OBJECT_TYPE');
}

function checkTeamExists(team) {
  if (team === GLOBAL) return;
  if (!db.core.team.has(team)) throw invalid(`sec_grp "${team}" is not a known team`, 'UNKNOWN_TEAM');
}

// Validates a whole (full) object body for a type, fills defaults. Mutates obj.
function validateFull(type, obj) {
  if (typeof obj.title !== 'string')
    throw invalid(`Required field "title" is missing or not a string for ${type}`, 'MISSING_REQUIRED_FIELD');
  if (obj.sec_grp !== undefined && typeof obj.sec_grp !== 'string') throw invalid('sec_grp must be a string', 'INVALID_FIELD');
  normalizeTypeFields(type, obj);
}

function normalizeTypeFields(type, obj) {
  if (type === 'service') {
    if (obj.kpis !== undefined && !Array.isArray(obj.kpis)) throw invalid('kpis must be an array', 'INVALID_FIELD');
    if (obj.entity_rules !== undefined && !Array.isArray(obj.entity_rules)) throw invalid('entity_rules must be an array', 'INVALID_FIELD');
    obj.kpis = (obj.kpis || []).map((k) => {
      if (!isObj(k)) throw invalid('each KPI must be an object', 'INVALID_FIELD');
      const kk = { ...k };
      if (typeof kk._key !== 'string' || !kk._key) kk._key = kpiKey();
      kk.service_id = obj._key;
      if (typeof obj.title === 'string') kk.service_title = obj.title;
      return kk;
    });
    if (obj.entity_rules === undefined) obj.entity_rules = [];
  }
  if (type === 'entity') {
    if (obj.services !== undefined && !Array.isArray(obj.services)) throw invalid('services must be an array', 'INVALID_FIELD');
    if (obj.services === undefined) obj.services = [];
    obj._type = 'entity';
  }
  if (type === 'custom_threshold_windows') ctwValidate(obj);
}

function prepareNew(type, body, user) {
  const obj = clone(body);
  if (obj._key !== undefined && (typeof obj._key !== 'string' || !obj._key))
    throw invalid('_key must be a non-empty string', 'INVALID_FIELD');
  if (!obj._key) obj._key = type === 'entity' || type === 'service' ? uuid() : hexKey();
  validateFull(type, obj);
  if (type !== 'team' && !obj.sec_grp) obj.sec_grp = GLOBAL;
  if (type === 'team') obj.sec_grp = GLOBAL;
  const now = Date.now();
  obj.create_by = user.name;
  obj.create_source = 'REST';
  obj.create_time = isoOffset(now);
  obj.mod_time = modTime(now);
  obj.mod_by = user.name;
  stamp(obj, type, user);
  return obj;
}

function checkWriteNew(user, type, obj) {
  if (type !== 'team') checkTeamExists(teamOf(obj));
  if (!writable(user, type, obj)) throw forbidden(`User ${user.name} cannot write objects of team ${accessTeam(type, obj)}`);
}

const SYSTEM_FIELDS = ['_key', 'create_by', 'create_source', 'create_time'];

// Full replacement of an existing object.
function fullReplace(type, existing, body, user) {
  const obj = clone(body);
  for (const f of SYSTEM_FIELDS) obj[f] = existing[f];
  validateFull(type, obj);
  if (type === 'team') obj.sec_grp = GLOBAL;
  else if (!obj.sec_grp) obj.sec_grp = GLOBAL;
  obj.mod_time = modTime();
  stamp(obj, type, user);
  return obj;
}

function partialUpdate(type, existing, body, user) {
  const obj = clone(existing);
  const patch = clone(body);
  delete patch._key;
  delete patch.object_type;
  deepMerge(obj, patch);
  if (obj.title !== undefined && typeof obj.title !== 'string') throw invalid('title must be a string', 'INVALID_FIELD');
  if (type === 'team') obj.sec_grp = GLOBAL;
  normalizeTypeFields(type, obj);
  obj.mod_time = modTime();
  stamp(obj, type, user);
  return obj;
}

export function applyUpdate(type, key, body, partial, user) {
  const store = db.core[type];
  const existing = store.get(key);
  if (!existing || !readable(user, type, existing)) throw notFound(`No ${type} with _key ${key}`);
  if (!writable(user, type, existing)) throw forbidden(`User ${user.name} cannot write this ${type}`);
  if (!isObj(body)) throw bad('Payload must be a JSON object', 'INVALID_PAYLOAD');
  const next = partial ? partialUpdate(type, existing, body, user) : fullReplace(type, existing, body, user);
  if (type !== 'team') checkTeamExists(teamOf(next));
  if (!writable(user, type, next)) throw forbidden(`User ${user.name} cannot move this ${type} to team ${teamOf(next)}`);
  store.set(key, next);
  if (type === 'service') syncServiceTitles(next);
  return next;
}

function syncServiceTitles(svc) {
  for (const e of db.core.entity.values()) {
    for (const s of e.services || []) if (isObj(s) && s._key === svc._key) s.title = svc.title;
  }
}

export function createObject(type, body, user) {
  if (!isObj(body)) throw bad('Payload must be a JSON object', 'INVALID_PAYLOAD');
  const store = db.core[type];
  if (typeof body._key === 'string' && store.has(body._key)) {
    // POST <object_type> with the key of an existing object updates it (whole object).
    applyUpdate(type, body._key, body, false, user);
    return { key: body._key, created: false };
  }
  const obj = prepareNew(type, body, user);
  checkWriteNew(user, type, obj);
  store.set(obj._key, obj);
  return { key: obj._key, created: true };
}

function readableRows(user, type) {
  return [...db.core[type].values()].reverse().filter((o) => readable(user, type, o));
}

export async function handleCore(ctx) {
  const { segs, method, q, user } = ctx;
  const [a, b, c, d] = segs;
  if (!a) throw notFound('No such endpoint');
  if (a === 'get_alias_list') {
    if (segs.length !== 1) throw notFound('No such endpoint');
    if (method !== 'GET') throw methodNotAllowed(['GET']);
    return ctx.reply(200, aliasList(user));
  }
  if (a === 'get_supported_object_types') {
    if (segs.length !== 1) throw notFound('No such endpoint');
    if (method !== 'GET') throw methodNotAllowed(['GET']);
    return ctx.reply(200, [...ALL_CORE]);
  }
  if (a === 'content_pack') return handleLibrary(ctx, segs.slice(1));
  if (a === 'content_pack_authorship') return handleAuthoring(ctx, segs.slice(1));
  if (a === 'custom_threshold_windows' && (b === 'linked_kpis' || ['stop', 'associate_service_kpi', 'disconnect_kpis'].includes(c))) {
    return handleCtwSpecial(ctx, segs.slice(1));
  }
  if (a === 'entity' && ['count_retirable', 'retire', 'restore', 'retire_retirable'].includes(b) && segs.length === 2) {
    return handleEntitySpecial(ctx, b);
  }
  requireType(a);
  const type = a;
  if (segs.length === 1) {
    if (method === 'GET') {
      const sq = sharedQuery(q);
      const rows = select(readableRows(user, type), sq).map((o) => project(presentCore(type, o, user), sq.fields));
      return ctx.reply(200, rows);
    }
    if (method === 'POST') {
      const r = createObject(type, ctx.json(), user);
      return ctx.reply(r.created ? 201 : 200, { _key: r.key });
    }
    if (method === 'DELETE') {
      const sq = sharedQuery(q);
      const rows = select(
        readableRows(user, type).filter((o) => writable(user, type, o)),
        sq,
      );
      for (const o of rows) db.core[type].delete(o._key);
      return ctx.reply(200, null);
    }
    throw methodNotAllowed(['GET', 'POST', 'DELETE']);
  }
  if (b === 'count' && segs.length === 2) {
    if (method !== 'GET') throw methodNotAllowed(['GET']);
    const pred = filterPredicate(q.has('filter') ? q.getAll('filter').pop() : undefined);
    return ctx.reply(200, { count: readableRows(user, type).filter(pred).length });
  }
  if (b === 'bulk_update' && segs.length === 2) {
    if (method !== 'POST') throw methodNotAllowed(['POST']);
    return bulkUpdate(ctx, type);
  }
  const key = b;
  if (segs.length === 2) {
    const store = db.core[type];
    if (method === 'GET') {
      const o = store.get(key);
      if (!o || !readable(user, type, o)) throw notFound(`No ${type} with _key ${key}`);
      return ctx.reply(200, presentCore(type, o, user));
    }
    if (method === 'POST') {
      const partial = boolParam(q, 'is_partial_data', false);
      applyUpdate(type, key, ctx.json(), partial, user);
      return ctx.reply(200, { _key: key });
    }
    if (method === 'DELETE') {
      const o = store.get(key);
      if (!o || !readable(user, type, o)) throw notFound(`No ${type} with _key ${key}`);
      if (!writable(user, type, o)) throw forbidden(`User ${user.name} cannot delete this ${type}`);
      store.delete(key);
      return ctx.reply(200, null);
    }
    throw methodNotAllowed(['GET', 'POST', 'DELETE']);
  }
  if (c === 'templatize' && segs.length === 3) {
    if (method !== 'GET') throw methodNotAllowed(['GET']);
    return templatize(ctx, type, key);
  }
  if (c === 'base_service_template' && segs.length === 3 && type === 'service') {
    return serviceTemplateLink(ctx, key);
  }
  void d;
  throw notFound('No such endpoint');
}

function aliasList(user) {
  const id = new Set();
  const inf = new Set();
  for (const e of db.core.entity.values()) {
    if (!readable(user, 'entity', e)) continue;
    for (const f of e.identifier?.fields || []) id.add(f);
    for (const f of e.informational?.fields || []) inf.add(f);
  }
  return { identifier: [...id].sort(), informational: [...inf].sort() };
}

function bulkUpdate(ctx, type) {
  const { q, user } = ctx;
  const partial = boolParam(q, 'is_partial_data', false);
  const body = ctx.json();
  if (!Array.isArray(body)) throw bad('Payload must be a JSON array of objects', 'INVALID_PAYLOAD');
  const store = db.core[type];
  // Validate everything first, then apply.
  const staged = [];
  for (const item of body) {
    if (!isObj(item) || typeof item._key !== 'string' || !item._key)
      throw invalid('Every object of a bulk update needs a _key', 'MISSING_KEY');
    const existing = store.get(item._key);
    if (existing) {
      if (!readable(user, type, existing)) throw notFound(`No ${type} with _key ${item._key}`);
      if (!writable(user, type, existing)) throw forbidden(`User ${user.name} cannot write ${type} ${item._key}`);
      const next = partial ? partialUpdate(type, existing, item, user) : fullReplace(type, existing, item, user);
      if (type !== 'team') checkTeamExists(teamOf(next));
      if (!writable(user, type, next)) throw forbidden(`User ${user.name} cannot write team ${teamOf(next)}`);
      staged.push(next);
    } else {
      if (partial) throw notFound(`No ${type} with _key ${item._key}`);
      const obj = prepareNew(type, item, user);
      checkWriteNew(user, type, obj);
      staged.push(obj);
    }
  }
  for (const o of staged) {
    store.set(o._key, o);
    if (type === 'service') syncServiceTitles(o);
  }
  return ctx.reply(200, { _key: staged.map((o) => o._key) });
}

function templatize(ctx, type, key) {
  const { user } = ctx;
  if (type !== 'service' && type !== 'kpi_base_search') {
    throw bad(`(400, 'templatize is supported only for service and kpi_base_search, not ${type}')`, 'TEMPLATIZE_UNSUPPORTED');
  }
  const o = db.core[type].get(key);
  if (!o || !readable(user, type, o)) throw notFound(`No ${type} with _key ${key}`);
  if (type === 'kpi_base_search') {
    const t = clone(o);
    for (const f of [
      '_key',
      '_user',
      'mod_source',
      'mod_timestamp',
      'mod_time',
      'create_by',
      'create_time',
      'create_source',
      'mod_by',
      'identifying_name',
      'permissions',
    ])
      delete t[f];
    t._version = SCHEMA_VERSION;
    return ctx.reply(200, t);
  }
  const kpis = (o.kpis || []).map((k) => {
    const kk = clone(k);
    delete kk._key;
    return kk;
  });
  return ctx.reply(200, {
    title: o.title,
    description: o.description || '',
    service_template_id: o.base_service_template_id || '',
    sec_grp: teamOf(o),
    object_type: 'base_service_template',
    _version: SCHEMA_VERSION,
    enabled: o.enabled === 0 || o.enabled === '0' ? 0 : 1,
    services_depends_on: clone(o.services_depends_on || []),
    tags: clone(o.tags || []),
    serviceTemplateId: o.base_service_template_id ? [o.base_service_template_id] : [],
    entity_rules: clone(o.entity_rules || []),
    kpis,
  });
}

function serviceTemplateLink(ctx, key) {
  const { method, user } = ctx;
  const svc = db.core.service.get(key);
  if (!svc || !readable(user, 'service', svc)) throw notFound(`No service with _key ${key}`);
  if (method === 'GET') {
    return ctx.reply(200, { _key: svc.base_service_template_id || null });
  }
  if (method !== 'POST') throw methodNotAllowed(['GET', 'POST']);
  const body = ctx.json();
  if (!isObj(body) || typeof body._key !== 'string' || !body._key)
    throw invalid('Payload must be {"_key": "<template key>"}', 'MISSING_KEY');
  if (!canWrite(user, teamOf(svc)) || !canRead(user, GLOBAL)) {
    throw forbidden('Linking requires write access to the service and read access to the Global team');
  }
  const tpl = db.core.base_service_template.get(body._key);
  if (!tpl || !readable(user, 'base_service_template', tpl)) throw notFound(`No base_service_template with _key ${body._key}`);
  const next = clone(svc);
  // Over this API the template's entity rules are always appended.
  next.entity_rules = [...(Array.isArray(next.entity_rules) ? next.entity_rules : []), ...clone(tpl.entity_rules || [])];
  next.base_service_template_id = tpl._key;
  next.mod_time = modTime();
  stamp(next, 'service', user);
  db.core.service.set(key, next);
  return ctx.reply(200, { _key: key });
}

function entitySummary(e, user) {
  return {
    object_type: 'entity',
    title: e.title,
    retirable: e.retirable,
    sec_grp: teamOf(e),
    _key: e._key,
    permissions: permissionsFor(user, teamOf(e)),
  };
}

function retireEntity(e, user) {
  const n = clone(e);
  n.retired = 1;
  n.retired_services = clone(n.services || []);
  n.services = [];
  n.mod_time = modTime();
  stamp(n, 'entity', user);
  db.core.entity.set(n._key, n);
}

function restoreEntity(e, user) {
  const n = clone(e);
  n.retired = 0;
  n.services = clone(n.retired_services || []);
  delete n.retired_services;
  n.mod_time = modTime();
  stamp(n, 'entity', user);
  db.core.entity.set(n._key, n);
}

function dataKeys(ctx) {
  const body = ctx.json();
  if (!isObj(body) || !Array.isArray(body.data) || !body.data.every((k) => typeof k === 'string')) {
    throw invalid('Payload must be {"data": [<entity key>, ...]}', 'INVALID_PAYLOAD');
  }
  return body.data;
}

function handleEntitySpecial(ctx, op) {
  const { method, user } = ctx;
  const ents = [...db.core.entity.values()];
  if (op === 'count_retirable') {
    if (method !== 'GET') throw methodNotAllowed(['GET']);
    const out = ents
      .filter((e) => readable(user, 'entity', e) && Number(e.retirable) === 1 && Number(e.retired || 0) !== 1)
      .map((e) => entitySummary(e, user));
    return ctx.reply(200, out);
  }
  if (method !== 'POST') throw methodNotAllowed(['POST']);
  if (op === 'retire') {
    const keys = dataKeys(ctx);
    const done = [];
    for (const k of keys) {
      const e = db.core.entity.get(k);
      if (!e || !readable(user, 'entity', e) || !writable(user, 'entity', e)) continue;
      if (Number(e.retired || 0) === 1) continue;
      retireEntity(e, user);
      if (!done.includes(k)) done.push(k);
    }
    return ctx.reply(200, done);
  }
  if (op === 'restore') {
    const keys = dataKeys(ctx);
    const done = [];
    for (const k of keys) {
      const e = db.core.entity.get(k);
      if (!e || !readable(user, 'entity', e) || !writable(user, 'entity', e)) continue;
      if (Number(e.retired || 0) !== 1) continue;
      restoreEntity(e, user);
      if (!done.includes(k)) done.push(k);
    }
    return ctx.reply(200, done.length === 1 ? done[0] : done);
  }
  // retire_retirable
  const done = [];
  for (const e of ents) {
    if (Number(e.retirable) !== 1 || Number(e.retired || 0) === 1) continue;
    if (!readable(user, 'entity', e) || !writable(user, 'entity', e)) continue;
    retireEntity(e, user);
    done.push(e._key);
  }
  return ctx.reply(200, done);
}

export { titleToIdentifying };
