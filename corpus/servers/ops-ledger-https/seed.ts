// Seed data a real deployment would hold.
import { type DB, type Rec, col, isoOffset, modTime, plainTime, SCHEMA_VERSION, GLOBAL_TEAM, TEAMER_TEAM, epoch } from './lib';

const now = new Date();
const stamp = (title: string, objectType: string, secGrp = GLOBAL_TEAM): Rec => ({
  object_type: objectType,
  _version: SCHEMA_VERSION,
  _user: 'nobody',
  mod_source: 'REST',
  mod_timestamp: isoOffset(now),
  identifying_name: title.toLowerCase(),
  sec_grp: secGrp,
  title,
});

function thresholds(metricField = '', search = ''): Rec {
  return {
    isMinStatic: false,
    isMaxStatic: false,
    gaugeMin: 0,
    gaugeMax: 100,
    renderBoundaryMin: 0,
    renderBoundaryMax: 100,
    baseSeverityValue: 2,
    metricField,
    search,
    baseSeverityLabel: 'normal',
    baseSeverityColor: '#99D18B',
    baseSeverityColorLight: '#DCEFD7',
    thresholdLevels: [
      { severityValue: 4, thresholdValue: 70, severityLabel: 'medium', severityColor: '#FCB64E', severityColorLight: '#FEE6C1' },
      { severityValue: 5, thresholdValue: 85, severityLabel: 'high', severityColor: '#F26A35', severityColorLight: '#FBCBB9' },
      { severityValue: 6, thresholdValue: 95, severityLabel: 'critical', severityColor: '#B50101', severityColorLight: '#E5A6A6' },
    ],
  };
}

export function makeKpi(key: string, title: string, serviceId: string, extra: Rec = {}): Rec {
  return {
    _key: key,
    title,
    service_id: serviceId,
    type: 'kpis_primary',
    urgency: '5',
    target: '',
    search_type: 'shared_base',
    threshold_field: 'cpu_load_percent',
    kpi_base_search: '',
    alert_on: 'both',
    alert_lag: '30',
    search_alert_earliest: '5',
    entity_statop: 'avg',
    entity_id_fields: 'host',
    tz_offset: null,
    entity_alias_filtering_fields: null,
    backfill_earliest_time: '-7d',
    backfill_enabled: false,
    adaptive_thresholding_training_window: '-7d',
    anomaly_detection_training_window: '-7d',
    gap_severity_color: '#CCCCCC',
    gap_severity_color_light: '#EEEEEE',
    time_variate_thresholds: false,
    is_entity_breakdown: true,
    datamodel_filter: [],
    datamodel: { object: '', datamodel: '', field: '', owner_field: '' },
    aggregate_thresholds: thresholds('cpu_load_percent'),
    entity_thresholds: thresholds('cpu_load_percent'),
    time_variate_thresholds_specification: {
      policies: {
        default_policy: {
          title: 'Default',
          aggregate_thresholds: thresholds(),
          entity_thresholds: thresholds(),
          policy_type: 'static',
        },
      },
      time_blocks: [{ policy_key: 'default_policy', time_block_key: '00-00' }],
    },
    ...extra,
  };
}

function put(db: DB, name: string, rec: Rec) {
  col(db, name).set(rec._key as string, rec);
}

export function seed(db: DB) {
  // ---- teams
  put(db, 'team', {
    ...stamp('Global', 'team', GLOBAL_TEAM),
    _key: GLOBAL_TEAM,
    description: 'Global team; every user belongs to it.',
    acl: { read: ['*'], write: ['admin'] },
  });
  put(db, 'team', {
    ...stamp('Team Teamer', 'team', TEAMER_TEAM),
    _key: TEAMER_TEAM,
    description: 'Team of the restricted user',
    acl: { read: ['teamer', 'admin'], write: ['teamer', 'admin'] },
  });

  // ---- services
  const svc = (key: string, title: string, team: string, kpis: Rec[], extra: Rec = {}): Rec => ({
    ...stamp(title, 'service', team),
    _key: key,
    description: `${title} service`,
    enabled: 1,
    tags: [],
    services_depends_on: [],
    services_depending_on_me: [],
    entity_rules: [],
    kpis,
    base_service_template_id: '',
    ...extra,
  });
  put(
    db,
    'service',
    svc(
      '5a1c2e9e-7d1f-4b4e-9a51-1f0b2c3d4e01',
      'Web Frontend',
      GLOBAL_TEAM,
      [
        makeKpi('kpi-web-cpu', 'CPU Utilization', '5a1c2e9e-7d1f-4b4e-9a51-1f0b2c3d4e01', { kpi_base_search: 'kbs-os-cpu' }),
        makeKpi('kpi-web-latency', 'Request Latency', '5a1c2e9e-7d1f-4b4e-9a51-1f0b2c3d4e01', {
          threshold_field: 'latency_ms',
          kpi_base_search: 'kbs-web-access',
        }),
      ],
      {
        entity_rules: [
          { rule_condition: 'AND', rule_items: [{ field: 'host', field_type: 'alias', rule_type: 'matches', value: 'web-*' }] },
        ],
      },
    ),
  );
  put(
    db,
    'service',
    svc('5a1c2e9e-7d1f-4b4e-9a51-1f0b2c3d4e02', 'Database', GLOBAL_TEAM, [
      makeKpi('kpi-db-cpu', 'DB CPU Utilization', '5a1c2e9e-7d1f-4b4e-9a51-1f0b2c3d4e02', { kpi_base_search: 'kbs-os-cpu' }),
      makeKpi('kpi-db-conn', 'Active Connections', '5a1c2e9e-7d1f-4b4e-9a51-1f0b2c3d4e02', {
        threshold_field: 'connections',
        search_type: 'adhoc',
      }),
    ]),
  );
  put(
    db,
    'service',
    svc(
      '5a1c2e9e-7d1f-4b4e-9a51-1f0b2c3d4e03',
      'Checkout',
      GLOBAL_TEAM,
      [
        makeKpi('kpi-co-errors', 'Checkout Errors', '5a1c2e9e-7d1f-4b4e-9a51-1f0b2c3d4e03', {
          threshold_field: 'errors',
          search_type: 'adhoc',
        }),
      ],
      { services_depends_on: [{ serviceid: '5a1c2e9e-7d1f-4b4e-9a51-1f0b2c3d4e01', kpis_depending_on: ['kpi-web-latency'] }] },
    ),
  );
  put(
    db,
    'service',
    svc('5a1c2e9e-7d1f-4b4e-9a51-1f0b2c3d4e04', 'Team Batch Jobs', TEAMER_TEAM, [
      makeKpi('kpi-batch-dur', 'Batch Duration', '5a1c2e9e-7d1f-4b4e-9a51-1f0b2c3d4e04', {
        threshold_field: 'duration',
        search_type: 'adhoc',
      }),
    ]),
  );

  // ---- entities
  const ent = (key: string, title: string, host: string[], info: Rec, services: Rec[], extra: Rec = {}): Rec => ({
    ...stamp(title, 'entity', GLOBAL_TEAM),
    _key: key,
    description: '',
    identifier: { fields: ['host'], values: host.map((h) => h.toLowerCase()) },
    informational: { fields: Object.keys(info), values: Object.values(info).flat() as string[] },
    host,
    ...info,
    services,
    create_by: 'admin',
    mod_by: 'admin',
    create_source: 'REST',
    _type: 'entity',
    create_time: isoOffset(now),
    mod_time: modTime(now),
    retired: 0,
    ...extra,
  });
  const W = { _key: '5a1c2e9e-7d1f-4b4e-9a51-1f0b2c3d4e01', title: 'Web Frontend' };
  const D = { _key: '5a1c2e9e-7d1f-4b4e-9a51-1f0b2c3d4e02', title: 'Database' };
  const C = { _key: '5a1c2e9e-7d1f-4b4e-9a51-1f0b2c3d4e03', title: 'Checkout' };
  put(
    db,
    'entity',
    ent('e7b0c8a2-0001-4c1e-8f00-000000000001', 'web-01', ['web-01', 'web-01.example.com'], { os: ['linux'], ip: ['10.0.0.11'] }, [W, C]),
  );
  put(db, 'entity', ent('e7b0c8a2-0001-4c1e-8f00-000000000002', 'web-02', ['web-02'], { os: ['linux'], ip: ['10.0.0.12'] }, [W]));
  put(db, 'entity', ent('e7b0c8a2-0001-4c1e-8f00-000000000003', 'db-01', ['db-01'], { os: ['linux'], role: ['primary'] }, [D]));
  put(
    db,
    'entity',
    ent('e7b0c8a2-0001-4c1e-8f00-000000000004', 'app-legacy-01', ['app-legacy-01'], { os: ['windows'] }, [C], { retirable: 1 }),
  );
  put(db, 'entity', ent('e7b0c8a2-0001-4c1e-8f00-000000000005', 'old-cache-01', ['old-cache-01'], { os: ['linux'] }, [], { retirable: 1 }));

  // ---- kpi base searches
  const kbs = (key: string, title: string, search: string, metric: string, team = GLOBAL_TEAM): Rec => ({
    ...stamp(title, 'kpi_base_search', team),
    _key: key,
    description: `${title} base search`,
    base_search: search,
    search_alert_earliest: '5',
    alert_period: '5',
    alert_lag: '30',
    is_entity_breakdown: true,
    entity_id_fields: 'host',
    entity_alias_filtering_fields: null,
    is_service_entity_filter: false,
    metric_qualifier: '',
    actions: '',
    metrics: [
      {
        _key: `${key}-m1`,
        title: metric,
        threshold_field: metric,
        aggregate_statop: 'avg',
        entity_statop: 'avg',
        unit: '%',
        fill_gaps: 'null_value',
        gap_severity: 'unknown',
        gap_severity_value: '-1',
        gap_severity_color: '#CCCCCC',
        gap_severity_color_light: '#EEEEEE',
      },
    ],
  });
  put(db, 'kpi_base_search', kbs('kbs-os-cpu', 'OS CPU', 'index=os sourcetype=cpu', 'cpu_load_percent'));
  put(db, 'kpi_base_search', kbs('kbs-web-access', 'Web Access', 'index=web sourcetype=access_combined', 'latency_ms'));
  put(db, 'kpi_base_search', kbs('kbs-team-batch', 'Batch Logs', 'index=batch', 'duration', TEAMER_TEAM));

  // ---- service templates
  put(db, 'base_service_template', {
    ...stamp('Linux Web Server Template', 'base_service_template'),
    _key: 'bst-linux-web',
    description: 'Template for web tiers',
    entity_rules: [{ rule_condition: 'AND', rule_items: [{ field: 'os', field_type: 'info', rule_type: 'matches', value: 'linux' }] }],
    kpis: [makeKpi('tkpi-mem', 'Memory Used', '', { threshold_field: 'mem_used_percent' })],
    linked_services: [],
    total_linked_services: 0,
    serviceTemplateId: [],
    service_template_id: '',
  });

  // ---- thresholds templates, kpi templates
  put(db, 'kpi_threshold_template', {
    ...stamp('Standard Percentage', 'kpi_threshold_template'),
    _key: 'ktt-percentage',
    description: '0-100 percentage',
    adaptive_thresholds_is_enabled: false,
    time_variate_thresholds: true,
    time_variate_thresholds_specification: makeKpi('x', 'x', '').time_variate_thresholds_specification,
  });
  put(db, 'kpi_threshold_template', {
    ...stamp('Low Latency', 'kpi_threshold_template'),
    _key: 'ktt-latency',
    description: 'latency in ms',
    adaptive_thresholds_is_enabled: false,
    time_variate_thresholds: false,
    aggregate_thresholds: thresholds('latency_ms'),
  });
  put(db, 'kpi_template', {
    ...stamp('Operating System', 'kpi_template'),
    _key: 'kt-os',
    description: 'OS KPIs',
    kpis: [makeKpi('kt-os-cpu', 'CPU Utilization', '')],
  });

  // ---- entity types, filter rules, views
  put(db, 'entity_type', {
    ...stamp('*nix', 'entity_type'),
    _key: 'et-nix',
    description: 'Unix and Linux hosts',
    vital_metrics: [{ metric_name: 'cpu.usage', search: '| mstats avg(cpu.usage)' }],
    dashboard_drilldowns: [],
    data_drilldowns: [],
  });
  put(db, 'entity_type', {
    ...stamp('Windows', 'entity_type'),
    _key: 'et-windows',
    description: 'Windows hosts',
    vital_metrics: [],
    dashboard_drilldowns: [],
    data_drilldowns: [],
  });
  put(db, 'deep_dive', {
    ...stamp('Web Frontend Deep Dive', 'deep_dive'),
    _key: 'dd-web',
    description: '',
    lane_settings_collection: [],
    is_named: true,
    focus_id: W._key,
  });
  put(db, 'glass_table', {
    ...stamp('Operations Overview', 'glass_table'),
    _key: 'gt-overview',
    description: 'NOC wall board',
    content: [],
    svg_content: '',
  });
  put(db, 'home_view', {
    ...stamp('Default Service Analyzer', 'home_view'),
    _key: 'hv-default',
    description: '',
    isDefault: true,
    filter: {},
  });
  put(db, 'event_management_state', {
    ...stamp('Default Episode Review', 'event_management_state'),
    _key: 'ems-default',
    viewingOption: 'standard',
    columns: ['severity', 'title', 'status'],
  });

  // ---- custom threshold windows
  const t0 = epoch();
  put(db, 'custom_threshold_windows', {
    ...stamp('Black Friday Traffic', 'custom_threshold_windows'),
    _key: 'ctw-black-friday',
    description: 'Raise thresholds during the sale',
    pause_description: '',
    status: 'active',
    window_type: 'percentage',
    window_config_percentage: 20,
    window_config_static: {},
    start_time: t0 - 3600,
    end_time: t0 + 86400,
    last_stopped_time: 0,
    next_scheduled_time: '',
    cron_schedule: '',
    duration: 86400 + 3600,
    recurrence: false,
    is_overlapping: false,
    overlapping_kpis: [],
    linked_services: [{ service_id: W._key, linked_kpi_ids: ['kpi-web-latency'] }],
    sec_grp_list: [GLOBAL_TEAM],
  });
  put(db, 'custom_threshold_windows', {
    ...stamp('Quarter End Close', 'custom_threshold_windows'),
    _key: 'ctw-quarter-end',
    description: 'Finance close',
    pause_description: 'Finished early',
    status: 'stopped',
    window_type: 'static',
    window_config_percentage: 0,
    window_config_static: { severity: 'normal' },
    start_time: t0 - 7 * 86400,
    end_time: t0 - 6 * 86400,
    last_stopped_time: t0 - 6 * 86400 - 600,
    next_scheduled_time: '',
    cron_schedule: '',
    duration: 86400,
    recurrence: false,
    is_overlapping: false,
    overlapping_kpis: [],
    linked_services: [],
    sec_grp_list: [GLOBAL_TEAM],
  });

  // ---- authored content packs
  put(db, 'cp_authoring', {
    ...stamp('Web Tier Pack', 'content_pack'),
    _key: 'cpa-web-tier',
    description: 'Web services and their base searches',
    overview: 'Packages the web tier monitoring',
    cp_version: '1.0.0',
    metadata: { icon: null, main_screenshot: {}, screenshots: [] },
    ops_objects: { service: [W._key], kpi_base_search: ['kbs-web-access'] },
    platform_objects: { dashboards: [], lookups: [], macros: ['web_index'], props: [], savedsearches: [], transforms: [] },
    user_selected_objects: { ops_objects: { service: [W._key] }, platform_objects: { macros: ['web_index'] } },
    status: 'Draft',
    mod_time: modTime(now),
  });
  put(db, 'cp_authoring', {
    ...stamp('Database Essentials', 'content_pack'),
    _key: 'cpa-db-essentials',
    description: 'Database monitoring',
    overview: '',
    cp_version: '2.1.0',
    metadata: { icon: 'db.svg', main_screenshot: { path: 'shot.png', thumb: 'shot_t.png' }, screenshots: [] },
    ops_objects: { service: [D._key], entity_type: ['et-nix'], glass_table: ['gt-overview'] },
    platform_objects: {
      dashboards: ['db_overview'],
      lookups: [],
      macros: [],
      props: [],
      savedsearches: ['db_slow_queries'],
      transforms: [],
    },
    user_selected_objects: { ops_objects: { service: [D._key] }, platform_objects: { dashboards: ['db_overview'] } },
    status: 'Generated',
    mod_time: modTime(now),
  });

  // ---- event management
  const em = (type: string, rec: Rec) =>
    put(db, 'em:' + type, {
      object_type: type,
      _version: SCHEMA_VERSION,
      _user: 'nobody',
      mod_source: 'REST',
      mod_timestamp: isoOffset(now),
      sec_grp: GLOBAL_TEAM,
      identifying_name: String(rec.title || '').toLowerCase(),
      ...rec,
    });
  em('correlation_search', {
    _key: 'cs-host-down',
    title: 'Host Down',
    name: 'Host Down',
    search: 'index=os status=down',
    disabled: 0,
    description: 'Host stopped reporting',
    cron_schedule: '*/5 * * * *',
    severity: '5',
  });
  em('correlation_search', {
    _key: 'cs-high-latency',
    title: 'High Latency',
    name: 'High Latency',
    search: 'index=web latency_ms>1000',
    disabled: 1,
    description: '',
    cron_schedule: '*/5 * * * *',
    severity: '4',
  });
  em('notable_aggregation_policy', {
    _key: 'ops_default_policy',
    title: 'Default Policy',
    description: 'Default aggregation policy',
    disabled: 0,
    is_default: 1,
    group_severity: 'medium',
  });
  em('notable_event_group', {
    _key: 'ep-0001',
    title: 'web-01 CPU saturated',
    status: '1',
    severity: '5',
    owner: 'unassigned',
    policy_id: 'ops_default_policy',
    start_time: t0 - 1800,
    last_time: t0 - 60,
    count: 12,
  });
  em('notable_event_group', {
    _key: 'ep-0002',
    title: 'db-01 connection storm',
    status: '2',
    severity: '6',
    owner: 'admin',
    policy_id: 'ops_default_policy',
    start_time: t0 - 7200,
    last_time: t0 - 300,
    count: 40,
  });
  em('notable_event_group', {
    _key: 'ep-0003',
    title: 'Checkout errors',
    status: '5',
    severity: '3',
    owner: 'admin',
    policy_id: 'ops_default_policy',
    start_time: t0 - 86400,
    last_time: t0 - 80000,
    count: 3,
  });
  em('notable_event_comment', {
    _key: 'cmt-0001',
    title: '',
    event_id: 'ep-0002',
    comment: 'Investigating with the DBA team',
    create_time: t0 - 200,
  });
  put(db, 'external_ticket', {
    _key: '65f1a2b3c4d5e6f708192a3b',
    object_type: 'external_ticket',
    _user: 'nobody',
    event_id: 'ep-0002',
    ticket_system: 'ServiceDesk',
    tickets: [{ ticket_system: 'ServiceDesk', ticket_id: 'INC0010001', ticket_url: 'https://servicedesk.example.com/INC0010001' }],
  });

  // ---- maintenance windows
  const mw = (key: string, title: string, start: number, end: number, objects: Rec[], team: string): Rec => ({
    ...stamp(title, 'maintenance_calendar', team),
    _key: key,
    start_time: start,
    end_time: end,
    objects,
    sec_grp_list: [team],
    _owner: 'admin',
  });
  put(
    db,
    'maintenance_calendar',
    mw(
      'mw-0001-db-patching',
      'DB patching',
      t0 + 86400,
      t0 + 86400 + 7200,
      [
        { object_type: 'service', _key: D._key },
        { object_type: 'entity', _key: 'e7b0c8a2-0001-4c1e-8f00-000000000003' },
      ],
      GLOBAL_TEAM,
    ),
  );
  put(
    db,
    'maintenance_calendar',
    mw(
      'mw-0002-batch-upgrade',
      'Batch upgrade',
      t0 + 3 * 86400,
      t0 + 3 * 86400 + 3600.5,
      [{ object_type: 'service', _key: '5a1c2e9e-7d1f-4b4e-9a51-1f0b2c3d4e04' }],
      TEAMER_TEAM,
    ),
  );

  // ---- backup jobs
  put(db, 'backup_restore', {
    ...stamp('Default Scheduled Backup', 'backup_restore'),
    _key: 'DefaultScheduledBackup',
    description: 'Backs up the configuration every day at midnight.',
    job_type: 'Backup',
    status: 'Completed',
    scheduled: 1,
    frequency: 'daily',
    create_time: plainTime(new Date(now.getTime() - 30 * 86400000)),
    start_time: t0 - 3600,
    end_time: t0 - 3500,
    last_queued_time: t0 - 3600,
    path: '/opt/platform/var/ops/backups/DefaultScheduledBackup/backup.zip',
    search_head_id: 'C0A8E1F2-3B4D-4E5F-8A9B-0C1D2E3F4A5B',
    platform_server: 'ops-sh-01',
    rules: [],
    last_error: '',
    _owner: 'nobody',
  });
  put(db, 'backup_restore', {
    ...stamp('Before upgrade', 'backup_restore'),
    _key: 'b1d2c3e4-0000-4aaa-8bbb-000000000001',
    description: '',
    job_type: 'Backup',
    status: 'Completed',
    scheduled: 0,
    create_time: plainTime(new Date(now.getTime() - 2 * 86400000)),
    start_time: t0 - 2 * 86400,
    end_time: t0 - 2 * 86400 + 95,
    last_queued_time: t0 - 2 * 86400,
    path: '/opt/platform/var/ops/backups/b1d2c3e4-0000-4aaa-8bbb-000000000001/backup.zip',
    search_head_id: 'C0A8E1F2-3B4D-4E5F-8A9B-0C1D2E3F4A5B',
    platform_server: 'ops-sh-01',
    rules: [],
    last_error: '',
    _owner: 'admin',
  });

  // ---- icons
  const icons: [string, string, string][] = [
    ['Server', 'Server', 'M2 2h20v6H2z M2 10h20v6H2z'],
    ['Database', 'Server', 'M12 2c5 0 9 1.5 9 3.5v13c0 2-4 3.5-9 3.5s-9-1.5-9-3.5v-13C3 3.5 7 2 12 2z'],
    ['Router', 'Network', 'M4 12h16 M12 4v16'],
    ['Switch', 'Network', 'M2 8h20v8H2z'],
    ['Cloud', 'Default', 'M6 18h11a5 5 0 0 0 0-10 7 7 0 0 0-13 2 4 4 0 0 0 2 8z'],
    ['User', 'Default', 'M12 12a5 5 0 1 0 0-10 5 5 0 0 0 0 10z'],
    ['Shopping Cart', 'Retail', 'M3 3h2l3 12h11l2-8H7'],
  ];
  icons.forEach(([title, category, svg], i) => {
    put(db, 'icon', {
      _key: `64a0f0c1e2d3b4a59687${String(1000 + i)}`,
      title,
      svg_path: svg,
      default_width: '48',
      default_height: '48',
      category,
      _user: 'nobody',
    });
  });
}
