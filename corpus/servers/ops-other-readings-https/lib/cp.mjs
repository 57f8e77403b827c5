// Content pack library and custom content pack authoring.
import { bad, notFound, forbidden, methodNotAllowed, isPlainObject, clone, qp, intParam, newKey, GLOBAL, truthyFlag } from './util.mjs';
import { Reply } from './util.mjs';
import { canRead, canWrite } from './access.mjs';
import { core, events, library, authored, savedSearches, stamp, metaOf } from './store.mjs';
import { parseFilter, sortBy, compareValues, project } from './query.mjs';
import { bug } from './bugs.mjs';

// group name -> [store, object type]
export const GROUPS = {
  services: ['core', 'service'],
  entity_types: ['core', 'entity_type'],
  glass_tables: ['core', 'glass_table'],
  service_analyzers: ['core', 'home_view'],
  kpi_base_searches: ['core', 'kpi_base_search'],
  service_templates: ['core', 'base_service_template'],
  deep_dives: ['core', 'deep_dive'],
  kpi_threshold_templates: ['core', 'kpi_threshold_template'],
  correlation_searches: ['events', 'correlation_search'],
  notable_aggregation_policies: ['events', 'notable_event_aggregation_policy'],
  saved_searches: ['saved', 'savedsearch'],
};
const TYPE_TO_GROUP = Object.fromEntries(Object.entries(GROUPS).map(([g, [, t]]) => [t, g]));
TYPE_TO_GROUP.notable_aggregation_policy = 'notable_aggregation_policies';
const ENABLE_GROUPS = new Set(['services', 'correlation_searches', 'notable_aggregation_policies']);

const PUBLIC_PACK_FIELDS = [
  'id',
  'title',
  'description',
  'overview',
  'author',
  'version',
  'icon',
  'help_links',
  'installed_versions',
  'screenshots',
  'main_screenshot',
];
const packView = (p) => Object.fromEntries(PUBLIC_PACK_FIELDS.map((f) => [f, clone(p[f])]));

function findPack(name, version) {
  return library.packs.find((p) => p.id === name && p.version === version);
}
function targetColl(group) {
  const [store, type] = GROUPS[group];
  if (store === 'core') return core[type];
  if (store === 'events') return events[type];
  return null;
}
function isInstalled(pack, group, obj) {
  const [store] = GROUPS[group];
  if (store === 'saved') return savedSearches.has(obj.id) && savedSearches.get(obj.id).pack === pack.id;
  const coll = targetColl(group);
  return coll.all().some((d) => metaOf(d._key).installedFrom === pack.id && metaOf(d._key).sourceId === obj.id);
}

// ---- library -------------------------------------------------------------------------------------
function listLibrary(ctx) {
  if (!canRead(ctx.user, GLOBAL)) return { success: [], failure: [] };
  let rows = library.packs.map(packView);
  const sk = qp(ctx.q, 'sort_key');
  const sd = qp(ctx.q, 'sort_dir');
  if (sd !== undefined && sd !== 'asc' && sd !== 'desc') throw bad("sort_dir must be 'asc' or 'desc'");
  if (sk) rows = sortBy(rows, sk, sd !== 'desc');
  else if (sd === 'desc') rows = rows.reverse();
  const off = intParam(ctx.q, 'offset');
  const cnt = intParam(ctx.q, 'count');
  if (off !== undefined) rows = rows.slice(off);
  if (cnt !== undefined) rows = rows.slice(0, cnt);
  return { success: rows, failure: clone(library.failures) };
}

function preview(pack) {
  const out = {};
  for (const [group, objs] of Object.entries(pack.objects)) {
    out[group] = objs.map((o) => {
      const e = {
        id: o.id,
        title: o.title,
        description: o.description || '',
        entitlement_status: true,
        installed: isInstalled(pack, group, o),
        has_dependency: Boolean(o.depends_on?.length),
      };
      if (group === 'saved_searches') {
        e.has_saved_searches = true;
        const s = savedSearches.get(o.id);
        e.has_consistent_status = !s || s.disabled === Boolean(o.disabled);
      }
      return e;
    });
  }
  return out;
}

function contentSelection(content) {
  // returns null for "everything", else Set of "group\0id" or plain ids
  if (content === undefined || content === null) return null;
  const sel = { any: new Set(), byGroup: new Map() };
  let total = 0;
  if (Array.isArray(content)) {
    for (const id of content) {
      if (typeof id !== 'string') throw bad("'content' entries must be object identifiers (strings)");
      sel.any.add(id);
      total++;
    }
  } else if (isPlainObject(content)) {
    for (const [t, ids] of Object.entries(content)) {
      const g = GROUPS[t] ? t : TYPE_TO_GROUP[t];
      if (!g) throw bad(`Unknown object type '${t}' in 'content'`);
      if (!Array.isArray(ids) || !ids.every((x) => typeof x === 'string')) throw bad(`'content.${t}' must be an array of identifiers`);
      if (!sel.byGroup.has(g)) sel.byGroup.set(g, new Set());
      for (const id of ids) {
        sel.byGroup.get(g).add(id);
        total++;
      }
    }
  } else throw bad("'content' must map object-type names to arrays of identifiers");
  return total === 0 ? null : sel; // none given: install everything
}
function boolish(v, name) {
  if (v === undefined || v === null) return undefined;
  if (v === 1 || v === '1' || v === true || v === 'true' || v === 'True') return true;
  if (v === 0 || v === '0' || v === false || v === 'false' || v === 'False') return false;
  throw bad(`'${name}' must be a Boolean (1 or 0)`);
}

function install(ctx, pack, body) {
  if (!canWrite(ctx.user, GLOBAL)) throw forbidden('Installing content packs requires write access to the Global team');
  const b = body === undefined || body === null ? {} : body;
  if (!isPlainObject(b)) throw bad('The install payload must be a JSON object');
  const sel = contentSelection(b.content);
  const resolution = b.resolution;
  if (resolution !== undefined && resolution !== 'overwrite' && resolution !== 'skip')
    throw bad("'resolution' must be 'overwrite' or 'skip'");
  const enabled = boolish(b.enabled, 'enabled') === true;
  const prefix = b.prefix === undefined || b.prefix === null ? '' : b.prefix;
  if (typeof prefix !== 'string') throw bad("'prefix' must be a string");
  const backfill = boolish(b.backfill, 'backfill');
  const success = [];
  const failure = [];
  const saved = { action_performed: enabled ? 'enable' : 'retain', success: [], failure: [] };
  const matched = new Set();
  for (const [group, objs] of Object.entries(pack.objects)) {
    const installedHere = [];
    for (const o of objs) {
      if (sel) {
        const hit = sel.any.has(o.id) || sel.byGroup.get(group)?.has(o.id);
        if (!hit) continue;
        matched.add(group + '\u0000' + o.id);
        matched.add(o.id);
      }
      const key = prefix + o.id;
      const title = prefix + o.title;
      if (group === 'saved_searches') {
        const ex = savedSearches.get(key);
        if (ex && resolution !== 'overwrite') {
          saved.failure.push({ name: key, error_message: 'Saved search already exists' });
          continue;
        }
        savedSearches.set(key, { pack: pack.id, disabled: Boolean(o.disabled) });
        saved.success.push(key);
        continue;
      }
      const coll = targetColl(group);
      const [, type] = GROUPS[group];
      const existing = coll.get(key);
      const fromThisPack = existing && metaOf(key).installedFrom === pack.id;
      const titleClash = coll
        .all()
        .some(
          (d) =>
            d._key !== key &&
            typeof d.title === 'string' &&
            d.title.toLowerCase() === title.toLowerCase() &&
            (type === 'service' || type === 'team'),
        );
      if ((existing && !(resolution === 'overwrite' && fromThisPack)) || titleClash) {
        failure.push({ content_type: group, id: key, title, type: 'OBJECT_ALREADY_EXISTS' });
        continue;
      }
      const doc = clone(o.body || {});
      Object.assign(doc, { _key: key, title, object_type: type, description: o.description || '' });
      if (GROUPS[group][0] === 'core') doc.sec_grp = GLOBAL;
      if (ENABLE_GROUPS.has(group)) doc.enabled = enabled ? 1 : 0;
      if (type === 'service' && Array.isArray(doc.kpis)) {
        for (const k of doc.kpis) {
          k.service_id = key;
          k.service_title = title;
          if (backfill === false) k.backfill_enabled = false;
        }
        doc.backfill_enabled = backfill !== false;
      }
      stamp(doc, ctx);
      coll.put(key, doc);
      Object.assign(metaOf(key), { installedFrom: pack.id, sourceId: o.id });
      installedHere.push({ id: key, title });
    }
    if (installedHere.length) success.push({ [group]: installedHere });
  }
  if (sel) {
    for (const id of sel.any) if (!matched.has(id)) failure.push({ content_type: '', id, title: '', type: 'OBJECT_NOT_FOUND' });
    for (const [g, ids] of sel.byGroup)
      for (const id of ids) {
        if (!matched.has(g + '\u0000' + id)) failure.push({ content_type: g, id, title: '', type: 'OBJECT_NOT_FOUND' });
      }
  }
  if (success.length || saved.success.length) {
    if (!pack.installed_versions.includes(pack.version)) pack.installed_versions.push(pack.version);
  }
  return { success, failure, saved_searches: saved };
}

function refresh(ctx, body) {
  if (!canWrite(ctx.user, GLOBAL)) throw forbidden('Refreshing the content pack library requires write access');
  const b = body === undefined || body === null ? {} : body;
  if (!isPlainObject(b)) throw bad('Payload must be {apps_added: [string], apps_removed: [string]}');
  const out = { success: { apps_added: [], apps_removed: [] }, failed: { apps_added: [], apps_removed: [] } };
  for (const f of ['apps_added', 'apps_removed']) {
    if (b[f] !== undefined && (!Array.isArray(b[f]) || !b[f].every((x) => typeof x === 'string')))
      throw bad(`'${f}' must be an array of strings`);
  }
  for (const app of b.apps_added || []) {
    if (library.packs.some((p) => p.id === app) || !/^[A-Za-z0-9_.-]+$/.test(app)) {
      out.failed.apps_added.push(app);
      continue;
    }
    library.packs.push({
      id: app,
      title: app.replace(/^DA-OPS-CP-/, '').replace(/[_-]+/g, ' '),
      description: '',
      overview: '',
      author: 'Local',
      version: '1.0.0',
      icon: '',
      help_links: [],
      installed_versions: [],
      screenshots: [],
      main_screenshot: { path: '', thumb: '' },
      objects: {},
    });
    out.success.apps_added.push(app);
  }
  for (const app of b.apps_removed || []) {
    const i = library.packs.findIndex((p) => p.id === app);
    if (i < 0 || library.packs[i].installed_versions.length) {
      out.failed.apps_removed.push(app);
      continue;
    }
    library.packs.splice(i, 1);
    out.success.apps_removed.push(app);
  }
  return out;
}

export function handleLibrary(ctx, rest) {
  const m = ctx.method;
  if (rest.length === 0) {
    if (m !== 'GET') throw methodNotAllowed(['GET']);
    return listLibrary(ctx);
  }
  if (rest.length === 1 && rest[0] === 'refresh') {
    if (m !== 'POST') throw methodNotAllowed(['POST']);
    return refresh(ctx, ctx.bodyOptional);
  }
  if (rest.length === 2 || rest.length === 3) {
    const pack = findPack(rest[0], rest[1]);
    if (!pack || !canRead(ctx.user, GLOBAL)) throw notFound(`Content pack '${rest[0]}' version '${rest[1]}' not found`);
    if (rest.length === 2) {
      if (m !== 'GET') throw methodNotAllowed(['GET']);
      return packView(pack);
    }
    if (rest[2] === 'preview') {
      if (m !== 'GET') throw methodNotAllowed(['GET']);
      return preview(pack);
    }
    if (rest[2] === 'install') {
      if (m !== 'POST') throw methodNotAllowed(['POST']);
      return install(ctx, pack, ctx.bodyOptional);
    }
  }
  throw notFound('Unknown content pack endpoint');
}

// ---- authoring -----------------------------------------------------------------------------------
export const CP_STATUSES = ['Draft', 'Queued', 'Generating', 'Generated', 'Failed', 'Incomplete'];
const PLATFORM_KINDS = ['dashboards', 'lookups', 'macros', 'props', 'savedsearches', 'transforms'];
const _CP_FIELDS = [
  'title',
  'description',
  'overview',
  'cp_version',
  'metadata',
  'ops_objects',
  'platform_objects',
  'user_selected_objects',
];

function titleOf(type, id) {
  const coll = core[type] || events[type === 'notable_aggregation_policy' ? 'notable_event_aggregation_policy' : type];
  const d = coll?.get(id);
  return d && typeof d.title === 'string' ? d.title : id;
}
function normIdMap(v, name) {
  if (v === undefined || v === null) return {};
  if (!isPlainObject(v)) throw bad(`'${name}' must be an object`);
  const out = {};
  for (const [t, ids] of Object.entries(v)) {
    if (Array.isArray(ids) && ids.every((x) => typeof x === 'string')) out[t] = [...ids];
    else if (isPlainObject(ids))
      out[t] = Object.keys(ids); // {id: title} entries from a single read
    else throw bad(`'${name}.${t}' must be an array of identifiers`);
  }
  return out;
}
function normPlatform(v, name) {
  const out = Object.fromEntries(PLATFORM_KINDS.map((k) => [k, []]));
  if (v === undefined || v === null) return out;
  if (!isPlainObject(v)) throw bad(`'${name}' must be an object`);
  for (const [k, arr] of Object.entries(v)) {
    if (!Array.isArray(arr) || !arr.every((x) => typeof x === 'string')) throw bad(`'${name}.${k}' must be an array of strings`);
    out[k] = [...arr];
  }
  return out;
}
function normalizeCp(b, existing, full) {
  if (!isPlainObject(b)) throw bad('The payload must be a JSON object');
  if (typeof b.title !== 'string') throw bad("Field 'title' is required and must be a string");
  for (const f of ['description', 'overview', 'cp_version'])
    if (b[f] !== undefined && typeof b[f] !== 'string') throw bad(`Field '${f}' must be a string`);
  const doc = {};
  for (const f of ['title', 'description', 'overview', 'cp_version']) doc[f] = b[f] === undefined ? '' : b[f];
  const md = b.metadata === undefined || b.metadata === null ? {} : b.metadata;
  if (!isPlainObject(md)) throw bad("'metadata' must be an object {icon, main_screenshot, screenshots}");
  if (md.icon !== undefined && md.icon !== null && typeof md.icon !== 'string') throw bad("'metadata.icon' must be a string or null");
  if (md.screenshots !== undefined && !Array.isArray(md.screenshots)) throw bad("'metadata.screenshots' must be an array");
  if (md.main_screenshot !== undefined && !isPlainObject(md.main_screenshot)) throw bad("'metadata.main_screenshot' must be an object");
  doc.metadata = {
    icon: md.icon === undefined ? null : md.icon,
    main_screenshot: clone(md.main_screenshot || {}),
    screenshots: clone(md.screenshots || []),
  };
  doc.ops_objects = normIdMap(b.ops_objects, 'ops_objects');
  doc.platform_objects = normPlatform(b.platform_objects, 'platform_objects');
  const uso = b.user_selected_objects === undefined || b.user_selected_objects === null ? {} : b.user_selected_objects;
  if (!isPlainObject(uso)) throw bad("'user_selected_objects' must be an object {ops_objects, platform_objects}");
  doc.user_selected_objects = {
    ops_objects: normIdMap(uso.ops_objects, 'user_selected_objects.ops_objects'),
    platform_objects: normPlatform(uso.platform_objects, 'user_selected_objects.platform_objects'),
  };
  doc.status = 'Draft';
  if (full && b.status !== undefined) {
    if (!CP_STATUSES.includes(b.status)) throw bad(`'status' must be one of ${CP_STATUSES.join(', ')}`);
    doc.status = b.status;
  } else if (existing) doc.status = existing.status;
  return doc;
}
function cpListView(d, withExtras) {
  const v = clone(d);
  if (withExtras) {
    v.icon = d.metadata ? d.metadata.icon : null;
    v.ops_objects_counts = Object.fromEntries(Object.entries(d.ops_objects || {}).map(([t, a]) => [t, a.length]));
    v.platform_objects_counts = Object.fromEntries(Object.entries(d.platform_objects || {}).map(([t, a]) => [t, a.length]));
  }
  return v;
}
function cpSingleView(d) {
  const v = clone(d);
  v.ops_objects = Object.fromEntries(
    Object.entries(d.ops_objects || {}).map(([t, ids]) => [t, Object.fromEntries(ids.map((id) => [id, titleOf(t, id)]))]),
  );
  return v;
}
function fieldsArrayParam(q) {
  const all = q.getAll('fields');
  if (!all.length) return null;
  const out = [];
  for (const v of all) {
    const t = v.trim();
    if (t.startsWith('[')) {
      let a;
      try {
        a = JSON.parse(t);
      } catch {
        throw bad("'fields' must be an array of field names");
      }
      if (!Array.isArray(a) || !a.every((x) => typeof x === 'string')) throw bad("'fields' must be an array of field names");
      out.push(...a);
    } else if (v !== '') out.push(...v.split(','));
  }
  return out;
}
function listAuthored(ctx) {
  const q = ctx.q;
  const om = qp(q, 'output_mode');
  if (om !== undefined && om !== 'json') throw bad("output_mode must be 'json'");
  const st = qp(q, 'status');
  if (st !== undefined && !CP_STATUSES.includes(st)) throw bad(`status must be one of ${CP_STATUSES.join(', ')}`);
  const sd = qp(q, 'sort_dir');
  if (sd !== undefined && sd !== 'asc' && sd !== 'des') throw bad("sort_dir must be 'asc' or 'des'");
  const fields = fieldsArrayParam(q);
  if (!canRead(ctx.user, GLOBAL)) return [];
  let rows = authored.all();
  if (st !== undefined) rows = rows.filter((d) => d.status === st);
  const search = qp(q, 'search');
  if (search !== undefined) rows = rows.filter((d) => typeof d.title === 'string' && d.title.includes(search));
  const pred = parseFilter(qp(q, 'filter'));
  if (pred) rows = rows.filter(pred);
  const sk = qp(q, 'sort_key');
  if (sk) rows = sortBy(rows, sk, sd !== 'des');
  const off = intParam(q, 'offset');
  const cnt = intParam(q, 'count');
  if (off !== undefined) rows = rows.slice(off);
  if (cnt !== undefined) rows = rows.slice(0, cnt);
  const extras = !fields || bug('cp_fields_icon');
  return rows.map((d) => {
    const v = cpListView(d, extras);
    if (!fields) return v;
    const p = project(
      v,
      fields.filter((f) => !['icon', 'ops_objects_counts', 'platform_objects_counts'].includes(f)),
    );
    if (bug('cp_fields_icon')) {
      p.icon = v.icon;
    }
    return p;
  });
}
function writeAuthored(ctx, key, body, full) {
  if (!canWrite(ctx.user, GLOBAL)) throw forbidden('No write access to content packs');
  const existing = key ? authored.get(key) : undefined;
  const doc = normalizeCp(body, existing, full);
  doc._key = existing ? existing._key : key || newKey();
  doc.object_type = 'content_pack';
  stamp(doc, ctx);
  delete doc.sec_grp;
  authored.put(doc._key, doc);
  return new Reply(existing ? 200 : 201, { _key: doc._key });
}

export function handleAuthoring(ctx, rest) {
  const m = ctx.method;
  if (rest[0] !== 'content_pack') throw notFound('Unknown content pack authoring endpoint');
  const r = rest.slice(1);
  if (r.length === 0) {
    if (m === 'GET') return listAuthored(ctx);
    if (m === 'POST') return writeAuthored(ctx, undefined, ctx.body, false);
    throw methodNotAllowed(['GET', 'POST']);
  }
  if (r.length === 1 && r[0] === 'count') {
    if (m !== 'GET') throw methodNotAllowed(['GET']);
    const pred = parseFilter(qp(ctx.q, 'filter'));
    const all = authored.all();
    return { count: pred ? all.filter(pred).length : all.length };
  }
  if (r.length === 1) {
    const key = r[0];
    if (m === 'GET') {
      const d = authored.get(key);
      if (!d || !canRead(ctx.user, GLOBAL)) throw notFound(`Content pack '${key}' not found`);
      return cpSingleView(d);
    }
    if (m === 'POST') return writeAuthored(ctx, key, ctx.body, true);
    if (m === 'DELETE') {
      const d = authored.get(key);
      if (!d || !canRead(ctx.user, GLOBAL)) throw notFound(`Content pack '${key}' not found`);
      if (!canWrite(ctx.user, GLOBAL)) throw forbidden('No write access to content packs');
      authored.delete(key);
      return cpSingleView(d);
    }
    throw methodNotAllowed(['GET', 'POST', 'DELETE']);
  }
  throw notFound('Unknown content pack authoring endpoint');
}
export { compareValues, truthyFlag };
