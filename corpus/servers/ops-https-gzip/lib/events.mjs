// Event management interface: episode objects, episode actions and ticket links.
import {
  GLOBAL_TEAM,
  bad,
  notFound,
  forbidden,
  notAllowed,
  clone,
  isObj,
  isStrArray,
  idList,
  boolParam,
  newKey,
  nowMicro,
  epochSeconds,
} from './util.mjs';
import { Collection, db } from './store.mjs';
import { canRead, requireWriteTeam } from './auth.mjs';
import { listing } from './query.mjs';
import { EMPTY } from './http.mjs';

const ev = (name, schemaFields, extra = {}) =>
  new Collection({
    name,
    schemaFields,
    defaultTeam: false,
    teamsOf: () => [GLOBAL_TEAM],
    required: [],
    ...extra,
  });

export const EVENT_TYPES = [
  'correlation_search',
  'notable_event_group',
  'notable_aggregation_policy',
  'notable_event',
  'notable_event_comment',
  'notable_event_tag',
  'external_ticket',
];

ev('correlation_search', [
  'name',
  'search',
  'enabled',
  'disabled',
  'cron_schedule',
  'dispatch.earliest_time',
  'dispatch.latest_time',
  'source_content_pack',
]);
ev('notable_event_group', ['status', 'severity', 'owner', 'event_id', 'drilldown', 'policy_id', 'is_active']);
ev('notable_aggregation_policy', [
  'filter_criteria',
  'breaking_criteria',
  'group_severity',
  'group_status',
  'enabled',
  'priority',
  'source_content_pack',
]);
ev('notable_event', ['event_id', 'severity', 'status', 'owner', 'source', 'serviceid', 'service_ids', 'host', 'event_identifier_hash']);
const _comments = ev('notable_event_comment', ['event_id', 'comment', 'user', 'owner']);
const _tags = ev('notable_event_tag', ['event_id', 'tag_name', 'user', 'owner']);
const tickets = ev('external_ticket', ['event_id', 'ticket_system', 'tickets']);

// ---- configuration & actions -------------------------------------------------------------------
export const EVENT_CONFIGURATION = {
  owners: [
    { default: true, value: 'unassigned', label: 'unassigned' },
    { default: false, value: 'ops-admin', label: 'Operations Administrator' },
    { default: false, value: 'auditor', label: 'auditor' },
    { default: false, value: 'netops', label: 'netops' },
  ],
  email_formats: [
    { default: true, value: 'pdf', label: 'pdf' },
    { default: false, value: 'html', label: 'html' },
    { default: false, value: 'csv', label: 'csv' },
  ],
  statuses: [
    { default: false, value: '0', label: 'Unassigned' },
    { default: true, value: '1', label: 'New' },
    { default: false, value: '2', label: 'In progress' },
    { default: false, value: '3', label: 'Pending' },
    { default: false, value: '4', label: 'Resolved' },
    { default: false, value: '5', label: 'Closed' },
  ],
  severities: [
    { color: '#AED3E5', default: true, value: '1', label: 'Info' },
    { color: '#99D18B', default: false, value: '2', label: 'Normal' },
    { color: '#FFE98C', default: false, value: '3', label: 'Low' },
    { color: '#FCB64E', default: false, value: '4', label: 'Medium' },
    { color: '#F26A35', default: false, value: '5', label: 'High' },
    { color: '#B50101', default: false, value: '6', label: 'Critical' },
  ],
};

const act = (action_name, label, type, flags, conf) => ({ action_name, label, type, flags, conf });
// flags: [is_group_compatible, execute_once_per_group, execute_in_sync, is_bulk_compatible]
export const ACTIONS = [
  act('email', 'Send email', '', [1, '0', '0', '1'], {
    command: 'sendemail to="$action.to$" subject="$action.subject$" format="$action.format$"',
    icon_path: 'mod_alert_icon_email.png',
  }),
  act('script', 'Run a script', '', [1, '0', '0', '0'], {
    command: 'runshellscript $action.script.param.filename$',
    icon_path: 'mod_alert_icon_script.png',
  }),
  act('ops_event_action_link_ticket', 'Link Ticket', 'external_ticket', [1, '1', '1', '1'], {
    command: 'opslinkticket ticket_system="$action.ticket_system$" ticket_id="$action.ticket_id$" ticket_url="$action.ticket_url$"',
    icon_path: 'link_ticket.png',
  }),
  act('ops_event_action_link_url', 'Link URL', '', [1, '0', '1', '0'], {
    command: 'opslinkurl url="$action.url$"',
    icon_path: 'link_url.png',
  }),
  act('ops_event_action_send_to_orchestrator', 'Send to Orchestrator', '', [0, '0', '0', '0'], {
    command: 'opssendtoorchestrator playbook="$action.playbook$"',
    icon_path: 'orchestrator.png',
  }),
  act('ops_sample_event_action_ping', 'Ping a host', '', [0, '0', '1', '0'], {
    command: 'opsping host="$action.host_to_ping$"',
    icon_path: 'ping.png',
  }),
  act('incident_desk_create_incident', 'Incident Desk Incident', 'external_ticket', [1, '1', '0', '1'], {
    command: 'incidentdesk action="create" short_description="$action.title$"',
    icon_path: 'incident_desk.png',
  }),
  act('pager_rotation_trigger', 'Pager Rotation Alert', '', [1, '1', '0', '1'], {
    command: 'pagerrotation trigger routing_key="$action.routing_key$"',
    icon_path: 'pager.png',
  }),
];
const findAction = (name) => ACTIONS.find((a) => a.action_name === name);

function actionEntry(a) {
  const [g, once, sync, bulk] = a.flags;
  return {
    label: a.label,
    type: a.type,
    is_group_compatible: g,
    action_name: a.action_name,
    execute_once_per_group: once,
    execute_in_sync: sync,
    is_bulk_compatible: bulk,
  };
}
function actionConfig(a) {
  return {
    action_name: a.action_name,
    ttl: '10p',
    filename: a.action_name === 'script' ? 'notify.sh' : '',
    track_alert: '0',
    maxresults: '10000',
    description: `${a.label} for the selected episodes`,
    label: a.label,
    maxtime: '5m',
    disabled: '0',
    hostname: 'ops-sh-01.example.net',
    icon_path: a.conf.icon_path,
    command: a.conf.command,
    'eai:userName': 'nobody',
    'eai:appName': 'SA-ITOA',
    'eai:acl': {
      app: 'SA-ITOA',
      owner: 'nobody',
      sharing: 'global',
      perms: { read: ['*'], write: ['admin', 'ops_admin'] },
      can_write: '1',
      modifiable: '1',
      removable: '0',
    },
  };
}

const episodeExists = (id) => db.notable_event_group.map.has(id);
function requireEpisodes(ids) {
  for (const id of ids) if (!episodeExists(id)) throw notFound(`No episode with identifier "${id}"`);
}

// ---- ticket links ----
function addTicket(ctx, eventId, system, ticketId, url) {
  const link = tickets.all().find((t) => t.event_id === eventId && t.ticket_system === system);
  const entry = { ticket_system: system, ticket_url: url, ticket_id: ticketId };
  if (link) {
    const cand = clone(link);
    const i = cand.tickets.findIndex((t) => t.ticket_id === ticketId);
    if (i >= 0) cand.tickets[i] = entry;
    else cand.tickets.push(entry);
    return tickets.commit(ctx, cand, link, { full: false })._key;
  }
  return tickets.commit(ctx, { event_id: eventId, ticket_system: system, tickets: [entry] }, undefined, { full: false })._key;
}

function ticketFields(src, names, where) {
  const out = {};
  for (const n of names) {
    const v = src[n];
    if (typeof v !== 'string' || v.trim() === '') throw bad(`Field "${n}" is required and must be a string${where}`);
    out[n] = v;
  }
  return out;
}

function ticketingPost(ctx, body) {
  requireWriteTeam(ctx.user, GLOBAL_TEAM);
  if (!isObj(body)) throw bad('Payload must be {id, ticket_system, ticket_id, ticket_url}');
  const f = ticketFields(body, ['id', 'ticket_system', 'ticket_id', 'ticket_url'], '');
  const ids = idList(f.id);
  if (!ids.length) throw bad('Field "id" names no episode');
  requireEpisodes(ids);
  const keys = ids.map((id) => addTicket(ctx, id, f.ticket_system, f.ticket_id, f.ticket_url));
  return keys.join(',');
}

function ticketingGet(ctx, key, q) {
  if (!canRead(ctx.user, GLOBAL_TEAM)) return [];
  const ids = new Set([key, ...idList(q.has('ids') ? q.get('ids') : undefined)]);
  const sys = q.has('ticket_system') ? q.get('ticket_system') : undefined;
  const tid = q.has('ticket_id') ? q.get('ticket_id') : undefined;
  const turl = q.has('ticket_url') ? q.get('ticket_url') : undefined;
  return tickets
    .all()
    .filter(
      (t) =>
        ids.has(t.event_id) &&
        (sys === undefined || t.ticket_system === sys) &&
        (tid === undefined || t.tickets.some((x) => x.ticket_id === tid)) &&
        (turl === undefined || t.tickets.some((x) => x.ticket_url === turl)),
    )
    .sort((a, b) => Buffer.compare(Buffer.from(a._key), Buffer.from(b._key)))
    .map((t) => tickets.out(ctx, t));
}

function ticketingPostKey(ctx, key, q, body) {
  requireWriteTeam(ctx.user, GLOBAL_TEAM);
  if (body !== undefined && !isObj(body)) throw bad('Payload must be an object {ticket_system, ticket_id, ticket_url}');
  const src = { ...(body || {}) };
  for (const n of ['ids', 'ticket_system', 'ticket_id', 'ticket_url']) if (q.has(n)) src[n] = q.get(n); // query wins
  const f = ticketFields(src, ['ticket_system', 'ticket_id', 'ticket_url'], ' (query parameter or payload)');
  if (src.ids !== undefined && typeof src.ids !== 'string' && !isStrArray(src.ids)) throw bad('"ids" must be a string');
  const ids = [...new Set([key, ...idList(src.ids)])];
  requireEpisodes(ids);
  return ids.map((id) => addTicket(ctx, id, f.ticket_system, f.ticket_id, f.ticket_url));
}

function ticketingDelete(ctx, eventId, system, ticketId) {
  requireWriteTeam(ctx.user, GLOBAL_TEAM);
  const link = tickets
    .all()
    .find((t) => t.event_id === eventId && t.ticket_system === system && t.tickets.some((x) => x.ticket_id === ticketId));
  if (!link) throw notFound(`No ticket ${ticketId} of ${system} linked to episode ${eventId}`);
  const rest = link.tickets.filter((x) => x.ticket_id !== ticketId);
  if (!rest.length) tickets.map.delete(link._key);
  else {
    const cand = clone(link);
    cand.tickets = rest;
    tickets.commit(ctx, cand, link, { full: false });
  }
  return EMPTY;
}

function executeAction(ctx, a, body) {
  requireWriteTeam(ctx.user, GLOBAL_TEAM);
  if (!isObj(body)) throw bad('Payload must be {params: {...}, ids: [episode id]}');
  if (!isStrArray(body.ids) || body.ids.length === 0) throw bad('"ids" must be a non-empty array of episode identifiers');
  if (body.params !== undefined && !isObj(body.params)) throw bad('"params" must be an object');
  const params = body.params || {};
  const ids = [...new Set(body.ids)];
  requireEpisodes(ids);
  if (a.action_name === 'ops_event_action_link_ticket') {
    const f = ticketFields(params, ['ticket_system', 'ticket_id', 'ticket_url'], ' in params');
    for (const id of ids) addTicket(ctx, id, f.ticket_system, f.ticket_id, f.ticket_url);
  }
  const sid = () => `rest_${ctx.user.name.replace(/[^A-Za-z0-9]/g, '')}_${Math.floor(epochSeconds(nowMicro()))}_${newKey().slice(0, 10)}`;
  if (a.flags[3] === '1') return [{ action_name: a.action_name, ids, sid: sid() }];
  return ids.map((id) => ({ action_name: a.action_name, ids: [id], sid: sid() }));
}

export function eventRoutes(ctx, method, segs, q) {
  const [a, b, c, d] = segs;
  if (a === 'notable_event_actions') {
    if (segs.length === 1) {
      if (method !== 'GET') throw notAllowed(['GET']);
      return canRead(ctx.user, GLOBAL_TEAM)
        ? [...ACTIONS].sort((x, y) => Buffer.compare(Buffer.from(x.action_name), Buffer.from(y.action_name))).map(actionEntry)
        : [];
    }
    if (segs.length === 2) {
      const act = findAction(b);
      if (!act) throw notFound(`Unknown episode action "${b}"`);
      if (method === 'GET') {
        if (!canRead(ctx.user, GLOBAL_TEAM)) throw forbidden(`User ${ctx.user.name} cannot read episode actions`);
        return actionConfig(act);
      }
      if (method === 'POST') return executeAction(ctx, act, ctx.json());
      throw notAllowed(['GET', 'POST']);
    }
    throw notFound(`Unknown path ${segs.join('/')}`);
  }
  if (a === 'ticketing') {
    if (segs.length === 1) {
      if (method !== 'POST') throw notAllowed(['POST']);
      return ticketingPost(ctx, ctx.json());
    }
    if (segs.length === 2) {
      if (method === 'GET') return ticketingGet(ctx, b, q);
      if (method === 'POST') return ticketingPostKey(ctx, b, q, ctx.json());
      throw notAllowed(['GET', 'POST']);
    }
    if (segs.length === 4) {
      if (method !== 'DELETE') throw notAllowed(['DELETE']);
      return ticketingDelete(ctx, b, c, d);
    }
    throw notFound(`Unknown path ${segs.join('/')}`);
  }
  if (a === 'notable_event_configuration' && segs.length === 2 && b === 'all_info') {
    if (method !== 'GET') throw notAllowed(['GET']);
    if (!canRead(ctx.user, GLOBAL_TEAM)) throw forbidden(`User ${ctx.user.name} cannot read the episode configuration`);
    return clone(EVENT_CONFIGURATION);
  }
  if (!EVENT_TYPES.includes(a)) throw notFound(`Unknown event management object type "${a || ''}"`);
  const coll = db[a];
  if (segs.length === 1) {
    if (method === 'GET') {
      boolParam(q, 'is_partial_data', false); // accepted, validated, no effect on reads
      let items = coll
        .all()
        .filter((o) => coll.readable(ctx, o))
        .map((o) => coll.out(ctx, o));
      if (a === 'notable_event' && q.has('ids')) {
        const ids = new Set(idList(q.get('ids')));
        items = items.filter((o) => ids.has(o._key) || ids.has(o.event_id));
      }
      return listing(items, q, ctx, { filterName: 'filter_data', offsetName: 'skip' }).rows;
    }
    if (method === 'POST' && (a === 'notable_event_comment' || a === 'notable_event_tag')) {
      requireWriteTeam(ctx.user, GLOBAL_TEAM);
      const body = ctx.json();
      if (!isObj(body)) throw bad('Payload must be a JSON object');
      const field = a === 'notable_event_comment' ? 'comment' : 'tag_name';
      if (typeof body.event_id !== 'string' || !body.event_id) throw bad('Field "event_id" is required');
      if (typeof body[field] !== 'string' || !body[field].trim()) throw bad(`Field "${field}" is required and must be a non-empty string`);
      if (!episodeExists(body.event_id) && !db.notable_event.map.has(body.event_id))
        throw notFound(`No episode with identifier "${body.event_id}"`);
      const saved = coll.commit(
        ctx,
        { event_id: body.event_id, [field]: body[field], user: ctx.user.name, owner: ctx.user.name },
        undefined,
        { full: false },
      );
      return { _key: saved._key };
    }
    throw notAllowed(a === 'notable_event_comment' || a === 'notable_event_tag' ? ['GET', 'POST'] : ['GET']);
  }
  if (segs.length === 2) {
    if (method === 'GET') {
      if (boolParam(q, 'is_event_id', false)) {
        return coll
          .all()
          .filter((o) => o.event_id === b && coll.readable(ctx, o))
          .map((o) => coll.out(ctx, o))
          .sort((x, y) => Buffer.compare(Buffer.from(x._key), Buffer.from(y._key)));
      }
      return coll.out(ctx, coll.get(ctx, b));
    }
    if (a === 'notable_event_comment') {
      throw Object.assign(notAllowed(['GET']), { text: 'Episode comments are append-only: update and delete are not supported' });
    }
    if (a === 'notable_event_tag' && method === 'DELETE') {
      coll.remove(ctx, b);
      return EMPTY;
    }
    throw notAllowed(a === 'notable_event_tag' ? ['GET', 'DELETE'] : ['GET']);
  }
  throw notFound(`Unknown path ${segs.join('/')}`);
}
