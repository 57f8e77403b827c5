// Seed data of the core, maintenance, backup and authoring collections.
import { GLOBAL_TEAM, OWN_TEAM } from './auth.mjs';
import { collection, SCHEMA_VERSION } from './store.mjs';
import { isoStamp, modTime, plainTime } from './time.mjs';

const NET_TEAM = 'team_network_engineering';
const DAY = 86400000;

function put(space, type, row, ageDays = 30) {
  const ms = Date.now() - ageDays * DAY;
  const base = {
    object_type: type,
    _version: SCHEMA_VERSION,
    _user: 'nobody',
    _owner: 'nobody',
    mod_source: 'REST',
    create_source: 'REST',
    create_by: 'lenient_admin',
    mod_by: 'lenient_admin',
  };
  const stamps = { create_time: isoStamp(ms), mod_time: modTime(ms), mod_timestamp: isoStamp(ms) };
  const full = { ...base, ...stamps, ...row };
  if (typeof full.title === 'string') full.identifying_name = full.title.toLowerCase();
  collection(space, type).put(full);
}

const level = (severityValue, severityLabel, thresholdValue, severityColor, severityColorLight) => ({
  severityValue,
  severityLabel,
  thresholdValue,
  severityColor,
  severityColorLight,
  dynamicParam: 0,
});

const thresholds = (metricField) => ({
  isMinStatic: true,
  isMaxStatic: false,
  gaugeMin: 0,
  gaugeMax: 100,
  renderBoundaryMin: 0,
  renderBoundaryMax: 100,
  baseSeverityValue: 2,
  metricField,
  search: '',
  baseSeverityLabel: 'normal',
  baseSeverityColor: '#99D18B',
  baseSeverityColorLight: '#DCEFD7',
  thresholdLevels: [
    level(4, 'medium', 70, '#FCB64E', '#FEE6C1'),
    level(5, 'high', 85, '#F26A35', '#FBCBB9'),
    level(6, 'critical', 95, '#B50101', '#E5A6A6'),
  ],
});

function kpi(key, service, title, extra = {}) {
  return {
    _key: key,
    title,
    service_id: service,
    type: 'kpis_primary',
    urgency: 5,
    search_type: 'shared_base',
    base_search_id: 'bs_web_performance',
    threshold_field: 'latency_ms',
    alert_on: 'both',
    alert_lag: '30',
    search_alert_earliest: '5',
    entity_statop: 'avg',
    aggregate_statop: 'avg',
    entity_id_fields: 'host',
    backfill_earliest_time: '-7d',
    adaptive_thresholding_training_window: '-7d',
    anomaly_detection_training_window: '-7d',
    gap_severity_color: '#CCCCCC',
    gap_severity_color_light: '#EEEEEE',
    time_variate_thresholds: false,
    is_entity_breakdown: true,
    aggregate_thresholds: thresholds('latency_ms'),
    entity_thresholds: thresholds('latency_ms'),
    time_variate_thresholds_specification: {
      policies: {
        default_policy: {
          title: 'Default',
          aggregate_thresholds: thresholds('latency_ms'),
          entity_thresholds: thresholds('latency_ms'),
          policy_type: 'static',
        },
      },
      time_blocks: [{ policy_key: 'default_policy', time_block_key: '00-00' }],
    },
    ...extra,
  };
}

const rule = (field, value, field_type = 'alias') => ({
  rule_condition: 'AND',
  rule_items: [{ field, field_type, rule_type: 'matches', value }],
});

function service(key, title, team, kpis, extra = {}) {
  const shs = { _key: `SHKPI-${key}`, title: 'ServiceHealthScore', service_id: key, type: 'service_health', urgency: 11 };
  put('itoa', 'service', {
    _key: key,
    title,
    description: `${title} service`,
    sec_grp: team,
    enabled: 1,
    entity_rules: [],
    services_depends_on: [],
    kpis: [shs, ...kpis],
    service_tags: { tags: [] },
    ...extra,
  });
}

function entity(key, title, team, services, host, role) {
  put('itoa', 'entity', {
    _key: key,
    title,
    description: `${title} host`,
    sec_grp: team,
    _type: 'entity',
    identifier: { fields: ['host'], values: [host] },
    informational: { fields: ['role'], values: [role] },
    host: [host],
    role: [role],
    services,
    retired: 0,
    retirable: services.length === 0 ? 1 : 0,
    entity_type_ids: ['et_unix_host'],
  });
}

export function seedCore() {
  put(
    'itoa',
    'team',
    { _key: GLOBAL_TEAM, title: 'Global', description: 'The default team; every user can be given access to it', sec_grp: GLOBAL_TEAM },
    400,
  );
  put('itoa', 'team', { _key: OWN_TEAM, title: 'Lenient Operations', description: 'Team of the operations group', sec_grp: OWN_TEAM }, 300);
  put('itoa', 'team', { _key: NET_TEAM, title: 'Network Engineering', description: 'Team of the network group', sec_grp: NET_TEAM }, 290);

  service(
    'svc-checkout',
    'Checkout',
    GLOBAL_TEAM,
    [
      kpi('kpi-checkout-latency', 'svc-checkout', 'Checkout Latency'),
      kpi('kpi-checkout-errors', 'svc-checkout', 'Checkout Error Rate', { threshold_field: 'error_pct' }),
    ],
    {
      entity_rules: [rule('host', 'web-*')],
      services_depends_on: [{ serviceid: 'svc-database', kpis_depending_on: ['SHKPI-svc-database'] }],
    },
  );
  service(
    'svc-database',
    'Database',
    GLOBAL_TEAM,
    [kpi('kpi-db-connections', 'svc-database', 'Database Connections', { threshold_field: 'connections' })],
    { entity_rules: [rule('host', 'db-*')] },
  );
  service('svc-auth', 'Authentication', GLOBAL_TEAM, [
    kpi('kpi-auth-failures', 'svc-auth', 'Failed Logins', { threshold_field: 'failures' }),
  ]);
  service('61866623-79bb-4be0-a0c6-fa549a225b1a', 'System Health', GLOBAL_TEAM, [], {
    entity_rules: [rule('host', '*Test*')],
    backfill_enabled: true,
    isFirstTimeSaveDone: true,
  });
  service('svc-team-web', 'Team Web Front End', OWN_TEAM, [kpi('kpi-team-web-latency', 'svc-team-web', 'Front End Latency')], {
    entity_rules: [rule('host', 'app-*')],
  });
  service('svc-network-core', 'Network Core', NET_TEAM, [
    kpi('kpi-net-packet-loss', 'svc-network-core', 'Packet Loss', { threshold_field: 'loss_pct' }),
  ]);

  const checkout = [{ _key: 'svc-checkout', title: 'Checkout' }];
  entity('ent-web-01', 'web-01', GLOBAL_TEAM, checkout, 'web-01', 'web');
  entity('ent-web-02', 'web-02', GLOBAL_TEAM, checkout, 'web-02', 'web');
  entity('ent-db-01', 'db-01', GLOBAL_TEAM, [{ _key: 'svc-database', title: 'Database' }], 'db-01', 'database');
  entity('ent-old-batch-01', 'old-batch-01', GLOBAL_TEAM, [], 'old-batch-01', 'batch');
  entity('ent-old-batch-02', 'old-batch-02', GLOBAL_TEAM, [], 'old-batch-02', 'batch');
  entity('ent-app-01', 'app-01', OWN_TEAM, [{ _key: 'svc-team-web', title: 'Team Web Front End' }], 'app-01', 'web');
  entity('ent-app-stale', 'app-stale', OWN_TEAM, [], 'app-stale', 'web');
  entity('ent-router-01', 'router-01', NET_TEAM, [{ _key: 'svc-network-core', title: 'Network Core' }], 'router-01', 'router');
  for (const n of ['03', '04', '05', '06']) entity(`ent-web-${n}`, `web-${n}`, GLOBAL_TEAM, checkout, `web-${n}`, 'web');
  for (const n of ['01', '02'])
    entity(`ent-cache-${n}`, `cache-${n}`, GLOBAL_TEAM, [{ _key: 'svc-database', title: 'Database' }], `cache-${n}`, 'cache');

  put('itoa', 'kpi_base_search', {
    _key: 'bs_web_performance',
    title: 'Web Performance',
    description: 'Shared base search for web tiers',
    sec_grp: GLOBAL_TEAM,
    base_search: 'index=web sourcetype=access_combined | stats avg(latency_ms) as latency_ms by host',
    alert_period: '5',
    alert_lag: '30',
    search_alert_earliest: '5',
    entity_id_fields: 'host',
    entity_breakdown_id_fields: 'host',
    is_entity_breakdown: true,
    is_service_entity_filter: false,
    metrics: [
      {
        _key: 'metric_latency',
        title: 'Latency',
        threshold_field: 'latency_ms',
        aggregate_statop: 'avg',
        entity_statop: 'avg',
        unit: 'ms',
      },
    ],
  });
  put('itoa', 'kpi_base_search', {
    _key: '1234_bs',
    title: 'test title metric',
    description: 'test description',
    sec_grp: GLOBAL_TEAM,
    base_search: 'testSearch',
    alert_period: '5',
    alert_lag: '31',
    search_alert_earliest: '5',
    entity_id_fields: 'host',
    metrics: [
      {
        _key: '1234_bsm',
        title: 'UT: Forwarder Count',
        threshold_field: 'test_host',
        aggregate_statop: 'ut_dc',
        entity_statop: 'ut_avg',
        unit: '',
      },
    ],
  });
  put('itoa', 'kpi_base_search', {
    _key: 'bs_team_app',
    title: 'Team App Metrics',
    sec_grp: OWN_TEAM,
    base_search: 'index=app | stats count by host',
    metrics: [],
  });
  put('itoa', 'kpi_threshold_template', {
    _key: '1234_tt',
    title: 'Static three-level thresholds',
    description: 'Medium, high and critical over fixed values',
    sec_grp: GLOBAL_TEAM,
    adaptive_thresholds_is_enabled: false,
    adaptive_thresholding_training_window: '-7d',
    time_variate_thresholds: false,
    time_variate_thresholds_specification: {
      policies: {
        default_policy: {
          title: 'Default',
          aggregate_thresholds: thresholds(''),
          entity_thresholds: thresholds(''),
          policy_type: 'static',
          time_blocks: [],
        },
      },
    },
  });
  put('itoa', 'base_service_template', {
    _key: 'tpl-web-tier',
    title: 'Web Tier Template',
    description: 'Service template for web tiers',
    sec_grp: GLOBAL_TEAM,
    entity_rules: [rule('role', 'web', 'info')],
    kpis: [kpi('tplkpi-latency', '', 'Latency')],
    linked_services: [],
    total_linked_services: 0,
  });
  put('itoa', 'base_service_template', {
    _key: 'tpl-database',
    title: 'Database Template',
    sec_grp: GLOBAL_TEAM,
    entity_rules: [rule('role', 'database', 'info'), rule('host', 'db-*')],
    kpis: [],
    linked_services: [],
    total_linked_services: 0,
  });
  put('itoa', 'kpi_template', { _key: 'kt-web', title: 'Web KPIs', sec_grp: GLOBAL_TEAM, kpis: [kpi('kt-latency', '', 'Latency')] });
  put('itoa', 'deep_dive', {
    _key: 'dd-checkout',
    title: 'Checkout deep dive',
    sec_grp: GLOBAL_TEAM,
    lane_settings_collection: [],
    earliest_time: '-60m',
    latest_time: 'now',
    is_named: true,
  });
  put('itoa', 'glass_table', {
    _key: 'gt-overview',
    title: 'Operations Overview',
    sec_grp: GLOBAL_TEAM,
    content: '{}',
    latest: 'now',
    earliest: '-24h',
  });
  put('itoa', 'home_view', {
    _key: 'hv-default',
    title: 'Default Service Analyzer',
    sec_grp: GLOBAL_TEAM,
    service_ids: ['svc-checkout', 'svc-database'],
  });
  put('itoa', 'entity_type', {
    _key: 'et_unix_host',
    title: 'Unix host',
    sec_grp: GLOBAL_TEAM,
    vital_metrics: [],
    dashboard_drilldowns: [],
    data_drilldowns: [],
  });
  put('itoa', 'event_management_state', {
    _key: 'ems-default',
    title: 'Episode review default view',
    sec_grp: GLOBAL_TEAM,
    columns: ['title', 'severity', 'status'],
    sortBy: 'mod_time',
    sortOrder: 'desc',
  });
  put('itoa', 'custom_threshold_windows', {
    _key: 'ctw-peak-sale',
    title: 'Peak sale thresholds',
    description: 'Raise thresholds during the seasonal sale',
    sec_grp: GLOBAL_TEAM,
    status: 'Active',
    window_type: 'percentage',
    window_config_percentage: 20,
    window_config_static: {},
    start_time: Math.floor(Date.now() / 1000) - 3600,
    end_time: Math.floor(Date.now() / 1000) + 86400,
    duration: 90000,
    recurrence: false,
    cron_schedule: '',
    next_scheduled_time: '',
    is_overlapping: false,
    overlapping_kpis: [],
    linked_services: [{ service_id: 'svc-checkout', linked_kpi_ids: ['kpi-checkout-latency', 'kpi-checkout-errors'] }],
    sec_grp_list: [GLOBAL_TEAM],
  });
  put('itoa', 'custom_threshold_windows', {
    _key: 'ctw-night-batch',
    title: 'Night batch relax',
    sec_grp: GLOBAL_TEAM,
    status: 'Stopped',
    window_type: 'static',
    window_config_static: { value: 5 },
    last_stopped_time: Math.floor(Date.now() / 1000) - 7200,
    linked_services: [],
    sec_grp_list: [GLOBAL_TEAM],
  });
  put('itoa', 'custom_threshold_windows', {
    _key: 'ctw-team-release',
    title: 'Team release window',
    sec_grp: OWN_TEAM,
    status: 'Active',
    window_type: 'percentage',
    window_config_percentage: 10,
    linked_services: [{ service_id: 'svc-team-web', linked_kpi_ids: ['kpi-team-web-latency'] }],
    sec_grp_list: [OWN_TEAM],
  });

  const now = Math.floor(Date.now() / 1000);
  put('maintenance', 'maintenance_calendar', {
    _key: '628c6b1dcde00363c71d6fec',
    title: 'Database patching',
    comment: 'monthly patches',
    start_time: now + 86400,
    end_time: now + 90000,
    objects: [{ object_type: 'service', _key: 'svc-database' }],
    sec_grp_list: [GLOBAL_TEAM],
    _owner: 'lenient_admin',
  });
  put('maintenance', 'maintenance_calendar', {
    _key: 'mw-team-web-deploy',
    title: 'Team web deploy',
    start_time: now + 3600,
    end_time: now + 7200.5,
    objects: [
      { object_type: 'service', _key: 'svc-team-web' },
      { object_type: 'entity', _key: 'ent-app-01' },
    ],
    sec_grp_list: [OWN_TEAM],
    _owner: 'lenient_admin',
  });
  put('maintenance', 'maintenance_calendar', {
    _key: 'mw-network-upgrade',
    title: 'Core router upgrade',
    start_time: now - 600,
    end_time: now + 1800,
    objects: [{ object_type: 'entity', _key: 'ent-router-01' }],
    sec_grp_list: [NET_TEAM],
    _owner: 'lenient_admin',
  });

  const backup = (row, ageDays) =>
    put(
      'backup',
      'backup_restore',
      {
        create_time: plainTime(Date.now() - ageDays * DAY),
        search_head_id: 'sh-lenient-01',
        platform_server: 'ops-sh-01.example.com',
        rules: [],
        last_error: '',
        ...row,
      },
      ageDays,
    );
  backup(
    {
      _key: 'default_scheduled_backup',
      title: 'Default Scheduled Backup',
      job_type: 'Backup',
      status: 'Completed',
      scheduled: 1,
      frequency: 'daily',
      start_time: now - 3600,
      end_time: now - 3500,
      last_queued_time: now - 3600,
      path: '/opt/platform/var/ops/backups/default_scheduled_backup.zip',
      sec_grp: GLOBAL_TEAM,
      _owner: 'nobody',
    },
    200,
  );
  backup(
    {
      _key: 'bk-before-upgrade',
      title: 'Before upgrade',
      job_type: 'Backup',
      status: 'Completed',
      start_time: now - 90000,
      end_time: now - 89000,
      last_queued_time: now - 90000,
      path: '/opt/platform/var/ops/backups/bk-before-upgrade.zip',
      sec_grp: GLOBAL_TEAM,
      _owner: 'lenient_admin',
    },
    10,
  );
  backup(
    {
      _key: 'bk-team-nightly',
      title: 'Team nightly',
      job_type: 'Backup',
      status: 'Queued',
      last_queued_time: now - 60,
      path: '',
      sec_grp: OWN_TEAM,
      _owner: 'lenient_team',
    },
    1,
  );

  put('itoa', 'content_pack', {
    _key: 'cp-draft-checkout',
    title: 'Checkout monitoring pack',
    description: 'Exports the checkout service and its searches',
    overview: 'Everything needed to watch checkout',
    cp_version: '1.0.0',
    status: 'Draft',
    metadata: { icon: null, main_screenshot: {}, screenshots: [] },
    ops_objects: { service: ['svc-checkout', 'svc-database'], kpi_base_search: ['bs_web_performance'] },
    platform_objects: {
      dashboards: ['checkout_overview'],
      lookups: [],
      macros: ['checkout_index'],
      props: [],
      savedsearches: [],
      transforms: [],
    },
    user_selected_objects: { ops_objects: { service: ['svc-checkout'] }, platform_objects: { dashboards: ['checkout_overview'] } },
    _owner: 'lenient_admin',
  });
  put('itoa', 'content_pack', {
    _key: 'cp-generated-auth',
    title: 'Authentication pack',
    description: 'Authentication service',
    overview: '',
    cp_version: '2.3.1',
    status: 'Generated',
    metadata: { icon: 'auth.png', main_screenshot: { path: 'main.png', thumb: 'main_t.png' }, screenshots: [] },
    ops_objects: { service: ['svc-auth'], correlation_search: ['cs_disk_usage'] },
    platform_objects: { dashboards: [], lookups: ['users.csv'], macros: [], props: [], savedsearches: ['auth - failures'], transforms: [] },
    user_selected_objects: { ops_objects: { service: ['svc-auth'] }, platform_objects: {} },
    _owner: 'lenient_admin',
  });
}
