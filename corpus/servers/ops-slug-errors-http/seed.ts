// biome-ignore-all lint/suspicious/noExplicitAny: stored objects are free-form JSON documents, read and written field by field
import { GLOBAL_TEAM, LIMITED_TEAM, SCHEMA_VERSION, store } from './model.js';
import { isoWithOffset, modTimeString, plainTimeString } from './util.js';

// ---------------------------------------------------------------- thresholds helpers

const SEV = [
  { label: 'info', value: 1, color: '#AED3E5', light: '#E3F0F6' },
  { label: 'normal', value: 2, color: '#99D18B', light: '#DCEFD7' },
  { label: 'low', value: 3, color: '#FFE98C', light: '#FFF4C5' },
  { label: 'medium', value: 4, color: '#FCB64E', light: '#FEE6C1' },
  { label: 'high', value: 5, color: '#F26A35', light: '#FBCBB9' },
  { label: 'critical', value: 6, color: '#B50101', light: '#E5A6A6' },
];
const sev = (label: string) => SEV.find((s) => s.label === label)!;

export function thresholds(levels: [string, number][] = [], base = 'normal'): any {
  const b = sev(base);
  return {
    isMinStatic: true,
    isMaxStatic: false,
    gaugeMin: 0,
    gaugeMax: 100,
    renderBoundaryMin: 0,
    renderBoundaryMax: 100,
    baseSeverityValue: b.value,
    baseSeverityLabel: b.label,
    baseSeverityColor: b.color,
    baseSeverityColorLight: b.light,
    metricField: 'count',
    search: '',
    thresholdLevels: levels.map(([label, v]) => {
      const s = sev(label);
      return { severityValue: s.value, thresholdValue: v, severityLabel: s.label, severityColor: s.color, severityColorLight: s.light };
    }),
  };
}

function common(objectType: string, key: string, title: string, sec = GLOBAL_TEAM, extra: any = {}) {
  const d = new Date(Date.UTC(2024, 2, 11, 9, 30, 0));
  return {
    _key: key,
    object_type: objectType,
    title,
    description: '',
    identifying_name: title.toLowerCase(),
    sec_grp: sec,
    _version: SCHEMA_VERSION,
    _user: 'nobody',
    mod_source: 'seed',
    mod_timestamp: isoWithOffset(d),
    mod_time: modTimeString(d),
    ...extra,
  };
}

function kpi(key: string, serviceId: string, title: string, extra: any = {}) {
  return {
    _key: key,
    title,
    service_id: serviceId,
    type: 'kpis_primary',
    urgency: '5',
    target: '',
    search_type: 'shared_base',
    threshold_field: 'count',
    kpi_base_search: 'kbs_web_access_0001',
    alert_on: 'both',
    alert_lag: '30',
    search_alert_earliest: '5',
    entity_statop: 'avg',
    entity_id_fields: 'host',
    tz_offset: null,
    entity_alias_filtering_fields: null,
    backfill_earliest_time: '-7d',
    adaptive_thresholding_training_window: '-7d',
    anomaly_detection_training_window: '-14d',
    gap_severity_color: '#CCCCCC',
    gap_severity_color_light: '#EEEEEE',
    time_variate_thresholds: false,
    is_entity_breakdown: true,
    datamodel_filter: [],
    datamodel: { object: '', datamodel: '', field: '', owner_field: '' },
    aggregate_thresholds: thresholds([
      ['medium', 50],
      ['high', 75],
      ['critical', 90],
    ]),
    entity_thresholds: thresholds([['high', 80]]),
    time_variate_thresholds_specification: {
      policies: {
        default_policy: {
          title: 'Default',
          aggregate_thresholds: thresholds([
            ['medium', 50],
            ['high', 75],
            ['critical', 90],
          ]),
          entity_thresholds: thresholds([['high', 80]]),
          policy_type: 'static',
        },
      },
      time_blocks: [],
    },
    ...extra,
  };
}

// ---------------------------------------------------------------- content pack library catalogue

interface PackObject {
  id: string;
  title: string;
  description: string;
  has_dependency?: boolean;
  body?: any;
}
export interface PackDef {
  id: string;
  title: string;
  description: string;
  overview: string;
  author: string;
  version: string;
  icon: string;
  help_links: string[];
  screenshots: { path: string; thumb: string }[];
  contents: Record<string, PackObject[]>;
  saved_searches: string[];
}

const shot = (pack: string, n: number) => ({
  path: `/static/app/${pack}/screenshots/screenshot_${n}.png`,
  thumb: `/static/app/${pack}/screenshots/thumb_${n}.png`,
});

export const PACK_CATALOG: PackDef[] = [
  {
    id: 'DA-OPS-CP-web-monitoring',
    title: 'Web Application Monitoring',
    description: 'Services, KPIs and glass tables for monitoring web tiers.',
    overview: 'Monitors request rate, error rate and latency of web servers and load balancers.',
    author: 'Ops Content Team',
    version: '1.3.0',
    icon: '/static/app/DA-OPS-CP-web-monitoring/icon.png',
    help_links: ['https://docs.example.com/ops/cp/web-monitoring'],
    screenshots: [shot('DA-OPS-CP-web-monitoring', 1), shot('DA-OPS-CP-web-monitoring', 2)],
    contents: {
      services: [
        { id: 'cp_web_svc_frontend', title: 'Web Frontend Tier', description: 'Frontend web servers', has_dependency: true },
        { id: 'cp_web_svc_lb', title: 'Web Load Balancers', description: 'HTTP load balancing tier' },
      ],
      kpi_base_searches: [{ id: 'cp_web_kbs_access', title: 'Web Access Logs', description: 'Shared base search over access logs' }],
      glass_tables: [{ id: 'cp_web_gt_overview', title: 'Web Tier Overview', description: 'Top-level view of the web tier' }],
      service_analyzers: [{ id: 'cp_web_sa_default', title: 'Web Service Analyzer', description: 'Analyzer filtered to web services' }],
      entity_types: [{ id: 'cp_web_et_webserver', title: 'Web Server', description: 'Entity type for HTTP servers' }],
      correlation_searches: [
        { id: 'cp_web_cs_5xx', title: 'Web - Sustained 5xx Errors', description: 'Raises an event on sustained server errors' },
      ],
    },
    saved_searches: ['Web - Error Rate Summary', 'Web - Latency Baseline'],
  },
  {
    id: 'DA-OPS-CP-os-monitoring',
    title: 'Operating System Monitoring',
    description: 'Entity types, templates and deep dives for Unix and Windows hosts.',
    overview: 'CPU, memory, disk and network monitoring for operating systems.',
    author: 'Ops Content Team',
    version: '2.0.1',
    icon: '/static/app/DA-OPS-CP-os-monitoring/icon.png',
    help_links: ['https://docs.example.com/ops/cp/os-monitoring', 'https://docs.example.com/ops/cp/os-monitoring/release-notes'],
    screenshots: [shot('DA-OPS-CP-os-monitoring', 1)],
    contents: {
      entity_types: [
        { id: 'cp_os_et_unix', title: 'Unix/Linux Host', description: 'Unix and Linux hosts' },
        { id: 'cp_os_et_windows', title: 'Windows Host', description: 'Windows hosts' },
      ],
      service_templates: [
        { id: 'cp_os_tpl_host', title: 'OS Host Health', description: 'Template for host health services', has_dependency: true },
      ],
      kpi_threshold_templates: [
        { id: 'cp_os_ktt_cpu', title: 'CPU Utilization (business hours)', description: 'Time-variant CPU thresholds' },
      ],
      deep_dives: [{ id: 'cp_os_dd_host', title: 'Host Deep Dive', description: 'Per-host metrics lanes' }],
    },
    saved_searches: ['OS - Host Inventory'],
  },
  {
    id: 'DA-OPS-CP-cloud-insights',
    title: 'Cloud Insights',
    description: 'Monitoring of cloud compute, storage and billing.',
    overview: 'Service definitions and aggregation policies for public cloud workloads.',
    author: 'Ops Partner Program',
    version: '1.0.0',
    icon: '/static/app/DA-OPS-CP-cloud-insights/icon.png',
    help_links: [],
    screenshots: [shot('DA-OPS-CP-cloud-insights', 1), shot('DA-OPS-CP-cloud-insights', 2), shot('DA-OPS-CP-cloud-insights', 3)],
    contents: {
      services: [{ id: 'cp_cloud_svc_compute', title: 'Cloud Compute', description: 'Compute instances' }],
      aggregation_policies: [
        { id: 'cp_cloud_nap_default', title: 'Cloud Episodes by Account', description: 'Groups cloud alerts by account' },
      ],
      glass_tables: [{ id: 'cp_cloud_gt_costs', title: 'Cloud Cost Overview', description: 'Spend by account and region' }],
    },
    saved_searches: [],
  },
];

/** Locally installed but not yet registered in ops_content_packs.conf (appears after refresh). */
export const UNREGISTERED_LOCAL_PACKS: PackDef[] = [
  {
    id: 'DA-OPS-CP-network-insights',
    title: 'Network Insights',
    description: 'Network devices and interface monitoring.',
    overview: 'Interfaces, routing and device health.',
    author: 'Ops Content Team',
    version: '0.9.2',
    icon: '/static/app/DA-OPS-CP-network-insights/icon.png',
    help_links: [],
    screenshots: [],
    contents: {
      entity_types: [{ id: 'cp_net_et_router', title: 'Router', description: 'Network router' }],
      services: [{ id: 'cp_net_svc_core', title: 'Core Network', description: 'Core switching and routing' }],
    },
    saved_searches: ['Network - Interface Errors'],
  },
];

export const PACK_LOAD_FAILURES = [
  {
    id: 'DA-OPS-CP-legacy-netflow',
    version: '0.3.0',
    error_type: 'INVALID_MANIFEST',
    error_message: 'Unable to parse app.manifest for content pack DA-OPS-CP-legacy-netflow',
  },
];

// group name -> [interface store, object type]
export const GROUP_TYPES: Record<string, { store: string; type: string }> = {
  services: { store: 'itoa:service', type: 'service' },
  service_templates: { store: 'itoa:base_service_template', type: 'base_service_template' },
  kpi_base_searches: { store: 'itoa:kpi_base_search', type: 'kpi_base_search' },
  glass_tables: { store: 'itoa:glass_table', type: 'glass_table' },
  service_analyzers: { store: 'itoa:home_view', type: 'home_view' },
  entity_types: { store: 'itoa:entity_type', type: 'entity_type' },
  deep_dives: { store: 'itoa:deep_dive', type: 'deep_dive' },
  kpi_threshold_templates: { store: 'itoa:kpi_threshold_template', type: 'kpi_threshold_template' },
  teams: { store: 'itoa:team', type: 'team' },
  event_management_states: { store: 'itoa:event_management_state', type: 'event_management_state' },
  correlation_searches: { store: 'em:correlation_search', type: 'correlation_search' },
  aggregation_policies: { store: 'em:notable_aggregation_policy', type: 'notable_aggregation_policy' },
};

// ---------------------------------------------------------------- episode actions

const actionConf = (name: string, label: string, description: string, extra: any = {}) => ({
  ttl: '600',
  filename: '',
  track_alert: '0',
  maxresults: '10000',
  description,
  label,
  maxtime: '5m',
  disabled: '0',
  hostname: '',
  icon_path: '',
  command: `sendalert ${name} param.event_ids="$result.event_ids$"`,
  'eai:userName': 'nobody',
  'eai:appName': 'SA-ITOA',
  'eai:acl': { app: 'SA-ITOA', owner: 'nobody', sharing: 'global', perms: { read: ['*'], write: ['admin'] } },
  ...extra,
});

export const EPISODE_ACTIONS: { entry: any; conf: any }[] = [
  {
    entry: {
      label: 'Send email',
      type: '',
      is_group_compatible: 1,
      action_name: 'email',
      execute_once_per_group: '0',
      execute_in_sync: '0',
      is_bulk_compatible: 1,
    },
    conf: actionConf('email', 'Send email', 'Send an email notification to specified recipients', {
      command: 'sendemail "to=$action.email.to$" "server=$action.email.mailserver{default=localhost}$" "subject=$action.email.subject$"',
      icon_path: 'mod_alert_icon_email.png',
      filename: '',
    }),
  },
  {
    entry: {
      label: 'Run a script',
      type: '',
      is_group_compatible: '0',
      action_name: 'script',
      execute_once_per_group: '0',
      execute_in_sync: 0,
      is_bulk_compatible: '0',
    },
    conf: actionConf('script', 'Run a script', 'Invoke a custom script', {
      filename: '$action.script.filename$',
      command: 'runshellscript "$action.script.filename$" "$results.file$"',
    }),
  },
  {
    entry: {
      label: 'Link ticket',
      type: 'external_ticket',
      is_group_compatible: 1,
      action_name: 'ops_event_action_link_ticket',
      execute_once_per_group: '1',
      execute_in_sync: '1',
      is_bulk_compatible: 1,
    },
    conf: actionConf('ops_event_action_link_ticket', 'Link ticket', 'Link an episode to a ticket in an external ticketing system', {
      icon_path: 'ticket.png',
    }),
  },
  {
    entry: {
      label: 'Add a URL',
      type: '',
      is_group_compatible: 1,
      action_name: 'ops_event_action_link_url',
      execute_once_per_group: 0,
      execute_in_sync: '1',
      is_bulk_compatible: '1',
    },
    conf: actionConf('ops_event_action_link_url', 'Add a URL', 'Attach a URL to an episode'),
  },
  {
    entry: {
      label: 'Send to orchestrator',
      type: '',
      is_group_compatible: '1',
      action_name: 'ops_event_action_send_to_orchestrator',
      execute_once_per_group: '1',
      execute_in_sync: '0',
      is_bulk_compatible: '0',
    },
    conf: actionConf(
      'ops_event_action_send_to_orchestrator',
      'Send to orchestrator',
      'Forward the episode to the orchestration playbook runner',
    ),
  },
  {
    entry: {
      label: 'Ping a host',
      type: '',
      is_group_compatible: '0',
      action_name: 'ops_sample_event_action_ping',
      execute_once_per_group: '0',
      execute_in_sync: '0',
      is_bulk_compatible: '1',
    },
    conf: actionConf('ops_sample_event_action_ping', 'Ping a host', 'Sample action that pings the host of an event', {
      command: 'ping host="$result.host$"',
    }),
  },
  {
    entry: {
      label: 'HelpDesk Incident',
      type: 'external_ticket',
      is_group_compatible: '1',
      action_name: 'helpdesk_incident',
      execute_once_per_group: '1',
      execute_in_sync: '0',
      is_bulk_compatible: '0',
    },
    conf: actionConf('helpdesk_incident', 'HelpDesk Incident', 'Create or update an incident in the HelpDesk ticketing product'),
  },
  {
    entry: {
      label: 'PagerRelay Notify',
      type: '',
      is_group_compatible: '1',
      action_name: 'pagerrelay_notify',
      execute_once_per_group: '1',
      execute_in_sync: '0',
      is_bulk_compatible: '0',
    },
    conf: actionConf('pagerrelay_notify', 'PagerRelay Notify', 'Page the on-call responder through PagerRelay'),
  },
];

// ---------------------------------------------------------------- icons

export const ICON_CATEGORIES: { name: string; immutable?: boolean }[] = [
  { name: 'Infrastructure', immutable: true },
  { name: 'Cloud', immutable: true },
  { name: 'Security', immutable: true },
  { name: 'General', immutable: true },
];

// ---------------------------------------------------------------- seeding

export function seedAll() {
  const teams = store('itoa:team');
  teams.set(
    GLOBAL_TEAM,
    common('team', GLOBAL_TEAM, 'Global', GLOBAL_TEAM, {
      description: 'Default team; objects without a specific team belong here',
      acl: { owner: 'nobody', read: ['ops_user', 'ops_admin'], write: ['ops_admin'], delete: ['ops_admin'] },
      is_default: true,
    }),
  );
  teams.set(
    LIMITED_TEAM,
    common('team', LIMITED_TEAM, 'Limited Ops Team', GLOBAL_TEAM, {
      description: 'Team owned by the limited user',
      acl: { owner: 'nobody', read: ['ops_team_limited', 'ops_admin'], write: ['ops_team_limited', 'ops_admin'], delete: ['ops_admin'] },
    }),
  );

  const kbs = store('itoa:kpi_base_search');
  kbs.set(
    'kbs_web_access_0001',
    common('kpi_base_search', 'kbs_web_access_0001', 'Web Access Base Search', GLOBAL_TEAM, {
      description: 'Shared base search over web access logs',
      base_search: 'index=web sourcetype=access_combined',
      search_alert_earliest: '5',
      alert_period: '5',
      alert_lag: '30',
      is_entity_breakdown: true,
      entity_id_fields: 'host',
      entity_alias_filtering_fields: null,
      metrics: [
        {
          _key: 'm_req_count',
          title: 'Request Count',
          threshold_field: 'count',
          aggregate_statop: 'count',
          entity_statop: 'sum',
          unit: 'requests',
        },
        { _key: 'm_err_rate', title: 'Error Rate', threshold_field: 'err_pct', aggregate_statop: 'avg', entity_statop: 'avg', unit: '%' },
      ],
    }),
  );

  const services = store('itoa:service');
  services.set(
    'svc_web_frontend_01',
    common('service', 'svc_web_frontend_01', 'Web Frontend', GLOBAL_TEAM, {
      description: 'Customer facing web servers',
      enabled: 1,
      tags: ['web', 'tier1'],
      entity_rules: [{ rule_condition: 'AND', rule_items: [{ field: 'role', field_type: 'info', rule_type: 'matches', value: 'web' }] }],
      services_depends_on: [],
      services_depending_on_me: [],
      base_service_template_id: '',
      kpis: [
        kpi('kpi_web_req_rate', 'svc_web_frontend_01', 'Request Rate'),
        kpi('kpi_web_err_rate', 'svc_web_frontend_01', 'Error Rate', { threshold_field: 'err_pct', urgency: '8' }),
      ],
    }),
  );
  services.set(
    'svc_batch_jobs_02',
    common('service', 'svc_batch_jobs_02', 'Batch Processing', LIMITED_TEAM, {
      description: 'Nightly batch jobs',
      enabled: 0,
      tags: [],
      entity_rules: [],
      services_depends_on: [],
      services_depending_on_me: [],
      base_service_template_id: '',
      kpis: [
        kpi('kpi_batch_duration', 'svc_batch_jobs_02', 'Job Duration', {
          kpi_base_search: '',
          search_type: 'adhoc',
          threshold_field: 'duration',
        }),
      ],
    }),
  );

  const tpl = store('itoa:base_service_template');
  tpl.set(
    'tpl_linux_host_01',
    common('base_service_template', 'tpl_linux_host_01', 'Linux Host Template', GLOBAL_TEAM, {
      description: 'Baseline KPIs for Linux hosts',
      entity_rules: [{ rule_condition: 'AND', rule_items: [{ field: 'os', field_type: 'info', rule_type: 'matches', value: 'linux' }] }],
      kpis: [kpi('tplkpi_cpu', '', 'CPU Utilization', { kpi_base_search: '', search_type: 'adhoc', threshold_field: 'cpu_pct' })],
      linked_services: [],
      total_linked_services: 0,
    }),
  );

  const ents = store('itoa:entity');
  const ent = (key: string, title: string, sec: string, host: string, info: Record<string, string[]>, svcs: any[], extra: any = {}) => {
    const d = new Date(Date.UTC(2024, 2, 11, 9, 30, 0));
    return common('entity', key, title, sec, {
      description: `${title} host`,
      identifier: { fields: ['host'], values: [host] },
      informational: { fields: Object.keys(info), values: Object.values(info).flat() },
      host: [host],
      ...info,
      services: svcs,
      create_by: 'admin',
      mod_by: 'admin',
      create_source: 'seed',
      _type: 'entity',
      create_time: isoWithOffset(d),
      ...extra,
    });
  };
  ents.set(
    'ent_web01',
    ent('ent_web01', 'web-01', GLOBAL_TEAM, 'web-01', { role: ['web'], os: ['linux'] }, [
      { _key: 'svc_web_frontend_01', title: 'Web Frontend' },
    ]),
  );
  ents.set(
    'ent_web02',
    ent(
      'ent_web02',
      'web-02',
      GLOBAL_TEAM,
      'web-02',
      { role: ['web'], os: ['linux'] },
      [{ _key: 'svc_web_frontend_01', title: 'Web Frontend' }],
      { retirable: 1 },
    ),
  );
  ents.set('ent_db01', ent('ent_db01', 'db-01', GLOBAL_TEAM, 'db-01', { role: ['database'], os: ['linux'], datacenter: ['east'] }, []));
  ents.set(
    'ent_batch01',
    ent(
      'ent_batch01',
      'batch-01',
      LIMITED_TEAM,
      'batch-01',
      { role: ['batch'] },
      [{ _key: 'svc_batch_jobs_02', title: 'Batch Processing' }],
      { retirable: 1 },
    ),
  );

  store('itoa:entity_type').set(
    'et_linux_host',
    common('entity_type', 'et_linux_host', 'Linux Host', GLOBAL_TEAM, {
      description: 'Hosts running Linux',
      data_drilldowns: [],
      dashboard_drilldowns: [],
      vital_metrics: [],
    }),
  );

  store('itoa:kpi_threshold_template').set(
    'ktt_business_hours',
    common('kpi_threshold_template', 'ktt_business_hours', 'Business hours, weekdays', GLOBAL_TEAM, {
      description: 'Stricter thresholds during business hours',
      adaptive_thresholds_is_enabled: false,
      time_variate_thresholds: true,
      time_variate_thresholds_specification: {
        policies: {
          default_policy: {
            title: 'Default',
            aggregate_thresholds: thresholds([['high', 80]]),
            entity_thresholds: thresholds(),
            policy_type: 'static',
          },
          bh_policy: {
            title: 'Business hours',
            aggregate_thresholds: thresholds([
              ['medium', 40],
              ['critical', 70],
            ]),
            entity_thresholds: thresholds(),
            policy_type: 'static',
          },
        },
        time_blocks: [
          { policy_key: 'bh_policy', time_block_key: '01-09' },
          { policy_key: 'bh_policy', time_block_key: '02-09' },
        ],
      },
    }),
  );

  store('itoa:custom_threshold_windows').set(
    'ctw_black_friday',
    common('custom_threshold_windows', 'ctw_black_friday', 'Black Friday traffic', GLOBAL_TEAM, {
      description: 'Raise thresholds by 50% during the sale',
      pause_description: '',
      status: 'active',
      window_type: 'percentage',
      window_config_percentage: 50,
      window_config_static: {},
      start_time: 1732838400,
      end_time: 1733097600,
      last_stopped_time: 0,
      next_scheduled_time: '',
      cron_schedule: '',
      duration: 259200,
      recurrence: false,
      is_overlapping: false,
      overlapping_kpis: [],
      linked_services: [{ service_id: 'svc_web_frontend_01', linked_kpi_ids: ['kpi_web_req_rate'] }],
      sec_grp_list: [GLOBAL_TEAM],
      can_view: true,
      can_link: true,
      can_edit: true,
      can_transition: true,
    }),
  );

  store('maint:maintenance_calendar').set(
    'mw_q1_patching',
    common('maintenance_calendar', 'mw_q1_patching', 'Q1 OS patching', GLOBAL_TEAM, {
      start_time: 1711000000,
      end_time: 1711014400.5,
      objects: [
        { object_type: 'entity', _key: 'ent_db01' },
        { object_type: 'service', _key: 'svc_web_frontend_01' },
      ],
      sec_grp_list: [GLOBAL_TEAM],
      _owner: 'admin',
    }),
  );

  const created = new Date(Date.UTC(2024, 0, 2, 1, 0, 0));
  store('br:backup_restore').set(
    'ops_default_scheduled_backup',
    common('backup_restore', 'ops_default_scheduled_backup', 'Default Scheduled Backup', GLOBAL_TEAM, {
      description: 'Daily scheduled backup of the product configuration',
      job_type: 'Backup',
      status: 'Completed',
      create_time: plainTimeString(created),
      start_time: 1704157200,
      end_time: 1704157262,
      last_queued_time: 1704157195,
      path: '/opt/platform/var/ops/backups/ops_default_scheduled_backup.zip',
      search_head_id: '8E2F6B2A-4D1C-4F0B-9C51-3B0D4A1E7C22',
      platform_server: 'localhost',
      rules: [],
      last_error: 'None',
      _owner: 'nobody',
      scheduled: 1,
      frequency: 'daily',
      scheduled_time: 1,
      is_default: 1,
      enabled: 1,
    }),
  );

  // event management
  store('em:correlation_search').set(
    'cs_high_error_rate',
    common('correlation_search', 'cs_high_error_rate', 'High Error Rate Detected', GLOBAL_TEAM, {
      name: 'High Error Rate Detected',
      search: 'index=web status>=500 | stats count by host',
      disabled: 0,
      cron_schedule: '*/5 * * * *',
      severity: 'high',
    }),
  );
  store('em:notable_aggregation_policy').set(
    'ops_default_policy',
    common('notable_aggregation_policy', 'ops_default_policy', 'Default Policy', GLOBAL_TEAM, {
      disabled: 0,
      is_default: 1,
      group_severity: 'medium',
      split_by_field: 'source',
    }),
  );
  const eg = store('em:notable_event_group');
  eg.set('ep_3f1b2c44', {
    _key: 'ep_3f1b2c44',
    object_type: 'notable_event_group',
    title: 'web-01 error burst',
    status: '1',
    severity: '5',
    owner: 'unassigned',
    policy_id: 'ops_default_policy',
    _user: 'nobody',
    mod_time: 1710149400,
    create_time: 1710149000,
  });
  eg.set('ep_9a7d0e11', {
    _key: 'ep_9a7d0e11',
    object_type: 'notable_event_group',
    title: 'db-01 disk latency',
    status: '2',
    severity: '4',
    owner: 'admin',
    policy_id: 'ops_default_policy',
    _user: 'nobody',
    mod_time: 1710153000,
    create_time: 1710152000,
  });

  // icons
  const icons = store('icons');
  const svg = (d: string) => `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24"><path d="${d}"/></svg>`;
  const icon = (key: string, title: string, category: string, d: string) =>
    icons.set(key, {
      _key: key,
      title,
      svg_path: svg(d),
      default_width: 48,
      default_height: 48,
      category,
      _user: 'nobody',
      object_type: 'icon',
    });
  icon('icon_server', 'Server', 'Infrastructure', 'M4 4h16v6H4zM4 14h16v6H4z');
  icon('icon_database', 'Database', 'Infrastructure', 'M12 2C7 2 4 3.5 4 5v14c0 1.5 3 3 8 3s8-1.5 8-3V5c0-1.5-3-3-8-3z');
  icon('icon_router', 'Router', 'Infrastructure', 'M2 14h20v6H2zM12 4v8');
  icon('icon_cloud', 'Cloud', 'Cloud', 'M6 19h12a4 4 0 0 0 0-8 6 6 0 0 0-11.7 1.5A3.5 3.5 0 0 0 6 19z');
  icon('icon_bucket', 'Storage Bucket', 'Cloud', 'M4 6h16l-2 14H6z');
  icon('icon_shield', 'Shield', 'Security', 'M12 2l8 4v6c0 5-3.5 9-8 10-4.5-1-8-5-8-10V6z');
  icon('icon_user', 'User', 'General', 'M12 12a5 5 0 1 0 0-10 5 5 0 0 0 0 10zM3 22a9 9 0 0 1 18 0z');
}
