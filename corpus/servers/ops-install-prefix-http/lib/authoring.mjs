// Custom content pack authoring (itoa_interface/content_pack_authorship/content_pack).
import { bad, invalid, notFound, forbidden, methodNotAllowed, isObj, clone, hexKey, modTime, intParam, lastParam } from './util.mjs';
import { db, stamp } from './store.mjs';
import { canWriteGlobalResource } from './auth.mjs';
import { filterPredicate, sortRows, parseFields, project } from './query.mjs';
import { storeFor, PACK_OBJECT_TYPES } from './contentpacks.mjs';
import { bug } from './bugs.mjs';

export const CP_STATUSES = ['Draft', 'Queued', 'Generating', 'Generated', 'Failed', 'Incomplete'];
const PLATFORM_KINDS = ['dashboards', 'lookups', 'macros', 'props', 'savedsearches', 'transforms'];

// Accepts list form {type: [id]}, single-read form {type: [{id: title}]} or {type: {id: title}}.
function normalizeOpsObjects(v, name) {
  if (v === undefined || v === null) return {};
  if (!isObj(v)) throw invalid(`${name} must be an object mapping object-type names to identifiers`, 'INVALID_FIELD');
  const out = {};
  for (const [t, ids] of Object.entries(v)) {
    const list = [];
    if (Array.isArray(ids)) {
      for (const x of ids) {
        if (typeof x === 'string') list.push(x);
        else if (isObj(x) && Object.keys(x).length >= 1) list.push(...Object.keys(x));
        else throw invalid(`${name}.${t} must hold identifiers`, 'INVALID_FIELD');
      }
    } else if (isObj(ids)) list.push(...Object.keys(ids));
    else throw invalid(`${name}.${t} must be an array of identifiers`, 'INVALID_FIELD');
    out[t] = [...new Set(list)];
  }
  return out;
}

function normalizePlatformObjects(v, name) {
  if (v === undefined || v === null) v = {};
  if (!isObj(v)) throw invalid(`${name} must be an object`, 'INVALID_FIELD');
  const out = {};
  for (const k of PLATFORM_KINDS) {
    const arr = v[k] === undefined ? [] : v[k];
    if (!Array.isArray(arr)) throw invalid(`${name}.${k} must be an array`, 'INVALID_FIELD');
    out[k] = clone(arr);
  }
  for (const [k, arr] of Object.entries(v)) if (!(k in out)) out[k] = clone(arr);
  return out;
}

function normalizeMetadata(v) {
  if (v === undefined || v === null) return { icon: null, main_screenshot: {}, screenshots: [] };
  if (!isObj(v)) throw invalid('metadata must be an object', 'INVALID_FIELD');
  const m = clone(v);
  if (m.icon === undefined) m.icon = null;
  if (m.icon !== null && typeof m.icon !== 'string') throw invalid('metadata.icon must be a string or null', 'INVALID_FIELD');
  if (m.main_screenshot === undefined) m.main_screenshot = {};
  if (!isObj(m.main_screenshot)) throw invalid('metadata.main_screenshot must be an object', 'INVALID_FIELD');
  if (m.screenshots === undefined) m.screenshots = [];
  if (!Array.isArray(m.screenshots)) throw invalid('metadata.screenshots must be an array', 'INVALID_FIELD');
  return m;
}

function build(body, key, status) {
  if (!isObj(body)) throw bad('Payload must be a JSON object', 'INVALID_PAYLOAD');
  if (typeof body.title !== 'string' || !body.title) throw invalid('Required field "title" is missing', 'MISSING_REQUIRED_FIELD');
  if (typeof body.cp_version !== 'string' || !body.cp_version)
    throw invalid('Required field "cp_version" is missing', 'MISSING_REQUIRED_FIELD');
  for (const f of ['description', 'overview']) {
    if (body[f] !== undefined && typeof body[f] !== 'string') throw invalid(`${f} must be a string`, 'INVALID_FIELD');
  }
  const uso = body.user_selected_objects;
  if (uso !== undefined && uso !== null && !isObj(uso)) throw invalid('user_selected_objects must be an object', 'INVALID_FIELD');
  return {
    _key: key,
    title: body.title,
    description: body.description || '',
    overview: body.overview || '',
    cp_version: body.cp_version,
    metadata: normalizeMetadata(body.metadata),
    ops_objects: normalizeOpsObjects(body.ops_objects, 'ops_objects'),
    platform_objects: normalizePlatformObjects(body.platform_objects, 'platform_objects'),
    user_selected_objects: {
      ops_objects: normalizeOpsObjects(uso?.ops_objects, 'user_selected_objects.ops_objects'),
      platform_objects: normalizePlatformObjects(uso?.platform_objects, 'user_selected_objects.platform_objects'),
    },
    status,
  };
}

function finish(obj, user) {
  obj.mod_time = modTime();
  stamp(obj, 'content_pack', user);
  return obj;
}

function titleOf(type, id) {
  if (!PACK_OBJECT_TYPES.includes(type)) return '';
  const st = storeFor(type);
  const o = st?.get(id);
  return o && typeof o.title === 'string' ? o.title : '';
}

function singleRead(p) {
  const o = clone(p);
  const ops = {};
  for (const [t, ids] of Object.entries(p.ops_objects || {})) ops[t] = ids.map((id) => ({ [id]: titleOf(t, id) }));
  o.ops_objects = ops;
  return o;
}

function listEntry(p, withExtras) {
  const o = clone(p);
  if (withExtras) {
    o.icon = p.metadata ? (p.metadata.icon ?? null) : null;
    o.ops_objects_counts = Object.fromEntries(Object.entries(p.ops_objects || {}).map(([t, ids]) => [t, ids.length]));
    o.platform_objects_counts = Object.fromEntries(
      Object.entries(p.platform_objects || {}).map(([t, a]) => [t, Array.isArray(a) ? a.length : 0]),
    );
  }
  return o;
}

export function handleAuthoring(ctx, segs) {
  const { method, user } = ctx;
  if (segs[0] !== 'content_pack') throw notFound('No such endpoint');
  const rest = segs.slice(1);
  if (rest.length === 0) {
    if (method === 'GET') return list(ctx);
    if (method === 'POST') {
      const body = ctx.json();
      if (!canWriteGlobalResource(user)) throw forbidden(`User ${user.name} cannot author content packs`);
      const obj = finish(build(body, hexKey(), 'Draft'), user);
      db.cpAuthoring.set(obj._key, obj);
      return ctx.reply(201, { _key: obj._key });
    }
    throw methodNotAllowed(['GET', 'POST']);
  }
  if (rest.length === 1 && rest[0] === 'count') {
    if (method !== 'GET') throw methodNotAllowed(['GET']);
    const pred = filterPredicate(lastParam(ctx.q, 'filter'));
    return ctx.reply(200, { count: [...db.cpAuthoring.values()].filter(pred).length });
  }
  if (rest.length === 1) {
    const key = rest[0];
    const p = db.cpAuthoring.get(key);
    if (method === 'GET') {
      if (!p) throw notFound(`No content pack with _key ${key}`);
      return ctx.reply(200, singleRead(p));
    }
    if (method === 'POST') {
      const body = ctx.json();
      if (!isObj(body)) throw bad('Payload must be a JSON object', 'INVALID_PAYLOAD');
      const status = body.status === undefined ? 'Draft' : body.status;
      if (!CP_STATUSES.includes(status)) throw invalid(`status must be one of ${CP_STATUSES.join(', ')}`, 'INVALID_FIELD');
      if (!canWriteGlobalResource(user)) throw forbidden(`User ${user.name} cannot author content packs`);
      const obj = finish(build(body, key, status), user);
      const created = !p;
      db.cpAuthoring.delete(key);
      db.cpAuthoring.set(key, obj);
      return ctx.reply(created ? 201 : 200, { _key: key });
    }
    if (method === 'DELETE') {
      if (!p) throw notFound(`No content pack with _key ${key}`);
      if (!canWriteGlobalResource(user)) throw forbidden(`User ${user.name} cannot delete content packs`);
      db.cpAuthoring.delete(key);
      return ctx.reply(200, {
        _key: p._key,
        title: p.title,
        cp_version: p.cp_version,
        status: p.status,
        object_type: 'content_pack',
        deleted: true,
      });
    }
    throw methodNotAllowed(['GET', 'POST', 'DELETE']);
  }
  throw notFound('No such endpoint');
}

function list(ctx) {
  const { q } = ctx;
  if (q.has('output_mode') && lastParam(q, 'output_mode') !== 'json') throw bad('output_mode must be json', 'INVALID_PARAMETER');
  let asc = false;
  if (q.has('sort_dir')) {
    const sd = lastParam(q, 'sort_dir');
    if (sd === 'asc') asc = true;
    else if (sd === 'des') asc = false;
    else throw bad('sort_dir must be asc or des', 'INVALID_PARAMETER');
  }
  const sortKey = lastParam(q, 'sort_key');
  const offset = intParam(q, 'offset') || 0;
  const count = intParam(q, 'count');
  const status = lastParam(q, 'status');
  if (status !== undefined && !CP_STATUSES.includes(status))
    throw bad(`status must be one of ${CP_STATUSES.join(', ')}`, 'INVALID_PARAMETER');
  const search = lastParam(q, 'search');
  const fields = parseFields(q);
  const pred = filterPredicate(lastParam(q, 'filter'));
  let rows = [...db.cpAuthoring.values()].reverse().filter(pred);
  if (status !== undefined) rows = rows.filter((p) => p.status === status);
  if (search !== undefined) rows = rows.filter((p) => typeof p.title === 'string' && p.title.includes(search));
  if (sortKey) rows = sortRows(rows, sortKey, asc);
  rows = rows.slice(offset);
  if (count !== undefined) rows = rows.slice(0, count);
  const withExtras = fields === undefined || bug('authoring_fields_counts');
  let out = rows.map((p) => listEntry(p, withExtras));
  if (fields !== undefined) {
    out = out.map((o) => {
      const pr = project(
        o,
        fields.filter((f) => !['icon', 'ops_objects_counts', 'platform_objects_counts'].includes(f)),
      );
      if (bug('authoring_fields_counts')) {
        pr.icon = o.icon;
        pr.ops_objects_counts = o.ops_objects_counts;
        pr.platform_objects_counts = o.platform_objects_counts;
      }
      return pr;
    });
  }
  return ctx.reply(200, out);
}
