// Content pack library (itoa_interface/content_pack) and custom content pack authoring
// (itoa_interface/content_pack_authorship/content_pack).
import { GLOBAL_TEAM, bad, notFound, notAllowed, clone, isObj, isStr, isStrArray, intParam, bodyBool, compareValues } from './util.mjs';
import { Collection, db } from './store.mjs';
import { canRead, requireWriteTeam, requireReadTeam } from './auth.mjs';
import { listing } from './query.mjs';

// ================================ library ================================
export const library = new Map(); // id -> pack (hidden members start with "__")
export const libraryFailures = [];
export const localApps = new Map(); // apps present on disk (refresh source)

export const GROUP_OF = {
  service: 'services',
  entity_type: 'entity_types',
  glass_table: 'glass_tables',
  home_view: 'service_analyzers',
  kpi_base_search: 'kpi_base_searches',
  kpi_threshold_template: 'kpi_threshold_templates',
  base_service_template: 'service_templates',
  deep_dive: 'deep_dives',
  correlation_search: 'correlation_searches',
  notable_aggregation_policy: 'aggregation_policies',
  team: 'teams',
  event_management_state: 'event_management_states',
};
const TYPE_OF_GROUP = Object.fromEntries(Object.entries(GROUP_OF).map(([t, g]) => [g, t]));
const ENABLE_TYPES = new Set(['service', 'correlation_search', 'notable_aggregation_policy']);

function publicPack(p) {
  const out = {};
  for (const [k, v] of Object.entries(p)) if (!k.startsWith('__')) out[k] = clone(v);
  return out;
}

function findPack(ctx, name, version) {
  requireReadTeam(ctx.user, GLOBAL_TEAM);
  const p = library.get(name);
  if (!p || p.version !== version) throw notFound(`No content pack ${name} version ${version}`);
  return p;
}

function isInstalled(p, item) {
  const rec = p.__installed[item.id];
  return Boolean(rec && db[rec.type] && db[rec.type].map.has(rec.key));
}

function listPacks(ctx, q) {
  if (!canRead(ctx.user, GLOBAL_TEAM)) return { success: [], failure: [] };
  let asc = true;
  if (q.has('sort_dir')) {
    const d = q.get('sort_dir').trim();
    if (d !== 'asc' && d !== 'desc') throw bad('Parameter sort_dir must be asc or desc');
    asc = d === 'asc';
  }
  const key = q.has('sort_key') ? q.get('sort_key').trim() : 'id';
  const count = intParam(q, 'count');
  const offset = intParam(q, 'offset') || 0;
  let rows = [...library.values()]
    .map(publicPack)
    .sort((a, b) => (asc ? 1 : -1) * compareValues(a[key], b[key]) || compareValues(a.id, b.id));
  rows = rows.slice(offset);
  if (count) rows = rows.slice(0, count);
  return { success: rows, failure: clone(libraryFailures) };
}

function preview(_ctx, p) {
  const out = {};
  for (const [group, items] of Object.entries(p.__contents)) {
    out[group] = items.map((it) => ({
      id: it.id,
      title: it.title,
      description: it.description || '',
      entitlement_status: true,
      installed: isInstalled(p, it),
      has_dependency: Boolean(it.has_dependency),
    }));
  }
  if (p.__saved_searches.length) {
    out.saved_searches = p.__saved_searches.map((s) => ({
      id: s.name,
      title: s.name,
      description: s.description || '',
      entitlement_status: true,
      installed: Boolean(p.__ss_installed),
      has_dependency: false,
      has_saved_searches: true,
      has_consistent_status: !s.broken,
    }));
  }
  return out;
}

function parseContent(content) {
  // returns null (everything) or a Set of "<type>:<id>" / "*:<id>" selectors
  if (content === undefined || content === null) return null;
  const sel = new Set();
  if (Array.isArray(content)) {
    if (!isStrArray(content)) throw bad('"content" must map object-type names to arrays of identifiers');
    for (const id of content) sel.add(`*:${id}`);
    return sel;
  }
  if (!isObj(content)) throw bad('"content" must map object-type names to arrays of identifiers');
  for (const [name, ids] of Object.entries(content)) {
    const type = Object.hasOwn(GROUP_OF, name)
      ? name
      : Object.hasOwn(TYPE_OF_GROUP, name)
        ? TYPE_OF_GROUP[name]
        : name === 'saved_searches'
          ? 'saved_searches'
          : null;
    if (!type) throw bad(`Unknown object type "${name}" in content`);
    if (!isStrArray(ids)) throw bad(`content.${name} must be an array of identifiers`);
    for (const id of ids) sel.add(`${type}:${id}`);
  }
  return sel;
}

function install(ctx, p, body) {
  requireWriteTeam(ctx.user, GLOBAL_TEAM);
  const b = body === undefined ? {} : body;
  if (!isObj(b)) throw bad('Install payload must be a JSON object');
  const sel = parseContent(b.content);
  if (b.resolution !== undefined && b.resolution !== 'overwrite' && b.resolution !== 'skip')
    throw bad('"resolution" must be overwrite or skip');
  const enabled = bodyBool(b.enabled, 'enabled', false);
  const backfill = bodyBool(b.backfill, 'backfill', true);
  if (b.prefix !== undefined && !isStr(b.prefix)) throw bad('"prefix" must be a string');
  const prefix = b.prefix || '';

  const selected = (type, id) => !sel || sel.has(`${type}:${id}`) || sel.has(`*:${id}`);
  const success = [];
  const failure = [];
  if (sel) {
    const known = new Set();
    for (const items of Object.values(p.__contents))
      for (const it of items) {
        known.add(`${it.object_type}:${it.id}`);
        known.add(`*:${it.id}`);
      }
    for (const s of p.__saved_searches) {
      known.add(`saved_searches:${s.name}`);
      known.add(`*:${s.name}`);
    }
    for (const s of sel) {
      if (!known.has(s)) {
        const [t, ...rest] = s.split(':');
        failure.push({
          content_type: t === '*' ? '' : Object.hasOwn(GROUP_OF, t) ? GROUP_OF[t] : t,
          id: rest.join(':'),
          title: '',
          type: 'OBJECT_NOT_FOUND',
        });
      }
    }
  }
  for (const [group, items] of Object.entries(p.__contents)) {
    const done = [];
    for (const it of items) {
      if (!selected(it.object_type, it.id)) continue;
      const coll = db[it.object_type];
      const already = isInstalled(p, it);
      if (already && b.resolution === 'skip') continue;
      if (already && b.resolution !== 'overwrite') {
        failure.push({ content_type: group, id: it.id, title: prefix + it.title, type: 'OBJECT_ALREADY_EXISTS' });
        continue;
      }
      const cand = clone(it.body || {});
      cand.title = prefix + it.title;
      if (it.description !== undefined && cand.description === undefined) cand.description = it.description;
      if (ENABLE_TYPES.has(it.object_type)) cand.enabled = enabled ? 1 : 0;
      if (it.object_type === 'service' && Array.isArray(cand.kpis)) {
        for (const k of cand.kpis) {
          k.backfill_enabled = backfill;
          k.backfill_earliest_time = '-7d';
        }
      }
      const old = already ? coll.raw(p.__installed[it.id].key) : undefined;
      if (old) cand._key = old._key;
      cand.source_content_pack = p.id;
      const saved = coll.commit(ctx, cand, old, { full: true });
      p.__installed[it.id] = { type: it.object_type, key: saved._key };
      done.push({ id: it.id, title: saved.title });
    }
    if (done.length) success.push({ [group]: done });
  }
  const ss = { action_performed: enabled ? 'enable' : 'retain', success: [], failure: [] };
  for (const s of p.__saved_searches) {
    if (!selected('saved_searches', s.name)) continue;
    if (s.broken) ss.failure.push({ name: s.name, error_message: s.broken });
    else ss.success.push(s.name);
  }
  if (ss.success.length) p.__ss_installed = true;
  if (success.length || ss.success.length) {
    if (!p.installed_versions.includes(p.version)) p.installed_versions.push(p.version);
  }
  return { success, failure, saved_searches: ss };
}

function refresh(ctx, body) {
  requireWriteTeam(ctx.user, GLOBAL_TEAM);
  let added, removed;
  if (body === undefined || (isObj(body) && body.apps_added === undefined && body.apps_removed === undefined)) {
    added = [...localApps.keys()].filter((n) => !library.has(n));
    removed = [...library.keys()].filter((n) => !localApps.has(n));
  } else {
    if (!isObj(body)) throw bad('Payload must be {"apps_added": [string], "apps_removed": [string]}');
    added = body.apps_added ?? [];
    removed = body.apps_removed ?? [];
    if (!isStrArray(added) || !isStrArray(removed)) throw bad('apps_added and apps_removed must be arrays of strings');
  }
  const res = { success: { apps_added: [], apps_removed: [] }, failed: { apps_added: [], apps_removed: [] } };
  for (const n of added) {
    if (localApps.has(n) && !library.has(n)) {
      library.set(n, clone(localApps.get(n)));
      res.success.apps_added.push(n);
    } else res.failed.apps_added.push(n);
  }
  for (const n of removed) {
    if (library.has(n)) {
      library.delete(n);
      res.success.apps_removed.push(n);
    } else res.failed.apps_removed.push(n);
  }
  return res;
}

export function libraryRoutes(ctx, method, segs, q) {
  if (segs.length === 0) {
    if (method !== 'GET') throw notAllowed(['GET']);
    return listPacks(ctx, q);
  }
  if (segs.length === 1 && segs[0] === 'refresh') {
    if (method !== 'POST') throw notAllowed(['POST']);
    return refresh(ctx, ctx.json());
  }
  if (segs.length === 2) {
    if (method !== 'GET') throw notAllowed(['GET']);
    return publicPack(findPack(ctx, segs[0], segs[1]));
  }
  if (segs.length === 3 && segs[2] === 'preview') {
    if (method !== 'GET') throw notAllowed(['GET']);
    return preview(ctx, findPack(ctx, segs[0], segs[1]));
  }
  if (segs.length === 3 && segs[2] === 'install') {
    if (method !== 'POST') throw notAllowed(['POST']);
    return install(ctx, findPack(ctx, segs[0], segs[1]), ctx.json());
  }
  throw notFound(`Unknown content pack path ${segs.join('/')}`);
}

// ================================ authoring ================================
export const CP_STATUSES = ['Draft', 'Queued', 'Generating', 'Generated', 'Failed', 'Incomplete'];
export const OPS_OBJECT_TYPES = [
  'base_service_template',
  'correlation_search',
  'deep_dive',
  'entity_type',
  'event_management_state',
  'glass_table',
  'home_view',
  'kpi_base_search',
  'kpi_threshold_template',
  'notable_aggregation_policy',
  'service',
  'team',
];
export const PLATFORM_KINDS = ['dashboards', 'lookups', 'macros', 'props', 'savedsearches', 'transforms'];

function checkTypeArrays(v, allowed, where) {
  if (!isObj(v)) throw bad(`"${where}" must be an object`);
  for (const [k, ids] of Object.entries(v)) {
    if (!allowed.includes(k)) throw bad(`Unknown object type "${k}" in ${where}`);
    if (!isStrArray(ids)) throw bad(`${where}.${k} must be an array of identifiers`);
  }
}

function titleOf(type, id) {
  const c = db[type];
  const o = c?.raw(id);
  return o && typeof o.title === 'string' ? o.title : id;
}

const authoring = new Collection({
  name: 'content_pack',
  defaultTeam: false,
  teamsOf: () => [GLOBAL_TEAM],
  extraServer: ['sec_grp', 'icon', 'ops_objects_counts', 'platform_objects_counts'],
  schemaFields: ['overview', 'cp_version', 'metadata', 'ops_objects', 'platform_objects', 'user_selected_objects', 'status'],
  validate(o) {
    for (const f of ['overview', 'cp_version']) if (o[f] !== undefined && !isStr(o[f])) throw bad(`Field "${f}" must be a string`);
    if (o.status !== undefined && !CP_STATUSES.includes(o.status)) throw bad(`Field "status" must be one of ${CP_STATUSES.join(', ')}`);
    if (o.metadata !== undefined) {
      const m = o.metadata;
      if (!isObj(m)) throw bad('Field "metadata" must be an object');
      if (m.icon !== undefined && m.icon !== null && !isStr(m.icon)) throw bad('metadata.icon must be a string or null');
      if (m.main_screenshot !== undefined && !isObj(m.main_screenshot)) throw bad('metadata.main_screenshot must be an object');
      if (m.screenshots !== undefined && !Array.isArray(m.screenshots)) throw bad('metadata.screenshots must be an array');
    }
    if (o.ops_objects !== undefined) checkTypeArrays(o.ops_objects, OPS_OBJECT_TYPES, 'ops_objects');
    if (o.platform_objects !== undefined) checkTypeArrays(o.platform_objects, PLATFORM_KINDS, 'platform_objects');
    if (o.user_selected_objects !== undefined) {
      const u = o.user_selected_objects;
      if (!isObj(u)) throw bad('Field "user_selected_objects" must be an object {ops_objects, platform_objects}');
      for (const k of Object.keys(u))
        if (k !== 'ops_objects' && k !== 'platform_objects') throw bad(`Unknown member "${k}" in user_selected_objects`);
      if (u.ops_objects !== undefined) checkTypeArrays(u.ops_objects, OPS_OBJECT_TYPES, 'user_selected_objects.ops_objects');
      if (u.platform_objects !== undefined) checkTypeArrays(u.platform_objects, PLATFORM_KINDS, 'user_selected_objects.platform_objects');
    }
  },
  normalize(o, _ctx, old) {
    if (o.status === undefined) o.status = old ? old.status : 'Draft';
    if (o.description === undefined) o.description = '';
    if (o.overview === undefined) o.overview = '';
    if (o.cp_version === undefined) o.cp_version = '1.0.0';
    const m = isObj(o.metadata) ? o.metadata : {};
    o.metadata = {
      icon: m.icon ?? null,
      main_screenshot: isObj(m.main_screenshot) ? m.main_screenshot : {},
      screenshots: Array.isArray(m.screenshots) ? m.screenshots : [],
      ...m,
    };
    if (!isObj(o.ops_objects)) o.ops_objects = {};
    const po = isObj(o.platform_objects) ? o.platform_objects : {};
    o.platform_objects = Object.fromEntries(PLATFORM_KINDS.map((k) => [k, po[k] || []]));
    const u = isObj(o.user_selected_objects) ? o.user_selected_objects : {};
    o.user_selected_objects = { ops_objects: u.ops_objects || {}, platform_objects: u.platform_objects || {} };
    delete o.sec_grp;
  },
});

function listRow(o, withExtras) {
  if (withExtras) {
    o.icon = o.metadata ? (o.metadata.icon ?? null) : null;
    o.ops_objects_counts = Object.fromEntries(Object.entries(o.ops_objects || {}).map(([k, v]) => [k, v.length]));
    o.platform_objects_counts = Object.fromEntries(Object.entries(o.platform_objects || {}).map(([k, v]) => [k, v.length]));
  }
  return o;
}
function singleRead(o) {
  o.ops_objects = Object.fromEntries(
    Object.entries(o.ops_objects || {}).map(([type, ids]) => [type, ids.map((id) => ({ [id]: titleOf(type, id) }))]),
  );
  return o;
}

function authoringList(ctx, q) {
  if (q.has('output_mode') && q.get('output_mode').trim() !== 'json') throw bad('output_mode must be json');
  if (q.has('status') && !CP_STATUSES.includes(q.get('status').trim())) throw bad(`status must be one of ${CP_STATUSES.join(', ')}`);
  const noFields = !q.has('fields');
  let items = authoring
    .all()
    .filter((o) => authoring.readable(ctx, o))
    .map((o) => listRow(authoring.out(ctx, o), noFields));
  if (q.has('status')) items = items.filter((o) => o.status === q.get('status').trim());
  if (q.has('search')) {
    const s = q.get('search');
    items = items.filter((o) => typeof o.title === 'string' && o.title.includes(s));
  }
  const { rows } = listing(items, q, ctx, {
    sortDir: (qq) => {
      if (!qq.has('sort_dir')) return true;
      const d = qq.get('sort_dir').trim();
      if (d !== 'asc' && d !== 'des') throw bad('Parameter sort_dir must be asc or des');
      return d === 'asc';
    },
  });
  if (!noFields) {
    for (const r of rows) for (const f of ['icon', 'ops_objects_counts', 'platform_objects_counts']) delete r[f];
  }
  return rows;
}

export function authoringRoutes(ctx, method, segs, q) {
  if (segs.length === 0) {
    if (method === 'GET') return authoringList(ctx, q);
    if (method === 'POST') return authoring.create(ctx, ctx.json());
    throw notAllowed(['GET', 'POST']);
  }
  if (segs.length === 1 && segs[0] === 'count') {
    if (method !== 'GET') throw notAllowed(['GET']);
    return authoring.count(ctx, q);
  }
  if (segs.length === 1) {
    const key = segs[0];
    if (method === 'GET') return singleRead(authoring.out(ctx, authoring.get(ctx, key)));
    if (method === 'POST') return authoring.update(ctx, key, ctx.json(), false);
    if (method === 'DELETE') {
      const details = singleRead(authoring.out(ctx, authoring.get(ctx, key)));
      authoring.remove(ctx, key);
      return details;
    }
    throw notAllowed(['GET', 'POST', 'DELETE']);
  }
  throw notFound(`Unknown path content_pack_authorship/content_pack/${segs.join('/')}`);
}
