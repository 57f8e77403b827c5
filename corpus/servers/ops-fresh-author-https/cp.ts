// Content pack library (install, preview, refresh) and custom content pack authoring.
import {
  bug,
  fail,
  canRead,
  needWrite,
  checkGroups,
  applyFilter,
  sortItems,
  project,
  fieldsParam,
  intParam,
  boolParam,
  newKey,
  isoOff,
  modTime,
  Store,
  GLOBAL,
  VERSION,
  type User,
} from './store.js';
import { CORE, EM, LIBRARY, INSTALLS, AUTHORING, LIB_FAILURES, GROUP_TYPE, common } from './seed.js';
import { finalize, type Res } from './core.js';

const SAVED = new Store(); // platform saved searches installed from packs
const ok = (b: any, s = 200): Res => ({ s, b });
const isObj = (b: any) => b !== null && typeof b === 'object' && !Array.isArray(b);
const mna = (m: string): never => fail(405, 'method_not_allowed', `method ${m} is not supported on this path`);
const PACK_FIELDS = [
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
const packOut = (p: any) => Object.fromEntries(PACK_FIELDS.map((f) => [f, p[f]]));

function storeFor(type: string): Store | null {
  if (type === 'saved_search') return SAVED;
  return CORE[type] || EM[type] || null;
}
function getPack(id: string, version: string): any {
  const p = LIBRARY.get(id);
  if (!p || p.version !== version) fail(404, 'not_found', `content pack '${id}' version '${version}' was not found`);
  return p;
}
function isInstalled(packId: string, objId: string, type: string): boolean {
  const rec = INSTALLS.get(packId);
  const keys: string[] = rec?.ids?.[objId] || [];
  const st = storeFor(type);
  return !!st && keys.some((k) => st.get(k) !== null);
}

export function handleLibrary(method: string, segs: string[], q: URLSearchParams, body: any, u: User): Res {
  // segs after 'content_pack'
  if (segs.length === 0) {
    if (method !== 'GET') mna(method);
    let rows = LIBRARY.list();
    const sd = (q.get('sort_dir') || 'asc').toLowerCase();
    if (sd !== 'asc' && sd !== 'desc') fail(400, 'bad_parameter', "parameter 'sort_dir' must be asc or desc");
    rows = sortItems(rows, q.get('sort_key') || 'title', sd === 'asc');
    const offset = intParam(q, 'offset') || 0;
    const count = intParam(q, 'count') || 0;
    rows = rows.slice(offset);
    if (count) rows = rows.slice(0, bug('library-count-off-by-one') ? count - 1 : count);
    return ok({ success: rows.map(packOut), failure: LIB_FAILURES });
  }
  if (segs.length === 1 && segs[0] === 'refresh') {
    if (method !== 'POST') mna(method);
    needWrite(u);
    return refresh(body);
  }
  if (segs.length === 2) {
    if (method !== 'GET') mna(method);
    return ok(packOut(getPack(segs[0], segs[1])));
  }
  if (segs.length === 3 && segs[2] === 'preview') {
    if (method !== 'GET') mna(method);
    const p = getPack(segs[0], segs[1]);
    const out: any = {};
    for (const [group, objs] of Object.entries<any>(p.objects || {})) {
      out[group] = objs.map((o: any) => {
        const e: any = {
          id: o.id,
          title: o.title,
          description: o.description,
          entitlement_status: true,
          installed: isInstalled(p.id, o.id, GROUP_TYPE[group]),
          has_dependency: !!o.has_dependency,
        };
        if (group === 'saved_searches') {
          e.has_saved_searches = true;
          e.has_consistent_status = true;
        }
        return e;
      });
    }
    return ok(out);
  }
  if (segs.length === 3 && segs[2] === 'install') {
    if (method !== 'POST') mna(method);
    needWrite(u);
    return install(getPack(segs[0], segs[1]), body, u);
  }
  return fail(404, 'not_found', 'no such content pack resource');
}

function strArr(v: any, name: string): string[] {
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v) || !v.every((x) => typeof x === 'string')) fail(400, 'bad_payload', `'${name}' must be an array of strings`);
  return v;
}
function refresh(body: any): Res {
  if (body !== null && body !== undefined && !isObj(body))
    fail(400, 'bad_payload', 'payload must be {apps_added: [...], apps_removed: [...]}');
  const added = strArr(body?.apps_added, 'apps_added');
  const removed = strArr(body?.apps_removed, 'apps_removed');
  const success: any = { apps_added: [], apps_removed: [] };
  const failed: any = { apps_added: [], apps_removed: [] };
  for (const a of added) {
    if (!a.trim() || LIBRARY.get(a)) {
      failed.apps_added.push(a);
      continue;
    }
    const title = a
      .replace(/^DA-OPS-CP-/, '')
      .replace(/[-_]+/g, ' ')
      .replace(/\b\w/g, (c) => c.toUpperCase());
    LIBRARY.put(a, {
      id: a,
      title,
      description: `${title} content pack`,
      overview: '',
      author: 'unknown',
      version: '1.0.0',
      icon: '',
      help_links: [],
      installed_versions: [],
      screenshots: [],
      main_screenshot: { path: '', thumb: '' },
      objects: {},
    });
    success.apps_added.push(a);
  }
  for (const r of removed) {
    if (!LIBRARY.get(r)) {
      failed.apps_removed.push(r);
      continue;
    }
    LIBRARY.del(r);
    success.apps_removed.push(r);
  }
  return ok(bug('refresh-failure-key') ? { success, failure: failed } : { success, failed });
}

function install(p: any, body: any, u: User): Res {
  if (body === null || body === undefined || body === '') body = {};
  if (!isObj(body)) fail(400, 'bad_payload', 'install payload must be a JSON object');
  let wanted: Set<string> | null = null;
  const c = body.content;
  if (c !== undefined && c !== null) {
    if (Array.isArray(c)) wanted = new Set(strArr(c, 'content'));
    else if (isObj(c)) {
      wanted = new Set();
      for (const [t, ids] of Object.entries(c)) for (const i of strArr(ids, `content.${t}`)) wanted!.add(`${t}\u0000${i}`);
    } else fail(400, 'bad_payload', "'content' must map object-type names to arrays of identifiers");
    if (wanted && wanted.size === 0) wanted = null;
  }
  const resolution = body.resolution;
  if (resolution !== undefined && resolution !== null && resolution !== '' && resolution !== 'overwrite' && resolution !== 'skip')
    fail(400, 'bad_payload', "'resolution' must be overwrite or skip");
  const enabledSet = body.enabled !== undefined && body.enabled !== null && body.enabled !== '';
  const enabled = boolParam(body, 'enabled', false);
  boolParam(body, 'backfill', true);
  if (body.prefix !== undefined && body.prefix !== null && typeof body.prefix !== 'string')
    fail(400, 'bad_payload', "'prefix' must be a string");
  const prefix = body.prefix || '';
  const selected = (group: string, type: string, id: string) =>
    !wanted || wanted.has(id) || wanted.has(`${group}\u0000${id}`) || wanted.has(`${type}\u0000${id}`);

  const rec = INSTALLS.get(p.id) || { ids: {} };
  const success: any[] = [];
  const failure: any[] = [];
  const ss: any = { action_performed: 'install', success: [], failure: [] };
  for (const [group, objs] of Object.entries<any>(p.objects || {})) {
    const type = GROUP_TYPE[group];
    const st = storeFor(type);
    if (!st) continue;
    const done: any[] = [];
    for (const o of objs) {
      if (!selected(group, type, o.id)) continue;
      const key = prefix + o.id;
      const title = prefix + o.title;
      const prev = st.get(key);
      if (prev) {
        const mode = bug('install-skip-overwrites') && resolution === 'skip' ? 'overwrite' : resolution;
        if (mode === 'skip') continue;
        if (mode !== 'overwrite' || !canRead(u, prev)) {
          if (type === 'saved_search') ss.failure.push({ name: title, error_message: 'saved search already exists' });
          else failure.push({ content_type: group, id: o.id, title, type: 'OBJECT_ALREADY_EXISTS' });
          continue;
        }
      }
      const obj: any = {
        ...common(type, title, GLOBAL),
        description: o.description,
        content_pack_id: p.id,
        content_pack_version: p.version,
      };
      obj.sec_grp = u.all ? GLOBAL : '';
      checkGroups(u, obj);
      if (type === 'service') obj.enabled = enabled || (bug('install-enabled-default') && !enabledSet) ? 1 : 0;
      if (type === 'correlation_search' || type === 'notable_aggregation_policy') obj.disabled = enabled ? 0 : 1;
      if (type === 'kpi_base_search' || type === 'saved_search') obj.disabled = Number(o.disabled) ? 1 : 0;
      if (CORE[type]) finalize(type, key, obj, null, u);
      else obj._key = key;
      st.put(key, obj);
      const keys: string[] = rec.ids[o.id] || [];
      if (!keys.includes(key)) keys.push(key);
      rec.ids[o.id] = keys;
      if (type === 'saved_search') ss.success.push(title);
      else done.push({ id: key, title });
    }
    if (done.length) success.push({ [group]: done });
  }
  INSTALLS.put(p.id, rec);
  const iv: string[] = Array.isArray(p.installed_versions) ? p.installed_versions : [];
  if (!iv.includes(p.version)) {
    p.installed_versions = [...iv, p.version];
    LIBRARY.put(p.id, p);
  }
  return ok({ success, failure, saved_searches: ss });
}

// ---------- authoring ----------
const STATUSES = ['Draft', 'Queued', 'Generating', 'Generated', 'Failed', 'Incomplete'];
const PLATFORM_KEYS = ['dashboards', 'lookups', 'macros', 'props', 'savedsearches', 'transforms'];
function normIds(v: any, name: string): any {
  if (v === undefined || v === null) return {};
  if (!isObj(v)) fail(400, 'bad_payload', `'${name}' must be an object of identifier arrays`);
  const out: any = {};
  for (const [k, ids] of Object.entries(v)) {
    if (Array.isArray(ids)) out[k] = ids.map(String);
    else if (isObj(ids)) out[k] = Object.keys(ids as any);
    else fail(400, 'bad_payload', `'${name}.${k}' must be an array of identifiers`);
  }
  return out;
}
function normalizePack(b: any, prev: any, key: string, u: User): any {
  if (typeof b.title !== 'string' || !b.title.trim()) fail(400, 'missing_required_field', "field 'title' is required");
  const status = b.status === undefined || b.status === null ? (prev?.status ?? 'Draft') : b.status;
  if (!STATUSES.includes(status)) fail(400, 'bad_payload', `'status' must be one of ${STATUSES.join(', ')}`);
  const md = isObj(b.metadata) ? b.metadata : {};
  const plat: any = { ...normIds(b.platform_objects, 'platform_objects') };
  for (const k of PLATFORM_KEYS) if (!plat[k]) plat[k] = [];
  const uso = isObj(b.user_selected_objects) ? b.user_selected_objects : {};
  const d = new Date();
  const obj: any = {
    ...b,
    title: b.title,
    description: String(b.description ?? ''),
    overview: String(b.overview ?? ''),
    cp_version: String(b.cp_version ?? '1.0.0'),
    metadata: {
      icon: md.icon ?? null,
      main_screenshot: isObj(md.main_screenshot) ? md.main_screenshot : {},
      screenshots: Array.isArray(md.screenshots) ? md.screenshots : [],
    },
    ops_objects: normIds(b.ops_objects, 'ops_objects'),
    platform_objects: plat,
    user_selected_objects: {
      ops_objects: normIds(uso.ops_objects, 'user_selected_objects.ops_objects'),
      platform_objects: normIds(uso.platform_objects, 'user_selected_objects.platform_objects'),
    },
    status,
    object_type: 'content_pack',
    mod_time: modTime(d),
    mod_timestamp: isoOff(d),
    mod_source: 'REST',
    _version: VERSION,
    identifying_name: b.title.toLowerCase(),
    _user: 'nobody',
    _key: key,
    sec_grp: b.sec_grp ?? prev?.sec_grp ?? '',
  };
  if (!obj.sec_grp) obj.sec_grp = u.all ? GLOBAL : '';
  checkGroups(u, obj);
  return obj;
}
function titleOf(type: string, id: string): string {
  const st = storeFor(type);
  const o = st ? st.get(id) : null;
  return o?.title ?? id;
}
function single(p: any): any {
  const ops: any = {};
  for (const [t, ids] of Object.entries<any>(p.ops_objects || {}))
    ops[t] = Object.fromEntries((ids || []).map((i: string) => [i, titleOf(t, i)]));
  return { ...p, ops_objects: ops };
}
function counts(m: any): any {
  return Object.fromEntries(Object.entries<any>(m || {}).map(([k, v]) => [k, Array.isArray(v) ? v.length : 0]));
}
function readablePack(u: User, key: string): any {
  const p = AUTHORING.get(key);
  if (!p || !canRead(u, p)) fail(404, 'not_found', `content pack '${key}' was not found`);
  return p;
}

export function handleAuthoring(method: string, segs: string[], q: URLSearchParams, body: any, u: User): Res {
  if (segs[0] !== 'content_pack' || segs.length > 2) return fail(404, 'not_found', 'no such authoring resource');
  const om = q.get('output_mode');
  if (om && om !== 'json') fail(400, 'bad_parameter', "parameter 'output_mode' must be json");
  if (segs.length === 1) {
    if (method === 'GET') {
      let rows = AUTHORING.list().filter((p) => canRead(u, p));
      const status = q.get('status');
      if (status) {
        if (!STATUSES.includes(status)) fail(400, 'bad_parameter', `parameter 'status' must be one of ${STATUSES.join(', ')}`);
        rows = rows.filter((p) => p.status === status);
      }
      const search = q.get('search');
      if (search)
        rows = rows.filter((p) =>
          String(p.title ?? '')
            .toLowerCase()
            .includes(search.toLowerCase()),
        );
      rows = applyFilter(rows, q.get('filter'));
      const sdRaw = (q.get('sort_dir') || '').toLowerCase();
      let asc = true;
      if (sdRaw) {
        if (sdRaw === 'asc' || sdRaw === '1') asc = true;
        else if (sdRaw === 'desc' || (sdRaw === 'des' && !bug('cp-sort-des')) || sdRaw === '0') asc = false;
        else if (!(sdRaw === 'des' && bug('cp-sort-des'))) fail(400, 'bad_parameter', "parameter 'sort_dir' must be asc or des");
      }
      const sk = q.get('sort_key');
      rows = sk ? sortItems(rows, sk, asc) : sortItems(rows, 'mod_timestamp', false);
      const offset = intParam(q, 'offset') || 0;
      const count = intParam(q, 'count') || 0;
      rows = rows.slice(offset);
      if (count) rows = rows.slice(0, count);
      const fields = fieldsParam(q);
      return ok(
        rows.map((p) => {
          const full = {
            ...p,
            icon: p.metadata?.icon ?? null,
            ops_objects_counts: counts(p.ops_objects),
            platform_objects_counts: counts(p.platform_objects),
          };
          if (!fields) return full;
          const out = project(p, fields);
          if (bug('cp-fields-keeps-counts'))
            Object.assign(out, {
              icon: full.icon,
              ops_objects_counts: full.ops_objects_counts,
              platform_objects_counts: full.platform_objects_counts,
            });
          return out;
        }),
      );
    }
    if (method === 'POST') {
      needWrite(u);
      if (!isObj(body)) fail(400, 'bad_payload', 'payload must be a JSON object');
      const key = newKey();
      const obj = normalizePack({ ...body, status: undefined }, null, key, u);
      AUTHORING.put(key, obj);
      return ok({ _key: key }, 201);
    }
    return mna(method);
  }
  const key = segs[1];
  if (key === 'count') {
    if (method !== 'GET') mna(method);
    return ok({
      count: applyFilter(
        AUTHORING.list().filter((p) => canRead(u, p)),
        q.get('filter'),
      ).length,
    });
  }
  if (method === 'GET') return ok(single(readablePack(u, key)));
  if (method === 'POST') {
    needWrite(u);
    if (!isObj(body)) fail(400, 'bad_payload', 'payload must be the full content pack JSON');
    const prev = readablePack(u, key);
    AUTHORING.put(key, normalizePack(body, prev, key, u));
    return ok({ _key: key });
  }
  if (method === 'DELETE') {
    needWrite(u);
    const prev = readablePack(u, key);
    AUTHORING.del(key);
    return ok(single(prev));
  }
  return mna(method);
}
