// Core interface (itoa_interface): object types, entity lifecycle, templates.
import {
  HttpError,
  bad,
  notFound,
  forbidden,
  clone,
  isObj,
  isStr,
  isNum,
  isStrArray,
  newKey,
  epochFloat,
  SCHEMA_VERSION,
  GLOBAL_TEAM,
  boolParam01,
} from './util.mjs';
import { coll, canReadTeam, canWrite, visibleList, getReadable, getWritable, requireWriter, permissionsFor } from './store.mjs';
import {
  listObjects,
  countObjects,
  getObject,
  createObject,
  replaceObject,
  deleteObject,
  bulkDelete,
  bulkUpdate,
  methodNotAllowed,
  stamp,
  SERVER_FIELDS,
} from './objects.mjs';
import { sortList } from './query.mjs';
import { bug } from './bugs.mjs';
import { ctwKind, handleCtw } from './ctw.mjs';
import { handleLibrary } from './cplibrary.mjs';
import { handleAuthorship } from './cpauthor.mjs';

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
export const SUPPORTED_TYPES = [...CORE_TYPES, 'entity_relationship', 'entity_relationship_rule'];

const PREFIX = {
  team: 'team',
  entity: 'ent',
  service: 'svc',
  base_service_template: 'bst',
  kpi_base_search: 'kbs',
  deep_dive: 'dd',
  glass_table: 'gt',
  home_view: 'hv',
  kpi_template: 'kt',
  kpi_threshold_template: 'ktt',
  event_management_state: 'ems',
  entity_filter_rule: 'efr',
  entity_type: 'ety',
  entity_relationship: 'erl',
  entity_relationship_rule: 'err',
};

const withPermissions = (out, user, obj) => {
  out.permissions = permissionsFor(user, out.object_type, obj);
  return out;
};

function arrayField(body, f) {
  if (body[f] !== undefined && !Array.isArray(body[f])) throw bad(`Field "${f}" must be an array`);
}
function int01(body, f) {
  const v = body[f];
  if (v === undefined) return;
  if (v === true || v === 1 || v === '1') body[f] = 1;
  else if (v === false || v === 0 || v === '0') body[f] = 0;
  else throw bad(`Field "${f}" must be 1 or 0`);
}
function fv(body, f) {
  const v = body[f];
  if (v === undefined) return;
  if (!isObj(v) || (v.fields !== undefined && !isStrArray(v.fields)) || (v.values !== undefined && !isStrArray(v.values)))
    throw bad(`Field "${f}" must be an object {fields: [string], values: [string]}`);
}

// ---------------------------------------------------------------- kinds
const retiredLinks = new Map(); // entity key -> services it belonged to when retired

const entityKind = {
  type: 'entity',
  prefix: 'ent',
  label: 'Entity',
  known: ['identifier', 'informational', 'services', 'retirable', 'retired', 'entity_type_ids', 'alias', 'retired_time'],
  validate(body) {
    fv(body, 'identifier');
    fv(body, 'informational');
    arrayField(body, 'services');
    if (body.services) {
      body.services.forEach((s) => {
        if (!isObj(s) || !isStr(s._key)) throw bad('Each element of "services" must be an object with a string _key');
      });
    }
    int01(body, 'retirable');
    int01(body, 'retired');
    for (const grp of ['identifier', 'informational']) {
      const fields = isObj(body[grp]) && Array.isArray(body[grp].fields) ? body[grp].fields : [];
      for (const f of fields) {
        if (body[f] !== undefined && !isStrArray(body[f])) throw bad(`Alias/informational field "${f}" must be an array of strings`);
      }
    }
  },
  defaults(obj) {
    if (!obj.identifier) obj.identifier = { fields: [], values: [] };
    if (!obj.informational) obj.informational = { fields: [], values: [] };
    if (!obj.services) obj.services = [];
    if (obj.retired === undefined) obj.retired = 0;
  },
  normalize(obj, _prev, user) {
    const out = [];
    const seen = new Set();
    for (const s of obj.services || []) {
      const svc = coll('service').get(s._key);
      if (!svc || !canReadTeam(user, svc.sec_grp || GLOBAL_TEAM)) throw bad(`Service "${s._key}" named in "services" does not exist`);
      if (seen.has(s._key)) continue;
      seen.add(s._key);
      out.push({ _key: svc._key, title: svc.title });
    }
    obj.services = out;
  },
  afterDelete(o) {
    retiredLinks.delete(o._key);
  },
  present: withPermissions,
};

function defaultKpiThresholds(label = 'normal') {
  return {
    baseSeverityColor: '#99D18B',
    baseSeverityColorLight: '#DCEFD7',
    baseSeverityLabel: label,
    baseSeverityValue: 2,
    gaugeMax: 100,
    gaugeMin: 0,
    isMaxStatic: false,
    isMinStatic: true,
    metricField: 'count',
    renderBoundaryMax: 100,
    renderBoundaryMin: 0,
    search: '',
    thresholdLevels: [],
  };
}
export function healthKpi(svc) {
  return {
    _key: `SHKPI-${svc._key}`,
    _owner: 'nobody',
    title: 'ServiceHealthScore',
    type: 'service_health',
    urgency: '11',
    search_type: 'adhoc',
    threshold_field: 'aggregate',
    alert_on: 'both',
    alert_lag: '30',
    alert_period: '1',
    search_alert_earliest: '15',
    aggregate_statop: 'avg',
    entity_statop: 'avg',
    entity_id_fields: '',
    entity_alias_filtering_fields: null,
    is_entity_breakdown: false,
    is_service_entity_filter: false,
    backfill_enabled: false,
    backfill_earliest_time: '-7d',
    adaptive_thresholding_training_window: '-7d',
    adaptive_thresholds_is_enabled: false,
    anomaly_detection_training_window: '-7d',
    anomaly_detection_is_enabled: false,
    gap_severity: 'unknown',
    gap_severity_color: '#CCCCCC',
    gap_severity_color_light: '#EEEEEE',
    gap_severity_value: '-1',
    time_variate_thresholds: false,
    aggregate_thresholds: defaultKpiThresholds(),
    entity_thresholds: defaultKpiThresholds(),
    base_search: `\`get_full_ops_summary_service_health_events(${svc._key})\``,
    search: `\`get_full_ops_summary_service_health_events(${svc._key})\` | stats latest(health_score) AS aggregate`,
  };
}

const serviceKind = {
  type: 'service',
  prefix: 'svc',
  label: 'Service',
  known: [
    'enabled',
    'kpis',
    'entity_rules',
    'services_depends_on',
    'service_tags',
    'base_service_template_id',
    'algorithms',
    'backfill_enabled',
    'isFirstTimeSaveDone',
    'is_healthscore_calculate_by_entity_enabled',
    'serviceTemplateId',
  ],
  keepOnFull: ['base_service_template_id'],
  validate(body) {
    int01(body, 'enabled');
    int01(body, 'is_healthscore_calculate_by_entity_enabled');
    arrayField(body, 'kpis');
    arrayField(body, 'entity_rules');
    arrayField(body, 'services_depends_on');
    if (body.kpis)
      body.kpis.forEach((k, i) => {
        if (!isObj(k)) throw bad(`kpis[${i}] must be an object`);
        if (!isStr(k.title) || !k.title) throw bad(`kpis[${i}] must have a non-empty string "title"`);
        if (k._key !== undefined && (!isStr(k._key) || !k._key)) throw bad(`kpis[${i}]._key must be a non-empty string`);
      });
    if (body.service_tags !== undefined && !isObj(body.service_tags)) throw bad('Field "service_tags" must be an object');
  },
  defaults(obj) {
    if (obj.enabled === undefined) obj.enabled = 1;
    if (!obj.kpis) obj.kpis = [];
    if (!obj.entity_rules) obj.entity_rules = [];
    if (!obj.services_depends_on) obj.services_depends_on = [];
  },
  normalize(obj) {
    const kpis = Array.isArray(obj.kpis) ? obj.kpis : [];
    for (const k of kpis) {
      if (!k._key) k._key = newKey('kpi');
      k.service_id = obj._key;
      k.service_title = obj.title;
      k.sec_grp = obj.sec_grp;
    }
    if (!kpis.some((k) => k.type === 'service_health')) {
      const h = healthKpi(obj);
      h.service_id = obj._key;
      h.service_title = obj.title;
      h.sec_grp = obj.sec_grp;
      kpis.unshift(h);
    }
    obj.kpis = kpis;
  },
  afterWrite(obj, prev) {
    if (prev && prev.title !== obj.title) {
      for (const e of coll('entity').values()) for (const s of e.services || []) if (s._key === obj._key) s.title = obj.title;
      for (const links of retiredLinks.values()) for (const s of links) if (s._key === obj._key) s.title = obj.title;
    }
  },
  afterDelete(o) {
    for (const e of coll('entity').values()) if (Array.isArray(e.services)) e.services = e.services.filter((s) => s._key !== o._key);
    for (const [k, links] of retiredLinks)
      retiredLinks.set(
        k,
        links.filter((s) => s._key !== o._key),
      );
    for (const w of coll('custom_threshold_windows').values())
      if (Array.isArray(w.linked_services)) w.linked_services = w.linked_services.filter((l) => l.service_id !== o._key);
  },
  present: withPermissions,
};

const teamKind = {
  type: 'team',
  prefix: 'team',
  label: 'Team',
  known: ['acl', 'description'],
  undeletable: (o) => (o._key === GLOBAL_TEAM ? 'The Global team cannot be deleted' : ''),
  present: withPermissions,
};

const templateKind = {
  type: 'base_service_template',
  prefix: 'bst',
  label: 'Service template',
  known: ['entity_rules', 'kpis', 'linked_services', 'total_linked_services', 'service_template_id'],
  keepOnFull: ['linked_services', 'total_linked_services'],
  validate(body) {
    arrayField(body, 'entity_rules');
    arrayField(body, 'kpis');
  },
  defaults(obj) {
    if (!obj.entity_rules) obj.entity_rules = [];
    if (!obj.kpis) obj.kpis = [];
    obj.linked_services = [];
    obj.total_linked_services = 0;
  },
  present: withPermissions,
};

const baseSearchKind = {
  type: 'kpi_base_search',
  prefix: 'kbs',
  label: 'KPI base search',
  known: [
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
    'source_ops_da',
  ],
  validate(body) {
    arrayField(body, 'metrics');
    if (body.metrics)
      body.metrics.forEach((m, i) => {
        if (!isObj(m)) throw bad(`metrics[${i}] must be an object`);
      });
  },
  normalize(obj) {
    for (const m of obj.metrics || []) if (!m._key) m._key = newKey('bsm');
  },
  present: withPermissions,
};

function genericKind(type) {
  return { type, prefix: PREFIX[type], label: type, known: [], present: withPermissions };
}

export const KINDS = {
  team: teamKind,
  entity: entityKind,
  service: serviceKind,
  base_service_template: templateKind,
  kpi_base_search: baseSearchKind,
  custom_threshold_windows: ctwKind,
};
for (const t of SUPPORTED_TYPES) if (!KINDS[t]) KINDS[t] = genericKind(t);

// ---------------------------------------------------------------- templatize
const str = (v, d = '') =>
  v === undefined || v === null ? d : typeof v === 'string' ? v : typeof v === 'object' ? JSON.stringify(v) : String(v);
const num = (v, d = 0) => (isNum(v) ? v : isStr(v) && v.trim() !== '' && Number.isFinite(Number(v)) ? Number(v) : d);
const boolish = (v) => v === true || v === 1 || v === '1' || v === 'true';

function thresholds(t) {
  const s = isObj(t) ? t : {};
  return {
    isMinStatic: boolish(s.isMinStatic),
    isMaxStatic: boolish(s.isMaxStatic),
    gaugeMin: num(s.gaugeMin),
    gaugeMax: num(s.gaugeMax, 100),
    renderBoundaryMin: num(s.renderBoundaryMin ?? s.renderBondaryMin),
    renderBoundaryMax: num(s.renderBoundaryMax ?? s.renderBondaryMax, 100),
    baseSeverityValue: num(s.baseSeverityValue, 2),
    metricField: str(s.metricField),
    search: str(s.search),
    baseSeverityLabel: str(s.baseSeverityLabel, 'normal'),
    baseSeverityColor: str(s.baseSeverityColor, '#99D18B'),
    baseSeverityColorLight: str(s.baseSeverityColorLight, '#DCEFD7'),
    thresholdLevels: (Array.isArray(s.thresholdLevels) ? s.thresholdLevels : []).filter(isObj).map((l) => ({
      severityValue: num(l.severityValue),
      thresholdValue: num(l.thresholdValue),
      severityLabel: str(l.severityLabel),
      severityColor: str(l.severityColor),
      severityColorLight: str(l.severityColorLight),
    })),
  };
}
function tvtSpec(spec) {
  const s = isObj(spec) ? spec : {};
  const policies = {};
  const blocks = [];
  for (const [pk, p] of Object.entries(isObj(s.policies) ? s.policies : {})) {
    const pol = isObj(p) ? p : {};
    policies[pk] = {
      title: str(pol.title, pk),
      aggregate_thresholds: thresholds(pol.aggregate_thresholds),
      entity_thresholds: thresholds(pol.entity_thresholds),
      policy_type: str(pol.policy_type, 'static'),
    };
    if (Array.isArray(pol.time_blocks)) {
      for (const b of pol.time_blocks) {
        const k = isStr(b) ? b : isObj(b) ? b.time_block_key : null;
        if (isStr(k) && /^\d\d-\d\d$/.test(k)) blocks.push({ policy_key: pk, time_block_key: k });
      }
    }
  }
  for (const b of Array.isArray(s.time_blocks) ? s.time_blocks : []) {
    if (isObj(b) && isStr(b.time_block_key) && /^\d\d-\d\d$/.test(b.time_block_key))
      blocks.push({ policy_key: str(b.policy_key, 'default_policy'), time_block_key: b.time_block_key });
  }
  return { policies, time_blocks: blocks };
}
function kpiTemplate(k, svcKey) {
  const dm = isObj(k.datamodel) ? k.datamodel : {};
  return {
    title: str(k.title),
    service_id: str(k.service_id, svcKey),
    type: str(k.type, 'kpis_primary'),
    urgency: str(k.urgency, '5'),
    target: str(k.target ?? k.target_field),
    search_type: str(k.search_type, 'adhoc'),
    threshold_field: str(k.threshold_field),
    kpi_base_search: str(k.kpi_base_search ?? k.base_search_id),
    alert_on: str(k.alert_on, 'both'),
    alert_lag: str(k.alert_lag, '30'),
    search_alert_earliest: str(k.search_alert_earliest, '5'),
    entity_statop: str(k.entity_statop, 'avg'),
    entity_id_fields: str(k.entity_id_fields),
    tz_offset: k.tz_offset === undefined ? null : k.tz_offset,
    entity_alias_filtering_fields:
      k.entity_alias_filtering_fields === undefined || k.entity_alias_filtering_fields === '' ? null : k.entity_alias_filtering_fields,
    backfill_earliest_time: str(k.backfill_earliest_time, '-7d'),
    adaptive_thresholding_training_window: str(k.adaptive_thresholding_training_window, '-7d'),
    anomaly_detection_training_window: str(k.anomaly_detection_training_window, '-7d'),
    gap_severity_color: str(k.gap_severity_color, '#CCCCCC'),
    gap_severity_color_light: str(k.gap_severity_color_light, '#EEEEEE'),
    time_variate_thresholds: boolish(k.time_variate_thresholds),
    is_entity_breakdown: boolish(k.is_entity_breakdown),
    datamodel_filter: Array.isArray(k.datamodel_filter) ? clone(k.datamodel_filter) : [],
    datamodel: { object: str(dm.object), datamodel: str(dm.datamodel), field: str(dm.field), owner_field: str(dm.owner_field) },
    entity_thresholds: thresholds(k.entity_thresholds),
    time_variate_thresholds_specification: tvtSpec(k.time_variate_thresholds_specification),
  };
}
function templatize(type, o) {
  if (type === 'service') {
    const tags = isObj(o.service_tags) && Array.isArray(o.service_tags.tags) ? clone(o.service_tags.tags) : [];
    return {
      title: str(o.title),
      description: str(o.description),
      service_template_id: str(o.base_service_template_id),
      sec_grp: str(o.sec_grp, GLOBAL_TEAM),
      object_type: 'base_service_template',
      _version: SCHEMA_VERSION,
      enabled: o.enabled === 0 ? 0 : 1,
      services_depends_on: Array.isArray(o.services_depends_on) ? clone(o.services_depends_on) : [],
      tags,
      serviceTemplateId: o.base_service_template_id ? [o.base_service_template_id] : [],
      entity_rules: clone(o.entity_rules || []),
      kpis: (o.kpis || []).filter((k) => k.type !== 'service_health').map((k) => kpiTemplate(k, o._key)),
    };
  }
  const out = {};
  for (const [k, v] of Object.entries(o)) if (!SERVER_FIELDS.includes(k) && k !== 'permissions') out[k] = clone(v);
  out.title = str(o.title);
  out.sec_grp = str(o.sec_grp, GLOBAL_TEAM);
  out.object_type = 'kpi_base_search';
  out._version = SCHEMA_VERSION;
  return out;
}

// ---------------------------------------------------------------- entity lifecycle
function keysPayload(body) {
  if (!isObj(body) || !Array.isArray(body.data) || !body.data.every((k) => isStr(k) && k))
    throw bad('The payload must be {"data": [<entity key>, ...]}');
  return [...new Set(body.data)];
}
function retireOne(user, e) {
  retiredLinks.set(e._key, clone(e.services || []));
  if (!bug('retire_keeps_links')) e.services = [];
  e.retired = 1;
  e.retired_time = epochFloat();
  delete e.retirable;
  stamp(entityKind, user, e, clone(e));
}
function retire(ctx, body) {
  requireWriter(ctx.user);
  const keys = keysPayload(body);
  const ents = keys.map((k) => getWritable(ctx.user, 'entity', k, 'Entity'));
  const done = [];
  for (const e of ents) {
    if (e.retired === 1) continue;
    retireOne(ctx.user, e);
    done.push(e._key);
  }
  return done;
}
function restore(ctx, body) {
  requireWriter(ctx.user);
  const keys = keysPayload(body);
  const ents = keys.map((k) => getWritable(ctx.user, 'entity', k, 'Entity'));
  const done = [];
  for (const e of ents) {
    if (e.retired !== 1) continue;
    const links = (retiredLinks.get(e._key) || []).filter((s) => coll('service').has(s._key));
    const have = new Set((e.services || []).map((s) => s._key));
    e.services = [...(e.services || []), ...links.filter((s) => !have.has(s._key))];
    retiredLinks.delete(e._key);
    e.retired = 0;
    delete e.retired_time;
    stamp(entityKind, ctx.user, e, clone(e));
    done.push(e._key);
  }
  return done;
}
function retireRetirable(ctx) {
  requireWriter(ctx.user);
  const list = sortList(
    visibleList(ctx.user, 'entity').filter((e) => e.retirable === 1 && e.retired !== 1 && canWrite(ctx.user, 'entity', e)),
    'title',
    true,
  );
  for (const e of list) retireOne(ctx.user, e);
  return list.map((e) => e._key);
}
function countRetirable(ctx) {
  const list = sortList(
    visibleList(ctx.user, 'entity').filter((e) => e.retirable === 1 && e.retired !== 1),
    'title',
    true,
  );
  return list.map((e) => ({
    object_type: 'entity',
    title: e.title,
    retirable: 1,
    sec_grp: e.sec_grp,
    _key: e._key,
    permissions: permissionsFor(ctx.user, 'entity', e),
  }));
}

function aliasList(ctx) {
  const idf = new Set();
  const inf = new Set();
  for (const e of visibleList(ctx.user, 'entity')) {
    for (const f of (isObj(e.identifier) && e.identifier.fields) || []) idf.add(f);
    for (const f of (isObj(e.informational) && e.informational.fields) || []) inf.add(f);
  }
  const s = (set) => [...set].sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase()));
  return { identifier: s(idf), informational: s(inf) };
}

// ---------------------------------------------------------------- template link
function getLink(ctx, key) {
  const svc = getReadable(ctx.user, 'service', key, 'Service');
  return { _key: isStr(svc.base_service_template_id) ? svc.base_service_template_id : '' };
}
function setLink(ctx, key, body) {
  requireWriter(ctx.user);
  const svc = getWritable(ctx.user, 'service', key, 'Service');
  if (!canReadTeam(ctx.user, GLOBAL_TEAM))
    throw forbidden('Linking a service to a service template requires read access to the Global team');
  if (!isObj(body) || !isStr(body._key) || !body._key) throw bad('The payload must be {"_key": <service template key>}');
  const tpl = getReadable(ctx.user, 'base_service_template', body._key, 'Service template');
  const prev = clone(svc);
  svc.entity_rules = [...(Array.isArray(svc.entity_rules) ? svc.entity_rules : []), ...clone(tpl.entity_rules || [])];
  svc.base_service_template_id = tpl._key;
  stamp(serviceKind, ctx.user, svc, prev);
  if (prev.base_service_template_id && prev.base_service_template_id !== tpl._key) {
    const old = coll('base_service_template').get(prev.base_service_template_id);
    if (old && Array.isArray(old.linked_services)) {
      old.linked_services = old.linked_services.filter((k) => k !== svc._key);
      old.total_linked_services = old.linked_services.length;
    }
  }
  if (!Array.isArray(tpl.linked_services)) tpl.linked_services = [];
  if (!tpl.linked_services.includes(svc._key)) tpl.linked_services.push(svc._key);
  tpl.total_linked_services = tpl.linked_services.length;
  return { _key: svc._key };
}

// ---------------------------------------------------------------- router
export async function handleCore(ctx, segs) {
  const m = ctx.method;
  const [a, b, c, d] = segs;
  if (!a) throw notFound('No object type in the path');
  if (a === 'content_pack') return handleLibrary(ctx, segs.slice(1));
  if (a === 'content_pack_authorship') return handleAuthorship(ctx, segs.slice(1));
  if (segs.length === 1 && a === 'get_alias_list') {
    if (m !== 'GET') throw methodNotAllowed(['GET']);
    return { body: aliasList(ctx) };
  }
  if (segs.length === 1 && a === 'get_supported_object_types') {
    if (m !== 'GET') throw methodNotAllowed(['GET']);
    return { body: [...SUPPORTED_TYPES] };
  }
  const kind = KINDS[a];
  if (!kind) throw notFound(`Unknown object type "${a}"`);
  if (a === 'custom_threshold_windows') {
    const r = await handleCtw(ctx, segs.slice(1));
    if (r) return r;
  }
  if (segs.length === 1) {
    if (m === 'GET') return { body: listObjects(kind, ctx) };
    if (m === 'POST') {
      requireWriter(ctx.user);
      const r = createObject(kind, ctx, await ctx.json(true), { upsert: true });
      return { status: r.created ? 201 : 200, body: { _key: r.key } };
    }
    if (m === 'DELETE') {
      bulkDelete(kind, ctx);
      return { status: 204 };
    }
    throw methodNotAllowed(['GET', 'POST', 'DELETE']);
  }
  if (segs.length === 2) {
    if (b === 'count') {
      if (m !== 'GET') throw methodNotAllowed(['GET']);
      return { body: countObjects(kind, ctx) };
    }
    if (b === 'bulk_update') {
      if (m !== 'POST') throw methodNotAllowed(['POST']);
      requireWriter(ctx.user);
      return { body: bulkUpdate(kind, ctx, await ctx.json(true)) };
    }
    if (a === 'entity' && b === 'count_retirable') {
      if (m !== 'GET') throw methodNotAllowed(['GET']);
      return { body: countRetirable(ctx) };
    }
    if (a === 'entity' && (b === 'retire' || b === 'restore')) {
      if (m !== 'POST') throw methodNotAllowed(['POST']);
      requireWriter(ctx.user);
      const body = await ctx.json(true);
      return { body: b === 'retire' ? retire(ctx, body) : restore(ctx, body) };
    }
    if (a === 'entity' && b === 'retire_retirable') {
      if (m !== 'POST') throw methodNotAllowed(['POST']);
      return { body: retireRetirable(ctx) };
    }
    if (m === 'GET') return { body: getObject(kind, ctx, b) };
    if (m === 'POST') {
      requireWriter(ctx.user);
      const partial = boolParam01(ctx.query, 'is_partial_data', false);
      const body = await ctx.json(true);
      return { body: { _key: replaceObject(kind, ctx, b, body, partial) } };
    }
    if (m === 'DELETE') {
      deleteObject(kind, ctx, b);
      return { status: 204 };
    }
    throw methodNotAllowed(['GET', 'POST', 'DELETE']);
  }
  if (segs.length === 3 && c === 'templatize') {
    if (m !== 'GET') throw methodNotAllowed(['GET']);
    if (a !== 'service' && a !== 'kpi_base_search')
      throw bad(`templatize is supported only for object types service and kpi_base_search, not ${a}`);
    return { body: templatize(a, getReadable(ctx.user, a, b, kind.label)) };
  }
  if (segs.length === 3 && a === 'service' && c === 'base_service_template') {
    if (m === 'GET') return { body: getLink(ctx, b) };
    if (m === 'POST') {
      requireWriter(ctx.user);
      return { body: setLink(ctx, b, await ctx.json(true)) };
    }
    throw methodNotAllowed(['GET', 'POST']);
  }
  void d;
  throw notFound(`Unknown path under itoa_interface/${a}`);
}

export { HttpError };
