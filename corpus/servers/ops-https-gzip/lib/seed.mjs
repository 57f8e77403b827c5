// Seed data: teams, services with KPIs, entities, templates, windows, jobs, icons, content packs, episodes.
import { GLOBAL_TEAM, seedKey, nowMicro, clone } from './util.mjs';
import { db } from './store.mjs';
import { library, libraryFailures, localApps } from './contentpacks.mjs';
import { categories } from './icons.mjs';

const DAY = 86400 * 1e6;
const ago = (days) => nowMicro() - Math.round(days * DAY);
const epochAgo = (days) => Math.round((Date.now() / 1000 - days * 86400) * 1000) / 1000;

const SEV = {
  critical: [6, '#B50101', '#E5A6A6'],
  high: [5, '#F26A35', '#FBCBB9'],
  medium: [4, '#FCB64E', '#FEE6C1'],
  low: [3, '#FFE98C', '#FFF4C5'],
  normal: [2, '#99D18B', '#DCEFD7'],
  info: [1, '#AED3E5', '#E3F0F6'],
};
function thresholds(metricField, levels, base = 'normal', max = 100) {
  const [bv, bc, bl] = SEV[base];
  return {
    isMinStatic: true,
    isMaxStatic: false,
    gaugeMin: 0,
    gaugeMax: max,
    renderBoundaryMin: 0,
    renderBoundaryMax: max,
    baseSeverityValue: bv,
    metricField,
    search: '',
    baseSeverityLabel: base,
    baseSeverityColor: bc,
    baseSeverityColorLight: bl,
    thresholdLevels: levels.map(([label, value]) => ({
      severityValue: SEV[label][0],
      thresholdValue: value,
      severityLabel: label,
      severityColor: SEV[label][1],
      severityColorLight: SEV[label][2],
      dynamicParam: 0,
    })),
  };
}
function kpi(id, title, o = {}) {
  const agg = thresholds(
    o.field || 'alert_value',
    o.levels || [
      ['medium', 60],
      ['high', 80],
      ['critical', 90],
    ],
  );
  const ent = thresholds(
    o.field || 'alert_value',
    o.levels || [
      ['medium', 60],
      ['high', 80],
      ['critical', 90],
    ],
  );
  const tvt = Boolean(o.timeVariate);
  return {
    _key: seedKey('kpi:' + id),
    title,
    type: 'kpis_primary',
    urgency: o.urgency ?? 5,
    target: '',
    unit: o.unit || '',
    search_type: o.baseSearch ? 'shared_base' : 'adhoc',
    base_search_id: o.baseSearch ? seedKey('kbs:' + o.baseSearch) : '',
    base_search_metric: o.metric ? seedKey('kbsm:' + o.metric) : '',
    base_search: o.search || 'index=ops_metrics | stats avg(value) as alert_value by host',
    threshold_field: o.field || 'alert_value',
    aggregate_statop: o.statop || 'avg',
    entity_statop: o.statop || 'avg',
    alert_on: 'both',
    alert_lag: '30',
    alert_period: '5',
    search_alert_earliest: '5',
    entity_id_fields: 'host',
    entity_breakdown_id_fields: 'host',
    tz_offset: null,
    entity_alias_filtering_fields: null,
    is_entity_breakdown: o.breakdown ?? true,
    is_service_entity_filter: true,
    backfill_enabled: false,
    backfill_earliest_time: '-7d',
    adaptive_thresholding_training_window: '-7d',
    adaptive_thresholds_is_enabled: false,
    anomaly_detection_training_window: '-7d',
    anomaly_detection_is_enabled: false,
    fill_gaps: 'null_value',
    gap_severity: 'unknown',
    gap_severity_value: '-1',
    gap_severity_color: '#CCCCCC',
    gap_severity_color_light: '#EEEEEE',
    time_variate_thresholds: tvt,
    datamodel_filter: [],
    datamodel: { object: '', datamodel: '', field: '', owner_field: '' },
    aggregate_thresholds: agg,
    entity_thresholds: ent,
    time_variate_thresholds_specification: {
      policies: {
        default_policy: {
          title: 'Default',
          aggregate_thresholds: clone(agg),
          entity_thresholds: clone(ent),
          policy_type: 'static',
          time_blocks: [],
        },
        ...(tvt
          ? {
              business_hours: {
                title: 'Business hours',
                aggregate_thresholds: clone(agg),
                entity_thresholds: clone(ent),
                policy_type: 'static',
                time_blocks: [],
              },
            }
          : {}),
      },
      time_blocks: tvt
        ? [
            { policy_key: 'business_hours', time_block_key: '01-09' },
            { policy_key: 'business_hours', time_block_key: '05-10' },
          ]
        : [],
    },
  };
}

function seedTeams() {
  const teams = [
    [GLOBAL_TEAM, 'Global', 'Objects visible to every operations user'],
    ['team_netops', 'Network Operations', 'Routers, switches and WAN links'],
    ['team_storage', 'Storage', 'SAN and backup storage'],
    ['team_dbops', 'Database Operations', 'Relational and document databases'],
  ];
  for (const [key, title, description] of teams) {
    db.team.seed(
      {
        _key: key,
        title,
        description,
        sec_grp: GLOBAL_TEAM,
        acl: { read: ['ops_admin', 'ops_analyst'], write: ['ops_admin'] },
        _version: '4.11.5',
      },
      'nobody',
      ago(400),
    );
  }
}

function seedSearchesAndTemplates() {
  const kbs = [
    [
      'web',
      'Web Server Activity',
      GLOBAL_TEAM,
      'index=web sourcetype=access_combined',
      [
        ['web_4xx', '4xx Responses', 'dc'],
        ['web_5xx', '5xx Responses', 'count'],
        ['web_req', 'Request Count', 'count'],
      ],
    ],
    [
      'os',
      'OS Performance',
      GLOBAL_TEAM,
      'index=os sourcetype=cpu OR sourcetype=vmstat',
      [
        ['os_cpu', 'CPU Utilization %', 'avg'],
        ['os_mem', 'Memory Used %', 'avg'],
      ],
    ],
    [
      'net',
      'Network Interfaces',
      'team_netops',
      'index=network sourcetype=snmp:interface',
      [
        ['net_tput', 'Interface Throughput', 'sum'],
        ['net_err', 'Interface Errors', 'sum'],
      ],
    ],
    [
      'db',
      'Database Health',
      'team_dbops',
      'index=db sourcetype=db:perf',
      [
        ['db_lat', 'Query Latency ms', 'p95'],
        ['db_lag', 'Replication Lag s', 'max'],
      ],
    ],
  ];
  for (const [id, title, team, search, metrics] of kbs) {
    db.kpi_base_search.seed(
      {
        _key: seedKey('kbs:' + id),
        title,
        description: `${title} shared base search`,
        sec_grp: team,
        base_search: search,
        entity_id_fields: 'host',
        entity_breakdown_id_fields: 'host',
        is_entity_breakdown: true,
        is_service_entity_filter: true,
        alert_period: '5',
        alert_lag: '30',
        search_alert_earliest: '5',
        entity_alias_filtering_fields: '',
        metric_qualifier: '',
        actions: '',
        metrics: metrics.map(([mid, mtitle, stat]) => ({
          _key: seedKey('kbsm:' + mid),
          title: mtitle,
          threshold_field: mid,
          aggregate_statop: stat,
          entity_statop: 'avg',
          fill_gaps: 'null_value',
          gap_custom_alert_value: '0',
          gap_severity: 'unknown',
          gap_severity_color: '#CCCCCC',
          gap_severity_color_light: '#EEEEEE',
          gap_severity_value: '-1',
          unit: '',
        })),
        _version: '4.15.0',
      },
      'ops-admin',
      ago(200),
    );
  }
  const tt = (id, title, tb) =>
    db.kpi_threshold_template.seed(
      {
        _key: seedKey('tt:' + id),
        title,
        description: `${title} threshold template`,
        adaptive_thresholding_training_window: '-30d',
        adaptive_thresholds_is_enabled: id === 'stdev',
        time_variate_thresholds: true,
        time_variate_thresholds_specification: {
          policies: {
            default_policy: {
              title: 'default_policy',
              policy_type: id === 'stdev' ? 'stdev' : 'static',
              time_blocks: [],
              aggregate_thresholds: thresholds(
                '',
                [
                  ['low', 1.25],
                  ['medium', 1.75],
                  ['high', 2.25],
                ],
                'normal',
                4,
              ),
              entity_thresholds: thresholds('', [], 'info', 0),
            },
            ...(tb
              ? {
                  weekday_business: {
                    title: 'Weekday business hours',
                    policy_type: 'static',
                    time_blocks: [],
                    aggregate_thresholds: thresholds('', [
                      ['medium', 70],
                      ['high', 85],
                      ['critical', 95],
                    ]),
                    entity_thresholds: thresholds('', [], 'info', 0),
                  },
                }
              : {}),
          },
          time_blocks: tb
            ? [
                { policy_key: 'weekday_business', time_block_key: '01-08' },
                { policy_key: 'weekday_business', time_block_key: '05-10' },
              ]
            : [],
        },
        _version: '4.11.5',
      },
      'ops-admin',
      ago(300),
    );
  tt('stdev', 'Standard deviation, 30 day adaptive', false);
  tt('business', 'Static by time of day (business hours)', true);

  db.base_service_template.seed(
    {
      _key: seedKey('bst:web'),
      title: 'Web Tier Template',
      description: 'Standard KPIs and entity rules for web tiers',
      entity_rules: [{ rule_condition: 'AND', rule_items: [{ field: 'role', field_type: 'info', rule_type: 'matches', value: 'web*' }] }],
      kpis: [
        kpi('tpl-web-5xx', '5xx Error Rate', { baseSearch: 'web', metric: 'web_5xx', unit: '%' }),
        kpi('tpl-web-req', 'Request Rate', { baseSearch: 'web', metric: 'web_req' }),
      ],
      linked_services: [],
      _version: '4.15.0',
    },
    'ops-admin',
    ago(180),
  );
  db.base_service_template.seed(
    {
      _key: seedKey('bst:net'),
      title: 'Network Device Template',
      description: 'Interface health for network devices',
      entity_rules: [
        { rule_condition: 'AND', rule_items: [{ field: 'device_type', field_type: 'info', rule_type: 'matches', value: 'switch' }] },
      ],
      kpis: [kpi('tpl-net-err', 'Interface Errors', { baseSearch: 'net', metric: 'net_err' })],
      linked_services: [],
      _version: '4.15.0',
    },
    'ops-admin',
    ago(170),
  );
}

const SERVICES = [
  [
    'frontend',
    'Online Store Frontend',
    GLOBAL_TEAM,
    [
      kpi('fe-req', 'Request Rate', { baseSearch: 'web', metric: 'web_req', unit: 'req/s', urgency: 7 }),
      kpi('fe-5xx', '5xx Error Rate', { baseSearch: 'web', metric: 'web_5xx', unit: '%', urgency: 11, timeVariate: true }),
      kpi('fe-rt', 'Response Time', {
        unit: 'ms',
        statop: 'p95',
        levels: [
          ['medium', 400],
          ['high', 800],
          ['critical', 1500],
        ],
        max: 2000,
      }),
    ],
    'web',
  ],
  [
    'payment',
    'Payment Gateway',
    GLOBAL_TEAM,
    [
      kpi('pay-lat', 'Transaction Latency', { unit: 'ms', statop: 'p90' }),
      kpi('pay-fail', 'Failed Transactions', { statop: 'sum', urgency: 11 }),
    ],
    null,
  ],
  ['auth', 'Authentication Service', GLOBAL_TEAM, [kpi('auth-fail', 'Login Failures', { statop: 'count' })], null],
  [
    'corenet',
    'Core Network',
    'team_netops',
    [
      kpi('cn-tput', 'Interface Throughput', { baseSearch: 'net', metric: 'net_tput', unit: 'Mbps' }),
      kpi('cn-loss', 'Packet Loss', {
        unit: '%',
        levels: [
          ['medium', 1],
          ['high', 3],
          ['critical', 5],
        ],
      }),
    ],
    null,
  ],
  ['wan', 'WAN Links', 'team_netops', [kpi('wan-lat', 'Link Latency', { unit: 'ms' })], null],
  [
    'san',
    'SAN Storage',
    'team_storage',
    [kpi('san-lat', 'Disk Latency', { unit: 'ms' }), kpi('san-free', 'Free Capacity', { unit: '%', statop: 'min' })],
    null,
  ],
  [
    'ordersdb',
    'Orders Database',
    'team_dbops',
    [
      kpi('odb-lat', 'Query Latency', { baseSearch: 'db', metric: 'db_lat', unit: 'ms' }),
      kpi('odb-lag', 'Replication Lag', { baseSearch: 'db', metric: 'db_lag', unit: 's' }),
    ],
    null,
  ],
];

function seedServices() {
  for (const [id, title, team, kpis, tpl] of SERVICES) {
    db.service.seed(
      {
        _key: seedKey('svc:' + id),
        title,
        description: `${title} business service`,
        sec_grp: team,
        enabled: 1,
        kpis,
        entity_rules: [{ rule_condition: 'AND', rule_items: [{ field: 'service', field_type: 'info', rule_type: 'matches', value: id }] }],
        services_depends_on:
          id === 'frontend'
            ? [
                { serviceid: seedKey('svc:payment'), kpis_depending_on: [`SHKPI-${seedKey('svc:payment')}`] },
                { serviceid: seedKey('svc:auth'), kpis_depending_on: [`SHKPI-${seedKey('svc:auth')}`] },
              ]
            : [],
        service_tags: { tags: [team === GLOBAL_TEAM ? 'customer-facing' : 'infrastructure'] },
        is_healthscore_calculate_by_entity_enabled: 1,
        base_service_template_id: tpl ? seedKey('bst:' + tpl) : undefined,
        _version: '4.17.0',
      },
      'ops-admin',
      ago(120),
    );
    if (tpl) db.base_service_template.raw(seedKey('bst:' + tpl)).linked_services.push(seedKey('svc:' + id));
  }
  for (const s of db.service.all()) if (s.base_service_template_id === undefined) delete s.base_service_template_id;
}

function seedEntities() {
  const ent = (id, title, team, svcs, info, extra = {}) =>
    db.entity.seed(
      {
        _key: seedKey('ent:' + id),
        title,
        description: `${title} (${info.role})`,
        sec_grp: team,
        identifier: { fields: ['host', 'ip'], values: [title, info.ip] },
        informational: { fields: ['role', 'os'], values: [info.role, info.os] },
        host: [title],
        ip: [info.ip],
        role: [info.role],
        os: [info.os],
        services: svcs.map((s) => ({ _key: seedKey('svc:' + s) })),
        entity_type_ids: [seedKey('etype:' + (info.type || 'unix'))],
        _version: '4.16.1',
        ...extra,
      },
      'ops-admin',
      ago(90),
    );
  ent('web-01', 'web-01.shop.example.net', GLOBAL_TEAM, ['frontend'], { ip: '10.10.1.11', role: 'web', os: 'linux' });
  ent('web-02', 'web-02.shop.example.net', GLOBAL_TEAM, ['frontend'], { ip: '10.10.1.12', role: 'web', os: 'linux' });
  ent('web-03', 'web-03.shop.example.net', GLOBAL_TEAM, ['frontend'], { ip: '10.10.1.13', role: 'web', os: 'linux' }, { retirable: 1 });
  ent('pay-01', 'pay-01.shop.example.net', GLOBAL_TEAM, ['payment', 'auth'], { ip: '10.10.2.21', role: 'app', os: 'linux' });
  ent('old-07', 'old-host-07.example.net', GLOBAL_TEAM, [], { ip: '10.10.9.7', role: 'legacy', os: 'windows' }, { retirable: 1 });
  ent('sw-01', 'core-sw-01', 'team_netops', ['corenet'], { ip: '10.0.0.1', role: 'switch', os: 'netos', type: 'netdev' });
  ent('sw-02', 'core-sw-02', 'team_netops', ['corenet'], { ip: '10.0.0.2', role: 'switch', os: 'netos', type: 'netdev' }, { retirable: 1 });
  ent('rtr-01', 'edge-rtr-01', 'team_netops', ['wan', 'corenet'], { ip: '10.0.0.254', role: 'router', os: 'netos', type: 'netdev' });
  ent('san-01', 'san-ctl-01', 'team_storage', ['san'], { ip: '10.20.0.5', role: 'storage', os: 'storos' });
  ent('db-01', 'db-01.orders.example.net', 'team_dbops', ['ordersdb'], { ip: '10.30.0.10', role: 'database', os: 'linux' });
  const legacy = ent('legacy-01', 'legacy-app-01.example.net', GLOBAL_TEAM, [], { ip: '10.10.9.1', role: 'app', os: 'linux' });
  legacy.retired = 1;
  legacy.__retired_services = [{ _key: seedKey('svc:payment'), title: 'Payment Gateway' }];
}

function seedMisc() {
  const now = Date.now() / 1000;
  const simple = (type, id, title, team, extra) =>
    db[type].seed(
      { _key: seedKey(`${type}:${id}`), title, description: `${title}`, sec_grp: team, _version: '4.14.0', ...extra },
      'ops-admin',
      ago(60),
    );
  simple('entity_type', 'unix', 'Unix/Linux host', GLOBAL_TEAM, {
    vital_metrics: [{ metric_name: 'CPU Usage', search: 'index=os cpu' }],
    dashboard_drilldowns: [],
    data_drilldowns: [],
  });
  simple('entity_type', 'netdev', 'Network device', GLOBAL_TEAM, {
    vital_metrics: [{ metric_name: 'Interface Errors', search: 'index=network errors' }],
    dashboard_drilldowns: [],
    data_drilldowns: [],
  });
  simple('entity_type', 'webserver', 'Web server', GLOBAL_TEAM, {
    vital_metrics: [],
    dashboard_drilldowns: [{ title: 'Access log', type: 'navigation' }],
    data_drilldowns: [],
  });
  simple('deep_dive', 'fe', 'Frontend incident deep dive', GLOBAL_TEAM, {
    focus_id: seedKey('svc:frontend'),
    is_named: true,
    lane_settings_collection: [{ title: '5xx Error Rate', laneType: 'kpi', kpiServiceId: seedKey('svc:frontend') }],
  });
  simple('deep_dive', 'net', 'Core network deep dive', 'team_netops', {
    focus_id: seedKey('svc:corenet'),
    is_named: true,
    lane_settings_collection: [],
  });
  simple('glass_table', 'exec', 'Executive service overview', GLOBAL_TEAM, {
    gt_version: 'beta',
    layout: { width: 1920, height: 1080 },
    content: [],
  });
  simple('glass_table', 'noc', 'NOC wall board', 'team_netops', { gt_version: 'beta', layout: { width: 3840, height: 2160 }, content: [] });
  simple('home_view', 'default', 'Service Analyzer - all services', GLOBAL_TEAM, {
    is_default: true,
    service_kpi_pairs: [],
    layout: 'tile',
  });
  simple('kpi_template', 'web', 'Web KPI pack', GLOBAL_TEAM, { kpis: [kpi('kt-web-rt', 'Response Time')] });
  simple('event_management_state', 'noc', 'NOC episode review', GLOBAL_TEAM, {
    viewingOption: 'standard',
    columnsToDisplay: ['severity', 'title', 'status', 'owner'],
    view_type: 'episode',
  });
  simple('entity_filter_rule', 'web', 'Web hosts', GLOBAL_TEAM, {
    entity_rules: [{ rule_condition: 'AND', rule_items: [{ field: 'role', field_type: 'info', rule_type: 'matches', value: 'web' }] }],
  });
  simple('entity_relationship', 'web-pay', 'web-01 hosts payment client', GLOBAL_TEAM, {
    subject_identifier: 'web-01.shop.example.net',
    object_identifier: 'pay-01.shop.example.net',
    predicate: 'connects_to',
  });
  simple('entity_relationship_rule', 'vm-host', 'VM runs on host', GLOBAL_TEAM, {
    subject_type: 'vm',
    object_type_name: 'host',
    predicate: 'runs_on',
    rule_search: '| inputlookup vm_host',
  });

  const fe = seedKey('svc:frontend'),
    cn = seedKey('svc:corenet');
  db.custom_threshold_windows.seed(
    {
      _key: seedKey('ctw:bf'),
      title: 'Black Friday traffic uplift',
      description: 'Relax frontend thresholds during the sale',
      status: 'Active',
      window_type: 'percentage',
      window_config_percentage: 50,
      window_config_static: {},
      start_time: Math.floor(now - 3600),
      end_time: Math.floor(now + 86400 * 3),
      duration: 86400 * 3 + 3600,
      recurrence: false,
      cron_schedule: '',
      next_scheduled_time: '',
      is_overlapping: false,
      overlapping_kpis: [],
      pause_description: '',
      linked_services: [{ service_id: fe, linked_kpi_ids: [seedKey('kpi:fe-req'), seedKey('kpi:fe-5xx')] }],
      sec_grp_list: [GLOBAL_TEAM],
      _version: '4.17.0',
    },
    'ops-admin',
    ago(5),
  );
  db.custom_threshold_windows.seed(
    {
      _key: seedKey('ctw:patch'),
      title: 'Monthly patch night',
      description: 'Patch window thresholds',
      status: 'Stopped',
      last_stopped_time: epochAgo(2),
      window_type: 'static',
      window_config_static: { severity: 'normal' },
      start_time: Math.floor(now - 86400 * 3),
      end_time: Math.floor(now - 86400 * 2),
      duration: 86400,
      recurrence: true,
      cron_schedule: '0 22 * * 2',
      next_scheduled_time: new Date(Date.now() + 86400e3 * 20).toISOString(),
      is_overlapping: false,
      overlapping_kpis: [],
      pause_description: 'Stopped after patching finished',
      linked_services: [{ service_id: seedKey('svc:payment'), linked_kpi_ids: [seedKey('kpi:pay-lat')] }],
      sec_grp_list: [GLOBAL_TEAM],
      _version: '4.17.0',
    },
    'ops-admin',
    ago(10),
  );
  db.custom_threshold_windows.seed(
    {
      _key: seedKey('ctw:netmaint'),
      title: 'Carrier maintenance',
      description: 'Upstream carrier works',
      status: 'active',
      sec_grp: 'team_netops',
      window_type: 'percentage',
      window_config_percentage: 25,
      window_config_static: {},
      start_time: Math.floor(now - 600),
      end_time: Math.floor(now + 7200),
      duration: 7800,
      recurrence: false,
      cron_schedule: '',
      next_scheduled_time: '',
      is_overlapping: false,
      overlapping_kpis: [],
      pause_description: '',
      linked_services: [{ service_id: cn, linked_kpi_ids: [seedKey('kpi:cn-loss')] }],
      sec_grp_list: ['team_netops'],
      _version: '4.17.0',
    },
    'netops',
    ago(1),
  );

  // maintenance windows
  db.maintenance_calendar.seed(
    {
      _key: seedKey('mw:power'),
      title: 'Quarterly datacenter power test',
      comment: 'Generator failover test',
      start_time: Math.floor(now + 86400 * 7),
      end_time: Math.floor(now + 86400 * 7 + 7200),
      objects: [
        { object_type: 'service', _key: fe },
        { object_type: 'entity', _key: seedKey('ent:web-01') },
      ],
      sec_grp_list: [GLOBAL_TEAM],
      _version: '4.11.5',
    },
    'ops-admin',
    ago(3),
  );
  db.maintenance_calendar.seed(
    {
      _key: seedKey('mw:fw'),
      title: 'Core switch firmware upgrade',
      comment: 'Vendor advisory',
      sec_grp: 'team_netops',
      start_time: now + 86400 * 2 + 0.5,
      end_time: now + 86400 * 2 + 5400.5,
      objects: [
        { object_type: 'service', _key: cn },
        { object_type: 'entity', _key: seedKey('ent:sw-01') },
      ],
      sec_grp_list: ['team_netops'],
      _version: '4.17.0',
    },
    'netops',
    ago(2),
  );
  db.maintenance_calendar.seed(
    {
      _key: seedKey('mw:san'),
      title: 'SAN controller replacement',
      comment: '',
      sec_grp: 'team_storage',
      start_time: Math.floor(now - 86400 * 30),
      end_time: Math.floor(now - 86400 * 30 + 3600),
      objects: [{ object_type: 'service', _key: seedKey('svc:san') }],
      sec_grp_list: ['team_storage'],
      _version: '4.16.1',
    },
    'ops-admin',
    ago(31),
  );

  // backup/restore jobs
  db.backup_restore.seed(
    {
      _key: seedKey('bk:default'),
      title: 'Default Scheduled Backup',
      job_type: 'Backup',
      status: 'Completed',
      is_default: true,
      scheduled: 1,
      frequency: 'daily',
      start_time: Math.floor(now - 3600 * 5),
      end_time: Math.floor(now - 3600 * 5 + 240),
      last_queued_time: Math.floor(now - 3600 * 5 - 30),
      rules: [],
      last_error: '',
      path: '$PLATFORM_HOME/var/ops/backups/default_scheduled',
      platform_server: 'ops-sh-01.example.net',
      search_head_id: '6F2A4E0C-1B7D-4C55-9E3A-0A11C0FFEE01',
      _version: '4.11.5',
    },
    'nobody',
    ago(365),
  );
  db.backup_restore.seed(
    {
      _key: seedKey('bk:preupgrade'),
      title: 'Pre-upgrade full backup',
      job_type: 'Backup',
      status: 'Completed',
      start_time: Math.floor(now - 86400 * 14),
      end_time: Math.floor(now - 86400 * 14 + 900),
      last_queued_time: Math.floor(now - 86400 * 14 - 60),
      rules: [],
      last_error: '',
      path: '$PLATFORM_HOME/var/ops/backups/pre_upgrade_4_18.zip',
      platform_server: 'ops-sh-01.example.net',
      search_head_id: '6F2A4E0C-1B7D-4C55-9E3A-0A11C0FFEE01',
      _version: '4.17.0',
    },
    'ops-admin',
    ago(14),
  );
  db.backup_restore.seed(
    {
      _key: seedKey('bk:netcfg'),
      title: 'Network team config export',
      job_type: 'Backup',
      status: 'Queued',
      sec_grp: 'team_netops',
      last_queued_time: Math.floor(now - 120),
      rules: [{ object_type: 'service', rule: 'sec_grp=team_netops' }],
      last_error: '',
      path: '$PLATFORM_HOME/var/ops/backups/netops_export.zip',
      platform_server: 'ops-sh-01.example.net',
      search_head_id: '6F2A4E0C-1B7D-4C55-9E3A-0A11C0FFEE01',
      _version: '4.18.2',
    },
    'netops',
    ago(0.01),
  );
}

function seedIcons() {
  categories.set('Default', { immutable: true });
  categories.set('Network', { immutable: true });
  categories.set('Custom', { immutable: false });
  const icon = (id, title, category, w, h) =>
    db.icon.seed(
      {
        _key: seedKey('icon:' + id),
        title,
        category,
        default_width: String(w),
        default_height: String(h),
        svg_path: `M0 0 L${w} 0 L${w} ${h} L0 ${h} Z`,
        _version: '4.11.5',
      },
      'nobody',
      ago(500),
    );
  icon('server', 'Server', 'Default', 48, 64);
  icon('db', 'Database', 'Default', 48, 48);
  icon('cloud', 'Cloud', 'Default', 64, 40);
  icon('router', 'Router', 'Network', 56, 32);
  icon('firewall', 'Firewall', 'Network', 48, 48);
  icon('logo', 'Company logo', 'Custom', 120, 40);
  icon('store', 'Shop front', 'Custom', 64, 64);
}

function pack(id, title, version, author, installed, contents, savedSearches) {
  return {
    id,
    title,
    description: `${title} content pack`,
    overview: `Monitor ${title.toLowerCase()} with ready-made services, KPIs and dashboards.`,
    author,
    version,
    icon: `/static/app/SA-ITOA/content_packs/${id}/icon.png`,
    help_links: [`https://docs.example.com/ops/content-packs/${id}`],
    installed_versions: installed,
    screenshots: [
      { path: `/static/app/SA-ITOA/content_packs/${id}/s1.png`, thumb: `/static/app/SA-ITOA/content_packs/${id}/s1_thumb.png` },
    ],
    main_screenshot: {
      path: `/static/app/SA-ITOA/content_packs/${id}/main.png`,
      thumb: `/static/app/SA-ITOA/content_packs/${id}/main_thumb.png`,
    },
    __contents: contents,
    __saved_searches: savedSearches,
    __installed: {},
  };
}
const item = (id, object_type, title, body = {}, has_dependency = false) => ({
  id,
  object_type,
  title,
  description: `${title}`,
  has_dependency,
  body,
});

function seedContentPacks() {
  const unix = pack(
    'DA-OPS-CP-unix-monitoring',
    'Unix and Linux Monitoring',
    '1.6.0',
    'Ops Content Team',
    ['1.5.0'],
    {
      services: [
        item(
          'cp_unix_os_hosts',
          'service',
          'OS Hosts',
          { kpis: [kpi('cp-unix-cpu', 'CPU Utilization %'), kpi('cp-unix-mem', 'Memory Used %')] },
          true,
        ),
      ],
      entity_types: [item('cp_unix_host_type', 'entity_type', 'Unix Host', { vital_metrics: [] })],
      kpi_base_searches: [item('cp_unix_kbs', 'kpi_base_search', 'OS Metrics', { base_search: 'index=os', metrics: [] })],
      glass_tables: [item('cp_unix_gt', 'glass_table', 'OS Overview', { content: [] })],
      service_analyzers: [item('cp_unix_sa', 'home_view', 'OS Analyzer', { service_kpi_pairs: [] })],
      correlation_searches: [
        item('cp_unix_cs', 'correlation_search', 'Host Down', {
          search: 'index=os sourcetype=ping status=down',
          cron_schedule: '*/5 * * * *',
        }),
      ],
    },
    [{ name: 'OS - Collect Host Inventory' }, { name: 'OS - Disk Forecast' }],
  );
  const web = pack(
    'DA-OPS-CP-web-server',
    'Web Server Monitoring',
    '1.3.1',
    'Ops Content Team',
    [],
    {
      services: [
        item('cp_web_tier', 'service', 'Web Tier', { kpis: [kpi('cp-web-req', 'Request Rate'), kpi('cp-web-err', 'Error Rate')] }, true),
        item('cp_web_lb', 'service', 'Load Balancers', { kpis: [kpi('cp-web-lb', 'Active Connections')] }),
      ],
      service_templates: [item('cp_web_tpl', 'base_service_template', 'Web Tier Template (content pack)', { kpis: [], entity_rules: [] })],
      aggregation_policies: [
        item('cp_web_nap', 'notable_aggregation_policy', 'Web Episodes by Host', { filter_criteria: { condition: 'AND', items: [] } }),
      ],
    },
    [{ name: 'Web - Access Log Summary' }],
  );
  const dbp = pack(
    'DA-OPS-CP-database',
    'Database Monitoring',
    '2.0.0',
    'Partner Integrations',
    [],
    {
      services: [item('cp_db_cluster', 'service', 'Database Cluster', { kpis: [kpi('cp-db-lat', 'Query Latency')] })],
      kpi_threshold_templates: [item('cp_db_tt', 'kpi_threshold_template', 'DB latency thresholds', { time_variate_thresholds: false })],
      deep_dives: [item('cp_db_dd', 'deep_dive', 'DB Deep Dive', { lane_settings_collection: [] })],
    },
    [{ name: 'DB - Slow Query Digest' }, { name: 'DB - Lookup Refresh', broken: 'Lookup table definition db_instances is missing' }],
  );
  for (const p of [unix, web, dbp]) {
    library.set(p.id, p);
    localApps.set(p.id, clone(p));
  }
  const vmw = pack(
    'DA-OPS-CP-virtualization',
    'Virtualization Monitoring',
    '1.0.2',
    'Ops Content Team',
    [],
    {
      services: [item('cp_vm_cluster', 'service', 'Hypervisor Cluster', { kpis: [kpi('cp-vm-cpu', 'Host CPU Ready %')] })],
    },
    [],
  );
  localApps.set(vmw.id, vmw);
  libraryFailures.push({
    id: 'DA-OPS-CP-legacy-mainframe',
    title: 'Legacy Mainframe',
    error: 'manifest.json is missing or unreadable',
    status_code: 'LOAD_FAILED',
  });

  const cp = (id, title, status, ops, plat, days) =>
    db.content_pack.seed(
      {
        _key: seedKey('cpa:' + id),
        title,
        description: `${title} (custom pack)`,
        overview: `Custom content exported from this deployment: ${title}.`,
        cp_version: '1.0.' + days,
        status,
        metadata: { icon: status === 'Draft' ? null : '/static/app/SA-ITOA/custom_cp/icon.png', main_screenshot: {}, screenshots: [] },
        ops_objects: ops,
        platform_objects: plat,
        user_selected_objects: { ops_objects: ops, platform_objects: { savedsearches: plat.savedsearches || [] } },
        _version: '4.18.0',
      },
      'ops-admin',
      ago(days),
    );
  const noPlat = { dashboards: [], lookups: [], macros: [], props: [], savedsearches: [], transforms: [] };
  cp(
    'retail',
    'Retail Monitoring Bundle',
    'Draft',
    { service: [seedKey('svc:frontend'), seedKey('svc:payment')], kpi_base_search: [seedKey('kbs:web')] },
    { ...noPlat, dashboards: ['retail_overview'], savedsearches: ['Retail - Hourly Orders'] },
    4,
  );
  cp(
    'netbase',
    'Network Baseline',
    'Generated',
    { service: [seedKey('svc:corenet')], glass_table: [seedKey('glass_table:noc')], team: ['team_netops'] },
    { ...noPlat, macros: ['net_index'] },
    12,
  );
  cp(
    'dbinsights',
    'DB Insights',
    'Failed',
    { service: [seedKey('svc:ordersdb')], kpi_base_search: [seedKey('kbs:db')] },
    { ...noPlat, lookups: ['db_instances.csv'] },
    20,
  );
}

function seedEvents() {
  const ep = (id) => seedKey('episode:' + id);
  const episodes = [
    ['fe', 'Frontend 5xx errors above threshold', '5', '2', 'ops-admin', 2],
    ['net', 'Packet loss on core-sw-02', '4', '1', 'unassigned', 1],
    ['san', 'SAN latency warning', '3', '4', 'ops-admin', 6],
  ];
  for (const [id, title, severity, status, owner, days] of episodes) {
    db.notable_event_group.seed(
      {
        _key: ep(id),
        event_id: ep(id),
        title,
        severity,
        status,
        owner,
        policy_id: seedKey('nap:default'),
        is_active: status !== '4',
        drilldown: [{ name: 'Service analyzer', link: `https://ops.example.net/app/ops/service_analyzer?episode=${ep(id)}` }],
        _version: '4.18.0',
      },
      'nobody',
      ago(days),
    );
    db.notable_event.seed(
      {
        _key: seedKey('nev:' + id),
        event_id: seedKey('nev:' + id),
        title,
        severity: ['', 'info', 'normal', 'low', 'medium', 'high', 'critical'][Number(severity)],
        status: 'new',
        owner,
        source: `Correlation search - ${title}`,
        serviceid: id === 'fe' ? seedKey('svc:frontend') : id === 'net' ? seedKey('svc:corenet') : seedKey('svc:san'),
        host: id === 'fe' ? 'web-01.shop.example.net' : id === 'net' ? 'core-sw-02' : 'san-ctl-01',
        event_identifier_hash: seedKey('hash:' + id) + seedKey('hash2:' + id),
        _version: '4.18.0',
        episode_id: ep(id),
      },
      'nobody',
      ago(days),
    );
  }
  db.correlation_search.seed(
    {
      _key: seedKey('cs:5xx'),
      title: 'Frontend 5xx burst',
      name: 'Frontend 5xx burst',
      search: 'index=web status>=500 | stats count by host',
      enabled: 1,
      cron_schedule: '*/5 * * * *',
      _version: '4.18.0',
    },
    'ops-admin',
    ago(50),
  );
  db.correlation_search.seed(
    {
      _key: seedKey('cs:loss'),
      title: 'Interface packet loss',
      name: 'Interface packet loss',
      search: 'index=network loss_pct>1',
      enabled: 0,
      cron_schedule: '*/10 * * * *',
      _version: '4.18.0',
    },
    'ops-admin',
    ago(40),
  );
  db.notable_aggregation_policy.seed(
    {
      _key: seedKey('nap:default'),
      title: 'Default Policy',
      description: 'Groups events by source',
      enabled: 1,
      priority: 5,
      filter_criteria: { condition: 'AND', items: [] },
      breaking_criteria: { condition: 'OR', items: [] },
      _version: '4.18.0',
    },
    'nobody',
    ago(300),
  );
  db.notable_aggregation_policy.seed(
    {
      _key: seedKey('nap:net'),
      title: 'Network episodes by device',
      description: 'Groups network events per device',
      enabled: 1,
      priority: 3,
      filter_criteria: { condition: 'AND', items: [{ field: 'source', value: 'Interface*' }] },
      breaking_criteria: { condition: 'OR', items: [] },
      _version: '4.18.0',
    },
    'ops-admin',
    ago(30),
  );
  db.notable_event_comment.seed(
    {
      _key: seedKey('cmt:1'),
      event_id: ep('fe'),
      comment: 'Rolling back release 2024.11.3',
      user: 'ops-admin',
      owner: 'ops-admin',
      _version: '4.18.0',
    },
    'ops-admin',
    ago(1.9),
  );
  db.notable_event_comment.seed(
    {
      _key: seedKey('cmt:2'),
      event_id: ep('fe'),
      comment: 'Error rate back to normal after rollback',
      user: 'ops-admin',
      owner: 'ops-admin',
      _version: '4.18.0',
    },
    'ops-admin',
    ago(1.8),
  );
  db.notable_event_comment.seed(
    {
      _key: seedKey('cmt:3'),
      event_id: ep('net'),
      comment: 'Carrier ticket opened',
      user: 'ops-admin',
      owner: 'ops-admin',
      _version: '4.18.0',
    },
    'ops-admin',
    ago(0.9),
  );
  db.notable_event_tag.seed(
    { _key: seedKey('tag:1'), event_id: ep('fe'), tag_name: 'customer-impact', user: 'ops-admin', owner: 'ops-admin', _version: '4.18.0' },
    'ops-admin',
    ago(1.9),
  );
  db.external_ticket.seed(
    {
      _key: seedKey('tkt:1'),
      event_id: ep('fe'),
      ticket_system: 'IncidentDesk',
      tickets: [{ ticket_system: 'IncidentDesk', ticket_url: 'https://incidents.example.net/INC0042137', ticket_id: 'INC0042137' }],
      _version: '4.18.0',
    },
    'ops-admin',
    ago(1.95),
  );
}

export function seedAll() {
  seedTeams();
  seedSearchesAndTemplates();
  seedServices();
  seedEntities();
  seedMisc();
  seedIcons();
  seedContentPacks();
  seedEvents();
}
