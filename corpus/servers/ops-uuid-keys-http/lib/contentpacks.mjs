// Content pack library (list, get, preview, install, refresh) and custom content pack authoring.
import { coll } from './store.mjs';
import { canWriteTeam } from './auth.mjs';
import { initialLibrary } from './packdata.mjs';
import {
  bad,
  notFound,
  forbidden,
  clone,
  isObj,
  isStrArray,
  newKey,
  byMethod,
  Reply,
  parseBool,
  parseNonNegInt,
  GLOBAL_TEAM,
  CURRENT_VERSION,
  isoTs,
  modTimeStr,
  lowerTitle,
} from './util.mjs';
import { parseFilter, parseFields, project, sortRows } from './query.mjs';
import { REGISTRY, readable, requireWriter } from './crud.mjs';
import { bugs } from './bugs.mjs';

const LIB = initialLibrary();
const SAVED = coll('platform_savedsearches'); // platform saved searches created by installs (internal)

// preview/install group  ->  object type
export const GROUPS = {
  services: 'service',
  kpi_base_searches: 'kpi_base_search',
  entity_types: 'entity_type',
  glass_tables: 'glass_table',
  service_analyzers: 'home_view',
  deep_dives: 'deep_dive',
  service_templates: 'base_service_template',
  kpi_threshold_templates: 'kpi_threshold_template',
  correlation_searches: 'correlation_search',
  notable_aggregation_policies: 'notable_aggregation_policy',
};
const TYPE_TO_GROUP = Object.fromEntries(Object.entries(GROUPS).map(([g, t]) => [t, g]));

function libEntry(p) {
  return {
    id: p.id,
    title: p.title,
    description: p.description,
    overview: p.overview,
    author: p.author,
    version: p.version,
    icon: p.icon,
    help_links: clone(p.help_links),
    installed_versions: [...(LIB.installedVersions.get(p.id) || [])],
    screenshots: clone(p.screenshots),
    main_screenshot: clone(p.main_screenshot),
  };
}
function loadedPacks() {
  return LIB.conf.filter((n) => LIB.local.has(n) && !LIB.broken.has(n)).map((n) => LIB.local.get(n));
}
function findPack(name, version) {
  if (LIB.broken.has(name) && LIB.conf.includes(name))
    throw notFound(`Content pack '${name}' failed to load: ${LIB.broken.get(name).error_message}`);
  const p = loadedPacks().find((x) => x.id === name);
  if (!p) throw notFound(`No content pack named '${name}' is in the library`);
  if (p.version !== version) throw notFound(`Content pack '${name}' has version ${p.version}, not ${version}`);
  return p;
}

function requireGlobalWriter(ctx, what) {
  requireWriter(ctx);
  if (!canWriteTeam(ctx.user, GLOBAL_TEAM)) throw forbidden(`${what} requires write access to the Global team`);
}

function listLibrary(ctx) {
  const q = ctx.params;
  const count = parseNonNegInt(q.get('count'), 'count');
  const offset = parseNonNegInt(q.get('offset'), 'offset') || 0;
  const dir = q.get('sort_dir');
  if (dir !== null && dir !== '' && !['asc', 'desc'].includes(dir)) throw bad(`Parameter 'sort_dir' must be 'asc' or 'desc'`);
  const rows = loadedPacks().map((p, i) => ({ doc: libEntry(p), seq: i }));
  sortRows(rows, q.get('sort_key') || null, dir !== 'desc');
  let out = rows.slice(offset).map((r) => r.doc);
  if (count !== undefined) out = out.slice(0, count);
  const failure = LIB.conf.filter((n) => LIB.broken.has(n)).map((n) => clone(LIB.broken.get(n)));
  for (const n of LIB.conf)
    if (!LIB.local.has(n) && !LIB.broken.has(n))
      failure.push({
        id: n,
        version: null,
        error_type: 'NOT_FOUND_ON_DISK',
        error_message: `App '${n}' is listed in ops_content_packs.conf but is not installed locally`,
      });
  return { success: out, failure };
}

function preview(p) {
  const out = {};
  for (const [group, entries] of Object.entries(p.content)) {
    const type = GROUPS[group];
    out[group] = entries.map((e) => ({
      id: e.id,
      title: e.title,
      description: e.description,
      entitlement_status: true,
      installed: coll(type).has(e.id),
      has_dependency: (e.deps || []).length > 0,
    }));
  }
  const ss = p.saved_searches || [];
  out.saved_searches = {
    has_saved_searches: ss.length > 0,
    has_consistent_status: ss.length === 0 || ss.every((s) => s.disabled === ss[0].disabled),
  };
  return out;
}

function normGroup(k) {
  if (k === 'saved_searches' || k === 'savedsearches' || k === 'saved_search') return 'saved_searches';
  if (Object.hasOwn(GROUPS, k)) return k;
  if (Object.hasOwn(TYPE_TO_GROUP, k)) return TYPE_TO_GROUP[k];
  return null;
}

async function install(ctx, p) {
  requireGlobalWriter(ctx, 'Installing a content pack');
  const body = (await ctx.json(false)) ?? {};
  if (!isObj(body)) throw bad('The install payload must be a JSON object');
  const known = ['content', 'resolution', 'enabled', 'prefix', 'backfill'];
  for (const k of Object.keys(body)) if (!known.includes(k)) throw bad(`Unknown install option '${k}'. Options: ${known.join(', ')}`);
  let selection = null; // group -> Set(ids) | null for all
  if (body.content !== undefined && body.content !== null) {
    if (!isObj(body.content)) throw bad(`'content' must be an object mapping object-type name to an array of identifiers`);
    const entries = Object.entries(body.content);
    if (entries.length) {
      selection = {};
      for (const [k, ids] of entries) {
        const g = normGroup(k);
        if (!g) throw bad(`'content' names unknown object type '${k}'`);
        if (!isStrArray(ids)) throw bad(`'content.${k}' must be an array of identifiers`);
        const avail = g === 'saved_searches' ? (p.saved_searches || []).map((s) => s.name) : (p.content[g] || []).map((e) => e.id);
        for (const i of ids) if (!avail.includes(i)) throw bad(`'${i}' is not a ${k} object of content pack ${p.id} ${p.version}`);
        selection[g] = new Set([...(selection[g] || []), ...ids]);
      }
    }
  }
  const resolution = body.resolution ?? null;
  if (resolution !== null && !['overwrite', 'skip'].includes(resolution)) throw bad(`'resolution' must be 'overwrite' or 'skip'`);
  const enabled = parseBool(body.enabled, 'enabled', bugs.has('cp-install-enabled-default'));
  const backfill = parseBool(body.backfill, 'backfill', true);
  const prefix = body.prefix ?? '';
  if (typeof prefix !== 'string') throw bad(`'prefix' must be a string`);

  const successByGroup = {};
  const failure = [];
  const now = new Date();
  for (const [group, entries] of Object.entries(p.content)) {
    const type = GROUPS[group];
    const c = coll(type);
    for (const e of entries) {
      if (selection && !selection[group]?.has(e.id)) continue;
      const old = c.get(e.id);
      if (old && resolution !== 'overwrite') {
        failure.push({ content_type: group, id: e.id, title: old.title ?? e.title, type: 'OBJECT_ALREADY_EXISTS' });
        continue;
      }
      const doc = clone(e.object);
      doc._key = e.id;
      doc.title = prefix + e.title;
      doc.identifying_name = lowerTitle(doc.title);
      doc.object_type = type;
      doc.sec_grp = GLOBAL_TEAM;
      doc._version = CURRENT_VERSION;
      doc._user = ctx.pathUser || 'nobody';
      doc._owner = ctx.user.name;
      doc.create_by = ctx.user.name;
      doc.create_source = 'content_pack';
      doc.create_time = isoTs(now);
      doc.mod_by = ctx.user.name;
      doc.mod_source = 'content_pack';
      doc.mod_time = modTimeStr(now);
      doc.mod_timestamp = isoTs(now);
      doc.source_content_pack = { id: p.id, version: p.version };
      if (type === 'service' || type === 'notable_aggregation_policy' || type === 'correlation_search') {
        doc.enabled = enabled ? 1 : 0;
        if (type === 'correlation_search') doc.disabled = enabled ? 0 : 1;
      }
      if (type === 'service') {
        for (const k of doc.kpis || []) {
          k.service_id = doc._key;
          k.service_title = doc.title;
          k.sec_grp = GLOBAL_TEAM;
          if (k.type !== 'service_health') {
            k.backfill_enabled = backfill;
            k.backfill_earliest_time = '-7d';
          } else k.backfill_enabled = false; // health scores are never backfilled
        }
      }
      c.put(doc);
      (successByGroup[group] ||= []).push({ id: e.id, title: doc.title });
    }
  }
  // saved searches (platform objects): they keep their original enabled/disabled state
  const ss = (p.saved_searches || []).filter((s) => !selection || selection.saved_searches?.has(s.name));
  const ssResult = { action_performed: 'none', success: [], failure: [] };
  if (ss.length) {
    const states = new Set(ss.map((s) => s.disabled));
    ssResult.action_performed = states.size > 1 ? 'preserve' : ss[0].disabled ? 'disable' : 'enable';
    for (const s of ss) {
      if (SAVED.has(s.name) && resolution !== 'overwrite') {
        ssResult.failure.push({ name: s.name, error_message: `Saved search '${s.name}' already exists in app ${p.id}` });
        continue;
      }
      SAVED.put({ _key: s.name, ...clone(s), app: p.id });
      ssResult.success.push(s.name);
    }
  }
  if (Object.keys(successByGroup).length || ssResult.success.length) {
    const iv = LIB.installedVersions.get(p.id) || [];
    if (!iv.includes(p.version)) iv.push(p.version);
    LIB.installedVersions.set(p.id, iv);
  }
  return {
    success: Object.entries(successByGroup).map(([g, arr]) => ({ [g]: arr })),
    failure,
    saved_searches: ssResult,
  };
}

async function refresh(ctx) {
  requireGlobalWriter(ctx, 'Refreshing the content pack library');
  const body = await ctx.json(false);
  let added, removed;
  if (body === undefined || (isObj(body) && Object.keys(body).length === 0)) {
    added = [...LIB.local.keys(), ...LIB.broken.keys()].filter((n) => !LIB.conf.includes(n));
    removed = LIB.conf.filter((n) => !LIB.local.has(n) && !LIB.broken.has(n));
  } else {
    if (!isObj(body)) throw bad(`The payload must be {"apps_added": [string], "apps_removed": [string]}`);
    added = body.apps_added ?? [];
    removed = body.apps_removed ?? [];
    if (!isStrArray(added) || !isStrArray(removed)) throw bad(`'apps_added' and 'apps_removed' must be arrays of app names`);
  }
  const res = { success: { apps_added: [], apps_removed: [] }, failed: { apps_added: [], apps_removed: [] } };
  for (const n of added) {
    if (!LIB.local.has(n) && !LIB.broken.has(n)) {
      res.failed.apps_added.push(n);
      continue;
    }
    if (!LIB.conf.includes(n)) LIB.conf.push(n);
    res.success.apps_added.push(n);
  }
  for (const n of removed) {
    if (!LIB.conf.includes(n)) {
      res.failed.apps_removed.push(n);
      continue;
    }
    LIB.conf = LIB.conf.filter((x) => x !== n);
    LIB.local.delete(n);
    LIB.broken.delete(n);
    res.success.apps_removed.push(n);
  }
  return res;
}

export async function handleLibrary(ctx, segs) {
  if (segs.length === 0) return byMethod(ctx, { GET: () => listLibrary(ctx) });
  if (segs.length === 1 && segs[0] === 'refresh') return byMethod(ctx, { POST: () => refresh(ctx) });
  if (segs.length === 2) return byMethod(ctx, { GET: () => libEntry(findPack(segs[0], segs[1])) });
  if (segs.length === 3 && segs[2] === 'preview') return byMethod(ctx, { GET: () => preview(findPack(segs[0], segs[1])) });
  if (segs.length === 3 && segs[2] === 'install') return byMethod(ctx, { POST: () => install(ctx, findPack(segs[0], segs[1])) });
  throw notFound(`No such content pack endpoint: content_pack/${segs.join('/')}`);
}

// ===================================================================== authoring
export const CP_STATUSES = ['Draft', 'Queued', 'Generating', 'Generated', 'Failed', 'Incomplete'];
export const CP_OPS_TYPES = [
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
const PLATFORM_KEYS = ['dashboards', 'lookups', 'macros', 'props', 'savedsearches', 'transforms'];
const AUTH = coll('content_pack');
const AUTH_SERVER = [
  '_key',
  'object_type',
  'mod_time',
  'mod_timestamp',
  'mod_source',
  '_version',
  'identifying_name',
  '_user',
  '_owner',
  'create_time',
  'icon',
  'ops_objects_counts',
  'platform_objects_counts',
];

function normOps(v, where) {
  if (v === undefined || v === null) return {};
  if (!isObj(v)) throw bad(`'${where}' must be an object mapping object-type name to an array of identifiers`);
  const out = {};
  for (const [t, ids] of Object.entries(v)) {
    if (!CP_OPS_TYPES.includes(t)) throw bad(`'${where}' names unsupported object type '${t}'`);
    let list = ids;
    if (isObj(ids)) list = Object.keys(ids); // accept the {id: title} single-read form back
    if (!isStrArray(list)) throw bad(`'${where}.${t}' must be an array of identifiers`);
    out[t] = [...new Set(list)];
  }
  return out;
}
function normPlatform(v, where) {
  if (v === undefined || v === null) v = {};
  if (!isObj(v)) throw bad(`'${where}' must be an object with arrays ${PLATFORM_KEYS.join(', ')}`);
  const out = {};
  for (const k of Object.keys(v)) if (!PLATFORM_KEYS.includes(k)) throw bad(`'${where}' has unknown member '${k}'`);
  for (const k of PLATFORM_KEYS) {
    const a = v[k] ?? [];
    if (!isStrArray(a)) throw bad(`'${where}.${k}' must be an array of strings`);
    out[k] = a;
  }
  return out;
}

function prepareAuthored(ctx, payload, old) {
  if (!isObj(payload)) throw bad('The content pack payload must be a JSON object');
  const doc = {};
  for (const [k, v] of Object.entries(payload)) if (!AUTH_SERVER.includes(k)) doc[k] = clone(v);
  if (typeof doc.title !== 'string' || !doc.title.trim()) throw bad(`Field 'title' is required and must be a non-empty string`);
  for (const f of ['description', 'overview', 'cp_version']) {
    if (doc[f] === undefined || doc[f] === null) doc[f] = f === 'cp_version' ? '1.0.0' : '';
    if (typeof doc[f] !== 'string') throw bad(`Field '${f}' must be a string`);
  }
  const md = doc.metadata ?? {};
  if (!isObj(md)) throw bad(`Field 'metadata' must be an object {icon, main_screenshot, screenshots}`);
  if (md.icon === undefined) md.icon = null;
  if (md.icon !== null && typeof md.icon !== 'string') throw bad(`'metadata.icon' must be a string or null`);
  if (md.main_screenshot === undefined || md.main_screenshot === null) md.main_screenshot = {};
  if (!isObj(md.main_screenshot)) throw bad(`'metadata.main_screenshot' must be an object`);
  if (md.screenshots === undefined) md.screenshots = [];
  if (!Array.isArray(md.screenshots)) throw bad(`'metadata.screenshots' must be an array`);
  doc.metadata = md;
  doc.ops_objects = normOps(doc.ops_objects, 'ops_objects');
  doc.platform_objects = normPlatform(doc.platform_objects, 'platform_objects');
  const uso = doc.user_selected_objects ?? {};
  if (!isObj(uso)) throw bad(`Field 'user_selected_objects' must be an object {ops_objects, platform_objects}`);
  for (const k of Object.keys(uso))
    if (!['ops_objects', 'platform_objects'].includes(k)) throw bad(`'user_selected_objects' has unknown member '${k}'`);
  doc.user_selected_objects = {
    ops_objects: normOps(uso.ops_objects, 'user_selected_objects.ops_objects'),
    platform_objects: normPlatform(uso.platform_objects, 'user_selected_objects.platform_objects'),
  };
  if (doc.status === undefined || doc.status === null) doc.status = old?.status ?? 'Draft';
  if (!CP_STATUSES.includes(doc.status)) throw bad(`Field 'status' must be one of ${CP_STATUSES.join(', ')}`);
  const now = new Date();
  doc._key = old?._key ?? newKey();
  doc.object_type = 'content_pack';
  doc._version = CURRENT_VERSION;
  doc._user = old?._user ?? ctx.pathUser ?? 'nobody';
  doc._owner = old?._owner ?? ctx.user.name;
  doc.create_time = old?.create_time ?? isoTs(now);
  doc.mod_source = 'REST';
  doc.mod_time = modTimeStr(now);
  doc.mod_timestamp = isoTs(now);
  doc.identifying_name = lowerTitle(doc.title);
  return doc;
}

const counts = (o) => Object.fromEntries(Object.entries(o).map(([k, v]) => [k, v.length]));
function listForm(doc) {
  return clone(doc);
}
function singleForm(doc, ctx) {
  const out = clone(doc);
  const titled = {};
  for (const [t, ids] of Object.entries(doc.ops_objects)) {
    const def = Object.hasOwn(REGISTRY, t) ? REGISTRY[t] : null;
    titled[t] = {};
    for (const i of ids) {
      const o = coll(t).get(i);
      titled[t][i] = o && (!def || readable(def, o, ctx.user)) ? (o.title ?? null) : null;
    }
  }
  out.ops_objects = titled;
  return out;
}

function listAuthored(ctx) {
  const q = ctx.params;
  const dir = q.get('sort_dir');
  if (dir !== null && dir !== '' && !['asc', 'des', 'desc'].includes(dir)) throw bad(`Parameter 'sort_dir' must be 'asc' or 'des'`);
  const om = q.get('output_mode');
  if (om !== null && om !== 'json') throw bad(`Parameter 'output_mode' supports only 'json'`);
  const status = q.get('status');
  if (status !== null && !CP_STATUSES.includes(status)) throw bad(`Parameter 'status' must be one of ${CP_STATUSES.join(', ')}`);
  const offset = parseNonNegInt(q.get('offset'), 'offset') || 0;
  const count = parseNonNegInt(q.get('count'), 'count');
  const fields = parseFields(q);
  const filter = parseFilter(q.get('filter'));
  const search = q.get('search');
  let rows = AUTH.rows().map((r) => ({ doc: listForm(r.doc), seq: r.seq }));
  if (status) rows = rows.filter((r) => r.doc.status === status);
  if (search) rows = rows.filter((r) => r.doc.title.toLowerCase().includes(search.toLowerCase()));
  if (filter) rows = rows.filter((r) => filter(r.doc));
  sortRows(rows, q.get('sort_key') || null, bugs.has('cp-sort-des-ignored') ? dir !== 'desc' : !(dir === 'des' || dir === 'desc'));
  let out = rows.slice(offset);
  if (count !== undefined) out = out.slice(0, count);
  return out.map((r) => {
    if (fields) {
      const p = project(r.doc, fields);
      delete p.icon;
      delete p.ops_objects_counts;
      delete p.platform_objects_counts;
      return p;
    }
    return {
      ...r.doc,
      icon: r.doc.metadata?.icon ?? null,
      ops_objects_counts: counts(r.doc.ops_objects),
      platform_objects_counts: counts(r.doc.platform_objects),
    };
  });
}

function getAuthored(key) {
  const d = AUTH.get(key);
  if (!d) throw notFound(`No custom content pack with _key '${key}'`);
  return d;
}

export async function handleAuthorship(ctx, segs) {
  if (segs.length === 0)
    return byMethod(ctx, {
      GET: () => listAuthored(ctx),
      POST: async () => {
        requireWriter(ctx);
        const payload = await ctx.json(true);
        if (isObj(payload) && payload._key !== undefined && AUTH.has(payload._key))
          throw bad(`_key '${payload._key}' already exists; update it with POST content_pack/${payload._key}`);
        const doc = prepareAuthored(ctx, payload, null);
        if (isObj(payload) && typeof payload._key === 'string' && /^[A-Za-z0-9_.:-]{1,200}$/.test(payload._key)) doc._key = payload._key;
        AUTH.put(doc);
        return new Reply(201, { _key: doc._key });
      },
    });
  if (segs.length === 1 && segs[0] === 'count')
    return byMethod(ctx, {
      GET: () => {
        const f = parseFilter(ctx.params.get('filter'));
        const docs = AUTH.docs();
        return { count: f ? docs.filter((d) => f(d)).length : docs.length };
      },
    });
  if (segs.length === 1) {
    const key = segs[0];
    return byMethod(ctx, {
      GET: () => singleForm(getAuthored(key), ctx),
      POST: async () => {
        requireWriter(ctx);
        const old = getAuthored(key);
        const payload = await ctx.json(true);
        if (isObj(payload) && payload._key !== undefined && payload._key !== key) throw bad(`The payload's _key does not match the path`);
        const doc = prepareAuthored(ctx, payload, old);
        AUTH.put(doc);
        return { _key: doc._key };
      },
      DELETE: () => {
        requireWriter(ctx);
        const old = getAuthored(key);
        const details = singleForm(old, ctx);
        AUTH.delete(key);
        return details;
      },
    });
  }
  throw notFound(`No such endpoint: content_pack_authorship/content_pack/${segs.join('/')}`);
}

export function seedAuthored(docs) {
  for (const d of docs) AUTH.put(d);
}
