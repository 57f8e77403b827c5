// itoa_interface/content_pack: the content pack library (list, read, preview, install, refresh).
import { GLOBAL_TEAM, HttpError, bad, notFound, forbidden, isObj, clone, truthyFlag } from './util.mjs';
import * as db from './store.mjs';
import { canReadTeam, canWriteTeam, requireWriter } from './auth.mjs';
import { lastParam, sortRows } from './query.mjs';
import { createOrUpdate } from './objects.mjs';

const mna = (allow) => new HttpError(405, `Method not allowed; use ${allow.join(', ')}`, { Allow: allow.join(', ') });

export const GROUPS = {
  services: 'core:service',
  kpi_base_searches: 'core:kpi_base_search',
  kpi_threshold_templates: 'core:kpi_threshold_template',
  service_templates: 'core:base_service_template',
  entity_types: 'core:entity_type',
  glass_tables: 'core:glass_table',
  service_analyzers: 'core:home_view',
  deep_dives: 'core:deep_dive',
  correlation_searches: 'event:correlation_search',
  aggregation_policies: 'event:notable_aggregation_policy',
};
const TYPE_TO_GROUP = Object.fromEntries(Object.entries(GROUPS).map(([g, s]) => [s.split(':')[1], g]));

const library = []; // packs in catalogue order
const failures = [];
const installedSaved = new Set(); // "<pack>/<saved search>"

export function addLibraryPack(p) {
  library.push(p);
}
export function addLibraryFailure(f) {
  failures.push(f);
}

const PUBLIC = [
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
const publicView = (p) => Object.fromEntries(PUBLIC.map((k) => [k, clone(p[k])]));

function requireLibraryRead(ctx) {
  return canReadTeam(ctx.user, GLOBAL_TEAM);
}
function findPack(ctx, name, version) {
  const p = requireLibraryRead(ctx) ? library.find((x) => x.id === name) : undefined;
  if (!p) throw notFound(`Content pack ${name} not found`);
  if (p.version !== version) throw notFound(`Content pack ${name} has no version ${version} (available: ${p.version})`);
  return p;
}

function listPacks(ctx, q) {
  const rawDir = lastParam(q, 'sort_dir');
  let ascending = false;
  if (rawDir !== undefined && rawDir !== '') {
    if (rawDir === 'asc') ascending = true;
    else if (rawDir === 'desc') ascending = false;
    else throw bad(`sort_dir must be "asc" or "desc", got "${rawDir}"`);
  }
  const num = (name) => {
    const raw = lastParam(q, name);
    if (raw === undefined || raw === '') return undefined;
    if (!/^\d+$/.test(raw.trim())) throw bad(`${name} must be a non-negative integer`);
    return Number(raw);
  };
  const count = num('count');
  const offset = num('offset') || 0;
  let rows = requireLibraryRead(ctx) ? library.slice().reverse().map(publicView) : [];
  const sortKey = lastParam(q, 'sort_key');
  if (sortKey) rows = sortRows(rows, sortKey, ascending);
  else if (ascending) rows.reverse();
  rows = rows.slice(offset);
  if (count !== undefined) rows = rows.slice(0, count);
  return { success: rows, failure: requireLibraryRead(ctx) ? clone(failures) : [] };
}

function preview(_ctx, p) {
  const out = {};
  for (const [group, objs] of Object.entries(p._objects)) {
    out[group] = objs.map((o) => {
      const installed = !!db.get(GROUPS[group], o.id);
      if (p._old_preview) return { id: o.id, title: o.title, description: o.description || '', installed };
      return {
        id: o.id,
        title: o.title,
        description: o.description || '',
        entitlement_status: true,
        installed,
        has_dependency: Array.isArray(o.depends_on) && o.depends_on.length > 0,
      };
    });
  }
  if (!p._old_preview) {
    const ss = p._saved_searches || [];
    const states = ss.map((n) => installedSaved.has(`${p.id}/${n}`));
    out.saved_searches = { has_saved_searches: ss.length > 0, has_consistent_status: states.every((s) => s === states[0]) };
  }
  return out;
}

const keyPrefix = (prefix) => prefix.replace(/[^A-Za-z0-9_\-.]/g, '_');

function install(ctx, p, body) {
  requireWriter(ctx.user);
  if (!canWriteTeam(ctx.user, GLOBAL_TEAM)) throw forbidden('Installing a content pack requires write access to the Global team');
  const opts = body === undefined ? {} : body;
  if (!isObj(opts)) throw bad('Install parameters must be a JSON object');
  const { content, resolution, prefix = '' } = opts;
  if (content !== undefined && content !== null) {
    if (!isObj(content)) throw bad('content must map object-type names to arrays of identifiers');
    for (const [k, v] of Object.entries(content)) {
      if (!Array.isArray(v) || v.some((x) => typeof x !== 'string')) throw bad(`content.${k} must be an array of identifiers`);
    }
  }
  if (resolution !== undefined && resolution !== null && resolution !== 'overwrite' && resolution !== 'skip') {
    throw bad('resolution must be "overwrite" or "skip"');
  }
  if (typeof prefix !== 'string') throw bad('prefix must be a string');
  const enabled = opts.enabled === undefined || opts.enabled === null ? false : truthyFlag(opts.enabled);
  const backfill = opts.backfill === undefined || opts.backfill === null ? true : truthyFlag(opts.backfill);

  // selection: when no identifiers at all are given, everything is installed
  const wanted = new Map(); // group -> Set(ids)
  let total = 0;
  if (isObj(content)) {
    for (const [k, ids] of Object.entries(content)) {
      const group = Object.hasOwn(GROUPS, k) ? k : Object.hasOwn(TYPE_TO_GROUP, k) ? TYPE_TO_GROUP[k] : k;
      if (!wanted.has(group)) wanted.set(group, new Set());
      for (const id of ids) {
        wanted.get(group).add(id);
        total++;
      }
    }
  }
  const selectAll = total === 0;
  const success = [];
  const failure = [];
  for (const [group, objs] of Object.entries(p._objects)) {
    const installedHere = [];
    for (const o of objs) {
      if (!selectAll && !wanted.get(group)?.has(o.id)) continue;
      const scope = GROUPS[group];
      const key = keyPrefix(prefix) + o.id;
      const title = prefix + o.title;
      if (db.get(scope, key) && resolution !== 'overwrite') {
        failure.push({ content_type: group, id: o.id, title, type: 'OBJECT_ALREADY_EXISTS' });
        continue;
      }
      const b = clone(o.body || {});
      b._key = key;
      b.title = title;
      b.description = o.description || '';
      b.sec_grp = GLOBAL_TEAM;
      b.source_itsi_da = p.id;
      if (scope === 'core:service') {
        b.enabled = enabled ? 1 : 0;
        b.kpis = (b.kpis || []).map((k) => ({ ...k, backfill_enabled: backfill, ...(backfill ? { backfill_earliest_time: '-7d' } : {}) }));
      }
      if (scope === 'event:correlation_search' || scope === 'event:notable_aggregation_policy') b.disabled = enabled ? 0 : 1;
      try {
        createOrUpdate(ctx, scope, b);
        installedHere.push({ id: o.id, title });
      } catch (e) {
        if (!(e instanceof HttpError)) throw e;
        failure.push({ content_type: group, id: o.id, title, type: e.status === 409 ? 'OBJECT_TITLE_CONFLICT' : 'OBJECT_INVALID' });
      }
    }
    if (installedHere.length) success.push({ [group]: installedHere });
  }
  for (const [group, ids] of wanted) {
    for (const id of ids) {
      if (!(Object.hasOwn(p._objects, group) ? p._objects[group] : []).some((o) => o.id === id))
        failure.push({ content_type: group, id, title: '', type: 'OBJECT_NOT_FOUND' });
    }
  }
  const result = { success, failure };
  if (!p._old_preview && (p._saved_searches || []).length) {
    const ss = { action_performed: 'enable', success: [], failure: [] };
    for (const n of p._saved_searches) {
      const id = `${p.id}/${n}`;
      if (installedSaved.has(id) && resolution !== 'overwrite') ss.failure.push({ name: n, error_message: 'Saved search already exists' });
      else {
        installedSaved.add(id);
        ss.success.push(n);
      }
    }
    result.saved_searches = ss;
  }
  if (success.length && !p.installed_versions.includes(p.version)) p.installed_versions.push(p.version);
  return result;
}

function refresh(ctx, body) {
  requireWriter(ctx.user);
  if (!canWriteTeam(ctx.user, GLOBAL_TEAM)) throw forbidden('Refreshing the content pack library requires write access to the Global team');
  const b = body === undefined ? {} : body;
  if (!isObj(b)) throw bad('Payload must be {apps_added: [...], apps_removed: [...]}');
  const added = b.apps_added === undefined ? [] : b.apps_added;
  const removed = b.apps_removed === undefined ? [] : b.apps_removed;
  if (!Array.isArray(added) || !Array.isArray(removed)) throw bad('apps_added and apps_removed must be arrays');
  const out = { success: { apps_added: [], apps_removed: [] }, failed: { apps_added: [], apps_removed: [] } };
  for (const a of added) {
    const name = typeof a === 'string' ? a : JSON.stringify(a);
    if (typeof a !== 'string' || !a || library.some((p) => p.id === a)) {
      out.failed.apps_added.push(name);
      continue;
    }
    library.push({
      id: a,
      title: a,
      description: '',
      overview: '',
      author: 'local',
      version: '1.0.0',
      icon: '',
      help_links: [],
      installed_versions: [],
      screenshots: [],
      main_screenshot: { path: '', thumb: '' },
      _objects: {},
      _saved_searches: [],
    });
    out.success.apps_added.push(a);
  }
  for (const r of removed) {
    const name = typeof r === 'string' ? r : JSON.stringify(r);
    const i = library.findIndex((p) => p.id === r);
    if (i < 0) {
      out.failed.apps_removed.push(name);
      continue;
    }
    library.splice(i, 1);
    out.success.apps_removed.push(name);
  }
  return out;
}

export function handleContentPackLibrary(ctx, method, rest, q) {
  if (rest.length === 0 || (rest.length === 1 && rest[0] === '')) {
    if (method !== 'GET') throw mna(['GET']);
    return { status: 200, json: listPacks(ctx, q) };
  }
  if (rest.length === 1 && rest[0] === 'refresh') {
    if (method !== 'POST') throw mna(['POST']);
    return { status: 200, json: refresh(ctx, ctx.json(true)) };
  }
  if (rest.length === 2) {
    if (method !== 'GET') throw mna(['GET']);
    return { status: 200, json: publicView(findPack(ctx, rest[0], rest[1])) };
  }
  if (rest.length === 3 && rest[2] === 'preview') {
    if (method !== 'GET') throw mna(['GET']);
    return { status: 200, json: preview(ctx, findPack(ctx, rest[0], rest[1])) };
  }
  if (rest.length === 3 && rest[2] === 'install') {
    if (method !== 'POST') throw mna(['POST']);
    const body = ctx.json(true);
    return { status: 200, json: install(ctx, findPack(ctx, rest[0], rest[1]), body) };
  }
  throw notFound('Unknown content pack path');
}
