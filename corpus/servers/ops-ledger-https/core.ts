// Core interface (itoa_interface): generic object CRUD, entity lifecycle, templates, custom threshold windows.
import {
  bad,
  notFound,
  forbidden,
  notAllowed,
  bug,
  type Rec,
  type DB,
  type User,
  col,
  uuid,
  clone,
  isObj,
  epoch,
  isoOffset,
  modTime,
  SCHEMA_VERSION,
  GLOBAL_TEAM,
  canReadTeam,
  canWriteTeam,
  isAdmin,
  defaultTeamFor,
  requireWrite,
  sharedOpts,
  applyList,
  compileFilter,
  project,
  intParam,
  boolParam,
  commonStamp,
} from './lib';

export interface Ctx {
  method: string;
  parts: string[];
  q: URLSearchParams;
  user: User;
  body: () => unknown; // parsed JSON body (undefined when empty); throws 400 when not JSON
  db: DB; // read snapshot for GET, current state otherwise
}
export interface Resp {
  status: number;
  body?: unknown; // undefined => empty body
}
export const ok = (body?: unknown, status = 200): Resp => ({ status, body });

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
const EXTRA_TYPES = ['entity_relationship', 'entity_relationship_rule'];
const ALL_TYPES = [...CORE_TYPES, ...EXTRA_TYPES];

// ---------------------------------------------------------------- access
function readable(u: User, type: string, rec: Rec): boolean {
  if (type === 'team') return canReadTeam(u, rec._key as string);
  return canReadTeam(u, (rec.sec_grp as string) || GLOBAL_TEAM);
}
function writable(u: User, type: string, rec: Rec): boolean {
  if (!u.write) return false;
  if (type === 'team') return isAdmin(u);
  return canWriteTeam(u, (rec.sec_grp as string) || GLOBAL_TEAM);
}
function getReadable(ctx: Ctx, type: string, key: string): Rec {
  const rec = col(ctx.db, type).get(key);
  if (!rec) throw notFound(`Object of type "${type}" with key "${key}" does not exist.`);
  if (!readable(ctx.user, type, rec) && !bug('get-by-key-skips-team')) {
    throw notFound(`Object of type "${type}" with key "${key}" does not exist.`);
  }
  return rec;
}
function getWritable(ctx: Ctx, type: string, key: string): Rec {
  requireWrite(ctx.user);
  const rec = col(ctx.db, type).get(key);
  if (!rec || !readable(ctx.user, type, rec)) throw notFound(`Object of type "${type}" with key "${key}" does not exist.`);
  if (!writable(ctx.user, type, rec)) throw forbidden(`User "${ctx.user.name}" cannot write object "${key}" of team "${rec.sec_grp}".`);
  return rec;
}

// ---------------------------------------------------------------- output decoration
function decorate(u: User, type: string, rec: Rec): Rec {
  if (type !== 'custom_threshold_windows') return rec;
  const w = writable(u, type, rec);
  return {
    ...rec,
    status: typeof rec.status === 'string' && !bug('ctw-stop-status-case') ? rec.status.toLowerCase() : rec.status,
    can_view: readable(u, type, rec),
    can_link: w,
    can_edit: w,
    can_transition: w,
  };
}

// ---------------------------------------------------------------- normalisation / validation
function requireTitle(body: Rec, type: string) {
  if (typeof body.title !== 'string' || body.title.trim() === '') {
    throw bad(`Required field "title" is missing or empty for object type "${type}".`);
  }
}
function resolveTeam(ctx: Ctx, type: string, body: Rec, fallback?: string): string {
  if (type === 'team') return (body._key as string) || '';
  let team = body.sec_grp;
  if (team === undefined || team === null || team === '') team = fallback ?? defaultTeamFor(ctx.user);
  if (typeof team !== 'string') throw bad('Field "sec_grp" must be a string.');
  if (!col(ctx.db, 'team').has(team)) throw bad(`Team "${team}" does not exist.`);
  return team;
}
function arr(v: unknown): string[] {
  if (v === undefined || v === null) return [];
  return (Array.isArray(v) ? v : [v]).map(String);
}
function normalize(ctx: Ctx, type: string, rec: Rec, prev: Rec | undefined) {
  const now = new Date();
  if (type === 'entity') {
    for (const part of ['identifier', 'informational']) {
      const v = rec[part];
      if (v === undefined) {
        rec[part] = { fields: [], values: [] };
        continue;
      }
      if (!isObj(v)) throw bad(`Field "${part}" must be an object {fields, values}.`);
      const fields = arr(v.fields);
      for (const f of fields) if (rec[f] !== undefined) rec[f] = arr(rec[f]);
      const fromTop = fields.flatMap((f) => (Array.isArray(rec[f]) ? rec[f] : []));
      const values = fromTop.length ? fromTop : arr(v.values);
      rec[part] = { fields, values: part === 'identifier' ? values.map((x) => x.toLowerCase()) : values };
    }
    if (rec.services === undefined) rec.services = [];
    if (!Array.isArray(rec.services)) throw bad('Field "services" must be an array of {_key, title}.');
    rec.retired = rec.retired ? 1 : 0;
    if (rec.retirable !== undefined) rec.retirable = rec.retirable ? 1 : 0;
    rec.create_by = prev?.create_by ?? ctx.user.name;
    rec.create_source = prev?.create_source ?? 'REST';
    rec.create_time = prev?.create_time ?? isoOffset(now);
    rec.mod_by = ctx.user.name;
    rec.mod_time = modTime(now);
    rec._type = 'entity';
    if (rec.description === undefined) rec.description = '';
  }
  if (type === 'service') {
    if (rec.kpis === undefined) rec.kpis = [];
    if (!Array.isArray(rec.kpis)) throw bad('Field "kpis" must be an array.');
    rec.kpis = rec.kpis.map((k: unknown) => {
      if (!isObj(k)) throw bad('Each KPI must be an object.');
      return { ...k, _key: k._key || uuid(), service_id: rec._key };
    });
    if (rec.enabled === undefined) rec.enabled = 1;
    if (rec.entity_rules === undefined) rec.entity_rules = [];
    if (!Array.isArray(rec.entity_rules)) throw bad('Field "entity_rules" must be an array.');
    if (rec.services_depends_on === undefined) rec.services_depends_on = [];
    if (rec.base_service_template_id === undefined) rec.base_service_template_id = '';
  }
  if (type === 'custom_threshold_windows') {
    rec.status = typeof rec.status === 'string' && rec.status ? rec.status.toLowerCase() : 'active';
    if (rec.window_type === undefined) rec.window_type = 'percentage';
    if (typeof rec.window_type !== 'string') throw bad('Field "window_type" must be a string.');
    for (const f of ['start_time', 'end_time', 'window_config_percentage', 'duration']) {
      if (rec[f] !== undefined && (typeof rec[f] !== 'number' || !Number.isFinite(rec[f]))) throw bad(`Field "${f}" must be a number.`);
    }
    if (rec.linked_services === undefined) rec.linked_services = [];
    if (!Array.isArray(rec.linked_services)) throw bad('Field "linked_services" must be an array.');
    if (rec.window_config_static === undefined) rec.window_config_static = {};
    if (rec.window_config_percentage === undefined) rec.window_config_percentage = 0;
    if (rec.recurrence === undefined) rec.recurrence = false;
    if (rec.is_overlapping === undefined) rec.is_overlapping = false;
    if (rec.overlapping_kpis === undefined) rec.overlapping_kpis = [];
    if (rec.last_stopped_time === undefined) rec.last_stopped_time = 0;
    if (rec.description === undefined) rec.description = '';
    if (rec.pause_description === undefined) rec.pause_description = '';
    if (rec.duration === undefined && typeof rec.start_time === 'number' && typeof rec.end_time === 'number')
      rec.duration = rec.end_time - rec.start_time;
    rec.sec_grp_list = [rec.sec_grp];
    for (const f of ['can_view', 'can_link', 'can_edit', 'can_transition']) delete rec[f];
  }
  if (type === 'base_service_template') {
    if (rec.entity_rules === undefined) rec.entity_rules = [];
    if (rec.kpis === undefined) rec.kpis = [];
    if (rec.linked_services === undefined) rec.linked_services = prev?.linked_services ?? [];
    rec.total_linked_services = Array.isArray(rec.linked_services) ? rec.linked_services.length : 0;
  }
}

function store(ctx: Ctx, type: string, rec: Rec) {
  col(ctx.db, type).set(rec._key as string, rec);
}

/** Create (no existing key) or full overwrite. */
function createOrReplace(ctx: Ctx, type: string, body: unknown): Rec {
  requireWrite(ctx.user);
  if (!isObj(body)) throw bad('The payload must be a JSON object that follows the schema of the object type.');
  if (body._key !== undefined && (typeof body._key !== 'string' || body._key === '' || body._key.includes('/'))) {
    throw bad('Field "_key" must be a non-empty string without "/".');
  }
  const existing = body._key ? col(ctx.db, type).get(body._key) : undefined;
  if (existing) return replace(ctx, type, existing, body);
  requireTitle(body, type);
  const rec: Rec = clone(body);
  rec._key = body._key || uuid();
  if (type === 'team') {
    if (!isAdmin(ctx.user)) throw forbidden(`User "${ctx.user.name}" cannot create teams.`);
    rec.sec_grp = rec._key;
  } else {
    rec.sec_grp = resolveTeam(ctx, type, body);
    if (!canWriteTeam(ctx.user, rec.sec_grp as string)) throw forbidden(`User "${ctx.user.name}" cannot write to team "${rec.sec_grp}".`);
  }
  commonStamp(rec, ctx.user, type);
  normalize(ctx, type, rec, undefined);
  store(ctx, type, rec);
  return rec;
}
function replace(ctx: Ctx, type: string, existing: Rec, body: Rec): Rec {
  if (!readable(ctx.user, type, existing)) throw notFound(`Object of type "${type}" with key "${existing._key}" does not exist.`);
  if (!writable(ctx.user, type, existing)) throw forbidden(`User "${ctx.user.name}" cannot write object "${existing._key}".`);
  requireTitle(body, type);
  const rec: Rec = clone(body);
  rec._key = existing._key;
  if (type === 'team') rec.sec_grp = existing._key;
  else {
    rec.sec_grp = resolveTeam(ctx, type, body, existing.sec_grp as string | undefined);
    if (!canWriteTeam(ctx.user, rec.sec_grp as string)) throw forbidden(`User "${ctx.user.name}" cannot write to team "${rec.sec_grp}".`);
  }
  commonStamp(rec, ctx.user, type);
  normalize(ctx, type, rec, existing);
  store(ctx, type, rec);
  return rec;
}
function partial(ctx: Ctx, type: string, existing: Rec, body: Rec): Rec {
  if (!readable(ctx.user, type, existing)) throw notFound(`Object of type "${type}" with key "${existing._key}" does not exist.`);
  if (!writable(ctx.user, type, existing)) throw forbidden(`User "${ctx.user.name}" cannot write object "${existing._key}".`);
  if (body.title !== undefined && (typeof body.title !== 'string' || body.title.trim() === ''))
    throw bad('Field "title" must be a non-empty string.');
  const oldName = existing.identifying_name;
  const rec: Rec = { ...clone(existing), ...clone(body), _key: existing._key };
  if (type === 'team') rec.sec_grp = existing._key;
  else {
    rec.sec_grp = resolveTeam(ctx, type, rec, existing.sec_grp as string | undefined);
    if (!canWriteTeam(ctx.user, rec.sec_grp as string)) throw forbidden(`User "${ctx.user.name}" cannot write to team "${rec.sec_grp}".`);
  }
  commonStamp(rec, ctx.user, type);
  if (bug('identifying-name-stale')) rec.identifying_name = oldName;
  normalize(ctx, type, rec, existing);
  store(ctx, type, rec);
  return rec;
}

// cascade clean-up when an object is deleted
function removeObject(ctx: Ctx, type: string, key: string) {
  col(ctx.db, type).delete(key);
  if (type === 'service') {
    for (const e of col(ctx.db, 'entity').values()) {
      if (Array.isArray(e.services)) e.services = e.services.filter((s: Rec) => s?._key !== key);
      if (Array.isArray(e.retired_services)) e.retired_services = e.retired_services.filter((s: Rec) => s?._key !== key);
    }
    for (const w of col(ctx.db, 'custom_threshold_windows').values()) {
      if (Array.isArray(w.linked_services)) w.linked_services = w.linked_services.filter((l: Rec) => l?.service_id !== key);
    }
    for (const t of col(ctx.db, 'base_service_template').values()) {
      if (Array.isArray(t.linked_services) && t.linked_services.includes(key)) {
        const kept = t.linked_services.filter((s: string) => s !== key);
        t.linked_services = kept;
        t.total_linked_services = kept.length;
      }
    }
  }
}
function checkDeletable(type: string, rec: Rec) {
  if (type === 'team' && rec._key === GLOBAL_TEAM) throw bad('The Global team cannot be deleted.');
}

// ---------------------------------------------------------------- templatize
function templatize(type: string, rec: Rec): Rec {
  if (type === 'service') {
    return {
      title: rec.title,
      description: rec.description ?? '',
      service_template_id: rec.base_service_template_id || '',
      sec_grp: rec.sec_grp,
      object_type: 'base_service_template',
      _version: rec._version ?? SCHEMA_VERSION,
      // BUG templatize-enabled-bool: the export copies the service's enabled flag as a JavaScript boolean
      // (true/false) instead of the documented integer 1/0.
      enabled: bug('templatize-enabled-bool') ? !!rec.enabled : rec.enabled ? 1 : 0,
      services_depends_on: Array.isArray(rec.services_depends_on) ? clone(rec.services_depends_on) : [],
      tags: Array.isArray(rec.tags) ? clone(rec.tags) : [],
      serviceTemplateId: rec.base_service_template_id ? [rec.base_service_template_id] : [],
      entity_rules: Array.isArray(rec.entity_rules) ? clone(rec.entity_rules) : [],
      kpis: (Array.isArray(rec.kpis) ? rec.kpis : []).map((k: Rec) => {
        const c = clone(k);
        delete c._key;
        c.service_id = '';
        return c;
      }),
    };
  }
  if (type === 'kpi_base_search') {
    const c = clone(rec);
    for (const f of ['_key', 'mod_timestamp', 'mod_source', '_user', 'identifying_name']) delete c[f];
    return c;
  }
  throw bad(`templatize is supported only for "service" and "kpi_base_search", not "${type}".`);
}

// ---------------------------------------------------------------- entity lifecycle
function entityKeys(body: unknown): string[] {
  if (!isObj(body) || !Array.isArray(body.data)) throw bad('The payload must be {"data": [<entity key>, ...]}.');
  if (!body.data.every((k: unknown) => typeof k === 'string')) throw bad('Every entry of "data" must be an entity key string.');
  return body.data;
}
function retireEntity(ctx: Ctx, e: Rec) {
  const services: Rec[] = Array.isArray(e.services) ? e.services : [];
  if (bug('retire-first-service-only') && services.length > 1) {
    e.retired_services = [services[0]];
    e.services = services.slice(1);
  } else {
    e.retired_services = services;
    e.services = [];
  }
  e.retired = 1;
  delete e.retirable;
  e.mod_time = modTime();
  e.mod_timestamp = isoOffset();
  e.mod_by = ctx.user.name;
}
function retirableSummaries(ctx: Ctx): Rec[] {
  const out: Rec[] = [];
  for (const e of col(ctx.db, 'entity').values()) {
    if (e.retirable !== 1 || e.retired === 1 || !readable(ctx.user, 'entity', e)) continue;
    const w = writable(ctx.user, 'entity', e);
    out.push({
      object_type: 'entity',
      title: e.title,
      retirable: 1,
      sec_grp: e.sec_grp,
      _key: e._key,
      permissions: { user: ctx.user.name, group: { read: true, write: w, delete: w }, read: true, write: w, delete: w },
    });
  }
  return out.sort((a, b) => {
    const ta = a.title as string;
    const tb = b.title as string;
    return ta < tb ? -1 : ta > tb ? 1 : 0;
  });
}

// ---------------------------------------------------------------- service template linking
function linkTemplate(ctx: Ctx, svcKey: string, body: unknown): Resp {
  requireWrite(ctx.user);
  if (!isObj(body) || typeof body._key !== 'string' || !body._key) throw bad('The payload must be {"_key": <template key>}.');
  if (!canReadTeam(ctx.user, GLOBAL_TEAM)) {
    throw forbidden('Linking a service to a service template requires read access to the Global team.');
  }
  const svc = getWritable(ctx, 'service', svcKey);
  const tpl = col(ctx.db, 'base_service_template').get(body._key);
  if (!tpl || !readable(ctx.user, 'base_service_template', tpl)) throw notFound(`Service template "${body._key}" does not exist.`);
  const tplRules = Array.isArray(tpl.entity_rules) ? clone(tpl.entity_rules) : [];
  const cur = Array.isArray(svc.entity_rules) ? svc.entity_rules : [];
  if (bug('template-link-replaces-rules') && cur.length > 0) svc.entity_rules = tplRules;
  else svc.entity_rules = [...cur, ...tplRules];
  const titles = new Set(((svc.kpis || []) as Rec[]).map((k: Rec) => k.title));
  for (const k of Array.isArray(tpl.kpis) ? tpl.kpis : []) {
    if (titles.has(k.title)) continue;
    (svc.kpis as Rec[]).push({ ...clone(k), _key: uuid(), service_id: svc._key, base_service_template_id: tpl._key });
  }
  // unlink from previous template
  const prevT = svc.base_service_template_id ? col(ctx.db, 'base_service_template').get(svc.base_service_template_id as string) : undefined;
  if (prevT && prevT._key !== tpl._key && Array.isArray(prevT.linked_services)) {
    const kept = prevT.linked_services.filter((s: string) => s !== svc._key);
    prevT.linked_services = kept;
    prevT.total_linked_services = kept.length;
  }
  svc.base_service_template_id = tpl._key;
  svc.mod_timestamp = isoOffset();
  if (!Array.isArray(tpl.linked_services)) tpl.linked_services = [];
  const linked = tpl.linked_services as unknown[];
  if (!linked.includes(svc._key)) linked.push(svc._key);
  tpl.total_linked_services = linked.length;
  return ok({ _key: svc._key });
}

// ---------------------------------------------------------------- custom threshold windows
function ctwId(ctx: Ctx): string {
  const id = ctx.q.get('ctw_id') || ctx.q.get('custom_threshold_window_id');
  if (!id) throw bad('Parameter "ctw_id" (the custom threshold window key) is required.');
  return id;
}
function linkedKpis(ctx: Ctx): Resp {
  const w = getReadable(ctx, 'custom_threshold_windows', ctwId(ctx));
  const rawLimit = intParam(ctx.q, 'limit', { min: 0 });
  const all: Rec[] = [];
  for (const l of Array.isArray(w.linked_services) ? w.linked_services : []) {
    const svc = col(ctx.db, 'service').get(l.service_id);
    if (!svc || !readable(ctx.user, 'service', svc)) continue;
    for (const kid of Array.isArray(l.linked_kpi_ids) ? l.linked_kpi_ids : []) {
      const kpi = ((svc.kpis || []) as Rec[]).find((k: Rec) => k._key === kid);
      if (!kpi) continue;
      all.push({ kpi_key: kid, kpi_title: kpi.title, service_title: svc.title, service_key: svc._key });
    }
  }
  let out = all;
  if (rawLimit !== undefined && (rawLimit > 0 || bug('linked-kpis-limit-zero'))) out = all.slice(0, rawLimit);
  return ok({ linked_kpis: out, count: all.length });
}
function associate(ctx: Ctx, id: string): Resp {
  const qid = ctx.q.get('ctw_id');
  if (qid && qid !== id) throw bad(`Parameter "ctw_id" (${qid}) does not match the window in the path (${id}).`);
  const w = getWritable(ctx, 'custom_threshold_windows', id);
  let body = ctx.body();
  if (Array.isArray(body)) body = { services: body };
  if (!isObj(body) || !Array.isArray(body.services))
    throw bad('The payload must be {"services": [{"_key": <service key>, "kpi_ids": [<kpi key>, ...]}]}.');
  const linked: Rec[] = [];
  const ls: Rec[] = Array.isArray(w.linked_services) ? w.linked_services : (w.linked_services = []);
  for (const s of body.services) {
    if (!isObj(s) || typeof s._key !== 'string') throw bad('Each service entry must be {"_key": string, "kpi_ids": [string]}.');
    const kpiIds = Array.isArray(s.kpi_ids) ? s.kpi_ids.filter((k: unknown) => typeof k === 'string') : [];
    const svc = col(ctx.db, 'service').get(s._key);
    if (!svc || !readable(ctx.user, 'service', svc)) continue;
    const valid = kpiIds.filter((k: string) => ((svc.kpis || []) as Rec[]).some((x: Rec) => x._key === k));
    if (!valid.length) continue;
    let entry = ls.find((l) => l.service_id === svc._key);
    if (!entry) {
      entry = { service_id: svc._key, linked_kpi_ids: [] };
      ls.push(entry);
    }
    const ids = entry.linked_kpi_ids as unknown[];
    for (const k of valid) if (!ids.includes(k)) ids.push(k);
    linked.push({ _key: svc._key, kpi_ids: valid });
  }
  w.mod_timestamp = isoOffset();
  return ok({ services: linked });
}
function disconnect(ctx: Ctx, id: string): Resp {
  const qid = ctx.q.get('ctw_id');
  if (qid && qid !== id) throw bad(`Parameter "ctw_id" (${qid}) does not match the window in the path (${id}).`);
  const w = getWritable(ctx, 'custom_threshold_windows', id);
  const removed = (Array.isArray(w.linked_services) ? w.linked_services : []).map((l: Rec) => ({
    service_id: l.service_id,
    linked_kpi_ids: clone(l.linked_kpi_ids || []),
  }));
  w.linked_services = [];
  w.mod_timestamp = isoOffset();
  return ok({ service_kpis_dict: removed });
}
function stop(ctx: Ctx, id: string): Resp {
  const w = getWritable(ctx, 'custom_threshold_windows', id);
  if (String(w.status).toLowerCase() !== 'active') throw bad(`Custom threshold window "${id}" is not active (status "${w.status}").`);
  w.status = bug('ctw-stop-status-case') ? 'Stopped' : 'stopped';
  w.last_stopped_time = epoch();
  w.mod_timestamp = isoOffset();
  return ok(decorate(ctx.user, 'custom_threshold_windows', w));
}

// ---------------------------------------------------------------- router
type AliasGroup = { fields?: string[]; values?: string[] };
export function coreRoute(ctx: Ctx, contentRoute: (ctx: Ctx, parts: string[]) => Resp): Resp {
  const p = ctx.parts;
  const m = ctx.method;
  if (p.length === 0) throw notFound('Specify an object type or an operation.');
  if (p[0] === 'content_pack' || p[0] === 'content_pack_authorship') return contentRoute(ctx, p);
  if (p.length === 1 && p[0] === 'get_alias_list') {
    if (m !== 'GET') throw notAllowed('Only GET is supported on get_alias_list.');
    const ident = new Set<string>();
    const info = new Set<string>();
    for (const e of col(ctx.db, 'entity').values()) {
      if (!readable(ctx.user, 'entity', e)) continue;
      for (const f of (e.identifier as AliasGroup | undefined)?.fields || []) ident.add(f);
      for (const f of (e.informational as AliasGroup | undefined)?.fields || []) info.add(f);
    }
    return ok({ identifier: [...ident].sort(), informational: [...info].sort() });
  }
  if (p.length === 1 && p[0] === 'get_supported_object_types') {
    if (m !== 'GET') throw notAllowed('Only GET is supported on get_supported_object_types.');
    return ok(ALL_TYPES.slice());
  }
  const type = p[0];
  if (!ALL_TYPES.includes(type)) throw bad(`Unsupported object type "${type}".`);

  // special sub-resources
  if (type === 'custom_threshold_windows') {
    if (p.length === 2 && p[1] === 'linked_kpis') {
      if (m !== 'GET') throw notAllowed('Only GET is supported on linked_kpis.');
      return linkedKpis(ctx);
    }
    if (p.length === 3 && ['associate_service_kpi', 'disconnect_kpis', 'stop'].includes(p[2])) {
      if (m !== 'POST') throw notAllowed(`Only POST is supported on ${p[2]}.`);
      if (p[2] === 'associate_service_kpi') return associate(ctx, p[1]);
      if (p[2] === 'disconnect_kpis') return disconnect(ctx, p[1]);
      return stop(ctx, p[1]);
    }
  }
  if (type === 'entity' && p.length === 2 && ['count_retirable', 'retire', 'restore', 'retire_retirable'].includes(p[1])) {
    if (p[1] === 'count_retirable') {
      if (m !== 'GET') throw notAllowed('Only GET is supported on count_retirable.');
      return ok(retirableSummaries(ctx));
    }
    if (m !== 'POST') throw notAllowed(`Only POST is supported on entity/${p[1]}.`);
    requireWrite(ctx.user);
    if (p[1] === 'retire_retirable') {
      const keys: string[] = [];
      for (const s of retirableSummaries(ctx)) {
        const e = col(ctx.db, 'entity').get(s._key as string)!;
        if (!writable(ctx.user, 'entity', e)) continue;
        retireEntity(ctx, e);
        keys.push(e._key as string);
      }
      return ok(keys);
    }
    const keys = entityKeys(ctx.body());
    const ents = keys.map((k) => getWritable(ctx, 'entity', k));
    const done: string[] = [];
    for (const e of ents) {
      if (done.includes(e._key as string)) continue;
      if (p[1] === 'retire') {
        if (e.retired === 1) continue;
        retireEntity(ctx, e);
        done.push(e._key as string);
      } else {
        if (e.retired !== 1) continue;
        // BUG restore-first-key-only: only the first entity named in "data" is restored; the others stay retired
        // (and are left out of the response).
        if (bug('restore-first-key-only') && e !== ents[0]) continue;
        const svcs = col(ctx.db, 'service');
        const back: Rec[] = (Array.isArray(e.retired_services) ? e.retired_services : []).filter((s: Rec) => svcs.has(s._key as string));
        const curr: Rec[] = Array.isArray(e.services) ? e.services : [];
        e.services = [...curr, ...back.filter((b) => !curr.some((c) => c._key === b._key))];
        delete e.retired_services;
        e.retired = 0;
        e.mod_time = modTime();
        e.mod_timestamp = isoOffset();
        e.mod_by = ctx.user.name;
        done.push(e._key as string);
      }
    }
    return ok(done);
  }

  if (p.length === 1) {
    if (m === 'GET') {
      const o = sharedOpts(ctx.q);
      if (bug('offset-ignored-with-fields') && o.fields) o.offset = 0;
      const recs = [...col(ctx.db, type).values()].filter((r) => readable(ctx.user, type, r));
      return ok(applyList(recs, o).map((r) => project(decorate(ctx.user, type, r), o.fields)));
    }
    if (m === 'POST') {
      const rec = createOrReplace(ctx, type, ctx.body());
      return ok({ _key: rec._key });
    }
    if (m === 'DELETE') {
      requireWrite(ctx.user);
      const o = sharedOpts(ctx.q);
      if (o.filter.incorrect && bug('filter-invalid-delete-noop')) throw bad('Invalid filter; nothing was deleted.');
      const recs = [...col(ctx.db, type).values()].filter(
        (r) => readable(ctx.user, type, r) && writable(ctx.user, type, r) && !(type === 'team' && r._key === GLOBAL_TEAM),
      );
      for (const r of applyList(recs, o)) removeObject(ctx, type, r._key as string);
      return ok();
    }
    throw notAllowed(`Method ${m} is not supported on ${type}.`);
  }
  if (p.length === 2 && p[1] === 'count') {
    if (m !== 'GET') throw notAllowed('Only GET is supported on count.');
    const f = compileFilter(ctx.q.get('filter'));
    const n = [...col(ctx.db, type).values()].filter((r) => readable(ctx.user, type, r) && f.pred(r)).length;
    return ok({ count: n });
  }
  if (p.length === 2 && p[1] === 'bulk_update') {
    if (m !== 'POST') throw notAllowed('Only POST is supported on bulk_update.');
    requireWrite(ctx.user);
    const isPartial = boolParam(ctx.q, 'is_partial_data', false);
    const body = ctx.body();
    if (!Array.isArray(body)) throw bad('The payload of bulk_update must be an array of objects, each with "_key".');
    // validate everything first so that the update is all-or-nothing
    const c = col(ctx.db, type);
    body.forEach((o: unknown, i: number) => {
      if (!isObj(o) || typeof o._key !== 'string' || !o._key) throw bad(`Element ${i} must be an object with a "_key".`);
      const ex = c.get(o._key);
      if (isPartial && (!ex || !readable(ctx.user, type, ex)))
        throw notFound(`Object of type "${type}" with key "${o._key}" does not exist.`);
      if (ex && !readable(ctx.user, type, ex)) throw notFound(`Object of type "${type}" with key "${o._key}" does not exist.`);
      if (ex && !writable(ctx.user, type, ex)) throw forbidden(`User "${ctx.user.name}" cannot write object "${o._key}".`);
      if (!isPartial || (o.title !== undefined && (typeof o.title !== 'string' || !o.title.trim()))) {
        if (!isPartial) requireTitle(o, type);
        else throw bad('Field "title" must be a non-empty string.');
      }
    });
    const snapshot = new Map(c);
    const keys: string[] = [];
    try {
      body.forEach((o: Rec, i: number) => {
        const ex = c.get(o._key as string);
        let rec: Rec;
        if (isPartial && !(bug('bulk-partial-overwrites') && i > 0)) rec = partial(ctx, type, ex!, o);
        else if (ex) rec = isPartial ? replaceLoose(ctx, type, ex, o) : replace(ctx, type, ex, o);
        else rec = createOrReplace(ctx, type, o);
        keys.push(rec._key as string);
      });
    } catch (e) {
      ctx.db.set(type, snapshot);
      throw e;
    }
    return ok({ _key: keys });
  }
  if (p.length === 2) {
    const key = p[1];
    if (m === 'GET') return ok(decorate(ctx.user, type, getReadable(ctx, type, key)));
    if (m === 'POST') {
      requireWrite(ctx.user);
      const isPartial = boolParam(ctx.q, 'is_partial_data', false);
      const body = ctx.body();
      if (!isObj(body)) throw bad('The payload must be a JSON object.');
      if (body._key !== undefined && body._key !== key) throw bad('The "_key" in the payload does not match the key in the path.');
      const ex = col(ctx.db, type).get(key);
      if (!ex || !readable(ctx.user, type, ex)) throw notFound(`Object of type "${type}" with key "${key}" does not exist.`);
      const rec = isPartial ? partial(ctx, type, ex, body) : replace(ctx, type, ex, { ...body, _key: key });
      return ok({ _key: rec._key });
    }
    if (m === 'DELETE') {
      const rec = getWritable(ctx, type, key);
      checkDeletable(type, rec);
      removeObject(ctx, type, key);
      return ok();
    }
    throw notAllowed(`Method ${m} is not supported on ${type}/<_key>.`);
  }
  if (p.length === 3 && p[2] === 'templatize') {
    if (m !== 'GET') throw notAllowed('Only GET is supported on templatize.');
    if (type !== 'service' && type !== 'kpi_base_search')
      throw bad(`templatize is supported only for "service" and "kpi_base_search", not "${type}".`);
    return ok(templatize(type, getReadable(ctx, type, p[1])));
  }
  if (p.length === 3 && p[2] === 'base_service_template' && type === 'service') {
    if (m === 'GET') {
      const svc = getReadable(ctx, 'service', p[1]);
      return ok({ _key: svc.base_service_template_id || '' });
    }
    if (m === 'POST') return linkTemplate(ctx, p[1], ctx.body());
    throw notAllowed(`Method ${m} is not supported on base_service_template.`);
  }
  throw notFound(`Unknown path: ${p.join('/')}`);
}

// used only by the bulk-partial-overwrites bug: overwrite without the title requirement
function replaceLoose(ctx: Ctx, type: string, existing: Rec, body: Rec): Rec {
  const rec: Rec = clone(body);
  rec._key = existing._key;
  rec.sec_grp = type === 'team' ? existing._key : body.sec_grp || existing.sec_grp;
  commonStamp(rec, ctx.user, type);
  normalize(ctx, type, rec, existing);
  store(ctx, type, rec);
  return rec;
}
