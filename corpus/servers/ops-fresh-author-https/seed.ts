// Seed data for every store.
import { Store, GLOBAL, VERSION, TEAM_KEY, isoOff, modTime, plainTime } from './store.js';

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
export const EXTRA_TYPES = ['entity_relationship', 'entity_relationship_rule'];
const EM_TYPES = ['correlation_search', 'notable_event_group', 'notable_aggregation_policy', 'notable_event_comment'];

export const CORE: Record<string, Store> = {};
for (const t of [...CORE_TYPES, ...EXTRA_TYPES]) CORE[t] = new Store();
export const EM: Record<string, Store> = {};
for (const t of EM_TYPES) EM[t] = new Store();
export const TICKETS = new Store();
export const MAINT = new Store();
export const BACKUP = new Store();
export const ICONS = new Store();
export const LIBRARY = new Store(); // content packs in the library, keyed by id
export const INSTALLS = new Store(); // install records, keyed by `${packId}` -> {id -> [installed keys]}
export const AUTHORING = new Store();
export const RETIRED_LINKS = new Store(); // entity key -> services it was linked to before retirement

const BASE = Date.parse('2024-03-04T08:00:00Z');
let tick = 0;
const nextDate = () => new Date(BASE + tick++ * 61_000);

export function common(type: string, title: string, sec: string = GLOBAL, d: Date = nextDate()): any {
  return {
    object_type: type,
    title,
    identifying_name: String(title).toLowerCase(),
    _version: VERSION,
    _user: 'nobody',
    mod_source: 'REST',
    mod_timestamp: isoOff(d),
    sec_grp: sec,
  };
}
function put(store: Store, key: string, obj: any) {
  obj._key = key;
  store.seed(key, obj);
}

function thresholds(metric: string, search = ''): any {
  return {
    isMinStatic: false,
    isMaxStatic: false,
    gaugeMin: 0,
    gaugeMax: 100,
    renderBoundaryMin: 0,
    renderBoundaryMax: 100,
    baseSeverityValue: 2,
    metricField: metric,
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
function mkKpi(serviceId: string, key: string, title: string, field: string, base = ''): any {
  return {
    _key: key,
    title,
    service_id: serviceId,
    type: 'kpis_primary',
    urgency: '5',
    target: '',
    search_type: base ? 'shared' : 'adhoc',
    threshold_field: field,
    kpi_base_search: base,
    alert_on: 'both',
    alert_lag: '30',
    search_alert_earliest: '5',
    entity_statop: 'avg',
    entity_id_fields: 'host',
    tz_offset: null,
    entity_alias_filtering_fields: null,
    backfill_earliest_time: '-7d',
    adaptive_thresholding_training_window: '-7d',
    anomaly_detection_training_window: '-7d',
    gap_severity_color: '#CCCCCC',
    gap_severity_color_light: '#EEEEEE',
    time_variate_thresholds: false,
    is_entity_breakdown: true,
    datamodel_filter: [],
    datamodel: { object: '', datamodel: '', field: '', owner_field: '' },
    entity_thresholds: thresholds(field),
    aggregate_thresholds: thresholds(field),
    time_variate_thresholds_specification: {
      policies: {
        default_policy: {
          title: 'Default',
          aggregate_thresholds: thresholds(field),
          entity_thresholds: thresholds(field),
          policy_type: 'static',
        },
      },
      time_blocks: [
        { policy_key: 'default_policy', time_block_key: '00-00' },
        { policy_key: 'default_policy', time_block_key: '05-10' },
      ],
    },
    enabled: 1,
  };
}
function entity(key: string, title: string, sec: string, host: string, ip: string, services: any[], extra: any = {}) {
  const d = nextDate();
  const e = {
    ...common('entity', title, sec, d),
    description: `Host ${title}`,
    identifier: { fields: ['host', 'ip'], values: [host, ip] },
    informational: { fields: ['os', 'datacenter'], values: [extra.os || 'linux', extra.dc || 'eu-west-1'] },
    host: [host],
    ip: [ip],
    os: [extra.os || 'linux'],
    datacenter: [extra.dc || 'eu-west-1'],
    services,
    create_by: 'admin',
    mod_by: 'admin',
    create_source: 'REST',
    _type: 'entity',
    create_time: isoOff(d),
    mod_time: modTime(d),
    retired: 0,
  } as any;
  if (extra.retirable) e.retirable = 1;
  put(CORE.entity, key, e);
}
function service(key: string, title: string, sec: string, kpis: any[], extra: any = {}) {
  put(CORE.service, key, {
    ...common('service', title, sec),
    description: `${title} service`,
    enabled: 1,
    kpis,
    entity_rules: extra.entity_rules || [],
    services_depends_on: extra.deps || [],
    services_depending_on_me: [],
    tags: extra.tags || [],
    base_service_template_id: extra.tpl || '',
    serviceTemplateId: extra.tpl || '',
  });
}
const rule = (field: string, value: string) => ({
  rule_condition: 'AND',
  rule_items: [{ field, field_type: 'alias', rule_type: 'matches', value }],
});

export function seedAll(): void {
  put(CORE.team, GLOBAL, { ...common('team', 'Global'), description: 'Global team', acl: { read: ['*'], write: ['admin'] } });
  put(CORE.team, TEAM_KEY, {
    ...common('team', 'Payments Ops', GLOBAL),
    description: 'Payments operations team',
    acl: { read: ['teamer'], write: ['teamer', 'admin'] },
  });

  service(
    'svc-web-frontend',
    'Web Frontend',
    GLOBAL,
    [
      mkKpi('svc-web-frontend', 'kpi-web-latency', 'Request Latency', 'latency_ms', 'kbs-web-access'),
      mkKpi('svc-web-frontend', 'kpi-web-errors', 'Error Rate', 'error_pct', 'kbs-web-access'),
    ],
    {
      entity_rules: [rule('host', 'web-*')],
      deps: [{ serviceid: 'svc-database', kpis_depending_on: ['kpi-db-conn'] }],
      tags: ['web', 'tier1'],
      tpl: 'tpl-web-tier',
    },
  );
  service(
    'svc-database',
    'Database Cluster',
    GLOBAL,
    [
      mkKpi('svc-database', 'kpi-db-conn', 'Active Connections', 'connections'),
      mkKpi('svc-database', 'kpi-db-repl', 'Replication Lag', 'lag_s'),
    ],
    { entity_rules: [rule('host', 'db-*')], tags: ['db'] },
  );
  service(
    'svc-pay-api',
    'Payments API',
    TEAM_KEY,
    [
      mkKpi('svc-pay-api', 'kpi-pay-tps', 'Transactions per Second', 'tps', 'kbs-pay-tx'),
      mkKpi('svc-pay-api', 'kpi-pay-decline', 'Decline Ratio', 'decline_pct', 'kbs-pay-tx'),
    ],
    { entity_rules: [rule('host', 'pay-api-*')], tags: ['payments'] },
  );
  service('svc-pay-gateway', 'Payments Gateway', TEAM_KEY, [mkKpi('svc-pay-gateway', 'kpi-gw-latency', 'Gateway Latency', 'latency_ms')], {
    tags: ['payments', 'edge'],
  });

  entity('ent-web-01', 'web-01.prod', GLOBAL, 'web-01', '10.0.1.11', [{ _key: 'svc-web-frontend', title: 'Web Frontend' }]);
  entity('ent-web-02', 'web-02.prod', GLOBAL, 'web-02', '10.0.1.12', [{ _key: 'svc-web-frontend', title: 'Web Frontend' }], {
    retirable: 1,
  });
  entity('ent-db-01', 'db-01.prod', GLOBAL, 'db-01', '10.0.2.21', [{ _key: 'svc-database', title: 'Database Cluster' }], { os: 'rhel' });
  entity('ent-legacy-07', 'legacy-07.dc1', GLOBAL, 'legacy-07', '10.9.0.7', [], { retirable: 1, dc: 'dc1' });
  entity('ent-pay-01', 'pay-api-01.prod', TEAM_KEY, 'pay-api-01', '10.0.5.31', [{ _key: 'svc-pay-api', title: 'Payments API' }]);
  entity(
    'ent-pay-02',
    'pay-api-02.prod',
    TEAM_KEY,
    'pay-api-02',
    '10.0.5.32',
    [
      { _key: 'svc-pay-api', title: 'Payments API' },
      { _key: 'svc-pay-gateway', title: 'Payments Gateway' },
    ],
    { retirable: 1 },
  );
  entity('ent-pay-old', 'pay-old-03.dc1', TEAM_KEY, 'pay-old-03', '10.9.5.3', [{ _key: 'svc-pay-gateway', title: 'Payments Gateway' }], {
    retirable: 1,
    dc: 'dc1',
  });

  put(CORE.base_service_template, 'tpl-web-tier', {
    ...common('base_service_template', 'Web Tier Template'),
    description: 'Template for web tiers',
    entity_rules: [rule('os', 'linux')],
    kpis: [mkKpi('', 'tkpi-latency', 'Request Latency', 'latency_ms')],
    linked_services: ['svc-web-frontend'],
    total_linked_services: 1,
  });
  put(CORE.base_service_template, 'tpl-db', {
    ...common('base_service_template', 'Database Template'),
    description: 'Template for databases',
    entity_rules: [rule('datacenter', 'eu-west-1')],
    kpis: [mkKpi('', 'tkpi-conn', 'Active Connections', 'connections')],
    linked_services: [],
    total_linked_services: 0,
  });
  const kbs = (key: string, title: string, sec: string, search: string) =>
    put(CORE.kpi_base_search, key, {
      ...common('kpi_base_search', title, sec),
      description: title,
      base_search: search,
      search_alert_earliest: '5',
      alert_period: '5',
      alert_lag: '30',
      is_entity_breakdown: true,
      entity_id_fields: 'host',
      entity_alias_filtering_fields: null,
      metrics: [{ _key: key + '-m1', title: 'metric', threshold_field: 'value', aggregate_statop: 'avg', entity_statop: 'avg' }],
    });
  kbs('kbs-web-access', 'Web Access Logs', GLOBAL, 'index=web sourcetype=access_combined');
  kbs('kbs-os-metrics', 'OS Metrics', GLOBAL, '| mstats avg(cpu) WHERE index=os BY host');
  kbs('kbs-pay-tx', 'Payment Transactions', TEAM_KEY, 'index=payments sourcetype=tx');

  put(CORE.deep_dive, 'dd-web', {
    ...common('deep_dive', 'Web Frontend Deep Dive'),
    lane_settings_collection: [],
    focus_id: 'svc-web-frontend',
  });
  put(CORE.deep_dive, 'dd-pay', {
    ...common('deep_dive', 'Payments Deep Dive', TEAM_KEY),
    lane_settings_collection: [],
    focus_id: 'svc-pay-api',
  });
  put(CORE.glass_table, 'gt-noc', { ...common('glass_table', 'NOC Overview'), description: 'NOC wall', content: { layout: 'absolute' } });
  put(CORE.glass_table, 'gt-pay', {
    ...common('glass_table', 'Payments Board', TEAM_KEY),
    description: 'Payments',
    content: { layout: 'grid' },
  });
  put(CORE.home_view, 'hv-default', { ...common('home_view', 'Default Service Analyzer'), is_default: true, tiles: [] });
  put(CORE.kpi_template, 'kt-web', {
    ...common('kpi_template', 'Web KPIs'),
    description: 'Standard web KPIs',
    kpis: [mkKpi('', 'kt-k1', 'Throughput', 'rps')],
  });
  put(CORE.kpi_threshold_template, 'ktt-std', {
    ...common('kpi_threshold_template', 'Standard 3-level'),
    description: 'Std thresholds',
    time_variate_thresholds: false,
    aggregate_thresholds: thresholds('value'),
  });
  put(CORE.kpi_threshold_template, 'ktt-pay', {
    ...common('kpi_threshold_template', 'Payments thresholds', TEAM_KEY),
    description: 'Payments',
    time_variate_thresholds: false,
    aggregate_thresholds: thresholds('value'),
  });
  put(CORE.event_management_state, 'ems-default', {
    ...common('event_management_state', 'Episode Review default view'),
    viewingOption: 'standard',
    columns: ['severity', 'title'],
  });
  put(CORE.entity_filter_rule, 'efr-linux', { ...common('entity_filter_rule', 'Linux hosts'), rule: rule('os', 'linux') });
  put(CORE.entity_type, 'et-unix', {
    ...common('entity_type', 'Unix/Linux Host'),
    description: '*nix hosts',
    data_drilldowns: [],
    dashboard_drilldowns: [],
    vital_metrics: [],
  });
  put(CORE.entity_type, 'et-k8s', {
    ...common('entity_type', 'Kubernetes Pod'),
    description: 'Pods',
    data_drilldowns: [],
    dashboard_drilldowns: [],
    vital_metrics: [],
  });

  const now = Math.floor(Date.now() / 1000);
  const ctw = (key: string, title: string, sec: string, status: string, links: any[]) =>
    put(CORE.custom_threshold_windows, key, {
      ...common('custom_threshold_windows', title, sec),
      description: `${title} window`,
      pause_description: '',
      status,
      window_type: 'percentage',
      window_config_percentage: 25,
      window_config_static: {},
      start_time: now - 3600,
      end_time: now + 86400,
      last_stopped_time: status === 'stopped' ? now - 7200 : 0,
      next_scheduled_time: '',
      cron_schedule: '0 2 * * *',
      duration: 3600,
      recurrence: true,
      is_overlapping: false,
      overlapping_kpis: [],
      linked_services: links,
      sec_grp_list: [sec],
      can_view: true,
      can_link: true,
      can_edit: true,
      can_transition: true,
    });
  ctw('ctw-black-friday', 'Black Friday traffic', GLOBAL, 'active', [
    { service_id: 'svc-web-frontend', linked_kpi_ids: ['kpi-web-latency', 'kpi-web-errors'] },
  ]);
  ctw('ctw-db-maint', 'Nightly DB vacuum', GLOBAL, 'stopped', [{ service_id: 'svc-database', linked_kpi_ids: ['kpi-db-repl'] }]);
  ctw('ctw-pay-peak', 'Payday peak', TEAM_KEY, 'active', [{ service_id: 'svc-pay-api', linked_kpi_ids: ['kpi-pay-tps'] }]);

  // ---- event management ----
  const emo = (store: string, key: string, title: string, extra: any, sec = GLOBAL) =>
    put(EM[store], key, { ...common(store, title, sec), ...extra });
  emo('correlation_search', 'cs-high-latency', 'High latency detected', {
    search: 'index=ops_summary latency>500',
    disabled: 0,
    severity: '5',
    cron_schedule: '*/5 * * * *',
  });
  emo(
    'correlation_search',
    'cs-pay-decline',
    'Payment decline spike',
    { search: 'index=payments decline', disabled: 1, severity: '4', cron_schedule: '*/10 * * * *' },
    TEAM_KEY,
  );
  emo('notable_event_group', 'ep-0001', 'Web latency episode', {
    status: '1',
    severity: '5',
    owner: 'unassigned',
    event_count: 12,
    policy_id: 'nap-default',
  });
  emo('notable_event_group', 'ep-0002', 'DB replication lag', {
    status: '2',
    severity: '4',
    owner: 'admin',
    event_count: 3,
    policy_id: 'nap-default',
  });
  emo(
    'notable_event_group',
    'ep-0003',
    'Payments decline burst',
    { status: '1', severity: '6', owner: 'teamer', event_count: 41, policy_id: 'nap-pay' },
    TEAM_KEY,
  );
  emo('notable_aggregation_policy', 'nap-default', 'Default Policy', { disabled: 0, priority: 5, split_by_field: 'source' });
  emo('notable_aggregation_policy', 'nap-pay', 'Payments Policy', { disabled: 0, priority: 3, split_by_field: 'service' }, TEAM_KEY);
  emo('notable_event_comment', 'cm-1', 'comment', { event_id: 'ep-0001', comment: 'Looking into it', create_time: now - 600 });
  emo('notable_event_comment', 'cm-2', 'comment', { event_id: 'ep-0002', comment: 'Replica restarted', create_time: now - 300 });
  TICKETS.seed('tl-ep-0002', {
    _key: 'tl-ep-0002',
    object_type: 'external_ticket',
    event_id: 'ep-0002',
    ticket_system: 'ServiceDesk',
    _user: 'admin',
    tickets: [{ ticket_system: 'ServiceDesk', ticket_id: 'INC0012001', ticket_url: 'https://desk.example.com/INC0012001' }],
  });

  // ---- maintenance ----
  const mw = (key: string, title: string, sec: string, start: number, end: number, objects: any[]) =>
    put(MAINT, key, {
      ...common('maintenance_calendar', title, sec),
      start_time: start,
      end_time: end,
      objects,
      sec_grp_list: [sec],
      _owner: 'admin',
    });
  mw('mw-db-upgrade', 'DB upgrade', GLOBAL, now + 86400, now + 90000.5, [{ object_type: 'service', _key: 'svc-database' }]);
  mw('mw-web-patch', 'Web patching', GLOBAL, now - 1800, now + 1800, [
    { object_type: 'entity', _key: 'ent-web-01' },
    { object_type: 'entity', _key: 'ent-web-02' },
  ]);
  mw('mw-pay-release', 'Payments release', TEAM_KEY, now + 3600, now + 7200, [{ object_type: 'service', _key: 'svc-pay-api' }]);

  // ---- backup/restore ----
  const bj = (key: string, title: string, sec: string, status: string, extra: any = {}) =>
    put(BACKUP, key, {
      ...common('backup_restore', title, sec),
      job_type: 'Backup',
      status,
      create_time: plainTime(new Date((now - 86400) * 1000)),
      start_time: now - 86000,
      end_time: status === 'Completed' ? now - 85900 : 0,
      last_queued_time: now - 86100,
      path: `/opt/platform/var/ops/backups/${key}`,
      search_head_id: 'sh-7f3a21',
      platform_server: 'localhost',
      rules: [],
      last_error: 'None',
      _owner: 'nobody',
      ...extra,
    });
  bj('ops_default_scheduled_backup', 'Default Scheduled Backup', GLOBAL, 'Completed', { scheduled: 1, frequency: 'daily' });
  bj('bk-pre-upgrade', 'Before upgrade to 4.19', GLOBAL, 'Completed', { _owner: 'admin' });
  bj('bk-pay-weekly', 'Payments weekly', TEAM_KEY, 'Queued', { _owner: 'teamer' });

  // ---- icons ----
  const icon = (key: string, title: string, cat: string, w: number, h: number) =>
    ICONS.seed(key, {
      _key: key,
      title,
      svg_path: `M0 0 L${w} 0 L${w} ${h} Z`,
      default_width: w,
      default_height: h,
      category: cat,
      mod_timestamp: isoOff(nextDate()),
    });
  icon('ic-square', 'Square', 'Basic Shapes', 50, 50);
  icon('ic-circle', 'Circle', 'Basic Shapes', 50, 50);
  icon('ic-server', 'Rack Server', 'Server', 40, 80);
  icon('ic-db', 'Database', 'Server', 60, 70);
  icon('ic-router', 'Router', 'Network', 64, 32);
  icon('ic-cloud', 'Cloud', 'Custom', 90, 60);

  seedLibrary();

  // ---- authored content packs ----
  const acp = (key: string, title: string, status: string, ops: any, icon: string | null) =>
    put(AUTHORING, key, {
      ...common('content_pack', title),
      description: `${title} description`,
      overview: `Overview of ${title}`,
      cp_version: '1.0.0',
      metadata: { icon, main_screenshot: { path: '', thumb: '' }, screenshots: [] },
      ops_objects: ops,
      platform_objects: {
        dashboards: ['ops_web_overview'],
        lookups: [],
        macros: ['ops_web_index'],
        props: [],
        savedsearches: ['Web errors hourly'],
        transforms: [],
      },
      user_selected_objects: {
        ops_objects: ops,
        platform_objects: { dashboards: ['ops_web_overview'], lookups: [], macros: [], props: [], savedsearches: [], transforms: [] },
      },
      status,
      mod_time: modTime(nextDate()),
    });
  acp(
    'acp-web',
    'Web Monitoring Export',
    'Draft',
    { service: ['svc-web-frontend'], kpi_base_search: ['kbs-web-access'], glass_table: ['gt-noc'] },
    'web.svg',
  );
  acp('acp-db', 'Database Export', 'Generated', { service: ['svc-database'], entity_type: ['et-unix'] }, null);
  acp(
    'acp-all',
    'Full Estate Export',
    'Queued',
    { service: ['svc-web-frontend', 'svc-database'], team: [GLOBAL], deep_dive: ['dd-web'] },
    'estate.png',
  );
}

// Library content packs: objects per group
export const LIB_FAILURES = [
  { id: 'DA-OPS-CP-broken', version: '0.9.0', error: 'Failed to parse manifest.json: unexpected token at line 4' },
];
function libPack(id: string, title: string, version: string, objects: any) {
  LIBRARY.seed(id, {
    id,
    title,
    description: `${title} content pack`,
    overview: `Monitors ${title.toLowerCase()}.`,
    author: 'Ops Content Team',
    version,
    icon: `/static/app/${id}/icon.png`,
    help_links: [`https://docs.example.com/${id}`],
    installed_versions: [],
    screenshots: [{ path: `/static/app/${id}/s1.png`, thumb: `/static/app/${id}/s1_t.png` }],
    main_screenshot: { path: `/static/app/${id}/main.png`, thumb: `/static/app/${id}/main_t.png` },
    objects,
  });
}
const lo = (id: string, title: string, extra: any = {}) => ({
  id,
  title,
  description: `${title} (content pack object)`,
  has_dependency: false,
  ...extra,
});
function seedLibrary() {
  libPack('DA-OPS-CP-web-monitoring', 'Web Monitoring', '1.2.0', {
    services: [lo('cp_web_svc_http', 'HTTP Service', { has_dependency: true, enabled: 1 }), lo('cp_web_svc_cdn', 'CDN Edge')],
    kpi_base_searches: [lo('cp_web_kbs_access', 'Web Access Base Search', { disabled: 0 })],
    glass_tables: [lo('cp_web_gt_overview', 'Web Overview')],
    service_analyzers: [lo('cp_web_sa_main', 'Web Analyzer')],
    entity_types: [lo('cp_web_et_nginx', 'Nginx Server')],
    correlation_searches: [lo('cp_web_cs_5xx', '5xx burst')],
    notable_aggregation_policies: [lo('cp_web_nap', 'Web episodes')],
    saved_searches: [lo('cp_web_ss_hourly', 'Web - hourly rollup', { disabled: 1 })],
  });
  libPack('DA-OPS-CP-database', 'Database Insights', '2.0.1', {
    services: [lo('cp_db_svc_pg', 'PostgreSQL')],
    kpi_threshold_templates: [lo('cp_db_ktt', 'DB thresholds')],
    deep_dives: [lo('cp_db_dd', 'DB deep dive')],
    entity_types: [lo('cp_db_et_pg', 'PostgreSQL Instance')],
  });
  libPack('DA-OPS-CP-cloud-basics', 'Cloud Basics', '0.4.3', {
    base_service_templates: [lo('cp_cloud_tpl', 'Cloud VM template')],
    services: [lo('cp_cloud_svc_vm', 'VM Fleet')],
    glass_tables: [lo('cp_cloud_gt', 'Cloud map')],
  });
}

// group name <-> object type
export const GROUP_TYPE: Record<string, string> = {
  services: 'service',
  entity_types: 'entity_type',
  glass_tables: 'glass_table',
  service_analyzers: 'home_view',
  kpi_base_searches: 'kpi_base_search',
  base_service_templates: 'base_service_template',
  deep_dives: 'deep_dive',
  kpi_threshold_templates: 'kpi_threshold_template',
  correlation_searches: 'correlation_search',
  notable_aggregation_policies: 'notable_aggregation_policy',
  teams: 'team',
  saved_searches: 'saved_search',
};

// Episode actions
export const ACTIONS: any[] = [
  ['email', 'Send email', ''],
  ['script', 'Run a script', ''],
  ['ops_event_action_link_ticket', 'Link Ticket', 'external_ticket'],
  ['ops_event_action_link_url', 'Link URL', ''],
  ['ops_event_action_send_to_orchestrator', 'Send to Orchestrator', ''],
  ['ops_sample_event_action_ping', 'Ping a host', ''],
  ['ticketdesk_incident', 'Create TicketDesk incident', 'external_ticket'],
  ['pagerline_alert', 'Page on-call (PagerLine)', ''],
].map(([name, label, type], i) => ({
  action_name: name,
  label,
  type,
  is_group_compatible: i % 2 === 0 ? 1 : '0',
  execute_once_per_group: '0',
  execute_in_sync: i === 5 ? '1' : 0,
  is_bulk_compatible: name === 'email' || name === 'ops_sample_event_action_ping' ? 1 : '0',
  config: {
    ttl: '10p',
    filename: name === 'script' ? 'run_action.sh' : '',
    track_alert: '1',
    maxresults: '10000',
    description: `${label} for an episode`,
    label,
    maxtime: '5m',
    disabled: '0',
    hostname: '',
    icon_path: `${name}.png`,
    command: `sendalert ${name} param.episode_id="$result.itsi_group_id$"`,
    'eai:userName': 'nobody',
    'eai:appName': 'SA-ITOA',
    'eai:acl': { app: 'SA-ITOA', owner: 'nobody', sharing: 'global', perms: { read: ['*'], write: ['admin'] } },
  },
}));
