// biome-ignore-all lint/suspicious/noExplicitAny: the pack documents are free-form JSON read by shape, as their author wrote them
// Content pack library (catalogue, preview, install, refresh) and custom content pack authoring.
import {
  Collection,
  type Ctx,
  GLOBAL,
  REG,
  type Reply,
  SCHEMA_VERSION,
  applyList,
  badInput,
  boolParam,
  bug,
  empty,
  intParam,
  isObj,
  isoOffset,
  matches,
  methodNotAllowed,
  modTime,
  mustWrite,
  newKey,
  notFound,
  ok,
  parseFields,
  parseFilter,
  project,
  sortRows,
  stamp,
  strip,
} from './lib';

// ---------- library ----------
const GROUPS: Record<string, string> = {
  services: 'service',
  kpi_base_searches: 'kpi_base_search',
  entity_types: 'entity_type',
  glass_tables: 'glass_table',
  service_analyzers: 'home_view',
  deep_dives: 'deep_dive',
  service_templates: 'base_service_template',
  kpi_threshold_templates: 'kpi_threshold_template',
  correlation_searches: 'correlation_search',
  aggregation_policies: 'notable_aggregation_policy',
  saved_searches: 'saved_search',
};
const ENABLE_TYPES = new Set(['service', 'correlation_search', 'notable_aggregation_policy']);
const library = new Collection('content_pack_library');
REG.saved_search = new Collection('saved_search');
const LOAD_FAILURES = [
  { id: 'DA-OPS-CP-legacy-vmware', title: 'Legacy VMware', error: 'app.manifest is missing the content pack version' },
];

const item = (id: string, title: string, description: string, object: any = {}, has_dependency = false) => ({
  id,
  title,
  description,
  object,
  has_dependency,
});
function pack(id: string, title: string, version: string, contents: Record<string, any[]>): any {
  return {
    _key: id,
    id,
    title,
    version,
    author: 'Ops Content Team',
    description: `${title} content pack`,
    overview: `Dashboards, services and searches for ${title.toLowerCase()}.`,
    icon: `/static/app/${id}/icon.png`,
    help_links: [`https://docs.example.com/cp/${id}`],
    installed_versions: [],
    screenshots: [{ path: `/static/app/${id}/s1.png`, thumb: `/static/app/${id}/s1_t.png` }],
    main_screenshot: { path: `/static/app/${id}/main.png`, thumb: `/static/app/${id}/main_t.png` },
    __contents: contents,
  };
}
export function seedLibrary(): void {
  library.put(
    pack('DA-OPS-CP-unix-monitoring', 'Unix and Linux Monitoring', '2.0.1', {
      entity_types: [item('cp_unix_et_host', 'unix_host', 'A Unix or Linux host')],
      kpi_base_searches: [item('cp_unix_kbs_cpu', 'Unix CPU Metrics', 'CPU base search', { base_search: 'index=os sourcetype=cpu' })],
      services: [
        item(
          'cp_unix_svc_hosts',
          'Unix Hosts',
          'All Unix hosts',
          { kpis: [{ title: 'CPU Utilization', threshold_field: 'pct_cpu', kpi_base_search: 'cp_unix_kbs_cpu' }] },
          true,
        ),
      ],
      deep_dives: [item('cp_unix_dd_host', 'Unix Host Deep Dive', 'Per-host lanes')],
      saved_searches: [item('cp_unix_ss_disk_full', 'Unix - Disk Full', 'Alert on full disks', { disabled: 1 })],
    }),
  );
  library.put(
    pack('DA-OPS-CP-web-monitoring', 'Web Monitoring', '1.4.0', {
      entity_types: [item('cp_web_et_server', 'web_server_cp', 'A web server')],
      services: [
        item('cp_web_svc_frontend', 'Web Frontend', 'Front-end tier', { kpis: [{ title: 'HTTP 5xx', threshold_field: 'errors' }] }, true),
        item('cp_web_svc_checkout', 'Checkout API', 'Checkout tier', { kpis: [{ title: 'Checkout Latency', threshold_field: 'latency' }] }),
      ],
      kpi_base_searches: [item('cp_web_kbs_access', 'Web Access', 'Access log base search', { base_search: 'index=web' })],
      glass_tables: [item('cp_web_gt_overview', 'Web Overview', 'Web glass table')],
      service_analyzers: [item('cp_web_sa_default', 'Web Service Analyzer', 'Analyzer view')],
      correlation_searches: [item('cp_web_cs_errors', 'Web - Error Spike', 'Error spike detection', { search: 'index=web status>=500' })],
      aggregation_policies: [item('cp_web_nap_web', 'Web Episodes', 'Groups web notable events')],
      saved_searches: [
        item('cp_web_ss_daily', 'Web - Daily Summary', 'Daily report', { disabled: 0 }),
        item('cp_web_ss_cert', 'Web - Certificate Expiry', 'Certificate check', { disabled: 1 }),
      ],
    }),
  );
}
const marker = (p: any, id: string) => `${p.id}/${id}`;
function isInstalled(p: any, id: string, type: string): boolean {
  return (REG[type]?.viewAll() ?? []).some((o) => o.__cp_item === marker(p, id));
}
function publicPack(p: any): any {
  return strip(p);
}
function findPack(name: string, version: string, useView = true): any {
  const p = useView ? library.view(name) : library.get(name);
  if (!p || p.version !== version) notFound(`content pack '${name}' version '${version}' does not exist`);
  return p;
}

function listLibrary(ctx: Ctx): Reply {
  const q = ctx.q;
  const sd = q.get('sort_dir');
  if (sd && sd !== 'asc' && sd !== 'desc') badInput("'sort_dir' must be asc or desc");
  const count = intParam(q.get('count'), 'count');
  const offset = intParam(q.get('offset'), 'offset') ?? 0;
  let rows = library.viewAll().map(publicPack);
  const sk = q.get('sort_key');
  if (sk) rows = sortRows(rows, sk, sd === 'desc');
  rows = rows.slice(offset);
  if (count && !bug('cp-list-count-ignored')) rows = rows.slice(0, count);
  return ok({ success: rows, failure: LOAD_FAILURES.map((f) => ({ ...f })) });
}

function preview(p: any): any {
  const res: any = {};
  for (const [group, items] of Object.entries(p.__contents as Record<string, any[]>)) {
    const type = GROUPS[group];
    res[group] = items.map((it) => {
      const e: any = {
        id: it.id,
        title: it.title,
        description: it.description,
        entitlement_status: true,
        installed: isInstalled(p, it.id, type),
        has_dependency: !!it.has_dependency,
      };
      if (group === 'saved_searches') {
        e.has_saved_searches = true;
        e.has_consistent_status = items.every((x) => Number(x.object.disabled ?? 0) === Number(items[0].object.disabled ?? 0));
      }
      return e;
    });
  }
  return res;
}

function selection(content: any): Map<string, Set<string>> | null {
  if (content === undefined || content === null) return null;
  if (!isObj(content)) badInput("'content' must map object-type names to arrays of identifiers");
  const sel = new Map<string, Set<string>>();
  for (const [k, v] of Object.entries(content)) {
    if (!Array.isArray(v) || v.some((x) => typeof x !== 'string')) badInput(`'content.${k}' must be an array of identifiers`);
    const group = GROUPS[k] ? k : Object.keys(GROUPS).find((g) => GROUPS[g] === k);
    if (!group) badInput(`unknown object type '${k}' in content`);
    const s = sel.get(group!) ?? new Set<string>();
    for (const x of bug('cp-install-content-first-only') ? (v as string[]).slice(0, 1) : (v as string[])) s.add(x);
    sel.set(group!, s);
  }
  return sel.size ? sel : null;
}

function install(ctx: Ctx, name: string, version: string): Reply {
  mustWrite(ctx.user);
  const p = findPack(name, version, false);
  const b = ctx.body ?? {};
  if (!isObj(b)) badInput('payload must be a JSON object');
  const sel = selection(b.content);
  const resolution = b.resolution;
  if (resolution !== undefined && resolution !== 'overwrite' && resolution !== 'skip') badInput("'resolution' must be overwrite or skip");
  const enabled = boolParam(b.enabled, bug('cp-install-enabled-default-on'), 'enabled');
  const backfill = boolParam(b.backfill, true, 'backfill');
  if (b.prefix !== undefined && typeof b.prefix !== 'string') badInput("'prefix' must be a string");
  const prefix = bug('cp-install-prefix-ignored') ? '' : (b.prefix ?? '');
  const success: any[] = [],
    failure: any[] = [];
  const ss = { action_performed: 'install', success: [] as string[], failure: [] as any[] };
  const contents = p.__contents as Record<string, any[]>;
  if (sel) {
    for (const [group, ids] of sel)
      for (const id of ids) {
        if (!(contents[group] ?? []).some((it) => it.id === id))
          failure.push({ content_type: group, id, title: '', type: 'OBJECT_NOT_FOUND' });
      }
  }
  for (const [group, items] of Object.entries(contents)) {
    const type = GROUPS[group];
    const coll = REG[type];
    const done: any[] = [];
    for (const it of items) {
      if (sel && !sel.get(group)?.has(it.id)) continue;
      const key = prefix + it.id,
        title = prefix + it.title;
      const existing = coll.get(key);
      if (existing) {
        const fromPack = existing.__cp_item === marker(p, it.id);
        const overwrite = resolution === 'overwrite' || (bug('cp-install-skip-overwrites') && resolution === 'skip');
        if (overwrite && fromPack) {
          /* replace below */
        } else if (resolution === 'skip') continue;
        else {
          if (group === 'saved_searches') ss.failure.push({ name: title, error_message: 'saved search already exists' });
          else failure.push({ content_type: group, id: key, title, type: 'OBJECT_ALREADY_EXISTS' });
          continue;
        }
      }
      const obj: any = {
        ...structuredClone(it.object),
        _key: key,
        title,
        description: it.description,
        sec_grp: GLOBAL,
        __cp_item: marker(p, it.id),
      };
      if (ENABLE_TYPES.has(type)) obj.enabled = enabled && (type === 'service' || !bug('cp-install-enabled-services-only')) ? 1 : 0;
      if (type === 'service') {
        obj.kpis = (obj.kpis ?? []).map((k: any) => ({
          ...k,
          _key: k._key ?? newKey(),
          service_id: key,
          backfill_enabled: backfill,
          backfill_earliest_time: '-7d',
        }));
        obj.entity_rules ??= [];
      }
      obj.object_type = type;
      obj._version = SCHEMA_VERSION;
      obj._user = ctx.pathUser;
      obj.mod_source = 'content_pack';
      obj.mod_timestamp = isoOffset();
      obj.identifying_name = title.toLowerCase();
      coll.put(obj);
      if (group === 'saved_searches') ss.success.push(title);
      else done.push({ id: key, title });
    }
    if (done.length) success.push({ [group]: done });
  }
  if (success.length || ss.success.length) {
    const cur = library.get(p.id);
    if (!cur.installed_versions.includes(cur.version)) cur.installed_versions.push(cur.version);
    library.put(cur);
  }
  return ok({ success, failure, saved_searches: ss });
}

function refresh(ctx: Ctx): Reply {
  mustWrite(ctx.user);
  const b = ctx.body ?? {};
  const arr = (v: any, n: string): string[] => {
    if (v === undefined) return [];
    if (!Array.isArray(v) || v.some((x) => typeof x !== 'string')) badInput(`'${n}' must be an array of app names`);
    return v;
  };
  if (!isObj(b)) badInput('payload must be {apps_added: [...], apps_removed: [...]}');
  const added = arr(b.apps_added, 'apps_added'),
    removed = arr(b.apps_removed, 'apps_removed');
  const res = {
    success: { apps_added: [] as string[], apps_removed: [] as string[] },
    failed: { apps_added: [] as string[], apps_removed: [] as string[] },
  };
  for (const a of added) {
    if (library.get(a)) {
      res.failed.apps_added.push(a);
      continue;
    }
    library.put(pack(a, a, '1.0.0', {}));
    res.success.apps_added.push(a);
  }
  for (const a of removed) {
    if (!library.get(a)) {
      res.failed.apps_removed.push(a);
      continue;
    }
    library.del(a);
    res.success.apps_removed.push(a);
  }
  return ok(bug('cp-refresh-failure-key') ? { success: res.success, failure: res.failed } : res);
}

export function libraryRoutes(ctx: Ctx, rest: string[]): Reply {
  const m = ctx.method;
  if (rest.length === 0) return m === 'GET' ? listLibrary(ctx) : methodNotAllowed();
  if (rest.length === 1 && rest[0] === 'refresh') return m === 'POST' ? refresh(ctx) : methodNotAllowed();
  if (rest.length === 2) return m === 'GET' ? ok(publicPack(findPack(rest[0], rest[1]))) : methodNotAllowed();
  if (rest.length === 3 && rest[2] === 'install') return m === 'POST' ? install(ctx, rest[0], rest[1]) : methodNotAllowed();
  if (rest.length === 3 && rest[2] === 'preview') return m === 'GET' ? ok(preview(findPack(rest[0], rest[1]))) : methodNotAllowed();
  return notFound('no such content pack endpoint');
}

// ---------- authoring ----------
const STATUSES = ['Draft', 'Queued', 'Generating', 'Generated', 'Failed', 'Incomplete'];
const PLATFORM_KINDS = ['dashboards', 'lookups', 'macros', 'props', 'savedsearches', 'transforms'];
const authored = new Collection('content_pack');

function idList(v: any, where: string): string[] {
  if (Array.isArray(v)) {
    if (v.some((x) => typeof x !== 'string')) badInput(`'${where}' must hold identifiers`);
    return [...v];
  }
  if (isObj(v)) return Object.keys(v);
  return badInput(`'${where}' must be an array of identifiers`);
}
function normalizeCp(b: any, prev: any): any {
  if (!isObj(b)) badInput('payload must be a JSON object');
  if (typeof b.title !== 'string' || !b.title.trim()) badInput("field 'title' is required for content_pack");
  for (const f of ['description', 'overview', 'cp_version'])
    if (b[f] !== undefined && typeof b[f] !== 'string') badInput(`'${f}' must be a string`);
  const o: any = { ...b };
  o.description ??= '';
  o.overview ??= '';
  o.cp_version ??= '1.0.0';
  o.status ??= prev?.status ?? 'Draft';
  if (!STATUSES.includes(o.status)) badInput(`'status' must be one of ${STATUSES.join(', ')}`);
  const md = o.metadata ?? {};
  if (!isObj(md)) badInput("'metadata' must be an object");
  o.metadata = { icon: md.icon ?? null, main_screenshot: md.main_screenshot ?? {}, screenshots: md.screenshots ?? [], ...md };
  const oo = o.ops_objects ?? {};
  if (!isObj(oo)) badInput("'ops_objects' must be an object");
  o.ops_objects = Object.fromEntries(Object.entries(oo).map(([t, v]) => [t, idList(v, `ops_objects.${t}`)]));
  const po = o.platform_objects ?? {};
  if (!isObj(po)) badInput("'platform_objects' must be an object");
  o.platform_objects = { ...po };
  for (const k of PLATFORM_KINDS) o.platform_objects[k] = po[k] === undefined ? [] : idList(po[k], `platform_objects.${k}`);
  const us = o.user_selected_objects ?? {};
  if (!isObj(us)) badInput("'user_selected_objects' must be an object");
  o.user_selected_objects = { ops_objects: us.ops_objects ?? {}, platform_objects: us.platform_objects ?? {} };
  delete o.icon;
  delete o.ops_objects_counts;
  delete o.platform_objects_counts;
  return o;
}
function cpSingle(o: any): any {
  const r = strip(o);
  r.ops_objects = Object.fromEntries(
    Object.entries(o.ops_objects ?? {}).map(([t, ids]) => [
      t,
      Object.fromEntries((ids as string[]).map((id) => [id, REG[t]?.view(id)?.title ?? ''])),
    ]),
  );
  return r;
}
function cpListForm(o: any, withExtras: boolean): any {
  const r = strip(o);
  if (withExtras) {
    r.icon = o.metadata?.icon ?? null;
    r.ops_objects_counts = Object.fromEntries(Object.entries(o.ops_objects ?? {}).map(([t, ids]) => [t, (ids as any[]).length]));
    r.platform_objects_counts = Object.fromEntries(
      Object.entries(o.platform_objects ?? {}).map(([t, ids]) => [t, Array.isArray(ids) ? ids.length : 0]),
    );
  }
  return r;
}
function listAuthored(ctx: Ctx): Reply {
  const q = ctx.q;
  const sd = q.get('sort_dir');
  if (sd && !['asc', 'des', 'desc'].includes(sd)) badInput("'sort_dir' must be asc or des");
  const desc = bug('cpa-sort-des-ignored') ? sd === 'desc' : sd === 'des' || sd === 'desc';
  const om = q.get('output_mode');
  if (om && om !== 'json') badInput("'output_mode' must be json");
  const status = q.get('status');
  if (status && !STATUSES.includes(status)) badInput(`'status' must be one of ${STATUSES.join(', ')}`);
  const fields = parseFields(q);
  const search = q.get('search');
  let rows = authored.viewAll();
  if (status && !(bug('cpa-status-with-search') && search)) rows = rows.filter((r) => r.status === status);
  if (search) {
    const needle = search.toLowerCase();
    rows = rows.filter((r) => {
      const t = String(r.title ?? '').toLowerCase();
      return bug('cpa-search-prefix-only') ? t.startsWith(needle) : t.includes(needle);
    });
  }
  rows = rows.map((r) => cpListForm(r, !fields || bug('cpa-counts-with-fields')));
  const res = applyList(rows, {
    filter: parseFilter(q.get('filter')),
    sortKey: q.get('sort_key') || undefined,
    desc,
    offset: intParam(q.get('offset'), 'offset'),
    limit: intParam(q.get('count'), 'count'),
  }).rows;
  return ok(
    fields
      ? res.map((r) => {
          const p = project(r, fields);
          if (bug('cpa-counts-with-fields')) for (const k of ['icon', 'ops_objects_counts', 'platform_objects_counts']) p[k] = r[k];
          return p;
        })
      : res,
  );
}
function writeAuthored(ctx: Ctx, key: string | null): Reply {
  mustWrite(ctx.user);
  const prev = key ? authored.get(key) : undefined;
  if (key && !prev) notFound(`content pack '${key}' does not exist`);
  const o = normalizeCp(ctx.body, prev);
  o._key = key ?? newKey();
  stamp(o, 'content_pack', ctx, !prev);
  delete o.sec_grp;
  o.mod_time = modTime();
  authored.put(o);
  return ok({ _key: o._key }, prev ? 200 : 201);
}
export function authoringRoutes(ctx: Ctx, rest: string[]): Reply {
  const m = ctx.method;
  if (rest.length === 0) {
    if (m === 'GET') return listAuthored(ctx);
    if (m === 'POST') return writeAuthored(ctx, null);
    return methodNotAllowed();
  }
  if (rest.length === 1 && rest[0] === 'count') {
    if (m !== 'GET') methodNotAllowed();
    const f = parseFilter(ctx.q.get('filter'));
    const rows = authored.viewAll().map((r) => cpListForm(r, true));
    return ok({ count: f ? rows.filter((r) => matches(r, f)).length : rows.length });
  }
  if (rest.length === 1) {
    const key = rest[0];
    if (m === 'GET') {
      const o = authored.view(key);
      if (!o) notFound(`content pack '${key}' does not exist`);
      return ok(bug('cpa-get-ops-objects-list-form') ? strip(o) : cpSingle(o));
    }
    if (m === 'POST') return writeAuthored(ctx, key);
    if (m === 'DELETE') {
      mustWrite(ctx.user);
      const o = authored.get(key);
      if (!o) notFound(`content pack '${key}' does not exist`);
      authored.del(key);
      return bug('cpa-delete-empty') ? empty() : ok(cpSingle(o));
    }
    return methodNotAllowed();
  }
  return notFound('no such authoring endpoint');
}
