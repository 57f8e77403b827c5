import { type Doc, newKey, epochNow, createTimeShort } from './util.js';
import { GLOBAL_TEAM, type User, coll, library, iconCategories, protectedKeys, type LibraryItem } from './store.js';
import { createObject } from './objects.js';

export const USERS: Record<string, { password: string; user: User }> = {
  root: { password: 'root-pw', user: { name: 'root', canWrite: true, readGlobal: true } },
  auditor: { password: 'auditor-pw', user: { name: 'auditor', canWrite: false, readGlobal: true } },
  teamwriter: { password: 'teamwriter-pw', user: { name: 'teamwriter', canWrite: true, readGlobal: false } },
};

const seedInfo = { defaultBackupKey: '', teamwriterTeam: '' };

function thresholds(metricField: string): Doc {
  return {
    isMinStatic: false,
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
      { severityValue: 4, thresholdValue: 70, severityLabel: 'medium', severityColor: '#FCB64E', severityColorLight: '#FEE6C1' },
      { severityValue: 5, thresholdValue: 85, severityLabel: 'high', severityColor: '#F26A35', severityColorLight: '#FBCBB9' },
      { severityValue: 6, thresholdValue: 95, severityLabel: 'critical', severityColor: '#B50101', severityColorLight: '#E5A6A6' },
    ],
  };
}

function timeVariate(): Doc {
  const blocks: Doc[] = [];
  for (let d = 0; d <= 5; d++) {
    for (const h of ['00', '10']) {
      blocks.push({ policy_key: d >= 5 ? 'weekend' : 'default_policy', time_block_key: `0${d}-${h}` });
    }
  }
  return {
    policies: {
      default_policy: {
        title: 'Default',
        aggregate_thresholds: thresholds('alert_value'),
        entity_thresholds: thresholds('alert_value'),
        policy_type: 'static',
      },
      weekend: {
        title: 'Weekend',
        aggregate_thresholds: thresholds('alert_value'),
        entity_thresholds: thresholds('alert_value'),
        policy_type: 'static',
      },
    },
    time_blocks: blocks,
  };
}

function kpi(title: string, serviceId: string, baseSearch = ''): Doc {
  return {
    _key: newKey(),
    title,
    service_id: serviceId,
    type: 'kpis_primary',
    urgency: '5',
    target: '',
    search_type: baseSearch ? 'shared_base' : 'adhoc',
    threshold_field: 'cpu_load_percent',
    kpi_base_search: baseSearch,
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
    entity_thresholds: thresholds('alert_value'),
    aggregate_thresholds: thresholds('alert_value'),
    time_variate_thresholds_specification: timeVariate(),
  };
}

const PLACEHOLDER_SVG = 'M0 0 L10 0 L10 10 L0 10 Z';

export function seed(): void {
  const root = USERS.root.user;
  // Teams
  createObject('core', 'team', { title: 'Global', description: 'Global team', acl: { read: ['*'], write: ['admin'] } }, root, GLOBAL_TEAM);
  protectedKeys.add(GLOBAL_TEAM);
  const twTeam = createObject(
    'core',
    'team',
    { title: 'Team Writer Team', description: 'Team owned by teamwriter', acl: { read: ['teamwriter'], write: ['teamwriter'] } },
    root,
  );
  seedInfo.teamwriterTeam = String(twTeam._key);
  USERS.teamwriter.user.team = seedInfo.teamwriterTeam;

  // Base search, service template, services, entities
  const bs = createObject(
    'core',
    'kpi_base_search',
    {
      title: 'OS Performance Base Search',
      description: 'Shared base search for OS metrics',
      base_search: 'index=os sourcetype=cpu',
      is_entity_breakdown: true,
      entity_id_fields: 'host',
      metrics: [
        { _key: newKey(), title: 'cpu_load_percent', threshold_field: 'cpu_load_percent', aggregate_statop: 'avg', entity_statop: 'avg' },
      ],
    },
    root,
  );
  const tmpl = createObject(
    'core',
    'base_service_template',
    {
      title: 'Linux Host Template',
      description: 'Template for Linux hosts',
      entity_rules: [{ rule_condition: 'AND', rule_items: [{ field: 'os', field_type: 'info', rule_type: 'matches', value: 'linux' }] }],
      kpis: [],
      linked_services: [],
    },
    root,
  );
  const svcKey = newKey();
  createObject(
    'core',
    'service',
    {
      title: 'Web Frontend',
      description: 'Customer facing web tier',
      enabled: 1,
      services_depends_on: [],
      tags: [],
      entity_rules: [{ rule_condition: 'AND', rule_items: [{ field: 'host', field_type: 'alias', rule_type: 'matches', value: 'web-*' }] }],
      kpis: [kpi('CPU Utilization', svcKey, String(bs._key)), kpi('Request Latency', svcKey)],
      base_service_template_id: '',
    },
    root,
    svcKey,
  );
  const twSvc = newKey();
  createObject(
    'core',
    'service',
    {
      title: 'Team Writer Service',
      description: 'Service in the teamwriter team',
      enabled: 1,
      sec_grp: seedInfo.teamwriterTeam,
      services_depends_on: [],
      tags: [],
      entity_rules: [],
      kpis: [kpi('Queue Depth', twSvc)],
    },
    root,
    twSvc,
  );
  void tmpl;

  const mkEntity = (title: string, host: string, os: string, retirable: number) =>
    createObject(
      'core',
      'entity',
      {
        title,
        description: `${title} host`,
        identifier: { fields: ['host'], values: [host] },
        informational: { fields: ['os'], values: [os] },
        host: [host],
        os: [os],
        services: [{ _key: svcKey, title: 'Web Frontend' }],
        _type: 'entity',
        ...(retirable ? { retirable } : {}),
      },
      root,
    );
  mkEntity('web-01', 'web-01', 'linux', 0);
  mkEntity('web-02', 'web-02', 'linux', 0);
  mkEntity('web-old-03', 'web-old-03', 'linux', 1);

  createObject(
    'core',
    'entity_type',
    { title: 'Unix/Linux Add-on', description: 'Linux hosts', data_drilldowns: [], dashboard_drilldowns: [], vital_metrics: [] },
    root,
  );
  createObject(
    'core',
    'kpi_threshold_template',
    {
      title: '3-hour blocks every day (static)',
      description: 'Static thresholds in time blocks',
      adaptive_thresholds_is_enabled: false,
      adaptive_thresholding_training_window: '-7d',
      time_variate_thresholds: true,
      time_variate_thresholds_specification: timeVariate(),
    },
    root,
  );
  createObject('core', 'glass_table', { title: 'Operations Overview', description: 'Main glass table', content: {} }, root);
  createObject('core', 'deep_dive', { title: 'Web Deep Dive', description: '', lane_settings_collection: [] }, root);
  createObject('core', 'home_view', { title: 'Default Service Analyzer', description: '', isDefault: true }, root);
  createObject(
    'core',
    'custom_threshold_windows',
    {
      title: 'Holiday sale window',
      description: 'Raise thresholds during the sale',
      pause_description: '',
      status: 'active',
      window_type: 'percentage',
      window_config_percentage: 20,
      window_config_static: {},
      start_time: epochNow() - 3600,
      end_time: epochNow() + 86400,
      duration: 90000,
      recurrence: false,
      cron_schedule: '',
      next_scheduled_time: '',
      is_overlapping: false,
      overlapping_kpis: [],
      linked_services: [],
      sec_grp_list: [GLOBAL_TEAM],
    },
    root,
  );

  // Event management
  createObject('em', 'correlation_search', { title: 'Host Down', name: 'Host Down', search: 'index=os status=down', disabled: 0 }, root);
  createObject(
    'em',
    'notable_aggregation_policy',
    { title: 'Default Policy', description: 'Default aggregation policy', disabled: 0, is_default: 1 },
    root,
  );
  const grp = createObject(
    'em',
    'notable_event_group',
    { title: 'Web tier errors', status: '1', severity: '5', owner: 'unassigned' },
    root,
  );
  void grp;

  const actions: [string, string, string][] = [
    ['email', 'Send email', ''],
    ['script', 'Run a script', ''],
    ['ops_event_action_link_ticket', 'Link Ticket', 'external_ticket'],
    ['ops_event_action_link_url', 'Link URL', ''],
    ['ops_event_action_send_to_orchestrator', 'Send to Orchestrator', ''],
    ['ops_sample_event_action_ping', 'Ping a host', ''],
    ['incident_ticketing_integration', 'Create Incident Ticket', 'external_ticket'],
    ['paging_integration', 'Page On-call', ''],
  ];
  for (const [name, label, type] of actions) {
    coll('em_actions').set(name, {
      _summary: {
        label,
        type,
        is_group_compatible: 1,
        action_name: name,
        execute_once_per_group: '0',
        execute_in_sync: '0',
        is_bulk_compatible: '1',
      },
      config: {
        ttl: '600',
        filename: name === 'script' ? 'script.sh' : '',
        track_alert: '0',
        maxresults: '10000',
        description: label,
        label,
        maxtime: '5m',
        disabled: '0',
        hostname: '',
        icon_path: `${name}.png`,
        command: `sendalert ${name} param.ids="$result.itsi_group_id$"`,
        'eai:userName': 'nobody',
        'eai:appName': 'SA-ITOA',
        'eai:acl': { app: 'SA-ITOA', owner: 'nobody', sharing: 'global', perms: { read: ['*'], write: ['admin'] } },
      },
    });
  }

  // Backup: default scheduled backup (protected)
  const now = epochNow();
  const bk = createObject(
    'br',
    'backup_restore',
    {
      title: 'Default Scheduled Backup',
      description: 'Default scheduled daily backup',
      job_type: 'Backup',
      status: 'Completed',
      scheduled: 1,
      frequency: 'daily',
      create_time: createTimeShort(),
      start_time: now - 7200,
      end_time: now - 7100,
      last_queued_time: now - 7200,
      path: '/opt/platform/var/ops/backups/default_scheduled_backup.zip',
      search_head_id: 'sh-01',
      platform_server: 'localhost',
      rules: [],
      last_error: 'None',
      _owner: 'nobody',
    },
    root,
  );
  seedInfo.defaultBackupKey = String(bk._key);
  protectedKeys.add(String(bk._key));

  // Icons
  for (const [name, immutable] of [
    ['Default', true],
    ['Infrastructure', true],
    ['Custom', false],
  ] as [string, boolean][]) {
    iconCategories.set(name, { name, immutable });
  }
  const icon = (title: string, category: string) => {
    const k = newKey();
    coll('icons').set(k, { _key: k, title, svg_path: PLACEHOLDER_SVG, default_width: '48', default_height: '48', category });
  };
  icon('Server', 'Default');
  icon('Database', 'Default');
  icon('Router', 'Infrastructure');
  icon('Firewall', 'Infrastructure');
  icon('My Widget', 'Custom');

  // Content pack library
  const item = (title: string, description: string, object: Doc): LibraryItem => ({ id: newKey(), title, description, object });
  const mkPack = (
    id: string,
    version: string,
    title: string,
    description: string,
    contents: Record<string, LibraryItem[]>,
    savedSearches: string[],
  ) => {
    library.set(id, {
      pack: {
        id,
        title,
        description,
        overview: `${title}: ${description}`,
        author: 'Ops Content Team',
        version,
        icon: `/static/app/SA-ITOA/content_packs/${id}/icon.png`,
        help_links: [`https://docs.example.com/content-packs/${id}`],
        installed_versions: [],
        screenshots: [{ path: `/static/${id}/screenshot1.png`, thumb: `/static/${id}/screenshot1_thumb.png` }],
        main_screenshot: { path: `/static/${id}/main.png`, thumb: `/static/${id}/main_thumb.png` },
      },
      contents,
      savedSearches,
    });
  };
  mkPack(
    'DA-OPS-CP-unix-linux',
    '1.3.0',
    'Monitoring Unix and Linux',
    'Services and dashboards for Unix and Linux hosts',
    {
      entity_types: [item('Unix and Linux', 'Entity type for *nix hosts', { data_drilldowns: [], dashboard_drilldowns: [] })],
      glass_tables: [item('Linux Overview', 'Glass table for Linux fleet', { content: {} })],
      service_analyzers: [item('Linux Service Analyzer', 'Service analyzer for Linux', {})],
      services: [
        item('Linux OS Health', 'OS health service', { kpis: [], entity_rules: [] }),
        item('Linux Disk Usage', 'Disk service', { kpis: [], entity_rules: [] }),
      ],
      kpi_base_searches: [item('Linux OS Metrics', 'Base search for OS metrics', { base_search: 'index=os' })],
    },
    ['Linux - Collect Entities', 'Linux - Disk Alert'],
  );
  mkPack(
    'DA-OPS-CP-cloud-monitoring',
    '2.1.0',
    'Cloud Dashboards and Reports',
    'Dashboards and alerts for cloud accounts',
    {
      entity_types: [item('Cloud Instance', 'Cloud compute instance', {})],
      glass_tables: [item('Cloud Overview', 'Glass table for cloud accounts', { content: {} })],
      services: [item('Cloud Compute', 'Compute service', { kpis: [], entity_rules: [] })],
      correlation_searches: [item('Cloud Instance Down', 'Instance down alert', { search: 'index=cloud state=stopped' })],
      notable_aggregation_policies: [item('Cloud Episodes', 'Groups cloud alerts', {})],
    },
    ['Cloud - Import Instances'],
  );
  mkPack(
    'DA-OPS-CP-itsm-episodes',
    '1.0.1',
    'Episode Review Content',
    'Aggregation policies and correlation searches',
    {
      correlation_searches: [item('Service Degraded', 'Health score degraded', { search: 'index=ops_summary' })],
      notable_aggregation_policies: [item('Service Episodes', 'Per service grouping', {})],
      service_templates: [item('Generic Web Template', 'Service template for web apps', { entity_rules: [] })],
    },
    [],
  );
}
