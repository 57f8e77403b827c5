import { type Doc, seedKey, isoNow, modTime, plainTime, epochNow, isObj, isStrArray } from './lib.js';

export const VERSION = '4.19.1';
export const GLOBAL_TEAM = 'default_ops_security_group';
const TEAM_OF_OPS_TEAM = seedKey('team:ops_team');

export interface User {
  name: string;
  password: string;
  roles: string[];
  admin: boolean;
  readOnly: boolean;
}
export const USERS: User[] = [
  { name: 'ops_admin', password: 'Adm1n!pw', roles: ['ops_admin'], admin: true, readOnly: false },
  { name: 'ops_ro', password: 'R3ad!pw', roles: ['ops_user'], admin: false, readOnly: true },
  { name: 'ops_team', password: 'T3am!pw', roles: ['ops_team_analyst'], admin: false, readOnly: false },
];

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
export const SUPPORTED_TYPES = [...CORE_TYPES, 'entity_relationship', 'entity_relationship_rule'];
export const EM_TYPES = ['correlation_search', 'notable_event_group', 'notable_aggregation_policy', 'notable_event_comment'];

export class Coll {
  m = new Map<string, Doc>();
  get(k: string): Doc | undefined {
    return this.m.get(k);
  }
  set(k: string, d: Doc): void {
    this.m.set(k, d);
  }
  del(k: string): boolean {
    return this.m.delete(k);
  }
  all(): Doc[] {
    return [...this.m.values()].sort((a, b) => String(a._key).localeCompare(String(b._key)));
  }
}

const core = new Map<string, Coll>(SUPPORTED_TYPES.map((t) => [t, new Coll()]));
export const em = new Map<string, Coll>(EM_TYPES.map((t) => [t, new Coll()]));
export const tickets = new Coll();
export const maint = new Coll();
export const backups = new Coll();
export const icons = new Coll();
export const authored = new Coll();
/** hidden memory of service links of retired entities */
export const retiredLinks = new Map<string, Doc[]>();

export function coll(type: string): Coll {
  const c = core.get(type);
  if (!c) throw new Error('no coll ' + type);
  return c;
}

// ---------- permissions ----------
function teamAcl(teamKey: string, mode: 'read' | 'write'): string[] {
  const t = coll('team').get(teamKey);
  if (!t || !isObj(t.acl)) return [];
  const v = t.acl[mode];
  return isStrArray(v) ? v : [];
}
export function canReadTeam(u: User, teamKey: string): boolean {
  if (u.admin) return true;
  return teamAcl(teamKey, 'read').some((r) => u.roles.includes(r));
}
export function canWriteTeam(u: User, teamKey: string): boolean {
  if (u.readOnly) return false;
  if (u.admin) return true;
  return teamAcl(teamKey, 'write').some((r) => u.roles.includes(r));
}
export function defaultTeam(u: User): string {
  if (canWriteTeam(u, GLOBAL_TEAM) || u.readOnly) return GLOBAL_TEAM;
  const own = coll('team')
    .all()
    .find((t) => canWriteTeam(u, String(t._key)));
  return own ? String(own._key) : GLOBAL_TEAM;
}
export function canReadCore(u: User, type: string, d: Doc): boolean {
  if (u.admin) return true;
  if (type === 'team') return canReadTeam(u, String(d._key));
  return canReadTeam(u, typeof d.sec_grp === 'string' ? d.sec_grp : GLOBAL_TEAM);
}
export function canWriteCore(u: User, type: string, d: Doc): boolean {
  if (u.readOnly) return false;
  if (u.admin) return true;
  if (type === 'team') return canWriteTeam(u, String(d._key));
  return canWriteTeam(u, typeof d.sec_grp === 'string' ? d.sec_grp : GLOBAL_TEAM);
}
export function canReadGroups(u: User, list: unknown): boolean {
  if (u.admin) return true;
  const l = isStrArray(list) && list.length ? list : [GLOBAL_TEAM];
  return l.some((k) => canReadTeam(u, k));
}
export function canWriteGroups(u: User, list: unknown): boolean {
  if (u.readOnly) return false;
  if (u.admin) return true;
  const l = isStrArray(list) && list.length ? list : [GLOBAL_TEAM];
  return l.every((k) => canWriteTeam(u, k));
}
export function canReadJob(u: User, d: Doc): boolean {
  return u.admin || u.readOnly || d._owner === u.name;
}

export function common(type: string, title: string, extra: Doc = {}): Doc {
  return {
    object_type: type,
    _version: VERSION,
    _user: 'nobody',
    mod_source: 'REST',
    mod_timestamp: isoNow(),
    identifying_name: title.toLowerCase(),
    sec_grp: GLOBAL_TEAM,
    title,
    ...extra,
  };
}

// ---------- thresholds ----------
export const SEVERITIES: Record<string, [number, string, string]> = {
  critical: [6, '#B50101', '#E5A6A6'],
  high: [5, '#F26A35', '#FBCBB9'],
  medium: [4, '#FCB64E', '#FEE6C1'],
  low: [3, '#FFE98C', '#FFF4C5'],
  normal: [2, '#99D18B', '#DCEFD7'],
  info: [1, '#AED3E5', '#E3F0F6'],
};
function thresholds(levels: Array<[string, number]>, base = 'normal'): Doc {
  const b = SEVERITIES[base];
  return {
    isMinStatic: false,
    isMaxStatic: false,
    gaugeMin: 0,
    gaugeMax: 100,
    renderBoundaryMin: 0,
    renderBoundaryMax: 100,
    metricField: 'count',
    search: '',
    baseSeverityLabel: base,
    baseSeverityValue: b[0],
    baseSeverityColor: b[1],
    baseSeverityColorLight: b[2],
    thresholdLevels: levels.map(([label, v]) => ({
      severityValue: SEVERITIES[label][0],
      thresholdValue: v,
      severityLabel: label,
      severityColor: SEVERITIES[label][1],
      severityColorLight: SEVERITIES[label][2],
    })),
  };
}

function kpi(serviceKey: string, title: string, n: number): Doc {
  return {
    _key: seedKey(`kpi:${serviceKey}:${n}`),
    title,
    service_id: serviceKey,
    type: 'kpis_primary',
    urgency: '5',
    target: '',
    search_type: 'shared_base',
    threshold_field: 'cpu_load_percent',
    kpi_base_search: seedKey('kbs:os'),
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
    aggregate_thresholds: thresholds([
      ['medium', 70],
      ['high', 85],
      ['critical', 95],
    ]),
    entity_thresholds: thresholds([
      ['medium', 70],
      ['high', 85],
      ['critical', 95],
    ]),
    time_variate_thresholds_specification: {
      policies: {
        default_policy: {
          title: 'Default',
          aggregate_thresholds: thresholds([['critical', 95]]),
          entity_thresholds: thresholds([['critical', 95]]),
          policy_type: 'static',
        },
      },
      time_blocks: [],
    },
  };
}

export interface LibPack {
  pack: Doc;
  contents: Record<string, Doc[]>;
  savedSearches: Array<{ name: string; error?: string }>;
}
export const library = new Map<string, LibPack>();
export const libraryFailures: Doc[] = [];
/** apps present on disk but not (yet) in ops_content_packs.conf */
export const localApps = new Set<string>();

function mkPack(
  id: string,
  title: string,
  version: string,
  groups: Record<string, string[]>,
  ss: Array<{ name: string; error?: string }>,
): void {
  const contents: Record<string, Doc[]> = {};
  for (const [g, titles] of Object.entries(groups)) {
    contents[g] = titles.map((t) => ({ id: seedKey(`cp:${id}:${g}:${t}`), title: t, description: `${t} (from ${title})` }));
  }
  library.set(id, {
    pack: {
      id,
      title,
      description: `Out-of-the-box content for ${title}.`,
      overview: `${title} provides services, KPIs and visualizations ready to use.`,
      author: 'Platform Inc.',
      version,
      icon: `/static/app/${id}/icon.png`,
      help_links: [`https://docs.example.com/cp/${id}`],
      installed_versions: [],
      screenshots: [{ path: `/static/app/${id}/screenshot1.png`, thumb: `/static/app/${id}/screenshot1_thumb.png` }],
      main_screenshot: { path: `/static/app/${id}/main.png`, thumb: `/static/app/${id}/main_thumb.png` },
    },
    contents,
    savedSearches: ss,
  });
}

export function seed(): void {
  const teams = coll('team');
  teams.set(GLOBAL_TEAM, {
    ...common('team', 'Global'),
    _key: GLOBAL_TEAM,
    sec_grp: GLOBAL_TEAM,
    description: 'The Global team. Objects in this team are visible to everyone with global read access.',
    acl: { read: ['ops_admin', 'ops_user'], write: ['ops_admin'], owner: 'nobody' },
  });
  teams.set(TEAM_OF_OPS_TEAM, {
    ...common('team', 'Operations Team'),
    _key: TEAM_OF_OPS_TEAM,
    sec_grp: GLOBAL_TEAM,
    description: 'Private team of the operations analysts.',
    acl: { read: ['ops_admin', 'ops_user', 'ops_team_analyst'], write: ['ops_admin', 'ops_team_analyst'], owner: 'ops_team' },
  });

  // base search, services, template
  const kbs = seedKey('kbs:os');
  coll('kpi_base_search').set(kbs, {
    ...common('kpi_base_search', 'OS Performance Base Search'),
    _key: kbs,
    description: 'Shared base search for OS metrics',
    base_search: '| mstats avg(cpu.load) as cpu_load_percent WHERE index=os_metrics by host',
    search_alert_earliest: '5',
    alert_period: '5',
    alert_lag: '30',
    is_entity_breakdown: true,
    entity_id_fields: 'host',
    metrics: [
      {
        _key: seedKey('kbs:os:m1'),
        title: 'CPU load',
        threshold_field: 'cpu_load_percent',
        aggregate_statop: 'avg',
        entity_statop: 'avg',
        unit: '%',
      },
    ],
  });

  const tpl = seedKey('tpl:linux');
  const svcWeb = seedKey('svc:web');
  const svcDb = seedKey('svc:db');
  const svcTeam = seedKey('svc:teamapp');
  coll('base_service_template').set(tpl, {
    ...common('base_service_template', 'Linux Host Template'),
    _key: tpl,
    description: 'Template for Linux hosts',
    entity_rules: [{ rule_condition: 'AND', rule_items: [{ field: 'os', field_type: 'info', rule_type: 'matches', value: 'linux' }] }],
    kpis: [kpi(tpl, 'CPU Utilization', 1)],
    linked_services: [svcWeb],
    enabled: 1,
  });
  const svc = (key: string, title: string, team: string, dep: string[], tplKey: string): Doc => ({
    ...common('service', title),
    _key: key,
    sec_grp: team,
    description: `${title} service`,
    enabled: 1,
    entity_rules: [
      {
        rule_condition: 'AND',
        rule_items: [{ field: 'host', field_type: 'alias', rule_type: 'matches', value: `${title.toLowerCase().split(' ')[0]}*` }],
      },
    ],
    services_depends_on: dep.map((s) => ({ serviceid: s, kpis_depending_on: [] })),
    tags: ['production'],
    kpis: [kpi(key, 'CPU Utilization', 1), kpi(key, 'Memory Used', 2)],
    base_service_template_id: tplKey,
  });
  coll('service').set(svcDb, svc(svcDb, 'Database Tier', GLOBAL_TEAM, [], ''));
  coll('service').set(svcWeb, svc(svcWeb, 'Web Frontend', GLOBAL_TEAM, [svcDb], tpl));
  coll('service').set(svcTeam, svc(svcTeam, 'Team Checkout App', TEAM_OF_OPS_TEAM, [], ''));

  const ent = (label: string, host: string, team: string, services: Doc[], retirable: boolean, os = 'linux'): void => {
    const k = seedKey('ent:' + label);
    const d: Doc = {
      ...common('entity', host),
      _key: k,
      sec_grp: team,
      description: `Host ${host}`,
      identifier: { fields: ['host'], values: [host] },
      informational: { fields: ['os'], values: [os] },
      host: [host],
      os: [os],
      services,
      create_by: 'ops_admin',
      mod_by: 'ops_admin',
      create_source: 'REST',
      _type: 'entity',
      create_time: isoNow(),
      mod_time: modTime(),
      entity_type_ids: [seedKey('etype:unix')],
    };
    if (retirable) d.retirable = 1;
    coll('entity').set(k, d);
  };
  ent('web01', 'web01.example.com', GLOBAL_TEAM, [{ _key: svcWeb, title: 'Web Frontend' }], false);
  ent('web02', 'web02.example.com', GLOBAL_TEAM, [{ _key: svcWeb, title: 'Web Frontend' }], true);
  ent('db01', 'db01.example.com', GLOBAL_TEAM, [{ _key: svcDb, title: 'Database Tier' }], false);
  ent('old01', 'legacy-app01.example.com', GLOBAL_TEAM, [{ _key: svcDb, title: 'Database Tier' }], true, 'windows');
  ent('team01', 'checkout01.example.com', TEAM_OF_OPS_TEAM, [{ _key: svcTeam, title: 'Team Checkout App' }], true);

  coll('entity_type').set(seedKey('etype:unix'), {
    ...common('entity_type', '*nix'),
    _key: seedKey('etype:unix'),
    description: 'Unix and Linux hosts',
    vital_metrics: [],
    data_drilldowns: [],
    dashboard_drilldowns: [],
  });

  // threshold template with time blocks
  const ttk = seedKey('ktt:business-hours');
  const blocks: Doc[] = [];
  for (let day = 0; day <= 5; day++) {
    for (const h of [0, 8, 10]) {
      if (day === 5 && h > 10) continue;
      blocks.push({
        policy_key: h >= 8 && day <= 4 ? 'business_hours' : 'default_policy',
        time_block_key: `${String(day).padStart(2, '0')}-${String(h).padStart(2, '0')}`,
      });
    }
  }
  coll('kpi_threshold_template').set(ttk, {
    ...common('kpi_threshold_template', 'Business hours static thresholds'),
    _key: ttk,
    description: 'Tighter thresholds during business hours',
    adaptive_thresholds_is_enabled: false,
    adaptive_thresholding_training_window: '-7d',
    time_variate_thresholds: true,
    time_variate_thresholds_specification: {
      policies: {
        default_policy: {
          title: 'Default',
          aggregate_thresholds: thresholds([
            ['medium', 80],
            ['critical', 95],
          ]),
          entity_thresholds: thresholds([
            ['medium', 80],
            ['critical', 95],
          ]),
          policy_type: 'static',
        },
        business_hours: {
          title: 'Business hours',
          aggregate_thresholds: thresholds([
            ['low', 50],
            ['medium', 65],
            ['high', 75],
            ['critical', 90],
          ]),
          entity_thresholds: thresholds([
            ['low', 50],
            ['medium', 65],
            ['high', 75],
            ['critical', 90],
          ]),
          policy_type: 'static',
        },
      },
      time_blocks: blocks,
    },
  });

  coll('glass_table').set(seedKey('gt:overview'), {
    ...common('glass_table', 'Operations Overview'),
    _key: seedKey('gt:overview'),
    description: 'NOC overview',
    content: [],
  });
  coll('home_view').set(seedKey('hv:default'), {
    ...common('home_view', 'Default Service Analyzer'),
    _key: seedKey('hv:default'),
    description: '',
    isDefault: true,
  });
  coll('deep_dive').set(seedKey('dd:web'), {
    ...common('deep_dive', 'Web Frontend Deep Dive'),
    _key: seedKey('dd:web'),
    description: '',
    lane_settings_collection: [],
  });

  // custom threshold window
  const now = epochNow();
  const ctw = seedKey('ctw:blackfriday');
  coll('custom_threshold_windows').set(ctw, {
    ...common('custom_threshold_windows', 'Black Friday surge'),
    _key: ctw,
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
    duration: 86400 + 3600,
    recurrence: false,
    is_overlapping: false,
    overlapping_kpis: [],
    linked_services: [{ service_id: svcWeb, linked_kpi_ids: [seedKey(`kpi:${svcWeb}:1`)] }],
    sec_grp_list: [GLOBAL_TEAM],
  });

  // event management
  const cs = em.get('correlation_search')!;
  cs.set(seedKey('cs:cpu'), {
    ...common('correlation_search', 'High CPU on web tier'),
    _key: seedKey('cs:cpu'),
    name: 'High CPU on web tier',
    search: 'index=os_metrics cpu_load_percent>95',
    disabled: 0,
    cron_schedule: '*/5 * * * *',
  });
  cs.set(seedKey('cs:disk'), {
    ...common('correlation_search', 'Disk nearly full'),
    _key: seedKey('cs:disk'),
    name: 'Disk nearly full',
    search: 'index=os disk_used_pct>90',
    disabled: 1,
    cron_schedule: '*/15 * * * *',
  });
  const nap = em.get('notable_aggregation_policy')!;
  nap.set(seedKey('nap:default'), {
    ...common('notable_aggregation_policy', 'Default Policy'),
    _key: seedKey('nap:default'),
    description: 'Groups all episodes not matched by other policies',
    disabled: 0,
    priority: 5,
  });
  const eps = em.get('notable_event_group')!;
  const ep = (n: number, title: string, severity: string, status: string, owner: string): void => {
    const k = seedKey('ep:' + n);
    eps.set(k, {
      _key: k,
      object_type: 'notable_event_group',
      title,
      description: `${title} — grouped by the default policy`,
      severity,
      status,
      owner,
      policy_id: seedKey('nap:default'),
      event_count: 3 * n + 1,
      first_event_time: now - 7200 * n,
      last_event_time: now - 60 * n,
      is_active: status !== '5',
      _version: VERSION,
      mod_time: modTime(),
    });
  };
  ep(1, 'High CPU on web01.example.com', '6', '1', 'unassigned');
  ep(2, 'Disk nearly full on db01.example.com', '4', '2', 'ops_admin');
  ep(3, 'Service Web Frontend degraded', '5', '5', 'ops_team');
  em.get('notable_event_comment')!.set(seedKey('cmt:1'), {
    _key: seedKey('cmt:1'),
    object_type: 'notable_event_comment',
    event_id: seedKey('ep:2'),
    comment: 'Investigating disk growth',
    _user: 'ops_admin',
    create_time: now - 600,
    mod_time: modTime(),
  });
  const tk = seedKey('tk:1');
  tickets.set(tk, {
    _key: tk,
    object_type: 'external_ticket',
    _user: 'ops_admin',
    event_id: seedKey('ep:2'),
    ticket_system: 'ticketing',
    tickets: [{ ticket_system: 'ticketing', ticket_id: 'INC0010042', ticket_url: 'https://tickets.example.com/INC0010042' }],
  });

  // maintenance
  const mw = seedKey('mw:patch');
  maint.set(mw, {
    ...common('maintenance_calendar', 'Monthly DB patching'),
    _key: mw,
    start_time: now + 86400 * 3,
    end_time: now + 86400 * 3 + 7200,
    objects: [{ object_type: 'service', _key: svcDb }],
    sec_grp_list: [GLOBAL_TEAM],
    _owner: 'ops_admin',
  });
  const mw2 = seedKey('mw:team');
  maint.set(mw2, {
    ...common('maintenance_calendar', 'Checkout release window'),
    _key: mw2,
    sec_grp: TEAM_OF_OPS_TEAM,
    start_time: now + 3600,
    end_time: now + 5400.5,
    objects: [{ object_type: 'service', _key: svcTeam }],
    sec_grp_list: [TEAM_OF_OPS_TEAM],
    _owner: 'ops_team',
  });

  // backups
  const bk = seedKey('backup:default');
  backups.set(bk, {
    ...common('backup_restore', 'Default Scheduled Backup'),
    _key: bk,
    job_type: 'Backup',
    status: 'Completed',
    create_time: plainTime(new Date((now - 86400 * 30) * 1000)),
    start_time: now - 3600,
    end_time: now - 3540,
    last_queued_time: now - 3600,
    path: '/opt/platform/var/ops/backups/default_scheduled_backup.zip',
    search_head_id: 'SH-7F3A2C',
    platform_server: 'localhost',
    rules: [],
    last_error: '',
    _owner: 'nobody',
    scheduled: 1,
    frequency: 'daily',
    scheduled_time: '01:00',
    is_default: 1,
  });

  // icons
  const icon = (label: string, title: string, category: string): void => {
    const k = seedKey('icon:' + label);
    icons.set(k, {
      _key: k,
      title,
      svg_path: `M0 0 L32 0 L32 32 L0 32 Z M8 8 L24 24`,
      default_width: '32',
      default_height: '32',
      category,
    });
  };
  icon('server', 'Server', 'Server');
  icon('router', 'Router', 'Network');
  icon('switch', 'Switch', 'Network');
  icon('db', 'Database', 'Storage');
  icon('cloud', 'Cloud', 'Custom');

  // content pack library
  mkPack(
    'DA-ops-CP-unix-monitoring',
    'Monitoring Unix and Linux',
    '1.4.0',
    {
      entity_types: ['*nix host'],
      services: ['Unix Host Health', 'Unix Disk Health'],
      service_templates: ['Unix OS template'],
      kpi_base_searches: ['Unix OS metrics'],
      glass_tables: ['Unix fleet overview'],
      service_analyzers: ['Unix analyzer'],
    },
    [{ name: 'ops_cp_unix_collect_inventory' }, { name: 'ops_cp_unix_entity_discovery' }],
  );
  mkPack(
    'DA-ops-CP-network-monitoring',
    'Monitoring Network Devices',
    '2.1.3',
    {
      entity_types: ['Network device'],
      services: ['Core Network'],
      correlation_searches: ['Interface down'],
      notable_aggregation_policies: ['Network episodes'],
      glass_tables: ['Network topology'],
    },
    [{ name: 'ops_cp_net_device_discovery' }, { name: 'ops_cp_net_lookup_gen', error: "Lookup 'cp_network_devices' does not exist." }],
  );
  mkPack(
    'DA-ops-CP-enterprise-apps',
    'Enterprise Application Monitoring',
    '1.0.1',
    {
      services: ['Order Processing'],
      kpi_threshold_templates: ['Application latency thresholds'],
      deep_dives: ['Order Processing deep dive'],
      service_analyzers: ['Applications analyzer'],
    },
    [],
  );
  libraryFailures.push({
    id: 'DA-ops-CP-legacy-storage',
    version: '0.9.2',
    error_message: "Unable to load content pack: 'content_pack.json' is missing or malformed.",
  });
  localApps.add('DA-ops-CP-virtualization');
}

export const GROUP_TYPES: Record<string, { type: string; store: 'core' | 'em' }> = {
  entity_types: { type: 'entity_type', store: 'core' },
  services: { type: 'service', store: 'core' },
  service_templates: { type: 'base_service_template', store: 'core' },
  kpi_base_searches: { type: 'kpi_base_search', store: 'core' },
  kpi_threshold_templates: { type: 'kpi_threshold_template', store: 'core' },
  glass_tables: { type: 'glass_table', store: 'core' },
  service_analyzers: { type: 'home_view', store: 'core' },
  deep_dives: { type: 'deep_dive', store: 'core' },
  correlation_searches: { type: 'correlation_search', store: 'em' },
  notable_aggregation_policies: { type: 'notable_aggregation_policy', store: 'em' },
};

export function mkVirtualizationPack(): void {
  mkPack(
    'DA-ops-CP-virtualization',
    'Monitoring Virtualization',
    '3.0.0',
    {
      entity_types: ['Hypervisor', 'Virtual machine'],
      services: ['Virtualization Cluster'],
    },
    [],
  );
}

// ---------- episode actions ----------
export const ACTIONS: Doc[] = [
  {
    action_name: 'email',
    label: 'Send email',
    type: '',
    is_group_compatible: 1,
    execute_once_per_group: 0,
    execute_in_sync: 0,
    is_bulk_compatible: 1,
  },
  {
    action_name: 'script',
    label: 'Run a script',
    type: '',
    is_group_compatible: 1,
    execute_once_per_group: 0,
    execute_in_sync: 0,
    is_bulk_compatible: 1,
  },
  {
    action_name: 'ops_event_action_link_ticket',
    label: 'Link Ticket',
    type: 'external_ticket',
    is_group_compatible: '1',
    execute_once_per_group: '1',
    execute_in_sync: '1',
    is_bulk_compatible: '1',
  },
  {
    action_name: 'ops_event_action_link_url',
    label: 'Link URL',
    type: '',
    is_group_compatible: '1',
    execute_once_per_group: '1',
    execute_in_sync: '1',
    is_bulk_compatible: '0',
  },
  {
    action_name: 'ops_event_action_send_to_orchestrator',
    label: 'Send to Orchestrator',
    type: '',
    is_group_compatible: 1,
    execute_once_per_group: 1,
    execute_in_sync: 0,
    is_bulk_compatible: 1,
  },
  {
    action_name: 'ops_sample_event_action_ping',
    label: 'Ping a host',
    type: '',
    is_group_compatible: 0,
    execute_once_per_group: 0,
    execute_in_sync: 1,
    is_bulk_compatible: 0,
  },
  {
    action_name: 'ticketing_incident',
    label: 'Create a ticketing-system incident',
    type: 'external_ticket',
    is_group_compatible: 1,
    execute_once_per_group: 1,
    execute_in_sync: 0,
    is_bulk_compatible: 1,
  },
  {
    action_name: 'paging_incident',
    label: 'Page the on-call responder',
    type: '',
    is_group_compatible: 1,
    execute_once_per_group: 1,
    execute_in_sync: 0,
    is_bulk_compatible: 1,
  },
];
export function actionConfig(a: Doc): Doc {
  const name = String(a.action_name);
  return {
    name,
    ttl: '10p',
    filename: name === 'script' ? '' : `${name}.py`,
    track_alert: '0',
    maxresults: '10000',
    description: String(a.label),
    label: String(a.label),
    maxtime: '5m',
    disabled: '0',
    hostname: '',
    icon_path: `${name}.png`,
    command: `sendalert ${name} param.ids="$ids$" param.params="$params$" | head 1`,
    is_custom: name.startsWith('ops_') ? '1' : '0',
    'eai:userName': 'nobody',
    'eai:appName': 'SA-ITOA',
    'eai:acl': {
      app: 'SA-ITOA',
      owner: 'nobody',
      sharing: 'global',
      can_write: true,
      modifiable: true,
      removable: false,
      perms: { read: ['*'], write: ['ops_admin'] },
    },
  };
}
