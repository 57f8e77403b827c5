// Custom content pack authoring (itoa_interface/content_pack_authorship/content_pack).
import { bad, notFound, clone, isObj, isStr, isStrArray, qp, intParam } from './util.mjs';
import { coll, visibleList, getReadable, requireWriter } from './store.mjs';
import { createObject, replaceObject, deleteObject, methodNotAllowed } from './objects.mjs';
import { filterPredicate, sortList, parseFields, project } from './query.mjs';
import { bug } from './bugs.mjs';

const TYPE = 'content_pack';
export const CP_STATUSES = ['Draft', 'Queued', 'Generating', 'Generated', 'Failed', 'Incomplete'];
const PLATFORM_KEYS = ['dashboards', 'lookups', 'macros', 'props', 'savedsearches', 'transforms'];
// object-type name in ops_objects -> stored collection holding the titles
const TITLE_SOURCES = {
  correlation_search: 'correlation_search',
  notable_aggregation_policy: 'notable_aggregation_policy',
};

function opsObjectsInput(v, where) {
  if (!isObj(v)) throw bad(`"${where}" must be an object mapping object-type name to an array of identifiers`);
  const out = {};
  for (const [t, ids] of Object.entries(v)) {
    if (isStrArray(ids)) out[t] = [...ids];
    else if (isObj(ids) && Object.values(ids).every(isStr))
      out[t] = Object.keys(ids); // {id: title} form accepted too
    else throw bad(`"${where}.${t}" must be an array of identifiers`);
  }
  return out;
}
function platformInput(v, where) {
  if (!isObj(v)) throw bad(`"${where}" must be an object with arrays ${PLATFORM_KEYS.join(', ')}`);
  for (const [k, arr] of Object.entries(v)) {
    if (!PLATFORM_KEYS.includes(k)) throw bad(`"${where}.${k}" is not one of ${PLATFORM_KEYS.join(', ')}`);
    if (!isStrArray(arr)) throw bad(`"${where}.${k}" must be an array of strings`);
  }
  const out = {};
  for (const k of PLATFORM_KEYS) out[k] = v[k] ? [...v[k]] : [];
  return out;
}

export const cpKind = {
  type: TYPE,
  prefix: 'cpa',
  label: 'Content pack',
  known: ['overview', 'cp_version', 'metadata', 'ops_objects', 'platform_objects', 'user_selected_objects', 'status'],
  validate(body) {
    for (const f of ['description', 'overview', 'cp_version'])
      if (body[f] !== undefined && body[f] !== null && !isStr(body[f])) throw bad(`Field "${f}" must be a string`);
    if (body.status !== undefined && !CP_STATUSES.includes(body.status))
      throw bad(`Field "status" must be one of ${CP_STATUSES.join(', ')}`);
    if (body.metadata !== undefined) {
      const md = body.metadata;
      if (!isObj(md)) throw bad('Field "metadata" must be an object {icon, main_screenshot, screenshots}');
      if (md.icon !== undefined && md.icon !== null && !isStr(md.icon)) throw bad('metadata.icon must be a string or null');
      if (md.main_screenshot !== undefined && md.main_screenshot !== null && !isObj(md.main_screenshot))
        throw bad('metadata.main_screenshot must be an object');
      if (md.screenshots !== undefined && !Array.isArray(md.screenshots)) throw bad('metadata.screenshots must be an array');
    }
    if (body.ops_objects !== undefined) body.ops_objects = opsObjectsInput(body.ops_objects, 'ops_objects');
    if (body.platform_objects !== undefined) body.platform_objects = platformInput(body.platform_objects, 'platform_objects');
    if (body.user_selected_objects !== undefined) {
      const u = body.user_selected_objects;
      if (!isObj(u)) throw bad('"user_selected_objects" must be {ops_objects: {...}, platform_objects: {...}}');
      body.user_selected_objects = {
        ops_objects: u.ops_objects === undefined ? {} : opsObjectsInput(u.ops_objects, 'user_selected_objects.ops_objects'),
        platform_objects:
          u.platform_objects === undefined
            ? platformInput({}, 'x')
            : platformInput(u.platform_objects, 'user_selected_objects.platform_objects'),
      };
    }
  },
  defaults(obj) {
    if (obj.status === undefined) obj.status = 'Draft';
    if (obj.description === undefined) obj.description = '';
    if (obj.overview === undefined) obj.overview = '';
    if (obj.cp_version === undefined) obj.cp_version = '1.0.0';
  },
  normalize(obj) {
    const md = isObj(obj.metadata) ? obj.metadata : {};
    obj.metadata = {
      ...md,
      icon: md.icon === undefined ? null : md.icon,
      main_screenshot: isObj(md.main_screenshot) ? md.main_screenshot : {},
      screenshots: Array.isArray(md.screenshots) ? md.screenshots : [],
    };
    if (!isObj(obj.ops_objects)) obj.ops_objects = {};
    if (!isObj(obj.platform_objects)) obj.platform_objects = platformInput({}, 'x');
    if (!isObj(obj.user_selected_objects)) obj.user_selected_objects = { ops_objects: {}, platform_objects: platformInput({}, 'x') };
  },
  // single read: ops_objects maps type -> {id: title}
  present(out) {
    const o = {};
    for (const [t, ids] of Object.entries(out.ops_objects || {})) {
      o[t] = {};
      const src = coll(TITLE_SOURCES[t] || t);
      for (const id of ids) {
        const x = src.get(id);
        o[t][id] = x && isStr(x.title) ? x.title : '';
      }
    }
    out.ops_objects = o;
    return out;
  },
};

function listForm(o, withExtras) {
  const out = clone(o);
  if (withExtras) {
    out.icon = isObj(o.metadata) && o.metadata.icon !== undefined ? o.metadata.icon : null;
    out.ops_objects_counts = Object.fromEntries(Object.entries(o.ops_objects || {}).map(([t, ids]) => [t, ids.length]));
    out.platform_objects_counts = Object.fromEntries(Object.entries(o.platform_objects || {}).map(([t, ids]) => [t, ids.length]));
  }
  return out;
}

function list(ctx) {
  const mode = qp(ctx.query, 'output_mode');
  if (mode !== undefined && mode !== 'json') throw bad(`Invalid value for parameter "output_mode": only "json" is supported`);
  const status = qp(ctx.query, 'status');
  if (status !== undefined && status !== '' && !CP_STATUSES.includes(status))
    throw bad(`Invalid value for parameter "status": expected one of ${CP_STATUSES.join(', ')}`);
  const dir = qp(ctx.query, 'sort_dir');
  const key = qp(ctx.query, 'sort_key');
  let asc;
  if (dir === undefined || dir === '') asc = !key;
  else if (dir === 'asc') asc = true;
  else if (dir === 'des') asc = false;
  else throw bad(`Invalid value for parameter "sort_dir": expected "asc" or "des", got "${dir}"`);
  const offset = intParam(ctx.query, 'offset') || 0;
  const count = intParam(ctx.query, 'count');
  const search = qp(ctx.query, 'search');
  const pred = filterPredicate(qp(ctx.query, 'filter'));
  const fields = parseFields(ctx.query);
  let rows = visibleList(ctx.user, TYPE).filter(pred);
  if (status) rows = rows.filter((o) => o.status === status);
  if (search) rows = rows.filter((o) => isStr(o.title) && o.title.includes(search));
  rows = sortList(rows, key || 'title', asc).slice(offset);
  if (count) rows = rows.slice(0, count);
  return rows.map((o) => {
    const out = project(listForm(o, !fields), fields);
    if (fields && bug('cp_fields_counts')) {
      const full = listForm(o, true);
      for (const f of ['icon', 'ops_objects_counts', 'platform_objects_counts']) out[f] = full[f];
    }
    return out;
  });
}

export async function handleAuthorship(ctx, segs) {
  const m = ctx.method;
  if (segs[0] !== TYPE) throw notFound('Unknown path under content_pack_authorship');
  const rest = segs.slice(1);
  if (rest.length === 0) {
    if (m === 'GET') return { body: list(ctx) };
    if (m === 'POST') {
      requireWriter(ctx.user);
      const body = await ctx.json(true);
      if (isObj(body)) delete body._key; // keys are always assigned by the server
      const r = createObject(cpKind, ctx, body);
      return { status: 201, body: { _key: r.key } };
    }
    throw methodNotAllowed(['GET', 'POST']);
  }
  if (rest.length === 1 && rest[0] === 'count') {
    if (m !== 'GET') throw methodNotAllowed(['GET']);
    const pred = filterPredicate(qp(ctx.query, 'filter'));
    return { body: { count: visibleList(ctx.user, TYPE).filter(pred).length } };
  }
  if (rest.length === 1) {
    const key = rest[0];
    if (m === 'GET') return { body: cpKind.present(clone(getReadable(ctx.user, TYPE, key, 'Content pack'))) };
    if (m === 'POST') {
      requireWriter(ctx.user);
      return { body: { _key: replaceObject(cpKind, ctx, key, await ctx.json(true), false) } };
    }
    if (m === 'DELETE') {
      requireWriter(ctx.user);
      const details = cpKind.present(clone(getReadable(ctx.user, TYPE, key, 'Content pack')));
      deleteObject(cpKind, ctx, key);
      return { body: details };
    }
    throw methodNotAllowed(['GET', 'POST', 'DELETE']);
  }
  throw notFound('Unknown path under content_pack_authorship/content_pack');
}
