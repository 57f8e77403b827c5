// Seed rows of event management: episodes, events, comments, tags, searches, policies, actions.
import { collection } from './store.mjs';
import { epoch, isoStamp } from './time.mjs';

const act = (action_name, label, type, group, once, sync, bulk) => ({
  label,
  type,
  is_group_compatible: group,
  action_name,
  execute_once_per_group: once,
  execute_in_sync: sync,
  is_bulk_compatible: bulk,
});

export const ACTIONS = [
  act('email', 'Send email', '', 1, '0', 0, '1'),
  act('script', 'Run a script', '', 1, '0', '0', 1),
  act('ops_event_action_link_ticket', 'Link Ticket', 'external_ticket', '1', 1, '1', 1),
  act('ops_event_action_link_url', 'Link URL', '', 1, 1, 0, '0'),
  act('ops_event_action_send_to_orchestrator', 'Send to Orchestrator', '', '1', '0', 0, 1),
  act('ops_sample_event_action_ping', 'Ping host', '', 0, 0, '1', 0),
  act('incident_desk_create', 'Incident Desk Integration', 'external_ticket', 1, '1', 0, 1),
  act('pager_rotation_alert', 'Pager Rotation Alert', '', 1, 0, 0, '1'),
];

export function actionConfig(a) {
  return {
    ttl: '10p',
    filename: a.action_name === 'script' ? 'episode_hook.sh' : '',
    track_alert: '0',
    maxresults: '10000',
    description: `${a.label} for the selected episodes`,
    label: a.label,
    maxtime: '5m',
    disabled: '0',
    hostname: '',
    icon_path: `${a.action_name}.png`,
    command: `sendalert ${a.action_name} param.ids="$ids$" param.params="$params$"`,
    'eai:userName': 'nobody',
    'eai:appName': 'SA-ITOA',
    'eai:acl': { app: 'SA-ITOA', owner: 'nobody', sharing: 'global', perms: { read: ['*'], write: ['admin'] } },
  };
}

const opt = (value, label, def = false) => ({ default: def, value, label });

export const EVENT_CONFIGURATION = {
  owners: [
    opt('unassigned', 'unassigned', true),
    opt('lenient_admin', 'lenient_admin'),
    opt('lenient_team', 'lenient_team'),
    opt('admin', 'Administrator'),
  ],
  email_formats: [opt('pdf', 'pdf', true), opt('html', 'html'), opt('csv', 'csv')],
  statuses: [
    opt('0', 'Unassigned'),
    opt('1', 'New', true),
    opt('2', 'In progress'),
    opt('3', 'Pending'),
    opt('4', 'Resolved'),
    opt('5', 'Closed'),
  ],
  severities: [
    { color: '#AED3E5', ...opt('1', 'Info', true) },
    { color: '#99D18B', ...opt('2', 'Normal') },
    { color: '#FFE98C', ...opt('3', 'Low') },
    { color: '#FCB64E', ...opt('4', 'Medium') },
    { color: '#F26A35', ...opt('5', 'High') },
    { color: '#B50101', ...opt('6', 'Critical') },
  ],
};

function put(type, row, ageSeconds) {
  const t = epoch() - ageSeconds;
  collection('em', type).put({
    _user: 'nobody',
    _owner: 'nobody',
    object_type: type,
    create_time: t,
    mod_time: t,
    mod_timestamp: isoStamp(t * 1000),
    _version: '4.19.1',
    ...row,
  });
}

export function seedEvents() {
  const groups = [
    {
      _key: 'b1362b69-24f1-49bd-a2c4-cf57de6b7e2a',
      title: 'Checkout latency above threshold',
      status: '2',
      severity: '5',
      owner: 'lenient_admin',
      service_ids: 'svc-checkout',
    },
    {
      _key: '5f0c2d8e-7a41-4b8a-9a0e-2c8e9d1f3a11',
      title: 'Disk usage critical on db hosts',
      status: '1',
      severity: '6',
      owner: 'unassigned',
      service_ids: 'svc-database',
    },
    {
      _key: '9d2b7c40-3e55-4f1e-8b6a-0f4c1e2d7b90',
      title: 'Login errors spike',
      status: '5',
      severity: '3',
      owner: 'lenient_team',
      service_ids: 'svc-auth',
    },
  ];
  groups.forEach((g, i) => {
    put(
      'notable_event_group',
      { ...g, event_id: g._key, drilldown: [{ link: 'https://ops.example.com/drill', name: 'Drilldown' }], is_active: i < 2 ? 1 : 0 },
      7200 - i * 600,
    );
  });
  const events = [
    ['e28f6a23-e447-11e7-bf0b-acbc32b4d98f', groups[0]._key, 'p95 latency 2.4s on checkout', 'high'],
    ['031f06c0-e453-11e7-b054-acbc32b4d98f', groups[0]._key, 'p99 latency 4.1s on checkout', 'critical'],
    ['7a6c0e10-1b2f-4c1b-9f57-5e3c2b1a0d44', groups[1]._key, 'disk /var 97% on db-01', 'critical'],
    ['c3d9e2f1-8a7b-4c6d-9e0f-1a2b3c4d5e6f', groups[2]._key, '1200 failed logins in 5 minutes', 'low'],
  ];
  events.forEach(([key, group, title, severity], i) => {
    put(
      'notable_event',
      {
        _key: key,
        event_id: key,
        itsi_group_id: group,
        title,
        severity,
        status: 'new',
        owner: 'unassigned',
        source: 'Seeded Correlation Search',
        host: `host-${i + 1}`,
        orig_sourcetype: 'ops_internal_log',
      },
      3600 - i * 60,
    );
  });
  put(
    'notable_event_comment',
    {
      _key: '5a3951ae9693fbcbf741b3ea',
      comment: 'Looking into the checkout pods',
      event_id: groups[0]._key,
      user: 'lenient_admin',
      owner: 'lenient_admin',
      comment_id: '5a3951ae9693fbcbf741b3ea',
    },
    3000,
  );
  put(
    'notable_event_comment',
    {
      _key: '5a4c1b589693fb9dbf20acc2',
      comment: 'Rolled back release 42',
      event_id: groups[0]._key,
      user: 'lenient_admin',
      owner: 'lenient_admin',
      comment_id: '5a4c1b589693fb9dbf20acc2',
    },
    2400,
  );
  put(
    'notable_event_tag',
    {
      _key: '5a4c14fb9693fb9dbf20acc1',
      tag_name: 'customer-facing',
      event_id: groups[0]._key,
      user: 'lenient_admin',
      owner: 'lenient_admin',
    },
    2000,
  );
  put(
    'notable_event_tag',
    { _key: '5a4c14fb9693fb9dbf20acc9', tag_name: 'storage', event_id: groups[1]._key, user: 'lenient_admin', owner: 'lenient_admin' },
    1900,
  );
  put(
    'external_ticket',
    {
      _key: '1365ea26-d4ef-11ec-bb74-005056aa27a0',
      event_id: groups[1]._key,
      ticket_system: 'IncidentDesk',
      tickets: [{ ticket_system: 'IncidentDesk', ticket_id: 'INC1234567', ticket_url: 'https://desk.example.com/INC1234567' }],
    },
    1800,
  );
  put(
    'correlation_search',
    {
      _key: 'cs_checkout_latency',
      title: 'Checkout latency breach',
      search: 'index=ops_summary kpi="Latency" alert_level>=5',
      disabled: 0,
      sec_grp: 'default_ops_security_group',
    },
    90000,
  );
  put(
    'correlation_search',
    {
      _key: 'cs_disk_usage',
      title: 'Disk usage critical',
      search: 'index=os sourcetype=df use_pct>95',
      disabled: 0,
      sec_grp: 'default_ops_security_group',
    },
    80000,
  );
  put(
    'notable_aggregation_policy',
    {
      _key: 'default_policy',
      title: 'Default Policy',
      description: 'Groups events by source',
      disabled: 0,
      sec_grp: 'default_ops_security_group',
    },
    100000,
  );
  put(
    'notable_aggregation_policy',
    {
      _key: 'np_by_service',
      title: 'Episodes by service',
      description: 'Groups events per service',
      disabled: 0,
      sec_grp: 'default_ops_security_group',
    },
    95000,
  );
}
