// Template dictionaries produced by GET <type>/<_key>/templatize.
import { SCHEMA_VERSION, GLOBAL_TEAM, clone, isObj } from './util.mjs';

const str = (v, d = '') =>
  v === undefined || v === null ? d : typeof v === 'string' ? v : typeof v === 'object' ? JSON.stringify(v) : String(v);
const num = (v, d = 0) =>
  typeof v === 'number' && Number.isFinite(v) ? v : typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v)) ? Number(v) : d;
const boolv = (v, d = false) => (v === undefined || v === null ? d : v === true || v === 1 || v === '1' || v === 'true');
const nullable = (v) => (v === undefined || v === '' ? null : v);

const SEV = Object.assign(Object.create(null), {
  critical: [6, '#B50101', '#E5A6A6'],
  high: [5, '#F26A35', '#FBCBB9'],
  medium: [4, '#FCB64E', '#FEE6C1'],
  low: [3, '#FFE98C', '#FFF4C5'],
  normal: [2, '#99D18B', '#DCEFD7'],
  info: [1, '#AED3E5', '#E3F0F6'],
});

export function normThresholds(t) {
  const src = isObj(t) ? t : {};
  const label = typeof src.baseSeverityLabel === 'string' && src.baseSeverityLabel ? src.baseSeverityLabel : 'normal';
  const s = SEV[label] || SEV.normal;
  const out = {
    ...clone(src),
    isMinStatic: boolv(src.isMinStatic),
    isMaxStatic: boolv(src.isMaxStatic),
    gaugeMin: num(src.gaugeMin),
    gaugeMax: num(src.gaugeMax),
    renderBoundaryMin: num(src.renderBoundaryMin),
    renderBoundaryMax: num(src.renderBoundaryMax),
    baseSeverityValue: num(src.baseSeverityValue, s[0]),
    metricField: str(src.metricField),
    search: str(src.search),
    baseSeverityLabel: label,
    baseSeverityColor: str(src.baseSeverityColor, s[1]),
    baseSeverityColorLight: str(src.baseSeverityColorLight, s[2]),
    thresholdLevels: (Array.isArray(src.thresholdLevels) ? src.thresholdLevels : []).filter(isObj).map((l) => {
      const ls = SEV[l.severityLabel] || SEV.normal;
      return {
        ...clone(l),
        severityValue: num(l.severityValue, ls[0]),
        thresholdValue: num(l.thresholdValue),
        severityLabel: str(l.severityLabel, 'normal'),
        severityColor: str(l.severityColor, ls[1]),
        severityColorLight: str(l.severityColorLight, ls[2]),
      };
    }),
  };
  return out;
}

function normSpec(spec) {
  const s = isObj(spec) ? spec : {};
  const policies = {};
  for (const [k, p] of Object.entries(isObj(s.policies) ? s.policies : {})) {
    const pp = isObj(p) ? p : {};
    policies[k] = {
      ...clone(pp),
      title: str(pp.title, k),
      aggregate_thresholds: normThresholds(pp.aggregate_thresholds),
      entity_thresholds: normThresholds(pp.entity_thresholds),
      policy_type: str(pp.policy_type, 'static'),
    };
  }
  if (!Object.keys(policies).length) {
    policies.default_policy = {
      title: 'Default',
      aggregate_thresholds: normThresholds({}),
      entity_thresholds: normThresholds({}),
      policy_type: 'static',
    };
  }
  const time_blocks = (Array.isArray(s.time_blocks) ? s.time_blocks : []).filter(isObj).map((b) => ({
    ...clone(b),
    policy_key: str(b.policy_key, 'default_policy'),
    time_block_key: str(b.time_block_key, '00-00'),
  }));
  return { ...clone(s), policies, time_blocks };
}

export function templateKpi(k) {
  const src = isObj(k) ? k : {};
  const dm = isObj(src.datamodel) ? src.datamodel : {};
  return {
    ...clone(src),
    title: str(src.title),
    service_id: '',
    type: str(src.type, 'kpis_primary'),
    urgency: str(src.urgency, '5'),
    target: str(src.target ?? src.target_field),
    search_type: str(src.search_type, 'adhoc'),
    threshold_field: str(src.threshold_field),
    kpi_base_search: str(src.kpi_base_search ?? src.base_search_id),
    alert_on: str(src.alert_on, 'aggregate'),
    alert_lag: str(src.alert_lag, '30'),
    search_alert_earliest: str(src.search_alert_earliest, '5'),
    entity_statop: str(src.entity_statop, 'avg'),
    entity_id_fields: str(src.entity_id_fields),
    tz_offset: nullable(src.tz_offset),
    entity_alias_filtering_fields: nullable(src.entity_alias_filtering_fields),
    backfill_earliest_time: str(src.backfill_earliest_time, '-7d'),
    adaptive_thresholding_training_window: str(src.adaptive_thresholding_training_window, '-7d'),
    anomaly_detection_training_window: str(src.anomaly_detection_training_window, '-14d'),
    gap_severity_color: str(src.gap_severity_color, '#CCCCCC'),
    gap_severity_color_light: str(src.gap_severity_color_light, '#EEEEEE'),
    time_variate_thresholds: boolv(src.time_variate_thresholds),
    is_entity_breakdown: boolv(src.is_entity_breakdown),
    datamodel_filter: Array.isArray(src.datamodel_filter) ? clone(src.datamodel_filter) : [],
    datamodel: {
      ...clone(dm),
      object: str(dm.object),
      datamodel: str(dm.datamodel),
      field: str(dm.field),
      owner_field: str(dm.owner_field),
    },
    entity_thresholds: normThresholds(src.entity_thresholds),
    aggregate_thresholds: normThresholds(src.aggregate_thresholds),
    time_variate_thresholds_specification: normSpec(src.time_variate_thresholds_specification),
  };
}

export function templatizeService(svc, linkedTemplate) {
  const tags =
    isObj(svc.service_tags) && Array.isArray(svc.service_tags.tags) ? svc.service_tags.tags : Array.isArray(svc.tags) ? svc.tags : [];
  return {
    title: str(svc.title),
    description: str(svc.description),
    service_template_id: linkedTemplate || '',
    sec_grp: str(svc.sec_grp, GLOBAL_TEAM),
    object_type: 'base_service_template',
    _version: SCHEMA_VERSION,
    enabled: boolv(svc.enabled, true) ? 1 : 0,
    services_depends_on: [],
    tags: clone(tags),
    serviceTemplateId: linkedTemplate ? [linkedTemplate] : [],
    entity_rules: Array.isArray(svc.entity_rules) ? clone(svc.entity_rules) : [],
    // the service health score KPI belongs to the service, not to a template
    kpis: (Array.isArray(svc.kpis) ? svc.kpis : [])
      .filter((k) => !(isObj(k) && typeof k._key === 'string' && k._key.startsWith('SHKPI-')))
      .map(templateKpi),
  };
}

export function templatizeBaseSearch(bs) {
  const out = clone(bs);
  for (const f of [
    '_key',
    '_user',
    '_owner',
    'mod_timestamp',
    'mod_time',
    'mod_source',
    'mod_by',
    'create_time',
    'create_by',
    'create_source',
    'identifying_name',
    'permissions',
  ])
    delete out[f];
  out.title = str(bs.title);
  out.sec_grp = str(bs.sec_grp, GLOBAL_TEAM);
  out.object_type = 'kpi_base_search';
  out._version = SCHEMA_VERSION;
  out.metrics = (Array.isArray(bs.metrics) ? bs.metrics : []).map((m) => clone(m));
  out.source_kpi_base_search_id = bs._key;
  return out;
}
