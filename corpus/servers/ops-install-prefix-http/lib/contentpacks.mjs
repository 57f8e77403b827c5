// Content pack library: list, read, preview, install, refresh.
import {
  GLOBAL,
  bad,
  invalid,
  notFound,
  forbidden,
  methodNotAllowed,
  isObj,
  clone,
  boolBody,
  intParam,
  lastParam,
  isoOffset,
  modTime,
  nowEpoch,
} from './util.mjs';
import { db, stamp, CORE_TYPES } from './store.mjs';
import { canWriteGlobalResource } from './auth.mjs';
import { sortRows } from './query.mjs';
import { bug } from './bugs.mjs';

// Object-type name -> object-type group used in previews and install results.
export const GROUPS = {
  base_service_template: 'service_templates',
  correlation_search: 'correlation_searches',
  deep_dive: 'deep_dives',
  entity_type: 'entity_types',
  event_management_state: 'event_management_states',
  glass_table: 'glass_tables',
  home_view: 'service_analyzers',
  kpi_base_search: 'kpi_base_searches',
  kpi_threshold_template: 'kpi_threshold_templates',
  notable_aggregation_policy: 'aggregation_policies',
  service: 'services',
  team: 'teams',
};
export const PACK_OBJECT_TYPES = Object.keys(GROUPS);

const PUBLIC_FIELDS = [
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

function versionCmp(a, b) {
  const pa = String(a)
    .split('.')
    .map((x) => parseInt(x, 10) || 0);
  const pb = String(b)
    .split('.')
    .map((x) => parseInt(x, 10) || 0);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] || 0) - (pb[i] || 0);
    if (d) return d;
  }
  return 0;
}

export function publicPack(p) {
  const out = { _key: `${p.id}@${p.version}`, object_type: 'content_pack' };
  for (const f of PUBLIC_FIELDS) out[f] = f === 'installed_versions' ? [...(db.cpInstalled.get(p.id) || [])].sort(versionCmp) : clone(p[f]);
  return out;
}

export const storeFor = (type) => (CORE_TYPES.includes(type) ? db.core[type] : db.event[type]);

function findPack(name, version) {
  return db.cpLibrary.get(`${name}@${version}`) || null;
}

export function handleLibrary(ctx, segs) {
  const { method } = ctx;
  if (segs.length === 0) {
    if (method !== 'GET') throw methodNotAllowed(['GET']);
    return listPacks(ctx);
  }
  if (segs.length === 1 && segs[0] === 'refresh') {
    if (method !== 'POST') throw methodNotAllowed(['POST']);
    return refresh(ctx);
  }
  if (segs.length === 2) {
    if (method !== 'GET') throw methodNotAllowed(['GET']);
    const p = findPack(segs[0], segs[1]);
    if (!p) throw notFound(`No content pack ${segs[0]} version ${segs[1]} in the library`);
    return ctx.reply(200, publicPack(p));
  }
  if (segs.length === 3 && segs[2] === 'preview') {
    if (method !== 'GET') throw methodNotAllowed(['GET']);
    const p = findPack(segs[0], segs[1]);
    if (!p) throw notFound(`No content pack ${segs[0]} version ${segs[1]} in the library`);
    return ctx.reply(200, preview(p));
  }
  if (segs.length === 3 && segs[2] === 'install') {
    if (method !== 'POST') throw methodNotAllowed(['POST']);
    const p = findPack(segs[0], segs[1]);
    if (!p) throw notFound(`No content pack ${segs[0]} version ${segs[1]} in the library`);
    return install(ctx, p);
  }
  throw notFound('No such endpoint');
}

function listPacks(ctx) {
  const { q } = ctx;
  const count = intParam(q, 'count');
  const offset = intParam(q, 'offset') || 0;
  const sortKey = lastParam(q, 'sort_key');
  let asc = false;
  if (q.has('sort_dir')) {
    const sd = lastParam(q, 'sort_dir');
    if (sd === 'asc') asc = true;
    else if (sd === 'desc') asc = false;
    else throw bad('sort_dir must be asc or desc', 'INVALID_PARAMETER');
  }
  let rows = [...db.cpLibrary.values()].map(publicPack);
  if (sortKey) rows = sortRows(rows, sortKey, asc);
  else rows.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : -versionCmp(a.version, b.version)));
  rows = rows.slice(offset);
  if (count !== undefined) rows = rows.slice(0, count);
  return ctx.reply(200, { success: rows, failure: clone(db.cpLoadFailures) });
}

function installedFromPack(pack, obj) {
  for (const [k, rec] of db.installRecords) {
    if (rec.pack !== pack.id || rec.origId !== obj.id || rec.type !== obj.object_type) continue;
    const key = k.slice(k.indexOf(':') + 1);
    if (storeFor(obj.object_type).has(key)) return true;
  }
  return false;
}

function preview(p) {
  const out = {};
  for (const o of p._objects) {
    const g = GROUPS[o.object_type];
    if (!out[g]) out[g] = [];
    const installed = installedFromPack(p, o);
    if (p._form === 'old') out[g].push({ id: o.id, title: o.title, description: o.description, installed });
    else {
      out[g].push({
        id: o.id,
        title: o.title,
        description: o.description,
        entitlement_status: o.entitlement_status !== false,
        installed,
        has_dependency: Boolean(o.has_dependency),
      });
    }
  }
  if (p._form !== 'old') {
    const ss = p._saved_searches || [];
    out.saved_searches = {
      has_saved_searches: ss.length > 0,
      has_consistent_status: ss.every((s) => Boolean(s.disabled) === Boolean(ss[0]?.disabled)),
    };
  }
  return out;
}

function parseContent(content) {
  // Returns {byType: Map(type -> [ids]) | null, anyIds: [ids] | null, total}
  if (content === undefined || content === null) return { total: 0 };
  if (Array.isArray(content)) {
    if (!content.every((x) => typeof x === 'string')) throw invalid('content identifiers must be strings', 'INVALID_FIELD');
    return { anyIds: content, total: content.length };
  }
  if (!isObj(content)) throw invalid('content must map object-type names to arrays of identifiers', 'INVALID_FIELD');
  let total = 0;
  const byType = new Map();
  for (const [t, ids] of Object.entries(content)) {
    if (!Array.isArray(ids) || !ids.every((x) => typeof x === 'string'))
      throw invalid(`content.${t} must be an array of identifiers`, 'INVALID_FIELD');
    byType.set(t, ids);
    total += ids.length;
  }
  return { byType, total };
}

function install(ctx, pack) {
  const { user } = ctx;
  const body = ctx.hasBody() ? ctx.json() : {};
  if (!isObj(body)) throw bad('Install payload must be a JSON object', 'INVALID_PAYLOAD');
  const sel = parseContent(body.content);
  const resolution = body.resolution;
  if (resolution !== undefined && resolution !== 'overwrite' && resolution !== 'skip')
    throw invalid('resolution must be overwrite or skip', 'INVALID_FIELD');
  let enabled = body.enabled === undefined || body.enabled === null ? undefined : boolBody(body.enabled, 'enabled');
  if (enabled === undefined) enabled = bug('install_enabled_default');
  const backfill = body.backfill === undefined || body.backfill === null ? true : boolBody(body.backfill, 'backfill');
  const prefix = body.prefix === undefined || body.prefix === null ? '' : body.prefix;
  if (typeof prefix !== 'string') throw invalid('prefix must be a string', 'INVALID_FIELD');
  if (!canWriteGlobalResource(user)) throw forbidden(`User ${user.name} cannot install content packs`);

  const failure = [];
  let selected;
  if (sel.total === 0) selected = [...pack._objects];
  else if (sel.anyIds) {
    selected = [];
    for (const id of sel.anyIds) {
      const found = pack._objects.filter((o) => o.id === id);
      if (!found.length) failure.push({ content_type: '', id, title: '', type: 'OBJECT_NOT_FOUND' });
      for (const f of found) if (!selected.includes(f)) selected.push(f);
    }
  } else {
    selected = [];
    for (const [t, ids] of sel.byType) {
      for (const id of ids) {
        if (!PACK_OBJECT_TYPES.includes(t)) {
          failure.push({ content_type: t, id, title: '', type: 'UNKNOWN_OBJECT_TYPE' });
          continue;
        }
        const f = pack._objects.find((o) => o.object_type === t && o.id === id);
        if (!f) failure.push({ content_type: t, id, title: '', type: 'OBJECT_NOT_FOUND' });
        else if (!selected.includes(f)) selected.push(f);
      }
    }
  }

  const successByGroup = new Map();
  for (const o of selected) {
    const key = prefix + o.id;
    const title = prefix + o.title;
    const store = storeFor(o.object_type);
    const existing = store.get(key);
    const rec = db.installRecords.get(`${o.object_type}:${key}`);
    const fromThisPack = Boolean(existing && rec && rec.pack === pack.id);
    if (existing && !(resolution === 'overwrite' && fromThisPack)) {
      failure.push({ content_type: o.object_type, id: key, title, type: 'OBJECT_ALREADY_EXISTS' });
      continue;
    }
    const obj = buildInstalled(o, key, title, enabled, backfill, user, pack);
    store.set(key, obj);
    db.installRecords.set(`${o.object_type}:${key}`, { pack: pack.id, version: pack.version, prefix, origId: o.id, type: o.object_type });
    const g = GROUPS[o.object_type];
    if (!successByGroup.has(g)) successByGroup.set(g, []);
    successByGroup.get(g).push({ id: key, title });
  }

  const ssOut = { action_performed: enabled ? 'enable' : 'none', success: [], failure: [] };
  if (sel.total === 0) {
    for (const s of pack._saved_searches || []) {
      const have = db.savedSearches.get(s.name);
      if (have && have.pack !== pack.id) {
        ssOut.failure.push({ name: s.name, error_message: `A saved search named "${s.name}" already exists in app ${have.pack}` });
        continue;
      }
      if (!have) db.savedSearches.set(s.name, { name: s.name, disabled: s.disabled ? 1 : 0, pack: pack.id });
      ssOut.success.push(s.name);
    }
  }
  if (!db.cpInstalled.has(pack.id)) db.cpInstalled.set(pack.id, new Set());
  db.cpInstalled.get(pack.id).add(pack.version);

  const success = [...successByGroup].map(([g, arr]) => ({ [g]: arr }));
  return ctx.reply(200, { success, failure, saved_searches: ssOut });
}

function buildInstalled(o, key, title, enabled, backfill, user, pack) {
  const obj = clone(o.body || {});
  obj._key = key;
  obj.title = title;
  if (o.description !== undefined && obj.description === undefined) obj.description = o.description;
  obj.sec_grp = GLOBAL;
  const now = Date.now();
  obj.create_by = user.name;
  obj.create_source = 'content_pack';
  obj.create_time = isoOffset(now);
  obj.mod_time = modTime(now);
  obj.source_content_pack = pack.id;
  if (o.object_type === 'service') {
    obj.enabled = enabled ? 1 : 0;
    obj.backfill_enabled = false; // never the service health score
    // Backfill covers KPI data only, never the service health score KPI.
    obj.kpis = (obj.kpis || []).map((k) => {
      const health = k.type === 'service_health';
      return {
        ...k,
        service_id: key,
        service_title: title,
        backfill_enabled: health ? false : backfill,
        backfill_earliest_time: '-7d',
      };
    });
    if (!obj.entity_rules) obj.entity_rules = [];
  }
  if (o.object_type === 'correlation_search' || o.object_type === 'notable_aggregation_policy') {
    obj.disabled = enabled ? 0 : 1;
  }
  stamp(obj, o.object_type, user);
  if (!CORE_TYPES.includes(o.object_type)) {
    obj.create_time = nowEpoch();
    obj.mod_time = nowEpoch();
  }
  return obj;
}

function refresh(ctx) {
  const { user } = ctx;
  const body = ctx.hasBody() ? ctx.json() : {};
  if (!isObj(body)) throw bad('Payload must be a JSON object {apps_added, apps_removed}', 'INVALID_PAYLOAD');
  for (const f of ['apps_added', 'apps_removed']) {
    if (body[f] !== undefined && (!Array.isArray(body[f]) || !body[f].every((x) => typeof x === 'string'))) {
      throw invalid(`${f} must be an array of app names`, 'INVALID_FIELD');
    }
  }
  if (!canWriteGlobalResource(user)) throw forbidden(`User ${user.name} cannot refresh the content pack library`);
  const inConf = () => new Set([...db.cpLibrary.values()].map((p) => p.id));
  let added = body.apps_added;
  let removed = body.apps_removed;
  if (added === undefined && removed === undefined) {
    const conf = inConf();
    added = [...db.cpLocalApps.keys()].filter((a) => !conf.has(a));
    removed = [...conf].filter((a) => !db.cpLocalApps.has(a));
  }
  const out = { success: { apps_added: [], apps_removed: [] }, failed: { apps_added: [], apps_removed: [] } };
  for (const a of added || []) {
    const conf = inConf();
    if (!conf.has(a) && db.cpLocalApps.has(a)) {
      for (const p of db.cpLocalApps.get(a)) db.cpLibrary.set(`${p.id}@${p.version}`, p);
      out.success.apps_added.push(a);
    } else out.failed.apps_added.push(a);
  }
  for (const a of removed || []) {
    const conf = inConf();
    if (conf.has(a)) {
      for (const [k, p] of [...db.cpLibrary]) if (p.id === a) db.cpLibrary.delete(k);
      out.success.apps_removed.push(a);
    } else out.failed.apps_removed.push(a);
  }
  return ctx.reply(200, out);
}
