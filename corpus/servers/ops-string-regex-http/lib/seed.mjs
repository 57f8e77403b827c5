// Realistic starting data so every endpoint has something to return.
import { GLOBAL_TEAM, epochInt, isoTs, modTime, SCHEMA_VERSION } from './util.mjs';
import * as db from './store.mjs';
import { EDGE_TEAM, DB_TEAM, PAY_TEAM } from './auth.mjs';
import { createOrUpdate } from './objects.mjs';
import { addLibraryPack, addLibraryFailure } from './contentpacks.mjs';
import { seedAuthored } from './authorship.mjs';
import { addCategory } from './maint.mjs';

const admin = { user: { name: 'admin', read: '*', write: '*', roles: ['admin'] }, pathUser: 'nobody' };
const mk = (scope, obj) => createOrUpdate(admin, scope, obj)[1];

const SEV = {
  critical: ['#B50101', '#E5A6A6', 6],
  high: ['#F26A35', '#FBCBB9', 5],
  medium: ['#FCB64E', '#FEE6C1', 4],
  low: ['#FFE98C', '#FFF4C5', 3],
  normal: ['#99D18B', '#DCEFD7', 2],
  info: ['#AED3E5', '#E3F0F6', 1],
};
const level = (label, value) => ({
  severityValue: SEV[label][2],
  thresholdValue: value,
  severityLabel: label,
  severityColor: SEV[label][0],
  severityColorLight: SEV[label][1],
  dynamicParam: 0,
});
const thresholds = (metric, levels, max = 100) => ({
  isMinStatic: true,
  isMaxStatic: false,
  gaugeMin: 0,
  gaugeMax: max,
  renderBoundaryMin: 0,
  renderBoundaryMax: max,
  baseSeverityValue: 2,
  metricField: metric,
  search: '',
  baseSeverityLabel: 'normal',
  baseSeverityColor: SEV.normal[0],
  baseSeverityColorLight: SEV.normal[1],
  thresholdLevels: levels,
});
const staticSpec = (metric, levels) => ({
  policies: {
    default_policy: {
      title: 'Default',
      policy_type: 'static',
      aggregate_thresholds: thresholds(metric, levels),
      entity_thresholds: thresholds(metric, []),
    },
  },
  time_blocks: [],
});

function kpi(key, title, extra = {}) {
  const levels = [level('medium', 60), level('high', 80), level('critical', 95)];
  return {
    _key: key,
    title,
    type: 'kpis_primary',
    urgency: 5,
    target: 'value',
    search_type: 'adhoc',
    threshold_field: 'value',
    aggregate_statop: 'avg',
    entity_statop: 'avg',
    entity_id_fields: 'host',
    alert_on: 'aggregate',
    alert_lag: '30',
    alert_period: '5',
    search_alert_earliest: '5',
    unit: '%',
    is_entity_breakdown: true,
    is_service_entity_filter: true,
    backfill_enabled: false,
    backfill_earliest_time: '-7d',
    adaptive_thresholds_is_enabled: false,
    adaptive_thresholding_training_window: '-7d',
    anomaly_detection_is_enabled: false,
    anomaly_detection_training_window: '-14d',
    gap_severity: 'unknown',
    gap_severity_color: '#CCCCCC',
    gap_severity_color_light: '#EEEEEE',
    gap_severity_value: '-1',
    fill_gaps: 'null_value',
    tz_offset: null,
    entity_alias_filtering_fields: null,
    datamodel_filter: [],
    datamodel: { object: '', datamodel: '', field: '', owner_field: '' },
    aggregate_thresholds: thresholds('value', levels),
    entity_thresholds: thresholds('value', levels),
    time_variate_thresholds: false,
    time_variate_thresholds_specification: staticSpec('value', levels),
    base_search: 'index=ops_metrics sourcetype=perf | stats avg(value) as value by host',
    ...extra,
  };
}
const healthKpi = (svcKey) =>
  kpi(`SHKPI-${svcKey}`, 'ServiceHealthScore', {
    type: 'service_health',
    urgency: 11,
    unit: '',
    search_type: 'adhoc',
    threshold_field: 'ServiceHealthScore',
    is_entity_breakdown: false,
    base_search: `\`get_full_ops_summary_service_health_events(${svcKey})\``,
  });

export const IDS = {
  svcWeb: '3f1c2a9e-7d44-4c1b-9a0e-5be1f2d0c101',
  svcCheckout: '8a2d7e51-0c93-4f6e-b1d2-77a9c3e4f202',
  svcEdgeCdn: 'c5e08b14-2f7a-4d39-8e61-0b4d9f1a7303',
  svcEdgeDns: 'd7f19c25-3a8b-4e4a-9f72-1c5eaf2b8404',
  svcOrdersDb: 'e9a2ad36-4b9c-4f5b-a083-2d6fb03c9505',
  tmplWeb: 'f0b3be47-5cad-4a6c-b194-3e70c14dab06',
};

export function seed() {
  // ---------- teams ----------
  mk('core:team', { _key: GLOBAL_TEAM, title: 'Global', description: 'Objects visible to every user', _immutable: 1 });
  mk('core:team', { _key: EDGE_TEAM, title: 'Edge Services', description: 'CDN points of presence and DNS' });
  mk('core:team', { _key: DB_TEAM, title: 'Database Services', description: 'Database operations' });
  mk('core:team', { _key: PAY_TEAM, title: 'Payments Platform', description: 'Checkout and payment services' });

  // ---------- KPI base searches ----------
  const metric = (key, title, field, statop, unit) => ({
    _key: key,
    title,
    threshold_field: field,
    aggregate_statop: statop,
    entity_statop: statop,
    unit,
    fill_gaps: 'null_value',
    gap_custom_alert_value: '0',
    gap_severity: 'unknown',
    gap_severity_color: '#CCCCCC',
    gap_severity_color_light: '#EEEEEE',
    gap_severity_value: '-1',
  });
  mk('core:kpi_base_search', {
    _key: '1234_bs',
    title: 'Web Access Base Search',
    description: 'Access log statistics for web tiers',
    actions: '',
    alert_lag: '31',
    alert_period: '5',
    base_search: 'index=web sourcetype=access_combined | eval is_5xx=if(status>=500,1,0)',
    entity_alias_filtering_fields: 'host',
    entity_breakdown_id_fields: 'host',
    entity_id_fields: 'host',
    is_entity_breakdown: true,
    is_service_entity_filter: true,
    metric_qualifier: '',
    search_alert_earliest: '5',
    sec_grp: GLOBAL_TEAM,
    metrics: [metric('1234_bsm', 'Request Rate', 'req_per_sec', 'sum', 'req/s'), metric('5678_bsm', '5xx Ratio', 'is_5xx', 'avg', '%')],
  });
  mk('core:kpi_base_search', {
    _key: 'kbs_edge_latency',
    title: 'Edge POP Latency',
    description: 'RTT from synthetic probes',
    actions: '',
    alert_lag: '30',
    alert_period: '1',
    base_search: 'index=edge sourcetype=probe:rtt',
    entity_alias_filtering_fields: null,
    entity_breakdown_id_fields: 'pop',
    entity_id_fields: 'pop',
    is_entity_breakdown: true,
    is_service_entity_filter: false,
    metric_qualifier: '',
    search_alert_earliest: '1',
    sec_grp: EDGE_TEAM,
    metrics: [metric('rtt_p95_bsm', 'RTT p95', 'rtt_ms', 'perc95', 'ms')],
  });

  // ---------- KPI threshold templates ----------
  const stdevLevels = [level('high', -2.75), level('low', 1.25), level('medium', -2.5), level('normal', -1.25), level('high', 2.25)];
  mk('core:kpi_threshold_template', {
    _key: '1234_tt',
    title: 'Standard deviation, 1.25 strictness, -30d adaptive window',
    description: 'kpi_threshold_template',
    adaptive_thresholding_training_window: '-30d',
    adaptive_thresholds_is_enabled: true,
    time_variate_thresholds: true,
    sec_grp: GLOBAL_TEAM,
    time_variate_thresholds_specification: {
      policies: {
        default_policy: {
          title: 'default_policy',
          policy_type: 'stdev',
          time_blocks: [],
          aggregate_thresholds: {
            ...thresholds('', stdevLevels, 4),
            gaugeMin: -4,
            renderBoundaryMin: -4,
            baseSeverityLabel: 'critical',
            baseSeverityValue: 6,
          },
          entity_thresholds: thresholds('', []),
        },
      },
    },
  });
  mk('core:kpi_threshold_template', {
    _key: 'tt_business_hours',
    title: 'Business hours vs. off hours (static)',
    description: 'Tighter thresholds Mon-Fri 08-18',
    adaptive_thresholding_training_window: '-7d',
    adaptive_thresholds_is_enabled: false,
    time_variate_thresholds: true,
    sec_grp: GLOBAL_TEAM,
    time_variate_thresholds_specification: {
      policies: {
        default_policy: {
          title: 'Off hours',
          policy_type: 'static',
          aggregate_thresholds: thresholds('', [level('high', 90), level('critical', 98)]),
          entity_thresholds: thresholds('', []),
        },
        business_hours: {
          title: 'Business hours',
          policy_type: 'static',
          aggregate_thresholds: thresholds('', [level('medium', 50), level('high', 70), level('critical', 85)]),
          entity_thresholds: thresholds('', []),
        },
      },
      time_blocks: [
        { policy_key: 'business_hours', time_block_key: '01-08' },
        { policy_key: 'business_hours', time_block_key: '02-08' },
        { policy_key: 'default_policy', time_block_key: '05-10' },
      ],
    },
  });

  // ---------- services ----------
  const webRules = [{ rule_condition: 'AND', rule_items: [{ field: 'host', field_type: 'alias', rule_type: 'matches', value: 'web-*' }] }];
  mk('core:service', {
    _key: IDS.svcWeb,
    title: 'Web Frontend',
    description: 'Public web tier',
    enabled: 1,
    sec_grp: GLOBAL_TEAM,
    entity_rules: webRules,
    services_depends_on: [{ serviceid: IDS.svcCheckout, kpis_depending_on: [`SHKPI-${IDS.svcCheckout}`] }],
    service_tags: { tags: ['web', 'tier1'] },
    is_healthscore_calculate_by_entity_enabled: 1,
    backfill_enabled: true,
    kpis: [
      healthKpi(IDS.svcWeb),
      kpi('a1e5d0c2b7f94e3d8c6a5b4f3e2d1c0b9a8f7e6d', 'Request Rate', {
        base_search_id: '1234_bs',
        base_search_metric: '1234_bsm',
        search_type: 'shared_base',
        threshold_field: 'req_per_sec',
        unit: 'req/s',
        kpi_threshold_template_id: '1234_tt',
        kpi_base_search: '1234_bs',
      }),
      kpi('b2f6e1d3c8a05f4e9d7b6c5a4f3e2d1c0b9a8f7e', '5xx Error Ratio', {
        base_search_id: '1234_bs',
        base_search_metric: '5678_bsm',
        search_type: 'shared_base',
        threshold_field: 'is_5xx',
        urgency: 8,
      }),
    ],
  });
  mk('core:service', {
    _key: IDS.svcCheckout,
    title: 'Checkout API',
    description: 'Payment checkout API',
    enabled: 1,
    sec_grp: PAY_TEAM,
    entity_rules: [{ rule_condition: 'AND', rule_items: [{ field: 'role', field_type: 'info', rule_type: 'matches', value: 'checkout' }] }],
    services_depends_on: [],
    service_tags: { tags: ['payments'] },
    kpis: [healthKpi(IDS.svcCheckout), kpi('c3a7f2e4d9b16a5f0e8c7d6b5a4f3e2d1c0b9a8f', 'Checkout Latency p99', { unit: 'ms', urgency: 9 })],
  });
  mk('core:service', {
    _key: IDS.svcEdgeCdn,
    title: 'Edge CDN',
    description: 'CDN points of presence',
    enabled: 1,
    sec_grp: EDGE_TEAM,
    entity_rules: [{ rule_condition: 'AND', rule_items: [{ field: 'pop', field_type: 'alias', rule_type: 'matches', value: '*' }] }],
    services_depends_on: [],
    service_tags: { tags: ['edge'] },
    kpis: [
      healthKpi(IDS.svcEdgeCdn),
      kpi('d4b8a3f5e0c27b6a1f9d8e7c6b5a4f3e2d1c0b9a', 'POP RTT p95', {
        base_search_id: 'kbs_edge_latency',
        base_search_metric: 'rtt_p95_bsm',
        search_type: 'shared_base',
        unit: 'ms',
      }),
      kpi('e5c9b4a6f1d38c7b2a0e9f8d7c6b5a4f3e2d1c0b', 'Cache Hit Ratio', { unit: '%' }),
    ],
  });
  mk('core:service', {
    _key: IDS.svcEdgeDns,
    title: 'Edge DNS',
    description: 'Authoritative DNS at the edge',
    enabled: 0,
    sec_grp: EDGE_TEAM,
    entity_rules: [],
    kpis: [healthKpi(IDS.svcEdgeDns), kpi('f6d0c5b7a2e49d8c3b1f0a9e8d7c6b5a4f3e2d1c', 'SERVFAIL Rate', { unit: '%' })],
  });
  mk('core:service', {
    _key: IDS.svcOrdersDb,
    title: 'Orders DB',
    description: 'Primary orders database cluster',
    enabled: 1,
    sec_grp: DB_TEAM,
    entity_rules: [],
    kpis: [healthKpi(IDS.svcOrdersDb), kpi('07e1d6c8b3f50a9d4c2a1b0f9e8d7c6b5a4f3e2d', 'Replication Lag', { unit: 's', urgency: 10 })],
  });

  // ---------- service template ----------
  mk('core:base_service_template', {
    _key: IDS.tmplWeb,
    title: 'Web Tier Template',
    description: 'Standard KPIs for web tiers',
    sec_grp: GLOBAL_TEAM,
    entity_rules: [{ rule_condition: 'AND', rule_items: [{ field: 'role', field_type: 'info', rule_type: 'matches', value: 'web' }] }],
    kpis: [
      kpi('18f2e7d9c4a61b0e5d3b2c1a0f9e8d7c6b5a4f3e', 'Request Rate', {
        base_search_id: '1234_bs',
        base_search_metric: '1234_bsm',
        search_type: 'shared_base',
      }),
    ],
  });
  const t = db.get('core:base_service_template', IDS.tmplWeb);
  t.linked_services = [IDS.svcWeb];
  t.total_linked_services = 1;
  db.hidden('core:service', IDS.svcWeb).template = IDS.tmplWeb;

  // ---------- entities ----------
  const ent = (key, title, team, host, role, services, extra = {}) =>
    mk('core:entity', {
      _key: key,
      title,
      description: `${role} node ${host}`,
      sec_grp: team,
      identifier: { fields: ['host'], values: [host] },
      informational: { fields: ['role', 'os'], values: [role, 'linux'] },
      services: services.map((s) => ({ _key: s })),
      ...extra,
    });
  ent('0C1F6A3E-9B2D-4E7F-8A61-5D4C3B2A1F01', 'web-01', GLOBAL_TEAM, 'web-01.prod', 'web', [IDS.svcWeb]);
  ent('1D2A7B4F-AC3E-4F80-9B72-6E5D4C3B2A02', 'web-02', GLOBAL_TEAM, 'web-02.prod', 'web', [IDS.svcWeb], { retirable: 1 });
  ent('2E3B8C50-BD4F-4091-AC83-7F6E5D4C3B03', 'edge-pop-fra-01', EDGE_TEAM, 'fra-01.pop', 'edge', [IDS.svcEdgeCdn], {
    retirable: 1,
    pop: ['fra'],
  });
  ent('3F4C9D61-CE50-41A2-BD94-807F6E5D4C04', 'edge-pop-sin-02', EDGE_TEAM, 'sin-02.pop', 'edge', [IDS.svcEdgeCdn, IDS.svcEdgeDns], {
    pop: ['sin'],
  });
  ent('405DAE72-DF61-42B3-CEA5-918071F6E505', 'db-orders-primary', DB_TEAM, 'db-orders-1.prod', 'database', [IDS.svcOrdersDb]);
  ent('516EBF83-E072-43C4-DFB6-A29182A7F606', 'checkout-app-07', PAY_TEAM, 'checkout-07.prod', 'checkout', [IDS.svcCheckout], {
    retirable: 1,
  });
  const legacy = ent('627FC094-F183-44D5-E0C7-B3A293B8A707', 'web-legacy-09', GLOBAL_TEAM, 'web-legacy-09.prod', 'web', [IDS.svcWeb], {
    retirable: 1,
  });
  const le = db.get('core:entity', legacy);
  const lh = db.hidden('core:entity', legacy);
  lh.retired = true;
  lh.savedServices = le.services;
  le.services = [];

  // ---------- other core types ----------
  mk('core:deep_dive', {
    _key: 'dd_web_overview',
    title: 'Web Frontend deep dive',
    sec_grp: GLOBAL_TEAM,
    focus_id: IDS.svcWeb,
    is_named: true,
    earliest_time: '-4h',
    latest_time: 'now',
    lane_settings_collection: [{ title: 'Request Rate', laneType: 'kpi', kpiServiceId: IDS.svcWeb }],
  });
  mk('core:deep_dive', {
    _key: 'dd_edge_pops',
    title: 'Edge POP health',
    sec_grp: EDGE_TEAM,
    focus_id: IDS.svcEdgeCdn,
    is_named: true,
    earliest_time: '-24h',
    latest_time: 'now',
    lane_settings_collection: [],
  });
  mk('core:glass_table', {
    _key: 'gt_exec_overview',
    title: 'Executive overview',
    description: 'Top-level health',
    sec_grp: GLOBAL_TEAM,
    gt_version: 'beta',
    definition: { layout: { type: 'absolute' }, visualizations: {} },
  });
  mk('core:glass_table', {
    _key: 'gt_edge_map',
    title: 'Edge map',
    sec_grp: EDGE_TEAM,
    gt_version: 'beta',
    definition: { layout: { type: 'absolute' }, visualizations: {} },
  });
  mk('core:home_view', { _key: 'hv_default', title: 'Service Analyzer', sec_grp: GLOBAL_TEAM, is_default: true, filter: { services: [] } });
  mk('core:kpi_template', {
    _key: 'kt_os_metrics',
    title: 'OS: CPU and memory',
    sec_grp: GLOBAL_TEAM,
    kpis: [kpi('29a3f8e0d5b72c1f6e4c3d2b1a0f9e8d7c6b5a4f', 'CPU Utilization %')],
  });
  mk('core:event_management_state', {
    _key: 'ems_noc_view',
    title: 'NOC default view',
    sec_grp: GLOBAL_TEAM,
    viewingOption: 'standard',
    columns: ['severity', 'title', 'status', 'owner'],
    filters: [],
  });
  mk('core:entity_filter_rule', { _key: 'efr_web_hosts', title: 'Web hosts', sec_grp: GLOBAL_TEAM, rules: webRules });
  mk('core:entity_type', {
    _key: 'et_unix_host',
    title: '*nix host',
    description: 'Unix and Linux hosts',
    sec_grp: GLOBAL_TEAM,
    vital_metrics: [{ metric_name: 'CPU Usage', search: '| mstats avg(cpu.pct) WHERE index=os by host' }],
    dashboard_drilldowns: [],
    data_drilldowns: [],
  });
  mk('core:entity_type', {
    _key: 'et_edge_pop',
    title: 'Edge POP',
    sec_grp: EDGE_TEAM,
    vital_metrics: [],
    dashboard_drilldowns: [],
    data_drilldowns: [],
  });
  mk('core:entity_relationship', {
    _key: 'er_web01_hosts',
    title: 'web-01 hosts nginx',
    sec_grp: GLOBAL_TEAM,
    subject_identifier: 'web-01.prod',
    object_identifier: 'nginx@web-01',
    predicate: 'hosts',
  });
  mk('core:entity_relationship_rule', { _key: 'err_hosts', title: 'hosts rule', sec_grp: GLOBAL_TEAM, predicate: 'hosts', rules: [] });

  // ---------- custom threshold windows ----------
  const now = epochInt();
  mk('core:custom_threshold_windows', {
    _key: 'ctw_black_friday',
    title: 'Black Friday peak',
    description: 'Expect 3x traffic',
    pause_description: '',
    status: 'Active',
    window_type: 'percentage',
    window_config_percentage: 200,
    window_config_static: {},
    start_time: now - 3600,
    end_time: now + 86400 * 3,
    last_stopped_time: 0,
    next_scheduled_time: '',
    cron_schedule: '',
    duration: 86400 * 3 + 3600,
    recurrence: false,
    is_overlapping: false,
    overlapping_kpis: [],
    linked_services: [{ service_id: IDS.svcWeb, linked_kpi_ids: ['a1e5d0c2b7f94e3d8c6a5b4f3e2d1c0b9a8f7e6d'] }],
    sec_grp: GLOBAL_TEAM,
    sec_grp_list: [GLOBAL_TEAM],
  });
  mk('core:custom_threshold_windows', {
    _key: 'ctw_edge_migration',
    title: 'Edge POP migration',
    description: 'FRA POP hardware swap',
    pause_description: 'Done early',
    status: 'Stopped',
    window_type: 'static',
    window_config_percentage: 0,
    window_config_static: { value: 250 },
    start_time: now - 86400 * 7,
    end_time: now - 86400 * 6,
    last_stopped_time: now - 86400 * 6 - 600,
    next_scheduled_time: '',
    cron_schedule: '',
    duration: 86400,
    recurrence: false,
    is_overlapping: false,
    overlapping_kpis: [],
    linked_services: [{ service_id: IDS.svcEdgeCdn, linked_kpi_ids: ['d4b8a3f5e0c27b6a1f9d8e7c6b5a4f3e2d1c0b9a'] }],
    sec_grp: EDGE_TEAM,
    sec_grp_list: [EDGE_TEAM],
  });
  mk('core:custom_threshold_windows', {
    _key: 'ctw_edge_dns_cutover',
    title: 'Edge DNS cutover',
    description: 'Weekly resolver rollout',
    pause_description: '',
    status: 'active',
    window_type: 'percentage',
    window_config_percentage: 150,
    window_config_static: {},
    start_time: now,
    end_time: now + 7200,
    last_stopped_time: 0,
    next_scheduled_time: '2031-01-07 02:00:00',
    cron_schedule: '0 2 * * 2',
    duration: 7200,
    recurrence: true,
    is_overlapping: false,
    overlapping_kpis: [],
    linked_services: [],
    sec_grp: EDGE_TEAM,
    sec_grp_list: [EDGE_TEAM],
  });

  // ---------- maintenance ----------
  mk('maint:maintenance_calendar', {
    _key: '628c6b1dcde00363c71d6fec',
    title: 'Quarterly web patching',
    comment: 'OS patch round',
    start_time: now + 86400,
    end_time: now + 86400 + 7200.5,
    objects: [
      { object_type: 'service', _key: IDS.svcWeb },
      { object_type: 'entity', _key: '0C1F6A3E-9B2D-4E7F-8A61-5D4C3B2A1F01' },
    ],
  });
  mk('maint:maintenance_calendar', {
    _key: '628c6b1dcde00363c71d6fed',
    title: 'FRA POP hardware swap',
    start_time: now - 3600,
    end_time: now + 3600,
    objects: [{ object_type: 'entity', _key: '2E3B8C50-BD4F-4091-AC83-7F6E5D4C3B03' }],
  });
  mk('maint:maintenance_calendar', {
    _key: '628c6b1dcde00363c71d6fee',
    title: 'Checkout DB failover drill',
    start_time: now + 172800,
    end_time: now + 176400,
    objects: [
      { object_type: 'service', _key: IDS.svcOrdersDb },
      { object_type: 'service', _key: IDS.svcCheckout },
    ],
  });
  mk('maint:maintenance_calendar', {
    _key: '628c6b1dcde00363c71d6fef',
    title: 'Orders DB index rebuild',
    start_time: now + 259200,
    end_time: now + 262800,
    objects: [{ object_type: 'service', _key: IDS.svcOrdersDb }],
  });
  mk('maint:operative_maintenance_log', {
    _key: '628c6b1dcde00363c71d7001',
    title: 'FRA POP hardware swap (in progress)',
    maintenance_object_type: 'entity',
    maintenance_object_key: '2E3B8C50-BD4F-4091-AC83-7F6E5D4C3B03',
    maintenance_calendar_key: '628c6b1dcde00363c71d6fed',
    start_time: now - 3600,
    end_time: now + 3600,
    sec_grp_list: [EDGE_TEAM],
  });

  // ---------- backups ----------
  mk('backup:backup_restore', {
    _key: 'OpsDefaultScheduledBackup',
    title: 'Default Scheduled Backup',
    job_type: 'Backup',
    status: 'Completed',
    is_default: true,
    scheduled: 1,
    frequency: 'daily',
    scheduled_time: '01:00',
    backup_retention_count: 7,
    start_time: now - 36000,
    end_time: now - 35400,
    last_queued_time: now - 36001,
    path: '/opt/platform/var/ops/backups/OpsDefaultScheduledBackup/backup.zip',
    rules: [],
  });
  mk('backup:backup_restore', {
    _key: 'bkp_5f2c1a0e9d8b7c6a5f4e',
    title: 'Pre-upgrade backup',
    job_type: 'Backup',
    status: 'Completed',
    start_time: now - 90000,
    end_time: now - 89700,
    last_queued_time: now - 90001,
    path: '/opt/platform/var/ops/backups/bkp_5f2c1a0e9d8b7c6a5f4e/backup.zip',
    rules: [],
  });
  mk('backup:backup_restore', {
    _key: 'bkp_6a3d2b1f0e9c8d7b6a5f',
    title: 'Nightly config export',
    job_type: 'Backup',
    status: 'Queued',
    rules: [],
  });

  // ---------- icons ----------
  addCategory('Default', true);
  addCategory('Infrastructure', true);
  const icon = (key, title, category, w, h) =>
    db.put('icons:icon', {
      _key: key,
      title,
      svg_path: `M0 0 L${w} 0 L${w} ${h} L0 ${h} Z`,
      default_width: String(w),
      default_height: String(h),
      category,
      object_type: 'icon',
    });
  icon('icon_server_rack', 'Server rack', 'Infrastructure', 64, 96);
  icon('icon_database', 'Database', 'Infrastructure', 64, 64);
  icon('icon_cloud', 'Cloud', 'Default', 96, 64);
  icon('icon_arrow_right', 'Arrow right', 'Default', 48, 24);
  icon('icon_edge_pop', 'Edge POP', 'Custom Shapes', 40, 40);

  // ---------- event management ----------
  mk('event:correlation_search', {
    _key: 'cs_high_5xx',
    title: 'High 5xx ratio on web tier',
    name: 'High 5xx ratio on web tier',
    search: 'index=web status>=500 | stats count by host',
    disabled: 0,
    cron_schedule: '*/5 * * * *',
    severity: 'high',
    sec_grp: GLOBAL_TEAM,
  });
  mk('event:correlation_search', {
    _key: 'cs_pop_down',
    title: 'Edge POP unreachable',
    name: 'Edge POP unreachable',
    search: 'index=edge sourcetype=probe:rtt loss_pct=100',
    disabled: 1,
    cron_schedule: '* * * * *',
    severity: 'critical',
    sec_grp: EDGE_TEAM,
  });
  mk('event:notable_aggregation_policy', {
    _key: 'default_policy',
    title: 'Default Policy',
    description: 'Groups events by source',
    disabled: 0,
    split_by_field: 'source',
    priority: 5,
    sec_grp: GLOBAL_TEAM,
  });
  mk('event:notable_aggregation_policy', {
    _key: 'nap_edge',
    title: 'Edge events by POP',
    disabled: 0,
    split_by_field: 'pop',
    priority: 3,
    sec_grp: EDGE_TEAM,
  });
  const ep = (key, title, team, status, severity, service) =>
    mk('event:notable_event_group', {
      _key: key,
      event_id: key,
      title,
      status,
      severity,
      owner: 'unassigned',
      policy_id: 'default_policy',
      service_ids: service,
      is_active: 1,
      start_time: now - 1800,
      last_time: now - 60,
      drilldown: [{ link: 'https://runbooks.example.net/ops', name: 'Runbook' }],
      sec_grp: team,
    });
  ep('b1362b69-24f1-49bd-a2c4-cf57de6b7e2a', 'High 5xx ratio on web-02', GLOBAL_TEAM, '2', '5', IDS.svcWeb);
  ep('e28f6a23-e447-11e7-bf0b-acbc32b4d98f', 'Orders DB replication lag', GLOBAL_TEAM, '1', '4', IDS.svcOrdersDb);
  ep('7c0d4e12-5a3b-4c2d-9e1f-0a9b8c7d6e5f', 'FRA POP packet loss', EDGE_TEAM, '1', '6', IDS.svcEdgeCdn);
  mk('event:notable_event_comment', {
    _key: '5a3951ae9693fbcbf741b3ea',
    comment: 'Looking into the upstream LB',
    event_id: 'b1362b69-24f1-49bd-a2c4-cf57de6b7e2a',
    user: 'ops_writer',
    owner: 'ops_writer',
    _owner: 'nobody',
    sec_grp: GLOBAL_TEAM,
  });
  mk('event:notable_event_comment', {
    _key: '5a3951ae9693fbcbf741b3eb',
    comment: 'Swapped optics on fra-01',
    event_id: '7c0d4e12-5a3b-4c2d-9e1f-0a9b8c7d6e5f',
    user: 'team_edge',
    owner: 'team_edge',
    _owner: 'nobody',
    sec_grp: EDGE_TEAM,
  });
  mk('event:notable_event_tag', {
    _key: '5a4c14fb9693fb9dbf20acc1',
    tag_name: 'customer-impact',
    event_id: 'b1362b69-24f1-49bd-a2c4-cf57de6b7e2a',
    user: 'ops_writer',
    owner: 'ops_writer',
    sec_grp: GLOBAL_TEAM,
  });
  db.put('event:external_ticket', {
    _key: '1365ea26d4ef11ecbb74005056aa27a0',
    ticket_system: 'TicketDesk',
    _user: 'nobody',
    event_id: 'b1362b69-24f1-49bd-a2c4-cf57de6b7e2a',
    tickets: [{ ticket_system: 'TicketDesk', ticket_url: 'https://ticketdesk.example.net/incident/INC1234567', ticket_id: 'INC1234567' }],
    object_type: 'external_ticket',
    create_time: now - 1500,
    mod_time: now - 1400,
  });

  // ---------- content pack library ----------
  const shot = (n) => ({ path: `/static/app/SA-ITOA/cp/${n}.png`, thumb: `/static/app/SA-ITOA/cp/${n}_thumb.png` });
  addLibraryPack({
    id: 'DA-OPS-CP-web-servers',
    title: 'Content Pack for Web Servers',
    description: 'Services, KPIs and glass tables for web tiers',
    overview: 'Monitors request rate, errors and latency of web servers.',
    author: 'Ops Content Team',
    version: '1.4.0',
    icon: '/static/app/SA-ITOA/cp/web.svg',
    help_links: ['https://docs.example.net/cp/web-servers'],
    installed_versions: [],
    screenshots: [shot('web1'), shot('web2')],
    main_screenshot: shot('web1'),
    _saved_searches: ['Web - Top 5xx URIs', 'Web - Slow requests'],
    _objects: {
      services: [
        {
          id: 'da-web-svc-web-tier',
          title: 'Web Tier',
          description: 'Web servers as a service',
          depends_on: ['da-web-kbs-access'],
          body: { entity_rules: webRules, kpis: [kpi('3ab4f9e1d6c83d2f7e5d4c3b2a1f0e9d8c7b6a5f', 'Requests per second')] },
        },
      ],
      kpi_base_searches: [
        {
          id: 'da-web-kbs-access',
          title: 'Web Access',
          description: 'Access log metrics',
          body: { base_search: 'index=web sourcetype=access_*', metrics: [metric('da_web_req_bsm', 'Requests', 'count', 'sum', '')] },
        },
      ],
      glass_tables: [
        { id: 'da-web-gt-overview', title: 'Web Overview', description: 'Glass table for web tiers', body: { definition: {} } },
      ],
      service_analyzers: [{ id: 'da-web-sa', title: 'Web Analyzer', description: '', body: {} }],
      correlation_searches: [
        {
          id: 'da-web-cs-5xx',
          title: 'Web 5xx burst',
          description: 'Bursts of 5xx answers',
          body: { search: 'index=web status>=500', severity: 'high' },
        },
      ],
    },
  });
  addLibraryPack({
    id: 'DA-OPS-CP-database-monitoring',
    title: 'Content Pack for Database Monitoring',
    description: 'Database health services and entity types',
    overview: 'Replication, connections and query latency.',
    author: 'Ops Content Team',
    version: '2.1.1',
    icon: '/static/app/SA-ITOA/cp/db.svg',
    help_links: [],
    installed_versions: ['2.0.0'],
    screenshots: [shot('db1')],
    main_screenshot: shot('db1'),
    _saved_searches: [],
    _objects: {
      services: [
        {
          id: 'da-db-svc-cluster',
          title: 'Database Cluster',
          description: 'DB cluster health',
          body: { kpis: [kpi('4bc5a0f2e7d94e3a8f6e5d4c3b2a1f0e9d8c7b6a', 'Replication lag')] },
        },
      ],
      entity_types: [{ id: 'da-db-et-mysql', title: 'MySQL server', description: 'MySQL entity type', body: { vital_metrics: [] } }],
      aggregation_policies: [{ id: 'da-db-nap', title: 'Database episodes', description: '', body: { split_by_field: 'cluster' } }],
    },
  });
  addLibraryPack({
    id: 'DA-OPS-CP-legacy-network',
    title: 'Legacy Network Devices',
    description: 'Older pack with the short preview form',
    overview: 'SNMP-polled routers and switches.',
    author: 'Community',
    version: '1.0.2',
    icon: '',
    help_links: [],
    installed_versions: [],
    screenshots: [],
    main_screenshot: { path: '', thumb: '' },
    _old_preview: true,
    _saved_searches: ['Net - Interface errors'],
    _objects: { deep_dives: [{ id: 'da-net-dd', title: 'Network deep dive', description: 'Interfaces and errors', body: {} }] },
  });
  addLibraryFailure({
    id: 'DA-OPS-CP-broken-pack',
    error_message: 'Unable to parse ops_content_packs.conf stanza [DA-OPS-CP-broken-pack]: missing version',
    path: '/opt/platform/etc/apps/DA-OPS-CP-broken-pack',
  });

  // ---------- authored content packs ----------
  const cpBase = (key, title, status, ops, icon) => ({
    _key: key,
    title,
    description: `${title} (authored)`,
    overview: 'Built in the authoring workspace',
    cp_version: '0.3.0',
    metadata: { icon, main_screenshot: {}, screenshots: [] },
    ops_objects: ops,
    platform_objects: {
      dashboards: ['ops_web_dashboard'],
      lookups: [],
      macros: ['ops_web_index'],
      props: [],
      savedsearches: [],
      transforms: [],
    },
    user_selected_objects: { ops_objects: ops, platform_objects: { dashboards: ['ops_web_dashboard'] } },
    status,
    object_type: 'content_pack',
    sec_grp: GLOBAL_TEAM,
    identifying_name: title.toLowerCase(),
    _version: SCHEMA_VERSION,
    _user: 'nobody',
    mod_source: 'REST',
    mod_timestamp: isoTs(),
    mod_time: modTime(),
  });
  seedAuthored(
    cpBase(
      'cp_7f3e9a1c0b2d4e5f',
      'Web tier starter',
      'Draft',
      { service: [IDS.svcWeb], kpi_base_search: ['1234_bs'], glass_table: ['gt_exec_overview'] },
      '/static/app/SA-ITOA/cp/custom_web.svg',
    ),
  );
  seedAuthored(
    cpBase(
      'cp_8a4f0b2d1c3e5f60',
      'Threshold library',
      'Generated',
      { kpi_threshold_template: ['1234_tt', 'tt_business_hours'], team: [GLOBAL_TEAM] },
      null,
    ),
  );
}
