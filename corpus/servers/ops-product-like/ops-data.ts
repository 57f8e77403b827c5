// Static data: KPI and threshold defaults, the content-pack library, episode actions, built-in icons.

import type { Doc } from './ops-http.js';

// ---------- thresholds and KPIs ----------

const LEVELS: Record<string, [number, string, string]> = {
  critical: [6, '#B50101', '#E5A6A6'],
  high: [5, '#F26A35', '#FBCBB9'],
  medium: [4, '#FCB64E', '#FEE6C1'],
  low: [3, '#FFE98C', '#FFF4C5'],
  normal: [2, '#99D18B', '#DCEFD7'],
  info: [1, '#AED3E5', '#E3F0F6'],
};

export function thresholdLevel(label: keyof typeof LEVELS, thresholdValue: number): Doc {
  const [severityValue, severityColor, severityColorLight] = LEVELS[label];
  return { severityValue, thresholdValue, severityLabel: label, severityColor, severityColorLight, dynamicParam: 0 };
}

export function thresholds(base: keyof typeof LEVELS = 'normal', levels: Doc[] = [], metricField = 'count'): Doc {
  const [baseSeverityValue, baseSeverityColor, baseSeverityColorLight] = LEVELS[base];
  return {
    isMinStatic: true,
    isMaxStatic: false,
    gaugeMin: 0,
    gaugeMax: 100,
    renderBoundaryMin: 0,
    renderBoundaryMax: 100,
    baseSeverityValue,
    baseSeverityLabel: base,
    baseSeverityColor,
    baseSeverityColorLight,
    metricField,
    search: '',
    thresholdLevels: levels,
  };
}

export function timeVariateSpec(): Doc {
  return {
    policies: {
      default_policy: {
        title: 'Default',
        policy_type: 'static',
        aggregate_thresholds: thresholds('info', [thresholdLevel('normal', 25)]),
        entity_thresholds: thresholds('info'),
      },
    },
    time_blocks: [{ policy_key: 'default_policy', time_block_key: '00-00' }],
  };
}

/** The service-health KPI every service carries, keyed SHKPI-<service key>. */
export function serviceHealthKpi(serviceKey: string, serviceTitle: string, secGrp: string): Doc {
  const macro = `\`get_full_ops_summary_service_health_events(${serviceKey})\``;
  return {
    _key: `SHKPI-${serviceKey}`,
    _owner: 'nobody',
    title: 'ServiceHealthScore',
    type: 'service_health',
    service_id: serviceKey,
    service_title: serviceTitle,
    sec_grp: secGrp,
    urgency: '11',
    enabled: 1,
    search_type: 'adhoc',
    base_search: macro,
    search: `${macro} | stats latest(health_score) AS aggregate`,
    search_aggregate: `${macro} | stats latest(health_score) AS aggregate`,
    search_time_series: `${macro} | timechart avg(health_score) AS aggregate`,
    search_time_series_aggregate: `${macro} | timechart avg(health_score) AS aggregate`,
    threshold_field: 'aggregate',
    aggregate_statop: 'avg',
    entity_statop: 'avg',
    alert_on: 'both',
    alert_lag: '30',
    alert_period: '1',
    search_alert_earliest: '15',
    backfill_enabled: false,
    backfill_earliest_time: '-7d',
    adaptive_thresholds_is_enabled: false,
    adaptive_thresholding_training_window: '-7d',
    anomaly_detection_is_enabled: false,
    anomaly_detection_alerting_enabled: false,
    anomaly_detection_sensitivity: 0.999,
    anomaly_detection_training_window: '-7d',
    cohesive_anomaly_detection_is_enabled: false,
    cohesive_ad: { sensitivity: 8 },
    trending_ad: { sensitivity: 8 },
    fill_gaps: 'null_value',
    gap_custom_alert_value: '0',
    gap_severity: 'unknown',
    gap_severity_color: '#CCCCCC',
    gap_severity_color_light: '#EEEEEE',
    gap_severity_value: '-1',
    is_entity_breakdown: false,
    is_service_entity_filter: false,
    time_variate_thresholds: false,
    aggregate_thresholds: thresholds('normal', [thresholdLevel('critical', 0)]),
    entity_thresholds: thresholds('normal', [thresholdLevel('critical', 0)]),
    time_variate_thresholds_specification: timeVariateSpec(),
  };
}

/** Defaults of a KPI as answered inside a service template export. */
export function templateKpiDefaults(): Doc {
  return {
    title: '',
    service_id: '',
    type: 'kpis_primary',
    urgency: '5',
    target: '',
    search_type: 'adhoc',
    threshold_field: 'count',
    kpi_base_search: '',
    alert_on: 'both',
    alert_lag: '30',
    search_alert_earliest: '5',
    entity_statop: 'avg',
    entity_id_fields: '',
    tz_offset: null,
    entity_alias_filtering_fields: null,
    backfill_earliest_time: '-7d',
    adaptive_thresholding_training_window: '-7d',
    anomaly_detection_training_window: '-7d',
    gap_severity_color: '#CCCCCC',
    gap_severity_color_light: '#EEEEEE',
    time_variate_thresholds: false,
    is_entity_breakdown: false,
    datamodel_filter: [],
    datamodel: { object: '', datamodel: '', field: '', owner_field: '' },
    entity_thresholds: thresholds('info'),
    time_variate_thresholds_specification: timeVariateSpec(),
  };
}

// ---------- content-pack library ----------

export interface PackObject {
  /** Object-type group of the preview and install answers (services, entity_types, ...). */
  group: string;
  /** Object type it installs as. */
  type: string;
  id: string;
  title: string;
  description: string;
  doc: Doc;
  dependsOn?: string[];
}

export interface LibraryPack {
  id: string;
  title: string;
  description: string;
  overview: string;
  author: string;
  version: string;
  icon: string;
  help_links: string[];
  screenshots: { path: string; thumb: string }[];
  main_screenshot: { path: string; thumb: string };
  objects: PackObject[];
  savedSearches: string[];
}

const GROUP_OF_TYPE: Record<string, string> = {
  service: 'services',
  entity_type: 'entity_types',
  glass_table: 'glass_tables',
  home_view: 'service_analyzers',
  kpi_base_search: 'kpi_base_searches',
  base_service_template: 'service_templates',
  kpi_threshold_template: 'kpi_threshold_templates',
  deep_dive: 'deep_dives',
  correlation_search: 'correlation_searches',
};

function shots(id: string, n: number): { path: string; thumb: string }[] {
  return Array.from({ length: n }, (_, i) => ({
    path: `/static/app/${id}/screenshots/screenshot_${i + 1}.png`,
    thumb: `/static/app/${id}/screenshots/thumb_${i + 1}.png`,
  }));
}

function pack(
  id: string,
  title: string,
  version: string,
  description: string,
  objects: [string, string, string][],
  savedSearches: string[],
): LibraryPack {
  const screenshots = shots(id, 2);
  const short = id.toLowerCase();
  return {
    id,
    title,
    description,
    overview: `${title} provides a starting set of services, KPIs and dashboards. ${description}`,
    author: 'Operations Content Team',
    version,
    icon: `/static/app/${id}/icon.png`,
    help_links: [`https://docs.example.invalid/content-packs/${short}`],
    screenshots,
    main_screenshot: screenshots[0],
    savedSearches,
    objects: objects.map(([type, suffix, objTitle]) => {
      const objId = `${short}-${suffix}`;
      const doc: Doc = { title: objTitle, description: `${objTitle} (from ${title})` };
      if (type === 'service') doc.entity_rules = [];
      if (type === 'kpi_base_search') {
        doc.base_search = `\`${short.replace(/-/g, '_')}_base\``;
        doc.metrics = [
          { _key: `${objId}-metric`, title: 'Count', aggregate_statop: 'avg', entity_statop: 'avg', threshold_field: 'count', unit: '' },
        ];
      }
      return {
        group: GROUP_OF_TYPE[type],
        type,
        id: objId,
        title: objTitle,
        description: String(doc.description),
        doc,
        dependsOn: type === 'service' ? [`${short}-kbs`] : undefined,
      };
    }),
  };
}

export function contentPackLibrary(): LibraryPack[] {
  return [
    pack(
      'DA-OPS-CP-unix-dashboards',
      'Monitoring Unix and Linux',
      '1.2.0',
      'Monitors the operating system health of Unix and Linux hosts.',
      [
        ['service', 'svc-os-hosts', 'Unix OS Hosts'],
        ['service', 'svc-os-storage', 'Unix OS Storage'],
        ['kpi_base_search', 'kbs', 'OS Performance Base Search'],
        ['entity_type', 'et-nix', '*nix'],
        ['glass_table', 'gt-overview', 'Unix Fleet Overview'],
        ['home_view', 'sa-hosts', 'Unix Service Analyzer'],
      ],
      ['OS - Host CPU Utilization', 'OS - Host Memory Utilization'],
    ),
    pack(
      'DA-OPS-CP-aws-dashboards',
      'Monitoring Amazon Web Services',
      '2.1.0',
      'Service models and dashboards for compute, storage and network services of a public cloud.',
      [
        ['service', 'svc-ec2', 'AWS EC2'],
        ['kpi_base_search', 'kbs', 'AWS CloudWatch Base Search'],
        ['entity_type', 'et-ec2', 'AWS EC2 Instance'],
        ['correlation_search', 'cs-health', 'AWS Health Events'],
      ],
      ['AWS - EC2 Instance Health'],
    ),
    pack(
      'DA-OPS-CP-microsoft-exchange',
      'Monitoring Microsoft Exchange',
      '1.4.1',
      'Mail-flow and mailbox-server health for messaging services.',
      [
        ['service', 'svc-mailflow', 'Exchange Mail Flow'],
        ['kpi_base_search', 'kbs', 'Exchange Message Tracking'],
        ['deep_dive', 'dd-mailbox', 'Exchange Mailbox Servers'],
      ],
      [],
    ),
    pack(
      'DA-OPS-CP-website-monitoring',
      'Website Monitoring',
      '1.3.0',
      'Synthetic and real-user checks for public web sites.',
      [
        ['service', 'svc-web', 'Public Website'],
        ['kpi_base_search', 'kbs', 'Website Checks Base Search'],
        ['entity_type', 'et-url', 'Web URL'],
      ],
      ['Website - Availability Check'],
    ),
  ];
}

/** Packs present on disk whose library entry fails to load. */
export const FAILED_PACKS: Doc[] = [
  {
    id: 'DA-OPS-CP-legacy-netapp',
    version: '0.9.0',
    error_message: 'Unable to load content pack: content_pack.json is missing or unreadable',
  },
];

/** Apps installed locally but not yet in ops_content_packs.conf: found by the first refresh. */
export const UNREGISTERED_LOCAL_APPS = ['DA-OPS-CP-nginx-monitoring'];

// ---------- episode actions ----------

export interface EpisodeAction {
  action_name: string;
  label: string;
  type: string;
  is_group_compatible: number;
  is_bulk_compatible: number;
  execute_once_per_group: number;
  execute_in_sync: number;
  command: string;
  description: string;
}

export const EPISODE_ACTIONS: EpisodeAction[] = [
  {
    action_name: 'email',
    label: 'Send email',
    type: '',
    is_group_compatible: 1,
    is_bulk_compatible: 1,
    execute_once_per_group: 0,
    execute_in_sync: 0,
    command: 'sendemail "to=$action.email.to$" "subject=$action.email.subject$"',
    description: 'Send an email notification',
  },
  {
    action_name: 'script',
    label: 'Run a script',
    type: '',
    is_group_compatible: 0,
    is_bulk_compatible: 1,
    execute_once_per_group: 0,
    execute_in_sync: 0,
    command: 'runshellscript "$action.script.filename$"',
    description: 'Invoke a custom script',
  },
  {
    action_name: 'ops_event_action_link_ticket',
    label: 'Link Ticket',
    type: 'external_ticket',
    is_group_compatible: 1,
    is_bulk_compatible: 0,
    execute_once_per_group: 1,
    execute_in_sync: 1,
    command: 'opslinkticket ticket_system="$action.ops_event_action_link_ticket.param.ticket_system$"',
    description: 'Link an episode to a ticket in an external system',
  },
  {
    action_name: 'ops_event_action_link_url',
    label: 'Add a link',
    type: '',
    is_group_compatible: 1,
    is_bulk_compatible: 1,
    execute_once_per_group: 1,
    execute_in_sync: 1,
    command: 'opslinkurl url="$action.ops_event_action_link_url.param.url$"',
    description: 'Add a hyperlink to an episode',
  },
  {
    action_name: 'ops_event_action_send_to_orchestrator',
    label: 'Send to orchestrator',
    type: '',
    is_group_compatible: 1,
    is_bulk_compatible: 1,
    execute_once_per_group: 1,
    execute_in_sync: 0,
    command: 'opssendtoorchestrator',
    description: 'Send the episode to an automation orchestrator',
  },
  {
    action_name: 'ops_sample_event_action_ping',
    label: 'Ping a host',
    type: '',
    is_group_compatible: 0,
    is_bulk_compatible: 0,
    execute_once_per_group: 0,
    execute_in_sync: 1,
    command: 'opsping host="$action.ops_sample_event_action_ping.param.host_to_ping$"',
    description: 'Ping the host named in the episode',
  },
  {
    action_name: 'snow_incident',
    label: 'ServiceNow Incident Integration',
    type: 'external_ticket',
    is_group_compatible: 1,
    is_bulk_compatible: 0,
    execute_once_per_group: 1,
    execute_in_sync: 0,
    command: 'snowincidentalert',
    description: 'Create or update an incident in the ServiceNow ticketing system',
  },
  {
    action_name: 'remedy_incident',
    label: 'Remedy Incident Integration',
    type: 'external_ticket',
    is_group_compatible: 1,
    is_bulk_compatible: 0,
    execute_once_per_group: 1,
    execute_in_sync: 0,
    command: 'remedyincident',
    description: 'Create an incident in the Remedy ticketing system',
  },
  {
    action_name: 'pagerduty',
    label: 'PagerDuty',
    type: '',
    is_group_compatible: 1,
    is_bulk_compatible: 1,
    execute_once_per_group: 1,
    execute_in_sync: 0,
    command: 'pagerduty',
    description: 'Trigger a PagerDuty incident',
  },
];

// ---------- glass-table icons ----------

export const IMMUTABLE_ICON_CATEGORIES = ['Server', 'Network', 'Storage', 'Cloud'];

export const BUILTIN_ICONS: Doc[] = [
  { title: 'Rack server', category: 'Server', svg_path: 'M2 2h20v6H2zM2 10h20v6H2zM2 18h20v4H2z', default_width: 64, default_height: 64 },
  {
    title: 'Blade server',
    category: 'Server',
    svg_path: 'M4 2h4v20H4zM10 2h4v20h-4zM16 2h4v20h-4z',
    default_width: 48,
    default_height: 96,
  },
  {
    title: 'Router',
    category: 'Network',
    svg_path: 'M12 2a10 10 0 1 0 0 20 10 10 0 0 0 0-20zM7 12h10M12 7v10',
    default_width: 64,
    default_height: 64,
  },
  {
    title: 'Firewall',
    category: 'Network',
    svg_path: 'M2 4h20v16H2zM2 9h20M2 14h20M8 4v5M16 9v5M8 14v6',
    default_width: 64,
    default_height: 48,
  },
  { title: 'Disk array', category: 'Storage', svg_path: 'M4 4h16v4H4zM4 10h16v4H4zM4 16h16v4H4z', default_width: 64, default_height: 80 },
  { title: 'Object bucket', category: 'Cloud', svg_path: 'M4 6l2 14h12l2-14zM3 4h18v2H3z', default_width: 56, default_height: 64 },
  {
    title: 'Cloud region',
    category: 'Cloud',
    svg_path: 'M6 18a4 4 0 0 1 0-8 6 6 0 0 1 11.7-1.5A4.5 4.5 0 0 1 18 18z',
    default_width: 96,
    default_height: 64,
  },
];
