// Seed data loaded at start-up.
import { coll } from './store.mjs';
import { GLOBAL_TEAM, isoTs, modTimeStr, plainTs, lowerTitle } from './util.mjs';
import { stableId, kpi, healthKpi, rule, metric, thresholds, level } from './shapes.mjs';
import { seedIcon, addCategory } from './icons.mjs';
import { seedAuthored } from './contentpacks.mjs';

const sid = (s) => stableId(`seed:${s}`);
const T0 = Date.UTC(2024, 9, 14, 8, 30, 0); // fixed seed clock
let tick = 0;
const when = () => new Date(T0 + (tick += 37) * 60000);

function mk(type, obj, { team = GLOBAL_TEAM, version = '4.18.2', light = false, createPlain = false, owner = 'admin' } = {}) {
  const d = when();
  const doc = { ...obj };
  doc._key = doc._key ?? sid(`${type}:${obj.title ?? JSON.stringify(obj)}`);
  doc.object_type = type;
  doc._version = version;
  doc._user = 'nobody';
  doc._owner = owner;
  if (team !== null && doc.sec_grp === undefined && type !== 'team') doc.sec_grp = team;
  if (light) {
    doc.create_time = doc.create_time ?? d.getTime() / 1000;
    doc.mod_time = doc.mod_time ?? d.getTime() / 1000 + 120;
  } else {
    doc.create_by = owner;
    doc.create_source = 'REST';
    doc.create_time = createPlain ? plainTs(d) : isoTs(d);
    doc.mod_by = owner;
    doc.mod_source = 'REST';
    doc.mod_time = modTimeStr(d);
    doc.mod_timestamp = isoTs(d);
    if (typeof doc.title === 'string') doc.identifying_name = lowerTitle(doc.title);
  }
  coll(type).put(doc);
  return doc;
}

function entity(
  title,
  team,
  { ips = [], os = 'linux', role = 'web', dc = 'us-east-1a', types = ['Linux Host'], retirable, retired, description } = {},
) {
  return mk(
    'entity',
    {
      _key: sid(`entity:${title}`),
      title,
      description: description ?? `${role} server ${title}`,
      _type: 'entity',
      identifier: { fields: ['host', 'ip'], values: [title, ...ips] },
      informational: { fields: ['os', 'role', 'datacenter'], values: [os, role, dc] },
      host: [title],
      ip: ips,
      os: [os],
      role: [role],
      datacenter: [dc],
      entity_type_ids: types,
      ...(retirable ? { retirable: 1 } : {}),
      retired: retired ? 1 : 0,
      ...(retired ? { retired_time: 1728900000 } : {}),
    },
    { team, version: retired ? '4.11.5' : '4.18.2' },
  );
}

function service(title, team, { rules, kpis = [], description, enabled = 1, depends = [], tags = [], template } = {}) {
  const key = sid(`service:${title}`);
  const all = [healthKpi(key, title), ...kpis];
  for (const k of all) {
    k.service_id = key;
    k.service_title = title;
    k.sec_grp = team;
  }
  return mk(
    'service',
    {
      _key: key,
      title,
      description: description ?? `${title} service`,
      enabled,
      entity_rules: rules,
      kpis: all,
      services_depends_on: depends,
      service_tags: { tags },
      is_healthscore_calculate_by_entity_enabled: 1,
      backfill_enabled: false,
      ...(template ? { base_service_template_id: template } : {}),
    },
    { team },
  );
}

export function seed() {
  // ---------------------------------------------------------------- teams
  mk(
    'team',
    {
      _key: GLOBAL_TEAM,
      title: 'Global',
      description: 'Default team. Objects created without a team belong here.',
      acl: { owner: 'nobody', read: ['ops_user', 'ops_admin', 'ops_team_admin'], write: ['ops_admin'], delete: ['ops_admin'] },
    },
    { team: null, version: '4.11.5' },
  );
  for (const [k, t, d] of [
    ['team_blue', 'Blue Team', 'Database operations'],
    ['team_red', 'Red Team', 'Payments platform (restricted)'],
    ['team_green', 'Green Team', 'Online storefront'],
  ])
    mk(
      'team',
      {
        _key: k,
        title: t,
        description: d,
        acl: { owner: 'admin', read: ['ops_admin', k], write: ['ops_admin', k], delete: ['ops_admin'] },
      },
      { team: null },
    );

  // ---------------------------------------------------------------- entities
  entity('web-01', GLOBAL_TEAM, { ips: ['10.0.1.11'] });
  entity('web-02', GLOBAL_TEAM, { ips: ['10.0.1.12'], dc: 'us-east-1b' });
  entity('www-legacy', GLOBAL_TEAM, {
    ips: ['10.0.9.40'],
    os: 'linux',
    retirable: true,
    description: 'Legacy web host, no data for 30 days',
  });
  entity('lb-01', GLOBAL_TEAM, { ips: ['10.0.0.5'], role: 'loadbalancer', types: ['Load Balancer'] });
  entity('db-01', 'team_blue', { ips: ['10.0.2.21'], role: 'database', types: ['Database Server', 'Linux Host'] });
  entity('db-02', 'team_blue', { ips: ['10.0.2.22'], role: 'database', types: ['Database Server'], retirable: true });
  entity('pay-01', 'team_red', { ips: ['10.0.3.31'], role: 'payments' });
  entity('pay-02', 'team_red', { ips: ['10.0.3.32'], role: 'payments', retirable: true });
  entity('shop-01', 'team_green', { ips: ['10.0.4.41'], role: 'storefront' });
  entity('shop-02', 'team_green', { ips: ['10.0.4.42'], role: 'storefront', retirable: true });
  entity('shop-old', 'team_green', { ips: ['10.0.4.49'], role: 'storefront', retired: true });

  // ---------------------------------------------------------------- KPI base searches
  const bsWeb = mk('kpi_base_search', {
    _key: sid('bs:web'),
    title: 'Web Access Logs',
    description: 'Request latency and errors from web access logs',
    base_search: 'index=web sourcetype=access_combined',
    search_alert_earliest: '5',
    alert_period: '5',
    alert_lag: '30',
    entity_id_fields: 'host',
    entity_breakdown_id_fields: 'host',
    entity_alias_filtering_fields: 'host',
    is_entity_breakdown: true,
    is_service_entity_filter: true,
    metric_qualifier: '',
    actions: '',
    source_itsi_da: 'itsi',
    metrics: [metric(sid('m:lat'), 'Request Latency', 'response_time', 'ms'), metric(sid('m:err'), 'Error Rate', 'is_error', '%')],
  });
  const bsOs = mk('kpi_base_search', {
    _key: sid('bs:os'),
    title: 'OS Performance',
    description: 'CPU and memory from the OS metrics index',
    base_search: '| mstats avg(cpu.pct_used) AS cpu avg(mem.pct_used) AS mem WHERE index=os_metrics BY host span=1m',
    search_alert_earliest: '5',
    alert_period: '5',
    alert_lag: '30',
    entity_id_fields: 'host',
    entity_breakdown_id_fields: 'host',
    entity_alias_filtering_fields: null,
    is_entity_breakdown: true,
    is_service_entity_filter: true,
    metric_qualifier: '',
    actions: '',
    metrics: [metric(sid('m:cpu'), 'CPU Utilization', 'cpu', '%'), metric(sid('m:mem'), 'Memory Used', 'mem', '%')],
  });
  const bsShop = mk(
    'kpi_base_search',
    {
      _key: sid('bs:shop'),
      title: 'Storefront Orders',
      description: 'Order throughput from the storefront',
      base_search: 'index=shop sourcetype=orders',
      search_alert_earliest: '15',
      alert_period: '15',
      alert_lag: '60',
      entity_id_fields: 'host',
      entity_breakdown_id_fields: 'host',
      is_entity_breakdown: false,
      is_service_entity_filter: false,
      metric_qualifier: '',
      actions: '',
      metrics: [metric(sid('m:orders'), 'Orders per minute', 'orders')],
    },
    { team: 'team_green' },
  );

  // ---------------------------------------------------------------- service templates
  const tplLinux = mk('base_service_template', {
    _key: sid('tpl:linux'),
    title: 'Linux Database Host Template',
    description: 'CPU and memory KPIs for Linux database hosts',
    entity_rules: [
      {
        rule_condition: 'AND',
        rule_items: [
          { field: 'os', field_type: 'info', rule_type: 'matches', value: 'linux' },
          { field: 'role', field_type: 'info', rule_type: 'matches', value: 'database' },
        ],
      },
    ],
    kpis: [
      kpi(sid('tk:cpu'), 'CPU Utilization', {
        base_search_id: bsOs._key,
        base_search_metric: sid('m:cpu'),
        threshold_field: 'cpu',
        unit: '%',
      }),
      kpi(sid('tk:mem'), 'Memory Used', { base_search_id: bsOs._key, base_search_metric: sid('m:mem'), threshold_field: 'mem', unit: '%' }),
    ],
  });
  mk('base_service_template', {
    _key: sid('tpl:web'),
    title: 'Web Service Template',
    description: 'Latency and error KPIs for web services',
    entity_rules: [rule('role', 'web', 'info')],
    kpis: [
      kpi(sid('tk:lat'), 'Request Latency', {
        base_search_id: bsWeb._key,
        base_search_metric: sid('m:lat'),
        threshold_field: 'response_time',
        unit: 'ms',
      }),
    ],
  });

  // ---------------------------------------------------------------- services
  const lb = service('Load Balancing', GLOBAL_TEAM, {
    rules: [rule('lb-*', 'lb-*', 'title')],
    tags: ['network'],
    kpis: [kpi(sid('k:lb-conn'), 'Active Connections', { threshold_field: 'connections', unit: 'conn' })],
  });
  lb.entity_rules = [{ rule_condition: 'AND', rule_items: [{ field: 'title', field_type: 'title', rule_type: 'matches', value: 'lb-*' }] }];
  const web = service('Web Frontend', GLOBAL_TEAM, {
    rules: [rule('host', 'web-*,www-*')],
    tags: ['web', 'tier-1'],
    depends: [{ serviceid: lb._key, kpis_depending_on: [`SHKPI-${lb._key}`] }],
    kpis: [
      kpi(sid('k:web-lat'), 'Request Latency', {
        base_search_id: bsWeb._key,
        base_search_metric: sid('m:lat'),
        threshold_field: 'response_time',
        unit: 'ms',
        urgency: '8',
      }),
      kpi(sid('k:web-err'), 'Error Rate', {
        base_search_id: bsWeb._key,
        base_search_metric: sid('m:err'),
        threshold_field: 'is_error',
        unit: '%',
        urgency: '10',
        aggregate_thresholds: thresholds('normal', [level('medium', 2), level('high', 5), level('critical', 10)], {
          max: 20,
          metricField: 'is_error',
        }),
      }),
    ],
  });
  const db = service('Database Tier', 'team_blue', {
    rules: [rule('role', 'database', 'info')],
    tags: ['database'],
    template: tplLinux._key,
    kpis: [
      kpi(sid('k:db-cpu'), 'CPU Utilization', {
        base_search_id: bsOs._key,
        base_search_metric: sid('m:cpu'),
        threshold_field: 'cpu',
        unit: '%',
      }),
      kpi(sid('k:db-repl'), 'Replication Lag', {
        threshold_field: 'lag_seconds',
        unit: 's',
        base_search: 'index=db sourcetype=mysql:replication',
      }),
    ],
  });
  db.entity_rules = [rule('role', 'database', 'info'), ...tplLinux.entity_rules];
  const pay = service('Payments API', 'team_red', {
    rules: [rule('host', 'pay-*')],
    tags: ['payments', 'pci'],
    kpis: [
      kpi(sid('k:pay-tps'), 'Transactions per Second', {
        threshold_field: 'tps',
        unit: 'tps',
        base_search: 'index=payments sourcetype=txn',
      }),
    ],
  });
  const shop = service('Green Storefront', 'team_green', {
    rules: [rule('host', 'shop-*')],
    tags: ['storefront'],
    kpis: [
      kpi(sid('k:shop-orders'), 'Orders per Minute', {
        base_search_id: bsShop._key,
        base_search_metric: sid('m:orders'),
        threshold_field: 'orders',
      }),
    ],
  });
  service('Checkout Flow', GLOBAL_TEAM, {
    rules: [],
    enabled: 0,
    description: 'Synthetic checkout transaction (disabled while being built)',
    kpis: [
      kpi(sid('k:checkout'), 'Checkout Duration', {
        threshold_field: 'duration',
        unit: 's',
        base_search: 'index=synthetics test=checkout',
      }),
    ],
  });

  // ---------------------------------------------------------------- other core objects
  mk('kpi_template', {
    title: 'Operating System KPIs',
    description: 'Standard OS KPIs',
    kpis: [
      kpi(sid('kt:cpu'), 'CPU Utilization', { threshold_field: 'cpu' }),
      kpi(sid('kt:mem'), 'Memory Used', { threshold_field: 'mem' }),
    ],
  });
  const hourly = thresholds('normal', [level('medium', 60), level('high', 80), level('critical', 90)]);
  mk('kpi_threshold_template', {
    _key: sid('ktt:business'),
    title: 'Business hours static thresholds',
    description: 'Tighter thresholds during business hours',
    adaptive_thresholds_is_enabled: false,
    adaptive_thresholding_training_window: '-7d',
    time_variate_thresholds: true,
    time_variate_thresholds_specification: {
      policies: {
        default_policy: {
          title: 'Default',
          policy_type: 'static',
          aggregate_thresholds: thresholds('normal', [level('high', 90)]),
          entity_thresholds: thresholds('info', []),
          time_blocks: [],
        },
        business_hours: {
          title: 'Business hours',
          policy_type: 'static',
          aggregate_thresholds: hourly,
          entity_thresholds: thresholds('info', []),
          time_blocks: [['0 9 * * 1-5', 480]],
        },
      },
      time_blocks: [
        { policy_key: 'default_policy', time_block_key: '00-00' },
        { policy_key: 'business_hours', time_block_key: '01-09' },
      ],
    },
  });
  const stdev = thresholds(
    'critical',
    [
      level('high', -2.75),
      level('medium', -2.5),
      level('low', -1.75),
      level('normal', -1.25),
      level('low', 1.25),
      level('medium', 1.75),
      level('high', 2.25),
    ],
    {
      min: -4,
      max: 4,
      metricField: '',
    },
  );
  mk(
    'kpi_threshold_template',
    {
      _key: sid('ktt:stdev'),
      title: 'Standard deviation, 30 day adaptive',
      description: 'Adaptive stdev thresholds',
      adaptive_thresholds_is_enabled: true,
      adaptive_thresholding_training_window: '-30d',
      time_variate_thresholds: true,
      time_variate_thresholds_specification: {
        policies: {
          default_policy: {
            title: 'default_policy',
            policy_type: 'stdev',
            aggregate_thresholds: stdev,
            entity_thresholds: thresholds('info', []),
            time_blocks: [],
          },
        },
        time_blocks: [],
      },
    },
    { version: '4.11.5' },
  );
  mk('deep_dive', {
    title: 'Web Frontend Deep Dive',
    description: 'Latency, errors and host CPU',
    is_named: true,
    focus_id: web._key,
    lane_settings_collection: [{ title: 'Request Latency', laneType: 'kpi', kpiServiceId: web._key, kpiId: sid('k:web-lat') }],
  });
  mk('glass_table', {
    title: 'Executive Overview',
    description: 'Business service health at a glance',
    content: { layout: { type: 'absolute' }, dataSources: {}, visualizations: {} },
  });
  mk(
    'glass_table',
    { title: 'Storefront Wallboard', description: 'Team green wallboard', content: { layout: { type: 'grid' } } },
    { team: 'team_green' },
  );
  mk('home_view', { title: 'Default Service Analyzer', description: 'All services', filter: { services: [] }, isDefault: true });
  mk('event_management_state', {
    title: 'Episode Review - open critical',
    description: 'Saved Episode Review view',
    viewingOption: 'standard',
    filter: { severity: ['6'] },
  });
  mk('entity_type', {
    title: 'Linux Host',
    description: 'Hosts running Linux',
    dashboard_drilldowns: [],
    data_drilldowns: [],
    vital_metrics: [{ metric_name: 'CPU', search: '| mstats avg(cpu.pct_used) WHERE index=os_metrics', is_key: 1, unit: '%' }],
  });
  mk(
    'entity_type',
    { title: 'Database Server', description: 'Database hosts', dashboard_drilldowns: [], data_drilldowns: [], vital_metrics: [] },
    { team: 'team_blue' },
  );
  mk('entity_type', {
    title: 'Load Balancer',
    description: 'Load balancers',
    dashboard_drilldowns: [],
    data_drilldowns: [],
    vital_metrics: [],
  });
  mk('entity_filter_rule', {
    title: 'Linux hosts only',
    description: 'Not used by the product',
    entity_rules: [rule('os', 'linux', 'info')],
  });
  mk('entity_relationship', { _key: sid('rel:1'), subject_identifier: 'web-01', predicate: 'hosts', object_identifier: 'nginx-web-01' });
  mk('entity_relationship_rule', {
    title: 'Host to process',
    description: 'Not used by the product',
    subject_type: 'host',
    predicate: 'hosts',
    object_type_ref: 'process',
  });

  // ---------------------------------------------------------------- custom threshold windows
  mk('custom_threshold_windows', {
    _key: sid('ctw:bf'),
    title: 'Black Friday traffic surge',
    description: 'Raise latency thresholds during the sale',
    pause_description: '',
    status: 'active',
    window_type: 'percentage',
    window_config_percentage: 25,
    window_config_static: {},
    start_time: 1764316800,
    end_time: 1764403200,
    duration: 86400,
    recurrence: false,
    cron_schedule: '',
    next_scheduled_time: '',
    linked_services: [{ service_id: web._key, linked_kpi_ids: [sid('k:web-lat'), sid('k:web-err')] }],
    sec_grp_list: [GLOBAL_TEAM],
  });
  mk(
    'custom_threshold_windows',
    {
      _key: sid('ctw:qe'),
      title: 'Quarter-end batch window',
      description: 'Database load is expected to be high',
      pause_description: 'Stopped early: batch finished',
      status: 'stopped',
      window_type: 'static',
      window_config_percentage: 0,
      window_config_static: { aggregate_thresholds: thresholds('normal', [level('high', 95)]) },
      start_time: 1727740800,
      end_time: 1727827200,
      last_stopped_time: 1727780000,
      duration: 86400,
      recurrence: true,
      cron_schedule: '0 0 1 */3 *',
      next_scheduled_time: '2025-01-01 00:00:00',
      linked_services: [{ service_id: db._key, linked_kpi_ids: [sid('k:db-cpu')] }],
      sec_grp_list: ['team_blue'],
    },
    { team: 'team_blue' },
  );
  mk(
    'custom_threshold_windows',
    {
      _key: sid('ctw:launch'),
      title: 'Storefront launch',
      description: 'New storefront release',
      pause_description: '',
      status: 'active',
      window_type: 'percentage',
      window_config_percentage: 15,
      window_config_static: {},
      start_time: 1764316800,
      end_time: 1764360000,
      duration: 43200,
      recurrence: false,
      cron_schedule: '',
      next_scheduled_time: '',
      linked_services: [],
      sec_grp_list: ['team_green'],
    },
    { team: 'team_green' },
  );

  // ---------------------------------------------------------------- event management
  const ep1 = mk(
    'notable_event_group',
    {
      _key: sid('ep:web'),
      title: 'Web Frontend latency above threshold',
      description: 'Request latency on web-01 and web-02 exceeded 800ms',
      severity: '5',
      status: '2',
      owner: 'admin',
      service_ids: [web._key],
      event_count: 14,
      first_event_time: 1728893400,
      last_event_time: 1728897000,
      drilldown: [{ name: 'Web Frontend Deep Dive', link: '/app/ops/deep_dive?focus=web' }],
    },
    { team: null, light: true },
  );
  ep1.event_id = ep1._key;
  const ep2 = mk(
    'notable_event_group',
    {
      _key: sid('ep:db'),
      title: 'Database replication lag',
      description: 'Replica db-02 is 340s behind',
      severity: '4',
      status: '1',
      owner: 'unassigned',
      service_ids: [db._key],
      event_count: 3,
      first_event_time: 1728900000,
      last_event_time: 1728900600,
      drilldown: [],
    },
    { team: null, light: true },
  );
  ep2.event_id = ep2._key;
  const ep3 = mk(
    'notable_event_group',
    {
      _key: sid('ep:pay'),
      title: 'Payments API error spike',
      description: 'HTTP 5xx on pay-01',
      severity: '6',
      status: '5',
      owner: 'admin',
      service_ids: [pay._key],
      event_count: 52,
      first_event_time: 1728810000,
      last_event_time: 1728813600,
      drilldown: [],
    },
    { team: null, light: true },
  );
  ep3.event_id = ep3._key;
  mk(
    'notable_event_comment',
    { event_id: ep1._key, comment: 'Looking into the upstream load balancer.', user: 'admin', owner: 'admin' },
    { team: null, light: true },
  );
  mk(
    'notable_event_comment',
    { event_id: ep1._key, comment: 'Rolled back nginx config, latency recovering.', user: 'admin', owner: 'admin' },
    { team: null, light: true },
  );
  mk('notable_event_tag', { event_id: ep1._key, tag_name: 'customer-impact', user: 'admin', owner: 'admin' }, { team: null, light: true });
  coll('external_ticket').put({
    _key: sid('ticket:1'),
    _user: 'nobody',
    _owner: 'admin',
    event_id: ep3._key,
    ticket_system: 'ServiceNow',
    object_type: 'external_ticket',
    tickets: [{ ticket_system: 'ServiceNow', ticket_url: 'https://tickets.example.com/incident/INC0012345', ticket_id: 'INC0012345' }],
    create_time: 1728811000.51,
    mod_time: 1728811000.51,
  });
  mk('correlation_search', {
    title: 'Web Frontend 5xx spike',
    name: 'Web Frontend 5xx spike',
    description: 'More than 50 5xx responses in 5 minutes',
    search: 'index=web status>=500 | stats count by host | where count > 50',
    cron_schedule: '*/5 * * * *',
    severity: '5',
    disabled: 0,
    enabled: 1,
  });
  mk('correlation_search', {
    title: 'Database replication lag',
    name: 'Database replication lag',
    description: 'Replica lag above 300s',
    search: 'index=db sourcetype=mysql:replication lag_seconds>300',
    cron_schedule: '*/10 * * * *',
    severity: '4',
    disabled: 0,
    enabled: 1,
  });
  mk('notable_aggregation_policy', {
    title: 'Default Policy',
    description: 'Groups notable events by service',
    enabled: 1,
    split_by_field: 'service_ids',
    filter_criteria: { condition: 'AND', items: [] },
    breaking_criteria: { condition: 'OR', items: [{ type: 'pause', config: { limit: 7200 } }] },
    rules: [],
  });
  mk(
    'notable_aggregation_policy',
    {
      title: 'Payments by transaction type',
      description: 'Payments team policy',
      enabled: 1,
      split_by_field: 'txn_type',
      filter_criteria: { condition: 'AND', items: [] },
      breaking_criteria: { condition: 'OR', items: [] },
      rules: [],
    },
    { team: 'team_red' },
  );

  // ---------------------------------------------------------------- maintenance windows
  mk('maintenance_calendar', {
    title: 'Web patch window',
    comment: 'Monthly OS patching',
    start_time: 1767225600,
    end_time: 1767232800,
    objects: [
      { object_type: 'service', _key: web._key },
      { object_type: 'entity', _key: sid('entity:web-01') },
    ],
    sec_grp_list: [GLOBAL_TEAM],
  });
  mk(
    'maintenance_calendar',
    {
      title: 'Payments DB migration',
      comment: 'Restricted change',
      start_time: 1767312000.5,
      end_time: 1767326400,
      objects: [
        { object_type: 'service', _key: pay._key },
        { object_type: 'entity', _key: sid('entity:pay-01') },
      ],
      sec_grp_list: ['team_red'],
    },
    { team: 'team_red' },
  );
  mk(
    'maintenance_calendar',
    {
      title: 'Storefront deploy',
      comment: 'Release 2024.11',
      start_time: 1767398400,
      end_time: 1767402000,
      objects: [{ object_type: 'service', _key: shop._key }],
      sec_grp_list: ['team_green'],
    },
    { team: 'team_green' },
  );

  // ---------------------------------------------------------------- backup / restore
  mk(
    'backup_restore',
    {
      _key: sid('backup:default'),
      title: 'Default Scheduled Backup',
      description: 'Daily full backup of the key-value store (created by the product)',
      job_type: 'Backup',
      status: 'Completed',
      start_time: 1728954000,
      end_time: 1728954182,
      last_queued_time: 1728953999,
      path: '/opt/platform/var/ops/backups/default_scheduled_backup/backup.zip',
      search_head_id: 'sh-7f3c2a91-ops-01',
      platform_server: 'ops-sh01.example.internal',
      rules: [],
      last_error: '',
      default_scheduled_backup: true,
      scheduled: 1,
      frequency: 'daily',
      scheduled_time: '01:00',
      backup_retention: 7,
    },
    { createPlain: true, owner: 'nobody', version: '4.11.5' },
  );
  mk(
    'backup_restore',
    {
      title: 'Pre-upgrade backup',
      job_type: 'Backup',
      status: 'Completed',
      start_time: 1728640000,
      end_time: 1728640230,
      last_queued_time: 1728639990,
      path: '/opt/platform/var/ops/backups/pre-upgrade/backup.zip',
      search_head_id: 'sh-7f3c2a91-ops-01',
      platform_server: 'ops-sh01.example.internal',
      rules: [],
      last_error: '',
    },
    { createPlain: true },
  );
  mk(
    'backup_restore',
    {
      title: 'Restore lab snapshot',
      job_type: 'Restore',
      status: 'Queued',
      start_time: 0,
      end_time: 0,
      last_queued_time: 1728990000,
      path: '/opt/platform/var/ops/backups/lab/backup.zip',
      search_head_id: 'sh-7f3c2a91-ops-01',
      platform_server: 'ops-sh01.example.internal',
      rules: [],
      last_error: '',
    },
    { createPlain: true },
  );

  // ---------------------------------------------------------------- icons
  addCategory('Default', true);
  addCategory('Infrastructure', true);
  addCategory('Network');
  addCategory('Custom');
  const svg = (d) => `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24"><path d="${d}"/></svg>`;
  const icons = [
    ['Server', 'Default', 'M4 3h16v6H4zM4 11h16v6H4zM7 5h2v2H7zM7 13h2v2H7z'],
    ['Database', 'Default', 'M12 2C7 2 4 3.5 4 5v14c0 1.5 3 3 8 3s8-1.5 8-3V5c0-1.5-3-3-8-3z'],
    ['Cloud', 'Default', 'M6 19h12a4 4 0 0 0 0-8 6 6 0 0 0-11.6 1.5A3.5 3.5 0 0 0 6 19z'],
    ['Rack', 'Infrastructure', 'M5 2h14v20H5zM7 4v3h10V4zM7 9v3h10V9z'],
    ['Switch', 'Network', 'M2 8h20v8H2zM5 11h2v2H5zM9 11h2v2H9z'],
    ['Firewall', 'Network', 'M3 4h18v16H3zM3 9h18M3 14h18M9 4v5M15 9v5M9 14v6'],
    ['Company Logo', 'Custom', 'M12 2l10 20H2z'],
  ];
  for (const [title, category, d] of icons)
    seedIcon({ _key: sid(`icon:${title}`), title, svg_path: svg(d), default_width: '48', default_height: '48', category });

  // ---------------------------------------------------------------- authored content packs
  const ap = (title, status, ops, platform, extra = {}) => {
    const d = when();
    return {
      _key: sid(`acp:${title}`),
      title,
      description: `${title} (authored)`,
      overview: `Exports ${Object.keys(ops).join(', ')} objects`,
      cp_version: extra.cp_version ?? '1.0.0',
      metadata: { icon: extra.icon ?? null, main_screenshot: {}, screenshots: [] },
      ops_objects: ops,
      platform_objects: { dashboards: [], lookups: [], macros: [], props: [], savedsearches: [], transforms: [], ...platform },
      user_selected_objects: {
        ops_objects: ops,
        platform_objects: { dashboards: [], lookups: [], macros: [], props: [], savedsearches: [], transforms: [], ...platform },
      },
      status,
      object_type: 'content_pack',
      mod_time: modTimeStr(d),
      mod_timestamp: isoTs(d),
      mod_source: 'REST',
      _version: '4.18.2',
      identifying_name: lowerTitle(title),
      _user: 'nobody',
      _owner: 'admin',
      create_time: isoTs(d),
    };
  };
  seedAuthored([
    ap(
      'Web Frontend Pack',
      'Generated',
      { service: [web._key, lb._key], kpi_base_search: [bsWeb._key], glass_table: [sid('glass_table:Executive Overview')] },
      { savedsearches: ['Web - Nightly Errors Report'], macros: ['web_index'] },
      { cp_version: '1.2.0', icon: 'web_pack_icon.png' },
    ),
    ap(
      'Storefront Pack',
      'Draft',
      { service: [shop._key], kpi_base_search: [bsShop._key], team: ['team_green'] },
      { dashboards: ['storefront_overview'] },
    ),
  ]);
}
