// Ticket links of episodes and episode actions.
import { requireWriter } from './auth.mjs';
import { createOne, output, readable } from './crud.mjs';
import { badRequest, isPlainObject, notAllowed, notFound } from './http.mjs';
import { ACTIONS, actionConfig } from './seed-events.mjs';
import { collection, newKey } from './store.mjs';
import { epoch, isoStamp } from './time.mjs';

let emKindRef = null;
export function bindEventKinds(fn) {
  emKindRef = fn;
}

const links = () => emKindRef('external_ticket');

function splitIds(v) {
  if (v === undefined || v === null || v === '') return [];
  if (Array.isArray(v)) return v.map(String).filter(Boolean);
  const s = String(v).trim();
  if (s.startsWith('[')) {
    try {
      const arr = JSON.parse(s);
      if (Array.isArray(arr)) return arr.map(String);
    } catch {
      // read as a comma-separated list
    }
  }
  return s
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean);
}

/** Adds a ticket to the link object of (episode, ticket system); a missing ticket_url is accepted. */
function addTicket(user, eventId, system, ticketId, url) {
  const kind = links();
  let row = kind.coll.all().find((r) => String(r.event_id) === eventId && r.ticket_system === system);
  if (!row) {
    const key = createOne(kind, user, { event_id: eventId, ticket_system: system, tickets: [] }).key;
    row = kind.coll.get(key);
  }
  const tickets = Array.isArray(row.tickets) ? row.tickets : [];
  const ticket = { ticket_system: system, ticket_id: ticketId };
  if (url !== undefined && url !== null) ticket.ticket_url = String(url);
  const at = tickets.findIndex((t) => t?.ticket_id === ticketId);
  if (at >= 0) tickets[at] = { ...tickets[at], ...ticket };
  else tickets.push(ticket);
  row.tickets = tickets;
  row.mod_time = epoch();
  row.mod_timestamp = isoStamp();
  return row._key;
}

function fieldsFrom(q, body) {
  const b = isPlainObject(body) ? body : {};
  const pick = (name) => b[name] ?? q.get(name) ?? undefined;
  return { ids: pick('id') ?? pick('ids'), system: pick('ticket_system'), ticketId: pick('ticket_id'), url: pick('ticket_url') };
}

function requireTicketFields(f) {
  const missing = [];
  if (f.system === undefined || f.system === '') missing.push('ticket_system');
  if (f.ticketId === undefined || f.ticketId === '') missing.push('ticket_id');
  if (missing.length) throw badRequest(`missing field(s): ${missing.join(', ')}`);
}

export function handleTicketing(ctx, rest) {
  const { method, q, body, user } = ctx;
  if (method !== 'GET') requireWriter(user);
  if (rest.length === 0 && method === 'POST') {
    const f = fieldsFrom(q, body);
    const ids = splitIds(f.ids);
    if (!ids.length) throw badRequest('missing field: id (the episode identifier)');
    requireTicketFields(f);
    const keys = [...new Set(ids.map((id) => addTicket(user, id, String(f.system), String(f.ticketId), f.url)))];
    return { status: 201, body: { _key: keys.join(',') } };
  }
  if (rest.length === 1) {
    const [eventKey] = rest;
    const kind = links();
    if (method === 'GET') {
      const system = q.get('ticket_system');
      const ticketId = q.get('ticket_id');
      const ids = new Set([eventKey, ...splitIds(q.get('ids'))]);
      const rows = kind.coll
        .all()
        .filter((r) => readable(kind, user, r) && ids.has(String(r.event_id)))
        .filter((r) => !system || r.ticket_system === system)
        .filter((r) => !ticketId || (Array.isArray(r.tickets) && r.tickets.some((t) => t?.ticket_id === ticketId)));
      return { status: 200, body: rows.map((r) => output(kind, user, r)) };
    }
    if (method === 'POST') {
      const f = fieldsFrom(q, body);
      requireTicketFields(f);
      const ids = [...new Set([eventKey, ...splitIds(f.ids)])];
      return { status: 201, body: [...new Set(ids.map((id) => addTicket(user, id, String(f.system), String(f.ticketId), f.url)))] };
    }
    throw notAllowed();
  }
  if (rest.length === 3 && method === 'DELETE') {
    const [eventId, system, ticketId] = rest;
    const kind = links();
    const row = kind.coll.all().find((r) => String(r.event_id) === eventId && r.ticket_system === system && readable(kind, user, r));
    const tickets = Array.isArray(row?.tickets) ? row.tickets : [];
    const left = tickets.filter((t) => t?.ticket_id !== ticketId);
    if (!row || left.length === tickets.length) throw notFound(`ticket ${ticketId} of ${system} on episode ${eventId}`);
    if (left.length === 0) kind.coll.remove(row._key);
    else {
      row.tickets = left;
      row.mod_time = epoch();
    }
    return { status: 204 };
  }
  throw notFound(`path ticketing/${rest.join('/')}`);
}

export function handleActions(ctx, rest) {
  const { method, body, user } = ctx;
  if (rest.length === 0 && method === 'GET') return { status: 200, body: ACTIONS.map((a) => ({ ...a })) };
  if (rest.length !== 1) throw notFound(`path notable_event_actions/${rest.join('/')}`);
  const [name] = rest;
  const action = ACTIONS.find((a) => a.action_name === name);
  if (!action) throw notFound(`episode action ${name}`);
  if (method === 'GET') return { status: 200, body: actionConfig(action) };
  if (method !== 'POST') throw notAllowed();
  requireWriter(user);
  const b = isPlainObject(body) ? body : {};
  const ids = splitIds(b.ids);
  const params = isPlainObject(b.params) ? b.params : {};
  if (name === 'ops_event_action_link_ticket' && params.ticket_system && params.ticket_id) {
    for (const id of ids) addTicket(user, id, String(params.ticket_system), String(params.ticket_id), params.ticket_url);
  }
  const sid = `ops_act_${epoch()}_${newKey().slice(-8)}`;
  collection('em', 'action_run').put({ _key: sid, action_name: name, ids, params, user: user.name, create_time: epoch() });
  return { status: 200, body: [{ action_name: name, ids, sid }] };
}
