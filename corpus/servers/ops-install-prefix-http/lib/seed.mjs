// Seed data so every documented endpoint has something to return.
import fs from 'node:fs';
import { GLOBAL, SCHEMA_VERSION, isoOffset, modTime, plainTime, nowEpoch, clone } from './util.mjs';
import { db } from './store.mjs';
import { DEFAULT_BACKUP_KEY } from './backup.mjs';

const here = new URL('./data/', import.meta.url);
const load = (f) => JSON.parse(fs.readFileSync(new URL(f, here), 'utf8'));

const T0 = Date.UTC(2025, 8, 14, 9, 30, 0);
let tick = 0;
function common(o, type, user = 'admin') {
  const ms = T0 + ++tick * 3600_000;
  o.object_type = type;
  o._version = SCHEMA_VERSION;
  o._user = 'nobody';
  o.mod_source = o.mod_source || 'REST';
  o.mod_timestamp = isoOffset(ms);
  if (typeof o.title === 'string') o.identifying_name = o.title.toLowerCase();
  if (!o.sec_grp) o.sec_grp = GLOBAL;
  if (o.create_by === undefined) o.create_by = user;
  if (o.create_source === undefined) o.create_source = 'manual';
  if (o.create_time === undefined) o.create_time = isoOffset(ms - 1800_000);
  if (o.mod_time === undefined) o.mod_time = modTime(ms);
  if (o.mod_by === undefined) o.mod_by = user;
  return o;
}
const put = (type, o) => db.core[type].set(o._key, common(o, type));

function thr(label = 'normal', value = 2, levels = []) {
  const colors = {
    critical: ['#B50101', '#E5A6A6'],
    high: ['#F26A35', '#FBCBB9'],
    medium: ['#FCB64E', '#FEE6C1'],
    low: ['#FFE98C', '#FFF4C5'],
    normal: ['#99D18B', '#DCEFD7'],
    info: ['#AED3E5', '#E3F0F6'],
  };
  const sev = { critical: 6, high: 5, medium: 4, low: 3, normal: 2, info: 1 };
  return {
    isMinStatic: true,
    isMaxStatic: false,
    gaugeMin: 0,
    gaugeMax: 100,
    renderBoundaryMin: 0,
    renderBoundaryMax: 100,
    baseSeverityValue: value,
    metricField: 'count',
    search: '',
    baseSeverityLabel: label,
    baseSeverityColor: colors[label][0],
    baseSeverityColorLight: colors[label][1],
    thresholdLevels: levels.map(([l, t]) => ({
      severityValue: sev[l],
      thresholdValue: t,
      severityLabel: l,
      severityColor: colors[l][0],
      severityColorLight: colors[l][1],
    })),
  };
}

function kpi(key, title, svc, svcTitle, extra = {}) {
  const agg = thr('normal', 2, [
    ['medium', 60],
    ['high', 80],
    ['critical', 95],
  ]);
  return {
    _key: key,
    title,
    service_id: svc,
    service_title: svcTitle,
    type: 'kpis_primary',
    urgency: '5',
    target: '',
    unit: '',
    search_type: 'adhoc',
    base_search: 'index=ops_metrics sourcetype=perf | eval value=count',
    threshold_field: 'value',
    kpi_base_search: '',
    alert_on: 'both',
    alert_lag: '30',
    alert_period: '5',
    search_alert_earliest: '5',
    aggregate_statop: 'avg',
    entity_statop: 'avg',
    entity_id_fields: 'host',
    tz_offset: null,
    entity_alias_filtering_fields: null,
    backfill_enabled: false,
    backfill_earliest_time: '-7d',
    adaptive_thresholding_training_window: '-7d',
    anomaly_detection_training_window: '-7d',
    gap_severity: 'unknown',
    gap_severity_color: '#CCCCCC',
    gap_severity_color_light: '#EEEEEE',
    gap_severity_value: '-1',
    time_variate_thresholds: false,
    is_entity_breakdown: true,
    datamodel_filter: [],
    datamodel: { object: '', datamodel: '', field: '', owner_field: '' },
    aggregate_thresholds: agg,
    entity_thresholds: thr('normal', 2, [['high', 85]]),
    time_variate_thresholds_specification: {
      policies: {
        default_policy: { title: 'Default', aggregate_thresholds: clone(agg), entity_thresholds: thr('info', 1), policy_type: 'static' },
      },
      time_blocks: [{ policy_key: 'default_policy', time_block_key: '00-00' }],
    },
    enabled: 1,
    ...extra,
  };
}

export const IDS = {
  S_WEB: '3a1f6c52-8d0e-4b7a-9c21-5e8f0a7d4b11',
  S_NET: 'c7e2b9d4-1f3a-4e6b-8a5c-2d9f7b1e0c22',
  S_EDGE: '5d8a0e17-6b2c-4f9d-b3e1-7a4c9f2d8e33',
  S_DB: '9b4f2c86-3e7d-4a1b-9f5e-1c6a8d3b7f44',
  S_PAY: 'e0c3d7a9-2b5f-4c8e-a1d6-9f7b3e5c1a55',
};
const K = {
  WEB_LAT: '4f2a9c1e7b3d5a8f0c6e2b9d1a7f3c5e8b0d4a62',
  WEB_ERR: '8c1e5a3f9d7b2c6e0a4f8d1b5c9e3a7f2d6b0c18',
  NET_LOSS: '1b7d3f9a5c2e8b4d0f6a1c7e3b9d5f2a8c4e0b37',
  NET_UTIL: '6e0a4c8f2b6d1a5e9c3f7b0d4a8e2c6f1b5d9a04',
  EDGE_BGP: 'a3c7e1b5d9f3a7c1e5b9d3f7a1c5e9b3d7f1a5c9',
  DB_LAG: 'd2f6a0c4e8b2d6f0a4c8e2b6d0f4a8c2e6b0d4f8',
  DB_QPS: '0e4b8f2c6a0e4b8f2c6a0e4b8f2c6a0e4b8f2c6a',
  PAY_AUTH: '7a1d5b9e3c7a1d5b9e3c7a1d5b9e3c7a1d5b9e3c',
};

function seedCore() {
  put('team', { _key: GLOBAL, title: 'Global', description: 'Objects visible to every user', acl: { read: ['*'], write: ['ops_admin'] } });
  put('team', {
    _key: 'NOC',
    title: 'NOC',
    description: 'Network operations centre',
    acl: { read: ['ops_team_admin'], write: ['ops_team_admin'] },
  });
  put('team', {
    _key: 'SRE',
    title: 'SRE',
    description: 'Site reliability engineering',
    acl: { read: ['ops_user'], write: ['ops_admin'] },
  });
  put('team', {
    _key: 'FIN',
    title: 'Finance Apps',
    description: 'Payment and ledger services',
    acl: { read: ['ops_admin'], write: ['ops_admin'] },
  });

  const svc = (key, title, team, kpis, extra = {}) =>
    put('service', {
      _key: key,
      title,
      description: `${title} service`,
      sec_grp: team,
      enabled: 1,
      backfill_enabled: false,
      is_healthscore_calculate_by_entity_enabled: 1,
      entity_rules: [
        {
          rule_condition: 'AND',
          rule_items: [{ field: 'host', field_type: 'alias', rule_type: 'matches', value: `${title.split(' ')[0].toLowerCase()}-*` }],
        },
      ],
      services_depends_on: [],
      tags: [],
      kpis: [
        kpi(`SHKPI-${key}`, 'ServiceHealthScore', key, title, { type: 'service_health', urgency: '11', threshold_field: 'aggregate' }),
        ...kpis.map(([k, t]) => kpi(k, t, key, title)),
      ],
      ...extra,
    });
  svc(IDS.S_WEB, 'Web Storefront', GLOBAL, [
    [K.WEB_LAT, 'Request Latency'],
    [K.WEB_ERR, 'Error Rate 5xx'],
  ]);
  svc(IDS.S_NET, 'Core Network', 'NOC', [
    [K.NET_LOSS, 'Packet Loss'],
    [K.NET_UTIL, 'Interface Utilization'],
  ]);
  svc(IDS.S_EDGE, 'Edge Routers', 'NOC', [[K.EDGE_BGP, 'BGP Session Flaps']], {
    services_depends_on: [{ serviceid: IDS.S_NET, kpis_depending_on: [`SHKPI-${IDS.S_NET}`] }],
  });
  svc(IDS.S_DB, 'Database Cluster', 'SRE', [
    [K.DB_LAG, 'Replication Lag'],
    [K.DB_QPS, 'Query Throughput'],
  ]);
  svc(IDS.S_PAY, 'Payments API', 'FIN', [[K.PAY_AUTH, 'Authorization Failures']]);
  const sample = load('ops-service-get-1.json');
  delete sample.permissions;
  put('service', sample);

  const ent = (key, title, team, services, extra = {}) =>
    put('entity', {
      _key: key,
      title,
      description: `${title} host`,
      sec_grp: team,
      _type: 'entity',
      identifier: { fields: ['host'], values: [title] },
      informational: { fields: ['os', 'site'], values: [extra.os || 'linux', extra.site || 'lon1'] },
      host: [title],
      os: [extra.os || 'linux'],
      site: [extra.site || 'lon1'],
      services: services.map((s) => ({ _key: s, title: db.core.service.get(s).title })),
      entity_type_ids: [],
      create_time: isoOffset(T0),
      mod_time: modTime(T0 + 60000),
      ...extra,
    });
  ent('fe428761-ebfc-431c-862c-b9ef79faaace', 'web-01', GLOBAL, [IDS.S_WEB]);
  ent('5b2ec957-d27c-4702-9c88-41305a5777c4', 'web-02', GLOBAL, [IDS.S_WEB]);
  ent('0c9d8e7f-6a5b-4c3d-2e1f-0a9b8c7d6e01', 'rtr-edge-01', 'NOC', [IDS.S_NET, IDS.S_EDGE], { os: 'ios-xr', site: 'ams2' });
  ent('1d2e3f4a-5b6c-4d7e-8f9a-0b1c2d3e4f02', 'db-01', 'SRE', [IDS.S_DB]);
  ent('2e3f4a5b-6c7d-4e8f-9a0b-1c2d3e4f5a03', 'legacy-batch-07', GLOBAL, [IDS.S_WEB], { retirable: 1 });
  ent('3f4a5b6c-7d8e-4f9a-0b1c-2d3e4f5a6b04', 'noc-sw-old-12', 'NOC', [IDS.S_NET], { retirable: 1, os: 'nx-os' });
  ent('4a5b6c7d-8e9f-4a0b-1c2d-3e4f5a6b7c05', 'pay-gw-01', 'FIN', [IDS.S_PAY]);

  put('base_service_template', {
    _key: '64b0c2d4e6f8a0b2c4d6e8f0',
    title: 'Web Tier Template',
    description: 'Template for web front ends',
    sec_grp: GLOBAL,
    entity_rules: [{ rule_condition: 'AND', rule_items: [{ field: 'role', field_type: 'info', rule_type: 'matches', value: 'web' }] }],
    kpis: [kpi('7d1e3a5c9b2f4d6a8c0e1b3d5f7a9c2e4b6d8f01', 'Request Latency', '', '')],
    linked_services: [],
  });
  const kbs = load('ops-kpi_base_search-get-1.json');
  put('kpi_base_search', kbs);
  put('kpi_base_search', {
    _key: '64b0c2d4e6f8a0b2c4d6e8f1',
    title: 'NOC interface counters',
    description: 'SNMP interface counters',
    sec_grp: 'NOC',
    base_search: 'index=snmp sourcetype=if_counters',
    alert_period: '5',
    alert_lag: '30',
    search_alert_earliest: '5',
    is_entity_breakdown: true,
    entity_id_fields: 'host',
    entity_breakdown_id_fields: 'host',
    metrics: [
      {
        _key: 'noc_if_err',
        title: 'Interface Errors',
        aggregate_statop: 'sum',
        entity_statop: 'sum',
        threshold_field: 'if_errors',
        unit: 'errors',
        fill_gaps: 'null_value',
        gap_severity: 'unknown',
        gap_severity_color: '#CCCCCC',
        gap_severity_color_light: '#EEEEEE',
        gap_severity_value: '-1',
        gap_custom_alert_value: '0',
      },
    ],
  });
  put('kpi_threshold_template', load('ops-kpi_threshold_template-get-1.json'));
  put('deep_dive', {
    _key: '64b0c2d4e6f8a0b2c4d6e8f2',
    title: 'Storefront Deep Dive',
    sec_grp: GLOBAL,
    lane_settings_collection: [],
    focus_id: '',
  });
  put('deep_dive', {
    _key: '64b0c2d4e6f8a0b2c4d6e8f3',
    title: 'NOC Overview Dive',
    sec_grp: 'NOC',
    lane_settings_collection: [],
    focus_id: '',
  });
  put('glass_table', {
    _key: '64b0c2d4e6f8a0b2c4d6e8f4',
    title: 'Executive Overview',
    sec_grp: GLOBAL,
    description: 'Top level health',
    definition: { layout: { type: 'absolute' }, visualizations: {} },
  });
  put('glass_table', {
    _key: '64b0c2d4e6f8a0b2c4d6e8f5',
    title: 'NOC Wall',
    sec_grp: 'NOC',
    description: 'Network wall board',
    definition: { layout: { type: 'absolute' }, visualizations: {} },
  });
  put('home_view', { _key: '64b0c2d4e6f8a0b2c4d6e8f6', title: 'Default Service Analyzer', sec_grp: GLOBAL, isDefault: true, tiles: [] });
  put('kpi_template', {
    _key: '64b0c2d4e6f8a0b2c4d6e8f7',
    title: 'Web KPI Template',
    sec_grp: GLOBAL,
    kpis: [kpi('9e8d7c6b5a4f3e2d1c0b9a8f7e6d5c4b3a2f1e0d', 'Request Latency', '', '')],
  });
  put('event_management_state', {
    _key: '64b0c2d4e6f8a0b2c4d6e8f8',
    title: 'Episode Review - default view',
    sec_grp: GLOBAL,
    viewingOption: 'standard',
    columnsToDisplay: ['severity', 'title', 'status', 'owner'],
  });
  put('entity_filter_rule', {
    _key: '64b0c2d4e6f8a0b2c4d6e8f9',
    title: 'Linux hosts',
    sec_grp: GLOBAL,
    entity_rules: [{ rule_condition: 'AND', rule_items: [{ field: 'os', field_type: 'info', rule_type: 'matches', value: 'linux' }] }],
  });
  put('entity_type', {
    _key: '64b0c2d4e6f8a0b2c4d6e8fa',
    title: '*nix',
    sec_grp: GLOBAL,
    description: 'Unix and Linux hosts',
    dashboard_drilldowns: [],
    data_drilldowns: [],
    vital_metrics: [],
  });
  put('entity_type', {
    _key: '64b0c2d4e6f8a0b2c4d6e8fb',
    title: 'Network Device',
    sec_grp: 'NOC',
    description: 'Routers and switches',
    dashboard_drilldowns: [],
    data_drilldowns: [],
    vital_metrics: [],
  });

  const now = Math.floor(Date.now() / 1000);
  const ctw = (key, title, team, status, linked, extra = {}) =>
    put('custom_threshold_windows', {
      _key: key,
      title,
      description: `${title} window`,
      pause_description: '',
      sec_grp: team,
      status,
      window_type: 'percentage',
      window_config_percentage: 150,
      window_config_static: {},
      start_time: now - 86400,
      end_time: now + 86400 * 3,
      duration: 345600,
      recurrence: false,
      next_scheduled_time: '',
      cron_schedule: '',
      linked_services: linked,
      ...extra,
    });
  ctw('65a1b2c3d4e5f6a7b8c9d0e1', 'Black Friday Surge', GLOBAL, 'Active', [
    { service_id: IDS.S_WEB, linked_kpi_ids: [K.WEB_LAT, K.WEB_ERR] },
  ]);
  ctw(
    '65a1b2c3d4e5f6a7b8c9d0e2',
    'NOC Change Freeze Dampening',
    'NOC',
    'Active',
    [{ service_id: IDS.S_NET, linked_kpi_ids: [K.NET_LOSS] }],
    { window_config_percentage: 80 },
  );
  ctw('65a1b2c3d4e5f6a7b8c9d0e3', 'Quarter Close', 'FIN', 'Stopped', [{ service_id: IDS.S_PAY, linked_kpi_ids: [K.PAY_AUTH] }], {
    last_stopped_time: now - 3600.25,
  });
  ctw('65a1b2c3d4e5f6a7b8c9d0e4', 'Holiday Low Traffic', GLOBAL, 'Scheduled', [], {
    window_type: 'static',
    window_config_percentage: 0,
    window_config_static: { severity: 'normal', value: 2 },
    recurrence: true,
    cron_schedule: '0 0 24 12 *',
    next_scheduled_time: '2025-12-24 00:00:00',
    duration: 172800,
  });
}

function seedMaint() {
  const now = Math.floor(Date.now() / 1000);
  const mw = (key, title, start, end, objects, lists, owner = 'admin') => {
    const o = {
      _key: key,
      title,
      start_time: start,
      end_time: end,
      objects,
      sec_grp_list: lists,
      sec_grp: lists[0],
      _owner: owner,
      comment: '',
    };
    common(o, 'maintenance_calendar');
    delete o.create_by;
    delete o.create_source;
    delete o.create_time;
    delete o.mod_time;
    delete o.mod_by;
    db.maint.set(key, o);
  };
  mw(
    '628c6b1dcde00363c71d6fec',
    'Storefront patching',
    now + 86400,
    now + 86400 + 7200.5,
    [{ object_type: 'service', _key: IDS.S_WEB }],
    [GLOBAL],
  );
  mw(
    '628c6b1dcde00363c71d6fed',
    'NOC fibre cut-over',
    now + 172800,
    now + 180000,
    [
      { object_type: 'service', _key: IDS.S_NET },
      { object_type: 'entity', _key: '0c9d8e7f-6a5b-4c3d-2e1f-0a9b8c7d6e01' },
    ],
    ['NOC'],
  );
  mw(
    '628c6b1dcde00363c71d6fee',
    'Payments PCI audit freeze',
    now + 3600,
    now + 10800,
    [{ object_type: 'service', _key: IDS.S_PAY }],
    ['FIN'],
  );
  mw(
    '628c6b1dcde00363c71d6fef',
    'Cross-team DC move',
    now + 604800,
    now + 648000,
    [
      { object_type: 'service', _key: IDS.S_WEB },
      { object_type: 'service', _key: IDS.S_NET },
    ],
    [GLOBAL, 'NOC'],
  );
  mw(
    '628c6b1dcde00363c71d6ff0',
    'Edge router firmware (in progress)',
    now - 3600,
    now + 18000,
    [{ object_type: 'service', _key: IDS.S_EDGE }],
    ['NOC'],
    'team_noc',
  );
}

function seedBackup() {
  const now = nowEpoch();
  const job = (key, title, jobType, status, extra = {}) => {
    const o = {
      _key: key,
      title,
      job_type: jobType,
      status,
      create_time: plainTime(Date.now() - 86400_000 * 3),
      start_time: 0,
      end_time: 0,
      last_queued_time: 0,
      path: '',
      search_head_id: 'sh-3f9a27c1',
      platform_server: 'ops-sh01.example.internal',
      rules: [],
      last_error: 'None',
      _owner: 'nobody',
      sec_grp: GLOBAL,
      ...extra,
    };
    common(o, 'backup_restore');
    delete o.create_by;
    delete o.create_source;
    delete o.mod_time;
    delete o.mod_by;
    db.backup.set(key, o);
  };
  job(DEFAULT_BACKUP_KEY, 'Default Scheduled Backup', 'Backup', 'Completed', {
    start_time: now - 43200,
    end_time: now - 43080.5,
    last_queued_time: now - 43260,
    path: '/opt/platform/var/ops/backups/default_scheduled_backup.zip',
    scheduled: 1,
    frequency: 'daily',
    scheduled_time: '01:00',
  });
  job('66b1c2d3e4f5a6b7c8d9e0f1', 'Pre-upgrade full backup', 'Backup', 'Completed', {
    start_time: now - 172800,
    end_time: now - 172500,
    last_queued_time: now - 172860,
    path: '/opt/platform/var/ops/backups/pre_upgrade.zip',
  });
  job('66b1c2d3e4f5a6b7c8d9e0f2', 'Nightly export', 'Backup', 'Queued', { last_queued_time: now - 120 });
  job('66b1c2d3e4f5a6b7c8d9e0f3', 'Restore rehearsal', 'Restore', 'Completed', {
    start_time: now - 90000,
    end_time: now - 89000,
    last_queued_time: now - 90060,
    path: '/opt/platform/var/ops/backups/pre_upgrade.zip',
    rules: [{ object_type: 'service', rule_type: 'include' }],
  });
}

function seedIcons() {
  db.iconCategories.push('Infrastructure', 'Cloud', 'Status', 'Security');
  const icon = (key, title, category, w, h) =>
    db.icons.set(key, {
      _key: key,
      title,
      svg_path: `M0 0 L${w} 0 L${w} ${h} L0 ${h} Z M${w / 4} ${h / 4} h${w / 2} v${h / 2} h-${w / 2} Z`,
      default_width: String(w),
      default_height: String(h),
      category,
      object_type: 'icon',
      _version: SCHEMA_VERSION,
      _user: 'nobody',
    });
  icon('0B1C2D3E-4F5A-4B6C-8D7E-9F0A1B2C3D01', 'Server', 'Infrastructure', 48, 64);
  icon('0B1C2D3E-4F5A-4B6C-8D7E-9F0A1B2C3D02', 'Router', 'Infrastructure', 64, 32);
  icon('0B1C2D3E-4F5A-4B6C-8D7E-9F0A1B2C3D03', 'Database', 'Infrastructure', 48, 48);
  icon('0B1C2D3E-4F5A-4B6C-8D7E-9F0A1B2C3D04', 'Cloud Region', 'Cloud', 80, 48);
  icon('0B1C2D3E-4F5A-4B6C-8D7E-9F0A1B2C3D05', 'OK Check', 'Status', 24, 24);
  icon('0B1C2D3E-4F5A-4B6C-8D7E-9F0A1B2C3D06', 'Warning', 'Status', 24, 24);
  icon('0B1C2D3E-4F5A-4B6C-8D7E-9F0A1B2C3D07', 'Fibre Link', 'NOC Custom', 96, 16);
}

export const EPISODES = {
  E1: 'b1362b69-24f1-49bd-a2c4-cf57de6b7e2a',
  E2: 'e28f6a23-e447-11e7-bf0b-acbc32b4d98f',
  E3: '7c4d2a91-5e3b-4f6a-8d2c-1b9e0f7a3c55',
  E4: 'a9f0e1d2-c3b4-4a5f-9e8d-7c6b5a4f3e66',
};

function seedEvents() {
  const t = 1757842200.125;
  const ep = (key, title, status, severity, owner, extra = {}) =>
    db.event.notable_event_group.set(key, {
      _key: key,
      event_id: key,
      title,
      description: `${title} (grouped by policy)`,
      status,
      severity,
      owner,
      object_type: 'notable_event_group',
      create_time: t,
      mod_time: t + 600,
      _owner: 'nobody',
      _user: 'nobody',
      drilldown: [],
      itsi_policy_id: 'ops_default_policy',
      service_ids: [],
      ...extra,
    });
  ep(EPISODES.E1, 'Web Storefront latency degraded', '2', '5', 'admin', {
    service_ids: [IDS.S_WEB],
    drilldown: [{ link: 'http://drill.down', name: 'DrilldownName' }],
  });
  ep(EPISODES.E2, 'Error found in ops_searches.log', '1', '3', 'unassigned');
  ep(EPISODES.E3, 'Core Network packet loss above 2%', '1', '6', 'unassigned', { service_ids: [IDS.S_NET] });
  ep(EPISODES.E4, 'Database replication lag recovered', '5', '2', 'cfg_admin', { service_ids: [IDS.S_DB] });

  const cs = (key, title, extra = {}) =>
    db.event.correlation_search.set(key, {
      _key: key,
      name: title,
      title,
      object_type: 'correlation_search',
      description: `${title} correlation search`,
      search: 'index=ops_summary alert_level>=4 | stats count by serviceid',
      disabled: 0,
      cron_schedule: '*/5 * * * *',
      dispatch_earliest_time: '-15m',
      dispatch_latest_time: 'now',
      'action.ops_event_generator.param.severity': '5',
      create_time: t,
      mod_time: t,
      _owner: 'nobody',
      _user: 'nobody',
      ...extra,
    });
  cs('Service Monitoring - KPI Degraded', 'Service Monitoring - KPI Degraded');
  cs('Host Down Detection', 'Host Down Detection', { disabled: 1 });

  const ap = (key, title, extra = {}) =>
    db.event.notable_aggregation_policy.set(key, {
      _key: key,
      title,
      object_type: 'notable_aggregation_policy',
      description: `${title} aggregation policy`,
      disabled: 0,
      group_severity: 'medium',
      split_by_field: 'service_ids',
      filter_criteria: { condition: 'AND', items: [] },
      breaking_criteria: { condition: 'OR', items: [] },
      create_time: t,
      mod_time: t,
      _owner: 'nobody',
      _user: 'nobody',
      ...extra,
    });
  ap('ops_default_policy', 'Default Policy', { is_default: 1 });
  ap('5f7e9d1c3b5a7e9d1c3b5a7e', 'NOC Network Episodes', { split_by_field: 'host' });

  const cm = (key, ev, text, tt) =>
    db.event.notable_event_comment.set(key, {
      _key: key,
      comment: text,
      event_id: ev,
      object_type: 'notable_event_comment',
      create_time: tt,
      mod_time: tt,
      user: 'admin',
      owner: 'admin',
      _owner: 'nobody',
      _user: 'nobody',
    });
  cm('5a3951ae9693fbcbf741b3ea', EPISODES.E1, 'Looking into the latency now', t + 700.5);
  cm('5a4c1b589693fb9dbf20acc2', EPISODES.E1, 'CDN purge completed, watching', t + 1800.25);
  cm('5a4c1b589693fb9dbf20acc3', EPISODES.E3, 'Fibre provider ticket opened', t + 900);

  db.event.notable_event_tag.set('5a4c14fb9693fb9dbf20acc1', {
    _key: '5a4c14fb9693fb9dbf20acc1',
    event_id: EPISODES.E1,
    tag_name: 'customer-impact',
    object_type: 'notable_event_tag',
    create_time: t + 650,
    mod_time: t + 650,
    user: 'admin',
    owner: 'admin',
    _owner: 'nobody',
    _user: 'nobody',
  });

  db.event.notable_event.set('e28f6a23-e447-11e7-bf0b-acbc32b4d98f', {
    _key: 'e28f6a23-e447-11e7-bf0b-acbc32b4d98f',
    event_id: 'e28f6a23-e447-11e7-bf0b-acbc32b4d98f',
    object_type: 'notable_event_state',
    title: 'Error found in ops_searches.log',
    description: 'Found error in source=ops_searches.log and host=sh01',
    severity: 'low',
    status: 'new',
    owner: 'admin',
    source: 'Test Correlation Search',
    host: 'sh01',
    create_time: t - 100,
    mod_time: t,
    _user: 'nobody',
  });

  const link = {
    _key: '1365ea26-d4ef-11ec-bb74-005056aa27a0',
    _user: 'nobody',
    event_id: EPISODES.E1,
    ticket_system: 'TicketDesk',
    object_type: 'external_ticket',
    create_time: t + 800,
    mod_time: t + 800,
    _version: SCHEMA_VERSION,
    tickets: [{ ticket_system: 'TicketDesk', ticket_url: 'https://ticketdesk.example.com/incident/INC1234567', ticket_id: 'INC1234567' }],
  };
  db.tickets.set(link._key, link);
}

function packObj(object_type, id, title, body = {}, extra = {}) {
  return {
    object_type,
    id,
    title,
    description: extra.description || `${title} (${object_type})`,
    entitlement_status: extra.entitlement_status !== false,
    has_dependency: Boolean(extra.has_dependency),
    body,
  };
}

function packServiceBody(id, title, kpis) {
  return {
    description: `${title} from content pack`,
    enabled: 1,
    entity_rules: [
      { rule_condition: 'AND', rule_items: [{ field: 'entity_type_ids', field_type: 'info', rule_type: 'matches', value: '*' }] },
    ],
    kpis: kpis.map(([k, t]) => kpi(k, t, id, title, { search_type: 'shared_base' })),
  };
}

function seedContentPacks() {
  const shot = (p) => ({ path: `/static/app/${p}/screenshots/overview.png`, thumb: `/static/app/${p}/screenshots/overview_thumb.png` });
  const mk = (id, version, title, form, objects, saved, extra = {}) => ({
    id,
    version,
    title,
    description: `${title}: services, KPIs and dashboards`,
    overview: `The ${title} content pack provides ready-made monitoring.`,
    author: 'Ops Content Team',
    icon: `/static/app/${id}/icon.png`,
    help_links: [`https://docs.example.com/content-packs/${id}/${version}`],
    screenshots: [shot(id), { path: `/static/app/${id}/screenshots/detail.png`, thumb: `/static/app/${id}/screenshots/detail_thumb.png` }],
    main_screenshot: shot(id),
    _form: form,
    _objects: objects,
    _saved_searches: saved,
    ...extra,
  });
  const unix = mk(
    'DA-OPS-CP-unix',
    '1.3.0',
    'Unix and Linux Monitoring',
    'new',
    [
      packObj(
        'service',
        'da-ops-cp-unix-os-metrics',
        'OS Metrics',
        packServiceBody('da-ops-cp-unix-os-metrics', 'OS Metrics', [
          ['cpunixkpi00000000000000000000000000000001', 'CPU Utilization'],
          ['cpunixkpi00000000000000000000000000000002', 'Memory Used'],
        ]),
        { has_dependency: true },
      ),
      packObj(
        'service',
        'da-ops-cp-unix-linux-hosts',
        'Linux Hosts Health',
        packServiceBody('da-ops-cp-unix-linux-hosts', 'Linux Hosts Health', [
          ['cpunixkpi00000000000000000000000000000003', 'Load Average'],
        ]),
        { has_dependency: true },
      ),
      packObj('kpi_base_search', 'da-ops-cp-unix-kbs-cpu', 'Unix CPU Base Search', {
        base_search: 'index=os sourcetype=cpu',
        disabled: 0,
        metrics: [],
      }),
      packObj('entity_type', 'da-ops-cp-unix-et-nix', '*nix (content pack)', { vital_metrics: [] }),
      packObj('glass_table', 'da-ops-cp-unix-gt-overview', 'Unix Overview', { definition: {} }, { has_dependency: true }),
      packObj('home_view', 'da-ops-cp-unix-sa', 'Unix Service Analyzer', { tiles: [] }),
      packObj('correlation_search', 'da-ops-cp-unix-cs-disk-full', 'Unix - Disk Full', {
        search: 'index=os sourcetype=df UsePct>95',
        cron_schedule: '*/10 * * * *',
      }),
      packObj('notable_aggregation_policy', 'da-ops-cp-unix-nap', 'Unix Episodes', { split_by_field: 'host' }),
    ],
    [
      { name: 'DA-OPS-CP-unix - Disk Usage Alert', disabled: 0 },
      { name: 'DA-OPS-CP-unix - CPU Summary Generator', disabled: 1 },
    ],
  );
  const awsObjects = [
    packObj(
      'service',
      'da-ops-cp-aws-ec2',
      'AWS EC2',
      packServiceBody('da-ops-cp-aws-ec2', 'AWS EC2', [['cpawskpi000000000000000000000000000000001', 'EC2 CPU Credit Balance']]),
      {
        has_dependency: true,
      },
    ),
    packObj(
      'service',
      'da-ops-cp-aws-s3',
      'AWS S3',
      packServiceBody('da-ops-cp-aws-s3', 'AWS S3', [['cpawskpi000000000000000000000000000000002', 'S3 4xx Errors']]),
    ),
    packObj('entity_type', 'da-ops-cp-aws-et-ec2', 'EC2 Instance', {}),
    packObj('glass_table', 'da-ops-cp-aws-gt', 'AWS Dashboard', { definition: {} }, { entitlement_status: false }),
  ];
  const aws2 = mk(
    'DA-OPS-CP-aws',
    '2.1.0',
    'Amazon Web Services',
    'new',
    [
      ...awsObjects,
      packObj('kpi_threshold_template', 'da-ops-cp-aws-ktt-cpu', 'AWS CPU Thresholds', {
        adaptive_thresholds_is_enabled: false,
        time_variate_thresholds: false,
      }),
      packObj('base_service_template', 'da-ops-cp-aws-bst-ec2', 'AWS EC2 Template', { entity_rules: [], kpis: [] }),
    ],
    [],
  );
  const aws1 = mk('DA-OPS-CP-aws', '1.4.0', 'Amazon Web Services', 'old', awsObjects.map(clone), []);
  const mon = mk(
    'DA-OPS-CP-monitoring-alerting',
    '1.0.2',
    'Monitoring and Alerting',
    'new',
    [
      packObj('correlation_search', 'da-ops-cp-ma-cs-kpi-degraded', 'Monitor Critical Service Based on HealthScore', {
        search: '`service_health_data` | where health_score<40',
      }),
      packObj(
        'correlation_search',
        'da-ops-cp-ma-cs-entity-degraded',
        'Entity Degraded',
        { search: '`entity_health_data` | where severity>=5' },
        { entitlement_status: false },
      ),
      packObj(
        'notable_aggregation_policy',
        'da-ops-cp-ma-nap-service',
        'Episodes by Service',
        { split_by_field: 'service_ids' },
        { has_dependency: true },
      ),
      packObj('deep_dive', 'da-ops-cp-ma-dd', 'Alerting Deep Dive', { lane_settings_collection: [] }),
      packObj('event_management_state', 'da-ops-cp-ma-ems', 'Alerting Episode View', { viewingOption: 'standard' }),
      packObj('team', 'da-ops-cp-ma-team', 'Alerting Content', { acl: { read: ['ops_admin'], write: ['ops_admin'] } }),
    ],
    [
      { name: 'DA-OPS-CP-monitoring-alerting - Episode Summary', disabled: 0 },
      { name: 'DA-OPS-CP-monitoring-alerting - SLA Breach', disabled: 0 },
    ],
  );
  const vmware = mk(
    'DA-OPS-CP-vmware',
    '1.0.0',
    'VMware vSphere',
    'new',
    [
      packObj(
        'service',
        'da-ops-cp-vmware-esxi',
        'ESXi Hosts',
        packServiceBody('da-ops-cp-vmware-esxi', 'ESXi Hosts', [['cpvmwkpi000000000000000000000000000000001', 'Datastore Latency']]),
      ),
    ],
    [],
  );
  for (const p of [unix, aws2, aws1, mon]) db.cpLibrary.set(`${p.id}@${p.version}`, p);
  db.cpLocalApps.set(unix.id, [unix]);
  db.cpLocalApps.set(aws2.id, [aws2, aws1]);
  db.cpLocalApps.set(mon.id, [mon]);
  db.cpLocalApps.set(vmware.id, [vmware]);
  db.cpLoadFailures.push({
    id: 'DA-OPS-CP-legacy-citrix',
    version: '0.9.1',
    message: 'Failed to load content pack: manifest.json is not valid JSON (line 14)',
  });

  const auth = (key, title, status, ops, plat, extra = {}) => {
    const o = {
      _key: key,
      title,
      description: `${title} description`,
      overview: `${title} overview`,
      cp_version: '1.0.0',
      metadata: { icon: null, main_screenshot: {}, screenshots: [] },
      ops_objects: ops,
      platform_objects: { dashboards: [], lookups: [], macros: [], props: [], savedsearches: [], transforms: [], ...plat },
      user_selected_objects: {
        ops_objects: clone(ops),
        platform_objects: { dashboards: [], lookups: [], macros: [], props: [], savedsearches: [], transforms: [], ...plat },
      },
      status,
      ...extra,
    };
    common(o, 'content_pack');
    delete o.create_by;
    delete o.create_source;
    delete o.create_time;
    delete o.mod_by;
    delete o.sec_grp;
    db.cpAuthoring.set(key, o);
  };
  auth(
    '67c1d2e3f4a5b6c7d8e9f0a1',
    'NOC Starter Pack',
    'Draft',
    { service: [IDS.S_NET, IDS.S_EDGE], glass_table: ['64b0c2d4e6f8a0b2c4d6e8f5'] },
    { dashboards: ['noc_wall_dashboard'], savedsearches: ['NOC - Link Down'] },
  );
  auth(
    '67c1d2e3f4a5b6c7d8e9f0a2',
    'Storefront Pack',
    'Generated',
    { service: [IDS.S_WEB], kpi_base_search: ['1234_bs'], correlation_search: ['Service Monitoring - KPI Degraded'] },
    { macros: ['storefront_index'], lookups: ['storefront_hosts.csv'] },
    {
      cp_version: '2.0.0',
      metadata: {
        icon: '/static/app/storefront/icon.png',
        main_screenshot: { path: '/static/app/storefront/main.png', thumb: '/static/app/storefront/main_thumb.png' },
        screenshots: [],
      },
    },
  );
  auth('67c1d2e3f4a5b6c7d8e9f0a3', 'Empty scratch pack', 'Incomplete', {}, {});
}

function versionEvents() {
  for (const store of Object.values(db.event)) for (const o of store.values()) if (o._version === undefined) o._version = SCHEMA_VERSION;
}

export function seed() {
  seedCore();
  seedMaint();
  seedBackup();
  seedIcons();
  seedEvents();
  seedContentPacks();
  versionEvents();
}
