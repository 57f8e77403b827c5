// Content pack library (list, get, preview, install, refresh) and custom content pack authoring.

import { coreColl, SPECS } from './ops-core.js';
import { contentPackLibrary, FAILED_PACKS, UNREGISTERED_LOCAL_APPS, type LibraryPack, type PackObject } from './ops-data.js';
import {
  badRequest,
  boolValue,
  byMethod,
  contentPackError,
  intParam,
  isPlainObject,
  ok,
  optionalObjectBody,
  requireWrite,
  unknownPath,
  type Ctx,
  type Doc,
  type Reply,
} from './ops-http.js';
import { buildWrite, commit, countObjects, createObject, findReadable, updateObject, type KindSpec } from './ops-objects.js';
import {
  applyFilter,
  canRead,
  clone,
  compareValues,
  epochSeconds,
  filterQuirks,
  parseFields,
  plainDateTime,
  project,
  type Store,
} from './ops-store.js';
import { compileFilter } from './ops-filter.js';

// ---------- library state ----------

interface LibraryState {
  packs: LibraryPack[];
  installed: Map<string, string[]>;
  failed: Doc[];
  unregistered: string[];
}

export function libraryState(store: Store): LibraryState {
  let s = store.state.get('content-pack-library') as LibraryState | undefined;
  if (!s) {
    s = { packs: contentPackLibrary(), installed: new Map(), failed: clone(FAILED_PACKS), unregistered: [...UNREGISTERED_LOCAL_APPS] };
    store.state.set('content-pack-library', s);
  }
  return s;
}

function publicPack(s: LibraryState, p: LibraryPack): Doc {
  return {
    id: p.id,
    title: p.title,
    description: p.description,
    overview: p.overview,
    author: p.author,
    version: p.version,
    icon: p.icon,
    help_links: [...p.help_links],
    installed_versions: [...(s.installed.get(p.id) ?? [])],
    screenshots: clone(p.screenshots),
    main_screenshot: clone(p.main_screenshot),
  };
}

function findPack(ctx: Ctx, name: string, version: string): LibraryPack {
  const p = libraryState(ctx.store).packs.find((x) => x.id === name && x.version === version);
  if (!p) throw contentPackError(`Content pack "${name}" version "${version}" is not available in the content library`);
  return p;
}

function listPacks(ctx: Ctx): Reply {
  const s = libraryState(ctx.store);
  const sortKey = ctx.query.get('sort_key')?.trim() || 'title';
  const dirRaw = (ctx.query.get('sort_dir') ?? 'asc').trim().toLowerCase();
  if (!['asc', 'desc', '1', '0', ''].includes(dirRaw)) throw badRequest(`sort_dir must be asc or desc, got "${dirRaw}"`);
  const dir = dirRaw === 'desc' || dirRaw === '0' ? -1 : 1;
  const offset = intParam(ctx, 'offset') ?? 0;
  const count = intParam(ctx, 'count');
  let rows = s.packs.map((p) => publicPack(s, p)).sort((a, b) => dir * compareValues(a[sortKey], b[sortKey]) || compareValues(a.id, b.id));
  rows = rows.slice(offset);
  if (count !== undefined && count > 0) rows = rows.slice(0, count);
  if (ctx.bug('cp-list-array')) return ok(rows);
  return ok({ success: rows, failure: clone(s.failed) });
}

function isInstalled(ctx: Ctx, o: PackObject): boolean {
  return ctx.store.coll(collFor(o.type)).has(o.id);
}

function collFor(type: string): string {
  return type === 'correlation_search' ? 'ev:correlation_search' : coreColl(type);
}

function preview(ctx: Ctx, p: LibraryPack): Reply {
  const out: Doc = {};
  for (const o of p.objects) {
    const entry: Doc = ctx.profile.previewLegacyEntries
      ? { id: o.id, title: o.title, description: o.description, installed: isInstalled(ctx, o) }
      : {
          id: o.id,
          title: o.title,
          description: o.description,
          entitlement_status: true,
          installed: isInstalled(ctx, o),
          has_dependency: (o.dependsOn?.length ?? 0) > 0,
        };
    ((out[o.group] ??= []) as Doc[]).push(entry);
  }
  out.saved_searches = { has_saved_searches: p.savedSearches.length > 0, has_consistent_status: true };
  return ok(out);
}

/** Object ids selected by the `content` install parameter; undefined means everything. */
function selected(content: unknown): Set<string> | undefined {
  if (content === undefined || content === null) return undefined;
  if (Array.isArray(content)) return new Set(content.map(String));
  if (!isPlainObject(content)) throw contentPackError('content must map object types to arrays of object identifiers');
  const ids = new Set<string>();
  for (const [type, list] of Object.entries(content)) {
    if (!Array.isArray(list)) throw contentPackError(`content.${type} must be an array of object identifiers`);
    for (const id of list) ids.add(String(id));
  }
  return ids.size ? ids : undefined;
}

function install(ctx: Ctx, p: LibraryPack): Reply {
  requireWrite(ctx);
  const s = libraryState(ctx.store);
  const body = optionalObjectBody(ctx);
  const resolution = body.resolution === undefined || body.resolution === null || body.resolution === '' ? 'skip' : body.resolution;
  if (resolution !== 'skip' && resolution !== 'overwrite')
    throw contentPackError(`resolution must be "skip" or "overwrite", got "${String(resolution)}"`);
  const enabled = boolValue(body.enabled, 'enabled', false) || ctx.bug('cp-enabled-ignored');
  const backfill = boolValue(body.backfill, 'backfill', true);
  if (body.prefix !== undefined && typeof body.prefix !== 'string') throw contentPackError('prefix must be a string');
  const prefix = ctx.bug('cp-prefix-ignored') ? '' : String(body.prefix ?? '');
  const wanted = ctx.bug('cp-install-ignores-content') ? undefined : selected(body.content);

  const success = new Map<string, Doc[]>();
  const failure: Doc[] = [];
  const known = new Set(p.objects.map((o) => o.id));
  for (const id of wanted ?? []) {
    if (!known.has(id)) failure.push({ content_type: 'unknown', id, title: '', type: 'OBJECT_NOT_FOUND' });
  }
  for (const o of p.objects) {
    if (wanted && !wanted.has(o.id)) continue;
    const title = prefix + o.title;
    const exists = isInstalled(ctx, o);
    if (exists && resolution === 'skip') {
      if (!ctx.bug('cp-skip-no-failure')) failure.push({ content_type: o.group, id: o.id, title, type: 'OBJECT_ALREADY_EXISTS' });
      continue;
    }
    installObject(ctx, p, o, title, enabled, backfill);
    const list = success.get(o.group) ?? [];
    list.push({ id: o.id, title });
    success.set(o.group, list);
  }
  const versions = s.installed.get(p.id) ?? [];
  if (!versions.includes(p.version)) versions.push(p.version);
  s.installed.set(p.id, versions);

  const answer: Doc = {
    success: [...success].map(([group, items]) => ({ [group]: items })),
    failure,
  };
  if (ctx.profile.installSavedSearches) {
    answer.saved_searches = enabled
      ? { action_performed: 'enable', success: [...p.savedSearches], failure: [] }
      : { action_performed: 'none', success: [], failure: [] };
  }
  return ok(answer);
}

function installObject(ctx: Ctx, p: LibraryPack, o: PackObject, title: string, enabled: boolean, backfill: boolean): void {
  const body: Doc = { ...clone(o.doc), _key: o.id, title, source_content_pack: p.id, source_content_pack_version: p.version };
  if (o.type === 'correlation_search') {
    const now = epochSeconds();
    ctx.store.coll(collFor(o.type)).put({
      ...body,
      object_type: 'correlation_search',
      name: title,
      disabled: enabled ? 0 : 1,
      search: `index=ops_summary source="${o.id}"`,
      create_time: now,
      mod_time: now,
      _user: 'nobody',
      _owner: 'nobody',
    });
    return;
  }
  if (o.type === 'service') {
    body.enabled = enabled ? 1 : 0;
    const kbs = p.objects.find((x) => x.type === 'kpi_base_search');
    body.kpis = kbs
      ? [
          {
            _key: `${o.id}-kpi`,
            title: `${o.title} Count`,
            search_type: 'shared_base',
            base_search_id: kbs.id,
            base_search_metric: `${kbs.id}-metric`,
            backfill_enabled: backfill,
            threshold_field: 'count',
            urgency: '5',
          },
        ]
      : [];
  }
  const spec = SPECS.get(o.type)!;
  const prev = ctx.store.coll(spec.coll).get(o.id);
  commit(ctx, spec, [buildWrite(ctx, spec, o.id, body, prev, prev ? 'full' : 'create')]);
}

function refresh(ctx: Ctx): Reply {
  requireWrite(ctx);
  const s = libraryState(ctx.store);
  const body = optionalObjectBody(ctx);
  const result = {
    success: { apps_added: [] as string[], apps_removed: [] as string[] },
    failed: { apps_added: [] as string[], apps_removed: [] as string[] },
  };
  const toAdd = [...s.unregistered, ...(Array.isArray(body.apps_added) ? body.apps_added.map(String) : [])];
  s.unregistered = [];
  for (const app of toAdd) {
    if (!/^DA-OPS-CP-[A-Za-z0-9_-]+$/.test(app) || s.packs.some((x) => x.id === app)) {
      result.failed.apps_added.push(app);
      continue;
    }
    s.packs.push({
      id: app,
      title: app.replace(/^DA-OPS-CP-/, '').replace(/[-_]/g, ' '),
      description: `Locally installed content pack ${app}`,
      overview: '',
      author: 'Local',
      version: '1.0.0',
      icon: `/static/app/${app}/icon.png`,
      help_links: [],
      screenshots: [],
      main_screenshot: { path: '', thumb: '' },
      objects: [],
      savedSearches: [],
    });
    result.success.apps_added.push(app);
  }
  for (const app of Array.isArray(body.apps_removed) ? body.apps_removed.map(String) : []) {
    const i = s.packs.findIndex((x) => x.id === app);
    if (i < 0) {
      result.failed.apps_removed.push(app);
      continue;
    }
    s.packs.splice(i, 1);
    s.installed.delete(app);
    result.success.apps_removed.push(app);
  }
  if (ctx.bug('cp-refresh-shape')) {
    return ok({ apps_added: result.success.apps_added, apps_removed: result.success.apps_removed });
  }
  return ok(result);
}

export function handleLibrary(ctx: Ctx, seg: string[]): Reply {
  if (seg.length === 0) return byMethod(ctx, { GET: () => listPacks(ctx) });
  if (seg.length === 1 && seg[0] === 'refresh') return byMethod(ctx, { POST: () => refresh(ctx) });
  if (seg.length === 2) return byMethod(ctx, { GET: () => ok(publicPack(libraryState(ctx.store), findPack(ctx, seg[0], seg[1]))) });
  if (seg.length === 3 && seg[2] === 'preview') return byMethod(ctx, { GET: () => preview(ctx, findPack(ctx, seg[0], seg[1])) });
  if (seg.length === 3 && seg[2] === 'install') return byMethod(ctx, { POST: () => install(ctx, findPack(ctx, seg[0], seg[1])) });
  throw unknownPath();
}

// ---------- authoring ----------

const STATUSES = ['Draft', 'Queued', 'Generating', 'Generated', 'Failed', 'Incomplete'];
const PLATFORM_KINDS = ['dashboards', 'lookups', 'macros', 'props', 'savedsearches', 'transforms'];
const AUTHOR_COLL = 'itoa:content_pack_authorship';

function idMap(v: unknown, what: string): Record<string, string[]> {
  if (v === undefined || v === null) return {};
  if (!isPlainObject(v)) throw badRequest(`${what} must be an object mapping names to arrays of identifiers`);
  const out: Record<string, string[]> = {};
  for (const [k, ids] of Object.entries(v)) {
    if (Array.isArray(ids)) out[k] = ids.map(String);
    else if (isPlainObject(ids)) out[k] = Object.keys(ids);
    else throw badRequest(`${what}.${k} must be an array of identifiers`);
  }
  return out;
}

const authorSpec: KindSpec = {
  type: 'content_pack',
  coll: AUTHOR_COLL,
  required: ['title'],
  prepare(_ctx, doc) {
    for (const f of ['description', 'overview']) if (doc[f] === undefined) doc[f] = '';
    if (typeof doc.cp_version !== 'string' || doc.cp_version === '') doc.cp_version = '1.0.0';
    if (doc.status === undefined) doc.status = 'Draft';
    if (typeof doc.status !== 'string' || !STATUSES.includes(doc.status)) throw badRequest(`status must be one of ${STATUSES.join(', ')}`);
    const md = isPlainObject(doc.metadata) ? doc.metadata : {};
    doc.metadata = {
      ...md,
      icon: typeof md.icon === 'string' ? md.icon : null,
      main_screenshot: isPlainObject(md.main_screenshot) ? md.main_screenshot : {},
      screenshots: Array.isArray(md.screenshots) ? md.screenshots : [],
    };
    doc.ops_objects = idMap(doc.ops_objects, 'ops_objects');
    const platform = idMap(doc.platform_objects, 'platform_objects');
    for (const k of PLATFORM_KINDS) platform[k] ??= [];
    doc.platform_objects = platform;
    const uso = isPlainObject(doc.user_selected_objects) ? doc.user_selected_objects : {};
    doc.user_selected_objects = {
      ops_objects: idMap(uso.ops_objects, 'user_selected_objects.ops_objects'),
      platform_objects: idMap(uso.platform_objects, 'user_selected_objects.platform_objects'),
    };
    doc.mod_time = plainDateTime();
  },
};

function counts(m: unknown): Doc {
  const out: Doc = {};
  for (const [k, v] of Object.entries((m as Record<string, string[]>) ?? {})) out[k] = v.length;
  return out;
}

/** Single-read form: ops_objects become {type: {id: title}}. */
function singleRead(ctx: Ctx, doc: Doc): Doc {
  const out = clone(doc);
  const resolved: Doc = {};
  for (const [type, ids] of Object.entries((doc.ops_objects as Record<string, string[]>) ?? {})) {
    const entries: Doc = {};
    for (const id of ids) {
      const found = ctx.store.coll(collFor(type)).get(id)?.doc;
      entries[id] = String(found?.title ?? id);
    }
    resolved[type] = entries;
  }
  out.ops_objects = resolved;
  return out;
}

function listAuthored(ctx: Ctx): Reply {
  const fields = parseFields(ctx.query.getAll('fields').join(',') || null);
  const status = ctx.query.get('status');
  if (status && !STATUSES.includes(status)) throw badRequest(`status must be one of ${STATUSES.join(', ')}`);
  const search = ctx.query.get('search') ?? '';
  const sortKey = ctx.query.get('sort_key')?.trim() || 'mod_timestamp';
  const dirRaw = (ctx.query.get('sort_dir') ?? (ctx.query.get('sort_key') ? 'asc' : 'des')).trim().toLowerCase();
  if (!['asc', 'des', 'desc', '1', '0'].includes(dirRaw)) throw badRequest(`sort_dir must be asc or des, got "${dirRaw}"`);
  const dir = dirRaw === 'asc' || dirRaw === '1' ? 1 : -1;
  const offset = intParam(ctx, 'offset') ?? 0;
  const count = intParam(ctx, 'count');
  let recs = ctx.store
    .coll(AUTHOR_COLL)
    .all()
    .filter((r) => canRead(ctx.user, r.doc));
  recs = applyFilter(recs, compileFilter(ctx.query.get('filter'), filterQuirks(ctx)));
  if (status) recs = recs.filter((r) => r.doc.status === status);
  if (search && !ctx.bug('authoring-search-ignored')) {
    const needle = search.toLowerCase();
    recs = recs.filter((r) =>
      String(r.doc.title ?? '')
        .toLowerCase()
        .includes(needle),
    );
  }
  recs.sort((a, b) => dir * compareValues(a.doc[sortKey], b.doc[sortKey]) || b.seq - a.seq);
  recs = recs.slice(offset);
  if (count !== undefined && count > 0) recs = recs.slice(0, count);
  const extras = (fields === undefined || ctx.bug('authoring-extras-with-fields')) && !ctx.bug('authoring-extras-missing');
  return ok(
    recs.map((r) => {
      const d = project(clone(r.doc), fields, ctx);
      if (extras) {
        d.icon = (r.doc.metadata as Doc | undefined)?.icon ?? null;
        d.ops_objects_counts = counts(r.doc.ops_objects);
        d.platform_objects_counts = counts(r.doc.platform_objects);
      }
      return d;
    }),
  );
}

function deleteAuthored(ctx: Ctx, key: string): Reply {
  requireWrite(ctx);
  const rec = findReadable(ctx, authorSpec, key);
  ctx.store.coll(AUTHOR_COLL).delete(key);
  return ok(singleRead(ctx, rec.doc));
}

export function handleAuthoring(ctx: Ctx, seg: string[]): Reply {
  if (seg.length === 0) {
    return byMethod(ctx, { GET: () => listAuthored(ctx), POST: () => createObject(ctx, authorSpec) });
  }
  if (seg.length === 1 && seg[0] === 'count') return byMethod(ctx, { GET: () => countObjects(ctx, authorSpec) });
  if (seg.length === 1) {
    const key = seg[0];
    return byMethod(ctx, {
      GET: () => ok(singleRead(ctx, findReadable(ctx, authorSpec, key).doc)),
      POST: () => updateObject(ctx, authorSpec, key),
      DELETE: () => deleteAuthored(ctx, key),
    });
  }
  throw unknownPath();
}

/** A sample authored pack, so lists are not empty on a fresh server. */
export function seedAuthoring(ctx: Ctx, serviceKeys: string[], baseSearchKeys: string[]): void {
  const doc = {
    title: 'Payments Monitoring Pack',
    description: 'Services and searches of the payments platform',
    cp_version: '0.3.0',
    status: 'Draft',
    ops_objects: { service: serviceKeys, kpi_base_search: baseSearchKeys },
    platform_objects: { dashboards: ['payments_overview'], savedsearches: ['Payments - Failed Transactions'] },
    metadata: { icon: null, main_screenshot: {}, screenshots: [] },
  };
  commit(ctx, authorSpec, [buildWrite(ctx, authorSpec, ctx.store.newKey(), doc, undefined, 'create')]);
}
