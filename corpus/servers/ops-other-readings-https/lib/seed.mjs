// Seed data so that every documented endpoint has something to return.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { GLOBAL, clone, nowMicros, isoWithOffset, epochSeconds, plainTimeString } from './util.mjs';
import { TEAM_DB, TEAM_NET, TEAM_FIN, USERS } from './access.mjs';
import { core, maintenance, backup, events, tickets, authored, icons, library, savedSearches, stamp, metaOf } from './store.mjs';
import { ACTIONS, ACTION_CONFIG } from './events.mjs';
import { DEFAULT_BACKUP_KEY } from './maint.mjs';
import { coreHooks } from './core.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const sample = (f) => JSON.parse(fs.readFileSync(path.join(here, 'seeddata', f), 'utf8'));
const ctx = { pathUser: 'nobody', user: { name: 'root_ops', ...USERS.root_ops } };

function put(coll, doc, { version } = {}) {
  doc.object_type = coll.name;
  stamp(doc, ctx);
  if (version) doc._version = version;
  coll.put(doc._key, doc);
  return doc;
}

function kpi(key, title, serviceId, extra = {}) {
  return {
    _key: key,
    title,
    service_id: serviceId,
    type: 'kpis_primary',
    urgency: '5',
    target: 'value',
    search_type: 'adhoc',
    threshold_field: 'value',
    alert_on: 'both',
    alert_lag: '30',
    alert_period: '5',
    search_alert_earliest: '5',
    entity_statop: 'avg',
    aggregate_statop: 'avg',
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
    entity_thresholds: {
      isMinStatic: true,
      isMaxStatic: false,
      gaugeMin: 0,
      gaugeMax: 100,
      renderBoundaryMin: 0,
      renderBoundaryMax: 100,
      baseSeverityValue: 2,
      metricField: 'value',
      search: '',
      baseSeverityLabel: 'normal',
      baseSeverityColor: '#99D18B',
      baseSeverityColorLight: '#DCEFD7',
      thresholdLevels: [
        { severityValue: 4, thresholdValue: 70, severityLabel: 'medium', severityColor: '#FCB64E', severityColorLight: '#FEE6C1' },
        { severityValue: 6, thresholdValue: 90, severityLabel: 'critical', severityColor: '#B50101', severityColorLight: '#E5A6A6' },
      ],
    },
    time_variate_thresholds_specification: {
      policies: {
        default_policy: {
          title: 'Default',
          policy_type: 'static',
          aggregate_thresholds: {
            isMinStatic: true,
            isMaxStatic: false,
            gaugeMin: 0,
            gaugeMax: 100,
            renderBoundaryMin: 0,
            renderBoundaryMax: 100,
            baseSeverityValue: 2,
            metricField: 'value',
            search: '',
            baseSeverityLabel: 'normal',
            baseSeverityColor: '#99D18B',
            baseSeverityColorLight: '#DCEFD7',
            thresholdLevels: [],
          },
          entity_thresholds: {
            isMinStatic: true,
            isMaxStatic: false,
            gaugeMin: 0,
            gaugeMax: 100,
            renderBoundaryMin: 0,
            renderBoundaryMax: 100,
            baseSeverityValue: 2,
            metricField: 'value',
            search: '',
            baseSeverityLabel: 'normal',
            baseSeverityColor: '#99D18B',
            baseSeverityColorLight: '#DCEFD7',
            thresholdLevels: [],
          },
        },
      },
      time_blocks: [{ policy_key: 'default_policy', time_block_key: '00-00' }],
    },
    ...extra,
  };
}

export function seed() {
  // ---- teams
  put(
    core.team,
    {
      _key: GLOBAL,
      title: 'Global',
      description: 'Default team; objects in it are visible to every ops user',
      sec_grp: GLOBAL,
      acl: { read: ['ops_user'], write: ['ops_admin'] },
    },
    { version: '4.11.5' },
  );
  put(core.team, {
    _key: TEAM_DB,
    title: 'Database Team',
    description: 'DBA on-call',
    sec_grp: GLOBAL,
    acl: { read: ['ops_team_admin', 'ops_admin'], write: ['ops_team_admin', 'ops_admin'] },
  });
  put(core.team, {
    _key: TEAM_NET,
    title: 'Network Team',
    description: 'NOC',
    sec_grp: GLOBAL,
    acl: { read: ['ops_user', 'ops_admin'], write: ['ops_admin'] },
  });
  put(core.team, {
    _key: TEAM_FIN,
    title: 'Finance Team',
    description: 'Finance applications',
    sec_grp: GLOBAL,
    acl: { read: ['ops_admin'], write: ['ops_admin'] },
  });

  // ---- services
  const sh = sample('service-system-health.json');
  delete sh.permissions;
  put(core.service, sh, { version: '4.11.5' });
  const tf = sample('service-tf.json');
  tf._key = 'c7a1f0e2-checkout-api';
  tf.title = 'Checkout API';
  tf.description = 'Customer checkout API tier';
  tf.sec_grp = GLOBAL;
  for (const k of tf.kpis) {
    k.service_id = tf._key;
    k.service_title = tf.title;
  }
  put(core.service, tf);
  put(core.service, {
    _key: 'd4b6c8e0-db-cluster',
    title: 'Database Cluster',
    description: 'Primary OLTP cluster',
    sec_grp: TEAM_DB,
    enabled: 1,
    entity_rules: [{ rule_condition: 'AND', rule_items: [{ field: 'host', field_type: 'alias', rule_type: 'matches', value: 'db*' }] }],
    services_depends_on: [],
    kpis: [
      kpi('a1b2c3d4e5f60718293a4b5c6d7e8f9012345678', 'Replication Lag', 'd4b6c8e0-db-cluster'),
      kpi('b2c3d4e5f60718293a4b5c6d7e8f9012345678a1', 'Query Latency p95', 'd4b6c8e0-db-cluster'),
    ],
  });
  put(core.service, {
    _key: 'e5f7a9b1-core-network',
    title: 'Core Network',
    description: 'Backbone routers',
    sec_grp: TEAM_NET,
    enabled: 1,
    entity_rules: [],
    services_depends_on: [],
    kpis: [kpi('c3d4e5f60718293a4b5c6d7e8f9012345678a1b2', 'Packet Loss %', 'e5f7a9b1-core-network')],
  });
  put(core.service, {
    _key: 'f6a8b0c2-payroll-batch',
    title: 'Payroll Batch',
    description: 'Nightly payroll jobs',
    sec_grp: TEAM_FIN,
    enabled: 0,
    entity_rules: [],
    services_depends_on: [],
    kpis: [kpi('d4e5f60718293a4b5c6d7e8f9012345678a1b2c3', 'Job Duration', 'f6a8b0c2-payroll-batch')],
  });

  // ---- entities
  const ent = (key, title, grp, host, services, extra = {}) =>
    put(core.entity, {
      _key: key,
      title,
      description: `${title} host`,
      sec_grp: grp,
      _type: 'entity',
      create_by: 'admin',
      create_source: 'manual',
      create_time: isoWithOffset(nowMicros() - 86400e6 * 30),
      mod_by: 'admin',
      entity_type_ids: ['*nix'],
      identifier: { fields: ['host'], values: [host] },
      informational: { fields: ['os'], values: ['linux'] },
      host: [host],
      os: ['linux'],
      services: services.map((s) => ({ _key: s })),
      ...extra,
    });
  ent('fe428761-ebfc-431c-862c-b9ef79faaace', 'web01.example.net', GLOBAL, 'web01.example.net', [sh._key, tf._key]);
  ent('5b2ec957-d27c-4702-9c88-41305a5777c4', 'web02.example.net', GLOBAL, 'web02.example.net', [tf._key], { retirable: 1 });
  ent('0a1b2c3d-db01', 'db01.example.net', TEAM_DB, 'db01.example.net', ['d4b6c8e0-db-cluster'], { retirable: 1 });
  ent('1b2c3d4e-db02', 'db02.example.net', TEAM_DB, 'db02.example.net', ['d4b6c8e0-db-cluster']);
  ent('2c3d4e5f-rtr01', 'rtr01.example.net', TEAM_NET, 'rtr01.example.net', ['e5f7a9b1-core-network'], {
    retirable: 1,
    informational: { fields: ['os', 'vendor'], values: ['ios-xe', 'cisco'] },
    os: ['ios-xe'],
    vendor: ['cisco'],
  });
  ent('3d4e5f60-fin01', 'fin-batch01.example.net', TEAM_FIN, 'fin-batch01.example.net', ['f6a8b0c2-payroll-batch']);
  const old = ent('4e5f6071-web03', 'web03.example.net', GLOBAL, 'web03.example.net', [], { retired: 1, retirable: 1 });
  metaOf(old._key).retiredLinks = [{ _key: sh._key }];

  // ---- other core objects
  put(core.base_service_template, {
    _key: '7f1e2d3c-web-tier-template',
    title: 'Web Tier Template',
    description: 'Template for web front ends',
    sec_grp: GLOBAL,
    entity_rules: [{ rule_condition: 'AND', rule_items: [{ field: 'host', field_type: 'alias', rule_type: 'matches', value: 'web*' }] }],
    kpis: [kpi('e5f60718293a4b5c6d7e8f9012345678a1b2c3d4', 'HTTP 5xx Rate', '')],
    linked_services: [],
    total_linked_services: 0,
  });
  put(core.base_service_template, {
    _key: '8a2b3c4d-db-template',
    title: 'Database Template',
    description: 'Template for database clusters',
    sec_grp: GLOBAL,
    entity_rules: [{ rule_condition: 'OR', rule_items: [{ field: 'role', field_type: 'info', rule_type: 'matches', value: 'database' }] }],
    kpis: [],
    linked_services: [],
    total_linked_services: 0,
  });
  put(core.kpi_base_search, sample('kpi-base-search.json'));
  put(core.kpi_base_search, {
    _key: '5678_bs',
    title: 'DB performance base search',
    description: 'Shared DB perf metrics',
    sec_grp: TEAM_DB,
    base_search: 'index=db sourcetype=db:perf',
    alert_lag: '30',
    alert_period: '5',
    search_alert_earliest: '5',
    entity_id_fields: 'host',
    entity_breakdown_id_fields: 'host',
    is_entity_breakdown: true,
    is_service_entity_filter: false,
    metric_qualifier: '',
    metrics: [
      {
        _key: '5678_lag',
        title: 'Replication lag',
        threshold_field: 'lag_seconds',
        entity_statop: 'max',
        aggregate_statop: 'max',
        unit: 's',
      },
    ],
  });
  put(core.kpi_threshold_template, {
    _key: '1234_tt',
    title: 'Standard deviation, 30 days',
    sec_grp: GLOBAL,
    ...sample('kpi-threshold-template.json'),
  });
  put(core.deep_dive, {
    _key: '9b3c4d5e-deep-dive',
    title: 'Checkout investigation',
    description: 'Lanes for checkout KPIs',
    sec_grp: GLOBAL,
    lane_settings_collection: [],
    focus_id: '',
  });
  put(core.glass_table, {
    _key: 'ac4d5e6f-noc-glass',
    title: 'NOC Overview',
    description: 'Wall screen',
    sec_grp: GLOBAL,
    content: [],
    svg_content: '',
    svg_coordinates: [],
  });
  put(core.home_view, { _key: 'bd5e6f70-analyzer', title: 'Default Service Analyzer', sec_grp: GLOBAL, isDefault: true, filter: {} });
  put(core.kpi_template, {
    _key: 'ce6f7081-os-kpis',
    title: 'Operating System KPIs',
    sec_grp: GLOBAL,
    kpis: [kpi('f60718293a4b5c6d7e8f9012345678a1b2c3d4e5', 'CPU Utilization %', '')],
  });
  put(core.event_management_state, {
    _key: 'df708192-ep-review',
    title: 'Episode review - my open episodes',
    sec_grp: GLOBAL,
    viewingOption: 'standard',
    earliest: '-24h',
    latest: 'now',
  });
  put(core.entity_filter_rule, { _key: 'e08192a3-filter', title: 'Linux hosts', sec_grp: GLOBAL, rule: [{ field: 'os', value: 'linux' }] });
  put(core.entity_type, {
    _key: '*nix',
    title: '*nix',
    description: 'Unix and Linux hosts',
    sec_grp: GLOBAL,
    data_drilldowns: [],
    dashboard_drilldowns: [],
    vital_metrics: [],
  });
  put(core.entity_type, {
    _key: 'windows',
    title: 'Windows',
    description: 'Windows hosts',
    sec_grp: GLOBAL,
    data_drilldowns: [],
    dashboard_drilldowns: [],
    vital_metrics: [],
  });
  put(core.entity_relationship, {
    _key: 'f192a3b4-rel',
    title: 'web01 hosts checkout',
    sec_grp: GLOBAL,
    subject_identifier: 'web01.example.net',
    object_identifier: 'checkout',
    predicate: 'hosts',
  });
  put(core.entity_relationship_rule, {
    _key: '02a3b4c5-relrule',
    title: 'VM hosted by hypervisor',
    sec_grp: GLOBAL,
    rule_type: 'splunk_search',
  });
  const now = epochSeconds(nowMicros());
  put(core.custom_threshold_windows, {
    _key: '13b4c5d6-black-friday',
    title: 'Black Friday',
    description: 'Raise thresholds during the sale',
    pause_description: '',
    status: 'active',
    window_type: 'percentage',
    window_config_percentage: 25,
    window_config_static: {},
    start_time: now - 3600,
    end_time: now + 86400,
    last_stopped_time: 0,
    next_scheduled_time: '',
    cron_schedule: '',
    duration: 90000,
    recurrence: false,
    linked_services: [
      { service_id: sh._key, linked_kpi_ids: [sh.kpis[0]._key] },
      { service_id: tf._key, linked_kpi_ids: tf.kpis.slice(0, 2).map((k) => k._key) },
    ],
    sec_grp: GLOBAL,
    sec_grp_list: [GLOBAL],
  });
  put(core.custom_threshold_windows, {
    _key: '24c5d6e7-db-patch',
    title: 'DB patch night',
    description: 'Index rebuild',
    pause_description: 'done early',
    status: 'stopped',
    window_type: 'static',
    window_config_percentage: 0,
    window_config_static: { severity: 'normal' },
    start_time: now - 86400 * 3,
    end_time: now - 86400 * 2,
    last_stopped_time: now - 86400 * 2 - 600,
    next_scheduled_time: '',
    cron_schedule: '0 1 * * 6',
    duration: 7200,
    recurrence: true,
    linked_services: [{ service_id: 'd4b6c8e0-db-cluster', linked_kpi_ids: ['a1b2c3d4e5f60718293a4b5c6d7e8f9012345678'] }],
    sec_grp: TEAM_DB,
    sec_grp_list: [TEAM_DB],
  });
  put(core.custom_threshold_windows, {
    _key: '35d6e7f8-db-load',
    title: 'DB load test',
    description: 'Synthetic load',
    pause_description: '',
    status: 'active',
    window_type: 'percentage',
    window_config_percentage: 50,
    window_config_static: {},
    start_time: now - 600,
    end_time: now + 7200,
    last_stopped_time: 0,
    next_scheduled_time: '',
    cron_schedule: '',
    duration: 7800,
    recurrence: false,
    linked_services: [{ service_id: 'd4b6c8e0-db-cluster', linked_kpi_ids: ['b2c3d4e5f60718293a4b5c6d7e8f9012345678a1'] }],
    sec_grp: TEAM_DB,
    sec_grp_list: [TEAM_DB],
  });
  put(core.custom_threshold_windows, {
    _key: '46e7f809-net-upgrade',
    title: 'Network upgrade',
    description: 'Firmware rollout',
    pause_description: '',
    status: 'active',
    window_type: 'percentage',
    window_config_percentage: 40,
    window_config_static: {},
    start_time: now - 1200,
    end_time: now + 14400,
    last_stopped_time: 0,
    next_scheduled_time: '',
    cron_schedule: '',
    duration: 15600,
    recurrence: false,
    linked_services: [{ service_id: 'e5f7a9b1-core-network', linked_kpi_ids: ['c3d4e5f60718293a4b5c6d7e8f9012345678a1b2'] }],
    sec_grp: TEAM_NET,
    sec_grp_list: [TEAM_NET],
  });

  // ---- maintenance
  const mw = (key, title, grp, start, end, objects, owner) => {
    const d = put(maintenance.maintenance_calendar, {
      _key: key,
      title,
      comment: `${title} window`,
      start_time: start,
      end_time: end,
      objects,
      sec_grp: grp,
      sec_grp_list: [...new Set(objects.map((o) => (o.object_type === 'service' ? core.service : core.entity).get(o._key).sec_grp))],
      _owner: owner,
    });
    return d;
  };
  mw(
    '628c6b1dcde00363c71d6fec',
    'Quarterly OS patching',
    GLOBAL,
    now + 86400,
    now + 86400 + 7200.5,
    [
      { object_type: 'service', _key: sh._key },
      { object_type: 'entity', _key: 'fe428761-ebfc-431c-862c-b9ef79faaace' },
    ],
    'admin',
  );
  mw(
    '628c6b1dcde00363c71d6fed',
    'DB failover drill',
    TEAM_DB,
    now + 3600,
    now + 5400,
    [{ object_type: 'service', _key: 'd4b6c8e0-db-cluster' }],
    'team_db',
  );
  mw(
    '628c6b1dcde00363c71d6fee',
    'Core switch swap',
    TEAM_NET,
    now - 600,
    now + 3000,
    [{ object_type: 'entity', _key: '2c3d4e5f-rtr01' }],
    'admin',
  );
  mw(
    '628c6b1dcde00363c71d6fef',
    'Year-end freeze',
    TEAM_FIN,
    now + 86400 * 20,
    now + 86400 * 22,
    [{ object_type: 'service', _key: 'f6a8b0c2-payroll-batch' }],
    'admin',
  );
  put(maintenance.operative_maintenance_log, {
    _key: '628c6b1dcde00363c71d6ff0',
    title: 'Core switch swap (operative)',
    maintenance_object_key: '2c3d4e5f-rtr01',
    maintenance_object_type: 'entity',
    start_time: now - 600,
    end_time: now + 3000,
    sec_grp: GLOBAL,
    _owner: 'admin',
  });

  // ---- backup/restore
  const bj = (key, title, status, extra) =>
    put(backup.backup_restore, {
      _key: key,
      title,
      job_type: 'Backup',
      status,
      create_time: plainTimeString(nowMicros() - 86400e6),
      start_time: now - 86400,
      end_time: now - 86000,
      last_queued_time: now - 86410,
      path: `/opt/platform/var/ops/backups/${key}.zip`,
      search_head_id: '8F3C2B1A-5D4E-4F60-9A7B-1C2D3E4F5A6B',
      platform_server: 'sh01.ops.example.net',
      rules: [],
      last_error: '',
      sec_grp: GLOBAL,
      _owner: 'nobody',
      ...extra,
    });
  bj(DEFAULT_BACKUP_KEY, 'Default Scheduled Backup', 'Completed', {
    scheduled: 1,
    frequency: 'daily',
    description: 'Created by the product; cannot be deleted',
  });
  bj('5a6b7c8d9e0f1a2b3c4d5e6f', 'Pre-upgrade backup', 'Completed', { _owner: 'admin' });
  bj('6b7c8d9e0f1a2b3c4d5e6f7a', 'Nightly partial backup', 'Queued', {
    start_time: 0,
    end_time: 0,
    last_queued_time: now - 120,
    path: '',
    rules: [{ object_type: 'service' }],
  });

  // ---- event management
  const t0 = 1513704817.65209;
  const ev = (type, doc) => {
    events[type].put(doc._key, { object_type: type, _owner: 'nobody', _user: 'nobody', ...doc });
  };
  ev('correlation_search', {
    _key: 'Monitor Critical Service Based on HealthScore',
    name: 'Monitor Critical Service Based on HealthScore',
    title: 'Monitor Critical Service Based on HealthScore',
    disabled: '0',
    search: '`service_health_data` | where health_score < 20',
    cron_schedule: '*/5 * * * *',
    description: 'Critical health score',
  });
  ev('correlation_search', {
    _key: 'Normalized Correlation Search',
    name: 'Normalized Correlation Search',
    title: 'Normalized Correlation Search',
    disabled: '1',
    search: 'index=main error',
    cron_schedule: '*/15 * * * *',
    description: 'Errors in main',
  });
  ev('notable_event_group', {
    _key: 'b1362b69-24f1-49bd-a2c4-cf57de6b7e2a',
    event_id: 'b1362b69-24f1-49bd-a2c4-cf57de6b7e2a',
    title: 'Checkout latency degraded',
    status: '2',
    severity: '5',
    owner: 'admin',
    create_time: 1513639105.39,
    mod_time: 1514939410.21328,
    drilldown: [{ link: 'http://drill.down', name: 'DrilldownName' }],
  });
  ev('notable_event_group', {
    _key: 'e28f6a23-e447-11e7-bf0b-acbc32b4d98f',
    event_id: 'e28f6a23-e447-11e7-bf0b-acbc32b4d98f',
    title: 'Error found in ops_searches.log',
    status: '1',
    severity: '3',
    owner: 'unassigned',
    create_time: t0,
    mod_time: 1513705110.63463,
    drilldown: [],
  });
  ev('notable_event_aggregation_policy', {
    _key: 'itsi_default_policy',
    title: 'Default Policy',
    description: 'Groups events by source',
    disabled: 0,
    group_severity: 'medium',
    split_by_field: 'source',
  });
  ev('notable_event_comment', {
    _key: '5a3951ae9693fbcbf741b3ea',
    comment: 'test1',
    event_id: 'e28f6a23-e447-11e7-bf0b-acbc32b4d98f',
    create_time: 1513705902.56624,
    mod_time: 1513705929.34797,
    user: 'UNDEFINED_USERNAME',
    owner: 'UNDEFINED_USERNAME',
  });
  ev('notable_event_comment', {
    _key: '5a4c1b589693fb9dbf20acc2',
    comment: 'test',
    event_id: 'e28f6a23-e447-11e7-bf0b-acbc32b4d98f',
    create_time: 1514937176.58832,
    mod_time: 1514937176.58832,
    user: 'UNDEFINED_USERNAME',
    owner: 'UNDEFINED_USERNAME',
  });
  ev('notable_event_tag', {
    _key: '5a4c14fb9693fb9dbf20acc1',
    tag_name: 'test',
    event_id: 'e28f6a23-e447-11e7-bf0b-acbc32b4d98f',
    create_time: 1514935547.35519,
    mod_time: 1514935547.35519,
    user: 'UNDEFINED_USERNAME',
    owner: 'UNDEFINED_USERNAME',
  });
  ev('notable_event', {
    _key: 'e28f6a23-e447-11e7-bf0b-acbc32b4d98f',
    event_id: 'e28f6a23-e447-11e7-bf0b-acbc32b4d98f',
    object_type: 'notable_event_state',
    title: 'Error found in /Applications/Platform/var/log/platform/ops_searches.log',
    severity: 'low',
    status: 'new',
    owner: 'admin',
    create_time: t0,
    mod_time: 1513705110.63463,
    source: 'Test Correlation Search',
    host: 'akompotis2mbp15',
  });
  tickets.put('1365ea26-d4ef-11ec-bb74-005056aa27a0', {
    ticket_system: 'ServiceNow',
    _user: 'nobody',
    event_id: 'bdacec35-ac89-4e4b-b23c-518c51ca6ece',
    _key: '1365ea26-d4ef-11ec-bb74-005056aa27a0',
    tickets: [
      {
        ticket_system: 'ServiceNow',
        ticket_url: 'https://example.service-now.com/nav_to.do?uri=incident.do?sysparm_query=number=INC1234567',
        ticket_id: 'INC1234567',
      },
    ],
    object_type: 'external_ticket',
  });

  const action = (action_name, label, type, grp, once, sync, bulk) => ({
    label,
    type,
    is_group_compatible: grp,
    action_name,
    execute_once_per_group: once,
    execute_in_sync: sync,
    is_bulk_compatible: bulk,
  });
  ACTIONS.push(
    action('email', 'Send email', '', 1, '0', 0, '1'),
    action('script', 'Run a script', '', '1', 0, '0', 1),
    action('ops_event_action_link_ticket', 'Link ticket', '', 1, '1', '1', 0),
    action('ops_event_action_link_url', 'Link URL', '', '1', '1', 1, '0'),
    action('ops_event_action_send_to_orchestrator', 'Send to orchestrator', '', 1, 0, '0', '1'),
    action('ops_sample_event_action_ping', 'Ping host', '', '0', '0', 1, 0),
    action('snow_incident', 'ServiceNow Incident Integration', 'external_ticket', 1, '1', '0', 1),
    action('remedy_incident', 'Remedy Incident Integration', 'external_ticket', '1', 1, 0, '1'),
    action('pagerduty_alert', 'PagerDuty', '', 1, '1', '0', '1'),
  );
  for (const a of ACTIONS) {
    ACTION_CONFIG[a.action_name] = {
      ttl: '600',
      filename: a.action_name === 'script' ? 'run_remediation.sh' : '',
      track_alert: '0',
      maxresults: '10000',
      description: `${a.label} for an episode`,
      label: a.label,
      maxtime: '5m',
      disabled: '0',
      hostname: '',
      icon_path: `${a.action_name}.png`,
      command: `sendalert ${a.action_name} param.ids="$result.itsi_group_id$"`,
      'eai:userName': 'nobody',
      'eai:appName': 'SA-ITOA',
      'eai:acl': {
        app: 'SA-ITOA',
        owner: 'nobody',
        sharing: 'global',
        perms: { read: ['*'], write: ['admin'] },
        can_write: '1',
        modifiable: '1',
      },
    };
  }

  // ---- content pack library
  const shot = (n) => ({ path: `/static/app/SA-ITOA/cp/${n}.png`, thumb: `/static/app/SA-ITOA/cp/${n}_thumb.png` });
  library.packs.push({
    id: 'DA-OPS-CP-unix-dashboards',
    title: 'Monitoring Unix and Linux',
    description: 'Services and KPIs for *nix hosts',
    overview: 'Monitors CPU, memory, disk and network of Unix and Linux hosts.',
    author: 'Ops Content Team',
    version: '1.2.0',
    icon: '/static/app/SA-ITOA/cp/unix_icon.png',
    help_links: ['https://docs.example.com/cp/unix'],
    installed_versions: [],
    screenshots: [shot('unix1'), shot('unix2')],
    main_screenshot: shot('unix1'),
    objects: {
      entity_types: [
        { id: 'cp_unix_entity_type', title: 'Unix host', description: 'Entity type for Unix hosts', body: { data_drilldowns: [] } },
      ],
      kpi_base_searches: [
        {
          id: 'cp_unix_bs_os',
          title: 'OS metrics base search',
          description: 'CPU and memory',
          body: { base_search: '`unix_os`', metrics: [] },
        },
      ],
      services: [
        {
          id: 'cp_unix_svc_os',
          title: 'Unix OS',
          description: 'OS health of Unix hosts',
          depends_on: ['cp_unix_bs_os'],
          body: { kpis: [kpi('cp_unix_kpi_cpu', 'CPU %', 'cp_unix_svc_os')], entity_rules: [] },
        },
        { id: 'cp_unix_svc_disk', title: 'Unix Disk', description: 'Disk usage', body: { kpis: [], entity_rules: [] } },
      ],
      glass_tables: [{ id: 'cp_unix_gt', title: 'Unix overview', description: 'Glass table', body: { content: [] } }],
      saved_searches: [
        { id: 'Unix - collect inventory', title: 'Unix - collect inventory', description: 'Inventory search', disabled: true },
      ],
    },
  });
  library.packs.push({
    id: 'DA-OPS-CP-monitoring-alerting',
    title: 'Monitoring and Alerting',
    description: 'Correlation searches and aggregation policies',
    overview: 'Opinionated alerting for services.',
    author: 'Ops Content Team',
    version: '2.3.0',
    icon: '/static/app/SA-ITOA/cp/ma_icon.png',
    help_links: [],
    installed_versions: ['2.2.0'],
    screenshots: [shot('ma1')],
    main_screenshot: shot('ma1'),
    objects: {
      correlation_searches: [
        {
          id: 'cp_ma_cs_degraded',
          title: 'Service degraded',
          description: 'Service health below 60',
          body: { search: '`service_health_data`' },
        },
      ],
      notable_aggregation_policies: [
        { id: 'cp_ma_nap_service', title: 'Episodes by service', description: 'Group by service', body: { split_by_field: 'service' } },
      ],
      service_analyzers: [{ id: 'cp_ma_analyzer', title: 'Alerting analyzer', description: 'Home view', body: {} }],
    },
  });
  library.packs.push({
    id: 'DA-OPS-CP-aws-dashboards',
    title: 'Monitoring Amazon Web Services',
    description: 'AWS services',
    overview: 'EC2, ELB, RDS.',
    author: 'Ops Content Team',
    version: '2.0.1',
    icon: '',
    help_links: ['https://docs.example.com/cp/aws'],
    installed_versions: [],
    screenshots: [],
    main_screenshot: { path: '', thumb: '' },
    objects: {
      services: [{ id: 'cp_aws_ec2', title: 'AWS EC2', description: 'EC2 fleet', body: { kpis: [], entity_rules: [] } }],
      service_templates: [{ id: 'cp_aws_tpl', title: 'AWS EC2 template', description: 'Template', body: { kpis: [], entity_rules: [] } }],
    },
  });
  library.failures.push({
    id: 'DA-OPS-CP-vmware-legacy',
    title: 'VMware (legacy)',
    error: 'Failed to load content pack: missing manifest file content_pack.json',
  });

  // ---- authored content packs
  const cp = (key, title, status, opsObjects) => {
    const d = {
      _key: key,
      object_type: 'content_pack',
      title,
      description: `${title} description`,
      overview: `${title} overview`,
      cp_version: '1.0.0',
      metadata: { icon: null, main_screenshot: {}, screenshots: [] },
      ops_objects: opsObjects,
      platform_objects: {
        dashboards: ['checkout_dash'],
        lookups: [],
        macros: ['checkout_index'],
        props: [],
        savedsearches: [],
        transforms: [],
      },
      user_selected_objects: {
        ops_objects: clone(opsObjects),
        platform_objects: { dashboards: ['checkout_dash'], lookups: [], macros: [], props: [], savedsearches: [], transforms: [] },
      },
      status,
    };
    stamp(d, ctx);
    authored.put(key, d);
  };
  cp('6f0a1b2c3d4e5f6a7b8c9d0e', 'Checkout observability', 'Draft', { service: [tf._key], glass_table: ['ac4d5e6f-noc-glass'] });
  cp('7a1b2c3d4e5f6a7b8c9d0e1f', 'Health overview pack', 'Generated', {
    service: [sh._key],
    deep_dive: ['9b3c4d5e-deep-dive'],
    team: [GLOBAL],
  });

  // ---- icons
  const ic = (key, title, cat, w, h) =>
    icons.put(key, {
      _key: key,
      title,
      svg_path: `M0 0 L${w} 0 L${w} ${h} L0 ${h} Z`,
      default_width: String(w),
      default_height: String(h),
      category: cat,
    });
  ic('7b2c3d4e5f6a7b8c9d0e1f2a', 'Server', 'Default', 60, 80);
  ic('8c3d4e5f6a7b8c9d0e1f2a3b', 'Database', 'Default', 60, 60);
  ic('9d4e5f6a7b8c9d0e1f2a3b4c', 'Router', 'Infrastructure', 80, 40);
  ic('ae5f6a7b8c9d0e1f2a3b4c5d', 'Shopping cart', 'Retail', 48, 48);
  ic('bf6a7b8c9d0e1f2a3b4c5d6e', 'Payment terminal', 'Retail', 40, 64);
  savedSearches.set('Ops - nightly KPI summary', { pack: null, disabled: false });
  void coreHooks;
}
