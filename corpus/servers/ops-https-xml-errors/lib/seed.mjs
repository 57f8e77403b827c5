// Realistic seed data for every documented endpoint.
import { GLOBAL_TEAM, epochFloat, isoUtc, isoLocal, localMicroStr, localSecStr, clone } from './util.mjs';
import { store, internal } from './store.mjs';
import { defaultAcl } from './crud.mjs';
import { finishService, EVENT_TYPES } from './types.mjs';
import { addCatalogPack, loadFailures } from './contentpacks.mjs';
import { addAction, setEventConfiguration } from './events.mjs';

const CORE = 'team-core-0001';
const WEST = 'team-west-0002';
const PAY = 'team-pay-0003';

let clock = Date.parse('2024-03-04T09:15:00Z') * 1000 + 318207;
function tick() {
  clock += 3600 * 1e6 * 7 + 1234567;
  if (clock % 10 === 0) clock += 3;
  return clock;
}

function put(type, obj, { version = '4.18.0', secGrp = true } = {}) {
  const m = tick();
  const o = { _key: obj._key, ...obj };
  o.object_type = type;
  o._owner = 'nobody';
  o._user = 'nobody';
  o._version = version;
  o.acl = defaultAcl();
  o.mod_source = 'REST';
  o.mod_timestamp = isoUtc(m);
  if (typeof o.title === 'string') o.identifying_name = o.title.toLowerCase();
  if (secGrp && type !== 'team' && o.sec_grp === undefined && !EVENT_TYPES.includes(type) && type !== 'icon' && type !== 'content_pack')
    o.sec_grp = GLOBAL_TEAM;
  if (EVENT_TYPES.includes(type)) {
    o.create_time = o.create_time ?? epochFloat(m - 86400 * 1e6);
    o.mod_time = o.mod_time ?? epochFloat(m);
  }
  if (type === 'entity') {
    o._type = 'entity';
    o.create_by = 'admin_east';
    o.create_source = 'REST';
    o.create_time = isoLocal(m - 5 * 86400 * 1e6);
    o.mod_by = 'admin_east';
    o.mod_time = localMicroStr(m);
  }
  if (type === 'service') finishService(o);
  store.put(type, o);
  return o;
}

// ------------------------------------------------------------------ KPI helpers
const SEV = {
  critical: [6, '#B50101', '#E5A6A6'],
  high: [5, '#F26A35', '#FBCBB9'],
  medium: [4, '#FCB64E', '#FEE6C1'],
  low: [3, '#FFE98C', '#FFF4C5'],
  normal: [2, '#99D18B', '#DCEFD7'],
  info: [1, '#AED3E5', '#E3F0F6'],
};
function level(label, value) {
  const [v, c, cl] = SEV[label];
  return { severityValue: v, thresholdValue: value, severityLabel: label, severityColor: c, severityColorLight: cl, dynamicParam: 0 };
}
function thresholds(metricField, levels, base = 'normal', min = 0, max = 100) {
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
function kpi(key, title, o = {}) {
  const agg = thresholds(o.metric || 'value', o.levels || [level('medium', 70), level('high', 85), level('critical', 95)]);
  const ent = thresholds(o.metric || 'value', [], 'info', 0, 0);
  return {
    _key: key,
    title,
    description: o.description || `${title} measured every 5 minutes`,
    type: 'kpis_primary',
    urgency: o.urgency ?? 5,
    target: o.target || 'value',
    target_field: o.target || 'value',
    unit: o.unit || '',
    search_type: o.base ? 'shared_base' : 'adhoc',
    base_search: o.search || 'index=os sourcetype=cpu | stats avg(pctIdle) AS value BY host',
    base_search_id: o.base || '',
    base_search_metric: o.metricKey || '',
    kpi_base_search: o.base || '',
    threshold_field: o.metric || 'value',
    aggregate_statop: o.statop || 'avg',
    entity_statop: o.statop || 'avg',
    entity_id_fields: o.entityField || 'host',
    entity_breakdown_id_fields: o.entityField || 'host',
    entity_alias_filtering_fields: null,
    is_entity_breakdown: Boolean(o.breakdown),
    is_service_entity_filter: Boolean(o.breakdown),
    alert_on: 'both',
    alert_period: '5',
    alert_lag: '30',
    search_alert_earliest: '5',
    tz_offset: null,
    backfill_enabled: false,
    backfill_earliest_time: '-7d',
    adaptive_thresholds_is_enabled: false,
    adaptive_thresholding_training_window: '-7d',
    anomaly_detection_is_enabled: false,
    anomaly_detection_training_window: '-14d',
    anomaly_detection_sensitivity: 0.999,
    gap_severity: 'unknown',
    gap_severity_color: '#CCCCCC',
    gap_severity_color_light: '#EEEEEE',
    gap_severity_value: '-1',
    fill_gaps: 'null_value',
    gap_custom_alert_value: '0',
    datamodel_filter: [],
    datamodel: { object: '', datamodel: '', field: '', owner_field: '' },
    aggregate_thresholds: agg,
    entity_thresholds: ent,
    time_variate_thresholds: Boolean(o.tvt),
    time_variate_thresholds_specification: {
      policies: {
        default_policy: {
          title: 'Default',
          policy_type: 'static',
          aggregate_thresholds: clone(agg),
          entity_thresholds: clone(ent),
          time_blocks: [],
        },
        ...(o.tvt
          ? {
              weekend_policy: {
                title: 'Weekend',
                policy_type: 'static',
                aggregate_thresholds: thresholds(o.metric || 'value', [level('high', 90), level('critical', 98)]),
                entity_thresholds: clone(ent),
                time_blocks: [['0 0 * * 6', 2880]],
              },
            }
          : {}),
      },
      time_blocks: o.tvt
        ? [
            { policy_key: 'default_policy', time_block_key: '00-00' },
            { policy_key: 'weekend_policy', time_block_key: '05-00' },
            { policy_key: 'weekend_policy', time_block_key: '05-10' },
          ]
        : [],
    },
    enabled: 1,
  };
}

// ------------------------------------------------------------------ seed
export function seed() {
  // teams
  put('team', { _key: GLOBAL_TEAM, title: 'Global', description: 'Objects visible to every team' }, { version: '4.11.5' });
  put('team', { _key: CORE, title: 'Core Platform', description: 'Identity, messaging and shared runtime' });
  put('team', { _key: WEST, title: 'West Operations', description: 'West region edge and CDN operations' });
  put('team', { _key: PAY, title: 'Payments', description: 'Checkout and payment processing' });

  // kpi base searches and threshold templates
  put('kpi_base_search', {
    _key: '1234_bs',
    title: 'test title metric',
    description: 'test description',
    actions: '',
    alert_lag: '31',
    alert_period: '5',
    base_search: 'testSearch',
    entity_alias_filtering_fields: 'test_alias',
    entity_breakdown_id_fields: 'host',
    entity_id_fields: 'host',
    is_entity_breakdown: false,
    is_service_entity_filter: false,
    metric_qualifier: '',
    metrics: [
      {
        _key: '1234_bsm',
        title: 'UT: Forwarder Count',
        aggregate_statop: 'ut_dc',
        entity_statop: 'ut_avg',
        threshold_field: 'test_host',
        unit: '',
        fill_gaps: 'null_value',
        gap_custom_alert_value: '0',
        gap_severity: 'unknown',
        gap_severity_color: '#555555',
        gap_severity_color_light: '#000000',
        gap_severity_value: '-1',
      },
      {
        _key: '5678_bsm',
        title: 'UT: MAX Forwarder Count',
        aggregate_statop: 'ut_p90',
        entity_statop: 'ut_max',
        threshold_field: 'test_host',
        unit: 'test unit',
        fill_gaps: 'null_value',
        gap_custom_alert_value: '0',
        gap_severity: 'unknown',
        gap_severity_color: '#555555',
        gap_severity_color_light: '#000000',
        gap_severity_value: '-1',
      },
    ],
    search_alert_earliest: '5',
    sec_grp: GLOBAL_TEAM,
  });
  put('kpi_base_search', {
    _key: '0C1D2E3F4A5B6C7D8E9F0A1B2C3D4E5F',
    title: 'Core JVM Metrics',
    description: 'Heap, GC and thread metrics of core services',
    actions: '',
    alert_lag: '30',
    alert_period: '1',
    base_search: 'index=core_jvm sourcetype=jmx | stats avg(heap_used_pct) AS heap avg(gc_pause_ms) AS gc BY host',
    entity_breakdown_id_fields: 'host',
    entity_id_fields: 'host',
    is_entity_breakdown: true,
    is_service_entity_filter: true,
    metric_qualifier: '',
    metrics: [
      {
        _key: '7A1F0B2C3D4E5F60718293A4B5C6D7E8',
        title: 'Heap Used %',
        aggregate_statop: 'avg',
        entity_statop: 'avg',
        threshold_field: 'heap',
        unit: '%',
        fill_gaps: 'null_value',
        gap_severity: 'unknown',
        gap_severity_value: '-1',
      },
      {
        _key: '8B2A1C0D9E8F7A6B5C4D3E2F1A0B9C8D',
        title: 'GC Pause',
        aggregate_statop: 'max',
        entity_statop: 'max',
        threshold_field: 'gc',
        unit: 'ms',
        fill_gaps: 'last_available_value',
        gap_severity: 'unknown',
        gap_severity_value: '-1',
      },
    ],
    search_alert_earliest: '5',
    sec_grp: CORE,
  });
  put(
    'kpi_threshold_template',
    {
      _key: '1234_tt',
      title: 'TEST stdev, not windowed, both bad, 1.25 strictness, 0.50 cascade, -30d adaptive window',
      description: 'kpi_threshold_template',
      adaptive_thresholding_training_window: '-30d',
      adaptive_thresholds_is_enabled: true,
      time_variate_thresholds: true,
      time_variate_thresholds_specification: {
        policies: {
          default_policy: {
            title: 'default_policy',
            policy_type: 'stdev',
            aggregate_thresholds: thresholds(
              '',
              [level('high', -2.75), level('low', 1.25), level('medium', -2.5), level('normal', -1.25)],
              'critical',
              -4,
              4,
            ),
            entity_thresholds: thresholds('', [], 'info', 0, 0),
            time_blocks: [],
          },
        },
      },
    },
    { version: '4.11.5' },
  );
  put('kpi_threshold_template', {
    _key: 'C0E1A2B3C4D5E6F708192A3B4C5D6E7F',
    title: 'Core latency, static, business hours',
    description: 'Static latency thresholds with a business-hours policy',
    adaptive_thresholding_training_window: '-7d',
    adaptive_thresholds_is_enabled: false,
    time_variate_thresholds: true,
    time_variate_thresholds_specification: {
      policies: {
        default_policy: {
          title: 'Default',
          policy_type: 'static',
          aggregate_thresholds: thresholds(
            'latency_ms',
            [level('medium', 250), level('high', 500), level('critical', 1000)],
            'normal',
            0,
            2000,
          ),
          entity_thresholds: thresholds('latency_ms', [], 'info', 0, 0),
          time_blocks: [],
        },
        business_hours: {
          title: 'Business hours',
          policy_type: 'static',
          aggregate_thresholds: thresholds(
            'latency_ms',
            [level('medium', 150), level('high', 300), level('critical', 600)],
            'normal',
            0,
            2000,
          ),
          entity_thresholds: thresholds('latency_ms', [], 'info', 0, 0),
          time_blocks: [['0 8 * * 1-5', 600]],
        },
      },
    },
    sec_grp: CORE,
  });

  // base service templates
  put('base_service_template', {
    _key: '5E7A0C1B2D3F4E5A6B7C8D9E0F1A2B3C',
    title: 'Linux Host Template',
    description: 'Standard KPIs for Linux hosts',
    enabled: 1,
    entity_rules: [{ rule_condition: 'AND', rule_items: [{ field: 'os', field_type: 'info', rule_type: 'matches', value: 'linux*' }] }],
    kpis: [kpi('A0B1C2D3E4F5061728394A5B6C7D8E9F', 'CPU Utilization %', { unit: '%' })],
    services_depends_on: [],
    linked_services: [],
    tags: ['linux', 'os'],
  });
  put('base_service_template', {
    _key: '6F8B1D2C3E4A5F6B7C8D9E0A1B2C3D4E',
    title: 'Core Microservice Template',
    description: 'Golden signals for core microservices',
    enabled: 1,
    entity_rules: [{ rule_condition: 'AND', rule_items: [{ field: 'role', field_type: 'info', rule_type: 'matches', value: 'core-*' }] }],
    kpis: [kpi('B1C2D3E4F5A6071829304A5B6C7D8E9F', 'Error Rate', { unit: '%', metric: 'error_pct' })],
    services_depends_on: [],
    linked_services: [],
    tags: ['core'],
    sec_grp: CORE,
  });

  // services
  const svc = (key, title, secGrp, kpis, extra = {}) =>
    put('service', {
      _key: key,
      title,
      description: extra.description || `${title} service`,
      enabled: 1,
      entity_rules: extra.entity_rules || [
        { rule_condition: 'AND', rule_items: [{ field: 'host', field_type: 'alias', rule_type: 'matches', value: extra.hostGlob || '*' }] },
      ],
      kpis,
      services_depends_on: extra.depends || [],
      service_tags: { tags: extra.tags || [] },
      is_healthscore_calculate_by_entity_enabled: 1,
      backfill_enabled: false,
      isFirstTimeSaveDone: true,
      sec_grp: secGrp,
      ...(extra.tpl ? { base_service_template_id: extra.tpl } : {}),
    });
  svc(
    '0A4F7E2B9C1D4E5F8A6B3C2D1E0F9A8B',
    'Web Storefront',
    GLOBAL_TEAM,
    [
      kpi('1F2E3D4C5B6A79880716253A4B5C6D7E', 'Request Latency p95', { unit: 'ms', metric: 'latency_ms', urgency: 8, tvt: true }),
      kpi('2E3D4C5B6A798807162534A4B5C6D7E8', 'HTTP 5xx Rate', { unit: '%', metric: 'err_pct', base: '1234_bs', metricKey: '1234_bsm' }),
    ],
    { hostGlob: 'web-*', tags: ['customer-facing'] },
  );
  svc(
    '61866623-79bb-4be0-a0c6-fa549a225b1a',
    'System Health',
    GLOBAL_TEAM,
    [kpi('3D4C5B6A7988071625344A5B6C7D8E9F', 'Disk Free %', { unit: '%', metric: 'free_pct' })],
    { hostGlob: '*Test*' },
  );
  svc(
    '7C3B2A190817263544A5B6C7D8E9F0A1',
    'Core Auth Service',
    CORE,
    [
      kpi('4C5B6A79880716253A4B5C6D7E8F9A0B', 'Login Success Rate', { unit: '%', metric: 'success_pct', urgency: 9 }),
      kpi('5B6A79880716253A4B5C6D7E8F9A0B1C', 'Token Issue Latency', {
        unit: 'ms',
        metric: 'latency_ms',
        base: '0C1D2E3F4A5B6C7D8E9F0A1B2C3D4E5F',
        metricKey: '7A1F0B2C3D4E5F60718293A4B5C6D7E8',
      }),
    ],
    { hostGlob: 'auth-*', tpl: '6F8B1D2C3E4A5F6B7C8D9E0A1B2C3D4E', tags: ['core', 'identity'] },
  );
  svc(
    '8D4C3B2A1908172635445A6B7C8D9E0F',
    'Core Message Bus',
    CORE,
    [
      kpi('6A79880716253A4B5C6D7E8F9A0B1C2D', 'Queue Depth', { metric: 'depth', statop: 'max' }),
      kpi('79880716253A4B5C6D7E8F9A0B1C2D3E', 'Consumer Lag', { unit: 's', metric: 'lag_s', breakdown: true }),
    ],
    {
      hostGlob: 'mq-*',
      depends: [{ serviceid: '7C3B2A190817263544A5B6C7D8E9F0A1', kpis_depending_on: ['SHKPI-7C3B2A190817263544A5B6C7D8E9F0A1'] }],
    },
  );
  svc(
    '9E5D4C3B2A19081726354A5B6C7D8E9F',
    'West Edge CDN',
    WEST,
    [kpi('880716253A4B5C6D7E8F9A0B1C2D3E4F', 'Cache Hit Ratio', { unit: '%', metric: 'hit_pct' })],
    { hostGlob: 'cdn-w*' },
  );
  svc(
    'AF6E5D4C3B2A1908172635A4B5C6D7E8',
    'Checkout API',
    PAY,
    [kpi('9716253A4B5C6D7E8F9A0B1C2D3E4F50', 'Payment Failures', { metric: 'failures', statop: 'sum', urgency: 11 })],
    {
      hostGlob: 'pay-*',
    },
  );

  // entities
  const ent = (key, title, secGrp, host, services, extra = {}) => {
    const o = put('entity', {
      _key: key,
      title,
      description: extra.description || `${title} (${extra.os || 'linux'})`,
      identifier: { fields: ['host'], values: [host] },
      informational: { fields: ['os', 'role'], values: [extra.os || 'linux', extra.role || 'app'] },
      host: [host],
      os: [extra.os || 'linux'],
      role: [extra.role || 'app'],
      entity_type_ids: extra.types || [],
      services: services.map((k) => ({ _key: k, title: store.get('service', k).title })),
      sec_grp: secGrp,
      ...(extra.retirable ? { retirable: 1 } : {}),
    });
    return o;
  };
  ent('B07C6D5E4F3A2B1C0D9E8F7A6B5C4D3E', 'web-01', GLOBAL_TEAM, 'web-01.ops.example', ['0A4F7E2B9C1D4E5F8A6B3C2D1E0F9A8B'], {
    role: 'web',
    types: ['D1E2F3A4B5C6D7E8F9A0B1C2D3E4F5A6'],
  });
  ent('C18D7E6F5A4B3C2D1E0F9A8B7C6D5E4F', 'web-02', GLOBAL_TEAM, 'web-02.ops.example', ['0A4F7E2B9C1D4E5F8A6B3C2D1E0F9A8B'], {
    role: 'web',
    retirable: true,
  });
  ent('fe428761-ebfc-431c-862c-b9ef79faaace', 'db-01', GLOBAL_TEAM, 'db-01.ops.example', ['61866623-79bb-4be0-a0c6-fa549a225b1a'], {
    role: 'db',
  });
  ent('D29E8F7A6B5C4D3E2F1A0B9C8D7E6F5A', 'auth-01', CORE, 'auth-01.core.example', ['7C3B2A190817263544A5B6C7D8E9F0A1'], {
    role: 'core-auth',
  });
  ent('E3AF9A8B7C6D5E4F3A2B1C0D9E8F7A6B', 'auth-02', CORE, 'auth-02.core.example', ['7C3B2A190817263544A5B6C7D8E9F0A1'], {
    role: 'core-auth',
    retirable: true,
  });
  ent('F4B0AB9C8D7E6F5A4B3C2D1E0F9A8B7C', 'mq-01', CORE, 'mq-01.core.example', ['8D4C3B2A1908172635445A6B7C8D9E0F'], { role: 'core-mq' });
  const retired = ent('05C1BCAD9E8F7A6B5C4D3E2F1A0B9C8D', 'mq-legacy-03', CORE, 'mq-legacy-03.core.example', [], { role: 'core-mq' });
  retired.retired = 1;
  retired.retired_time = 1712000000.123457;
  internal.set(`retired:${retired._key}`, [{ _key: '8D4C3B2A1908172635445A6B7C8D9E0F', title: 'Core Message Bus' }]);
  ent('16D2CDBEAF9A8B7C6D5E4F3A2B1C0D9E', 'cdn-w1', WEST, 'cdn-w1.west.example', ['9E5D4C3B2A19081726354A5B6C7D8E9F'], { role: 'edge' });
  ent('27E3DECFBA0B9C8D7E6F5A4B3C2D1E0F', 'cdn-w2', WEST, 'cdn-w2.west.example', ['9E5D4C3B2A19081726354A5B6C7D8E9F'], {
    role: 'edge',
    retirable: true,
  });
  ent('38F4EFD0CB1CAD9E8F7A6B5C4D3E2F1A', 'pay-01', PAY, 'pay-01.pay.example', ['AF6E5D4C3B2A1908172635A4B5C6D7E8'], {
    role: 'payments',
    os: 'windows',
  });

  // other core object types
  put('entity_type', {
    _key: 'D1E2F3A4B5C6D7E8F9A0B1C2D3E4F5A6',
    title: 'Unix/Linux Add-on',
    description: 'Hosts reporting OS metrics',
    dashboard_drilldowns: [],
    data_drilldowns: [],
    vital_metrics: [{ metric_name: 'CPU Usage', search: 'index=os cpu', is_key: 1, unit: '%' }],
  });
  put('entity_type', {
    _key: 'E2F3A4B5C6D7E8F9A0B1C2D3E4F5A6B7',
    title: 'Core JVM',
    description: 'JVM based core services',
    dashboard_drilldowns: [],
    data_drilldowns: [],
    vital_metrics: [],
    sec_grp: CORE,
  });
  put('kpi_template', {
    _key: 'A1B2C3D4E5F60718293A4B5C6D7E8F90',
    title: 'Web golden signals',
    description: 'Latency, traffic, errors, saturation',
    kpis: [kpi('B2C3D4E5F60718293A4B5C6D7E8F90A1', 'Traffic', { metric: 'req_count', statop: 'sum' })],
  });
  put('deep_dive', {
    _key: 'C3D4E5F60718293A4B5C6D7E8F90A1B2',
    title: 'Storefront latency investigation',
    description: '',
    is_named: true,
    earliest_time: '-24h',
    latest_time: 'now',
    lane_settings_collection: [
      { title: 'Latency', laneType: 'kpi', kpiServiceId: '0A4F7E2B9C1D4E5F8A6B3C2D1E0F9A8B', kpiId: '1F2E3D4C5B6A79880716253A4B5C6D7E' },
    ],
  });
  put('deep_dive', {
    _key: 'D4E5F60718293A4B5C6D7E8F90A1B2C3',
    title: 'Core auth drilldown',
    description: '',
    is_named: true,
    earliest_time: '-4h',
    latest_time: 'now',
    lane_settings_collection: [],
    sec_grp: CORE,
  });
  put('glass_table', {
    _key: 'E5F60718293A4B5C6D7E8F90A1B2C3D4',
    title: 'NOC Overview',
    description: 'Wall display for the NOC',
    gt_version: 'beta',
    definition: { layout: { type: 'absolute' }, visualizations: {} },
  });
  put('glass_table', {
    _key: 'F60718293A4B5C6D7E8F90A1B2C3D4E5',
    title: 'Core Platform Board',
    description: '',
    gt_version: 'beta',
    definition: { layout: { type: 'grid' }, visualizations: {} },
    sec_grp: CORE,
  });
  put('home_view', {
    _key: '0718293A4B5C6D7E8F90A1B2C3D4E5F6',
    title: 'Default Service Analyzer',
    description: '',
    service_ids: [],
    filter: {},
    layout: 'tile',
  });
  put('event_management_state', {
    _key: '18293A4B5C6D7E8F90A1B2C3D4E5F607',
    title: 'Critical open episodes',
    description: 'Saved episode review view',
    view_type: 'episode_review',
    columns: ['severity', 'title', 'status', 'owner'],
    filter: { severity: ['6'], status: ['1', '2'] },
  });
  put('entity_filter_rule', {
    _key: '293A4B5C6D7E8F90A1B2C3D4E5F60718',
    title: 'Legacy filter (unused)',
    description: 'Not used',
    entity_rules: [],
  });

  // custom threshold windows
  const now = Math.floor(Date.now() / 1000);
  put('custom_threshold_windows', {
    _key: '3A4B5C6D7E8F90A1B2C3D4E5F6071829',
    title: 'Black Friday Surge',
    description: 'Raise latency thresholds during the sale',
    pause_description: '',
    status: 'active',
    window_type: 'percentage',
    window_config_percentage: 25,
    window_config_static: {},
    start_time: now - 3600,
    end_time: now + 86400 * 3,
    duration: 86400 * 3 + 3600,
    next_scheduled_time: '',
    cron_schedule: '',
    recurrence: false,
    is_overlapping: false,
    overlapping_kpis: [],
    linked_services: [
      {
        service_id: '0A4F7E2B9C1D4E5F8A6B3C2D1E0F9A8B',
        linked_kpi_ids: ['1F2E3D4C5B6A79880716253A4B5C6D7E', '2E3D4C5B6A798807162534A4B5C6D7E8'],
      },
    ],
    sec_grp: GLOBAL_TEAM,
    sec_grp_list: [GLOBAL_TEAM],
  });
  put('custom_threshold_windows', {
    _key: '4B5C6D7E8F90A1B2C3D4E5F60718293A',
    title: 'Core Maintenance Freeze',
    description: 'Relax auth latency during the weekly freeze',
    pause_description: '',
    status: 'active',
    window_type: 'static',
    window_config_static: { severity: 'normal' },
    start_time: now + 86400,
    end_time: now + 86400 + 7200,
    duration: 7200,
    next_scheduled_time: 'Sun 02:00',
    cron_schedule: '0 2 * * 0',
    recurrence: true,
    is_overlapping: false,
    overlapping_kpis: [],
    linked_services: [{ service_id: '7C3B2A190817263544A5B6C7D8E9F0A1', linked_kpi_ids: ['5B6A79880716253A4B5C6D7E8F9A0B1C'] }],
    sec_grp: CORE,
    sec_grp_list: [CORE],
  });
  put('custom_threshold_windows', {
    _key: '5C6D7E8F90A1B2C3D4E5F60718293A4B',
    title: 'Q3 Migration',
    description: 'Data centre migration window',
    pause_description: 'Migration finished early',
    status: 'stopped',
    window_type: 'percentage',
    window_config_percentage: -10,
    window_config_static: {},
    start_time: now - 86400 * 30,
    end_time: now - 86400 * 28,
    last_stopped_time: now - 86400 * 29 + 0.482113,
    duration: 172800,
    next_scheduled_time: '',
    cron_schedule: '',
    recurrence: false,
    is_overlapping: false,
    overlapping_kpis: [],
    linked_services: [],
    sec_grp: GLOBAL_TEAM,
    sec_grp_list: [GLOBAL_TEAM],
  });

  // maintenance windows
  put('maintenance_calendar', {
    _key: '628c6b1dcde00363c71d6fec',
    title: 'Patch Tuesday',
    comment: 'Monthly OS patching',
    start_time: now + 86400 * 7,
    end_time: now + 86400 * 7 + 14400,
    objects: [{ object_type: 'service', _key: '0A4F7E2B9C1D4E5F8A6B3C2D1E0F9A8B' }],
    sec_grp_list: [GLOBAL_TEAM],
    sec_grp: GLOBAL_TEAM,
  });
  put('maintenance_calendar', {
    _key: '6D7E8F90A1B2C3D4E5F60718293A4B5C',
    title: 'Core auth DB failover test',
    start_time: now + 86400 * 2 + 0.25,
    end_time: now + 86400 * 2 + 3600.75,
    objects: [{ object_type: 'service', _key: '7C3B2A190817263544A5B6C7D8E9F0A1' }],
    sec_grp_list: [CORE],
    sec_grp: CORE,
  });
  put('maintenance_calendar', {
    _key: '7E8F90A1B2C3D4E5F60718293A4B5C6D',
    title: 'West CDN node upgrade',
    start_time: now - 1800,
    end_time: now + 1800,
    objects: [{ object_type: 'entity', _key: '16D2CDBEAF9A8B7C6D5E4F3A2B1C0D9E' }],
    sec_grp_list: [WEST],
    sec_grp: WEST,
  });
  put('maintenance_calendar', {
    _key: '8F90A1B2C3D4E5F60718293A4B5C6D7E',
    title: 'Checkout and bus joint release',
    start_time: now + 86400 * 10,
    end_time: now + 86400 * 10 + 5400,
    objects: [
      { object_type: 'service', _key: 'AF6E5D4C3B2A1908172635A4B5C6D7E8' },
      { object_type: 'service', _key: '8D4C3B2A1908172635445A6B7C8D9E0F' },
    ],
    sec_grp_list: [PAY, CORE],
    sec_grp: PAY,
  });

  // backups
  const bk = (o) =>
    put('backup_restore', {
      search_head_id: '6F1C2B0E-5D3A-4C8E-9B7A-0A1B2C3D4E5F',
      platform_server: 'sh-east-01.ops.example',
      rules: [],
      last_error: '',
      _owner: 'nobody',
      ...o,
    });
  bk({
    _key: 'OpsDefaultScheduledBackup',
    title: 'Default Scheduled Backup',
    job_type: 'Backup',
    status: 'Completed',
    scheduled: 1,
    frequency: 'daily',
    enabled: 1,
    create_time: localSecStr(Date.parse('2023-11-02T10:00:00Z') * 1000),
    start_time: now - 86400 + 0.113342,
    end_time: now - 86400 + 95.734211,
    last_queued_time: now - 86400 - 0.5,
    path: '/opt/platform/var/ops/backups/OpsDefaultScheduledBackup/backup.zip',
  });
  bk({
    _key: '90A1B2C3D4E5F60718293A4B5C6D7E8F',
    title: 'Pre-upgrade full backup',
    job_type: 'Backup',
    status: 'Completed',
    create_time: localSecStr(Date.parse('2024-04-20T08:00:00Z') * 1000),
    start_time: 1713600012.245781,
    end_time: 1713600377.903115,
    last_queued_time: 1713600001.004521,
    path: '/opt/platform/var/ops/backups/90A1B2C3D4E5F60718293A4B5C6D7E8F/backup.zip',
  });
  bk({
    _key: 'A1B2C3D4E5F60718293A4B5C6D7E8F9B',
    title: 'Ad-hoc config export',
    job_type: 'Backup',
    status: 'Queued',
    create_time: localSecStr(Date.now() * 1000 - 600e6),
    start_time: 0,
    end_time: 0,
    last_queued_time: now - 600 + 0.217731,
    path: '',
  });
  bk({
    _key: 'B2C3D4E5F60718293A4B5C6D7E8F9A0C',
    title: 'Core team objects export',
    job_type: 'Backup',
    status: 'Queued',
    create_time: localSecStr(Date.now() * 1000 - 300e6),
    start_time: 0,
    end_time: 0,
    last_queued_time: now - 300 + 0.661903,
    path: '',
    sec_grp: CORE,
  });

  // event management
  put('notable_event_group', {
    _key: 'b1362b69-24f1-49bd-a2c4-cf57de6b7e2a',
    event_id: 'b1362b69-24f1-49bd-a2c4-cf57de6b7e2a',
    title: 'Storefront latency degradation',
    description: 'p95 latency above threshold on web tier',
    status: '2',
    severity: '5',
    owner: 'admin_east',
    service_ids: ['0A4F7E2B9C1D4E5F8A6B3C2D1E0F9A8B'],
    drilldown: [{ link: 'https://noc.ops.example/d/latency', name: 'Latency dashboard' }],
    create_time: 1713639105.390117,
    mod_time: 1714939410.213281,
  });
  put('notable_event_group', {
    _key: 'e28f6a23-e447-11e7-bf0b-acbc32b4d98f',
    event_id: 'e28f6a23-e447-11e7-bf0b-acbc32b4d98f',
    title: 'Errors in ops_searches.log',
    description: 'set_severity_fields errors on search head',
    status: '1',
    severity: '3',
    owner: 'unassigned',
    service_ids: [],
    drilldown: [],
    create_time: 1713704817.652091,
    mod_time: 1713705110.634631,
  });
  put('notable_event_group', {
    _key: 'bdacec35-ac89-4e4b-b23c-518c51ca6ece',
    event_id: 'bdacec35-ac89-4e4b-b23c-518c51ca6ece',
    title: 'Core message bus consumer lag',
    description: 'Consumer lag above 300 s',
    status: '4',
    severity: '6',
    owner: 'admin_east',
    service_ids: ['8D4C3B2A1908172635445A6B7C8D9E0F'],
    drilldown: [],
    create_time: 1714688382.936207,
    mod_time: 1714766298.440813,
  });
  put('notable_event', {
    _key: 'e28f6a23-e447-11e7-bf0b-acbc32b4d98f',
    event_id: 'e28f6a23-e447-11e7-bf0b-acbc32b4d98f',
    title: 'Error found in /opt/platform/var/log/platform/ops_searches.log',
    description: 'Found error in source=ops_searches.log and host=sh-east-01',
    status: '1',
    severity: '3',
    owner: 'admin',
    source: 'Log error correlation search',
    host: 'sh-east-01',
    service_ids: '624c440e-9702-483b-994e-eb8f90f2c8c1',
    _time: '1713638305.000000',
    orig_index: '_internal',
    sourcetype: 'stash',
    create_time: 1713704817.652091,
    mod_time: 1713705110.634631,
  });
  put('notable_event_comment', {
    _key: '5a3951ae9693fbcbf741b3ea',
    event_id: 'e28f6a23-e447-11e7-bf0b-acbc32b4d98f',
    comment: 'Investigating the search head logs',
    user: 'admin_east',
    owner: 'nobody',
    create_time: 1713705902.566241,
    mod_time: 1713705929.347971,
  });
  put('notable_event_comment', {
    _key: '5a4c1b589693fb9dbf20acc2',
    event_id: 'e28f6a23-e447-11e7-bf0b-acbc32b4d98f',
    comment: 'Root cause: deleted service still referenced',
    user: 'admin_east',
    owner: 'nobody',
    create_time: 1714937176.588321,
    mod_time: 1714937176.588321,
  });
  put('notable_event_tag', {
    _key: '5a4c14fb9693fb9dbf20acc1',
    event_id: 'e28f6a23-e447-11e7-bf0b-acbc32b4d98f',
    tag_name: 'search-head',
    user: 'admin_east',
    owner: 'nobody',
    create_time: 1714935547.355191,
    mod_time: 1714935547.355191,
  });
  put('correlation_search', {
    _key: 'Log error correlation search',
    title: 'Log error correlation search',
    description: 'Errors in internal logs',
    search: 'index=_internal log_level=ERROR | stats count by source, host',
    disabled: 0,
    cron_schedule: '*/5 * * * *',
  });
  put('correlation_search', {
    _key: 'Core bus lag correlation',
    title: 'Core bus lag correlation',
    description: 'Consumer lag above threshold',
    search: 'index=core_mq lag_s>300',
    disabled: 1,
    cron_schedule: '*/1 * * * *',
  });
  put('notable_aggregation_policy', {
    _key: 'itsi_default_policy',
    title: 'Default Policy',
    description: 'Groups events by source',
    disabled: 0,
    split_by_field: 'source',
    priority: 5,
    filter_criteria: { condition: 'AND', items: [] },
    rules: [],
  });
  put('notable_aggregation_policy', {
    _key: 'C3D4E5F60718293A4B5C6D7E8F9A0B1D',
    title: 'Core services by host',
    description: 'Groups core alerts by host',
    disabled: 0,
    split_by_field: 'host',
    priority: 7,
    filter_criteria: { condition: 'OR', items: [{ field: 'role', value: 'core-*' }] },
    rules: [],
  });
  put('external_ticket', {
    _key: '1365ea26-d4ef-11ec-bb74-005056aa27a0',
    event_id: 'bdacec35-ac89-4e4b-b23c-518c51ca6ece',
    ticket_system: 'ServiceNow',
    tickets: [{ ticket_system: 'ServiceNow', ticket_url: 'https://tickets.example/INC1234567', ticket_id: 'INC1234567' }],
    create_time: 1714688382.936201,
    mod_time: 1714766298.440801,
  });

  // episode actions
  const act = (name, label, type, bulk, group, once, sync, cfg = {}) =>
    addAction(
      {
        label,
        type,
        is_group_compatible: group,
        action_name: name,
        execute_once_per_group: once,
        execute_in_sync: sync,
        is_bulk_compatible: bulk,
      },
      {
        ttl: '10p',
        filename: '',
        track_alert: '0',
        maxresults: '100',
        description: `${label} for episodes`,
        label,
        maxtime: '5m',
        disabled: cfg.disabled || '0',
        hostname: '',
        icon_path: cfg.icon || `${name}.png`,
        command: cfg.command || `sendalert ${name} param.episode_ids="$ids$"`,
        'eai:userName': 'nobody',
        'eai:appName': cfg.app || 'SA-ITOA',
        'eai:acl': { app: cfg.app || 'SA-ITOA', owner: 'nobody', sharing: 'global', perms: { read: ['*'], write: ['admin'] } },
        ...(cfg.extra || {}),
      },
    );
  act('email', 'Send email', '', '1', 1, '0', 0, {
    command: 'sendemail "to=$action.email.to$" "subject=$action.email.subject$"',
    app: 'system',
  });
  act('script', 'Run a script', '', 0, '1', 0, '0', { disabled: '1', command: 'runshellscript "$action.script.filename$"', app: 'system' });
  act('ops_event_action_link_ticket', 'Link ticket', 'external_ticket', '1', '1', '0', '1', {
    command: 'ops_link_ticket ticket_system="$ticket_system$" ticket_id="$ticket_id$"',
  });
  act('ops_event_action_link_url', 'Link URL', '', '1', 1, 0, '1', { command: 'ops_link_url url="$url$"' });
  act('ops_event_action_send_to_orchestrator', 'Send to orchestrator', '', 0, '1', '1', 0);
  act('ops_sample_event_action_ping', 'Ping a host', '', '0', 0, '0', '1', { command: 'ping host="$host$"' });
  act('snow_incident', 'ServiceNow Incident Integration', 'external_ticket', '1', '1', '0', 0, { app: 'TA-snow' });
  act('remedy_incident', 'Remedy Incident Integration', 'external_ticket', 0, '1', 0, '0', { app: 'TA-remedy' });
  act('paging_trigger', 'Trigger an on-call page', '', '1', 1, '1', 0, { app: 'TA-paging' });

  setEventConfiguration({
    owners: [
      { default: true, value: 'unassigned', label: 'unassigned' },
      { default: false, value: 'admin_east', label: 'admin_east' },
      { default: false, value: 'reader_west', label: 'reader_west' },
      { default: false, value: 'team_core', label: 'team_core' },
    ],
    email_formats: [
      { default: true, value: 'pdf', label: 'pdf' },
      { default: false, value: 'html', label: 'html' },
      { default: false, value: 'csv', label: 'csv' },
    ],
    statuses: [
      { default: false, value: '0', label: 'Unassigned' },
      { default: true, value: '1', label: 'New' },
      { default: false, value: '2', label: 'In progress' },
      { default: false, value: '3', label: 'Pending' },
      { default: false, value: '4', label: 'Resolved' },
      { default: false, value: '5', label: 'Closed' },
    ],
    severities: Object.entries(SEV).map(([l, [v, c]]) => ({
      color: c,
      default: v === 1,
      value: String(v),
      label: l[0].toUpperCase() + l.slice(1),
    })),
  });

  // icons
  const icon = (key, title, category, w, h) =>
    put(
      'icon',
      { _key: key, title, svg_path: `M0 0 L${w} 0 L${w} ${h} L0 ${h} Z`, default_width: String(w), default_height: String(h), category },
      { secGrp: false },
    );
  icon('D4E5F60718293A4B5C6D7E8F9A0B1C2E', 'Server', 'Infrastructure', 48, 64);
  icon('E5F60718293A4B5C6D7E8F9A0B1C2D3F', 'Database', 'Infrastructure', 56, 56);
  icon('F60718293A4B5C6D7E8F9A0B1C2D3E40', 'Load Balancer', 'Infrastructure', 64, 32);
  icon('0718293A4B5C6D7E8F9A0B1C2D3E4F51', 'Cloud', 'Cloud', 80, 48);
  icon('18293A4B5C6D7E8F9A0B1C2D3E4F5A62', 'Circle', 'Default', 32, 32);
  icon('293A4B5C6D7E8F9A0B1C2D3E4F5A6B73', 'Storefront Logo', 'Custom Shapes', 120, 40);

  // content pack library
  const shot = (n) => ({
    path: `/static/app/DA-OPS-CP-${n}/screenshots/main.png`,
    thumb: `/static/app/DA-OPS-CP-${n}/screenshots/main_thumb.png`,
  });
  addCatalogPack({
    pack: {
      id: 'DA-OPS-CP-unix-dashboards',
      title: 'Monitoring Unix and Linux',
      description: 'Service templates, KPIs and dashboards for Unix and Linux hosts',
      overview: 'Monitor CPU, memory, disk and network of *nix hosts.',
      author: 'Ops Content Team',
      version: '1.4.0',
      icon: '/static/app/DA-OPS-CP-unix-dashboards/icon.png',
      help_links: [{ label: 'Documentation', url: 'https://docs.ops.example/cp/unix' }],
      installed_versions: [],
      screenshots: [shot('unix-dashboards')],
      main_screenshot: shot('unix-dashboards'),
    },
    objects: {
      entity_types: [{ id: 'cp_unix_entity_type', title: 'Unix and Linux host', description: 'Entity type for *nix hosts' }],
      glass_tables: [
        { id: 'cp_unix_glass_table', title: 'Unix fleet overview', description: 'Glass table for the fleet', object: { definition: {} } },
      ],
      services: [
        {
          id: 'cp_unix_service_os',
          title: 'OS Host Health',
          description: 'Host health service',
          depends_on: ['cp_unix_kbs_cpu'],
          object: {
            kpis: [kpi('CP0UNIX0KPI0000000000000000000001', 'CPU Utilization %', { unit: '%', base: 'cp_unix_kbs_cpu' })],
            entity_rules: [],
          },
        },
        {
          id: 'cp_unix_service_fs',
          title: 'Filesystem Capacity',
          description: 'Filesystem capacity service',
          depends_on: ['cp_unix_kbs_cpu'],
          object: { kpis: [], entity_rules: [] },
        },
      ],
      kpi_base_searches: [
        {
          id: 'cp_unix_kbs_cpu',
          title: 'Unix CPU base search',
          description: 'CPU metrics',
          object: { base_search: 'index=os sourcetype=cpu', metrics: [] },
        },
      ],
      service_analyzers: [{ id: 'cp_unix_analyzer', title: 'Unix service analyzer', description: '' }],
    },
    savedSearches: [
      { name: 'Unix - Host inventory lookup gen', enabled: true },
      { name: 'Unix - Stale host detection', enabled: true },
    ],
    previewForm: 'new',
  });
  addCatalogPack({
    pack: {
      id: 'DA-OPS-CP-web-servers',
      title: 'Monitoring Web Servers',
      description: 'KPIs for web server fleets',
      overview: 'Request rates, errors and latency for web servers.',
      author: 'Ops Content Team',
      version: '1.2.1',
      icon: '/static/app/DA-OPS-CP-web-servers/icon.png',
      help_links: [],
      installed_versions: ['1.2.1'],
      screenshots: [shot('web-servers')],
      main_screenshot: shot('web-servers'),
    },
    objects: {
      services: [
        {
          id: '0A4F7E2B9C1D4E5F8A6B3C2D1E0F9A8B',
          title: 'Web Storefront',
          description: 'Web tier service',
          depends_on: [],
          object: { kpis: [] },
        },
      ],
      entity_types: [{ id: 'D1E2F3A4B5C6D7E8F9A0B1C2D3E4F5A6', title: 'Unix/Linux Add-on', description: 'Hosts reporting OS metrics' }],
      deep_dives: [{ id: 'cp_web_deep_dive', title: 'Web latency deep dive', description: '', object: { lane_settings_collection: [] } }],
    },
    savedSearches: [],
    previewForm: 'new',
  });
  addCatalogPack({
    pack: {
      id: 'DA-OPS-CP-cloud-infra',
      title: 'Monitoring Cloud Infrastructure',
      description: 'Services, correlation searches and aggregation policies for cloud accounts',
      overview: 'Cloud compute, storage and networking.',
      author: 'Ops Content Team',
      version: '2.0.3',
      icon: '/static/app/DA-OPS-CP-cloud-infra/icon.png',
      help_links: [{ label: 'Release notes', url: 'https://docs.ops.example/cp/cloud/rn' }],
      installed_versions: [],
      screenshots: [
        shot('cloud-infra'),
        { path: '/static/app/DA-OPS-CP-cloud-infra/screenshots/2.png', thumb: '/static/app/DA-OPS-CP-cloud-infra/screenshots/2_thumb.png' },
      ],
      main_screenshot: shot('cloud-infra'),
    },
    objects: {
      services: [
        {
          id: 'cp_cloud_compute',
          title: 'Cloud Compute',
          description: 'Instances',
          depends_on: [],
          object: { kpis: [kpi('CP0CLOUD0KPI00000000000000000001', 'Instance CPU', { unit: '%' })] },
        },
      ],
      correlation_searches: [
        { id: 'cp_cloud_cs_quota', title: 'Cloud quota nearly exhausted', description: '', object: { search: 'index=cloud quota_pct>90' } },
      ],
      notable_aggregation_policies: [
        { id: 'cp_cloud_nap', title: 'Cloud alerts by account', description: '', object: { split_by_field: 'account' } },
      ],
      kpi_threshold_templates: [
        { id: 'cp_cloud_ktt', title: 'Cloud CPU adaptive', description: '', object: { adaptive_thresholds_is_enabled: true } },
      ],
    },
    savedSearches: [
      { name: 'Cloud - Account inventory', enabled: true },
      { name: 'Cloud - Billing rollup', enabled: false, error: 'Saved search requires index cloud_billing, which does not exist' },
    ],
    previewForm: 'new',
  });
  addCatalogPack({
    pack: {
      id: 'DA-OPS-CP-legacy-app',
      title: 'Legacy Application Monitoring',
      description: 'Older pack for legacy application servers',
      overview: 'Deprecated: kept for existing installs.',
      author: 'Community',
      version: '0.9.0',
      icon: '',
      help_links: [],
      installed_versions: [],
      screenshots: [],
      main_screenshot: { path: '', thumb: '' },
    },
    objects: {
      services: [{ id: 'cp_legacy_app_service', title: 'Legacy App', description: 'Legacy application service', object: { kpis: [] } }],
      glass_tables: [{ id: 'cp_legacy_gt', title: 'Legacy App overview', description: '' }],
    },
    savedSearches: [],
    previewForm: 'old',
  });
  loadFailures.push({
    id: 'DA-OPS-CP-broken-vendor',
    title: 'Broken vendor pack',
    path: '/opt/platform/etc/apps/DA-OPS-CP-broken-vendor/default/ops_content_packs.conf',
    error: 'Content pack manifest is missing the required "version" setting',
  });

  // custom content packs (authoring)
  const cp = (o) =>
    put(
      'content_pack',
      {
        description: '',
        overview: '',
        cp_version: '1.0.0',
        metadata: { icon: null, main_screenshot: {}, screenshots: [] },
        ops_objects: {},
        platform_objects: { dashboards: [], lookups: [], macros: [], props: [], savedsearches: [], transforms: [] },
        user_selected_objects: {
          ops_objects: {},
          platform_objects: { dashboards: [], lookups: [], macros: [], props: [], savedsearches: [], transforms: [] },
        },
        ...o,
        mod_time: localMicroStr(clock),
      },
      { secGrp: false },
    );
  cp({
    _key: 'C4D5E6F70819203A4B5C6D7E8F9A0B1C',
    title: 'NOC Starter Pack',
    description: 'Starter content for the NOC',
    overview: 'Services and glass table for NOC',
    status: 'Draft',
    ops_objects: {
      service: ['0A4F7E2B9C1D4E5F8A6B3C2D1E0F9A8B', '61866623-79bb-4be0-a0c6-fa549a225b1a'],
      glass_table: ['E5F60718293A4B5C6D7E8F90A1B2C3D4'],
    },
    user_selected_objects: {
      ops_objects: { service: ['0A4F7E2B9C1D4E5F8A6B3C2D1E0F9A8B'] },
      platform_objects: { dashboards: [], lookups: [], macros: [], props: [], savedsearches: [], transforms: [] },
    },
  });
  cp({
    _key: 'D5E6F708192A3B4C5D6E7F8A9B0C1D2E',
    title: 'Core Platform Bundle',
    description: 'Core team services',
    cp_version: '2.1.0',
    status: 'Generated',
    metadata: {
      icon: 'data:image/png;base64,iVBORw0KGgo=',
      main_screenshot: { path: 'shot.png', thumb: 'shot_t.png' },
      screenshots: [{ path: 'shot.png', thumb: 'shot_t.png' }],
    },
    ops_objects: {
      service: ['7C3B2A190817263544A5B6C7D8E9F0A1', '8D4C3B2A1908172635445A6B7C8D9E0F'],
      kpi_base_search: ['0C1D2E3F4A5B6C7D8E9F0A1B2C3D4E5F'],
      team: ['team-core-0001'],
    },
    platform_objects: {
      dashboards: ['core_overview'],
      lookups: ['core_hosts.csv'],
      macros: ['core_index'],
      props: [],
      savedsearches: ['Core - nightly summary'],
      transforms: [],
    },
  });
  cp({
    _key: 'E6F708192A3B4C5D6E7F8A9B0C1D2E3F',
    title: 'Legacy Export',
    description: 'Failed export of legacy objects',
    cp_version: '0.1.0',
    status: 'Failed',
    ops_objects: { correlation_search: ['Log error correlation search'], notable_aggregation_policy: ['itsi_default_policy'] },
  });
}
