// Generic object writes (create, full and partial update, bulk, delete) with per-type hooks.
import {
  GLOBAL_TEAM,
  SCHEMA_VERSION,
  HttpError,
  bad,
  notFound,
  forbidden,
  conflict,
  clone,
  isObj,
  deepMerge,
  isoTs,
  modTime,
  plainTime,
  nowPrecise,
  epochInt,
  epoch,
  objectIdKey,
  upperUuid,
  kpiKey,
  hex,
  KEY_RE,
  truthyFlag,
} from './util.mjs';
import * as db from './store.mjs';
import { requireWriter } from './auth.mjs';
import { schemaFields, requiredFields } from './schema.mjs';
import { bug } from './bugs.mjs';

export const CORE_TYPES = [
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
export const UNUSED_CORE_TYPES = ['entity_relationship', 'entity_relationship_rule'];
export const RESERVED_KEYS = new Set([
  'count',
  'bulk_update',
  'linked_kpis',
  'count_retirable',
  'retire',
  'restore',
  'retire_retirable',
  'templatize',
  'get_alias_list',
  'get_supported_object_types',
  'vLatest',
  'refresh',
]);

const SYSTEM = ['_key', 'object_type', 'create_time', 'create_by', 'create_source'];

export const scopeOf = (iface, type) => `${iface}:${type}`;
const typeOf = (scope) => scope.slice(scope.indexOf(':') + 1);

function newKey(scope) {
  const type = typeOf(scope);
  if (type === 'entity') return upperUuid();
  if (scope.startsWith('backup:')) return `bkp_${hex(20)}`;
  if (type === 'team') return `team-${hex(8)}-${hex(4)}`;
  return objectIdKey();
}

function checkKey(k) {
  if (typeof k !== 'string' || !KEY_RE.test(k) || RESERVED_KEYS.has(k)) throw bad(`Invalid _key ${JSON.stringify(k)}`);
}

function checkRequired(type, obj) {
  for (const f of requiredFields(type)) {
    if (!(f in obj)) throw bad(`Missing required field "${f}" for object type ${type} (is_partial_data=0 writes the whole object)`);
  }
}

function checkTitle(obj) {
  if ('title' in obj && obj.title !== null && typeof obj.title !== 'string') throw bad('title must be a string');
}

// ---------- per-type normalisation ----------
function normalize(ctx, scope, obj, prev) {
  const type = typeOf(scope);
  const iface = scope.slice(0, scope.indexOf(':'));
  const now = nowPrecise();
  obj.object_type = type;
  if (iface === 'core' || iface === 'maint' || iface === 'backup' || iface === 'event') {
    if (!('sec_grp' in obj) || obj.sec_grp === undefined || obj.sec_grp === null || obj.sec_grp === '') obj.sec_grp = GLOBAL_TEAM;
    if (typeof obj.sec_grp !== 'string') throw bad('sec_grp must be a team key (string)');
    if (type !== 'team' && !db.teamExists(obj.sec_grp)) throw bad(`Unknown team (sec_grp) "${obj.sec_grp}"`);
  }
  if (typeof obj.title === 'string') obj.identifying_name = obj.title.toLowerCase();
  else delete obj.identifying_name;
  obj._version = SCHEMA_VERSION;
  obj._user = ctx.pathUser || 'nobody';
  obj.mod_source = 'REST';
  obj.mod_timestamp = isoTs(now);
  obj.mod_time = modTime(now);
  obj.mod_by = ctx.user.name;
  if (!prev) {
    obj.create_time = scope.startsWith('backup:') ? plainTime(now) : isoTs(now);
    obj.create_by = ctx.user.name;
    obj.create_source = 'REST';
  } else {
    for (const f of ['create_time', 'create_by', 'create_source']) if (f in prev) obj[f] = prev[f];
  }
  const hook = Object.hasOwn(HOOKS, scope) ? HOOKS[scope] : undefined;
  if (hook) hook(ctx, obj, prev, now);
}

function uniqueTitle(scope, obj, what) {
  if (typeof obj.title !== 'string') return;
  for (const o of db.coll(scope).values()) {
    if (o._key !== obj._key && typeof o.title === 'string' && o.title.toLowerCase() === obj.title.toLowerCase()) {
      throw conflict(`A ${what} titled "${o.title}" already exists (_key ${o._key})`);
    }
  }
}

function normKpis(obj, serviceKey) {
  if (obj.kpis === undefined) obj.kpis = [];
  if (!Array.isArray(obj.kpis)) throw bad('kpis must be an array');
  obj.kpis = obj.kpis.map((k) => {
    if (!isObj(k)) throw bad('each KPI must be an object');
    const kk = { ...k };
    if (typeof kk._key !== 'string' || !kk._key) kk._key = kpiKey();
    if (serviceKey) {
      kk.service_id = serviceKey;
      kk.service_title = obj.title;
    }
    return kk;
  });
}

const HOOKS = {
  'core:team'(ctx, obj) {
    uniqueTitle('core:team', obj, 'team');
    obj.sec_grp = GLOBAL_TEAM;
    if (!isObj(obj.acl)) obj.acl = { owner: ctx.user.name, read: ['ops_user', 'ops_admin'], write: ['ops_admin'], delete: ['ops_admin'] };
  },
  'core:entity'(_ctx, obj, _prev) {
    obj._type = 'entity';
    for (const part of ['identifier', 'informational']) {
      if (obj[part] === undefined) obj[part] = { fields: [], values: [] };
      const v = obj[part];
      if (!isObj(v) || !Array.isArray(v.fields ?? []) || !Array.isArray(v.values ?? []))
        throw bad(`${part} must be {fields: [string], values: [string]}`);
      v.fields = v.fields ?? [];
      v.values = v.values ?? [];
      // one array of strings per field name
      v.fields.forEach((f, i) => {
        if (typeof f !== 'string') throw bad(`${part}.fields must hold strings`);
        if (obj[f] === undefined) obj[f] = typeof v.values[i] === 'string' ? [v.values[i]] : [];
      });
    }
    if ('retirable' in obj) {
      if (truthyFlag(obj.retirable)) obj.retirable = 1;
      else delete obj.retirable;
    }
    if (obj.services === undefined) obj.services = [];
    if (!Array.isArray(obj.services)) throw bad('services must be an array of {_key, title}');
    obj.services = obj.services.map((s) => {
      const k = typeof s === 'string' ? s : isObj(s) ? s._key : undefined;
      if (typeof k !== 'string') throw bad('services entries need a _key');
      const svc = db.get('core:service', k);
      return { _key: k, title: svc ? svc.title : isObj(s) && typeof s.title === 'string' ? s.title : '' };
    });
    const h = db.hidden('core:entity', obj._key);
    if (h.retired) {
      // a retired entity stays un-linked; new memberships are remembered for restore
      for (const s of obj.services) if (!h.savedServices.some((x) => x._key === s._key)) h.savedServices.push(s);
      obj.services = [];
    }
  },
  'core:service'(_ctx, obj) {
    uniqueTitle('core:service', obj, 'service');
    normKpis(obj, obj._key);
    if (obj.entity_rules === undefined) obj.entity_rules = [];
    if (!Array.isArray(obj.entity_rules)) throw bad('entity_rules must be an array');
    if (obj.enabled === undefined) obj.enabled = 1;
    if (obj.services_depends_on === undefined) obj.services_depends_on = [];
    delete obj.base_service_template_id; // managed through the base_service_template link endpoint
  },
  'core:base_service_template'(_ctx, obj, prev) {
    normKpis(obj, null);
    if (obj.entity_rules === undefined) obj.entity_rules = [];
    if (!Array.isArray(obj.entity_rules)) throw bad('entity_rules must be an array');
    const linked = prev && Array.isArray(prev.linked_services) ? prev.linked_services : [];
    obj.linked_services = linked.slice();
    obj.total_linked_services = linked.length;
  },
  'core:kpi_base_search'(_ctx, obj) {
    if (obj.metrics === undefined) obj.metrics = [];
    if (!Array.isArray(obj.metrics)) throw bad('metrics must be an array');
    obj.metrics = obj.metrics.map((m) => {
      if (!isObj(m)) throw bad('each metric must be an object');
      return typeof m._key === 'string' && m._key ? { ...m } : { ...m, _key: `${hex(8)}_bsm` };
    });
    obj.objectType = 'kpi_base_search';
  },
  'core:kpi_threshold_template'(_ctx, obj) {
    obj.objectType = 'kpi_threshold_template';
    const s = obj.time_variate_thresholds_specification;
    if (s !== undefined && !isObj(s)) throw bad('time_variate_thresholds_specification must be an object');
  },
  'core:custom_threshold_windows'(_ctx, obj, _prev) {
    if (obj.status === undefined) obj.status = 'active';
    if (typeof obj.status !== 'string') throw bad('status must be a string');
    obj.status = obj.status.toLowerCase();
    if (obj.window_type === undefined) obj.window_type = 'percentage';
    if (obj.linked_services === undefined) obj.linked_services = [];
    if (!Array.isArray(obj.linked_services)) throw bad('linked_services must be an array');
    for (const l of obj.linked_services) {
      if (!isObj(l) || typeof l.service_id !== 'string' || !Array.isArray(l.linked_kpi_ids))
        throw bad('linked_services entries are {service_id, linked_kpi_ids: [string]}');
    }
    if (obj.sec_grp_list === undefined) obj.sec_grp_list = [obj.sec_grp];
    for (const f of ['can_view', 'can_link', 'can_edit', 'can_transition']) delete obj[f];
  },
  'maint:maintenance_calendar'(ctx, obj, prev) {
    for (const f of ['start_time', 'end_time']) {
      if (typeof obj[f] !== 'number' || !Number.isFinite(obj[f])) throw bad(`${f} must be epoch seconds (number)`);
    }
    if (obj.end_time < obj.start_time) throw bad('end_time is before start_time');
    if (obj.objects === undefined) obj.objects = [];
    if (!Array.isArray(obj.objects)) throw bad('objects must be an array');
    for (const o of obj.objects) {
      if (!isObj(o) || (o.object_type !== 'service' && o.object_type !== 'entity') || typeof o._key !== 'string') {
        throw bad("objects entries are {object_type: 'service' or 'entity', _key}");
      }
    }
    if (obj.sec_grp_list === undefined || (Array.isArray(obj.sec_grp_list) && obj.sec_grp_list.length === 0)) {
      const teams = new Set();
      for (const o of obj.objects) {
        const t = db.get(`core:${o.object_type}`, o._key);
        teams.add(t && typeof t.sec_grp === 'string' ? t.sec_grp : GLOBAL_TEAM);
      }
      if (!teams.size) teams.add(obj.sec_grp);
      obj.sec_grp_list = [...teams];
    }
    if (!Array.isArray(obj.sec_grp_list) || obj.sec_grp_list.some((x) => typeof x !== 'string'))
      throw bad('sec_grp_list must be an array of strings');
    obj._owner = prev?._owner || ctx.user.name;
  },
  'maint:operative_maintenance_log'(ctx, obj, prev) {
    obj._owner = prev?._owner || ctx.user.name;
    if (obj.sec_grp_list === undefined) obj.sec_grp_list = [obj.sec_grp];
  },
  'backup:backup_restore'(ctx, obj, prev, now) {
    if (obj.job_type === undefined) obj.job_type = 'Backup';
    if (obj.job_type !== 'Backup' && obj.job_type !== 'Restore') throw bad('job_type must be "Backup" or "Restore"');
    if (obj.status === undefined) obj.status = 'Queued';
    if (typeof obj.status !== 'string') throw bad('status must be a string');
    if (obj.status === 'Queued' && prev?.status !== 'Queued') obj.last_queued_time = epochInt(now);
    if (obj.last_queued_time === undefined && prev) obj.last_queued_time = prev.last_queued_time;
    if (obj.rules === undefined) obj.rules = [];
    if (obj.search_head_id === undefined) obj.search_head_id = prev?.search_head_id || 'A1B2C3D4-SH-0001';
    if (obj.platform_server === undefined) obj.platform_server = prev?.platform_server || 'sh1.ops.example.net';
    if (obj.last_error === undefined) obj.last_error = 'None';
    if (obj.path === undefined) obj.path = '';
    obj._owner = prev?._owner || ctx.user.name;
  },
};

// Decorate an object for output to a caller (computed fields).
export function present(ctx, scope, obj) {
  const o = clone(obj);
  if (scope === 'core:entity') {
    o.retired = db.hidden(scope, obj._key).retired ? 1 : 0;
  } else if (scope === 'core:service') {
    o.base_service_template_id = db.hidden(scope, obj._key).template || '';
  } else if (scope === 'core:custom_threshold_windows') {
    const w = db.canWrite(ctx.user, scope, obj);
    o.can_view = db.canRead(ctx.user, scope, obj);
    o.can_link = w;
    o.can_edit = w;
    o.can_transition = w && o.status === 'active';
  }
  return o;
}

// ---------- writes ----------
function afterWrite(_ctx, scope, obj, prev) {
  if (scope === 'core:service' && prev && prev.title !== obj.title) {
    for (const e of db.coll('core:entity').values()) {
      for (const s of e.services || []) if (s._key === obj._key) s.title = obj.title;
      const h = db.hidden('core:entity', e._key);
      for (const s of h.savedServices || []) if (s._key === obj._key) s.title = obj.title;
    }
  }
  if (scope === 'core:kpi_threshold_template') propagateThresholdTemplate(obj);
  if (scope === 'core:kpi_base_search') propagateBaseSearch(obj);
}

function propagateThresholdTemplate(t) {
  for (const svc of db.coll('core:service').values()) {
    for (const k of svc.kpis || []) {
      if (k.kpi_threshold_template_id !== t._key) continue;
      for (const f of [
        'time_variate_thresholds',
        'time_variate_thresholds_specification',
        'adaptive_thresholds_is_enabled',
        'adaptive_thresholding_training_window',
      ]) {
        if (t[f] !== undefined) k[f] = clone(t[f]);
      }
    }
  }
}
function propagateBaseSearch(bs) {
  for (const svc of db.coll('core:service').values()) {
    for (const k of svc.kpis || []) {
      if (k.base_search_id !== bs._key) continue;
      if (bs.base_search !== undefined) k.base_search = bs.base_search;
      const m = (bs.metrics || []).find((x) => x._key === k.base_search_metric);
      if (m)
        for (const f of [
          'threshold_field',
          'entity_statop',
          'aggregate_statop',
          'unit',
          'fill_gaps',
          'gap_severity',
          'gap_severity_color',
          'gap_severity_color_light',
          'gap_severity_value',
        ])
          if (m[f] !== undefined) k[f] = m[f];
    }
  }
}

function stripSystem(body) {
  const o = clone(body);
  for (const f of SYSTEM) delete o[f];
  return o;
}

/** Build (without storing) the result of a full write. */
function buildFull(ctx, scope, key, body, prev) {
  const type = typeOf(scope);
  checkRequired(type, body);
  checkTitle(body);
  const obj = stripSystem(body);
  obj._key = key;
  normalize(ctx, scope, obj, prev);
  return obj;
}
function buildPartial(ctx, scope, prev, body) {
  const type = typeOf(scope);
  if (bug('partial_is_full')) {
    const obj = stripSystem(body);
    obj._key = prev._key;
    normalize(ctx, scope, obj, prev);
    return obj;
  }
  checkTitle(body);
  const patch = stripSystem(body);
  const allowed = schemaFields(type, deepMerge(prev, patch));
  for (const k of Object.keys(patch)) if (!allowed.has(k)) delete patch[k];
  const obj = deepMerge(prev, patch);
  obj._key = prev._key;
  normalize(ctx, scope, obj, prev);
  return obj;
}

function checkCreateAccess(ctx, scope, obj) {
  if (!db.canWrite(ctx.user, scope, obj))
    throw forbidden(`User ${ctx.user.name} cannot write to team(s) ${db.teamsOf(scope, obj).join(', ')}`);
}
function checkUpdateAccess(ctx, scope, prev) {
  if (!db.canRead(ctx.user, scope, prev)) throw notFound(`Object ${prev._key} not found`);
  if (!db.canWrite(ctx.user, scope, prev)) throw forbidden(`User ${ctx.user.name} cannot modify ${prev._key}`);
}

export function parsePartialFlag(q) {
  const all = q.getAll('is_partial_data');
  const raw = all.length ? all[all.length - 1].trim() : undefined;
  if (raw === undefined || raw === '') return false;
  if (raw === '1') return true;
  if (raw === '0') return false;
  throw bad(`is_partial_data must be 1 or 0, got "${raw}"`);
}

/** POST <type>: create, or full update when body._key names an existing object. Returns [status, key]. */
export function createOrUpdate(ctx, scope, body) {
  requireWriter(ctx.user);
  if (!isObj(body)) throw bad('Payload must be a JSON object following the type schema');
  if (body._key !== undefined) {
    checkKey(body._key);
    const prev = db.get(scope, body._key);
    if (prev) {
      checkUpdateAccess(ctx, scope, prev);
      const obj = buildFull(ctx, scope, prev._key, body, prev);
      checkCreateAccess(ctx, scope, obj);
      db.put(scope, obj);
      afterWrite(ctx, scope, obj, prev);
      return [200, obj._key];
    }
  }
  const key = body._key !== undefined ? body._key : newKey(scope);
  const obj = buildFull(ctx, scope, key, body, null);
  checkCreateAccess(ctx, scope, obj);
  db.put(scope, obj);
  afterWrite(ctx, scope, obj, null);
  return [201, key];
}

/** POST <type>/<key>. */
export function updateByKey(ctx, scope, key, body, partial) {
  requireWriter(ctx.user);
  if (!isObj(body)) throw bad('Payload must be a JSON object');
  const prev = db.get(scope, key);
  if (!prev) {
    if (partial) throw notFound(`Object ${key} not found; a partial update needs an existing object`);
    checkKey(key);
    const obj = buildFull(ctx, scope, key, body, null);
    checkCreateAccess(ctx, scope, obj);
    db.put(scope, obj);
    afterWrite(ctx, scope, obj, null);
    return [201, key];
  }
  checkUpdateAccess(ctx, scope, prev);
  const obj = partial ? buildPartial(ctx, scope, prev, body) : buildFull(ctx, scope, key, body, prev);
  checkCreateAccess(ctx, scope, obj);
  db.put(scope, obj);
  afterWrite(ctx, scope, obj, prev);
  return [200, key];
}

/** POST <type>/bulk_update: all-or-nothing. Returns the key of the last object written. */
export function bulkUpdate(ctx, scope, body, partial) {
  requireWriter(ctx.user);
  if (!Array.isArray(body)) throw bad('bulk_update expects an array of objects, each with _key');
  const seen = new Map();
  const staged = [];
  body.forEach((item, i) => {
    if (!isObj(item)) throw bad(`Element ${i} is not an object`);
    if (item._key === undefined) throw bad(`Element ${i} has no _key`);
    checkKey(item._key);
    const prev = seen.has(item._key) ? seen.get(item._key) : db.get(scope, item._key);
    let obj;
    if (!prev) {
      if (partial) throw notFound(`Element ${i}: object ${item._key} not found`);
      obj = buildFull(ctx, scope, item._key, item, null);
    } else {
      checkUpdateAccess(ctx, scope, prev);
      obj = partial ? buildPartial(ctx, scope, prev, item) : buildFull(ctx, scope, item._key, item, prev);
    }
    checkCreateAccess(ctx, scope, obj);
    seen.set(item._key, obj);
    staged.push([obj, db.get(scope, item._key)]);
  });
  for (const [obj, prev] of staged) {
    db.put(scope, obj);
    afterWrite(ctx, scope, obj, prev);
  }
  return staged.length ? staged[staged.length - 1][0]._key : '';
}

// ---------- deletes ----------
function protectDelete(_ctx, scope, obj, _single) {
  if (scope === 'core:team') {
    if (obj._key === GLOBAL_TEAM) return 'The Global team cannot be deleted';
    for (const t of CORE_TYPES) {
      if (t === 'team') continue;
      for (const o of db.coll(`core:${t}`).values())
        if (o.sec_grp === obj._key) return `Team ${obj._key} still owns objects (${t} ${o._key})`;
    }
  }
  if (scope === 'backup:backup_restore' && obj._key === 'OpsDefaultScheduledBackup')
    return 'The default scheduled backup cannot be deleted';
  return null;
}

function onDeleted(_ctx, scope, obj) {
  if (scope === 'core:service') {
    for (const e of db.coll('core:entity').values()) {
      if (Array.isArray(e.services)) e.services = e.services.filter((s) => s._key !== obj._key);
      const h = db.hidden('core:entity', e._key);
      if (h.savedServices) h.savedServices = h.savedServices.filter((s) => s._key !== obj._key);
    }
    for (const w of db.coll('core:custom_threshold_windows').values()) {
      if (Array.isArray(w.linked_services)) w.linked_services = w.linked_services.filter((l) => l.service_id !== obj._key);
    }
    const tk = db.hidden(scope, obj._key).template;
    const t = tk && db.get('core:base_service_template', tk);
    if (t) {
      t.linked_services = (t.linked_services || []).filter((k) => k !== obj._key);
      t.total_linked_services = t.linked_services.length;
    }
  }
  if (scope === 'core:base_service_template') {
    for (const sk of obj.linked_services || []) {
      const h = db.hidden('core:service', sk);
      if (h.template === obj._key) delete h.template;
    }
  }
}

export function deleteOne(ctx, scope, key) {
  const prev = db.get(scope, key);
  requireWriter(ctx.user);
  if (!prev || !db.canRead(ctx.user, scope, prev)) throw notFound(`Object ${key} not found`);
  if (!db.canWrite(ctx.user, scope, prev)) throw forbidden(`User ${ctx.user.name} cannot delete ${key}`);
  const why = protectDelete(ctx, scope, prev, true);
  if (why) throw conflict(why);
  db.remove(scope, key);
  onDeleted(ctx, scope, prev);
}

/** Bulk delete: rows already selected by the caller (filter/sort/paging applied). Protected rows are skipped. */
export function deleteRows(ctx, scope, rows) {
  requireWriter(ctx.user);
  let n = 0;
  for (const o of rows) {
    if (!db.canWrite(ctx.user, scope, o)) continue;
    if (protectDelete(ctx, scope, o, false)) continue;
    db.remove(scope, o._key);
    onDeleted(ctx, scope, o);
    n++;
  }
  return n;
}

export { HttpError, epoch };
