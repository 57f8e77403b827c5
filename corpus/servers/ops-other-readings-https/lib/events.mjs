// Event management interface (event_management_interface).
import {
  bad,
  notFound,
  forbidden,
  methodNotAllowed,
  isPlainObject,
  clone,
  qp,
  intParam,
  bool01Param,
  newKey,
  newUuid,
  nowMicros,
  GLOBAL,
} from './util.mjs';
import { Reply } from './util.mjs';
import { canRead, canWrite } from './access.mjs';
import { events, tickets, EVENT_TYPES } from './store.mjs';
import { parseFilter, sortBy, sortDir01, parseFieldsCsv, project } from './query.mjs';

// Event-management objects carry no team: they belong to the Global team.
const readOk = (u) => canRead(u, GLOBAL);
const writeOk = (u) => canWrite(u, GLOBAL);
const nowEpoch = () => Math.round(nowMicros() / 10) / 100000;

// ---- episode actions -----------------------------------------------------------------------------
export const ACTIONS = [];
export const ACTION_CONFIG = {};

function listObjectsEM(ctx, type) {
  if (!readOk(ctx.user)) return [];
  let rows = events[type].all();
  const pred = parseFilter(qp(ctx.q, 'filter_data'));
  if (pred) rows = rows.filter(pred);
  const sk = qp(ctx.q, 'sort_key');
  const asc = sortDir01(ctx.q);
  if (sk) rows = sortBy(rows, sk, asc);
  const skip = intParam(ctx.q, 'skip');
  const limit = intParam(ctx.q, 'limit');
  if (skip !== undefined) rows = rows.slice(skip);
  if (limit !== undefined) rows = rows.slice(0, limit);
  const fields = parseFieldsCsv(ctx.q);
  const partial = bool01Param(ctx.q, 'is_partial_data', 0) === 1;
  // is_partial_data=1: partial records -- only _key, object_type and the requested fields
  if (partial) return rows.map((r) => ({ _key: r._key, object_type: r.object_type, ...(fields ? project(r, fields) : {}) }));
  return fields ? rows.map((r) => project(r, fields)) : rows.map(clone);
}

function createAppendOnly(ctx, type, body) {
  if (!writeOk(ctx.user)) throw forbidden('No write access to event management objects');
  if (!isPlainObject(body)) throw bad('Payload must be a JSON object');
  const t = nowEpoch();
  let doc;
  if (type === 'notable_event_comment') {
    if (typeof body.event_id !== 'string' || typeof body.comment !== 'string') throw bad("A comment needs string 'event_id' and 'comment'");
    doc = { comment: body.comment, event_id: body.event_id };
  } else {
    if (typeof body.event_id !== 'string' || typeof body.tag_name !== 'string') throw bad("A tag needs string 'event_id' and 'tag_name'");
    doc = { tag_name: body.tag_name, event_id: body.event_id };
  }
  Object.assign(doc, {
    object_type: type,
    _key: newKey(),
    _owner: 'nobody',
    create_time: t,
    mod_time: t,
    user: ctx.user.name,
    owner: ctx.user.name,
    _user: ctx.pathUser,
  });
  events[type].put(doc._key, doc);
  return { _key: doc._key };
}

// ---- ticketing -----------------------------------------------------------------------------------
function splitIds(s) {
  const t = s.trim();
  if (t.startsWith('[')) {
    try {
      const a = JSON.parse(t);
      if (Array.isArray(a) && a.every((x) => typeof x === 'string')) return a.filter(Boolean);
    } catch {
      /* fallthrough */
    }
  }
  return s
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean);
}
function linkTicket(ctx, eventId, system, ticketId, url) {
  let obj = tickets.all().find((o) => o.event_id === eventId && o.ticket_system === system);
  if (!obj) {
    obj = { ticket_system: system, _user: ctx.pathUser, event_id: eventId, _key: newUuid(), tickets: [], object_type: 'external_ticket' };
  }
  const existing = obj.tickets.find((t) => t.ticket_id === ticketId);
  if (existing) existing.ticket_url = url;
  else obj.tickets.push({ ticket_system: system, ticket_url: url, ticket_id: ticketId });
  tickets.put(obj._key, obj);
  return obj._key;
}
function postTicketing(ctx, body) {
  if (!writeOk(ctx.user)) throw forbidden('No write access to ticket links');
  if (!isPlainObject(body)) throw bad('Payload must be {id, ticket_system, ticket_id, ticket_url}');
  for (const f of ['id', 'ticket_system', 'ticket_id', 'ticket_url']) {
    if (!(f in body)) throw bad(`Missing required field '${f}'`);
    if (typeof body[f] !== 'string') throw bad(`Field '${f}' must be a string`);
  }
  const ids = splitIds(body.id);
  if (!ids.length) throw bad("Field 'id' holds no episode identifier");
  const keys = [...new Set(ids.map((e) => linkTicket(ctx, e, body.ticket_system, body.ticket_id, body.ticket_url)))];
  return keys.join(',');
}
function getTicketing(ctx, key) {
  if (!readOk(ctx.user)) return [];
  const evIds = new Set([key]);
  const ids = qp(ctx.q, 'ids');
  if (ids !== undefined) for (const i of splitIds(ids)) evIds.add(i);
  const sys = qp(ctx.q, 'ticket_system'),
    tid = qp(ctx.q, 'ticket_id'),
    url = qp(ctx.q, 'ticket_url');
  return tickets
    .all()
    .filter((o) => evIds.has(o.event_id))
    .filter((o) => sys === undefined || o.ticket_system === sys)
    .filter((o) => tid === undefined || o.tickets.some((t) => t.ticket_id === tid))
    .filter((o) => url === undefined || o.tickets.some((t) => t.ticket_url === url))
    .map(clone);
}
function postTicketingKey(ctx, key) {
  if (!writeOk(ctx.user)) throw forbidden('No write access to ticket links');
  const body = ctx.bodyOptional;
  const b = isPlainObject(body) ? body : {};
  const pick = (f) => {
    const v = qp(ctx.q, f);
    return v !== undefined ? v : b[f];
  }; // query wins over body
  const sys = pick('ticket_system'),
    tid = pick('ticket_id'),
    url = pick('ticket_url'),
    ids = pick('ids');
  for (const [n, v] of [
    ['ticket_system', sys],
    ['ticket_id', tid],
  ]) {
    if (v === undefined) throw bad(`Missing '${n}'`);
    if (typeof v !== 'string') throw bad(`'${n}' must be a string`);
  }
  if (url !== undefined && typeof url !== 'string') throw bad("'ticket_url' must be a string");
  if (ids !== undefined && typeof ids !== 'string') throw bad("'ids' must be a string");
  const evs = new Set([key, ...(ids ? splitIds(ids) : [])]);
  return [...new Set([...evs].map((e) => linkTicket(ctx, e, sys, tid, url === undefined ? '' : url)))];
}
function deleteTicket(ctx, ep, sys, tid) {
  if (!writeOk(ctx.user)) throw forbidden('No write access to ticket links');
  for (const o of tickets.all()) {
    if (o.event_id !== ep || o.ticket_system !== sys) continue;
    o.tickets = o.tickets.filter((t) => t.ticket_id !== tid);
    tickets.put(o._key, o);
  }
  return new Reply(200, undefined, true);
}

// ---- actions -------------------------------------------------------------------------------------
function runAction(ctx, name, body) {
  if (!writeOk(ctx.user)) throw forbidden('No permission to run episode actions');
  const a = ACTIONS.find((x) => x.action_name === name);
  if (!a) throw notFound(`Episode action '${name}' not found`);
  if (!isPlainObject(body)) throw bad('Payload must be {params: {...}, ids: [episode id]}');
  if (body.params !== undefined && !isPlainObject(body.params)) throw bad("'params' must be an object");
  let ids = body.ids;
  if (typeof ids === 'string') ids = [ids];
  if (!Array.isArray(ids) || !ids.length || !ids.every((x) => typeof x === 'string'))
    throw bad("'ids' must be a non-empty array of episode ids");
  const sid = () => `ops_act_${Math.floor(Date.now() / 1000)}_${newKey().slice(-10)}`;
  if (String(a.execute_once_per_group) === '1') return [{ action_name: name, ids: [...ids], sid: sid() }];
  return ids.map((i) => ({ action_name: name, ids: [i], sid: sid() }));
}

export function handleEvents(ctx, rest) {
  const m = ctx.method;
  const [a, b, c, d] = rest;
  if (!rest.length) throw notFound('No object type given');
  if (a === 'notable_event_actions') {
    if (rest.length === 1) {
      if (m !== 'GET') throw methodNotAllowed(['GET']);
      return readOk(ctx.user) ? clone(ACTIONS) : [];
    }
    if (rest.length === 2) {
      if (m === 'GET') {
        if (!readOk(ctx.user) || !ACTION_CONFIG[b]) throw notFound(`Episode action '${b}' not found`);
        return clone(ACTION_CONFIG[b]);
      }
      if (m === 'POST') return runAction(ctx, b, ctx.body);
      throw methodNotAllowed(['GET', 'POST']);
    }
    throw notFound('Unknown endpoint');
  }
  if (a === 'ticketing') {
    if (rest.length === 1) {
      if (m !== 'POST') throw methodNotAllowed(['POST']);
      return postTicketing(ctx, ctx.body);
    }
    if (rest.length === 2) {
      if (m === 'GET') return getTicketing(ctx, b);
      if (m === 'POST') return postTicketingKey(ctx, b);
      throw methodNotAllowed(['GET', 'POST']);
    }
    if (rest.length === 4) {
      if (m !== 'DELETE') throw methodNotAllowed(['DELETE']);
      return deleteTicket(ctx, b, c, d);
    }
    throw notFound('Unknown endpoint');
  }
  if (!EVENT_TYPES.includes(a)) throw bad(`Unsupported object type '${a}'`);
  const appendable = a === 'notable_event_comment' || a === 'notable_event_tag';
  if (rest.length === 1) {
    if (m === 'GET') return listObjectsEM(ctx, a);
    if (m === 'POST' && appendable) return createAppendOnly(ctx, a, ctx.body);
    throw methodNotAllowed(appendable ? ['GET', 'POST'] : ['GET']);
  }
  if (rest.length === 2) {
    if (m !== 'GET') {
      if (a === 'notable_event_comment') throw methodNotAllowed(['GET']); // append-only
      throw methodNotAllowed(['GET']);
    }
    if (!readOk(ctx.user)) throw notFound(`Object '${b}' not found`);
    const isEv = qp(ctx.q, 'is_event_id');
    if (appendable && (isEv === '1' || isEv === 'true' || isEv === 'True')) {
      return events[a]
        .all()
        .filter((o) => o.event_id === b)
        .map(clone);
    }
    const o = events[a].get(b);
    if (!o) throw notFound(`Object '${b}' not found`);
    return clone(o);
  }
  throw notFound('Unknown endpoint');
}
