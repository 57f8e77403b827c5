// Builders for realistic object shapes shared by the seed data and the content packs.
import { createHash } from 'node:crypto';

/** deterministic UUID (v5-like) from a name, so seeded/pack keys stay stable across restarts */
export function stableId(name) {
  const h = createHash('sha1').update(name).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-${((parseInt(h[16], 16) & 3) | 8).toString(16)}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

const SEV = {
  critical: [6, '#B50101', '#E5A6A6'],
  high: [5, '#F26A35', '#FBCBB9'],
  medium: [4, '#FCB64E', '#FEE6C1'],
  low: [3, '#FFE98C', '#FFF4C5'],
  normal: [2, '#99D18B', '#DCEFD7'],
  info: [1, '#AED3E5', '#E3F0F6'],
};
export function level(label, thresholdValue) {
  const [v, c, cl] = SEV[label];
  return { severityValue: v, thresholdValue, severityLabel: label, severityColor: c, severityColorLight: cl, dynamicParam: 0 };
}
export function thresholds(base = 'normal', levels = [], { min = 0, max = 100, metricField = 'count' } = {}) {
  const [v, c, cl] = SEV[base];
  return {
    isMinStatic: true,
    isMaxStatic: false,
    gaugeMin: min,
    gaugeMax: max,
    renderBoundaryMin: min,
    renderBoundaryMax: max,
    baseSeverityValue: v,
    metricField,
    search: '',
    baseSeverityLabel: base,
    baseSeverityColor: c,
    baseSeverityColorLight: cl,
    thresholdLevels: levels,
  };
}
export function tvSpec(agg, ent) {
  return {
    policies: {
      default_policy: { title: 'Default', aggregate_thresholds: agg, entity_thresholds: ent, policy_type: 'static', time_blocks: [] },
    },
    time_blocks: [{ policy_key: 'default_policy', time_block_key: '00-00' }],
  };
}

export function kpi(key, title, opts = {}) {
  const agg = opts.aggregate_thresholds || thresholds('normal', [level('medium', 70), level('high', 85), level('critical', 95)]);
  const ent = opts.entity_thresholds || thresholds('info', []);
  return {
    _key: key,
    title,
    type: 'kpis_primary',
    urgency: opts.urgency ?? '5',
    unit: opts.unit ?? '',
    search_type: opts.base_search_id ? 'shared_base' : 'adhoc',
    base_search: opts.base_search ?? 'index=os sourcetype=cpu',
    base_search_id: opts.base_search_id ?? '',
    base_search_metric: opts.base_search_metric ?? '',
    threshold_field: opts.threshold_field ?? 'cpu_load_percent',
    target: opts.threshold_field ?? 'cpu_load_percent',
    aggregate_statop: 'avg',
    entity_statop: 'avg',
    entity_id_fields: 'host',
    entity_breakdown_id_fields: 'host',
    entity_alias_filtering_fields: null,
    is_entity_breakdown: true,
    is_service_entity_filter: true,
    alert_on: 'both',
    alert_period: '5',
    alert_lag: '30',
    search_alert_earliest: '5',
    backfill_enabled: false,
    backfill_earliest_time: '-7d',
    adaptive_thresholds_is_enabled: false,
    adaptive_thresholding_training_window: '-7d',
    anomaly_detection_is_enabled: false,
    anomaly_detection_training_window: '-7d',
    fill_gaps: 'null_value',
    gap_severity: 'unknown',
    gap_severity_value: '-1',
    gap_severity_color: '#CCCCCC',
    gap_severity_color_light: '#EEEEEE',
    tz_offset: null,
    datamodel: { object: '', datamodel: '', field: '', owner_field: '' },
    datamodel_filter: [],
    aggregate_thresholds: agg,
    entity_thresholds: ent,
    time_variate_thresholds: false,
    time_variate_thresholds_specification: tvSpec(agg, ent),
  };
}

export function healthKpi(serviceKey, serviceTitle) {
  const k = kpi(`SHKPI-${serviceKey}`, 'ServiceHealthScore', {
    urgency: '11',
    threshold_field: 'aggregate',
    base_search: `\`get_full_ops_summary_service_health_events(${serviceKey})\``,
    aggregate_thresholds: thresholds('normal', [
      level('critical', 0),
      level('high', 20),
      level('medium', 40),
      level('low', 60),
      level('normal', 80),
    ]),
  });
  k.type = 'service_health';
  k.search_type = 'adhoc';
  k.is_entity_breakdown = false;
  k.service_title = serviceTitle;
  return k;
}

export function rule(field, value, field_type = 'alias', rule_type = 'matches') {
  return { rule_condition: 'AND', rule_items: [{ field, field_type, rule_type, value }] };
}

export function metric(key, title, threshold_field, unit = '') {
  return {
    _key: key,
    title,
    threshold_field,
    unit,
    aggregate_statop: 'avg',
    entity_statop: 'avg',
    fill_gaps: 'null_value',
    gap_custom_alert_value: '0',
    gap_severity: 'unknown',
    gap_severity_color: '#CCCCCC',
    gap_severity_color_light: '#EEEEEE',
    gap_severity_value: '-1',
  };
}
