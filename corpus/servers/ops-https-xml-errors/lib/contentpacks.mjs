// Content pack library (catalog, preview, install, refresh) and custom content pack authoring.
import { bad, notFound, isObj, isStr, isStrArray, clone, nowMicros, localMicroStr, GLOBAL_TEAM, newKey } from './util.mjs';
import { store } from './store.mjs';
import { canReadTeam, assertGlobalRead, assertGlobalWrite, canRead } from './auth.mjs';
import { intParam, sortRows, page, project, compileFilter } from './query.mjs';
import { runPrepare } from './types.mjs';
import { stamp, loadReadable, requireObject, stripServer } from './crud.mjs';
import { route, J, bodyObjectOrEmpty } from './route.mjs';

// ------------------------------------------------------------------ catalog state
let catSeq = 0;
export const catalog = []; // { seq, pack: {...public fields}, objects: {group: [def]}, savedSearches, previewForm }
export const loadFailures = [];

export function addCatalogPack(entry) {
  catalog.push({ seq: ++catSeq, ...entry });
}

export const GROUP_TO_TYPE = {
  entity_types: 'entity_type',
  glass_tables: 'glass_table',
  service_analyzers: 'home_view',
  services: 'service',
  kpi_base_searches: 'kpi_base_search',
  kpi_threshold_templates: 'kpi_threshold_template',
  service_templates: 'base_service_template',
  deep_dives: 'deep_dive',
  correlation_searches: 'correlation_search',
  notable_aggregation_policies: 'notable_aggregation_policy',
  saved_searches: null,
};
const TYPE_TO_GROUP = Object.fromEntries(
  Object.entries(GROUP_TO_TYPE)
    .filter(([, t]) => t)
    .map(([g, t]) => [t, g]),
);
TYPE_TO_GROUP.base_service_template = 'service_templates';

function publicPack(e) {
  return clone(e.pack);
}

function findPack(name, version) {
  const e = catalog.find((c) => c.pack.id === name);
  if (!e || e.pack.version !== version) throw notFound(`Content pack not found: ${name} version ${version}`);
  return e;
}

function isInstalled(group, def) {
  const t = GROUP_TO_TYPE[group];
  return Boolean(t && store.has(t, def.id));
}

// ------------------------------------------------------------------ library routes
export function handleLibrary(ctx, segs) {
  if (segs.length === 0) return route(ctx, { GET: () => J(listLibrary(ctx)) });
  if (segs.length === 1 && segs[0] === 'refresh') return route(ctx, { POST: () => J(refresh(ctx)) });
  if (segs.length === 2) {
    return route(ctx, {
      GET: () => {
        const e = findPack(segs[0], segs[1]);
        assertGlobalRead(ctx.user);
        return J(publicPack(e));
      },
    });
  }
  if (segs.length === 3 && segs[2] === 'preview') {
    return route(ctx, {
      GET: () => {
        const e = findPack(segs[0], segs[1]);
        assertGlobalRead(ctx.user);
        return J(preview(e));
      },
    });
  }
  if (segs.length === 3 && segs[2] === 'install') {
    return route(ctx, {
      POST: () => {
        const e = findPack(segs[0], segs[1]);
        assertGlobalWrite(ctx.user);
        return J(install(ctx, e));
      },
    });
  }
  throw notFound('Unknown content pack endpoint');
}

function listLibrary(ctx) {
  const q = ctx.query;
  const count = intParam(q, 'count');
  const offset = intParam(q, 'offset');
  let asc = false;
  if (q.has('sort_dir')) {
    const d = q.get('sort_dir');
    if (d === 'asc') asc = true;
    else if (d === 'desc') asc = false;
    else throw bad("Invalid value for parameter sort_dir: expected 'asc' or 'desc'");
  }
  const sortKey = q.get('sort_key') || undefined;
  if (!canReadTeam(ctx.user, GLOBAL_TEAM)) return { success: [], failure: [] };
  let rows = catalog.map((e) => ({ obj: e.pack, seq: e.seq }));
  sortRows(rows, sortKey, asc);
  rows = count === 0 ? [] : page(rows, offset, count);
  return { success: rows.map((r) => clone(r.obj)), failure: clone(loadFailures) };
}

function preview(e) {
  const out = {};
  for (const [group, defs] of Object.entries(e.objects)) {
    out[group] = defs.map((d) => {
      const installed = isInstalled(group, d);
      if (e.previewForm === 'old') return { id: d.id, title: d.title, description: d.description || '', installed };
      return {
        id: d.id,
        title: d.title,
        description: d.description || '',
        entitlement_status: d.entitlement_status !== false,
        installed,
        has_dependency: Boolean(d.depends_on?.length),
      };
    });
  }
  if (e.previewForm !== 'old') {
    const ss = e.savedSearches || [];
    out.saved_searches = {
      has_saved_searches: ss.length > 0,
      has_consistent_status: ss.every((s) => s.enabled === ss[0].enabled),
    };
  }
  return out;
}

function boolIn(v, name, dflt) {
  if (v === undefined || v === null) return dflt;
  if (v === true || v === 1 || v === '1' || v === 'true') return true;
  if (v === false || v === 0 || v === '0' || v === 'false') return false;
  throw bad(`Invalid value for ${name}: expected a Boolean`);
}

function install(ctx, e) {
  const body = bodyObjectOrEmpty(ctx, 'install payload');
  let content;
  if (body.content !== undefined && body.content !== null) {
    if (!isObj(body.content)) throw bad('content must be an object mapping object-type name to an array of identifiers');
    content = {};
    for (const [k, ids] of Object.entries(body.content)) {
      const group = GROUP_TO_TYPE[k] !== undefined ? k : TYPE_TO_GROUP[k];
      if (!group) throw bad(`content names an unknown object type: ${k}`);
      if (!isStrArray(ids)) throw bad(`content.${k} must be an array of identifiers`);
      content[group] = [...(content[group] || []), ...ids];
    }
  }
  const resolution = body.resolution;
  if (resolution !== undefined && resolution !== null && resolution !== 'overwrite' && resolution !== 'skip') {
    throw bad("resolution must be 'overwrite' or 'skip'");
  }
  const enabled = boolIn(body.enabled, 'enabled', false);
  const backfill = boolIn(body.backfill, 'backfill', true);
  const prefix = body.prefix === undefined || body.prefix === null ? '' : body.prefix;
  if (!isStr(prefix)) throw bad('prefix must be a string');

  const success = [];
  const failure = [];
  for (const [group, defs] of Object.entries(e.objects)) {
    const type = GROUP_TO_TYPE[group];
    if (!type) continue;
    let chosen = defs;
    if (content) chosen = content[group] ? defs.filter((d) => content[group].includes(d.id)) : [];
    const done = [];
    for (const d of chosen) {
      const title = prefix + d.title;
      const prev = store.get(type, d.id);
      if (prev && resolution === 'skip') continue;
      if (prev && resolution !== 'overwrite') {
        failure.push({ content_type: group, id: d.id, title, type: 'OBJECT_ALREADY_EXISTS' });
        continue;
      }
      const obj = { ...clone(d.object || {}), _key: d.id, title, description: d.description || '' };
      if (type === 'service') {
        obj.enabled = enabled ? 1 : 0;
        obj.kpis = (obj.kpis || []).map((k) => ({ ...k, backfill_enabled: backfill }));
        obj.backfill_enabled = backfill;
      }
      if (type === 'correlation_search' || type === 'notable_aggregation_policy') obj.disabled = enabled ? 0 : 1;
      if (!['correlation_search', 'notable_aggregation_policy'].includes(type)) obj.sec_grp = GLOBAL_TEAM;
      obj.source_content_pack = `${e.pack.id}@${e.pack.version}`;
      runPrepare(type, obj, undefined, ctx);
      store.put(type, stamp(type, obj, undefined, ctx));
      done.push({ id: d.id, title });
    }
    if (content) {
      for (const id of content[group] || []) {
        if (!defs.some((d) => d.id === id)) failure.push({ content_type: group, id, title: '', type: 'OBJECT_NOT_FOUND' });
      }
    }
    if (done.length) success.push({ [group]: done });
  }
  const out = { success, failure };
  const ss = e.savedSearches || [];
  const wantSS = !content || content.saved_searches !== undefined;
  if (ss.length && wantSS) {
    const chosen = content?.saved_searches ? ss.filter((s) => content.saved_searches.includes(s.name)) : ss;
    out.saved_searches = {
      action_performed: chosen.some((s) => s.enabled) ? 'enable' : 'disable',
      success: chosen.filter((s) => !s.error).map((s) => s.name),
      failure: chosen.filter((s) => s.error).map((s) => ({ name: s.name, error_message: s.error })),
    };
  }
  if (!e.pack.installed_versions.includes(e.pack.version)) e.pack.installed_versions.push(e.pack.version);
  return out;
}

const APP_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,99}$/;
function refresh(ctx) {
  assertGlobalWrite(ctx.user);
  const body = bodyObjectOrEmpty(ctx, 'refresh payload');
  const added = body.apps_added ?? [];
  const removed = body.apps_removed ?? [];
  if (!isStrArray(added) || !isStrArray(removed)) throw bad('apps_added and apps_removed must be arrays of strings');
  const out = { success: { apps_added: [], apps_removed: [] }, failed: { apps_added: [], apps_removed: [] } };
  for (const name of added) {
    if (!APP_NAME.test(name) || catalog.some((c) => c.pack.id === name)) {
      out.failed.apps_added.push(name);
      continue;
    }
    addCatalogPack({
      pack: {
        id: name,
        title: name,
        description: '',
        overview: '',
        author: 'local',
        version: '1.0.0',
        icon: '',
        help_links: [],
        installed_versions: [],
        screenshots: [],
        main_screenshot: { path: '', thumb: '' },
      },
      objects: {},
      savedSearches: [],
      previewForm: 'new',
    });
    out.success.apps_added.push(name);
  }
  for (const name of removed) {
    const i = catalog.findIndex((c) => c.pack.id === name);
    if (i < 0) {
      out.failed.apps_removed.push(name);
      continue;
    }
    catalog.splice(i, 1);
    out.success.apps_removed.push(name);
  }
  return out;
}

// ------------------------------------------------------------------ authoring
const CP = 'content_pack';
const STATUSES = ['Draft', 'Queued', 'Generating', 'Generated', 'Failed', 'Incomplete'];
const PLATFORM_KEYS = ['dashboards', 'lookups', 'macros', 'props', 'savedsearches', 'transforms'];

export function handleAuthoring(ctx, segs) {
  if (segs[0] !== 'content_pack') throw notFound('Unknown endpoint');
  const rest = segs.slice(1);
  if (rest.length === 0) {
    return route(ctx, {
      GET: () => J(listAuthored(ctx)),
      POST: () => J({ _key: saveAuthored(ctx, ctx.body(), undefined)._key }),
    });
  }
  if (rest.length === 1 && rest[0] === 'count') {
    return route(ctx, {
      GET: () => {
        const pred = compileFilter(ctx.query.has('filter') ? ctx.query.get('filter') : undefined);
        const n = store.all(CP).filter((o) => canRead(ctx.user, CP, o) && pred(o)).length;
        return J({ count: n });
      },
    });
  }
  if (rest.length === 1) {
    const key = rest[0];
    return route(ctx, {
      GET: () => J(singleForm(loadReadable(ctx, CP, key))),
      POST: () => {
        const prev = loadReadable(ctx, CP, key);
        return J({ _key: saveAuthored(ctx, ctx.body(), prev)._key });
      },
      DELETE: () => {
        const prev = loadReadable(ctx, CP, key);
        assertGlobalWrite(ctx.user);
        store.del(CP, key);
        return J(singleForm(prev));
      },
    });
  }
  throw notFound('Unknown endpoint');
}

function typeIdsMap(v, field) {
  if (v === undefined || v === null) return {};
  if (!isObj(v)) throw bad(`${field} must be an object mapping object-type name to an array of identifiers`);
  for (const [k, ids] of Object.entries(v)) {
    if (!isStrArray(ids)) throw bad(`${field}.${k} must be an array of identifiers`);
  }
  return clone(v);
}
function platformMap(v, field) {
  const out = Object.fromEntries(PLATFORM_KEYS.map((k) => [k, []]));
  if (v === undefined || v === null) return out;
  if (!isObj(v)) throw bad(`${field} must be an object`);
  for (const [k, arr] of Object.entries(v)) {
    if (!PLATFORM_KEYS.includes(k)) throw bad(`${field} has an unknown member: ${k}`);
    if (!isStrArray(arr)) throw bad(`${field}.${k} must be an array of strings`);
    out[k] = [...arr];
  }
  return out;
}

function saveAuthored(ctx, body, prev) {
  const input = requireObject(body);
  assertGlobalWrite(ctx.user);
  if (prev && input._key !== undefined && input._key !== prev._key) throw bad('_key in the payload does not match the path');
  if (input.object_type !== undefined && input.object_type !== CP) throw bad('object_type must be content_pack');
  if (!prev && input._key !== undefined) {
    if (!isStr(input._key) || !input._key) throw bad('_key must be a non-empty string');
    if (store.has(CP, input._key)) throw bad(`A content pack with _key ${input._key} already exists`);
  }
  const o = stripServer(input);
  delete o.object_type;
  if (!isStr(o.title) || !o.title.trim()) throw bad('Missing required field: title (non-empty string)');
  for (const f of ['description', 'overview']) {
    if (o[f] === undefined || o[f] === null) o[f] = '';
    if (!isStr(o[f])) throw bad(`${f} must be a string`);
  }
  if (o.cp_version === undefined) o.cp_version = '1.0.0';
  if (!isStr(o.cp_version) || !o.cp_version) throw bad('cp_version must be a non-empty string');
  const md = o.metadata === undefined || o.metadata === null ? {} : o.metadata;
  if (!isObj(md)) throw bad('metadata must be an object');
  if (md.icon !== undefined && md.icon !== null && !isStr(md.icon)) throw bad('metadata.icon must be a string or null');
  if (md.main_screenshot !== undefined && !isObj(md.main_screenshot)) throw bad('metadata.main_screenshot must be an object');
  if (md.screenshots !== undefined && !Array.isArray(md.screenshots)) throw bad('metadata.screenshots must be an array');
  o.metadata = { ...md, icon: md.icon ?? null, main_screenshot: md.main_screenshot ?? {}, screenshots: md.screenshots ?? [] };
  o.ops_objects = typeIdsMap(o.ops_objects, 'ops_objects');
  o.platform_objects = platformMap(o.platform_objects, 'platform_objects');
  const uso = o.user_selected_objects === undefined || o.user_selected_objects === null ? {} : o.user_selected_objects;
  if (!isObj(uso)) throw bad('user_selected_objects must be an object');
  o.user_selected_objects = {
    ...uso,
    ops_objects: typeIdsMap(uso.ops_objects, 'user_selected_objects.ops_objects'),
    platform_objects: platformMap(uso.platform_objects, 'user_selected_objects.platform_objects'),
  };
  if (prev) {
    if (o.status === undefined) o.status = prev.status;
    if (!STATUSES.includes(o.status)) throw bad(`status must be one of: ${STATUSES.join(', ')}`);
  } else {
    o.status = 'Draft';
  }
  o._key = prev ? prev._key : (input._key ?? newKey());
  const m = nowMicros();
  const out = stamp(CP, o, prev, ctx);
  out.mod_time = localMicroStr(m);
  store.put(CP, out);
  return out;
}

function titleOf(type, id) {
  const o = store.get(type, id);
  return o && isStr(o.title) ? o.title : '';
}

function countsOf(pack) {
  const ops = {};
  for (const [t, ids] of Object.entries(pack.ops_objects || {})) ops[t] = ids.length;
  const plat = {};
  for (const k of PLATFORM_KEYS) plat[k] = (pack.platform_objects?.[k] || []).length;
  return [ops, plat];
}

export function singleForm(pack) {
  const o = clone(pack);
  const ops = {};
  for (const [t, ids] of Object.entries(o.ops_objects || {})) ops[t] = ids.map((id) => ({ [id]: titleOf(t, id) }));
  o.ops_objects = ops;
  return o;
}

function listAuthored(ctx) {
  const q = ctx.query;
  if (q.has('output_mode') && q.get('output_mode') !== 'json') throw bad("output_mode must be 'json'");
  let asc = false;
  if (q.has('sort_dir')) {
    const d = q.get('sort_dir');
    if (d === 'asc') asc = true;
    else if (d === 'des') asc = false;
    else throw bad("Invalid value for parameter sort_dir: expected 'asc' or 'des'");
  }
  const status = q.has('status') ? q.get('status') : undefined;
  if (status !== undefined && !STATUSES.includes(status)) throw bad(`status must be one of: ${STATUSES.join(', ')}`);
  const offset = intParam(q, 'offset');
  const count = intParam(q, 'count');
  let fields;
  if (q.has('fields')) {
    const raw = q.getAll('fields');
    const list = [];
    for (const r of raw) {
      let parsed;
      if (r.trim().startsWith('[')) {
        try {
          parsed = JSON.parse(r);
        } catch {
          throw bad('fields must be an array of field names');
        }
        if (!isStrArray(parsed)) throw bad('fields must be an array of field names');
        list.push(...parsed);
      } else
        list.push(
          ...r
            .split(',')
            .map((s) => s.trim())
            .filter(Boolean),
        );
    }
    fields = list;
  }
  const search = q.has('search') ? q.get('search') : undefined;
  const pred = compileFilter(q.has('filter') ? q.get('filter') : undefined);
  let rows = store.rows(CP).filter((r) => canRead(ctx.user, CP, r.obj) && pred(r.obj));
  if (status !== undefined) rows = rows.filter((r) => r.obj.status === status);
  if (search !== undefined && search !== '') rows = rows.filter((r) => isStr(r.obj.title) && r.obj.title.includes(search));
  sortRows(rows, q.get('sort_key') || undefined, asc);
  rows = count === 0 ? [] : page(rows, offset, count);
  return rows.map(({ obj }) => {
    const o = clone(obj);
    if (fields === undefined) {
      const [ops, plat] = countsOf(obj);
      o.icon = obj.metadata?.icon ?? null;
      o.ops_objects_counts = ops;
      o.platform_objects_counts = plat;
      return o;
    }
    return project(o, fields);
  });
}
