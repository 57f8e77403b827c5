// event_management_interface: episode objects, episode actions, ticket links.
import { bad, notFound, methodNotAllowed, isObj, isStr, isStrArray, clone, epochFloatString, newKey, GLOBAL_TEAM } from './util.mjs';
import { store } from './store.mjs';
import { canReadTeam, assertGlobalRead, assertGlobalWrite, assertRead, canRead } from './auth.mjs';
import { bool10Param, fieldsParam, project } from './query.mjs';
import { EVENT_TYPES, decorate } from './types.mjs';
import { createObject, updateObject, deleteOne, selectRows, countObjects, bulkDelete, loadReadable, stamp } from './crud.mjs';
import { route, J, EMPTY } from './route.mjs';

export const actions = []; // {summary, config}
export let eventConfiguration = {};
export function setEventConfiguration(c) {
  eventConfiguration = c;
}

const BOOKKEEPING = ['_owner', '_user', '_version', 'acl', 'mod_source', 'mod_timestamp'];

export function handleEvents(ctx, segs) {
  const [a, b] = segs;
  if (a === undefined) throw notFound('Unknown endpoint');
  if (a === 'notable_event_actions') return handleActions(ctx, segs.slice(1));
  if (a === 'ticketing') return handleTicketing(ctx, segs.slice(1));
  if (a === 'notable_event_configuration' && segs.length === 2 && b === 'all_info') {
    return route(ctx, {
      GET: () => {
        assertGlobalRead(ctx.user);
        return J(clone(eventConfiguration));
      },
    });
  }
  if (!EVENT_TYPES.includes(a)) throw notFound(`Unknown object type: ${a}`);
  const type = a;
  const appendOnly = type === 'notable_event_comment';

  if (segs.length === 1) {
    const m = {
      GET: () => J(listEvents(ctx, type)),
      POST: () => {
        const body = ctx.body();
        if (Array.isArray(body)) {
          if (appendOnly) throw methodNotAllowed(['GET', 'POST']);
          return J(bulkPartial(ctx, type, body));
        }
        return J(createEvent(ctx, type, body));
      },
    };
    if (!appendOnly) {
      m.PUT = () => J(bulkPartial(ctx, type, ctx.body()));
      m.DELETE = () => {
        bulkDelete(ctx, type, { offsetParam: 'skip', filterParam: 'filter_data' });
        return EMPTY;
      };
    }
    return route(ctx, m);
  }
  if (segs.length === 2 && b === 'count') {
    return route(ctx, {
      GET: () => J({ count: countFiltered(ctx, type) }),
    });
  }
  if (segs.length === 2) {
    const key = b;
    const m = {
      GET: () => {
        const isEv = ctx.query.get('is_event_id');
        if (isEv !== null && /^(true|1)$/i.test(isEv)) return J(listEvents(ctx, type, (o) => o.event_id === key));
        return J(decorate(type, loadReadable(ctx, type, key), ctx));
      },
    };
    if (!appendOnly) {
      const upd = () => J({ _key: updateObject(ctx, type, key, ctx.body(), true)._key });
      m.POST = upd;
      m.PUT = upd;
      m.DELETE = () => {
        deleteOne(ctx, type, key);
        return EMPTY;
      };
    }
    return route(ctx, m);
  }
  throw notFound('Unknown endpoint');
}

function idsParam(q) {
  if (!q.has('ids')) return undefined;
  const raw = q.get('ids');
  let ids;
  if (raw.trim().startsWith('[')) {
    try {
      ids = JSON.parse(raw);
    } catch {
      throw bad('ids must be a JSON array of strings or a comma-separated list');
    }
    if (!isStrArray(ids)) throw bad('ids must be a JSON array of strings or a comma-separated list');
  } else
    ids = raw
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
  return ids;
}

function listEvents(ctx, type, pre) {
  const q = ctx.query;
  const partial = bool10Param(q, 'is_partial_data');
  const fields = fieldsParam(q);
  const ids = idsParam(q);
  const { rows } = selectRows(ctx, type, {
    offsetParam: 'skip',
    filterParam: 'filter_data',
    pre: (o) => (!pre || pre(o)) && (!ids || ids.includes(o._key)),
  });
  return rows.map(({ obj }) => {
    const o = decorate(type, obj, ctx);
    if (partial === 1) for (const f of BOOKKEEPING) delete o[f];
    return project(o, fields);
  });
}

function countFiltered(ctx, type) {
  // count uses filter_data like the listing
  const q = new URLSearchParams(ctx.query);
  if (q.has('filter_data')) q.set('filter', q.get('filter_data'));
  else q.delete('filter');
  return countObjects({ ...ctx, query: q }, type);
}

function episodeExists(id) {
  return store.has('notable_event_group', id) || store.has('notable_event', id);
}

function createEvent(ctx, type, body) {
  if (!isObj(body)) throw bad('The payload must be a JSON object');
  if ((type === 'notable_event_comment' || type === 'notable_event_tag') && isStr(body.event_id)) {
    if (!episodeExists(body.event_id)) throw notFound(`Episode not found: ${body.event_id}`);
  }
  const input = { ...body };
  if (type === 'notable_event_comment' || type === 'notable_event_tag') {
    input.user = ctx.user.name;
    input.owner = 'nobody';
  }
  const obj = createObject(ctx, type, input, { upsert: type !== 'notable_event_comment' });
  if (type === 'notable_event_group' && obj.event_id === undefined) {
    obj.event_id = obj._key;
  }
  if (type === 'notable_event_comment') {
    const m = Math.round(obj.create_time * 1e6);
    const mm = Math.round(obj.mod_time * 1e6);
    return {
      comment: obj.comment,
      comment_id: obj._key,
      create_time: epochFloatString(m),
      mod_time: epochFloatString(mm),
      owner: obj.owner,
      user: obj.user,
    };
  }
  return { _key: obj._key };
}

function bulkPartial(ctx, type, body) {
  if (!Array.isArray(body)) throw bad('The payload must be a JSON array of objects, each with _key');
  body.forEach((o, i) => {
    if (!isObj(o) || !isStr(o._key)) throw bad(`Element ${i} must be an object with _key`);
    const prev = store.get(type, o._key);
    if (!prev) throw notFound(`Object not found: ${type}/${o._key}`);
  });
  return body.map((o) => updateObject(ctx, type, o._key, o, true)._key);
}

// ------------------------------------------------------------------ episode actions
export function addAction(summary, config) {
  actions.push({ summary, config });
}

function handleActions(ctx, segs) {
  if (segs.length === 0) {
    return route(ctx, {
      GET: () => J(canReadTeam(ctx.user, GLOBAL_TEAM) ? actions.map((a) => clone(a.summary)) : []),
    });
  }
  if (segs.length === 1) {
    const name = segs[0];
    return route(ctx, {
      GET: () => {
        const a = findAction(name);
        assertGlobalRead(ctx.user);
        return J(clone(a.config));
      },
      POST: () => {
        const a = findAction(name);
        assertGlobalWrite(ctx.user);
        return J(runAction(ctx, a));
      },
    });
  }
  throw notFound('Unknown endpoint');
}

function findAction(name) {
  const a = actions.find((x) => x.summary.action_name === name);
  if (!a) throw notFound(`Episode action not found: ${name}`);
  return a;
}

let sidCounter = 0;
function runAction(ctx, a) {
  const body = ctx.body();
  if (!isObj(body)) throw bad('The payload must be {"params": {...}, "ids": [<episode id>, ...]}');
  const params = body.params === undefined ? {} : body.params;
  if (!isObj(params)) throw bad('params must be an object');
  if (!isStrArray(body.ids) || body.ids.length === 0) throw bad('ids must be a non-empty array of episode ids');
  if (String(a.config.disabled) === '1') throw bad(`Episode action ${a.summary.action_name} is disabled`);
  for (const id of body.ids) {
    const ep = store.get('notable_event_group', id);
    if (!ep) throw notFound(`Episode not found: ${id}`);
    assertRead(ctx.user, 'notable_event_group', ep);
  }
  const name = a.summary.action_name;
  if (name === 'ops_event_action_link_ticket') {
    for (const f of ['ticket_system', 'ticket_id']) {
      if (!isStr(params[f]) || !params[f]) throw bad(`params.${f} is required for ${name}`);
    }
    if (params.ticket_url !== undefined && !isStr(params.ticket_url)) throw bad('params.ticket_url must be a string');
    for (const id of body.ids) linkTicket(ctx, id, params.ticket_system, params.ticket_id, params.ticket_url || '');
  }
  const sid = () => `${ctx.user.name}__nobody__SA-ITOA__ops_act_${name}_at_${Math.floor(Date.now() / 1000)}_${++sidCounter}`;
  const bulk = String(a.summary.is_bulk_compatible) === '1';
  if (bulk) return [{ action_name: name, ids: [...body.ids], sid: sid() }];
  return body.ids.map((id) => ({ action_name: name, ids: [id], sid: sid() }));
}

// ------------------------------------------------------------------ ticket links
const TT = 'external_ticket';

export function linkTicket(ctx, eventId, system, ticketId, url) {
  const existing = store.all(TT).find((t) => t.event_id === eventId && t.ticket_system === system);
  const ticket = { ticket_system: system, ticket_url: url, ticket_id: ticketId };
  if (existing) {
    const next = clone(existing);
    next.tickets = (next.tickets || []).filter((t) => t.ticket_id !== ticketId);
    next.tickets.push(ticket);
    store.put(TT, stamp(TT, next, existing, ctx));
    return existing._key;
  }
  const obj = { _key: newKey(), event_id: eventId, ticket_system: system, tickets: [ticket] };
  store.put(TT, stamp(TT, obj, undefined, ctx));
  return obj._key;
}

function handleTicketing(ctx, segs) {
  if (segs.length === 0) return route(ctx, { POST: () => J(createTicket(ctx)) });
  if (segs.length === 1) {
    const key = segs[0];
    const post = () => J(postTicket(ctx, key));
    return route(ctx, { GET: () => J(getTickets(ctx, key)), POST: post, PUT: post });
  }
  if (segs.length === 3) {
    return route(ctx, {
      DELETE: () => {
        deleteTicket(ctx, segs[0], segs[1], segs[2]);
        return EMPTY;
      },
    });
  }
  throw notFound('Unknown endpoint');
}

function splitIds(s) {
  return s
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean);
}

function requireEpisode(ctx, id) {
  const ep = store.get('notable_event_group', id);
  if (!ep) throw notFound(`Episode not found: ${id}`);
  assertRead(ctx.user, 'notable_event_group', ep);
  return ep;
}

function createTicket(ctx) {
  const body = ctx.body();
  if (!isObj(body)) throw bad('The payload must be {id, ticket_system, ticket_id, ticket_url}');
  for (const f of ['id', 'ticket_system', 'ticket_id', 'ticket_url']) {
    if (!isStr(body[f]) || body[f] === '') throw bad(`Missing or invalid required field: ${f} (non-empty string)`);
  }
  const ids = splitIds(body.id);
  if (!ids.length) throw bad('id must name at least one episode');
  assertGlobalWrite(ctx.user);
  for (const id of ids) requireEpisode(ctx, id);
  const keys = ids.map((id) => linkTicket(ctx, id, body.ticket_system, body.ticket_id, body.ticket_url));
  return keys.join(',');
}

function ticketFields(ctx) {
  const q = ctx.query;
  const out = {};
  for (const f of ['ids', 'ticket_system', 'ticket_id', 'ticket_url']) if (q.has(f)) out[f] = q.get(f);
  return out;
}

function extraIds(v) {
  if (v === undefined) return [];
  if (Array.isArray(v)) {
    if (!isStrArray(v)) throw bad('ids must be a string or an array of strings');
    return v;
  }
  if (!isStr(v)) throw bad('ids must be a string');
  if (v.trim().startsWith('[')) {
    try {
      const a = JSON.parse(v);
      if (isStrArray(a)) return a;
    } catch {
      /* fall through */
    }
    throw bad('ids must be a comma-separated list or a JSON array of strings');
  }
  return splitIds(v);
}

function getTickets(ctx, key) {
  const f = ticketFields(ctx);
  requireEpisode(ctx, key);
  const ids = [...new Set([key, ...extraIds(f.ids)])];
  return store
    .rows(TT)
    .filter((r) => canRead(ctx.user, TT, r.obj) && ids.includes(r.obj.event_id))
    .filter((r) => f.ticket_system === undefined || r.obj.ticket_system === f.ticket_system)
    .filter((r) => f.ticket_id === undefined || (r.obj.tickets || []).some((t) => t.ticket_id === f.ticket_id))
    .filter((r) => f.ticket_url === undefined || (r.obj.tickets || []).some((t) => t.ticket_url === f.ticket_url))
    .sort((x, y) => y.seq - x.seq)
    .map((r) => clone(r.obj));
}

function postTicket(ctx, key) {
  const f = ticketFields(ctx);
  const body = ctx.body();
  if (body !== undefined && !isObj(body)) throw bad('The payload must be a JSON object');
  const v = { ...f, ...(body || {}) };
  for (const k of ['ticket_system', 'ticket_id']) {
    if (!isStr(v[k]) || v[k] === '') throw bad(`Missing or invalid field: ${k} (non-empty string)`);
  }
  if (v.ticket_url !== undefined && !isStr(v.ticket_url)) throw bad('ticket_url must be a string');
  assertGlobalWrite(ctx.user);
  const ids = [...new Set([key, ...extraIds(v.ids)])];
  for (const id of ids) requireEpisode(ctx, id);
  return [...new Set(ids.map((id) => linkTicket(ctx, id, v.ticket_system, v.ticket_id, v.ticket_url || '')))];
}

function deleteTicket(ctx, eventId, system, ticketId) {
  assertGlobalWrite(ctx.user);
  const link = store.all(TT).find((t) => t.event_id === eventId && t.ticket_system === system);
  if (!link || !(link.tickets || []).some((t) => t.ticket_id === ticketId)) {
    throw notFound(`No ticket ${ticketId} of ${system} is linked to episode ${eventId}`);
  }
  const next = clone(link);
  next.tickets = next.tickets.filter((t) => t.ticket_id !== ticketId);
  if (next.tickets.length === 0) store.del(TT, link._key);
  else store.put(TT, stamp(TT, next, link, ctx));
}
