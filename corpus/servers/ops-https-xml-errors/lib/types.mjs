// Per-type rules: required fields, known schema fields, validation/normalisation,
// read-time decoration and delete hooks.
import {
  bad,
  isObj,
  isStr,
  isNum,
  isStrArray,
  newKey,
  nowMicros,
  epochFloat,
  isoLocal,
  localMicroStr,
  localSecStr,
  GLOBAL_TEAM,
  clone,
} from './util.mjs';
import { store, internal } from './store.mjs';
import { permissionsFor, canRead, canWrite } from './auth.mjs';

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
export const CORE_SUPPORTED = [...CORE_TYPES, 'entity_relationship', 'entity_relationship_rule'];
export const EVENT_TYPES = [
  'notable_event_group',
  'notable_event',
  'notable_event_comment',
  'notable_event_tag',
  'correlation_search',
  'notable_aggregation_policy',
  'external_ticket',
];

// Fields the server owns: values sent by clients are ignored.
export const SERVER_FIELDS = [
  '_owner',
  '_user',
  '_version',
  'acl',
  'mod_source',
  'mod_timestamp',
  'identifying_name',
  'permissions',
  'mod_time',
  'mod_by',
  'create_time',
  'create_by',
  'create_source',
  '_type',
  'retired',
  'retired_time',
  'can_view',
  'can_link',
  'can_edit',
  'can_transition',
  'ops_objects_counts',
  'platform_objects_counts',
];

const COMMON_KNOWN = ['_key', 'object_type', 'title', 'description', 'sec_grp'];
const KNOWN = {
  team: ['acl_roles', 'members'],
  entity: ['identifier', 'informational', 'services', 'retirable', 'entity_type_ids', 'entity_rules'],
  service: [
    'enabled',
    'kpis',
    'entity_rules',
    'services_depends_on',
    'services_depending_on_me',
    'service_tags',
    'tags',
    'is_healthscore_calculate_by_entity_enabled',
    'backfill_enabled',
    'algorithms',
    'isFirstTimeSaveDone',
    'base_service_template_id',
    'serviceTemplateId',
    'service_template_id',
    'permissions',
    'sec_grp',
  ],
  base_service_template: ['enabled', 'kpis', 'entity_rules', 'services_depends_on', 'tags', 'linked_services'],
  kpi_base_search: [
    'actions',
    'alert_lag',
    'alert_period',
    'base_search',
    'entity_alias_filtering_fields',
    'entity_breakdown_id_fields',
    'entity_id_fields',
    'is_entity_breakdown',
    'is_service_entity_filter',
    'metric_qualifier',
    'metrics',
    'search_alert_earliest',
    'objectType',
  ],
  kpi_threshold_template: [
    'adaptive_thresholding_training_window',
    'adaptive_thresholds_is_enabled',
    'time_variate_thresholds',
    'time_variate_thresholds_specification',
    'objectType',
  ],
  kpi_template: ['kpis'],
  deep_dive: ['lane_settings_collection', 'focus_id', 'earliest_time', 'latest_time', 'is_named'],
  glass_table: ['content', 'svg_content', 'latest', 'earliest', 'gt_version', 'definition'],
  home_view: ['service_ids', 'filter', 'layout'],
  event_management_state: ['view_type', 'columns', 'filter'],
  entity_filter_rule: ['entity_rules'],
  entity_type: ['dashboard_drilldowns', 'data_drilldowns', 'vital_metrics'],
  entity_relationship: ['subject_identifier', 'object_identifier', 'subject_type', 'object_type_name', 'predicate'],
  entity_relationship_rule: ['subject_type', 'object_type_name', 'predicate', 'rule'],
  custom_threshold_windows: [
    'pause_description',
    'status',
    'window_type',
    'window_config_percentage',
    'window_config_static',
    'start_time',
    'end_time',
    'last_stopped_time',
    'next_scheduled_time',
    'cron_schedule',
    'duration',
    'recurrence',
    'is_overlapping',
    'overlapping_kpis',
    'linked_services',
    'sec_grp_list',
  ],
  maintenance_calendar: ['start_time', 'end_time', 'objects', 'sec_grp_list', 'comment'],
  backup_restore: [
    'job_type',
    'status',
    'start_time',
    'end_time',
    'last_queued_time',
    'path',
    'search_head_id',
    'platform_server',
    'rules',
    'last_error',
    'frequency',
    'scheduled',
    'enabled',
  ],
  notable_event_group: ['status', 'severity', 'owner', 'drilldown', 'event_id', 'service_ids', 'is_active'],
  notable_event: ['status', 'severity', 'owner', 'event_id', 'service_ids', 'source', 'host'],
  notable_event_comment: ['comment', 'event_id'],
  notable_event_tag: ['tag_name', 'event_id'],
  correlation_search: ['search', 'disabled', 'cron_schedule', 'dispatch.earliest_time', 'dispatch.latest_time'],
  notable_aggregation_policy: ['disabled', 'filter_criteria', 'split_by_field', 'rules', 'priority'],
  external_ticket: ['event_id', 'ticket_system', 'tickets'],
};
export function knownFields(type) {
  return new Set([...COMMON_KNOWN, ...(KNOWN[type] || [])]);
}

// Types whose stored objects carry a sec_grp (defaulting to the Global team).
const SEC_GRP_TYPES = new Set([
  ...CORE_TYPES.filter((t) => t !== 'team'),
  'entity_relationship',
  'entity_relationship_rule',
  'backup_restore',
  'maintenance_calendar',
]);
export const hasSecGrp = (type) => SEC_GRP_TYPES.has(type);

const NO_TITLE = new Set([
  'entity_relationship',
  'entity_relationship_rule',
  'notable_event_group',
  'notable_event',
  'notable_event_comment',
  'notable_event_tag',
  'external_ticket',
]);
export function requiredFields(type) {
  if (type === 'maintenance_calendar') return ['title', 'start_time', 'end_time'];
  if (type === 'notable_event_comment') return ['comment', 'event_id'];
  if (type === 'notable_event_tag') return ['tag_name', 'event_id'];
  return NO_TITLE.has(type) ? [] : ['title'];
}

export function checkRequired(type, obj) {
  for (const f of requiredFields(type)) {
    if (obj[f] === undefined || obj[f] === null) throw bad(`Missing required field: ${f}`);
  }
  if (obj.title !== undefined) {
    if (!isStr(obj.title)) throw bad('Field title must be a string');
    if (requiredFields(type).includes('title') && !obj.title.trim()) throw bad('Field title must not be empty');
  }
  if (obj.description !== undefined && obj.description !== null && !isStr(obj.description)) {
    throw bad('Field description must be a string');
  }
}

function checkTeam(key, field) {
  if (!isStr(key) || !store.has('team', key)) throw bad(`Field ${field} names an unknown team: ${JSON.stringify(key)}`);
}

function toInt01(v, field) {
  if (v === true || v === 1 || v === '1') return 1;
  if (v === false || v === 0 || v === '0') return 0;
  throw bad(`Field ${field} must be 1 or 0`);
}
function checkStrArray(v, field) {
  if (!isStrArray(v)) throw bad(`Field ${field} must be an array of strings`);
}
function checkArray(v, field) {
  if (!Array.isArray(v)) throw bad(`Field ${field} must be an array`);
}
function checkNum(v, field) {
  if (!isNum(v)) throw bad(`Field ${field} must be a number`);
}
function checkBool(v, field) {
  if (typeof v !== 'boolean') throw bad(`Field ${field} must be a Boolean`);
}

function fieldsValues(v, field) {
  if (v === undefined) return { fields: [], values: [] };
  if (!isObj(v)) throw bad(`Field ${field} must be an object {fields, values}`);
  const out = { ...v };
  out.fields = v.fields === undefined ? [] : v.fields;
  checkStrArray(out.fields, `${field}.fields`);
  if (v.values !== undefined) checkStrArray(v.values, `${field}.values`);
  return out;
}

// ---------------------------------------------------------------- prepare hooks
// Each hook validates and normalises obj in place.  prev: stored object or undefined.
const prepare = {
  entity(obj, prev, ctx) {
    obj.identifier = fieldsValues(obj.identifier, 'identifier');
    obj.informational = fieldsValues(obj.informational, 'informational');
    for (const part of ['identifier', 'informational']) {
      const vals = [];
      for (const f of obj[part].fields) {
        let v = obj[f];
        if (v === undefined) continue;
        if (isStr(v)) v = obj[f] = [v];
        checkStrArray(v, f);
        vals.push(...v);
      }
      if (obj[part].values === undefined) obj[part].values = [...new Set(vals)];
    }
    if (obj.services === undefined) obj.services = prev && !(prev.retired === 1) ? clone(prev.services || []) : [];
    checkArray(obj.services, 'services');
    // Membership can only point at existing services: unknown service keys are dropped.
    obj.services = obj.services
      .map((s) => {
        const k = isStr(s) ? s : isObj(s) ? s._key : undefined;
        if (!isStr(k)) throw bad('Each element of services must be a service key or {_key, title}');
        const svc = store.get('service', k);
        return svc ? { _key: k, title: svc.title } : null;
      })
      .filter(Boolean);
    if (obj.retirable !== undefined) {
      if (toInt01(obj.retirable, 'retirable') === 1) obj.retirable = 1;
      else delete obj.retirable;
    }
    const m = nowMicros();
    obj._type = 'entity';
    obj.create_by = prev?.create_by ?? ctx.user.name;
    obj.create_source = prev?.create_source ?? 'REST';
    obj.create_time = prev?.create_time ?? isoLocal(m);
    obj.mod_by = ctx.user.name;
    obj.mod_time = localMicroStr(m);
    if (prev && prev.retired === 1) {
      obj.retired = 1;
      obj.retired_time = prev.retired_time;
      obj.services = [];
    }
  },
  service(obj, prev) {
    if (obj.enabled === undefined) obj.enabled = prev?.enabled ?? 1;
    obj.enabled = toInt01(obj.enabled, 'enabled');
    if (obj.entity_rules === undefined) obj.entity_rules = [];
    checkArray(obj.entity_rules, 'entity_rules');
    if (obj.services_depends_on === undefined) obj.services_depends_on = [];
    checkArray(obj.services_depends_on, 'services_depends_on');
    if (obj.base_service_template_id === undefined && prev?.base_service_template_id !== undefined) {
      obj.base_service_template_id = prev.base_service_template_id;
    }
    if (obj.kpis === undefined) obj.kpis = [];
    checkArray(obj.kpis, 'kpis');
    obj.kpis.forEach((k, i) => {
      if (!isObj(k)) throw bad(`kpis[${i}] must be an object`);
      if (!isStr(k.title) || !k.title) throw bad(`kpis[${i}].title is required and must be a string`);
      if (k._key !== undefined && (!isStr(k._key) || !k._key)) throw bad(`kpis[${i}]._key must be a string`);
      if (k._key === undefined) k._key = newKey();
    });
  },
  base_service_template(obj) {
    if (obj.entity_rules === undefined) obj.entity_rules = [];
    checkArray(obj.entity_rules, 'entity_rules');
    if (obj.kpis === undefined) obj.kpis = [];
    checkArray(obj.kpis, 'kpis');
    obj.kpis.forEach((k, i) => {
      if (!isObj(k)) throw bad(`kpis[${i}] must be an object`);
      if (k._key === undefined) k._key = newKey();
    });
  },
  kpi_base_search(obj) {
    if (obj.metrics === undefined) obj.metrics = [];
    checkArray(obj.metrics, 'metrics');
    obj.metrics.forEach((mt, i) => {
      if (!isObj(mt)) throw bad(`metrics[${i}] must be an object`);
      if (mt._key === undefined) mt._key = newKey();
    });
  },
  custom_threshold_windows(obj, prev) {
    obj.status = obj.status === undefined ? (prev?.status ?? 'active') : obj.status;
    if (!isStr(obj.status) || !obj.status) throw bad('Field status must be a non-empty string');
    obj.status = obj.status.toLowerCase();
    if (obj.window_type === undefined) obj.window_type = 'percentage';
    if (!['percentage', 'static'].includes(obj.window_type)) throw bad('Field window_type must be percentage or static');
    if (obj.window_config_percentage !== undefined) checkNum(obj.window_config_percentage, 'window_config_percentage');
    if (obj.window_config_static !== undefined && !isObj(obj.window_config_static)) {
      throw bad('Field window_config_static must be an object');
    }
    for (const f of ['start_time', 'end_time', 'last_stopped_time', 'duration']) {
      if (obj[f] !== undefined && obj[f] !== null) checkNum(obj[f], f);
    }
    if (prev?.last_stopped_time !== undefined && obj.last_stopped_time === undefined) {
      obj.last_stopped_time = prev.last_stopped_time;
    }
    for (const f of ['next_scheduled_time', 'cron_schedule', 'pause_description']) {
      if (obj[f] === undefined) obj[f] = '';
      if (!isStr(obj[f])) throw bad(`Field ${f} must be a string`);
    }
    for (const f of ['recurrence', 'is_overlapping']) {
      if (obj[f] === undefined) obj[f] = false;
      checkBool(obj[f], f);
    }
    if (obj.overlapping_kpis === undefined) obj.overlapping_kpis = [];
    checkArray(obj.overlapping_kpis, 'overlapping_kpis');
    if (obj.linked_services === undefined) obj.linked_services = prev ? clone(prev.linked_services || []) : [];
    checkArray(obj.linked_services, 'linked_services');
    obj.linked_services.forEach((ls, i) => {
      if (!isObj(ls) || !isStr(ls.service_id)) throw bad(`linked_services[${i}].service_id must be a string`);
      if (ls.linked_kpi_ids === undefined) ls.linked_kpi_ids = [];
      checkStrArray(ls.linked_kpi_ids, `linked_services[${i}].linked_kpi_ids`);
    });
    if (obj.sec_grp_list === undefined) obj.sec_grp_list = prev?.sec_grp_list ?? [obj.sec_grp || prev?.sec_grp || GLOBAL_TEAM];
    checkStrArray(obj.sec_grp_list, 'sec_grp_list');
    for (const g of obj.sec_grp_list) checkTeam(g, 'sec_grp_list');
  },
  maintenance_calendar(obj) {
    checkNum(obj.start_time, 'start_time');
    checkNum(obj.end_time, 'end_time');
    if (!(obj.end_time > obj.start_time)) throw bad('end_time must be later than start_time');
    if (obj.objects === undefined) obj.objects = [];
    checkArray(obj.objects, 'objects');
    const grps = [];
    obj.objects = obj.objects.map((o, i) => {
      if (!isObj(o)) throw bad(`objects[${i}] must be an object {object_type, _key}`);
      if (o.object_type !== 'service' && o.object_type !== 'entity') {
        throw bad(`objects[${i}].object_type must be 'service' or 'entity'`);
      }
      if (!isStr(o._key) || !o._key) throw bad(`objects[${i}]._key must be a non-empty string`);
      const target = store.get(o.object_type, o._key);
      if (target) grps.push(target.sec_grp || GLOBAL_TEAM);
      return { ...o };
    });
    if (obj.sec_grp_list === undefined) obj.sec_grp_list = grps.length ? [...new Set(grps)] : [obj.sec_grp || GLOBAL_TEAM];
    checkStrArray(obj.sec_grp_list, 'sec_grp_list');
    if (!obj.sec_grp_list.length) obj.sec_grp_list = [GLOBAL_TEAM];
    for (const g of obj.sec_grp_list) checkTeam(g, 'sec_grp_list');
    if (obj.sec_grp === undefined) obj.sec_grp = obj.sec_grp_list[0];
    if (obj.comment !== undefined && !isStr(obj.comment)) throw bad('Field comment must be a string');
  },
  backup_restore(obj, prev) {
    const m = nowMicros();
    if (obj.job_type === undefined) obj.job_type = prev?.job_type ?? 'Backup';
    if (!['Backup', 'Restore'].includes(obj.job_type)) throw bad("Field job_type must be 'Backup' or 'Restore'");
    if (obj.status === undefined) obj.status = prev?.status ?? 'Not Started';
    const STAT = ['Not Started', 'Queued', 'In Progress', 'Completed', 'Failed'];
    if (!STAT.includes(obj.status)) throw bad(`Field status must be one of: ${STAT.join(', ')}`);
    obj.create_time = prev?.create_time ?? localSecStr(m);
    for (const f of ['start_time', 'end_time', 'last_queued_time']) {
      if (obj[f] === undefined) obj[f] = prev?.[f] ?? 0;
      checkNum(obj[f], f);
    }
    const changed = obj.status !== prev?.status;
    if (changed && obj.status === 'Queued') obj.last_queued_time = epochFloat(m);
    if (changed && obj.status === 'In Progress') obj.start_time = epochFloat(m);
    if (changed && (obj.status === 'Completed' || obj.status === 'Failed')) {
      if (!obj.start_time) obj.start_time = epochFloat(m);
      obj.end_time = epochFloat(nowMicros());
    }
    for (const [f, d] of [
      ['path', ''],
      ['search_head_id', '6F1C2B0E-5D3A-4C8E-9B7A-0A1B2C3D4E5F'],
      ['platform_server', 'sh-east-01.ops.example'],
      ['last_error', ''],
    ]) {
      if (obj[f] === undefined) obj[f] = prev?.[f] ?? d;
      if (!isStr(obj[f])) throw bad(`Field ${f} must be a string`);
    }
    if (obj.rules === undefined) obj.rules = prev?.rules ?? [];
    checkArray(obj.rules, 'rules');
    obj._owner = prev?._owner ?? 'nobody';
  },
  notable_event_comment(obj) {
    if (!isStr(obj.comment) || !obj.comment) throw bad('Field comment must be a non-empty string');
    if (!isStr(obj.event_id)) throw bad('Field event_id must be a string');
  },
  notable_event_tag(obj) {
    if (!isStr(obj.tag_name) || !obj.tag_name) throw bad('Field tag_name must be a non-empty string');
    if (!isStr(obj.event_id)) throw bad('Field event_id must be a string');
  },
  notable_event_group(obj, prev) {
    for (const f of ['status', 'severity']) {
      if (obj[f] === undefined) obj[f] = prev?.[f] ?? (f === 'status' ? '1' : '1');
      if (isNum(obj[f])) obj[f] = String(obj[f]);
      if (!isStr(obj[f]) || !/^\d+$/.test(obj[f])) throw bad(`Field ${f} must be an integer-like string`);
    }
    if (obj.owner === undefined) obj.owner = prev?.owner ?? 'unassigned';
    if (!isStr(obj.owner)) throw bad('Field owner must be a string');
  },
};
prepare.notable_event = prepare.notable_event_group;

export function runPrepare(type, obj, prev, ctx) {
  if (obj.sec_grp !== undefined && hasSecGrp(type)) checkTeam(obj.sec_grp, 'sec_grp');
  if (obj.sec_grp === undefined && prev?.sec_grp !== undefined) obj.sec_grp = prev.sec_grp;
  const fn = prepare[type];
  if (fn) fn(obj, prev, ctx);
}

// Service KPIs get the owning service's id and title, plus the health-score KPI.
export function finishService(obj) {
  const shKey = `SHKPI-${obj._key}`;
  if (!obj.kpis.some((k) => k._key === shKey)) {
    obj.kpis.unshift({
      _key: shKey,
      title: 'ServiceHealthScore',
      type: 'service_health',
      urgency: 11,
      search_type: 'adhoc',
      threshold_field: 'health_score',
      aggregate_statop: 'avg',
      entity_statop: 'avg',
      alert_on: 'both',
      alert_period: '1',
      alert_lag: '30',
      search_alert_earliest: '15',
      unit: '',
      gap_severity: 'unknown',
      gap_severity_color: '#CCCCCC',
      gap_severity_color_light: '#EEEEEE',
      gap_severity_value: '-1',
      enabled: 1,
    });
  }
  for (const k of obj.kpis) {
    k.service_id = obj._key;
    k.service_title = obj.title;
  }
}

// ---------------------------------------------------------------- decorate (read time)
export function decorate(type, obj, ctx) {
  const o = clone(obj);
  if (type === 'entity') {
    o.services = (o.services || []).map((s) => {
      const svc = store.get('service', s._key);
      return svc ? { _key: s._key, title: svc.title } : s;
    });
    o.permissions = permissionsFor(ctx.user, type, obj);
  } else if (type === 'service') {
    o.permissions = permissionsFor(ctx.user, type, obj);
  } else if (type === 'custom_threshold_windows') {
    if (isStr(o.status)) o.status = o.status.toLowerCase();
    const r = canRead(ctx.user, type, obj),
      w = canWrite(ctx.user, type, obj);
    o.can_view = r;
    o.can_link = w;
    o.can_edit = w;
    o.can_transition = w && o.status === 'active';
  }
  return o;
}

// ---------------------------------------------------------------- delete hooks
export const DEFAULT_BACKUP_KEY = 'OpsDefaultScheduledBackup';

export function afterDelete(type, obj) {
  if (type === 'service') {
    for (const e of store.all('entity')) {
      if (Array.isArray(e.services)) e.services = e.services.filter((s) => s._key !== obj._key);
      const saved = internal.get(`retired:${e._key}`);
      if (saved)
        internal.set(
          `retired:${e._key}`,
          saved.filter((s) => s._key !== obj._key),
        );
    }
  }
  if (type === 'entity') internal.delete(`retired:${obj._key}`);
}

export function teamInUse(teamKey) {
  for (const t of [...CORE_SUPPORTED, 'maintenance_calendar', 'backup_restore']) {
    if (t === 'team') continue;
    for (const o of store.all(t)) {
      if (o.sec_grp === teamKey) return true;
      if (Array.isArray(o.sec_grp_list) && o.sec_grp_list.includes(teamKey)) return true;
    }
  }
  return false;
}
