// biome-ignore-all lint/suspicious/noExplicitAny: stored objects are free-form JSON documents, read and written field by field
import http from 'node:http';
import { randomBytes, timingSafeEqual } from 'node:crypto';
import {
  HttpError,
  bad,
  notFound,
  forbidden,
  conflict,
  unprocessable,
  newKey,
  isPlainObject,
  sanitize,
  clone,
  compileFilter,
  sortList,
  parseIntParam,
  parseSortDir,
  parseBool,
  parseFields,
  project,
  nowEpoch,
  plainTimeString,
} from './util.js';
import {
  USERS,
  type User,
  GLOBAL_TEAM,
  LIMITED_TEAM,
  store,
  teamsOf,
  canRead,
  canWrite,
  canReadTeams,
  canWriteTeams,
  requireWriter,
  requireGlobalWrite,
  defaultTeamFor,
  validateTeamsExist,
  permissionsFor,
  stampCommon,
} from './model.js';
import {
  seedAll,
  PACK_CATALOG,
  UNREGISTERED_LOCAL_PACKS,
  PACK_LOAD_FAILURES,
  GROUP_TYPES,
  EPISODE_ACTIONS,
  ICON_CATEGORIES,
  type PackDef,
  thresholds,
} from './seed.js';

// ===================================================================== request context

interface Ctx {
  req: http.IncomingMessage;
  res: http.ServerResponse;
  method: string;
  user: User;
  pathUser: string;
  q: URLSearchParams;
  rawBody: string;
  contentType: string;
}

const MAX_BODY = 8 * 1024 * 1024;

function body(ctx: Ctx, opts: { optional?: boolean } = {}): any {
  const raw = ctx.rawBody;
  if (!raw || raw.trim() === '') {
    if (opts.optional) return undefined;
    throw bad('request body is required');
  }
  try {
    return sanitize(JSON.parse(raw));
  } catch {
    const t = raw.trim();
    if (ctx.contentType.includes('application/x-www-form-urlencoded') && t.includes('=') && !t.startsWith('{') && !t.startsWith('[')) {
      const out: Record<string, any> = {};
      for (const [k, v] of new URLSearchParams(raw)) {
        if (k === '__proto__' || k === 'constructor' || k === 'prototype') continue;
        out[k] = v;
      }
      return out;
    }
    throw bad('request body is not valid JSON');
  }
}

function objBody(ctx: Ctx): Record<string, any> {
  const b = body(ctx);
  if (!isPlainObject(b)) throw bad('request body must be a JSON object');
  return b;
}

// ===================================================================== generic object type handling

interface TypeSpec {
  store: string;
  objectType: string;
  requireTitle: boolean;
  teamScoped: boolean; // gets a default sec_grp on create
  normalize?: (o: any, ctx: Ctx, existing: any | null) => void;
  isProtected?: (o: any) => string | null; // reason when it cannot be deleted
  onDeleted?: (o: any) => void;
  noUpdate?: boolean;
  noDelete?: boolean;
}

function listShaped(ctx: Ctx, spec: TypeSpec, opts: { offsetParam?: string; filterParam?: string; limitParam?: string } = {}) {
  const st = store(spec.store);
  const pred = compileFilter(ctx.q.get(opts.filterParam ?? 'filter'));
  let rows = st.values().filter((o) => canRead(ctx.user, o) && (!pred || pred(o)));
  const sortKey = ctx.q.get('sort_key');
  rows = sortList(rows, sortKey?.trim() ? sortKey.trim() : null, parseSortDir(ctx.q.get('sort_dir')));
  const offset = parseIntParam(opts.offsetParam ?? 'offset', ctx.q.get(opts.offsetParam ?? 'offset')) ?? 0;
  const limit = parseIntParam(opts.limitParam ?? 'limit', ctx.q.get(opts.limitParam ?? 'limit'));
  rows = rows.slice(offset, limit !== null && limit > 0 ? offset + limit : undefined);
  return rows;
}

function listObjects(ctx: Ctx, spec: TypeSpec, opts: { offsetParam?: string; filterParam?: string } = {}) {
  const fields = parseFields(ctx.q);
  return listShaped(ctx, spec, opts).map((o) => project(clone(o), fields));
}

// A documented bug to switch on, by name (see manifest.json); none by default.
const BUG = process.env.BUG ?? '';

function countObjects(ctx: Ctx, spec: TypeSpec, filterParam = 'filter') {
  const pred = BUG === 'count-ignores-filter' ? undefined : compileFilter(ctx.q.get(filterParam));
  const n = store(spec.store)
    .values()
    .filter((o) => canRead(ctx.user, o) && (!pred || pred(o))).length;
  return { count: n };
}

function readable(ctx: Ctx, spec: TypeSpec, key: string) {
  const o = store(spec.store).get(key);
  if (!o || !canRead(ctx.user, o)) throw notFound(`${spec.objectType} '${key}' not found`);
  return o;
}

function checkTitle(spec: TypeSpec, o: any) {
  if (!spec.requireTitle) return;
  if (typeof o.title !== 'string' || o.title.trim() === '') {
    throw unprocessable(`required field 'title' is missing for object type '${spec.objectType}'`);
  }
}

/** Validates access and persists. existing: the stored version being replaced (or null). */
function persist(ctx: Ctx, spec: TypeSpec, obj: any, existing: any | null): any {
  requireWriter(ctx.user);
  if (existing && !canWrite(ctx.user, existing)) throw forbidden(`no write access to ${spec.objectType} '${existing._key}'`);
  if (typeof obj._key !== 'string' || !obj._key) obj._key = newKey();
  obj.object_type = spec.objectType;
  if (spec.objectType === 'team') {
    requireGlobalWrite(ctx.user, 'changing teams');
    obj.sec_grp = GLOBAL_TEAM;
  } else if (spec.teamScoped) {
    if (obj.sec_grp === undefined || obj.sec_grp === null || obj.sec_grp === '') {
      obj.sec_grp = existing?.sec_grp ?? defaultTeamFor(ctx.user);
    }
    if (typeof obj.sec_grp !== 'string') throw bad("'sec_grp' must be a string");
  }
  checkTitle(spec, obj);
  spec.normalize?.(obj, ctx, existing);
  const teams = spec.objectType === 'team' ? null : teamsOf(obj);
  validateTeamsExist(teams);
  if (!canWriteTeams(ctx.user, teams)) throw forbidden(`no write access to team(s) ${JSON.stringify(teams)}`);
  if (existing) {
    for (const f of ['create_time', 'create_by', 'create_source', '_owner']) {
      if (obj[f] === undefined && existing[f] !== undefined) obj[f] = existing[f];
    }
  }
  stampCommon(obj, spec.objectType, ctx, !existing);
  store(spec.store).set(obj._key, obj);
  return obj;
}

function createObject(ctx: Ctx, spec: TypeSpec, b: any) {
  requireWriter(ctx.user);
  if (!isPlainObject(b)) throw bad('request body must be a JSON object');
  const obj = clone(b);
  if (obj._key !== undefined && (typeof obj._key !== 'string' || obj._key.trim() === '')) throw bad("'_key' must be a non-empty string");
  let existing: any = null;
  if (obj._key) {
    existing = store(spec.store).get(obj._key) ?? null;
    if (existing && !canRead(ctx.user, existing)) throw forbidden(`no access to ${spec.objectType} '${obj._key}'`);
    if (existing && spec.noUpdate) throw new HttpError(405, 'not_supported', `${spec.objectType} objects cannot be updated`);
  }
  const saved = persist(ctx, spec, obj, existing);
  return { _key: saved._key };
}

function updateObject(ctx: Ctx, spec: TypeSpec, key: string, b: any, partial: boolean) {
  requireWriter(ctx.user);
  if (spec.noUpdate) throw new HttpError(405, 'not_supported', `${spec.objectType} objects cannot be updated`);
  if (!isPlainObject(b)) throw bad('request body must be a JSON object');
  const existing = readable(ctx, spec, key);
  let obj: any;
  if (partial) {
    obj = clone(existing);
    for (const k of Object.keys(b)) {
      if (k === '_key' || k === 'object_type') continue;
      obj[k] = clone(b[k]);
    }
  } else {
    obj = clone(b);
  }
  obj._key = key;
  const saved = persist(ctx, spec, obj, existing);
  return { _key: saved._key };
}

function deleteOne(ctx: Ctx, spec: TypeSpec, key: string) {
  requireWriter(ctx.user);
  if (spec.noDelete) throw new HttpError(405, 'not_supported', `${spec.objectType} objects cannot be deleted`);
  const o = readable(ctx, spec, key);
  if (!canWrite(ctx.user, o)) throw forbidden(`no write access to ${spec.objectType} '${key}'`);
  if (spec.objectType === 'team') requireGlobalWrite(ctx.user, 'deleting teams');
  const why = spec.isProtected?.(o);
  if (why) throw conflict(why);
  store(spec.store).delete(key);
  spec.onDeleted?.(o);
  return o;
}

function bulkDelete(ctx: Ctx, spec: TypeSpec, opts: { offsetParam?: string; filterParam?: string } = {}) {
  requireWriter(ctx.user);
  if (spec.noDelete) throw new HttpError(405, 'not_supported', `${spec.objectType} objects cannot be deleted`);
  if (spec.objectType === 'team') requireGlobalWrite(ctx.user, 'deleting teams');
  const rows = listShaped(ctx, spec, opts);
  for (const o of rows) {
    if (!canWrite(ctx.user, o)) continue;
    if (spec.isProtected?.(o)) continue;
    store(spec.store).delete(o._key);
    spec.onDeleted?.(o);
  }
}

function bulkUpdate(ctx: Ctx, spec: TypeSpec) {
  requireWriter(ctx.user);
  if (spec.noUpdate && BUG !== 'comment-bulk-update-applies')
    throw new HttpError(405, 'not_supported', `${spec.objectType} objects cannot be updated`);
  const partial = parseBool(ctx.q.get('is_partial_data'), false);
  let b = body(ctx);
  if (isPlainObject(b)) b = [b];
  if (!Array.isArray(b) || b.length === 0) throw bad('request body must be a non-empty array of objects');
  const st = store(spec.store);
  // validate everything first so that a bad entry changes nothing
  const plan: { obj: any; existing: any | null }[] = [];
  for (const item of b) {
    if (!isPlainObject(item)) throw bad('every entry must be a JSON object');
    if (typeof item._key !== 'string' || !item._key) throw bad("every entry must carry a '_key'");
    const existing = st.get(item._key) ?? null;
    if (existing && !canRead(ctx.user, existing)) throw notFound(`${spec.objectType} '${item._key}' not found`);
    if (!existing && partial) throw notFound(`${spec.objectType} '${item._key}' not found`);
    let obj: any;
    if (partial && existing) {
      obj = clone(existing);
      for (const k of Object.keys(item)) if (k !== 'object_type') obj[k] = clone(item[k]);
    } else obj = clone(item);
    plan.push({ obj, existing });
  }
  // dry-run access/schema checks
  for (const { obj, existing } of plan) {
    if (existing && !canWrite(ctx.user, existing)) throw forbidden(`no write access to ${spec.objectType} '${existing._key}'`);
    const probe = clone(obj);
    probe.object_type = spec.objectType;
    if (spec.teamScoped && !probe.sec_grp) probe.sec_grp = existing?.sec_grp ?? defaultTeamFor(ctx.user);
    if (spec.objectType === 'team') requireGlobalWrite(ctx.user, 'changing teams');
    checkTitle(spec, probe);
    const teams = spec.objectType === 'team' ? null : teamsOf(probe);
    validateTeamsExist(teams);
    if (!canWriteTeams(ctx.user, teams)) throw forbidden(`no write access to team(s) ${JSON.stringify(teams)}`);
  }
  const keys = plan.map(({ obj, existing }) => persist(ctx, spec, obj, existing)._key);
  return { _key: keys.length === 1 ? keys[0] : keys };
}

/** Routes [type], [type,'count'], [type,'bulk_update'], [type,key]. Returns undefined when the route does not match. */
function genericRoutes(
  ctx: Ctx,
  spec: TypeSpec,
  rest: string[],
  opts: { offsetParam?: string; filterParam?: string } = {},
): Reply | undefined {
  const m = ctx.method;
  if (rest.length === 0) {
    if (m === 'GET') return ok(listObjects(ctx, spec, opts));
    if (m === 'POST' || m === 'PUT') return ok(createObject(ctx, spec, body(ctx)));
    if (m === 'DELETE') {
      bulkDelete(ctx, spec, opts);
      return noContent();
    }
    return notAllowed('GET, POST, DELETE');
  }
  if (rest.length === 1 && rest[0] === 'count') {
    if (m === 'GET') return ok(countObjects(ctx, spec, opts.filterParam));
    return notAllowed('GET');
  }
  if (rest.length === 1 && rest[0] === 'bulk_update') {
    if (m === 'POST' || m === 'PUT') return ok(bulkUpdate(ctx, spec));
    return notAllowed('POST');
  }
  if (rest.length === 1) {
    const key = rest[0];
    if (m === 'GET') return ok(clone(readable(ctx, spec, key)));
    if (m === 'POST' || m === 'PUT') return ok(updateObject(ctx, spec, key, body(ctx), parseBool(ctx.q.get('is_partial_data'), false)));
    if (m === 'DELETE') {
      deleteOne(ctx, spec, key);
      return noContent();
    }
    return notAllowed('GET, POST, DELETE');
  }
  return undefined;
}

// ===================================================================== replies

interface Reply {
  status: number;
  body?: any;
  headers?: Record<string, string>;
}
const ok = (b: any, status = 200): Reply => ({ status, body: b });
const noContent = (): Reply => ({ status: 204 });
const notAllowed = (allow: string): Reply => {
  throw new HttpError(405, 'method_not_allowed', `method not allowed; allowed: ${allow}`, { allow });
};

// ===================================================================== core interface specs

function normEntity(o: any) {
  for (const part of ['identifier', 'informational']) {
    const v = isPlainObject(o[part]) ? o[part] : {};
    const fields = Array.isArray(v.fields) ? v.fields.filter((x: any) => typeof x === 'string') : [];
    for (const f of fields) {
      if (typeof o[f] === 'string') o[f] = [o[f]];
      else if (!Array.isArray(o[f])) o[f] = [];
    }
    let values = Array.isArray(v.values) ? v.values.map(String) : [];
    if (values.length === 0) values = fields.flatMap((f: string) => (o[f] as any[]).map(String));
    o[part] = { fields, values };
  }
  if (!Array.isArray(o.services)) o.services = [];
  o.services = o.services
    .map((s: any) => {
      const key = typeof s === 'string' ? s : isPlainObject(s) ? s._key : undefined;
      if (typeof key !== 'string' || !key) return null;
      const svc = store('itoa:service').get(key);
      return { _key: key, title: (isPlainObject(s) && typeof s.title === 'string' ? s.title : svc?.title) ?? '' };
    })
    .filter(Boolean);
}

function normService(o: any) {
  if (!Array.isArray(o.kpis)) o.kpis = [];
  o.kpis = o.kpis.filter(isPlainObject).map((k: any) => {
    if (typeof k._key !== 'string' || !k._key) k._key = newKey();
    k.service_id = o._key ?? '';
    return k;
  });
  if (!Array.isArray(o.entity_rules)) o.entity_rules = [];
  if (o.enabled === undefined) o.enabled = 0;
  if (!Array.isArray(o.services_depends_on)) o.services_depends_on = [];
  if (!Array.isArray(o.tags)) o.tags = [];
  if (typeof o.base_service_template_id !== 'string') o.base_service_template_id = '';
}

function normCtw(o: any) {
  o.status = typeof o.status === 'string' && o.status ? o.status.toLowerCase() : 'active';
  if (!Array.isArray(o.linked_services)) o.linked_services = [];
  if (!Array.isArray(o.overlapping_kpis)) o.overlapping_kpis = [];
  if (!Array.isArray(o.sec_grp_list)) o.sec_grp_list = [o.sec_grp];
  if (o.window_config_static === undefined) o.window_config_static = {};
  for (const f of ['can_view', 'can_link', 'can_edit', 'can_transition']) if (typeof o[f] !== 'boolean') o[f] = true;
  if (typeof o.recurrence !== 'boolean') o.recurrence = Boolean(o.recurrence);
  if (typeof o.is_overlapping !== 'boolean') o.is_overlapping = false;
  if (o.last_stopped_time === undefined) o.last_stopped_time = 0;
}

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
const SUPPORTED_CORE_TYPES = [...CORE_TYPES, 'entity_relationship', 'entity_relationship_rule'];
const NO_TITLE_TYPES = new Set([
  'home_view',
  'event_management_state',
  'entity_filter_rule',
  'entity_relationship',
  'entity_relationship_rule',
]);

const retiredLinks = new Map<string, any[]>(); // entity key -> services it was linked to before retirement

const coreSpecs: Record<string, TypeSpec> = {};
for (const t of SUPPORTED_CORE_TYPES) {
  coreSpecs[t] = {
    store: 'itoa:' + t,
    objectType: t,
    requireTitle: !NO_TITLE_TYPES.has(t),
    teamScoped: true,
  };
}
coreSpecs.entity.normalize = (o) => normEntity(o);
coreSpecs.entity.onDeleted = (o) => retiredLinks.delete(o._key);
coreSpecs.service.normalize = (o) => normService(o);
coreSpecs.service.onDeleted = (o) => {
  for (const e of store('itoa:entity').values()) {
    if (Array.isArray(e.services)) e.services = e.services.filter((s: any) => s?._key !== o._key);
  }
  for (const w of store('itoa:custom_threshold_windows').values()) {
    if (Array.isArray(w.linked_services)) w.linked_services = w.linked_services.filter((l: any) => l?.service_id !== o._key);
  }
};
coreSpecs.base_service_template.normalize = (o) => {
  if (!Array.isArray(o.kpis)) o.kpis = [];
  if (!Array.isArray(o.entity_rules)) o.entity_rules = [];
  if (!Array.isArray(o.linked_services)) o.linked_services = [];
  o.total_linked_services = o.linked_services.length;
};
coreSpecs.custom_threshold_windows.normalize = (o) => normCtw(o);
coreSpecs.team.isProtected = (o) =>
  o._key === GLOBAL_TEAM ? 'the Global team cannot be deleted' : o._key === LIMITED_TEAM ? 'built-in team cannot be deleted' : null;

// ===================================================================== core interface routes

function aliasList(ctx: Ctx) {
  const ident = new Set<string>();
  const info = new Set<string>();
  for (const e of store('itoa:entity').values()) {
    if (!canRead(ctx.user, e)) continue;
    for (const f of e.identifier?.fields ?? []) ident.add(f);
    for (const f of e.informational?.fields ?? []) info.add(f);
  }
  return { identifier: [...ident].sort(), informational: [...info].sort() };
}

const KPI_DEFAULTS = () => ({
  title: '',
  service_id: '',
  type: 'kpis_primary',
  urgency: '5',
  target: '',
  search_type: 'adhoc',
  threshold_field: '',
  kpi_base_search: '',
  alert_on: 'both',
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
  entity_thresholds: thresholds(),
  aggregate_thresholds: thresholds(),
  time_variate_thresholds_specification: {
    policies: {
      default_policy: { title: 'Default', aggregate_thresholds: thresholds(), entity_thresholds: thresholds(), policy_type: 'static' },
    },
    time_blocks: [],
  },
});

function templatize(ctx: Ctx, type: string, key: string) {
  if (type !== 'service' && type !== 'kpi_base_search')
    throw bad(`templatize is supported only for 'service' and 'kpi_base_search', not '${type}'`);
  const o = clone(readable(ctx, coreSpecs[type], key));
  const strip = [
    '_key',
    'mod_time',
    'mod_timestamp',
    'mod_source',
    '_user',
    'identifying_name',
    'create_time',
    'create_by',
    'create_source',
    'mod_by',
  ];
  if (type === 'service') {
    const kpis = (o.kpis ?? []).map((k: any) => {
      const t = { ...KPI_DEFAULTS(), ...clone(k) };
      delete t._key;
      t.service_id = '';
      return t;
    });
    return {
      title: o.title,
      description: o.description ?? '',
      service_template_id: o.base_service_template_id ?? '',
      sec_grp: o.sec_grp,
      object_type: 'service',
      _version: o._version,
      enabled: typeof o.enabled === 'number' ? o.enabled : parseBool(o.enabled, false) ? 1 : 0,
      services_depends_on: [],
      tags: Array.isArray(o.tags) ? o.tags : [],
      serviceTemplateId: o.base_service_template_id ? [o.base_service_template_id] : [],
      entity_rules: o.entity_rules ?? [],
      kpis,
    };
  }
  for (const f of strip) delete o[f];
  return o;
}

function getServiceTemplateLink(ctx: Ctx, key: string) {
  const svc = readable(ctx, coreSpecs.service, key);
  return { _key: svc.base_service_template_id ? svc.base_service_template_id : null };
}

function linkServiceTemplate(ctx: Ctx, key: string) {
  requireWriter(ctx.user);
  const b = objBody(ctx);
  const svc = readable(ctx, coreSpecs.service, key);
  if (!canWrite(ctx.user, svc)) throw forbidden(`no write access to service '${key}'`);
  if (!canReadTeams(ctx.user, [GLOBAL_TEAM])) throw forbidden('linking a service template requires read access to the Global team');
  if (typeof b._key !== 'string' || !b._key) throw bad('payload must be {"_key": <service template key>}');
  const tpl = readable(ctx, coreSpecs.base_service_template, b._key);
  const updated = clone(svc);
  updated.base_service_template_id = tpl._key;
  // always append the template's entity rules
  updated.entity_rules = [...(Array.isArray(updated.entity_rules) ? updated.entity_rules : []), ...clone(tpl.entity_rules ?? [])];
  const existingTitles = new Set((updated.kpis ?? []).map((k: any) => k.title));
  for (const k of tpl.kpis ?? []) {
    if (existingTitles.has(k.title)) continue;
    const nk = clone(k);
    nk.base_service_template_id = tpl._key;
    nk._key = newKey();
    updated.kpis.push(nk);
  }
  // unlink from previous template
  if (svc.base_service_template_id && svc.base_service_template_id !== tpl._key) {
    const prev = store('itoa:base_service_template').get(svc.base_service_template_id);
    if (prev && Array.isArray(prev.linked_services)) {
      prev.linked_services = prev.linked_services.filter((s: string) => s !== key);
      prev.total_linked_services = prev.linked_services.length;
    }
  }
  persist(ctx, coreSpecs.service, updated, svc);
  if (!Array.isArray(tpl.linked_services)) tpl.linked_services = [];
  if (!tpl.linked_services.includes(key)) tpl.linked_services.push(key);
  tpl.total_linked_services = tpl.linked_services.length;
  return { _key: key };
}

function keyList(b: any): string[] {
  const d = isPlainObject(b) ? b.data : b;
  if (typeof d === 'string' && d) return [d];
  if (!Array.isArray(d)) throw bad('payload must be {"data": [<entity key>, ...]}');
  return d.filter((x: any) => typeof x === 'string' && x);
}

function retireEntities(ctx: Ctx, keys: string[]): string[] {
  const st = store('itoa:entity');
  const done: string[] = [];
  for (const k of keys) {
    const e = st.get(k);
    if (!e || !canRead(ctx.user, e) || !canWrite(ctx.user, e)) continue;
    if (e.retired === 1) continue;
    const upd = clone(e);
    retiredLinks.set(k, clone(upd.services ?? []));
    upd.services = [];
    upd.retired = 1;
    upd.retired_time = Math.floor(Date.now() / 1000);
    delete upd.retirable;
    persist(ctx, coreSpecs.entity, upd, e);
    done.push(k);
  }
  return done;
}

function restoreEntities(ctx: Ctx, keys: string[]): string[] {
  const st = store('itoa:entity');
  const done: string[] = [];
  for (const k of keys) {
    const e = st.get(k);
    if (!e || !canRead(ctx.user, e) || !canWrite(ctx.user, e)) continue;
    if (e.retired !== 1) continue;
    const upd = clone(e);
    const svcs = (retiredLinks.get(k) ?? []).filter((s: any) => store('itoa:service').has(s._key));
    upd.services = svcs;
    upd.retired = 0;
    delete upd.retired_time;
    persist(ctx, coreSpecs.entity, upd, e);
    retiredLinks.delete(k);
    done.push(k);
  }
  return done;
}

function entityRoutes(ctx: Ctx, rest: string[]): Reply | undefined {
  if (rest.length !== 1) return undefined;
  const m = ctx.method;
  switch (rest[0]) {
    case 'count_retirable': {
      if (m !== 'GET') return notAllowed('GET');
      const out = store('itoa:entity')
        .values()
        .filter((e) => canRead(ctx.user, e) && Number(e.retirable) === 1 && e.retired !== 1)
        .map((e) => ({
          object_type: 'entity',
          title: e.title,
          retirable: 1,
          sec_grp: e.sec_grp,
          _key: e._key,
          permissions: permissionsFor(ctx.user, e),
        }));
      return ok(out);
    }
    case 'retire':
      if (m !== 'POST') return notAllowed('POST');
      requireWriter(ctx.user);
      return ok(retireEntities(ctx, keyList(body(ctx))));
    case 'restore':
      if (m !== 'POST') return notAllowed('POST');
      requireWriter(ctx.user);
      return ok(restoreEntities(ctx, keyList(body(ctx))));
    case 'retire_retirable': {
      if (m !== 'POST') return notAllowed('POST');
      requireWriter(ctx.user);
      const keys = store('itoa:entity')
        .values()
        .filter((e) => Number(e.retirable) === 1 && e.retired !== 1)
        .map((e) => e._key);
      return ok(retireEntities(ctx, keys));
    }
  }
  return undefined;
}

// ---------------------------------------------------------------- custom threshold windows

function ctwIdFrom(ctx: Ctx, pathId?: string): string {
  const id = pathId ?? ctx.q.get('ctw_id') ?? ctx.q.get('custom_threshold_window_id') ?? '';
  if (!id) throw bad('custom threshold window id is required (ctw_id)');
  return id;
}

function serviceKpiPairs(b: any): { svc: string; kpis: string[] | null }[] {
  let list: any[] = [];
  if (Array.isArray(b)) list = b;
  else if (isPlainObject(b)) {
    if (Array.isArray(b.services)) list = b.services;
    else if (Array.isArray(b.linked_services)) list = b.linked_services;
    else if (Array.isArray(b.service_kpis_dict)) list = b.service_kpis_dict;
    else if (typeof b._key === 'string' || typeof b.service_id === 'string') list = [b];
  }
  const out: { svc: string; kpis: string[] | null }[] = [];
  for (const it of list) {
    if (!isPlainObject(it)) continue;
    const svc = typeof it._key === 'string' ? it._key : typeof it.service_id === 'string' ? it.service_id : '';
    if (!svc) continue;
    const raw = it.kpi_ids ?? it.linked_kpi_ids;
    const kpis = Array.isArray(raw) ? raw.filter((x: any) => typeof x === 'string') : typeof raw === 'string' ? [raw] : null;
    out.push({ svc, kpis });
  }
  return out;
}

function ctwWritable(ctx: Ctx, id: string) {
  requireWriter(ctx.user);
  const w = readable(ctx, coreSpecs.custom_threshold_windows, id);
  if (!canWrite(ctx.user, w)) throw forbidden(`no write access to custom threshold window '${id}'`);
  return w;
}

function associateServiceKpi(ctx: Ctx, pathId?: string) {
  requireWriter(ctx.user);
  const b = body(ctx, { optional: true });
  // window ids: path, ctw_id, or keys given in the payload
  const ids = new Set<string>();
  if (pathId) ids.add(pathId);
  for (const p of (ctx.q.get('ctw_id') ?? '').split(',')) if (p.trim()) ids.add(p.trim());
  const payloadKeys =
    typeof b === 'string'
      ? [b]
      : Array.isArray(b)
        ? b.filter((x) => typeof x === 'string')
        : isPlainObject(b) && Array.isArray(b.ctw_ids)
          ? b.ctw_ids
          : [];
  for (const k of payloadKeys) if (typeof k === 'string' && k) ids.add(k);
  if (ids.size === 0) throw bad('custom threshold window id is required (ctw_id)');
  const windows = [...ids].map((id) => ctwWritable(ctx, id));
  const pairs = serviceKpiPairs(b);
  if (pairs.length === 0)
    throw bad('payload must name the services and KPIs to link, e.g. {"services": [{"_key": ..., "kpi_ids": [...]}]}');
  const linked: { _key: string; kpi_ids: string[] }[] = [];
  for (const { svc, kpis } of pairs) {
    const s = store('itoa:service').get(svc);
    if (!s || !canRead(ctx.user, s)) continue;
    const available = new Set<string>((s.kpis ?? []).map((k: any) => String(k._key)));
    const chosen = (kpis ?? [...available]).filter((k) => available.has(k));
    if (chosen.length === 0) continue;
    const entry = linked.find((l) => l._key === svc);
    if (entry) entry.kpi_ids = [...new Set([...entry.kpi_ids, ...chosen])];
    else linked.push({ _key: svc, kpi_ids: [...new Set(chosen)] });
  }
  for (const w of windows) {
    const upd = clone(w);
    for (const l of linked) {
      const cur = upd.linked_services.find((x: any) => x.service_id === l._key);
      if (cur) cur.linked_kpi_ids = [...new Set([...(cur.linked_kpi_ids ?? []), ...l.kpi_ids])];
      else upd.linked_services.push({ service_id: l._key, linked_kpi_ids: [...l.kpi_ids] });
    }
    persist(ctx, coreSpecs.custom_threshold_windows, upd, w);
  }
  return { services: linked };
}

function disconnectKpis(ctx: Ctx, pathId?: string) {
  const w = ctwWritable(ctx, ctwIdFrom(ctx, pathId));
  const b = body(ctx, { optional: true });
  const pairs = serviceKpiPairs(b);
  const upd = clone(w);
  const removed: { service_id: string; linked_kpi_ids: string[] }[] = [];
  if (pairs.length === 0) {
    for (const l of upd.linked_services) removed.push({ service_id: l.service_id, linked_kpi_ids: [...(l.linked_kpi_ids ?? [])] });
    upd.linked_services = [];
  } else {
    for (const { svc, kpis } of pairs) {
      const cur = upd.linked_services.find((x: any) => x.service_id === svc);
      if (!cur) continue;
      const drop = (cur.linked_kpi_ids ?? []).filter((k: string) => !kpis || kpis.includes(k));
      if (drop.length === 0) continue;
      removed.push({ service_id: svc, linked_kpi_ids: drop });
      cur.linked_kpi_ids = (cur.linked_kpi_ids ?? []).filter((k: string) => !drop.includes(k));
    }
    upd.linked_services = upd.linked_services.filter((x: any) => (x.linked_kpi_ids ?? []).length > 0);
  }
  persist(ctx, coreSpecs.custom_threshold_windows, upd, w);
  return { service_kpis_dict: removed };
}

function linkedKpis(ctx: Ctx) {
  const id = ctwIdFrom(ctx);
  const w = readable(ctx, coreSpecs.custom_threshold_windows, id);
  const all: any[] = [];
  for (const l of w.linked_services ?? []) {
    const s = store('itoa:service').get(l.service_id);
    if (!s || !canRead(ctx.user, s)) continue;
    for (const k of l.linked_kpi_ids ?? []) {
      const kpi = (s.kpis ?? []).find((x: any) => x._key === k);
      if (!kpi) continue;
      all.push({ kpi_key: k, kpi_title: kpi.title ?? '', service_title: s.title ?? '', service_key: s._key });
    }
  }
  const offset = parseIntParam('offset', ctx.q.get('offset')) ?? 0;
  const limit = parseIntParam('limit', ctx.q.get('limit') ?? ctx.q.get('count'));
  const page = all.slice(offset, limit ? offset + limit : undefined);
  return { linked_kpis: page, count: all.length };
}

function stopWindow(ctx: Ctx, id: string) {
  const w = ctwWritable(ctx, id);
  if (String(w.status).toLowerCase() !== 'active')
    throw conflict(`custom threshold window '${id}' is not active (status: ${String(w.status).toLowerCase()})`);
  const upd = clone(w);
  upd.status = 'stopped';
  upd.last_stopped_time = Math.floor(Date.now() / 1000);
  const saved = persist(ctx, coreSpecs.custom_threshold_windows, upd, w);
  return clone(saved);
}

function ctwRoutes(ctx: Ctx, rest: string[]): Reply | undefined {
  const m = ctx.method;
  if (rest.length === 1 && rest[0] === 'linked_kpis') {
    if (m !== 'GET') return notAllowed('GET');
    return ok(linkedKpis(ctx));
  }
  if (rest.length === 1 && (rest[0] === 'associate_service_kpi' || rest[0] === 'disconnect_kpis' || rest[0] === 'stop')) {
    if (m !== 'POST') return notAllowed('POST');
    if (rest[0] === 'associate_service_kpi') return ok(associateServiceKpi(ctx));
    if (rest[0] === 'disconnect_kpis') return ok(disconnectKpis(ctx));
    return ok(stopWindow(ctx, ctwIdFrom(ctx)));
  }
  if (rest.length === 2 && ['associate_service_kpi', 'disconnect_kpis', 'stop'].includes(rest[1])) {
    if (m !== 'POST') return notAllowed('POST');
    if (rest[1] === 'associate_service_kpi') return ok(associateServiceKpi(ctx, rest[0]));
    if (rest[1] === 'disconnect_kpis') return ok(disconnectKpis(ctx, rest[0]));
    return ok(stopWindow(ctx, rest[0]));
  }
  return undefined;
}

// ---------------------------------------------------------------- content pack library

const library = new Map<string, PackDef>(PACK_CATALOG.map((p) => [p.id, p]));
const localApps = new Map<string, PackDef>([...PACK_CATALOG, ...UNREGISTERED_LOCAL_PACKS].map((p) => [p.id, p]));
const installedVersions = new Map<string, string[]>();

function packEntry(p: PackDef) {
  return {
    id: p.id,
    title: p.title,
    description: p.description,
    overview: p.overview,
    author: p.author,
    version: p.version,
    icon: p.icon,
    help_links: [...p.help_links],
    installed_versions: [...(installedVersions.get(p.id) ?? [])],
    screenshots: clone(p.screenshots),
    main_screenshot: p.screenshots[0] ? clone(p.screenshots[0]) : { path: '', thumb: '' },
  };
}

function findPack(name: string, version: string): PackDef {
  const p = library.get(name);
  if (!p) throw notFound(`content pack '${name}' not found`);
  if (p.version !== version && version !== 'latest')
    throw notFound(`content pack '${name}' has no version '${version}' (available: ${p.version})`);
  return p;
}

function groupStore(group: string) {
  return GROUP_TYPES[group] ? store(GROUP_TYPES[group].store) : null;
}

function preview(p: PackDef) {
  const out: Record<string, any> = {};
  for (const [group, objs] of Object.entries(p.contents)) {
    const st = groupStore(group);
    out[group] = objs.map((o) => ({
      id: o.id,
      title: o.title,
      description: o.description,
      entitlement_status: true,
      installed: Boolean(st?.has(o.id)),
      has_dependency: Boolean(o.has_dependency),
    }));
  }
  out.saved_searches = { has_saved_searches: p.saved_searches.length > 0, has_consistent_status: true };
  return out;
}

function selectedIds(content: any, group: string): Set<string> | null {
  // null => everything in that group
  if (content === undefined || content === null) return null;
  if (Array.isArray(content)) return new Set(content.filter((x: any) => typeof x === 'string'));
  const type = GROUP_TYPES[group]?.type;
  const ids = [...(Array.isArray(content[group]) ? content[group] : []), ...(type && Array.isArray(content[type]) ? content[type] : [])];
  return new Set(ids.filter((x: any) => typeof x === 'string'));
}

function buildInstalled(p: PackDef, group: string, o: any, opts: { prefix: string; enabled: boolean; backfill: boolean }) {
  const gt = GROUP_TYPES[group];
  const now = new Date();
  const obj: any = {
    _key: o.id,
    title: opts.prefix + o.title,
    description: o.description,
    sec_grp: GLOBAL_TEAM,
    source_content_pack: { id: p.id, version: p.version },
  };
  switch (gt.type) {
    case 'service':
      Object.assign(obj, {
        enabled: opts.enabled ? 1 : 0,
        kpis: [],
        entity_rules: [],
        services_depends_on: [],
        tags: ['content_pack'],
        base_service_template_id: '',
        backfill_enabled: opts.backfill,
      });
      break;
    case 'correlation_search':
      Object.assign(obj, { name: obj.title, disabled: opts.enabled ? 0 : 1, search: '| makeresults', cron_schedule: '*/5 * * * *' });
      break;
    case 'notable_aggregation_policy':
      Object.assign(obj, { disabled: opts.enabled ? 0 : 1, group_severity: 'medium' });
      break;
    case 'kpi_base_search':
      Object.assign(obj, { base_search: '| makeresults', metrics: [] });
      break;
    case 'base_service_template':
      Object.assign(obj, { kpis: [], entity_rules: [], linked_services: [], total_linked_services: 0 });
      break;
  }
  stampCommon(obj, gt.type, { user: USERS.admin, pathUser: 'nobody' }, true);
  obj.mod_source = 'content_pack_install';
  void now;
  return obj;
}

const platformSavedSearches = new Map<string, { name: string; disabled: boolean; app: string }>();

function installPack(ctx: Ctx, p: PackDef) {
  requireGlobalWrite(ctx.user, 'installing a content pack');
  const b = body(ctx, { optional: true }) ?? {};
  if (!isPlainObject(b)) throw bad('install payload must be a JSON object');
  const content = b.content;
  if (content !== undefined && content !== null && !Array.isArray(content) && !isPlainObject(content))
    throw bad("'content' must map object types to arrays of identifiers");
  const resolution = b.resolution;
  if (resolution !== undefined && resolution !== null && resolution !== '' && resolution !== 'overwrite' && resolution !== 'skip')
    throw bad("'resolution' must be 'overwrite' or 'skip'");
  if (b.prefix !== undefined && b.prefix !== null && typeof b.prefix !== 'string') throw bad("'prefix' must be a string");
  const opts = {
    prefix: typeof b.prefix === 'string' ? b.prefix : '',
    enabled: parseBool(b.enabled, false),
    backfill: parseBool(b.backfill, true),
  };

  const success: any[] = [];
  const failure: any[] = [];
  const known = new Set<string>();
  for (const [group, objs] of Object.entries(p.contents)) {
    const sel = selectedIds(content, group);
    const st = groupStore(group);
    if (!st) continue;
    const done: { id: string; title: string }[] = [];
    for (const o of objs) {
      known.add(o.id);
      if (sel && !sel.has(o.id)) continue;
      const existing = st.get(o.id);
      if (existing) {
        if (resolution === 'skip') continue;
        if (resolution !== 'overwrite') {
          failure.push({ content_type: group, id: o.id, title: opts.prefix + o.title, type: 'OBJECT_ALREADY_EXISTS' });
          continue;
        }
      }
      const obj = buildInstalled(p, group, o, opts);
      st.set(obj._key, obj);
      done.push({ id: o.id, title: obj.title });
    }
    if (done.length) success.push({ [group]: done });
  }
  // identifiers asked for that the pack does not contain
  if (content) {
    const asked: [string, string][] = Array.isArray(content)
      ? content.filter((x: any) => typeof x === 'string').map((x: string) => ['unknown', x])
      : Object.entries(content).flatMap(([g, ids]) =>
          Array.isArray(ids) ? ids.filter((x) => typeof x === 'string').map((x: string) => [g, x] as [string, string]) : [],
        );
    for (const [g, id] of asked) {
      if (g === 'saved_searches' || p.saved_searches.includes(id)) continue;
      if (!known.has(id)) failure.push({ content_type: g, id, title: '', type: 'OBJECT_NOT_FOUND' });
    }
  }
  // saved searches: everything when no selection is given, otherwise only the names listed
  let pick: Set<string> | null = null;
  let wantSaved = true;
  if (Array.isArray(content)) pick = new Set(content.filter((x: any) => typeof x === 'string'));
  else if (isPlainObject(content)) {
    if (Array.isArray(content.saved_searches)) pick = new Set(content.saved_searches.filter((x: any) => typeof x === 'string'));
    else wantSaved = false;
  }
  const ss = { action_performed: opts.enabled ? 'enable' : 'install', success: [] as string[], failure: [] as any[] };
  if (wantSaved) {
    for (const name of p.saved_searches) {
      if (pick && !pick.has(name)) continue;
      if (platformSavedSearches.has(name)) {
        if (resolution === 'skip') continue;
        if (resolution !== 'overwrite') {
          ss.failure.push({ name, error_message: `saved search '${name}' already exists` });
          continue;
        }
      }
      platformSavedSearches.set(name, { name, disabled: !opts.enabled, app: p.id });
      ss.success.push(name);
    }
    if (pick && isPlainObject(content)) {
      for (const n of pick)
        if (!p.saved_searches.includes(n)) ss.failure.push({ name: n, error_message: `saved search '${n}' is not part of ${p.id}` });
    }
  }
  if (success.length || ss.success.length) {
    const v = installedVersions.get(p.id) ?? [];
    if (!v.includes(p.version)) v.push(p.version);
    installedVersions.set(p.id, v);
  }
  return { success, failure, saved_searches: ss };
}

function refreshPacks(ctx: Ctx) {
  requireGlobalWrite(ctx.user, 'refreshing content packs');
  const b = body(ctx, { optional: true }) ?? {};
  if (!isPlainObject(b)) throw bad("payload must be an object with 'apps_added' and/or 'apps_removed'");
  const asList = (v: any) =>
    Array.isArray(v)
      ? v.filter((x) => typeof x === 'string')
      : typeof v === 'string' && v
        ? v
            .split(',')
            .map((s) => s.trim())
            .filter(Boolean)
        : null;
  let added = asList(b.apps_added);
  const removed = asList(b.apps_removed) ?? [];
  if (added === null && b.apps_removed === undefined) added = [...localApps.keys()].filter((k) => !library.has(k));
  added = added ?? [];
  const out = {
    success: { apps_added: [] as string[], apps_removed: [] as string[] },
    failed: { apps_added: [] as string[], apps_removed: [] as string[] },
  };
  for (const a of added) {
    const def = localApps.get(a);
    if (def) {
      library.set(a, def);
      out.success.apps_added.push(a);
    } else out.failed.apps_added.push(a);
  }
  for (const r of removed) {
    if (library.delete(r)) {
      installedVersions.delete(r);
      out.success.apps_removed.push(r);
    } else out.failed.apps_removed.push(r);
  }
  return out;
}

function libraryRoutes(ctx: Ctx, rest: string[]): Reply | undefined {
  const m = ctx.method;
  if (rest.length === 0) {
    if (m !== 'GET') return notAllowed('GET');
    let packs = [...library.values()].map(packEntry);
    const sk = ctx.q.get('sort_key');
    if (sk?.trim()) packs = sortList(packs, sk.trim(), parseSortDir(ctx.q.get('sort_dir')));
    const offset = parseIntParam('offset', ctx.q.get('offset')) ?? 0;
    const count = parseIntParam('count', ctx.q.get('count') ?? ctx.q.get('limit'));
    packs = packs.slice(offset, count ? offset + count : undefined);
    return ok({ success: packs, failure: clone(PACK_LOAD_FAILURES) });
  }
  if (rest.length === 1 && rest[0] === 'refresh') {
    if (m !== 'POST') return notAllowed('POST');
    return ok(refreshPacks(ctx));
  }
  if (rest.length === 2) {
    if (m !== 'GET') return notAllowed('GET');
    return ok(packEntry(findPack(rest[0], rest[1])));
  }
  if (rest.length === 3 && rest[2] === 'install') {
    if (m !== 'POST') return notAllowed('POST');
    return ok(installPack(ctx, findPack(rest[0], rest[1])));
  }
  if (rest.length === 3 && rest[2] === 'preview') {
    if (m !== 'GET') return notAllowed('GET');
    return ok(preview(findPack(rest[0], rest[1])));
  }
  return undefined;
}

// ---------------------------------------------------------------- content pack authoring

const CP_STATUSES = ['Draft', 'Queued', 'Generating', 'Generated', 'Failed', 'Incomplete'];
const PLATFORM_GROUPS = ['dashboards', 'lookups', 'macros', 'props', 'savedsearches', 'transforms'];
const OPS_TYPE_STORE: Record<string, string> = {
  base_service_template: 'itoa:base_service_template',
  correlation_search: 'em:correlation_search',
  deep_dive: 'itoa:deep_dive',
  entity_type: 'itoa:entity_type',
  event_management_state: 'itoa:event_management_state',
  glass_table: 'itoa:glass_table',
  home_view: 'itoa:home_view',
  kpi_base_search: 'itoa:kpi_base_search',
  kpi_threshold_template: 'itoa:kpi_threshold_template',
  notable_aggregation_policy: 'em:notable_aggregation_policy',
  service: 'itoa:service',
  team: 'itoa:team',
};

function idArrayMap(v: any, what: string): Record<string, string[]> {
  if (v === undefined || v === null) return {};
  if (!isPlainObject(v)) throw bad(`'${what}' must be an object`);
  const out: Record<string, string[]> = {};
  for (const [t, ids] of Object.entries(v)) {
    if (Array.isArray(ids))
      out[t] = ids.map((x: any) => (isPlainObject(x) ? (x.id ?? x._key) : x)).filter((x: any) => typeof x === 'string');
    else if (isPlainObject(ids)) out[t] = Object.keys(ids);
    else if (typeof ids === 'string') out[t] = [ids];
    else throw bad(`'${what}.${t}' must be an array of identifiers`);
  }
  return out;
}

const cpSpec: TypeSpec = {
  store: 'cpa:content_pack',
  objectType: 'content_pack',
  requireTitle: true,
  teamScoped: true,
  normalize: (o) => {
    if (o.status === undefined || o.status === null || o.status === '') o.status = 'Draft';
    const st = CP_STATUSES.find((s) => s.toLowerCase() === String(o.status).toLowerCase());
    if (!st) throw bad(`'status' must be one of ${CP_STATUSES.join(', ')}`);
    o.status = st;
    for (const f of ['description', 'overview'])
      if (typeof o[f] !== 'string') o[f] = o[f] === undefined || o[f] === null ? '' : String(o[f]);
    if (typeof o.cp_version !== 'string' || !o.cp_version) o.cp_version = o.cp_version ? String(o.cp_version) : '1.0.0';
    const md = isPlainObject(o.metadata) ? o.metadata : {};
    o.metadata = {
      ...md,
      icon: typeof md.icon === 'string' ? md.icon : null,
      main_screenshot: isPlainObject(md.main_screenshot) ? md.main_screenshot : {},
      screenshots: Array.isArray(md.screenshots) ? md.screenshots : [],
    };
    o.ops_objects = idArrayMap(o.ops_objects, 'ops_objects');
    const pf = idArrayMap(o.platform_objects, 'platform_objects');
    for (const g of PLATFORM_GROUPS) if (!pf[g]) pf[g] = [];
    o.platform_objects = pf;
    const uso = isPlainObject(o.user_selected_objects) ? o.user_selected_objects : {};
    const upf = idArrayMap(uso.platform_objects, 'user_selected_objects.platform_objects');
    for (const g of PLATFORM_GROUPS) if (!upf[g]) upf[g] = [];
    o.user_selected_objects = { ops_objects: idArrayMap(uso.ops_objects, 'user_selected_objects.ops_objects'), platform_objects: upf };
  },
};

function cpSingle(o: any) {
  const c = clone(o);
  const ops: Record<string, Record<string, string>> = {};
  for (const [t, ids] of Object.entries(c.ops_objects ?? {})) {
    ops[t] = {};
    for (const id of ids as string[]) {
      const s = OPS_TYPE_STORE[t] ? store(OPS_TYPE_STORE[t]).get(id) : undefined;
      ops[t][id] = s?.title ?? '';
    }
  }
  c.ops_objects = ops;
  return c;
}

function cpListEntry(o: any) {
  const c = clone(o);
  c.icon = c.metadata?.icon ?? null;
  c.ops_objects_counts = Object.fromEntries(Object.entries(c.ops_objects ?? {}).map(([t, ids]) => [t, (ids as string[]).length]));
  c.platform_objects_counts = Object.fromEntries(Object.entries(c.platform_objects ?? {}).map(([t, ids]) => [t, (ids as string[]).length]));
  return c;
}

function authoringRoutes(ctx: Ctx, rest: string[]): Reply | undefined {
  if (rest[0] !== 'content_pack') return undefined;
  const r = rest.slice(1);
  const m = ctx.method;
  if (r.length === 0) {
    if (m === 'GET') {
      const pred = compileFilter(ctx.q.get('filter'));
      const status = ctx.q.get('status');
      const search = (ctx.q.get('search') ?? '').toLowerCase();
      let rows = store(cpSpec.store)
        .values()
        .filter((o) => canRead(ctx.user, o) && (!pred || pred(o)));
      if (status) rows = rows.filter((o) => String(o.status).toLowerCase() === status.toLowerCase());
      if (search)
        rows = rows.filter((o) =>
          String(o.title ?? '')
            .toLowerCase()
            .includes(search),
        );
      const sk = ctx.q.get('sort_key');
      rows = sortList(rows, sk?.trim() ? sk.trim() : null, parseSortDir(ctx.q.get('sort_dir')));
      const offset = parseIntParam('offset', ctx.q.get('offset')) ?? 0;
      const count = parseIntParam('count', ctx.q.get('count') ?? ctx.q.get('limit'));
      rows = rows.slice(offset, count ? offset + count : undefined);
      const fields = parseFields(ctx.q);
      return ok(fields ? rows.map((o) => project(clone(o), fields)) : rows.map(cpListEntry));
    }
    if (m === 'POST' || m === 'PUT') {
      const b = objBody(ctx);
      if (b._key !== undefined && store(cpSpec.store).has(String(b._key))) throw conflict(`content pack '${b._key}' already exists`);
      return ok(createObject(ctx, cpSpec, b));
    }
    return notAllowed('GET, POST');
  }
  if (r.length === 1 && r[0] === 'count') {
    if (m !== 'GET') return notAllowed('GET');
    return ok(countObjects(ctx, cpSpec));
  }
  if (r.length === 1) {
    const key = r[0];
    if (m === 'GET') return ok(cpSingle(readable(ctx, cpSpec, key)));
    if (m === 'POST' || m === 'PUT')
      return ok(updateObject(ctx, cpSpec, key, objBody(ctx), parseBool(ctx.q.get('is_partial_data'), false)));
    if (m === 'DELETE') return ok({ deleted: true, content_pack: cpSingle(deleteOne(ctx, cpSpec, key)) });
    return notAllowed('GET, POST, DELETE');
  }
  return undefined;
}

function itoaRoutes(ctx: Ctx, rest: string[]): Reply | undefined {
  const m = ctx.method;
  if (rest.length === 0) return undefined;
  const head = rest[0];
  if (head === 'get_alias_list' && rest.length === 1) return m === 'GET' ? ok(aliasList(ctx)) : notAllowed('GET');
  if (head === 'get_supported_object_types' && rest.length === 1) return m === 'GET' ? ok([...SUPPORTED_CORE_TYPES]) : notAllowed('GET');
  if (head === 'content_pack') return libraryRoutes(ctx, rest.slice(1));
  if (head === 'content_pack_authorship') return authoringRoutes(ctx, rest.slice(1));
  const spec = coreSpecs[head];
  if (!spec) throw bad(`unsupported object type '${head}'`);
  const r = rest.slice(1);
  if (head === 'entity') {
    const e = entityRoutes(ctx, r);
    if (e) return e;
  }
  if (head === 'custom_threshold_windows') {
    const c = ctwRoutes(ctx, r);
    if (c) return c;
  }
  if (r.length === 2 && r[1] === 'templatize') return m === 'GET' ? ok(templatize(ctx, head, r[0])) : notAllowed('GET');
  if (head === 'service' && r.length === 2 && r[1] === 'base_service_template') {
    if (m === 'GET') return ok(getServiceTemplateLink(ctx, r[0]));
    if (m === 'POST') return ok(linkServiceTemplate(ctx, r[0]));
    return notAllowed('GET, POST');
  }
  return genericRoutes(ctx, spec, r);
}

// ===================================================================== event management

const EM_TYPES = [
  'correlation_search',
  'notable_event_group',
  'notable_aggregation_policy',
  'notable_event_comment',
  'notable_event_tag',
  'external_ticket',
];
const emSpecs: Record<string, TypeSpec> = {};
for (const t of EM_TYPES) {
  emSpecs[t] = {
    store: 'em:' + t,
    objectType: t,
    requireTitle: false,
    teamScoped: t === 'correlation_search' || t === 'notable_aggregation_policy',
  };
}
emSpecs.notable_event_comment.noUpdate = true;
emSpecs.notable_event_comment.noDelete = true;
emSpecs.notable_aggregation_policy.isProtected = (o) =>
  o._key === 'ops_default_policy' ? 'the default aggregation policy cannot be deleted' : null;

function ticketLink(ctx: Ctx, eventId: string, system: string, ticketId: string, url: string): string {
  const st = store('em:external_ticket');
  let link = st.values().find((l) => l.event_id === eventId && l.ticket_system === system);
  if (!link) {
    link = { _key: newKey(), object_type: 'external_ticket', event_id: eventId, ticket_system: system, _user: ctx.user.name, tickets: [] };
    st.set(link._key, link);
  }
  const t = link.tickets.find((x: any) => x.ticket_id === ticketId);
  if (t) t.ticket_url = url;
  else link.tickets.push({ ticket_system: system, ticket_url: url, ticket_id: ticketId });
  link.mod_time = nowEpoch();
  return link._key;
}

function ticketFields(src: Record<string, any>, required: string[]) {
  const out: Record<string, string> = {};
  for (const f of ['id', 'ids', 'ticket_system', 'ticket_id', 'ticket_url']) {
    const v = src[f];
    if (v === undefined || v === null) continue;
    if (Array.isArray(v) && f.startsWith('id')) out[f] = v.map(String).join(',');
    else if (typeof v === 'string' || typeof v === 'number') out[f] = String(v);
    else throw bad(`'${f}' must be a string`);
  }
  for (const f of required) if (!out[f]?.trim()) throw bad(`'${f}' is required`);
  return out;
}

const splitIds = (s: string) =>
  s
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean);

function actionsRoutes(ctx: Ctx, rest: string[]): Reply | undefined {
  const m = ctx.method;
  if (rest.length === 0) return m === 'GET' ? ok(EPISODE_ACTIONS.map((a) => clone(a.entry))) : notAllowed('GET');
  if (rest.length !== 1) return undefined;
  const a = EPISODE_ACTIONS.find((x) => x.entry.action_name === rest[0]);
  if (m === 'GET') {
    if (!a) throw notFound(`episode action '${rest[0]}' not found`);
    return ok({ action_name: a.entry.action_name, ...clone(a.conf) });
  }
  if (m === 'POST') {
    requireWriter(ctx.user);
    if (!a) throw notFound(`episode action '${rest[0]}' not found`);
    const b = objBody(ctx);
    let ids: string[] = [];
    if (Array.isArray(b.ids)) ids = b.ids.filter((x: any) => typeof x === 'string' || typeof x === 'number').map(String);
    else if (typeof b.ids === 'string') ids = splitIds(b.ids);
    if (ids.length === 0) throw bad("'ids' must list at least one episode identifier");
    if (b.params !== undefined && !isPlainObject(b.params)) throw bad("'params' must be an object");
    const params = b.params ?? {};
    if (a.entry.action_name === 'ops_event_action_link_ticket') {
      const tf = ticketFields(params, ['ticket_system', 'ticket_id']);
      for (const id of ids) ticketLink(ctx, id, tf.ticket_system, tf.ticket_id, tf.ticket_url ?? '');
    }
    const sid = () => `ops_act_${ctx.user.name}_${Math.floor(Date.now() / 1000)}_${randomBytes(4).toString('hex')}`;
    const bulk = String(a.entry.is_bulk_compatible) === '1';
    const out = bulk
      ? [{ action_name: a.entry.action_name, ids, sid: sid() }]
      : ids.map((id) => ({ action_name: a.entry.action_name, ids: [id], sid: sid() }));
    return ok(out);
  }
  return notAllowed('GET, POST');
}

function ticketingRoutes(ctx: Ctx, rest: string[]): Reply | undefined {
  const m = ctx.method;
  const st = store('em:external_ticket');
  if (rest.length === 0) {
    if (m !== 'POST') return notAllowed('POST');
    requireWriter(ctx.user);
    const tf = ticketFields(objBody(ctx), ['id', 'ticket_system', 'ticket_id', 'ticket_url']);
    const keys = [...new Set(splitIds(tf.id).map((id) => ticketLink(ctx, id, tf.ticket_system, tf.ticket_id, tf.ticket_url)))];
    if (keys.length === 0) throw bad("'id' is required");
    return ok({ _key: keys.length === 1 ? keys[0] : keys });
  }
  if (rest.length === 1) {
    const eventKey = rest[0];
    if (m === 'GET') {
      const qf = ticketFields(Object.fromEntries(ctx.q), []);
      const events = new Set([eventKey, ...splitIds(qf.ids ?? '')]);
      let links = st.values().filter((l) => events.has(l.event_id));
      if (qf.ticket_system) links = links.filter((l) => l.ticket_system === qf.ticket_system);
      let out = links.map((l) => clone(l));
      if (qf.ticket_id)
        out = out
          .map((l) => ({ ...l, tickets: l.tickets.filter((t: any) => t.ticket_id === qf.ticket_id) }))
          .filter((l) => l.tickets.length > 0);
      return ok(out);
    }
    if (m === 'POST') {
      requireWriter(ctx.user);
      const b = body(ctx, { optional: true });
      const src = { ...Object.fromEntries(ctx.q), ...(isPlainObject(b) ? b : {}) };
      const tf = ticketFields(src, ['ticket_system', 'ticket_id', 'ticket_url']);
      const ids = tf.ids ? splitIds(tf.ids) : tf.id ? splitIds(tf.id) : [eventKey];
      const keys = [...new Set(ids.map((id) => ticketLink(ctx, id, tf.ticket_system, tf.ticket_id, tf.ticket_url)))];
      return ok(keys);
    }
    return notAllowed('GET, POST');
  }
  if (rest.length === 3) {
    if (m !== 'DELETE') return notAllowed('DELETE');
    requireWriter(ctx.user);
    const [ep, sys, tid] = rest;
    const link = st.values().find((l) => l.event_id === ep && l.ticket_system === sys && l.tickets.some((t: any) => t.ticket_id === tid));
    if (!link) throw notFound(`no ticket '${tid}' of system '${sys}' is linked to episode '${ep}'`);
    link.tickets = link.tickets.filter((t: any) => t.ticket_id !== tid);
    if (link.tickets.length === 0) st.delete(link._key);
    return noContent();
  }
  return undefined;
}

function emRoutes(ctx: Ctx, rest: string[]): Reply | undefined {
  if (rest.length === 0) return undefined;
  const head = rest[0];
  if (head === 'notable_event_actions') return actionsRoutes(ctx, rest.slice(1));
  if (head === 'ticketing') return ticketingRoutes(ctx, rest.slice(1));
  const spec = emSpecs[head];
  if (!spec) throw bad(`unsupported event management object type '${head}'`);
  return genericRoutes(ctx, spec, rest.slice(1), { offsetParam: 'skip', filterParam: 'filter_data' });
}

// ===================================================================== maintenance / backup

function deriveSecGrpList(o: any, ctx: Ctx) {
  if (Array.isArray(o.sec_grp_list) && o.sec_grp_list.length) {
    o.sec_grp_list = [...new Set(o.sec_grp_list.map(String))];
    return;
  }
  const teams = new Set<string>();
  for (const ref of Array.isArray(o.objects) ? o.objects : []) {
    if (!isPlainObject(ref)) continue;
    const st = ref.object_type === 'entity' ? 'itoa:entity' : ref.object_type === 'service' ? 'itoa:service' : null;
    const obj = st && typeof ref._key === 'string' ? store(st).get(ref._key) : null;
    if (obj?.sec_grp) teams.add(obj.sec_grp);
  }
  o.sec_grp_list = teams.size ? [...teams] : [o.sec_grp ?? defaultTeamFor(ctx.user)];
}

const maintSpec: TypeSpec = {
  store: 'maint:maintenance_calendar',
  objectType: 'maintenance_calendar',
  requireTitle: true,
  teamScoped: true,
  normalize: (o, ctx) => {
    if (!Array.isArray(o.objects)) o.objects = [];
    if (
      o.objects.some(
        (x: any) => !isPlainObject(x) || (x.object_type !== 'service' && x.object_type !== 'entity') || typeof x._key !== 'string',
      )
    ) {
      throw bad("'objects' entries must be {object_type: 'service'|'entity', _key}");
    }
    deriveSecGrpList(o, ctx);
    if (typeof o._owner !== 'string' || !o._owner) o._owner = ctx.user.name;
  },
};

const DEFAULT_BACKUP = 'ops_default_scheduled_backup';
const backupSpec: TypeSpec = {
  store: 'br:backup_restore',
  objectType: 'backup_restore',
  requireTitle: true,
  teamScoped: true,
  isProtected: (o) => (o._key === DEFAULT_BACKUP ? 'the default scheduled backup cannot be deleted' : null),
  normalize: (o, ctx, existing) => {
    if (typeof o.job_type !== 'string' || !o.job_type) o.job_type = existing?.job_type ?? 'Backup';
    if (typeof o.status !== 'string' || !o.status) o.status = existing?.status ?? 'Queued';
    if (!existing) {
      o.create_time = plainTimeString();
      if (o.status === 'Queued' && o.last_queued_time === undefined) o.last_queued_time = Math.floor(Date.now() / 1000);
    } else if (o.create_time === undefined) o.create_time = existing.create_time;
    for (const f of ['start_time', 'end_time', 'last_queued_time']) if (o[f] === undefined) o[f] = existing?.[f] ?? 0;
    if (typeof o.path !== 'string') o.path = existing?.path ?? `/opt/platform/var/ops/backups/${o._key ?? 'job'}.zip`;
    if (typeof o.search_head_id !== 'string') o.search_head_id = existing?.search_head_id ?? '8E2F6B2A-4D1C-4F0B-9C51-3B0D4A1E7C22';
    if (typeof o.platform_server !== 'string') o.platform_server = existing?.platform_server ?? 'localhost';
    if (!Array.isArray(o.rules)) o.rules = existing?.rules ?? [];
    if (typeof o.last_error !== 'string') o.last_error = existing?.last_error ?? 'None';
    if (typeof o._owner !== 'string' || !o._owner) o._owner = existing?._owner ?? ctx.user.name;
  },
};

function maintRoutes(ctx: Ctx, rest: string[]): Reply | undefined {
  if (rest.length === 0) return undefined;
  if (rest[0] === 'get_supported_object_types' && rest.length === 1)
    return ctx.method === 'GET' ? ok(['maintenance_calendar']) : notAllowed('GET');
  if (rest[0] !== 'maintenance_calendar') throw bad(`unsupported object type '${rest[0]}'`);
  return genericRoutes(ctx, maintSpec, rest.slice(1));
}

function backupRoutes(ctx: Ctx, rest: string[]): Reply | undefined {
  if (rest.length === 0) return undefined;
  if (rest[0] === 'get_supported_object_types' && rest.length === 1)
    return ctx.method === 'GET' ? ok(['backup_restore']) : notAllowed('GET');
  if (rest[0] !== 'backup_restore') throw bad(`unsupported object type '${rest[0]}'`);
  return genericRoutes(ctx, backupSpec, rest.slice(1));
}

// ===================================================================== icons

const iconsStore = () => store('icons');
const immutableCats = new Set(ICON_CATEGORIES.filter((c) => c.immutable).map((c) => c.name.toLowerCase()));
const isImmutableCat = (c: any) => typeof c === 'string' && immutableCats.has(c.toLowerCase());

function iconCategories() {
  const out: { name: string; immutable?: boolean }[] = ICON_CATEGORIES.map((c) =>
    c.immutable ? { name: c.name, immutable: true } : { name: c.name },
  );
  const seen = new Set(out.map((c) => c.name.toLowerCase()));
  for (const i of iconsStore().values()) {
    if (typeof i.category === 'string' && !seen.has(i.category.toLowerCase())) {
      seen.add(i.category.toLowerCase());
      out.push({ name: i.category });
    }
  }
  return out;
}

function saveIcons(ctx: Ctx) {
  requireWriter(ctx.user);
  let b = body(ctx);
  if (isPlainObject(b)) b = [b];
  if (!Array.isArray(b) || b.length === 0) throw bad('payload must be a non-empty array of icon objects');
  const prepared: any[] = [];
  for (const it of b) {
    if (!isPlainObject(it)) throw bad('every icon must be a JSON object');
    if (typeof it.title !== 'string' || !it.title.trim()) throw bad("icon 'title' is required");
    if (typeof it.svg_path !== 'string' || !it.svg_path.trim()) throw bad("icon 'svg_path' is required");
    const category = typeof it.category === 'string' && it.category.trim() ? it.category.trim() : 'Custom';
    const key = typeof it._key === 'string' && it._key ? it._key : newKey();
    prepared.push({
      ...clone(it),
      _key: key,
      title: it.title,
      svg_path: it.svg_path,
      default_width: it.default_width ?? 40,
      default_height: it.default_height ?? 40,
      category,
      _user: ctx.pathUser,
      object_type: 'icon',
    });
  }
  for (const p of prepared) iconsStore().set(p._key, p);
  return prepared.map((p) => p._key);
}

function iconRoutes(ctx: Ctx, rest: string[]): Reply | undefined {
  const m = ctx.method;
  if (rest.length === 0) {
    if (m === 'GET') {
      if (parseBool(ctx.q.get('list_categories'), false)) return ok(iconCategories());
      const pred = compileFilter(ctx.q.get('filter'));
      const cat = ctx.q.get('category');
      let rows = iconsStore()
        .values()
        .filter((i) => (!pred || pred(i)) && (!cat || String(i.category).toLowerCase() === cat.toLowerCase()));
      const sk = ctx.q.get('sort_key');
      rows = sortList(rows, sk?.trim() ? sk.trim() : null, parseSortDir(ctx.q.get('sort_dir')));
      const total = rows.length;
      const offset = parseIntParam('offset', ctx.q.get('offset')) ?? 0;
      const limit = parseIntParam('limit', ctx.q.get('limit') ?? ctx.q.get('count'));
      rows = rows.slice(offset, limit ? offset + limit : undefined);
      const fields = parseFields(ctx.q);
      return ok({ total, result: rows.map((r) => project(clone(r), fields)) });
    }
    if (m === 'POST' || m === 'PUT') return ok(saveIcons(ctx));
    if (m === 'DELETE') {
      requireWriter(ctx.user);
      const cat = ctx.q.get('category');
      if (!cat) throw bad("query parameter 'category' is required ('*' deletes all icons)");
      if (cat !== '*' && isImmutableCat(cat)) throw conflict(`icon category '${cat}' cannot be modified`);
      for (const i of iconsStore().values()) {
        if (cat === '*' || String(i.category).toLowerCase() === cat.toLowerCase()) iconsStore().delete(i._key);
      }
      return ok({ Deleted: 'True' });
    }
    return notAllowed('GET, POST, PUT, DELETE');
  }
  if (rest.length === 1) {
    const key = rest[0];
    if (m === 'GET') {
      const i = iconsStore().get(key);
      if (!i) throw notFound(`icon '${key}' not found`);
      return ok(clone(i));
    }
    if (m === 'DELETE') {
      requireWriter(ctx.user);
      const i = iconsStore().get(key);
      if (!i) throw notFound(`icon '${key}' not found`);
      iconsStore().delete(key);
      return ok({ Deleted: 'True' });
    }
    return notAllowed('GET, DELETE');
  }
  return undefined;
}

// ===================================================================== dispatch

function authenticate(req: http.IncomingMessage): User | null {
  const h = req.headers.authorization;
  if (!h || !/^basic\s+/i.test(h)) return null;
  let decoded: string;
  try {
    decoded = Buffer.from(h.replace(/^basic\s+/i, '').trim(), 'base64').toString('utf8');
  } catch {
    return null;
  }
  const i = decoded.indexOf(':');
  if (i < 0) return null;
  const name = decoded.slice(0, i);
  const pw = decoded.slice(i + 1);
  const u = Object.hasOwn(USERS, name) ? USERS[name] : undefined;
  if (!u) return null;
  const a = Buffer.from(pw);
  const b = Buffer.from(u.password);
  if (a.length !== b.length || !timingSafeEqual(a, b)) return null;
  return u;
}

function route(ctx: Ctx, segs: string[]): Reply {
  let r: Reply | undefined;
  if (segs[0] === 'services' && segs[1] === 'SA-ITOA' && segs[2] === 'v1' && segs[3] === 'icon_collection') {
    ctx.pathUser = 'nobody';
    r = iconRoutes(ctx, segs.slice(4));
  } else if (segs[0] === 'servicesNS' && segs.length >= 4) {
    ctx.pathUser = segs[1];
    const iface = segs[3];
    let rest = segs.slice(4);
    if (rest[0] === 'vLatest') rest = rest.slice(1);
    switch (iface) {
      case 'itoa_interface':
        r = itoaRoutes(ctx, rest);
        break;
      case 'event_management_interface':
        r = emRoutes(ctx, rest);
        break;
      case 'maintenance_services_interface':
        r = maintRoutes(ctx, rest);
        break;
      case 'backup_restore_interface':
        r = backupRoutes(ctx, rest);
        break;
    }
  }
  if (!r) throw notFound(`no such endpoint: /${segs.join('/')}`);
  return r;
}

function send(res: http.ServerResponse, status: number, payload: any, headers: Record<string, string> = {}) {
  if (res.headersSent) return;
  const base = { 'X-Ops-Api': 'vLatest', ...headers };
  if (status === 204 || payload === undefined) {
    res.writeHead(status, base);
    res.end();
    return;
  }
  const text = JSON.stringify(payload);
  res.writeHead(status, { ...base, 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(text) });
  res.end(text);
}

function errorPayload(status: number, code: string, message: string) {
  return { ok: false, status, error_code: code, detail: message };
}

const server = http.createServer((req, res) => {
  const chunks: Buffer[] = [];
  let size = 0;
  let aborted = false;
  req.on('data', (c: Buffer) => {
    if (aborted) return;
    size += c.length;
    if (size > MAX_BODY) {
      aborted = true;
      send(res, 413, errorPayload(413, 'payload_too_large', 'request body too large'), { Connection: 'close' });
      req.resume();
      return;
    }
    chunks.push(c);
  });
  req.on('error', () => {
    aborted = true;
  });
  req.on('end', () => {
    if (aborted) return;
    try {
      handle(req, res, Buffer.concat(chunks).toString('utf8'));
    } catch (_e) {
      send(res, 400, errorPayload(400, 'bad_request', 'request could not be processed'));
    }
  });
});

function handle(req: http.IncomingMessage, res: http.ServerResponse, raw: string) {
  try {
    const user = authenticate(req);
    if (!user) {
      send(res, 401, errorPayload(401, 'unauthenticated', 'valid HTTP Basic credentials are required'), {
        'WWW-Authenticate': 'Basic realm="ops-management"',
      });
      return;
    }
    let url: URL;
    try {
      url = new URL(req.url ?? '/', 'http://localhost');
    } catch {
      throw bad('malformed request URL');
    }
    let segs: string[];
    try {
      segs = url.pathname
        .split('/')
        .filter((s) => s !== '')
        .map((s) => decodeURIComponent(s));
    } catch {
      throw bad('malformed percent-encoding in path');
    }
    let method = (req.method ?? 'GET').toUpperCase();
    if (method === 'HEAD') method = 'GET';
    const ctx: Ctx = {
      req,
      res,
      method,
      user,
      pathUser: 'nobody',
      q: url.searchParams,
      rawBody: raw,
      contentType: String(req.headers['content-type'] ?? '').toLowerCase(),
    };
    const reply = route(ctx, segs);
    if (req.method === 'HEAD') {
      res.writeHead(reply.status, { 'Content-Type': 'application/json; charset=utf-8' });
      res.end();
      return;
    }
    send(res, reply.status, reply.body, reply.headers);
  } catch (e) {
    if (e instanceof HttpError) {
      const headers: Record<string, string> = {};
      if (e.status === 405 && e.extra?.allow) headers.Allow = String(e.extra.allow);
      send(res, e.status, errorPayload(e.status, e.code, e.message), headers);
    } else {
      send(res, 400, errorPayload(400, 'bad_request', 'request could not be processed: ' + (e instanceof Error ? e.message : String(e))));
    }
  }
}

seedAll();
const port = Number(process.env.PORT) || 8089;
server.on('error', (e) => {
  process.stderr.write(`server error: ${e?.message ?? e}\n`);
  process.exit(1);
});
server.listen(port, '127.0.0.1', () => {
  process.stdout.write(`listening on ${port}\n`);
});
process.on('uncaughtException', (e) => {
  process.stderr.write(`uncaught: ${e?.stack ?? e}\n`);
});
