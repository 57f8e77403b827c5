// biome-ignore-all lint/suspicious/noExplicitAny: the documents are free-form JSON read by shape, as their author wrote them
// biome-ignore-all lint/complexity/useOptionalChain: kept as its author wrote it
// biome-ignore-all lint/suspicious/noGlobalIsFinite: the global coerces strings, which this server relies on
// Core interface (itoa_interface): object types, entity lifecycle, templates, custom threshold windows.
import {
  Collection,
  type Ctx,
  GLOBAL,
  REG,
  type Reply,
  SCHEMA_VERSION,
  badInput,
  bug,
  canRead,
  canReadTeam,
  conflict,
  intParam,
  isObj,
  isoOffset,
  methodNotAllowed,
  modTime,
  mustWrite,
  newKey,
  notFound,
  nowSec,
  ok,
  refuse,
} from './lib';
import { type TypeDef, genericRoutes, getVisible, out, readableRows } from './crud';
import { libraryRoutes, authoringRoutes } from './contentpack';

const CORE_TYPES = [
  'team',
  'entity',
  'service',
  'base_service_template',
  'kpi_base_search',
  'deep_dive',
  'glass_table',
  'home_view',
  'kpi_template',
  'kpi_threshold_template',
  'event_management_state',
  'entity_filter_rule',
  'entity_type',
  'custom_threshold_windows',
];
const SUPPORTED = [...CORE_TYPES, 'entity_relationship', 'entity_relationship_rule'];

const coreColls: Record<string, Collection> = {};
const coreDefs: Record<string, TypeDef> = {};

function prepEntity(obj: any, prev: any, ctx: Ctx): void {
  for (const f of ['identifier', 'informational']) {
    if (obj[f] === undefined) obj[f] = { fields: [], values: [] };
    const v = obj[f];
    if (!isObj(v) || !Array.isArray(v.fields ?? []) || !Array.isArray(v.values ?? []))
      badInput(`'${f}' must be {fields: [string], values: [string]}`);
    v.fields = v.fields ?? [];
    v.values = v.values ?? [];
  }
  if (obj.services === undefined) obj.services = [];
  if (!Array.isArray(obj.services)) badInput("'services' must be an array of {_key, title}");
  if (!obj.status) obj.status = 'active';
  obj._type = 'entity';
  obj.create_by = prev?.create_by ?? ctx.user.name;
  obj.create_source = prev?.create_source ?? 'REST';
  obj.create_time = prev?.create_time ?? isoOffset();
  obj.mod_by = ctx.user.name;
  obj.mod_time = modTime();
}
function prepService(obj: any): void {
  if (obj.kpis === undefined) obj.kpis = [];
  if (!Array.isArray(obj.kpis)) badInput("'kpis' must be an array");
  for (const k of obj.kpis) {
    if (!isObj(k)) badInput('every KPI must be an object');
    if (!k._key) k._key = newKey();
    k.service_id = obj._key;
  }
  if (obj.entity_rules === undefined) obj.entity_rules = [];
  if (!Array.isArray(obj.entity_rules)) badInput("'entity_rules' must be an array");
  if (obj.enabled === undefined) obj.enabled = 1;
  if (obj.services_depends_on === undefined) obj.services_depends_on = [];
}
function prepCtw(obj: any): void {
  if (obj.status === undefined || obj.status === null || obj.status === '') obj.status = 'active';
  if (typeof obj.status !== 'string') badInput("'status' must be a string");
  if (!bug('ctw-status-not-lowercased')) obj.status = obj.status.toLowerCase();
  obj.window_type ??= 'percentage';
  obj.window_config_percentage ??= 0;
  obj.window_config_static ??= {};
  obj.linked_services ??= [];
  if (!Array.isArray(obj.linked_services)) badInput("'linked_services' must be an array");
  obj.overlapping_kpis ??= [];
  obj.recurrence ??= false;
  obj.is_overlapping ??= false;
  obj.sec_grp_list ??= [obj.sec_grp || GLOBAL];
  for (const f of ['start_time', 'end_time', 'duration', 'window_config_percentage']) {
    if (obj[f] !== undefined && typeof obj[f] !== 'number') badInput(`'${f}' must be a number`);
  }
}
function presentCtw(o: any, ctx: Ctx): any {
  const w = ctx.user.canWrite;
  return { ...o, can_view: true, can_link: w, can_edit: w, can_transition: w };
}

for (const t of SUPPORTED) {
  const coll = new Collection(t);
  coreColls[t] = coll;
  REG[t] = coll;
  coreDefs[t] = {
    iface: 'core',
    type: t,
    coll,
    access: true,
    required: ['title'],
    prepare:
      t === 'entity'
        ? prepEntity
        : t === 'service'
          ? (o) => prepService(o)
          : t === 'custom_threshold_windows'
            ? (o) => prepCtw(o)
            : undefined,
    present: t === 'custom_threshold_windows' ? presentCtw : undefined,
    protect: t === 'team' ? (o) => (o._key === GLOBAL ? 'the Global team cannot be deleted' : null) : undefined,
  };
}

// ---------- seeds ----------
function seed(type: string, obj: any): void {
  const o: any = { ...obj, object_type: type, _version: SCHEMA_VERSION, _user: 'nobody', mod_source: 'seed', mod_timestamp: isoOffset() };
  o.sec_grp ??= GLOBAL;
  if (o.title) o.identifying_name = o.title.toLowerCase();
  const ctx: any = { user: { name: 'admin' } };
  if (type === 'entity') prepEntity(o, undefined, ctx);
  if (type === 'service') prepService(o);
  if (type === 'custom_threshold_windows') prepCtw(o);
  coreColls[type].put(o);
}
const thr = (metric: string) => ({
  isMinStatic: false,
  isMaxStatic: false,
  gaugeMin: 0,
  gaugeMax: 100,
  renderBoundaryMin: 0,
  renderBoundaryMax: 100,
  baseSeverityValue: 2,
  metricField: metric,
  search: '',
  baseSeverityLabel: 'normal',
  baseSeverityColor: '#99D18B',
  baseSeverityColorLight: '#DCEFD7',
  thresholdLevels: [
    { severityValue: 4, thresholdValue: 70, severityLabel: 'medium', severityColor: '#FCB64E', severityColorLight: '#FEE6C1' },
    { severityValue: 6, thresholdValue: 90, severityLabel: 'critical', severityColor: '#B50101', severityColorLight: '#E5A6A6' },
  ],
});
export function seedCore(): void {
  seed('team', { _key: GLOBAL, title: 'Global', description: 'Global team', sec_grp: GLOBAL });
  seed('team', { _key: 'team_noc_ops', title: 'NOC Operations', description: 'Network operations team', sec_grp: GLOBAL });
  seed('base_service_template', {
    _key: 'tpl-web-tier',
    title: 'Web Tier Template',
    description: 'Template for web tiers',
    entity_rules: [{ rule_condition: 'AND', rule_items: [{ field: 'role', field_type: 'info', rule_type: 'matches', value: 'web' }] }],
    kpis: [{ _key: 'tkpi-latency', title: 'Latency', threshold_field: 'latency_ms', urgency: '7' }],
  });
  seed('service', {
    _key: 'svc-storefront',
    title: 'Web Storefront',
    description: 'Customer facing store',
    enabled: 1,
    tags: ['web'],
    entity_rules: [{ rule_condition: 'AND', rule_items: [{ field: 'host', field_type: 'alias', rule_type: 'matches', value: 'web*' }] }],
    kpis: [
      { _key: 'kpi-sf-errors', title: 'Error Rate', threshold_field: 'error_rate', urgency: '8', entity_thresholds: thr('error_rate') },
      { _key: 'kpi-sf-latency', title: 'Response Time', threshold_field: 'resp_ms', urgency: '5' },
    ],
  });
  seed('service', {
    _key: 'svc-dns',
    title: 'DNS Resolution',
    description: 'Internal DNS',
    sec_grp: 'team_noc_ops',
    enabled: 1,
    kpis: [{ _key: 'kpi-dns-fail', title: 'Failed Lookups', threshold_field: 'failures', urgency: '6' }],
  });
  seed('entity', {
    _key: 'ent-web01',
    title: 'web01.example.com',
    description: 'storefront node',
    identifier: { fields: ['host'], values: ['web01.example.com'] },
    informational: { fields: ['role'], values: ['web'] },
    host: ['web01.example.com'],
    role: ['web'],
    services: [{ _key: 'svc-storefront', title: 'Web Storefront' }],
  });
  seed('entity', {
    _key: 'ent-web02',
    title: 'web02.example.com',
    retirable: 1,
    identifier: { fields: ['host'], values: ['web02.example.com'] },
    informational: { fields: ['role', 'os'], values: ['web', 'linux'] },
    host: ['web02.example.com'],
    role: ['web'],
    os: ['linux'],
    services: [{ _key: 'svc-storefront', title: 'Web Storefront' }],
  });
  seed('entity', {
    _key: 'ent-ns1',
    title: 'ns1.example.com',
    sec_grp: 'team_noc_ops',
    retirable: 1,
    identifier: { fields: ['host', 'ip'], values: ['ns1.example.com', '10.0.0.53'] },
    informational: { fields: ['dc'], values: ['east'] },
    host: ['ns1.example.com'],
    ip: ['10.0.0.53'],
    dc: ['east'],
    services: [{ _key: 'svc-dns', title: 'DNS Resolution' }],
  });
  seed('kpi_base_search', {
    _key: 'kbs-web-access',
    title: 'Web Access Logs',
    base_search: 'index=web sourcetype=access',
    search_alert_earliest: '5',
    alert_period: '5',
    metrics: [{ _key: 'm-count', title: 'requests', threshold_field: 'count', aggregate_statop: 'count' }],
  });
  seed('kpi_threshold_template', { _key: 'ktt-default-static', title: 'Default static thresholds', adaptive_thresholds_is_enabled: false });
  seed('entity_type', { _key: 'et-web-server', title: 'web_server', description: 'Web server' });
  seed('glass_table', { _key: 'gt-overview', title: 'Operations Overview', description: 'Main overview' });
  seed('home_view', { _key: 'hv-default', title: 'Default Service Analyzer', is_default: 1 });
  seed('deep_dive', { _key: 'dd-storefront', title: 'Storefront Deep Dive' });
  seed('custom_threshold_windows', {
    _key: 'ctw-peak',
    title: 'Peak Season',
    description: 'Holiday traffic',
    status: 'Active',
    window_type: 'percentage',
    window_config_percentage: 20,
    start_time: 1767225600,
    end_time: 1767830400,
    duration: 604800,
    linked_services: [{ service_id: 'svc-storefront', linked_kpi_ids: ['kpi-sf-errors'] }],
  });
}

// ---------- special endpoints ----------
function aliasList(ctx: Ctx): Reply {
  const ident = new Set<string>(),
    info = new Set<string>();
  for (const e of readableRows(coreDefs.entity, ctx, bug('alias-list-leak'))) {
    for (const f of e.identifier?.fields ?? []) ident.add(String(f));
    for (const f of e.informational?.fields ?? []) info.add(String(f));
  }
  return ok({ identifier: [...ident].sort(), informational: [...info].sort() });
}

function permissions(ctx: Ctx) {
  const w = ctx.user.canWrite;
  return { user: ctx.user.name, group: { read: true, write: w, delete: w }, read: true, write: w, delete: w };
}
const isRetirable = (e: any) => Number(e.retirable) === 1 && e.status !== 'retired';

function keyList(body: any): string[] {
  if (!isObj(body) || !Array.isArray(body.data) || body.data.some((k: any) => typeof k !== 'string')) {
    badInput('payload must be {data: [<entity key>, ...]}');
  }
  return body.data;
}
function retire(keys: string[]): string[] {
  const c = coreColls.entity,
    done: string[] = [];
  for (const k of keys) {
    const e = c.get(k);
    if (!e || e.status === 'retired') continue;
    e.__services = e.services ?? [];
    if (!bug('retire-keeps-services')) e.services = [];
    e.status = 'retired';
    e.mod_time = modTime();
    e.mod_timestamp = isoOffset();
    c.put(e);
    done.push(k);
  }
  return done;
}
function entityRoutes(ctx: Ctx, action: string): Reply | null {
  const c = coreColls.entity;
  if (action === 'count_retirable') {
    if (ctx.method !== 'GET') methodNotAllowed();
    return ok(
      readableRows(coreDefs.entity, ctx)
        .filter(isRetirable)
        .map((e) => {
          const s: any = { object_type: 'entity', title: e.title, retirable: 1, sec_grp: e.sec_grp, _key: e._key };
          if (!bug('count-retirable-no-permissions')) s.permissions = permissions(ctx);
          return s;
        }),
    );
  }
  if (!['retire', 'restore', 'retire_retirable'].includes(action)) return null;
  if (ctx.method !== 'POST') methodNotAllowed();
  mustWrite(ctx.user);
  if (action === 'retire') return ok(retire(keyList(ctx.body)));
  if (action === 'retire_retirable') {
    const flagged = c
      .all()
      .filter((e) => isRetirable(e) && canRead(ctx.user, e))
      .map((e) => e._key);
    return ok(retire(bug('retire-retirable-first-only') ? flagged.slice(0, 1) : flagged));
  }
  const done: string[] = [];
  for (const k of keyList(ctx.body)) {
    const e = c.get(k);
    if (!e || e.status !== 'retired') continue;
    e.status = 'active';
    e.retirable = 0;
    e.services = bug('restore-no-relink') ? [] : (e.__services ?? []);
    delete e.__services;
    e.mod_time = modTime();
    e.mod_timestamp = isoOffset();
    c.put(e);
    done.push(k);
  }
  return ok(done);
}

const KPI_DEFAULTS = (): any => ({
  title: '',
  service_id: '',
  type: 'kpis_primary',
  urgency: '5',
  target: '',
  search_type: 'adhoc',
  threshold_field: 'count',
  kpi_base_search: '',
  alert_on: 'aggregate',
  alert_lag: '30',
  search_alert_earliest: '5',
  entity_statop: 'avg',
  entity_id_fields: '',
  tz_offset: null,
  entity_alias_filtering_fields: null,
  backfill_earliest_time: '-7d',
  adaptive_thresholding_training_window: '-7d',
  anomaly_detection_training_window: '-14d',
  gap_severity_color: '#CCCCCC',
  gap_severity_color_light: '#EEEEEE',
  time_variate_thresholds: false,
  is_entity_breakdown: false,
  datamodel_filter: [],
  datamodel: { object: '', datamodel: '', field: '', owner_field: '' },
  entity_thresholds: thr('count'),
});
function kpiTemplate(k: any): any {
  const t = { ...KPI_DEFAULTS(), ...k };
  delete t._key;
  t.service_id = '';
  t.time_variate_thresholds_specification ??= {
    policies: {
      default_policy: {
        title: 'Default',
        aggregate_thresholds: t.aggregate_thresholds ?? thr(t.threshold_field),
        entity_thresholds: t.entity_thresholds,
        policy_type: 'static',
      },
    },
    time_blocks: [{ policy_key: 'default_policy', time_block_key: '00-00' }],
  };
  return t;
}
function templatize(ctx: Ctx, type: string, key: string): Reply {
  if (bug('templatize-kbs-refused') && type === 'kpi_base_search') badInput('templatize is supported only for service');
  if (type !== 'service' && type !== 'kpi_base_search' && !bug('templatize-any-type'))
    badInput(`templatize is supported only for service and kpi_base_search, not ${type}`);
  const o = out(coreDefs[type], getVisible(coreDefs[type], ctx, key), ctx);
  if (type !== 'service') {
    const t: any = { ...o };
    for (const f of ['_key', '_user', 'mod_source', 'mod_timestamp', 'identifying_name']) delete t[f];
    return ok(t);
  }
  return ok({
    title: o.title,
    description: o.description ?? '',
    service_template_id: '',
    sec_grp: o.sec_grp,
    object_type: 'base_service_template',
    _version: o._version,
    enabled: Number(o.enabled) ? 1 : 0,
    services_depends_on: o.services_depends_on ?? [],
    tags: o.tags ?? [],
    serviceTemplateId: [],
    entity_rules: o.entity_rules ?? [],
    kpis: bug('templatize-no-kpis') ? [] : (o.kpis ?? []).map(kpiTemplate),
  });
}
function serviceTemplateLink(ctx: Ctx, key: string): Reply {
  if (ctx.method === 'GET') {
    const s = getVisible(coreDefs.service, ctx, key);
    if (bug('template-link-get-service-key') && s.base_service_template_id) return ok({ _key: s._key });
    return ok({ _key: s.base_service_template_id ?? '' });
  }
  if (ctx.method !== 'POST') methodNotAllowed();
  mustWrite(ctx.user);
  if (!canReadTeam(ctx.user, GLOBAL) && !bug('link-template-no-global-check')) {
    refuse(403, 'forbidden', 'linking a service to a template requires read access to the Global team');
  }
  if (!isObj(ctx.body) || typeof ctx.body._key !== 'string' || !ctx.body._key) badInput('payload must be {_key: <template key>}');
  const s = coreColls.service.get(key);
  if (!s) notFound(`service '${key}' does not exist`);
  const t = coreColls.base_service_template.get(ctx.body._key);
  if (!t) notFound(`base_service_template '${ctx.body._key}' does not exist`);
  const rules = Array.isArray(t.entity_rules) ? t.entity_rules : [];
  s.entity_rules = bug('link-template-replaces-rules') ? [...rules] : [...(s.entity_rules ?? []), ...rules];
  s.base_service_template_id = t._key;
  s.mod_timestamp = isoOffset();
  coreColls.service.put(s);
  return ok({ _key: s._key });
}

// ---------- custom threshold windows ----------
function ctwId(ctx: Ctx, pathId?: string): string {
  const id = ctx.q.get('ctw_id') || ctx.q.get('custom_threshold_window_id') || pathId;
  if (!id) badInput("'ctw_id' is required");
  return id!;
}
function linkedKpis(ctx: Ctx): Reply {
  const w = getVisible(coreDefs.custom_threshold_windows, ctx, ctwId(ctx));
  const limit = intParam(ctx.q.get('limit'), 'limit');
  const rows: any[] = [];
  for (const ls of w.linked_services ?? []) {
    const s = coreColls.service.view(ls.service_id);
    for (const kid of ls.linked_kpi_ids ?? []) {
      const k = (s?.kpis ?? []).find((x: any) => x._key === kid);
      rows.push({ kpi_key: kid, kpi_title: k?.title ?? '', service_title: s?.title ?? '', service_key: ls.service_id });
    }
  }
  const shown = limit === undefined ? rows : limit === 0 ? (bug('ctw-linked-kpis-limit-zero') ? [] : rows) : rows.slice(0, limit);
  return ok({ linked_kpis: shown, count: rows.length });
}
function ctwAction(ctx: Ctx, pathId: string, action: string): Reply {
  if (ctx.method !== 'POST') methodNotAllowed();
  mustWrite(ctx.user);
  const c = coreColls.custom_threshold_windows;
  const id = action === 'stop' ? pathId : ctwId(ctx, pathId);
  const w = c.get(id);
  if (!w) notFound(`custom threshold window '${id}' does not exist`);
  if (action === 'stop') {
    if (String(w.status).toLowerCase() !== 'active') conflict(`window '${id}' is not active (status ${w.status})`);
    w.status = bug('ctw-status-not-lowercased') ? 'Stopped' : 'stopped';
    if (!bug('ctw-stop-no-timestamp')) w.last_stopped_time = Math.floor(nowSec());
    w.mod_timestamp = isoOffset();
    if (!bug('ctw-stop-not-saved')) c.put(w);
    return ok(out(coreDefs.custom_threshold_windows, w, ctx));
  }
  if (action === 'disconnect_kpis') {
    const was = w.linked_services ?? [];
    w.linked_services = [];
    if (bug('ctw-disconnect-returns-empty')) was.length = 0;
    w.mod_timestamp = isoOffset();
    c.put(w);
    return ok({ service_kpis_dict: was.map((l: any) => ({ service_id: l.service_id, linked_kpi_ids: l.linked_kpi_ids ?? [] })) });
  }
  // associate_service_kpi
  const b = ctx.body;
  const list = Array.isArray(b) ? b : isObj(b) && Array.isArray(b.services) ? b.services : null;
  if (!list) badInput('payload must be {services: [{_key: <service key>, kpi_ids: [<kpi key>]}]}');
  const linked: any[] = [];
  const ls: any[] = w.linked_services ?? [];
  for (const item of list!) {
    if (!isObj(item) || typeof item._key !== 'string' || !Array.isArray(item.kpi_ids)) badInput('every entry needs _key and kpi_ids');
    const s = coreColls.service.get(item._key);
    if (!s) continue;
    const known = new Set((s.kpis ?? []).map((k: any) => k._key));
    const ids = item.kpi_ids.filter((k: any) => known.has(k));
    if (!ids.length) continue;
    let entry = ls.find((l) => l.service_id === s._key);
    if (!entry) {
      entry = { service_id: s._key, linked_kpi_ids: [] };
      ls.push(entry);
    }
    for (const k of ids) if (!entry.linked_kpi_ids.includes(k)) entry.linked_kpi_ids.push(k);
    linked.push({ _key: s._key, kpi_ids: ids });
  }
  w.linked_services = ls;
  w.mod_timestamp = isoOffset();
  c.put(w);
  return ok({ services: linked });
}

export function coreRoutes(ctx: Ctx, rest: string[]): Reply {
  const [head, ...tail] = rest;
  if (!head) return notFound('object type missing');
  if (head === 'get_alias_list' && !tail.length) return ctx.method === 'GET' ? aliasList(ctx) : methodNotAllowed();
  if (head === 'get_supported_object_types' && !tail.length)
    return ctx.method === 'GET' ? ok(bug('supported-types-missing-relationship') ? [...CORE_TYPES] : [...SUPPORTED]) : methodNotAllowed();
  if (head === 'content_pack') return libraryRoutes(ctx, tail);
  if (head === 'content_pack_authorship') {
    if (tail[0] !== 'content_pack') return notFound('no such endpoint');
    return authoringRoutes(ctx, tail.slice(1));
  }
  const def = coreDefs[head];
  if (!def) return notFound(`unknown object type '${head}'`);
  if (head === 'entity' && tail.length === 1) {
    const r = entityRoutes(ctx, tail[0]);
    if (r) return r;
  }
  if (head === 'custom_threshold_windows') {
    if (tail.length === 1 && tail[0] === 'linked_kpis') return ctx.method === 'GET' ? linkedKpis(ctx) : methodNotAllowed();
    if (tail.length === 2 && ['stop', 'associate_service_kpi', 'disconnect_kpis'].includes(tail[1]))
      return ctwAction(ctx, tail[0], tail[1]);
  }
  if (bug('delete-key-any-type') && ctx.method === 'DELETE' && tail.length === 1 && !def.coll.get(tail[0])) {
    const other = SUPPORTED.find((t) => coreColls[t].get(tail[0]));
    if (other) return genericRoutes(coreDefs[other], ctx, tail);
  }
  if (tail.length === 2 && tail[1] === 'templatize') return ctx.method === 'GET' ? templatize(ctx, head, tail[0]) : methodNotAllowed();
  if (head === 'service' && tail.length === 2 && tail[1] === 'base_service_template') return serviceTemplateLink(ctx, tail[0]);
  return genericRoutes(def, ctx, tail);
}
