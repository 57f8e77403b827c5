// Content pack library: list, read, preview, install, refresh.
import { bad, notFound, forbidden, clone, isObj, isStr, isStrArray, qp, intParam, bodyBool, GLOBAL_TEAM } from './util.mjs';
import { coll, canWriteTeam, requireWriter } from './store.mjs';
import { createObject, replaceObject, methodNotAllowed } from './objects.mjs';
import { sortList } from './query.mjs';
import { KINDS } from './core.mjs';
import { EVENT_KINDS } from './events.mjs';

// pack id -> pack (underscore fields are internal)
export const packs = new Map();
export const loadFailures = [];
// content packs present on disk but not (yet) in ops_content_packs.conf
export const localApps = new Map();

// preview group -> stored object type
const GROUP_TYPES = {
  services: 'service',
  service_templates: 'base_service_template',
  kpi_base_searches: 'kpi_base_search',
  kpi_threshold_templates: 'kpi_threshold_template',
  glass_tables: 'glass_table',
  entity_types: 'entity_type',
  service_analyzers: 'home_view',
  deep_dives: 'deep_dive',
  correlation_searches: 'correlation_search',
  aggregation_policies: 'notable_aggregation_policy',
};
const kindFor = (type) => KINDS[type] || EVENT_KINDS[type];

export function publicPack(p) {
  const out = {};
  for (const [k, v] of Object.entries(p)) if (!k.startsWith('_')) out[k] = clone(v);
  return out;
}

function findPack(name, version) {
  const p = packs.get(name);
  if (!p || p.version !== version) throw notFound(`Content pack "${name}" version "${version}" does not exist`);
  return p;
}

function listPacks(ctx) {
  const count = intParam(ctx.query, 'count');
  const offset = intParam(ctx.query, 'offset') || 0;
  const dir = qp(ctx.query, 'sort_dir');
  const key = qp(ctx.query, 'sort_key');
  let asc;
  if (dir === undefined || dir === '') asc = !key;
  else if (dir === 'asc') asc = true;
  else if (dir === 'desc') asc = false;
  else throw bad(`Invalid value for parameter "sort_dir": expected "asc" or "desc", got "${dir}"`);
  let rows = sortList(
    [...packs.values()].map(publicPack).map((p) => ({ ...p, _key: p.id })),
    key || 'title',
    asc,
  );
  rows = rows.slice(offset);
  if (count) rows = rows.slice(0, count);
  return { success: rows.map(({ _key, ...p }) => (void _key, p)), failure: clone(loadFailures) };
}

function installedKey(item) {
  return item.id;
}

function preview(p) {
  const out = {};
  for (const [group, items] of Object.entries(p._contents)) {
    const type = GROUP_TYPES[group];
    out[group] = sortList(
      items.map((it) => ({ ...it, _key: it.id })),
      'title',
      true,
    ).map((it) => {
      const installed = type ? coll(type).has(installedKey(it)) : false;
      if (p._older_form) return { id: it.id, title: it.title, description: it.description || '', installed };
      return {
        id: it.id,
        title: it.title,
        description: it.description || '',
        entitlement_status: it.entitlement_status !== false,
        installed,
        has_dependency: Boolean(it.has_dependency),
      };
    });
  }
  const ss = p._saved_searches || [];
  out.saved_searches = { has_saved_searches: ss.length > 0, has_consistent_status: ss.every((s) => s.enabled === ss[0].enabled) };
  return out;
}

function install(ctx, p, body) {
  requireWriter(ctx.user);
  if (!canWriteTeam(ctx.user, GLOBAL_TEAM)) throw forbidden('Installing a content pack requires write access to the Global team');
  const b = body === undefined || body === null ? {} : body;
  if (!isObj(b)) throw bad('The install payload must be a JSON object');
  let content = null;
  if (b.content !== undefined && b.content !== null) {
    if (!isObj(b.content)) throw bad('"content" must be an object mapping object-type name to an array of identifiers');
    for (const [k, v] of Object.entries(b.content)) if (!isStrArray(v)) throw bad(`content.${k} must be an array of identifiers`);
    content = b.content;
  }
  if (b.resolution !== undefined && b.resolution !== null && !['overwrite', 'skip'].includes(b.resolution))
    throw bad('"resolution" must be "overwrite" or "skip"');
  const enabled = b.enabled === undefined || b.enabled === null ? false : bodyBool(b.enabled, 'enabled');
  const backfill = b.backfill === undefined || b.backfill === null ? true : bodyBool(b.backfill, 'backfill');
  if (b.prefix !== undefined && b.prefix !== null && !isStr(b.prefix)) throw bad('"prefix" must be a string');
  const prefix = b.prefix || '';

  const success = [];
  const failure = [];
  // which items are selected
  const wanted = new Map(); // group -> Set(ids) | null(all)
  if (!content) for (const g of Object.keys(p._contents)) wanted.set(g, null);
  else {
    for (const [name, ids] of Object.entries(content)) {
      const group = Object.keys(p._contents).find((g) => g === name || GROUP_TYPES[g] === name);
      if (!group) {
        if (name === 'saved_searches') continue;
        for (const id of ids) failure.push({ content_type: name, id, title: '', type: 'OBJECT_NOT_IN_CONTENT_PACK' });
        continue;
      }
      const set = wanted.get(group) || new Set();
      for (const id of ids) {
        if (p._contents[group].some((it) => it.id === id)) set.add(id);
        else failure.push({ content_type: group, id, title: '', type: 'OBJECT_NOT_IN_CONTENT_PACK' });
      }
      wanted.set(group, set);
    }
  }
  for (const [group, ids] of wanted) {
    const type = GROUP_TYPES[group];
    const kind = kindFor(type);
    const done = [];
    for (const it of sortList(
      p._contents[group].map((x) => ({ ...x, _key: x.id })),
      'title',
      true,
    )) {
      if (ids && !ids.has(it.id)) continue;
      const key = installedKey(it);
      const title = prefix + it.title;
      const exists = coll(type).has(key);
      if (exists && b.resolution === 'skip') continue;
      if (exists && b.resolution !== 'overwrite') {
        failure.push({ content_type: group, id: it.id, title: it.title, type: 'OBJECT_ALREADY_EXISTS' });
        continue;
      }
      const obj = {
        ...clone(it.object || {}),
        _key: key,
        title,
        description: it.description || '',
        sec_grp: GLOBAL_TEAM,
        source_content_pack: p.id,
      };
      if (type === 'service') {
        obj.enabled = enabled ? 1 : 0;
        for (const k of obj.kpis || []) k.backfill_enabled = backfill;
        obj.backfill_enabled = backfill;
      }
      if (type === 'correlation_search' || type === 'notable_aggregation_policy') obj.disabled = enabled ? 0 : 1;
      if (exists) replaceObject(kind, ctx, key, obj, false);
      else createObject(kind, ctx, obj, { upsert: true });
      done.push({ id: key, title });
    }
    if (done.length) success.push({ [group]: done });
  }
  if (!p.installed_versions.includes(p.version) && success.length) p.installed_versions.push(p.version);
  const res = { success, failure };
  const ss = p._saved_searches || [];
  const wantSS = !content || content.saved_searches !== undefined;
  if (ss.length && wantSS) {
    const pick = content && Array.isArray(content.saved_searches) ? ss.filter((s) => content.saved_searches.includes(s.name)) : ss;
    res.saved_searches = {
      action_performed: 'enable',
      success: pick.filter((s) => !s.error).map((s) => s.name),
      failure: pick.filter((s) => s.error).map((s) => ({ name: s.name, error_message: s.error })),
    };
  }
  return res;
}

function refresh(ctx, body) {
  requireWriter(ctx.user);
  if (!canWriteTeam(ctx.user, GLOBAL_TEAM)) throw forbidden('Refreshing the content pack library requires write access to the Global team');
  const b = body === undefined || body === null ? null : body;
  if (b !== null && !isObj(b)) throw bad('The refresh payload must be {"apps_added": [string], "apps_removed": [string]}');
  let added;
  let removed;
  if (b === null) {
    added = [...localApps.keys()];
    removed = [];
  } else {
    added = b.apps_added === undefined ? [] : b.apps_added;
    removed = b.apps_removed === undefined ? [] : b.apps_removed;
    if (!isStrArray(added) || !isStrArray(removed)) throw bad('"apps_added" and "apps_removed" must be arrays of strings');
  }
  const res = { success: { apps_added: [], apps_removed: [] }, failed: { apps_added: [], apps_removed: [] } };
  for (const name of added) {
    if (localApps.has(name) && !packs.has(name)) {
      packs.set(name, localApps.get(name));
      localApps.delete(name);
      res.success.apps_added.push(name);
    } else res.failed.apps_added.push(name);
  }
  for (const name of removed) {
    if (packs.has(name)) {
      localApps.set(name, packs.get(name));
      packs.delete(name);
      res.success.apps_removed.push(name);
    } else res.failed.apps_removed.push(name);
  }
  return res;
}

export async function handleLibrary(ctx, segs) {
  const m = ctx.method;
  if (segs.length === 0) {
    if (m !== 'GET') throw methodNotAllowed(['GET']);
    return { body: listPacks(ctx) };
  }
  if (segs.length === 1 && segs[0] === 'refresh') {
    if (m !== 'POST') throw methodNotAllowed(['POST']);
    requireWriter(ctx.user);
    return { body: refresh(ctx, await ctx.json(false)) };
  }
  if (segs.length === 2) {
    if (m !== 'GET') throw methodNotAllowed(['GET']);
    return { body: publicPack(findPack(segs[0], segs[1])) };
  }
  if (segs.length === 3 && segs[2] === 'preview') {
    if (m !== 'GET') throw methodNotAllowed(['GET']);
    return { body: preview(findPack(segs[0], segs[1])) };
  }
  if (segs.length === 3 && segs[2] === 'install') {
    if (m !== 'POST') throw methodNotAllowed(['POST']);
    requireWriter(ctx.user);
    const p = findPack(segs[0], segs[1]);
    return { body: install(ctx, p, await ctx.json(false)) };
  }
  throw notFound('Unknown content pack path');
}
