// event_management_interface: episodes and other event objects, episode actions, ticket links.
import { GLOBAL_TEAM, HttpError, bad, notFound, forbidden, isObj, clone, epoch, epochInt, hex, objectIdKey } from './util.mjs';
import * as db from './store.mjs';
import { canReadTeam, canWriteTeam, requireWriter } from './auth.mjs';
import { lastParam } from './query.mjs';
import { genericRoutes, getOne, listObjects } from './core.mjs';
import { createOrUpdate, present } from './objects.mjs';

export const EVENT_TYPES = [
  'correlation_search',
  'notable_event_group',
  'notable_aggregation_policy',
  'notable_event_comment',
  'notable_event_tag',
];
const APPEND_ONLY = new Set(['notable_event_comment']);
const TICKETS = 'event:external_ticket';
const mna = (allow) => new HttpError(405, `Method not allowed; use ${allow.join(', ')}`, { Allow: allow.join(', ') });
const LIST_OPTS = { offsetName: 'skip', filterName: 'filter_data' };

// ---------- actions ----------
export const ACTIONS = [
  {
    action_name: 'email',
    label: 'Send email',
    type: '',
    is_group_compatible: 1,
    execute_once_per_group: '0',
    execute_in_sync: 0,
    is_bulk_compatible: '1',
  },
  {
    action_name: 'script',
    label: 'Run a script',
    type: '',
    is_group_compatible: '1',
    execute_once_per_group: 0,
    execute_in_sync: '0',
    is_bulk_compatible: 0,
  },
  {
    action_name: 'ops_event_action_link_ticket',
    label: 'Link Ticket',
    type: 'external_ticket',
    is_group_compatible: 1,
    execute_once_per_group: '1',
    execute_in_sync: 1,
    is_bulk_compatible: '1',
  },
  {
    action_name: 'ops_event_action_link_url',
    label: 'Link URL',
    type: '',
    is_group_compatible: '1',
    execute_once_per_group: '1',
    execute_in_sync: '1',
    is_bulk_compatible: 0,
  },
  {
    action_name: 'ops_event_action_send_to_orchestrator',
    label: 'Send to Orchestrator',
    type: '',
    is_group_compatible: 0,
    execute_once_per_group: '0',
    execute_in_sync: 0,
    is_bulk_compatible: '0',
  },
  {
    action_name: 'ops_sample_event_action_ping',
    label: 'Ping a host',
    type: '',
    is_group_compatible: '0',
    execute_once_per_group: 0,
    execute_in_sync: '0',
    is_bulk_compatible: 1,
  },
  {
    action_name: 'ops_event_action_ticketdesk_incident',
    label: 'TicketDesk Incident',
    type: 'external_ticket',
    is_group_compatible: 1,
    execute_once_per_group: '1',
    execute_in_sync: '0',
    is_bulk_compatible: 1,
  },
  {
    action_name: 'ops_event_action_pagerline_notify',
    label: 'PagerLine Notification',
    type: '',
    is_group_compatible: '1',
    execute_once_per_group: 1,
    execute_in_sync: '0',
    is_bulk_compatible: '1',
  },
];

function actionConfig(a) {
  return {
    label: a.label,
    description: `${a.label} for an episode`,
    ttl: '120',
    filename: `${a.action_name}.py`,
    track_alert: '0',
    maxresults: '100',
    maxtime: '5m',
    disabled: '0',
    hostname: '',
    icon_path: `${a.action_name}.png`,
    command: `sendalert ${a.action_name} param.ids="$result.event_id$" param.group_id="$result.itsi_group_id$" | stats count`,
    is_custom: '0',
    payload_format: 'json',
    'eai:userName': 'nobody',
    'eai:appName': 'SA-ITOA',
    'eai:acl': {
      app: 'SA-ITOA',
      can_change_perms: '1',
      can_list: '1',
      can_share_app: '1',
      can_share_global: '1',
      can_share_user: '0',
      can_write: '1',
      modifiable: '1',
      owner: 'nobody',
      perms: { read: ['*'], write: ['admin', 'ops_admin'] },
      removable: '0',
      sharing: 'global',
    },
  };
}

let sidSeq = 0;
function runAction(ctx, a, body) {
  requireWriter(ctx.user);
  if (!isObj(body)) throw bad('Payload must be {"params": {...}, "ids": [episode id, ...]}');
  const { ids } = body;
  const params = body.params === undefined ? {} : body.params;
  if (!Array.isArray(ids) || ids.length === 0 || ids.some((x) => typeof x !== 'string' || !x))
    throw bad('ids must be a non-empty array of episode identifiers');
  if (!isObj(params)) throw bad('params must be an object');
  for (const id of ids) {
    const ep = db.get('event:notable_event_group', id);
    if (ep && !db.canRead(ctx.user, 'event:notable_event_group', ep)) throw notFound(`Episode ${id} not found`);
    if (ep && !db.canWrite(ctx.user, 'event:notable_event_group', ep)) throw forbidden(`User ${ctx.user.name} cannot act on episode ${id}`);
  }
  if (a.action_name === 'ops_event_action_link_ticket') {
    for (const f of ['ticket_system', 'ticket_id'])
      if (typeof params[f] !== 'string' || !params[f]) throw bad(`params.${f} is required for ${a.action_name}`);
    for (const id of ids)
      upsertTicket(ctx, id, params.ticket_system, params.ticket_id, typeof params.ticket_url === 'string' ? params.ticket_url : '');
  }
  if (a.action_name === 'ops_event_action_ticketdesk_incident') {
    for (const id of ids) {
      const tid = `INC${String(1000000 + Math.floor(Math.random() * 8999999))}`;
      upsertTicket(ctx, id, 'TicketDesk', tid, `https://ticketdesk.example.net/incident/${tid}`);
    }
  }
  const sid = () => `ops_act_${epochInt()}_${++sidSeq}_${hex(6)}`;
  const bulk = a.is_bulk_compatible === 1 || a.is_bulk_compatible === '1';
  if (bulk) return [{ action_name: a.action_name, ids: [...ids], sid: sid() }];
  return ids.map((id) => ({ action_name: a.action_name, ids: [id], sid: sid() }));
}

// ---------- ticket links ----------
function episodeOf(eventId) {
  return db.get('event:notable_event_group', eventId);
}
function ticketReadable(ctx, t) {
  const ep = episodeOf(t.event_id);
  return ep ? db.canRead(ctx.user, 'event:notable_event_group', ep) : canReadTeam(ctx.user, GLOBAL_TEAM);
}
function ticketWritable(ctx, eventId) {
  const ep = episodeOf(eventId);
  return ep ? db.canWrite(ctx.user, 'event:notable_event_group', ep) : canWriteTeam(ctx.user, GLOBAL_TEAM);
}
export function upsertTicket(ctx, eventId, system, ticketId, url) {
  if (!ticketWritable(ctx, eventId)) throw forbidden(`User ${ctx.user.name} cannot link tickets to episode ${eventId}`);
  let t = [...db.coll(TICKETS).values()].find((x) => x.event_id === eventId && x.ticket_system === system);
  const now = Date.now();
  if (!t) {
    t = {
      _key: objectIdKey(),
      ticket_system: system,
      _user: ctx.pathUser || 'nobody',
      event_id: eventId,
      tickets: [],
      object_type: 'external_ticket',
      create_time: epoch(now),
    };
  }
  const existing = t.tickets.find((x) => x.ticket_id === ticketId);
  if (existing) existing.ticket_url = url;
  else t.tickets.push({ ticket_system: system, ticket_url: url, ticket_id: ticketId });
  t.mod_time = epoch(now);
  db.put(TICKETS, t);
  return t._key;
}

function ticketFields(q, body) {
  const b = isObj(body) ? body : {};
  const pick = (name) => {
    const v = lastParam(q, name);
    return v !== undefined ? v : b[name];
  };
  return {
    ids: pick('ids'),
    id: pick('id'),
    ticket_system: pick('ticket_system'),
    ticket_id: pick('ticket_id'),
    ticket_url: pick('ticket_url'),
  };
}
const splitIds = (v) =>
  typeof v === 'string'
    ? v
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean)
    : Array.isArray(v)
      ? v.filter((x) => typeof x === 'string')
      : [];

function ticketing(ctx, method, rest, q) {
  if (rest.length === 0) {
    if (method !== 'POST' && method !== 'PUT') throw mna(['POST']);
    requireWriter(ctx.user);
    const body = ctx.json();
    if (!isObj(body)) throw bad('Payload must be {id, ticket_system, ticket_id, ticket_url}');
    for (const f of ['id', 'ticket_system', 'ticket_id', 'ticket_url']) {
      if (typeof body[f] !== 'string' || body[f] === '') throw bad(`Field "${f}" is required and must be a non-empty string`);
    }
    const events = splitIds(body.id);
    if (!events.length) throw bad('id must name at least one episode');
    const keys = events.map((e) => upsertTicket(ctx, e, body.ticket_system, body.ticket_id, body.ticket_url));
    return { status: 201, json: [...new Set(keys)].join(',') };
  }
  if (rest.length === 1) {
    const eventKey = rest[0];
    if (method === 'GET') {
      const f = ticketFields(q, undefined);
      const events = new Set([eventKey, ...splitIds(f.ids)]);
      let rows = db.all(TICKETS).filter((t) => events.has(t.event_id) && ticketReadable(ctx, t));
      if (f.ticket_system) rows = rows.filter((t) => t.ticket_system === f.ticket_system);
      if (f.ticket_id) rows = rows.filter((t) => t.tickets.some((x) => x.ticket_id === f.ticket_id));
      if (f.ticket_url) rows = rows.filter((t) => t.tickets.some((x) => x.ticket_url === f.ticket_url));
      return { status: 200, json: rows.map((t) => clone(t)) };
    }
    if (method === 'POST' || method === 'PUT') {
      requireWriter(ctx.user);
      const f = ticketFields(q, ctx.json(true));
      for (const n of ['ticket_system', 'ticket_id'])
        if (typeof f[n] !== 'string' || !f[n]) throw bad(`${n} is required (parameter or payload field)`);
      if (f.ticket_url !== undefined && typeof f.ticket_url !== 'string') throw bad('ticket_url must be a string');
      const events = [...new Set([eventKey, ...splitIds(f.ids)])];
      const keys = events.map((e) => upsertTicket(ctx, e, f.ticket_system, f.ticket_id, f.ticket_url || ''));
      return { status: 200, json: [...new Set(keys)] };
    }
    throw mna(['GET', 'POST']);
  }
  if (rest.length === 3) {
    if (method !== 'DELETE') throw mna(['DELETE']);
    requireWriter(ctx.user);
    const [ep, system, tid] = rest;
    const t = db.all(TICKETS).find((x) => x.event_id === ep && x.ticket_system === system && ticketReadable(ctx, x));
    if (!t?.tickets.some((x) => x.ticket_id === tid)) throw notFound(`No ticket ${tid} of ${system} linked to episode ${ep}`);
    if (!ticketWritable(ctx, ep)) throw forbidden(`User ${ctx.user.name} cannot unlink tickets of episode ${ep}`);
    t.tickets = t.tickets.filter((x) => x.ticket_id !== tid);
    t.mod_time = epoch();
    if (!t.tickets.length) db.remove(TICKETS, t._key);
    return { status: 200, empty: true };
  }
  throw notFound('Unknown ticketing path');
}

function appendOnlyRefusal() {
  return new HttpError(403, 'Episode comments are append-only: update and delete are not supported');
}

function eventTypeRoutes(ctx, type, method, rest, q) {
  const scope = `event:${type}`;
  const truthy = (v) => v !== undefined && ['1', 'true', 'True', 'yes'].includes(v);
  if (
    (type === 'notable_event_comment' || type === 'notable_event_tag') &&
    rest.length === 1 &&
    method === 'GET' &&
    truthy(lastParam(q, 'is_event_id'))
  ) {
    const rows = db
      .readableStrict(ctx.user, scope)
      .filter((o) => o.event_id === rest[0])
      .reverse();
    return { status: 200, json: rows.map((o) => present(ctx, scope, o)) };
  }
  if (APPEND_ONLY.has(type)) {
    if (method === 'DELETE') throw appendOnlyRefusal();
    if (method === 'POST' && rest.length >= 1) throw appendOnlyRefusal();
  }
  if ((type === 'notable_event_comment' || type === 'notable_event_tag') && method === 'POST' && rest.length === 0) {
    requireWriter(ctx.user);
    const body = ctx.json();
    if (!isObj(body)) throw bad('Payload must be an object');
    if (APPEND_ONLY.has(type) && body._key !== undefined && db.get(scope, body._key)) throw appendOnlyRefusal();
    const ep = typeof body.event_id === 'string' ? episodeOf(body.event_id) : undefined;
    const b = { ...body, user: ctx.user.name, owner: ctx.user.name, _owner: 'nobody', sec_grp: ep ? ep.sec_grp : GLOBAL_TEAM };
    if (!(typeof b.title === 'string')) delete b.title;
    const [st, key] = createOrUpdate(ctx, scope, b);
    const o = db.get(scope, key);
    if (type === 'notable_event_comment') return { status: st, json: { ...present(ctx, scope, o), comment_id: key } };
    return { status: st, json: { _key: key } };
  }
  if (method === 'GET' && rest.length === 0) return { status: 200, json: listObjects(ctx, scope, q, LIST_OPTS) };
  if (method === 'GET' && rest.length === 1 && rest[0] === 'count') {
    // uses filter_data like the listing
    const qq = new URLSearchParams(q);
    const fd = lastParam(q, 'filter_data');
    qq.delete('filter');
    if (fd !== undefined) qq.set('filter', fd);
    return genericRoutes(ctx, scope, method, rest, qq);
  }
  if (method === 'DELETE' && rest.length === 0) {
    const qq = new URLSearchParams(q);
    return genericRoutes(ctx, scope, method, rest, qq, LIST_OPTS);
  }
  if (method === 'GET' && rest.length === 1) return { status: 200, json: getOne(ctx, scope, rest[0]) };
  const r = genericRoutes(ctx, scope, method, rest, q, LIST_OPTS);
  if (r) return r;
  throw notFound('Unknown event management path');
}

export function handleEvents(ctx, method, segs, q) {
  if (segs.length === 0) throw notFound('No object type given');
  const [head, ...rest] = segs;
  if (head === 'notable_event_actions') {
    if (rest.length === 0) {
      if (method !== 'GET') throw mna(['GET']);
      return { status: 200, json: ACTIONS.map((a) => ({ ...a })) };
    }
    if (rest.length === 1) {
      const a = ACTIONS.find((x) => x.action_name === rest[0]);
      if (!a) throw notFound(`Unknown episode action ${rest[0]}`);
      if (method === 'GET') return { status: 200, json: actionConfig(a) };
      if (method === 'POST') return { status: 200, json: runAction(ctx, a, ctx.json()) };
      throw mna(['GET', 'POST']);
    }
    throw notFound('Unknown action path');
  }
  if (head === 'ticketing') return ticketing(ctx, method, rest, q);
  if (!EVENT_TYPES.includes(head)) throw notFound(`Unknown event management object type "${head}"`);
  return eventTypeRoutes(ctx, head, method, rest, q);
}
