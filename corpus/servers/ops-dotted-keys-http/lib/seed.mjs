// Seed data: teams, services with KPIs, entities, templates, windows, episodes, content packs, icons...
import { GLOBAL_TEAM, epochFloat, spaceSeconds, clone } from './util.mjs';
import { USERS, coll } from './store.mjs';
import { createObject } from './objects.mjs';
import { KINDS } from './core.mjs';
import { EVENT_KINDS, ACTIONS } from './events.mjs';
import { maintKind } from './maint.mjs';
import { backupKind, DEFAULT_BACKUP_KEY } from './backup.mjs';
import { cpKind } from './cpauthor.mjs';
import { packs, loadFailures, localApps, handleLibrary } from './cplibrary.mjs';

const EAST = 'team.ops:east';
const WEST = 'team.net:west';
const NORTH = 'team.dba:north';

const admin = { name: 'svc_conformance', ...USERS.svc_conformance };
const ctx = { user: admin, query: new URLSearchParams(), method: 'POST' };
const mk = (kind, obj) => createObject(kind, ctx, obj, { upsert: true }).key;

const LEVELS = {
  critical: [6, '#B50101', '#E5A6A6'],
  high: [5, '#F26A35', '#FBCBB9'],
  medium: [4, '#FCB64E', '#FEE6C1'],
  low: [3, '#FFE98C', '#FFF4C5'],
  normal: [2, '#99D18B', '#DCEFD7'],
  info: [1, '#AED3E5', '#E3F0F6'],
};
function thr(metric, levels, { min = 0, max = 100, base = 'normal' } = {}) {
  const [bv, bc, bl] = LEVELS[base];
  return {
    isMinStatic: true,
    isMaxStatic: false,
    gaugeMin: min,
    gaugeMax: max,
    renderBoundaryMin: min,
    renderBoundaryMax: max,
    baseSeverityValue: bv,
    metricField: metric,
    search: '',
    baseSeverityLabel: base,
    baseSeverityColor: bc,
    baseSeverityColorLight: bl,
    thresholdLevels: levels.map(([label, value]) => ({
      severityValue: LEVELS[label][0],
      thresholdValue: value,
      severityLabel: label,
      severityColor: LEVELS[label][1],
      severityColorLight: LEVELS[label][2],
      dynamicParam: 0,
    })),
  };
}
function kpi(key, title, o = {}) {
  const agg = thr(
    o.field || 'value',
    o.levels || [
      ['medium', 70],
      ['high', 85],
      ['critical', 95],
    ],
  );
  return {
    _key: key,
    title,
    type: 'kpis_primary',
    urgency: o.urgency || '5',
    search_type: o.search_type || 'shared_base',
    base_search_id: o.base || '',
    kpi_base_search: o.base || '',
    base_search_metric: o.metric || '',
    threshold_field: o.field || 'value',
    target: o.field || 'value',
    aggregate_statop: 'avg',
    entity_statop: 'avg',
    entity_id_fields: 'host',
    entity_breakdown_id_fields: 'host',
    entity_alias_filtering_fields: null,
    is_entity_breakdown: true,
    is_service_entity_filter: true,
    alert_on: 'both',
    alert_lag: '30',
    alert_period: '5',
    search_alert_earliest: '5',
    tz_offset: null,
    unit: o.unit || '',
    enabled: 1,
    backfill_enabled: false,
    backfill_earliest_time: '-7d',
    adaptive_thresholding_training_window: '-7d',
    adaptive_thresholds_is_enabled: false,
    anomaly_detection_training_window: '-7d',
    anomaly_detection_is_enabled: false,
    gap_severity: 'unknown',
    gap_severity_color: '#CCCCCC',
    gap_severity_color_light: '#EEEEEE',
    gap_severity_value: '-1',
    fill_gaps: 'null_value',
    datamodel: { object: '', datamodel: '', field: '', owner_field: '' },
    datamodel_filter: [],
    aggregate_thresholds: agg,
    entity_thresholds: thr(o.field || 'value', []),
    time_variate_thresholds: Boolean(o.tvt),
    time_variate_thresholds_specification: {
      policies: {
        default_policy: {
          title: 'Default',
          policy_type: 'static',
          aggregate_thresholds: clone(agg),
          entity_thresholds: thr(o.field || 'value', []),
          time_blocks: [],
        },
        ...(o.tvt
          ? {
              night_policy: {
                title: 'Night hours',
                policy_type: 'static',
                aggregate_thresholds: thr(o.field || 'value', [['high', 60]]),
                entity_thresholds: thr(o.field || 'value', []),
                time_blocks: [],
              },
            }
          : {}),
      },
      time_blocks: o.tvt
        ? [
            { policy_key: 'night_policy', time_block_key: '00-00' },
            { policy_key: 'night_policy', time_block_key: '05-10' },
          ]
        : [],
    },
  };
}
const rule = (field, value, type = 'alias') => ({
  rule_condition: 'AND',
  rule_items: [{ field, field_type: type, rule_type: 'matches', value }],
});

export function seed() {
  // ---------------------------------------------------------------- teams
  mk(KINDS.team, {
    _key: GLOBAL_TEAM,
    title: 'Global',
    description: 'Objects visible to every team',
    acl: { read: ['ops_user', 'ops_admin'], write: ['ops_admin'], owner: 'nobody' },
  });
  mk(KINDS.team, {
    _key: EAST,
    title: 'Team Ops East',
    description: 'Operations, eastern data centres',
    acl: { read: ['ops_team_admin'], write: ['ops_team_admin'], owner: 'nobody' },
  });
  mk(KINDS.team, {
    _key: WEST,
    title: 'Team Net West',
    description: 'Network engineering, west region',
    acl: { read: ['ops_user'], write: ['ops_admin'], owner: 'nobody' },
  });
  mk(KINDS.team, {
    _key: NORTH,
    title: 'team dba north',
    description: 'Database administrators',
    acl: { read: ['ops_admin'], write: ['ops_admin'], owner: 'nobody' },
  });

  // ---------------------------------------------------------------- base searches & threshold templates
  mk(KINDS.kpi_base_search, {
    _key: 'kbs.000075:s1',
    title: 'Web Access Metrics',
    description: 'Access log metrics for the web tier',
    sec_grp: GLOBAL_TEAM,
    base_search: 'index=web sourcetype=access_combined',
    entity_id_fields: 'host',
    entity_breakdown_id_fields: 'host',
    entity_alias_filtering_fields: 'host',
    is_entity_breakdown: true,
    is_service_entity_filter: true,
    alert_period: '5',
    alert_lag: '30',
    search_alert_earliest: '5',
    metric_qualifier: '',
    actions: '',
    metrics: [
      {
        _key: 'bsm.000076:l1',
        title: 'Request Latency',
        threshold_field: 'response_ms',
        aggregate_statop: 'avg',
        entity_statop: 'avg',
        unit: 'ms',
        fill_gaps: 'null_value',
        gap_severity: 'unknown',
        gap_severity_color: '#CCCCCC',
        gap_severity_color_light: '#EEEEEE',
        gap_severity_value: '-1',
        gap_custom_alert_value: '0',
      },
      {
        _key: 'bsm.000077:e5',
        title: 'HTTP 5xx Count',
        threshold_field: 'status_5xx',
        aggregate_statop: 'sum',
        entity_statop: 'sum',
        unit: '',
        fill_gaps: 'null_value',
        gap_severity: 'unknown',
        gap_severity_color: '#CCCCCC',
        gap_severity_color_light: '#EEEEEE',
        gap_severity_value: '-1',
        gap_custom_alert_value: '0',
      },
    ],
  });
  mk(KINDS.kpi_base_search, {
    _key: 'kbs.000078:s2',
    title: 'east batch metrics',
    description: 'Scheduler metrics of the east batch platform',
    sec_grp: EAST,
    base_search: 'index=batch_east sourcetype=scheduler',
    entity_id_fields: 'host',
    is_entity_breakdown: true,
    is_service_entity_filter: false,
    alert_period: '15',
    alert_lag: '60',
    search_alert_earliest: '15',
    metrics: [
      {
        _key: 'bsm.000079:d1',
        title: 'Job Duration',
        threshold_field: 'duration_s',
        aggregate_statop: 'max',
        entity_statop: 'avg',
        unit: 's',
      },
    ],
  });
  mk(KINDS.kpi_threshold_template, {
    _key: 'ktt.000080:p1',
    title: 'Stdev, 3 sigma, 7 day window',
    description: 'Adaptive standard deviation thresholds',
    sec_grp: GLOBAL_TEAM,
    adaptive_thresholding_training_window: '-7d',
    adaptive_thresholds_is_enabled: true,
    time_variate_thresholds: true,
    time_variate_thresholds_specification: {
      policies: {
        default_policy: {
          title: 'default_policy',
          policy_type: 'stdev',
          aggregate_thresholds: thr('', [
            ['high', 3],
            ['medium', 2],
          ]),
          entity_thresholds: thr('', []),
          time_blocks: [],
        },
      },
    },
  });
  mk(KINDS.kpi_threshold_template, {
    _key: 'ktt.000081:p2',
    title: 'East static business hours',
    description: 'Static thresholds for business hours',
    sec_grp: EAST,
    time_variate_thresholds: false,
    adaptive_thresholds_is_enabled: false,
  });

  // ---------------------------------------------------------------- templates
  mk(KINDS.base_service_template, {
    _key: 'bst.000070:t1',
    title: 'Web Tier Template',
    description: 'Standard web tier service',
    sec_grp: GLOBAL_TEAM,
    entity_rules: [rule('role', 'web*', 'info')],
    kpis: [kpi('kpi.000071:tt', 'Request Latency', { base: 'kbs.000075:s1', metric: 'bsm.000076:l1', field: 'response_ms', unit: 'ms' })],
  });
  mk(KINDS.base_service_template, {
    _key: 'bst.000072:t2',
    title: 'east pipeline template',
    description: 'Batch pipeline service template',
    sec_grp: EAST,
    entity_rules: [rule('host', 'batch-worker-*')],
    kpis: [],
  });

  // ---------------------------------------------------------------- services
  mk(KINDS.service, {
    _key: 'svc.000042:7k',
    title: 'Web Storefront',
    description: 'Customer-facing web shop',
    sec_grp: GLOBAL_TEAM,
    enabled: 1,
    entity_rules: [rule('host', 'web-*')],
    service_tags: { tags: ['web', 'tier1'] },
    services_depends_on: [],
    kpis: [
      kpi('kpi.000043:a1', 'Request Latency', {
        base: 'kbs.000075:s1',
        metric: 'bsm.000076:l1',
        field: 'response_ms',
        unit: 'ms',
        urgency: '8',
        tvt: true,
      }),
      kpi('kpi.000044:b2', 'HTTP 5xx Errors', { base: 'kbs.000075:s1', metric: 'bsm.000077:e5', field: 'status_5xx', urgency: '11' }),
    ],
  });
  mk(KINDS.service, {
    _key: 'svc.000045:q3',
    title: 'payments API',
    description: 'Card payment gateway',
    sec_grp: GLOBAL_TEAM,
    enabled: 1,
    entity_rules: [rule('host', 'pay-*')],
    service_tags: { tags: ['payments'] },
    services_depends_on: [{ serviceid: 'svc.000042:7k', kpis_depending_on: ['SHKPI-svc.000042:7k'] }],
    kpis: [
      kpi('kpi.000046:c3', 'Transaction Rate', {
        search_type: 'adhoc',
        field: 'tps',
        unit: 'tx/s',
        levels: [
          ['low', 10],
          ['normal', 50],
        ],
      }),
      kpi('kpi.000047:d4', 'Error Ratio', { search_type: 'adhoc', field: 'error_pct', unit: '%' }),
    ],
  });
  mk(KINDS.service, {
    _key: 'svc.000048:m9',
    title: 'Edge Router Fleet',
    description: 'Border routers',
    sec_grp: WEST,
    enabled: 1,
    entity_rules: [rule('host', 'edge-rtr-*')],
    kpis: [kpi('kpi.000049:f5', 'Packet Loss', { search_type: 'adhoc', field: 'loss_pct', unit: '%' })],
  });
  mk(KINDS.service, {
    _key: 'svc.000050:x2',
    title: 'Order Database',
    description: 'Primary order store',
    sec_grp: NORTH,
    enabled: 1,
    kpis: [kpi('kpi.000051:g6', 'Replication Lag', { search_type: 'adhoc', field: 'lag_s', unit: 's' })],
  });
  mk(KINDS.service, {
    _key: 'svc.000052:e4',
    title: 'East Batch Pipeline',
    description: 'Nightly batch jobs in the east DC',
    sec_grp: EAST,
    enabled: 1,
    entity_rules: [rule('host', 'batch-worker-*')],
    kpis: [
      kpi('kpi.000053:h7', 'Job Duration', { base: 'kbs.000078:s2', metric: 'bsm.000079:d1', field: 'duration_s', unit: 's' }),
      kpi('kpi.000054:i8', 'Queue Depth', { search_type: 'adhoc', field: 'queue_depth' }),
    ],
  });
  mk(KINDS.service, {
    _key: 'svc.000055:z8',
    title: 'east inventory sync',
    description: 'Stock level synchronisation',
    sec_grp: EAST,
    enabled: 0,
    kpis: [kpi('kpi.000056:j9', 'Sync Errors', { search_type: 'adhoc', field: 'errors' })],
  });
  // payments API is linked to the web tier template
  const pay = coll('service').get('svc.000045:q3');
  pay.base_service_template_id = 'bst.000070:t1';
  const tpl = coll('base_service_template').get('bst.000070:t1');
  tpl.linked_services = ['svc.000045:q3'];
  tpl.total_linked_services = 1;

  // ---------------------------------------------------------------- entities
  const ent = (key, title, team, host, services, extra = {}) =>
    mk(KINDS.entity, {
      _key: key,
      title,
      description: extra.description || `Host ${host}`,
      sec_grp: team,
      identifier: { fields: ['host'], values: [host] },
      informational: { fields: ['os', 'ip'], values: [extra.os || 'linux', extra.ip || '10.0.0.1'] },
      host: [host],
      os: [extra.os || 'linux'],
      ip: [extra.ip || '10.0.0.1'],
      entity_type_ids: extra.types || ['ety.000090:y1'],
      services: services.map((s) => ({ _key: s })),
      ...(extra.retirable ? { retirable: 1 } : {}),
    });
  ent('ent.000060:h1', 'web-01.prod', GLOBAL_TEAM, 'web-01.prod', ['svc.000042:7k'], { ip: '10.1.0.11' });
  ent('ent.000061:h2', 'web-02.prod', GLOBAL_TEAM, 'web-02.prod', ['svc.000042:7k'], { ip: '10.1.0.12', retirable: true });
  ent('ent.000066:h3', 'Legacy-Web-09', GLOBAL_TEAM, 'legacy-web-09', [], { ip: '10.1.0.99', retirable: true, os: 'solaris' });
  ent('ent.000067:p1', 'pay-gw-1', GLOBAL_TEAM, 'pay-gw-1', ['svc.000045:q3'], { ip: '10.2.0.5' });
  ent('ent.000062:r1', 'edge-rtr-1', WEST, 'edge-rtr-1', ['svc.000048:m9'], { os: 'routeros', ip: '10.9.0.1', types: ['ety.000091:y2'] });
  ent('ent.000063:d1', 'db-primary-1', NORTH, 'db-primary-1', ['svc.000050:x2'], { ip: '10.3.0.7' });
  ent('ent.000064:b1', 'batch-worker-7', EAST, 'batch-worker-7', ['svc.000052:e4'], { ip: '10.4.0.7', retirable: true });
  ent('ent.000065:b2', 'batch-worker-8', EAST, 'batch-worker-8', [], { ip: '10.4.0.8' });
  ent('ent.000068:b3', 'batch-worker-9', EAST, 'batch-worker-9', ['svc.000052:e4', 'svc.000055:z8'], { ip: '10.4.0.9' });
  const w8 = coll('entity').get('ent.000065:b2');
  w8.retired = 1;
  w8.retired_time = epochFloat() - 86400 * 3;

  // ---------------------------------------------------------------- other core objects
  const g = (type, key, title, team, extra = {}) =>
    mk(KINDS[type], { _key: key, title, sec_grp: team, description: extra.description || `${title}`, ...extra });
  g('entity_type', 'ety.000090:y1', '*nix host', GLOBAL_TEAM, {
    description: 'Unix and Linux servers',
    vital_metrics: [{ title: 'CPU Usage', search: 'index=os cpu' }],
    data_drilldowns: [],
    dashboard_drilldowns: [],
  });
  g('entity_type', 'ety.000091:y2', 'Router', WEST, {
    description: 'Network routers',
    vital_metrics: [],
    data_drilldowns: [],
    dashboard_drilldowns: [],
  });
  g('deep_dive', 'dd.000082:v1', 'Storefront Triage', GLOBAL_TEAM, {
    focus_id: 'svc.000042:7k',
    lane_settings_collection: [{ title: 'Request Latency', laneType: 'kpi' }],
  });
  g('deep_dive', 'dd.000083:v2', 'East Batch Investigation', EAST, { focus_id: 'svc.000052:e4', lane_settings_collection: [] });
  g('glass_table', 'gt.000084:g1', 'Executive Overview', GLOBAL_TEAM, {
    svg_content: '<svg/>',
    content: [],
    latest: 'now',
    earliest: '-60m',
  });
  g('glass_table', 'gt.000085:g2', 'East Ops Board', EAST, { svg_content: '<svg/>', content: [], latest: 'now', earliest: '-4h' });
  g('home_view', 'hv.000086:a1', 'Default Service Analyzer', GLOBAL_TEAM, { isDefault: true, serviceFilter: [] });
  g('home_view', 'hv.000087:a2', 'east analyzer', EAST, { isDefault: false, serviceFilter: ['svc.000052:e4'] });
  g('kpi_template', 'kt.000088:k1', 'Web KPIs', GLOBAL_TEAM, { kpis: [kpi('kpi.000089:kt', 'Request Latency')] });
  g('event_management_state', 'ems.000092:s1', 'Episode Review - Default', GLOBAL_TEAM, {
    viewingOption: 'standard',
    columns: ['severity', 'title', 'status', 'owner'],
  });
  g('event_management_state', 'ems.000093:s2', 'Episode Review - East', EAST, {
    viewingOption: 'standard',
    columns: ['severity', 'title'],
  });
  g('entity_filter_rule', 'efr.000094:f1', 'Linux hosts', GLOBAL_TEAM, { entity_rules: [rule('os', 'linux', 'info')] });
  g('entity_relationship', 'erl.000095:r1', 'web-01 hosts storefront', GLOBAL_TEAM, {
    subject_identifier: 'web-01.prod',
    predicate: 'hosts',
    object_identifier: 'storefront',
  });
  g('entity_relationship_rule', 'err.000096:r2', 'Hosts rule', GLOBAL_TEAM, {
    subject_type: 'host',
    predicate: 'hosts',
    object_type_name: 'application',
  });

  // ---------------------------------------------------------------- custom threshold windows
  const now = Math.floor(Date.now() / 1000);
  mk(KINDS.custom_threshold_windows, {
    _key: 'ctw.000097:w1',
    title: 'Black Friday Peak',
    description: 'Raise thresholds during the sale',
    sec_grp: GLOBAL_TEAM,
    status: 'Active',
    window_type: 'percentage',
    window_config_percentage: 40,
    start_time: now - 3600,
    end_time: now + 86400 * 2,
    duration: 86400 * 2 + 3600,
    recurrence: false,
    cron_schedule: '',
    next_scheduled_time: '',
    linked_services: [{ service_id: 'svc.000042:7k', linked_kpi_ids: ['kpi.000043:a1', 'kpi.000044:b2'] }],
  });
  mk(KINDS.custom_threshold_windows, {
    _key: 'ctw.000098:w2',
    title: 'quarterly close dip',
    description: 'Lower traffic expected',
    pause_description: 'Stopped after the close finished',
    sec_grp: GLOBAL_TEAM,
    status: 'stopped',
    window_type: 'static',
    window_config_static: { severity_value: 2, severity_label: 'normal' },
    start_time: now - 86400 * 10,
    end_time: now - 86400 * 9,
    last_stopped_time: now - 86400 * 9 - 600,
    duration: 86400,
    recurrence: true,
    cron_schedule: '0 0 1 */3 *',
    next_scheduled_time: '2030-01-01 00:00:00',
    linked_services: [{ service_id: 'svc.000045:q3', linked_kpi_ids: ['kpi.000046:c3'] }],
  });
  mk(KINDS.custom_threshold_windows, {
    _key: 'ctw.000099:w3',
    title: 'East Batch Night Window',
    description: 'Batch jobs run long at night',
    sec_grp: EAST,
    status: 'active',
    window_type: 'percentage',
    window_config_percentage: 60,
    start_time: now - 600,
    end_time: now + 3600 * 6,
    recurrence: true,
    cron_schedule: '0 22 * * *',
    next_scheduled_time: '2030-01-01 22:00:00',
    linked_services: [{ service_id: 'svc.000052:e4', linked_kpi_ids: ['kpi.000053:h7'] }],
  });
  mk(KINDS.custom_threshold_windows, {
    _key: 'ctw.000100:w4',
    title: 'Storefront load test',
    description: 'Overlaps the peak window on purpose',
    sec_grp: GLOBAL_TEAM,
    status: 'active',
    window_type: 'percentage',
    window_config_percentage: 20,
    start_time: now,
    end_time: now + 7200,
    linked_services: [{ service_id: 'svc.000042:7k', linked_kpi_ids: ['kpi.000043:a1'] }],
  });

  // ---------------------------------------------------------------- maintenance windows
  mk(maintKind, {
    _key: 'mw.000101:a1',
    title: 'Storefront patching',
    comment: 'Monthly OS patches',
    start_time: now + 86400,
    end_time: now + 86400 + 7200,
    objects: [{ object_type: 'service', _key: 'svc.000042:7k' }],
  });
  mk(maintKind, {
    _key: 'mw.000102:a2',
    title: 'East worker reboot',
    comment: 'Kernel upgrade',
    start_time: now - 1800,
    end_time: now + 1800.5,
    objects: [{ object_type: 'entity', _key: 'ent.000064:b1' }],
  });
  mk(maintKind, {
    _key: 'mw.000103:a3',
    title: 'router firmware',
    comment: '',
    start_time: now + 3600 * 30,
    end_time: now + 3600 * 31,
    objects: [{ object_type: 'service', _key: 'svc.000048:m9' }],
  });
  mk(maintKind, {
    _key: 'mw.000104:a4',
    title: 'Cross-team DR test',
    comment: 'Global + east',
    start_time: now + 86400 * 7,
    end_time: now + 86400 * 7 + 14400,
    objects: [
      { object_type: 'service', _key: 'svc.000042:7k' },
      { object_type: 'service', _key: 'svc.000052:e4' },
    ],
  });
  mk(maintKind, {
    _key: 'mw.000105:a5',
    title: 'East sync freeze',
    comment: '',
    start_time: now + 600,
    end_time: now + 4200,
    objects: [{ object_type: 'service', _key: 'svc.000055:z8' }],
  });

  // ---------------------------------------------------------------- backup/restore jobs
  const bk = (obj, created) => {
    const k = mk(backupKind, obj);
    coll('backup_restore').get(k).create_time = spaceSeconds(created * 1000);
    return k;
  };
  bk(
    {
      _key: DEFAULT_BACKUP_KEY,
      title: 'Default Scheduled Backup',
      job_type: 'Backup',
      status: 'Completed',
      scheduled: 1,
      frequency: 'weekly',
      backup_type: 'full',
      start_time: now - 86400,
      end_time: now - 86400 + 420,
      last_queued_time: now - 86400 - 5,
      path: '/opt/platform/var/ops/backups/default/backup.zip',
      rules: [],
    },
    now - 86400 * 90,
  );
  bk(
    {
      _key: 'bkp.000106:b1',
      title: 'Pre-upgrade backup',
      job_type: 'Backup',
      status: 'Completed',
      start_time: now - 7200,
      end_time: now - 6900,
      last_queued_time: now - 7210,
      path: '/opt/platform/var/ops/backups/pre-upgrade/backup.zip',
      rules: [{ object_type: 'service', _key: 'svc.000042:7k' }],
    },
    now - 7300,
  );
  bk(
    {
      _key: 'bkp.000107:b2',
      title: 'restore drill',
      job_type: 'Restore',
      status: 'Queued',
      path: '/opt/platform/var/ops/backups/pre-upgrade/backup.zip',
      rules: [],
    },
    now - 60,
  );
  bk(
    {
      _key: 'bkp.000108:b3',
      title: 'East nightly backup',
      job_type: 'Backup',
      status: 'Completed',
      sec_grp: EAST,
      start_time: now - 40000,
      end_time: now - 39700,
      last_queued_time: now - 40010,
      path: '/opt/platform/var/ops/backups/east/backup.zip',
      rules: [],
    },
    now - 40100,
  );

  // ---------------------------------------------------------------- event management
  const ev = (type, obj) => mk(EVENT_KINDS[type], obj);
  ev('correlation_search', {
    _key: 'cs.000110:c1',
    title: 'Web 5xx spike',
    description: 'More than 50 server errors in 5 minutes',
    search: 'index=web status>=500 | stats count | where count>50',
    disabled: 0,
    cron_schedule: '*/5 * * * *',
    severity: '5',
    sec_grp: GLOBAL_TEAM,
  });
  ev('correlation_search', {
    _key: 'cs.000111:c2',
    title: 'east batch overrun',
    description: 'Batch job exceeds its window',
    search: 'index=batch_east duration_s>3600',
    disabled: 1,
    cron_schedule: '0 * * * *',
    severity: '4',
    sec_grp: EAST,
  });
  ev('notable_aggregation_policy', {
    _key: 'nap.000112:n1',
    title: 'Default Policy',
    description: 'Groups events by source',
    disabled: 0,
    group_severity: 'highest',
    priority: 5,
    sec_grp: GLOBAL_TEAM,
  });
  ev('notable_aggregation_policy', {
    _key: 'nap.000113:n2',
    title: 'East Batch Policy',
    description: 'Groups batch events per job',
    disabled: 0,
    group_severity: 'last',
    priority: 3,
    sec_grp: EAST,
  });
  const epi = (key, title, team, status, severity, services) =>
    ev('notable_event_group', {
      _key: key,
      event_id: key,
      title,
      description: `${title} (auto-grouped)`,
      status,
      severity,
      owner: 'unassigned',
      drilldown: [],
      service_ids: services,
      sec_grp: team,
    });
  epi('epi.000114:e1', 'Web Storefront latency degraded', GLOBAL_TEAM, '2', '5', ['svc.000042:7k']);
  epi('epi.000115:e2', 'Payments API error burst', GLOBAL_TEAM, '1', '6', ['svc.000045:q3']);
  epi('epi.000116:e3', 'East batch backlog', EAST, '1', '4', ['svc.000052:e4']);
  epi('epi.000117:e4', 'Router packet loss', WEST, '4', '3', ['svc.000048:m9']);
  ev('notable_event_comment', { event_id: 'epi.000114:e1', comment: 'Investigating CDN cache misses' });
  ev('notable_event_comment', { event_id: 'epi.000114:e1', comment: 'Rolled back release 2024.18' });
  ev('notable_event_comment', { event_id: 'epi.000116:e3', comment: 'Queue drained after restart' });
  ev('notable_event_tag', { event_id: 'epi.000114:e1', tag_name: 'customer-impact' });
  ev('notable_event_tag', { event_id: 'epi.000116:e3', tag_name: 'batch' });
  const tk = (key, ep, system, tickets, team) => {
    const t = {
      _key: key,
      event_id: ep,
      ticket_system: system,
      sec_grp: team,
      tickets: tickets.map(([id, url]) => ({ ticket_system: system, ticket_url: url, ticket_id: id })),
    };
    mk(EVENT_KINDS.external_ticket, t);
  };
  tk('tkt.000118:t1', 'epi.000114:e1', 'ServiceNow', [['INC0012345', 'https://tickets.example.com/INC0012345']], GLOBAL_TEAM);
  tk('tkt.000119:t2', 'epi.000116:e3', 'Remedy', [['TKT-778', 'https://remedy.example.com/TKT-778']], EAST);
  void ACTIONS;

  // ---------------------------------------------------------------- content pack library
  const item = (id, title, description, object = {}, extra = {}) => ({ id, title, description, object, ...extra });
  const svcObj = (kpis) => ({ enabled: 0, entity_rules: [], kpis });
  packs.set('DA-OPS-CP-unix-dashboards', {
    id: 'DA-OPS-CP-unix-dashboards',
    title: 'Unix and Linux Monitoring',
    version: '1.3.0',
    author: 'Ops Content Team',
    description: 'Monitor *nix hosts: CPU, memory, disk and network.',
    overview: 'Provides entity types, KPI base searches and dashboards for *nix hosts.',
    icon: '/static/app/DA-OPS-CP-unix-dashboards/icon.png',
    help_links: ['https://docs.example.com/cp/unix'],
    installed_versions: [],
    screenshots: [
      { path: '/static/cp/unix/1.png', thumb: '/static/cp/unix/1_thumb.png' },
      { path: '/static/cp/unix/2.png', thumb: '/static/cp/unix/2_thumb.png' },
    ],
    main_screenshot: { path: '/static/cp/unix/1.png', thumb: '/static/cp/unix/1_thumb.png' },
    _contents: {
      entity_types: [item('ety.cp-unix:nix', 'Unix Host', 'Entity type for Unix and Linux hosts', { vital_metrics: [] })],
      kpi_base_searches: [
        item(
          'kbs.cp-unix:os',
          'OS Performance',
          'CPU and memory base search',
          { base_search: 'index=os sourcetype=vmstat', metrics: [] },
          { has_dependency: true },
        ),
      ],
      services: [
        item('svc.cp-unix:fleet', 'Unix Fleet', 'All Unix hosts', svcObj([kpi('kpi.cp-unix:cpu', 'CPU Utilization')]), {
          has_dependency: true,
        }),
        item('svc.cp-unix:storage', 'Unix Storage', 'Disk usage of Unix hosts', svcObj([kpi('kpi.cp-unix:disk', 'Disk Usage')])),
      ],
      glass_tables: [item('gt.cp-unix:overview', 'Unix Overview', 'Glass table for the fleet', { content: [] })],
      service_analyzers: [
        item(
          'hv.cp-unix:analyzer',
          'Unix Analyzer',
          'Service analyzer for Unix services',
          { serviceFilter: [] },
          { entitlement_status: false },
        ),
      ],
    },
    _saved_searches: [
      { name: 'OPS Unix - Host inventory', enabled: true },
      { name: 'OPS Unix - Disk forecast', enabled: true, error: 'Macro "unix_disk_index" is not defined' },
    ],
  });
  packs.set('DA-OPS-CP-aws-dashboards', {
    id: 'DA-OPS-CP-aws-dashboards',
    title: 'cloud provider monitoring',
    version: '2.1.1',
    author: 'Ops Content Team',
    description: 'Dashboards and services for a public cloud account.',
    overview: 'EC2, load balancers and billing.',
    icon: '/static/app/DA-OPS-CP-aws-dashboards/icon.png',
    help_links: [],
    installed_versions: [],
    screenshots: [],
    main_screenshot: { path: '/static/cp/aws/main.png', thumb: '/static/cp/aws/main_thumb.png' },
    _contents: {
      services: [item('svc.cp-aws:ec2', 'Compute Instances', 'Instance health', svcObj([kpi('kpi.cp-aws:cpu', 'Instance CPU')]))],
      entity_types: [item('ety.cp-aws:vm', 'Cloud VM', 'Virtual machine entity type')],
      correlation_searches: [
        item('cs.cp-aws:billing', 'Billing anomaly', 'Unexpected cost increase', {
          search: 'index=billing | anomalydetection cost',
          disabled: 1,
        }),
      ],
      aggregation_policies: [item('nap.cp-aws:default', 'Cloud events policy', 'Groups cloud alerts by account', { disabled: 1 })],
    },
    _saved_searches: [],
  });
  packs.set('DA-OPS-CP-windows.dashboards', {
    id: 'DA-OPS-CP-windows.dashboards',
    title: 'Windows Monitoring',
    version: '1.6.0',
    author: 'Ops Content Team',
    description: 'Monitor Windows servers.',
    overview: 'Entity types, services and saved searches for Windows.',
    icon: '/static/app/DA-OPS-CP-windows.dashboards/icon.png',
    help_links: ['https://docs.example.com/cp/windows', 'https://docs.example.com/cp/windows/release-notes'],
    installed_versions: [],
    screenshots: [{ path: '/static/cp/win/1.png', thumb: '/static/cp/win/1_thumb.png' }],
    main_screenshot: { path: '/static/cp/win/1.png', thumb: '/static/cp/win/1_thumb.png' },
    _contents: {
      entity_types: [item('ety.cp-win:host', 'Windows Host', 'Windows server entity type')],
      services: [item('svc.cp-win:ad', 'Directory Services', 'Domain controllers', svcObj([kpi('kpi.cp-win:repl', 'Replication Errors')]))],
      deep_dives: [item('dd.cp-win:ad', 'Directory Deep Dive', 'Drill into domain controllers', { lane_settings_collection: [] })],
    },
    _saved_searches: [
      { name: 'OPS Windows - Event log errors', enabled: true },
      { name: 'OPS Windows - Patch status', enabled: false },
    ],
  });
  packs.set('DA-OPS-CP-monitoring-migration', {
    id: 'DA-OPS-CP-monitoring-migration',
    title: 'Monitoring Migration',
    version: '1.0.2',
    author: 'Ops Services',
    description: 'Helpers for migrating from an older monitoring tool.',
    overview: 'Older-format content pack.',
    icon: '/static/app/DA-OPS-CP-monitoring-migration/icon.png',
    help_links: [],
    installed_versions: [],
    screenshots: [],
    main_screenshot: { path: '', thumb: '' },
    _older_form: true,
    _contents: {
      glass_tables: [item('gt.cp-mig:status', 'Migration Status', 'Migration progress board', { content: [] })],
      entity_types: [item('ety.cp-mig:legacy', 'Legacy Host', 'Hosts imported from the old tool')],
    },
    _saved_searches: [],
  });
  loadFailures.push({
    id: 'DA-OPS-CP-broken-pack',
    title: 'Broken Pack',
    version: '0.9.0',
    error_message: 'Failed to parse app.conf: missing [launcher] stanza',
  });
  localApps.set('DA-OPS-CP-vmware-dashboards', {
    id: 'DA-OPS-CP-vmware-dashboards',
    title: 'Virtualization Monitoring',
    version: '1.2.0',
    author: 'Ops Content Team',
    description: 'Hypervisor and datastore monitoring.',
    overview: 'Present on disk, not yet in ops_content_packs.conf.',
    icon: '/static/app/DA-OPS-CP-vmware-dashboards/icon.png',
    help_links: [],
    installed_versions: [],
    screenshots: [],
    main_screenshot: { path: '', thumb: '' },
    _contents: { entity_types: [item('ety.cp-vmw:hv', 'Hypervisor', 'Hypervisor hosts')] },
    _saved_searches: [],
  });
  // the migration pack is installed already
  handleLibrary({ ...ctx, json: async () => ({}) }, ['DA-OPS-CP-monitoring-migration', '1.0.2', 'install']).catch((e) =>
    process.stderr.write(`seed install failed: ${e.message}\n`),
  );

  // ---------------------------------------------------------------- custom content packs
  mk(cpKind, {
    _key: 'cpa.000120:k1',
    title: 'Storefront Bundle',
    description: 'Web storefront monitoring',
    overview: 'Services, KPIs and glass table of the storefront',
    cp_version: '1.2.0',
    status: 'Generated',
    sec_grp: GLOBAL_TEAM,
    metadata: {
      icon: 'storefront.png',
      main_screenshot: { path: 'main.png', thumb: 'main_thumb.png' },
      screenshots: [{ path: 's1.png', thumb: 's1_thumb.png' }],
    },
    ops_objects: {
      service: ['svc.000042:7k', 'svc.000045:q3'],
      kpi_base_search: ['kbs.000075:s1'],
      glass_table: ['gt.000084:g1'],
      correlation_search: ['cs.000110:c1'],
    },
    platform_objects: {
      dashboards: ['storefront_overview'],
      lookups: ['store_regions.csv'],
      macros: ['web_index'],
      props: [],
      savedsearches: ['Storefront - errors'],
      transforms: [],
    },
    user_selected_objects: { ops_objects: { service: ['svc.000042:7k'] }, platform_objects: { dashboards: ['storefront_overview'] } },
  });
  mk(cpKind, {
    _key: 'cpa.000121:k2',
    title: 'east ops starter',
    description: 'Draft pack of the east team',
    overview: '',
    cp_version: '0.1.0',
    status: 'Draft',
    sec_grp: EAST,
    metadata: { icon: null, main_screenshot: {}, screenshots: [] },
    ops_objects: { service: ['svc.000052:e4'], team: [EAST], deep_dive: ['dd.000083:v2'] },
    platform_objects: { dashboards: [], lookups: [], macros: [], props: [], savedsearches: [], transforms: [] },
    user_selected_objects: { ops_objects: { service: ['svc.000052:e4'] }, platform_objects: {} },
  });
  mk(cpKind, {
    _key: 'cpa.000122:k3',
    title: 'Network Essentials',
    description: 'Routers and links',
    overview: 'Generation failed: lookup missing',
    cp_version: '2.0.0',
    status: 'Failed',
    sec_grp: WEST,
    metadata: { icon: 'net.png', main_screenshot: {}, screenshots: [] },
    ops_objects: { service: ['svc.000048:m9'], entity_type: ['ety.000091:y2'] },
    platform_objects: { dashboards: ['net_overview'], lookups: ['routers.csv'], macros: [], props: [], savedsearches: [], transforms: [] },
  });
  mk(cpKind, {
    _key: 'cpa.000123:k4',
    title: 'Payments Pack',
    description: 'Payments API monitoring',
    overview: '',
    cp_version: '1.0.0',
    status: 'Queued',
    sec_grp: GLOBAL_TEAM,
    ops_objects: { service: ['svc.000045:q3'], notable_aggregation_policy: ['nap.000112:n1'], base_service_template: ['bst.000070:t1'] },
  });

  // ---------------------------------------------------------------- icons
  const icon = (key, title, category, w, h) =>
    coll('icon').set(key, {
      _key: key,
      title,
      svg_path: `M0 0 L${w} 0 L${w} ${h} Z`,
      default_width: String(w),
      default_height: String(h),
      category,
      _owner: 'nobody',
      _user: 'nobody',
      _version: '4.20.0',
      mod_timestamp: '2024-03-01T10:00:00.000000+00:00',
      object_type: 'icon',
    });
  icon('ico.000130:i1', 'Rack Server', 'Server', 48, 64);
  icon('ico.000131:i2', 'blade server', 'Server', 32, 64);
  icon('ico.000132:i3', 'Router', 'Network', 48, 48);
  icon('ico.000133:i4', 'Database Cylinder', 'Database', 40, 56);
  icon('ico.000134:i5', 'Cloud', 'Cloud', 64, 40);
  icon('ico.000135:i6', 'Disk Array', 'Storage', 56, 48);
  icon('ico.000136:i7', 'Shopping Cart', 'Custom Shapes', 36, 36);
  icon('ico.000137:i8', 'credit card', 'Custom Shapes', 48, 30);
}
