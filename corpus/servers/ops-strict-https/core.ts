import {
  type Doc,
  HttpError,
  bad,
  notFound,
  forbidden,
  conflict,
  newKey,
  isObj,
  isStrArray,
  clone,
  isoNow,
  modTime,
  epochNow,
  sharedOpts,
  applyList,
  compileFilter,
  bool01,
  intParam,
  reqStr,
  optStr,
  optNum,
  optBool,
  optInt01,
  optArr,
  optStrArr,
  optObj,
  truthy,
} from './lib.js';
import {
  type User,
  CORE_TYPES,
  SUPPORTED_TYPES,
  GLOBAL_TEAM,
  VERSION,
  SEVERITIES,
  coll,
  canReadCore,
  canWriteCore,
  canWriteTeam,
  canReadTeam,
  defaultTeam,
  retiredLinks,
} from './state.js';
import { type Ctx, type Res, ok, noContent, objBody, optObjBody } from './ctx.js';

const KEY_RE = /^[A-Za-z0-9][A-Za-z0-9_\-.:]{0,127}$/;

function needWrite(u: User): void {
  if (u.readOnly) throw forbidden(`User "${u.name}" does not have write access to this resource.`);
}
function checkType(type: string): void {
  if (!SUPPORTED_TYPES.includes(type)) {
    throw bad(`Unsupported object type "${type}". Supported object types: ${SUPPORTED_TYPES.join(', ')}.`);
  }
}
function visible(u: User, type: string): Doc[] {
  return coll(type)
    .all()
    .filter((d) => canReadCore(u, type, d));
}
function getVisible(u: User, type: string, key: string): Doc {
  const d = coll(type).get(key);
  if (!d || !canReadCore(u, type, d)) throw notFound(`Object of type "${type}" with key "${key}" was not found.`);
  return d;
}

// ---------- validation ----------
function validThresholds(v: unknown, where: string): void {
  if (v === undefined || v === null) return;
  if (!isObj(v)) throw bad(`${where} must be a thresholds object.`);
  for (const f of ['isMinStatic', 'isMaxStatic']) optBool(v, f, `${where}: `);
  for (const f of ['gaugeMin', 'gaugeMax', 'renderBoundaryMin', 'renderBoundaryMax', 'baseSeverityValue']) optNum(v, f, `${where}: `);
  for (const f of ['metricField', 'search', 'baseSeverityLabel', 'baseSeverityColor', 'baseSeverityColorLight']) optStr(v, f, `${where}: `);
  if (v.baseSeverityLabel !== undefined) checkSeverity(v.baseSeverityLabel, v.baseSeverityValue, `${where}.baseSeverityLabel`);
  optArr(v, 'thresholdLevels', `${where}: `);
  const lv = v.thresholdLevels;
  if (Array.isArray(lv)) {
    lv.forEach((l, i) => {
      const w = `${where}.thresholdLevels[${i}]`;
      if (!isObj(l)) throw bad(`${w} must be an object.`);
      optNum(l, 'severityValue', `${w}: `);
      optNum(l, 'thresholdValue', `${w}: `);
      optStr(l, 'severityColor', `${w}: `);
      optStr(l, 'severityColorLight', `${w}: `);
      if (l.severityLabel !== undefined) checkSeverity(l.severityLabel, l.severityValue, `${w}.severityLabel`);
    });
  }
}
function checkSeverity(label: unknown, value: unknown, where: string): void {
  if (typeof label !== 'string' || !(label in SEVERITIES)) {
    throw bad(`${where} must be one of ${Object.keys(SEVERITIES).join(', ')}.`);
  }
  if (value !== undefined && value !== SEVERITIES[label][0]) {
    throw bad(`${where}: severity "${label}" has value ${SEVERITIES[label][0]}, got ${JSON.stringify(value)}.`);
  }
}
const POLICY_TYPES = ['static', 'stdev', 'quantile', 'range', 'percentage'];
function validTvt(v: unknown, where: string): void {
  if (v === undefined || v === null) return;
  if (!isObj(v)) throw bad(`${where} must be an object with "policies" and "time_blocks".`);
  const pol = v.policies ?? {};
  if (!isObj(pol)) throw bad(`${where}.policies must be an object keyed by policy key.`);
  for (const [pk, p] of Object.entries(pol)) {
    const w = `${where}.policies.${pk}`;
    if (!isObj(p)) throw bad(`${w} must be an object.`);
    optStr(p, 'title', `${w}: `);
    if (p.policy_type !== undefined && (typeof p.policy_type !== 'string' || !POLICY_TYPES.includes(p.policy_type))) {
      throw bad(`${w}.policy_type must be one of ${POLICY_TYPES.join(', ')}.`);
    }
    validThresholds(p.aggregate_thresholds, `${w}.aggregate_thresholds`);
    validThresholds(p.entity_thresholds, `${w}.entity_thresholds`);
  }
  const tb = v.time_blocks ?? [];
  if (!Array.isArray(tb)) throw bad(`${where}.time_blocks must be an array.`);
  tb.forEach((b, i) => {
    const w = `${where}.time_blocks[${i}]`;
    if (!isObj(b)) throw bad(`${w} must be an object {policy_key, time_block_key}.`);
    if (typeof b.policy_key !== 'string' || !(b.policy_key in pol)) throw bad(`${w}.policy_key must name a key of policies.`);
    const m = typeof b.time_block_key === 'string' ? /^(\d{2})-(\d{2})$/.exec(b.time_block_key) : null;
    if (!m || Number(m[1]) > 6 || Number(m[2]) > 23) {
      throw bad(`${w}.time_block_key must have the form DD-HH (day 00-06, hour 00-23).`);
    }
  });
}
function validKpis(d: Doc, where: string): void {
  optArr(d, 'kpis', where);
  if (!Array.isArray(d.kpis)) return;
  d.kpis.forEach((k, i) => {
    const w = `kpis[${i}]: `;
    if (!isObj(k)) throw bad(`kpis[${i}] must be an object.`);
    reqStr(k, 'title', w);
    for (const f of [
      'search_type',
      'threshold_field',
      'kpi_base_search',
      'entity_statop',
      'entity_id_fields',
      'gap_severity_color',
      'gap_severity_color_light',
      'backfill_earliest_time',
    ])
      optStr(k, f, w);
    optBool(k, 'time_variate_thresholds', w);
    optBool(k, 'is_entity_breakdown', w);
    optArr(k, 'datamodel_filter', w);
    optObj(k, 'datamodel', w);
    validThresholds(k.entity_thresholds, `kpis[${i}].entity_thresholds`);
    validThresholds(k.aggregate_thresholds, `kpis[${i}].aggregate_thresholds`);
    validTvt(k.time_variate_thresholds_specification, `kpis[${i}].time_variate_thresholds_specification`);
  });
}
function validIdent(d: Doc, f: string): void {
  const v = d[f];
  if (v === undefined) return;
  if (!isObj(v) || (v.fields !== undefined && !isStrArray(v.fields)) || (v.values !== undefined && !isStrArray(v.values))) {
    throw bad(`Field "${f}" must be an object {fields: [string], values: [string]}.`);
  }
}
const WINDOW_TYPES = ['percentage', 'static'];
const CTW_STATUSES = ['active', 'stopped', 'scheduled', 'completed'];

function validate(type: string, d: Doc): void {
  reqStr(d, 'title');
  optStr(d, 'description');
  optStr(d, 'sec_grp');
  switch (type) {
    case 'team':
      if (d.acl !== undefined) {
        if (
          !isObj(d.acl) ||
          (d.acl.read !== undefined && !isStrArray(d.acl.read)) ||
          (d.acl.write !== undefined && !isStrArray(d.acl.write))
        ) {
          throw bad('Field "acl" must be an object {read: [role], write: [role]}.');
        }
      }
      break;
    case 'entity':
      validIdent(d, 'identifier');
      validIdent(d, 'informational');
      optArr(d, 'services');
      if (Array.isArray(d.services) && !d.services.every((s) => isObj(s) && typeof s._key === 'string')) {
        throw bad('Field "services" must be an array of {_key, title}.');
      }
      optInt01(d, 'retirable');
      break;
    case 'service':
    case 'base_service_template':
      validKpis(d, '');
      optInt01(d, 'enabled');
      optArr(d, 'entity_rules');
      optArr(d, 'services_depends_on');
      optStrArr(d, 'tags');
      break;
    case 'kpi_threshold_template':
      optBool(d, 'time_variate_thresholds');
      validTvt(d.time_variate_thresholds_specification, 'time_variate_thresholds_specification');
      validThresholds(d.aggregate_thresholds, 'aggregate_thresholds');
      validThresholds(d.entity_thresholds, 'entity_thresholds');
      break;
    case 'kpi_base_search':
      optStr(d, 'base_search');
      optArr(d, 'metrics');
      break;
    case 'custom_threshold_windows': {
      for (const f of ['pause_description', 'next_scheduled_time', 'cron_schedule']) optStr(d, f);
      if (d.window_type !== undefined && (typeof d.window_type !== 'string' || !WINDOW_TYPES.includes(d.window_type))) {
        throw bad(`Field "window_type" must be one of ${WINDOW_TYPES.join(', ')}.`);
      }
      for (const f of ['window_config_percentage', 'start_time', 'end_time', 'last_stopped_time', 'duration']) optNum(d, f);
      optObj(d, 'window_config_static');
      optBool(d, 'recurrence');
      optBool(d, 'is_overlapping');
      optArr(d, 'overlapping_kpis');
      optStrArr(d, 'sec_grp_list');
      if (typeof d.start_time === 'number' && typeof d.end_time === 'number' && d.end_time <= d.start_time) {
        throw bad('Field "end_time" must be later than "start_time".');
      }
      if (d.status !== undefined && (typeof d.status !== 'string' || !CTW_STATUSES.includes(d.status.toLowerCase()))) {
        throw bad(`Field "status" must be one of ${CTW_STATUSES.join(', ')}.`);
      }
      validLinked(d.linked_services, 'linked_services');
      break;
    }
    default:
      break;
  }
}
function validLinked(v: unknown, where: string): void {
  if (v === undefined) return;
  if (!Array.isArray(v) || !v.every((e) => isObj(e) && typeof e.service_id === 'string' && isStrArray(e.linked_kpi_ids))) {
    throw bad(`Field "${where}" must be an array of {service_id: string, linked_kpi_ids: [string]}.`);
  }
}

// ---------- write ----------
function upsert(u: User, type: string, keyIn: string | undefined, body: Doc, partial: boolean): { key: string; created: boolean } {
  const c = coll(type);
  if (body._key !== undefined && (typeof body._key !== 'string' || !KEY_RE.test(body._key))) {
    throw bad('Field "_key" must be a string of letters, digits, "_", "-", "." or ":".');
  }
  if (keyIn !== undefined && body._key !== undefined && body._key !== keyIn) {
    throw bad(`The "_key" in the payload ("${String(body._key)}") does not match the key in the URL ("${keyIn}").`);
  }
  const key = keyIn ?? (typeof body._key === 'string' ? body._key : undefined);
  const existing = key ? c.get(key) : undefined;
  if (existing) {
    if (!canReadCore(u, type, existing)) throw notFound(`Object of type "${type}" with key "${key}" was not found.`);
    if (!canWriteCore(u, type, existing)) throw forbidden(`User "${u.name}" cannot modify this ${type}.`);
  } else if (partial) {
    throw notFound(`Object of type "${type}" with key "${key}" was not found; a partial update needs an existing object.`);
  }
  const merged: Doc = partial && existing ? { ...clone(existing), ...clone(body) } : clone(body);
  validate(type, merged);
  const finalKey = key ?? newKey();

  let team =
    typeof merged.sec_grp === 'string'
      ? merged.sec_grp
      : existing && typeof existing.sec_grp === 'string'
        ? existing.sec_grp
        : defaultTeam(u);
  if (type === 'team') team = typeof merged.sec_grp === 'string' ? merged.sec_grp : GLOBAL_TEAM;
  if (!coll('team').get(team)) throw bad(`Field "sec_grp": team "${team}" does not exist.`);
  if (type !== 'team' && !canWriteTeam(u, team)) throw forbidden(`User "${u.name}" cannot write objects in team "${team}".`);
  if (type === 'team' && finalKey === GLOBAL_TEAM && !u.admin) throw forbidden('Only administrators can change the Global team.');
  merged.sec_grp = team;

  const title = String(merged.title);
  if (type === 'team') {
    const dup = c.all().find((t) => t._key !== finalKey && String(t.title).toLowerCase() === title.toLowerCase());
    if (dup) throw conflict(`A team titled "${title}" already exists.`);
    if (merged.acl === undefined)
      merged.acl = existing?.acl ?? {
        read: ['ops_admin', ...u.roles.filter((r) => r !== 'ops_admin')],
        write: ['ops_admin', ...u.roles.filter((r) => r !== 'ops_admin')],
        owner: u.name,
      };
  }
  Object.assign(merged, {
    _key: finalKey,
    object_type: type,
    _version: VERSION,
    _user: 'nobody',
    mod_source: 'REST',
    mod_timestamp: isoNow(),
    identifying_name: title.trim().toLowerCase(),
  });
  if (type === 'entity') {
    merged.create_by = existing?.create_by ?? u.name;
    merged.create_time = existing?.create_time ?? isoNow();
    merged.create_source = existing?.create_source ?? 'REST';
    merged.mod_by = u.name;
    merged.mod_time = modTime();
    merged._type = 'entity';
    if (merged.services === undefined) merged.services = [];
    for (const f of ['identifier', 'informational']) {
      const id = merged[f];
      if (isObj(id) && isStrArray(id.fields)) {
        const values = isStrArray(id.values) ? id.values : [];
        for (const fld of id.fields) {
          if (merged[fld] === undefined) merged[fld] = values.length ? [...values] : [];
        }
      }
      if (merged[f] === undefined) merged[f] = { fields: [], values: [] };
    }
  }
  if (type === 'service' || type === 'base_service_template') {
    if (merged.enabled === undefined) merged.enabled = 0;
    else merged.enabled = truthy(merged.enabled) ? 1 : 0;
    if (!Array.isArray(merged.kpis)) merged.kpis = [];
    for (const k of merged.kpis as Doc[]) {
      if (typeof k._key !== 'string' || !k._key) k._key = newKey();
      if (type === 'service') k.service_id = finalKey;
    }
    if (merged.entity_rules === undefined) merged.entity_rules = [];
    if (merged.services_depends_on === undefined) merged.services_depends_on = [];
    if (type === 'service' && merged.base_service_template_id === undefined) merged.base_service_template_id = '';
  }
  if (type === 'custom_threshold_windows') {
    const now = epochNow();
    if (typeof merged.status === 'string') merged.status = merged.status.toLowerCase();
    else merged.status = typeof merged.start_time === 'number' && merged.start_time > now ? 'scheduled' : 'active';
    for (const [f, v] of [
      ['linked_services', []],
      ['overlapping_kpis', []],
      ['is_overlapping', false],
      ['recurrence', false],
      ['window_type', 'percentage'],
      ['pause_description', ''],
      ['last_stopped_time', 0],
    ] as Array<[string, unknown]>) {
      if (merged[f] === undefined) merged[f] = v;
    }
    if (merged.sec_grp_list === undefined) merged.sec_grp_list = [team];
    for (const t of merged.sec_grp_list as string[])
      if (!coll('team').get(t)) throw bad(`Field "sec_grp_list": team "${t}" does not exist.`);
    if (typeof merged.start_time === 'number' && typeof merged.end_time === 'number' && merged.duration === undefined) {
      merged.duration = merged.end_time - merged.start_time;
    }
  }
  c.set(finalKey, merged);
  return { key: finalKey, created: !existing };
}

function removeObject(u: User, type: string, d: Doc, single: boolean): boolean {
  const key = String(d._key);
  if (type === 'team') {
    if (key === GLOBAL_TEAM) {
      if (single) throw forbidden('The Global team cannot be deleted.');
      return false;
    }
    const inUse = CORE_TYPES.filter((t) => t !== 'team').some((t) =>
      coll(t)
        .all()
        .some((o) => o.sec_grp === key),
    );
    if (inUse) {
      if (single) throw conflict(`Team "${key}" still owns objects; move or delete them first.`);
      return false;
    }
  }
  if (!canWriteCore(u, type, d)) {
    if (single) throw forbidden(`User "${u.name}" cannot delete this ${type}.`);
    return false;
  }
  coll(type).del(key);
  if (type === 'service') {
    for (const e of coll('entity').all()) {
      if (Array.isArray(e.services)) e.services = (e.services as Doc[]).filter((s) => s._key !== key);
    }
    for (const t of coll('base_service_template').all()) {
      if (isStrArray(t.linked_services)) t.linked_services = t.linked_services.filter((s) => s !== key);
    }
  }
  if (type === 'base_service_template') {
    for (const s of coll('service').all()) if (s.base_service_template_id === key) s.base_service_template_id = '';
  }
  if (type === 'entity') retiredLinks.delete(key);
  return true;
}

// ---------- decoration on read ----------
function decorate(u: User, type: string, d: Doc): Doc {
  if (type !== 'custom_threshold_windows') return d;
  const w = canWriteCore(u, type, d);
  return { ...d, can_view: true, can_edit: w, can_link: w, can_transition: w && (d.status === 'active' || d.status === 'scheduled') };
}

// ---------- templatize ----------
function templatize(type: string, d: Doc): Doc {
  if (type === 'service') {
    const kpis = (Array.isArray(d.kpis) ? clone(d.kpis) : []) as Doc[];
    return {
      title: d.title,
      description: d.description ?? '',
      service_template_id: '',
      sec_grp: d.sec_grp,
      object_type: 'base_service_template',
      _version: VERSION,
      enabled: truthy(d.enabled) ? 1 : 0,
      services_depends_on: Array.isArray(d.services_depends_on) ? clone(d.services_depends_on) : [],
      tags: Array.isArray(d.tags) ? clone(d.tags) : [],
      serviceTemplateId: d.base_service_template_id ? [d.base_service_template_id] : [],
      entity_rules: Array.isArray(d.entity_rules) ? clone(d.entity_rules) : [],
      kpis,
    };
  }
  const out = clone(d);
  for (const f of ['_key', '_user', 'mod_source', 'mod_timestamp', 'identifying_name']) delete out[f];
  out._version = VERSION;
  return out;
}

// ---------- entity lifecycle ----------
function keysBody(ctx: Ctx): string[] {
  const b = objBody(ctx);
  if (!isStrArray(b.data) || b.data.length === 0) throw bad('Field "data" is required and must be a non-empty array of entity keys.');
  return [...new Set(b.data)];
}
function retire(u: User, e: Doc): void {
  const k = String(e._key);
  retiredLinks.set(k, Array.isArray(e.services) ? clone(e.services as Doc[]) : []);
  e.services = [];
  e.retired = 1;
  e.retired_time = epochNow();
  delete e.retirable;
  e.mod_by = u.name;
  e.mod_time = modTime();
  e.mod_timestamp = isoNow();
}
function entityFor(u: User, key: string): Doc {
  const e = getVisible(u, 'entity', key);
  if (!canWriteCore(u, 'entity', e)) throw forbidden(`User "${u.name}" cannot modify entity "${key}".`);
  return e;
}

function permissionsFor(u: User, d: Doc): Doc {
  const w = canWriteCore(u, 'entity', d);
  return { user: u.name, group: { read: true, write: w, delete: w }, read: true, write: w, delete: w };
}

// ---------- custom threshold windows ----------
function ctwId(ctx: Ctx, pathId: string | undefined): string {
  const a = ctx.q.get('ctw_id');
  const b = ctx.q.get('custom_threshold_window_id');
  const ids = [pathId, a, b].filter((x): x is string => typeof x === 'string' && x !== '');
  if (ids.length === 0) throw bad('Parameter "ctw_id" is required.');
  if (new Set(ids).size > 1) throw bad('The window identifiers given in the path and parameters do not match.');
  return ids[0];
}
function kpiIndex(u: User, serviceId: string, kpiIds: string[], where: string): Doc {
  const s = coll('service').get(serviceId);
  if (!s || !canReadCore(u, 'service', s)) throw notFound(`${where}: service "${serviceId}" was not found.`);
  const have = new Set((Array.isArray(s.kpis) ? (s.kpis as Doc[]) : []).map((k) => String(k._key)));
  const missing = kpiIds.filter((k) => !have.has(k));
  if (missing.length) throw bad(`${where}: service "${serviceId}" has no KPI with key(s) ${missing.join(', ')}.`);
  return s;
}
function mergeLinks(target: Doc[], add: Doc[]): Doc[] {
  const out = clone(target);
  for (const a of add) {
    const ex = out.find((o) => o.service_id === a.service_id);
    if (ex) ex.linked_kpi_ids = [...new Set([...(ex.linked_kpi_ids as string[]), ...(a.linked_kpi_ids as string[])])];
    else out.push(clone(a));
  }
  return out;
}
function recomputeOverlaps(): void {
  const all = coll('custom_threshold_windows').all();
  const count = new Map<string, number>();
  for (const w of all) {
    if (w.status !== 'active' && w.status !== 'scheduled') continue;
    for (const l of (w.linked_services as Doc[] | undefined) ?? [])
      for (const k of l.linked_kpi_ids as string[]) count.set(k, (count.get(k) ?? 0) + 1);
  }
  for (const w of all) {
    const ov: string[] = [];
    for (const l of (w.linked_services as Doc[] | undefined) ?? [])
      for (const k of l.linked_kpi_ids as string[]) if ((count.get(k) ?? 0) > 1) ov.push(k);
    w.overlapping_kpis = ov;
    w.is_overlapping = ov.length > 0;
  }
}

function ctwHandler(ctx: Ctx, rest: string[]): Res | null {
  const u = ctx.user;
  const T = 'custom_threshold_windows';
  if (rest.length === 1 && rest[0] === 'linked_kpis') {
    if (ctx.method !== 'GET') throw methodNotAllowed(['GET']);
    const id = ctwId(ctx, undefined);
    const w = getVisible(u, T, id);
    const limit = intParam(ctx.q, 'limit') ?? 0;
    const rows: Doc[] = [];
    for (const l of (w.linked_services as Doc[] | undefined) ?? []) {
      const s = coll('service').get(String(l.service_id));
      if (!s || !canReadCore(u, 'service', s)) continue;
      for (const kid of l.linked_kpi_ids as string[]) {
        const k = ((s.kpis as Doc[] | undefined) ?? []).find((x) => x._key === kid);
        if (!k) continue;
        rows.push({ kpi_key: kid, kpi_title: k.title, service_title: s.title, service_key: s._key });
      }
    }
    return ok({ linked_kpis: limit > 0 ? rows.slice(0, limit) : rows, count: rows.length });
  }
  if (rest.length === 2 && ['associate_service_kpi', 'disconnect_kpis', 'stop'].includes(rest[1])) {
    if (ctx.method !== 'POST') throw methodNotAllowed(['POST']);
    needWrite(u);
    const id = rest[1] === 'stop' ? rest[0] : ctwId(ctx, rest[0]);
    const w = getVisible(u, T, id);
    if (!canWriteCore(u, T, w)) throw forbidden(`User "${u.name}" cannot modify this custom threshold window.`);
    if (rest[1] === 'stop') {
      if (w.status !== 'active') throw conflict(`Only an active window can be stopped; this window is "${String(w.status)}".`);
      w.status = 'stopped';
      w.last_stopped_time = epochNow();
      w.mod_timestamp = isoNow();
      recomputeOverlaps();
      return ok(decorate(u, T, w));
    }
    if (rest[1] === 'disconnect_kpis') {
      const b = optObjBody(ctx);
      const before = clone((w.linked_services as Doc[] | undefined) ?? []);
      let removed: Doc[] = before;
      const sel = b.service_kpis_dict ?? b.linked_services;
      if (sel !== undefined) {
        validLinked(sel, 'service_kpis_dict');
        removed = [];
        const remaining: Doc[] = [];
        for (const l of before) {
          const s = (sel as Doc[]).find((x) => x.service_id === l.service_id);
          const drop = s ? (l.linked_kpi_ids as string[]).filter((k) => (s.linked_kpi_ids as string[]).includes(k)) : [];
          const keep = (l.linked_kpi_ids as string[]).filter((k) => !drop.includes(k));
          if (drop.length) removed.push({ service_id: l.service_id, linked_kpi_ids: drop });
          if (keep.length) remaining.push({ service_id: l.service_id, linked_kpi_ids: keep });
        }
        w.linked_services = remaining;
      } else w.linked_services = [];
      w.mod_timestamp = isoNow();
      recomputeOverlaps();
      return ok({ service_kpis_dict: removed });
    }
    // associate_service_kpi
    const windows = new Set<string>([id]);
    let adds: Doc[] = [];
    const b = ctx.body;
    const takeKeys = (v: unknown): void => {
      if (typeof v === 'string')
        v.split(',')
          .map((s) => s.trim())
          .filter(Boolean)
          .forEach((s) => {
            windows.add(s);
          });
      else if (isStrArray(v))
        v.forEach((s) => {
          windows.add(s);
        });
      else if (v !== undefined) throw bad('Window keys must be a string or an array of strings.');
    };
    if (ctx.hasBody) {
      if (typeof b === 'string' || Array.isArray(b)) takeKeys(b);
      else if (isObj(b)) {
        takeKeys(b._key);
        takeKeys(b.ctw_ids);
        if (b.services !== undefined) {
          if (!Array.isArray(b.services) || !b.services.every((s) => isObj(s) && typeof s._key === 'string' && isStrArray(s.kpi_ids))) {
            throw bad('Field "services" must be an array of {_key: service key, kpi_ids: [string]}.');
          }
          adds = (b.services as Doc[]).map((s) => ({ service_id: s._key, linked_kpi_ids: s.kpi_ids }));
        }
        if (b.linked_services !== undefined) {
          validLinked(b.linked_services, 'linked_services');
          adds = [...adds, ...(b.linked_services as Doc[])];
        }
      } else if (b !== null) throw bad('The request body must hold the key(s) of the window(s).');
    }
    const wins: Doc[] = [];
    for (const k of windows) {
      const win = getVisible(u, T, k);
      if (!canWriteCore(u, T, win)) throw forbidden(`User "${u.name}" cannot modify window "${k}".`);
      wins.push(win);
    }
    adds.forEach((a, i) => {
      kpiIndex(u, String(a.service_id), a.linked_kpi_ids as string[], `services[${i}]`);
    });
    if (adds.length) w.linked_services = mergeLinks((w.linked_services as Doc[] | undefined) ?? [], adds);
    const agg = new Map<string, Set<string>>();
    for (const win of wins) {
      for (const l of (win.linked_services as Doc[] | undefined) ?? []) {
        const sid = String(l.service_id);
        const s = coll('service').get(sid);
        if (!s) continue;
        const have = new Set(((s.kpis as Doc[] | undefined) ?? []).map((k) => String(k._key)));
        const set = agg.get(sid) ?? new Set<string>();
        for (const kid of l.linked_kpi_ids as string[]) if (have.has(kid)) set.add(kid);
        agg.set(sid, set);
      }
      win.mod_timestamp = isoNow();
    }
    recomputeOverlaps();
    return ok({ services: [...agg.entries()].filter(([, s]) => s.size).map(([k, s]) => ({ _key: k, kpi_ids: [...s] })) });
  }
  return null;
}

export function methodNotAllowed(allowed: string[]): HttpError {
  return new HttpError(405, `Method not allowed. Allowed: ${allowed.join(', ')}.`, { Allow: allowed.join(', ') });
}

// ---------- main ----------
export function coreHandler(ctx: Ctx, seg: string[]): Res {
  const u = ctx.user;
  const m = ctx.method;
  if (seg.length === 0) throw notFound('No interface endpoint given.');
  if (seg.length === 1 && seg[0] === 'get_supported_object_types') {
    if (m !== 'GET') throw methodNotAllowed(['GET']);
    return ok(SUPPORTED_TYPES);
  }
  if (seg.length === 1 && seg[0] === 'get_alias_list') {
    if (m !== 'GET') throw methodNotAllowed(['GET']);
    const id = new Set<string>();
    const inf = new Set<string>();
    for (const e of visible(u, 'entity')) {
      if (isObj(e.identifier) && isStrArray(e.identifier.fields))
        e.identifier.fields.forEach((f) => {
          id.add(f);
        });
      if (isObj(e.informational) && isStrArray(e.informational.fields))
        e.informational.fields.forEach((f) => {
          inf.add(f);
        });
    }
    return ok({ identifier: [...id].sort(), informational: [...inf].sort() });
  }
  const type = seg[0];
  checkType(type);
  const rest = seg.slice(1);

  if (type === 'custom_threshold_windows') {
    const r = ctwHandler(ctx, rest);
    if (r) return r;
  }
  if (type === 'entity' && rest.length === 1 && ['count_retirable', 'retire', 'restore', 'retire_retirable'].includes(rest[0])) {
    const op = rest[0];
    if (op === 'count_retirable') {
      if (m !== 'GET') throw methodNotAllowed(['GET']);
      return ok(
        visible(u, 'entity')
          .filter((e) => truthy(e.retirable) && !truthy(e.retired))
          .map((e) => ({
            object_type: 'entity',
            title: e.title,
            retirable: 1,
            sec_grp: e.sec_grp,
            _key: e._key,
            permissions: permissionsFor(u, e),
          })),
      );
    }
    if (m !== 'POST') throw methodNotAllowed(['POST']);
    needWrite(u);
    if (op === 'retire_retirable') {
      const out: string[] = [];
      for (const e of visible(u, 'entity')) {
        if (truthy(e.retirable) && !truthy(e.retired) && canWriteCore(u, 'entity', e)) {
          retire(u, e);
          out.push(String(e._key));
        }
      }
      return ok(out);
    }
    const keys = keysBody(ctx);
    const ents = keys.map((k) => entityFor(u, k));
    const out: string[] = [];
    for (const e of ents) {
      const k = String(e._key);
      if (op === 'retire' && !truthy(e.retired)) {
        retire(u, e);
        out.push(k);
      }
      if (op === 'restore' && truthy(e.retired)) {
        const links = (retiredLinks.get(k) ?? []).filter((s) => coll('service').get(String(s._key)));
        e.services = links;
        retiredLinks.delete(k);
        delete e.retired;
        delete e.retired_time;
        e.retirable = 0;
        e.mod_by = u.name;
        e.mod_time = modTime();
        e.mod_timestamp = isoNow();
        out.push(k);
      }
    }
    return ok(out);
  }

  if (rest.length === 0) {
    if (m === 'GET') return ok(applyList(visible(u, type), sharedOpts(ctx.q)).map((d) => decorate(u, type, d)));
    if (m === 'POST') {
      needWrite(u);
      const r = upsert(u, type, undefined, objBody(ctx), false);
      return ok({ _key: r.key }, r.created ? 201 : 200);
    }
    if (m === 'DELETE') {
      needWrite(u);
      const o = sharedOpts(ctx.q);
      const targets = applyList(visible(u, type), { ...o, fields: undefined });
      for (const d of targets) removeObject(u, type, coll(type).get(String(d._key)) ?? d, false);
      return noContent();
    }
    throw methodNotAllowed(['GET', 'POST', 'DELETE']);
  }
  if (rest.length === 1 && rest[0] === 'count') {
    if (m !== 'GET') throw methodNotAllowed(['GET']);
    return ok({ count: visible(u, type).filter(compileFilter(ctx.q.get('filter'))).length });
  }
  if (rest.length === 1 && rest[0] === 'bulk_update') {
    if (m !== 'POST') throw methodNotAllowed(['POST']);
    needWrite(u);
    const partial = bool01(ctx.q, 'is_partial_data', false);
    if (!ctx.hasBody || !Array.isArray(ctx.body) || ctx.body.length === 0)
      throw bad('The request body must be a non-empty JSON array of objects.');
    const items = ctx.body;
    items.forEach((it, i) => {
      if (!isObj(it) || typeof it._key !== 'string' || it._key === '') throw bad(`Item ${i} must be an object with a "_key".`);
    });
    const c = coll(type);
    const snap = new Map([...c.m.entries()].map(([k, v]) => [k, clone(v)]));
    try {
      const keys = (items as Doc[]).map((it) => upsert(u, type, String(it._key), it, partial).key);
      // The document's answer is {_key}: one key, or the list of them for several objects.
      if (process.env.BUG === 'bulk-update-array-answer') return ok(keys.map((k) => ({ _key: k })));
      return ok({ _key: keys.length === 1 ? keys[0] : keys });
    } catch (e) {
      c.m = snap;
      throw e;
    }
  }
  const key = rest[0];
  if (rest.length === 1) {
    if (m === 'GET') return ok(decorate(u, type, getVisible(u, type, key)));
    if (m === 'POST') {
      needWrite(u);
      const partial = bool01(ctx.q, 'is_partial_data', false);
      const r = upsert(u, type, key, objBody(ctx), partial);
      if (r.created) {
        // A full write to an unknown key creates it only when it is a valid key
        return ok({ _key: r.key }, 201);
      }
      return ok({ _key: r.key });
    }
    if (m === 'DELETE') {
      needWrite(u);
      removeObject(u, type, getVisible(u, type, key), true);
      return noContent();
    }
    throw methodNotAllowed(['GET', 'POST', 'DELETE']);
  }
  if (rest.length === 2 && rest[1] === 'templatize') {
    if (m !== 'GET') throw methodNotAllowed(['GET']);
    if (type !== 'service' && type !== 'kpi_base_search') throw bad('templatize is supported only for "service" and "kpi_base_search".');
    return ok(templatize(type, getVisible(u, type, key)));
  }
  if (rest.length === 2 && rest[1] === 'base_service_template' && type === 'service') {
    const s = getVisible(u, 'service', key);
    if (m === 'GET') {
      const t = typeof s.base_service_template_id === 'string' ? s.base_service_template_id : '';
      if (!t) throw notFound(`Service "${key}" is not linked to a service template.`);
      return ok({ _key: t });
    }
    if (m !== 'POST') throw methodNotAllowed(['GET', 'POST']);
    needWrite(u);
    if (!canWriteCore(u, 'service', s)) throw forbidden(`User "${u.name}" needs write access to service "${key}".`);
    if (!canReadTeam(u, GLOBAL_TEAM)) throw forbidden(`Linking a service to a template requires read access to the Global team.`);
    const b = objBody(ctx);
    const tk = reqStr(b, '_key');
    const t = coll('base_service_template').get(tk);
    if (!t || !canReadCore(u, 'base_service_template', t)) throw notFound(`Service template "${tk}" was not found.`);
    const old = typeof s.base_service_template_id === 'string' ? s.base_service_template_id : '';
    if (old && old !== tk) {
      const ot = coll('base_service_template').get(old);
      if (ot && isStrArray(ot.linked_services)) ot.linked_services = ot.linked_services.filter((x) => x !== key);
    }
    s.base_service_template_id = tk;
    const rules = Array.isArray(t.entity_rules) ? clone(t.entity_rules) : [];
    s.entity_rules = [...(Array.isArray(s.entity_rules) ? s.entity_rules : []), ...rules];
    const ls = isStrArray(t.linked_services) ? t.linked_services : [];
    if (!ls.includes(key)) t.linked_services = [...ls, key];
    s.mod_timestamp = isoNow();
    return ok({ _key: key });
  }
  throw notFound(`Unknown endpoint "${seg.join('/')}".`);
}
