// Event management interface: generic event objects, episode actions, comments, ticket links.
import {
  bad,
  invalid,
  notFound,
  forbidden,
  conflict,
  methodNotAllowed,
  isObj,
  clone,
  deepMerge,
  boolParam,
  uuid,
  hexKey,
  nowEpoch,
  lastParam,
  SCHEMA_VERSION,
} from './util.mjs';
import { db, EVENT_TYPES } from './store.mjs';
import { canWriteGlobalResource } from './auth.mjs';
import { sharedQuery, select, project, filterPredicate } from './query.mjs';
import { bug } from './bugs.mjs';

// Flag values are deliberately a mix of integers and integer-like strings.
export const ACTIONS = [
  {
    action_name: 'email',
    label: 'Send an email',
    type: '',
    is_group_compatible: 1,
    execute_once_per_group: '0',
    execute_in_sync: '0',
    is_bulk_compatible: 1,
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
    type: '',
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
    execute_once_per_group: 0,
    execute_in_sync: '1',
    is_bulk_compatible: 0,
  },
  {
    action_name: 'ops_event_action_send_to_orchestrator',
    label: 'Send to Orchestrator',
    type: '',
    is_group_compatible: 1,
    execute_once_per_group: '0',
    execute_in_sync: '0',
    is_bulk_compatible: '1',
  },
  {
    action_name: 'ops_sample_event_action_ping',
    label: 'Ping a host',
    type: '',
    is_group_compatible: '0',
    execute_once_per_group: 0,
    execute_in_sync: '0',
    is_bulk_compatible: 0,
  },
  {
    action_name: 'ticketdesk_incident',
    label: 'TicketDesk Incident',
    type: 'external_ticket',
    is_group_compatible: 1,
    execute_once_per_group: '1',
    execute_in_sync: '0',
    is_bulk_compatible: '0',
  },
  {
    action_name: 'servicegrid_incident',
    label: 'ServiceGrid Incident',
    type: 'external_ticket',
    is_group_compatible: '1',
    execute_once_per_group: 1,
    execute_in_sync: 0,
    is_bulk_compatible: 1,
  },
  {
    action_name: 'pagerly_trigger_incident',
    label: 'Pagerly Trigger Incident',
    type: '',
    is_group_compatible: 1,
    execute_once_per_group: '0',
    execute_in_sync: '0',
    is_bulk_compatible: '1',
  },
];

const ACTION_CONFIG = {
  email: {
    description: 'Send an email notification for the episode',
    command: 'sendemail "to=$action.email.param.to$" "subject=$action.email.param.subject$" "format=$action.email.param.format$"',
    filename: '',
    icon_path: 'mod_alert_icon_email.png',
    appName: 'search',
  },
  script: {
    description: 'Run a script stored in $PLATFORM_HOME/bin/scripts',
    command: 'runshellscript "$action.script.param.filename$"',
    filename: '',
    icon_path: 'mod_alert_icon_script.png',
    appName: 'search',
  },
  ops_event_action_link_ticket: {
    description: 'Link an external ticket to the episode',
    command:
      'ops_link_ticket ticket_system="$action.ops_event_action_link_ticket.param.ticket_system$" ticket_id="$action.ops_event_action_link_ticket.param.ticket_id$"',
    filename: 'ops_link_ticket.py',
    icon_path: 'link_ticket.png',
    appName: 'SA-ITOA',
  },
  ops_event_action_link_url: {
    description: 'Attach a URL to the episode',
    command: 'ops_link_url url="$action.ops_event_action_link_url.param.url$"',
    filename: 'ops_link_url.py',
    icon_path: 'link_url.png',
    appName: 'SA-ITOA',
  },
  ops_event_action_send_to_orchestrator: {
    description: 'Send the episode to the orchestration service',
    command: 'ops_send_to_orchestrator',
    filename: 'ops_send_to_orchestrator.py',
    icon_path: 'orchestrator.png',
    appName: 'SA-ITOA',
  },
  ops_sample_event_action_ping: {
    description: 'Ping the host of the episode',
    command: 'ops_ping host="$action.ops_sample_event_action_ping.param.host_to_ping$"',
    filename: 'ping.py',
    icon_path: 'ping.png',
    appName: 'SA-ITOA',
  },
  ticketdesk_incident: {
    description: 'Create an incident in TicketDesk',
    command: 'ticketdesk_incident',
    filename: 'ticketdesk_incident.py',
    icon_path: 'ticketdesk.png',
    appName: 'TA-ticketdesk',
  },
  servicegrid_incident: {
    description: 'Create an incident in ServiceGrid',
    command: 'servicegrid_incident',
    filename: 'servicegrid_incident.py',
    icon_path: 'servicegrid.png',
    appName: 'TA-servicegrid',
  },
  pagerly_trigger_incident: {
    description: 'Trigger an incident in Pagerly',
    command: 'pagerly_trigger',
    filename: 'pagerly.py',
    icon_path: 'pagerly.png',
    appName: 'TA-pagerly',
    disabled: '1',
  },
};

function actionConfig(a) {
  const c = ACTION_CONFIG[a.action_name];
  return {
    label: a.label,
    description: c.description,
    command: c.command,
    filename: c.filename,
    icon_path: c.icon_path,
    ttl: '10p',
    track_alert: '0',
    maxresults: '10000',
    maxtime: '5m',
    disabled: c.disabled || '0',
    hostname: '',
    is_custom: a.type === 'external_ticket' ? '1' : '0',
    'eai:userName': 'nobody',
    'eai:appName': c.appName,
    'eai:acl': {
      app: c.appName,
      owner: 'nobody',
      sharing: 'global',
      perms: { read: ['*'], write: ['admin', 'ops_admin'] },
      can_write: '1',
      modifiable: '1',
    },
  };
}

let sidCounter = 0;
const newSid = (name) => `ops_ea_${name}_${Math.floor(Date.now() / 1000)}_${(++sidCounter).toString(16).padStart(4, '0')}`;

function requireWrite(user) {
  if (!canWriteGlobalResource(user)) throw forbidden(`User ${user.name} cannot change event management objects`);
}

// ---- ticket links ----
export function linkTicket(eventId, system, ticketId, url, user) {
  let link = [...db.tickets.values()].find((l) => l.event_id === eventId && l.ticket_system === system);
  const now = nowEpoch();
  if (!link) {
    link = {
      _key: uuid(),
      _user: 'nobody',
      event_id: eventId,
      ticket_system: system,
      tickets: [],
      object_type: 'external_ticket',
      create_time: now,
      mod_time: now,
      _version: SCHEMA_VERSION,
      created_by: user ? user.name : 'nobody',
    };
    db.tickets.set(link._key, link);
  }
  const t = link.tickets.find((x) => x.ticket_id === ticketId);
  if (t) t.ticket_url = url;
  else link.tickets.push({ ticket_system: system, ticket_url: url, ticket_id: ticketId });
  link.mod_time = now;
  return link._key;
}

function splitIds(s) {
  if (typeof s !== 'string') return [];
  const t = s.trim();
  if (t.startsWith('[')) {
    try {
      const a = JSON.parse(t);
      if (Array.isArray(a)) return a.filter((x) => typeof x === 'string' && x);
    } catch {
      /* fall through */
    }
  }
  return t
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean);
}

function handleTicketing(ctx, segs) {
  const { method, q, user } = ctx;
  if (segs.length === 0) {
    if (method !== 'POST') throw methodNotAllowed(['POST']);
    const body = ctx.json();
    if (!isObj(body)) throw bad('Payload must be a JSON object', 'INVALID_PAYLOAD');
    for (const f of ['id', 'ticket_system', 'ticket_id', 'ticket_url']) {
      if (!(f in body)) throw invalid(`Required field "${f}" is missing`, 'MISSING_REQUIRED_FIELD');
      if (typeof body[f] !== 'string') throw invalid(`Field "${f}" must be a string`, 'INVALID_FIELD');
    }
    const ids = splitIds(body.id);
    if (!ids.length) throw invalid('Field "id" names no episode', 'INVALID_FIELD');
    requireWrite(user);
    const keys = [...new Set(ids)].map((e) => linkTicket(e, body.ticket_system, body.ticket_id, body.ticket_url, user));
    return ctx.reply(201, keys.join(','));
  }
  if (segs.length === 1) {
    const eventKey = segs[0];
    const param = (n, body) => (q.has(n) ? lastParam(q, n) : isObj(body) && body[n] !== undefined ? body[n] : undefined);
    if (method === 'GET') {
      const events = new Set([eventKey, ...splitIds(lastParam(q, 'ids'))]);
      const sys = lastParam(q, 'ticket_system');
      const tid = lastParam(q, 'ticket_id');
      const turl = lastParam(q, 'ticket_url');
      const out = [...db.tickets.values()].filter(
        (l) =>
          events.has(l.event_id) &&
          (sys === undefined || l.ticket_system === sys) &&
          (tid === undefined || l.tickets.some((t) => t.ticket_id === tid)) &&
          (turl === undefined || l.tickets.some((t) => t.ticket_url === turl)),
      );
      return ctx.reply(200, clone(out));
    }
    if (method === 'POST' || method === 'PUT') {
      const body = ctx.hasBody() ? ctx.json() : {};
      const sys = param('ticket_system', body);
      const tid = param('ticket_id', body);
      const turl = param('ticket_url', body);
      const extra = param('ids', body);
      if (typeof sys !== 'string' || !sys) throw invalid('ticket_system is required', 'MISSING_REQUIRED_FIELD');
      if (typeof tid !== 'string' || !tid) throw invalid('ticket_id is required', 'MISSING_REQUIRED_FIELD');
      if (turl !== undefined && typeof turl !== 'string') throw invalid('ticket_url must be a string', 'INVALID_FIELD');
      if (extra !== undefined && typeof extra !== 'string') throw invalid('ids must be a string', 'INVALID_FIELD');
      requireWrite(user);
      const events = [...new Set([eventKey, ...splitIds(extra)])];
      const keys = events.map((e) => linkTicket(e, sys, tid, turl || '', user));
      return ctx.reply(201, [...new Set(keys)]);
    }
    throw methodNotAllowed(['GET', 'POST', 'PUT']);
  }
  if (segs.length === 3) {
    if (method !== 'DELETE') throw methodNotAllowed(['DELETE']);
    requireWrite(user);
    const [ep, sys, tid] = segs;
    for (const l of db.tickets.values()) {
      if (l.event_id !== ep || l.ticket_system !== sys) continue;
      const before = l.tickets.length;
      l.tickets = l.tickets.filter((t) => t.ticket_id !== tid);
      if (l.tickets.length !== before) l.mod_time = nowEpoch();
    }
    return ctx.reply(200, null);
  }
  throw notFound('No such endpoint');
}

// ---- actions ----
function handleActions(ctx, segs) {
  const { method, user } = ctx;
  if (segs.length === 0) {
    if (method !== 'GET') throw methodNotAllowed(['GET']);
    return ctx.reply(200, clone(ACTIONS));
  }
  if (segs.length !== 1) throw notFound('No such endpoint');
  const a = ACTIONS.find((x) => x.action_name === segs[0]);
  if (!a) throw notFound(`No episode action named ${segs[0]}`);
  if (method === 'GET') return ctx.reply(200, actionConfig(a));
  if (method !== 'POST') throw methodNotAllowed(['GET', 'POST']);
  const body = ctx.json();
  if (!isObj(body)) throw bad('Payload must be {"params": {...}, "ids": [...]}', 'INVALID_PAYLOAD');
  if (!Array.isArray(body.ids) || !body.ids.every((x) => typeof x === 'string'))
    throw invalid('ids must be an array of episode identifiers', 'INVALID_FIELD');
  const params = body.params === undefined || body.params === null ? {} : body.params;
  if (!isObj(params)) throw invalid('params must be an object', 'INVALID_FIELD');
  requireWrite(user);
  if (actionConfig(a).disabled === '1') throw conflict(`Episode action ${a.action_name} is disabled`, 'ACTION_DISABLED');
  if (a.action_name === 'ops_event_action_link_ticket' && body.ids.length) {
    if (typeof params.ticket_system !== 'string' || typeof params.ticket_id !== 'string') {
      throw invalid('params.ticket_system and params.ticket_id are required for this action', 'MISSING_REQUIRED_FIELD');
    }
  }
  const ids = body.ids;
  const bulk = String(a.is_bulk_compatible) === '1';
  const runs = bulk ? (ids.length ? [ids] : []) : ids.map((i) => [i]);
  const out = runs.map((r) => ({ action_name: a.action_name, ids: [...r], sid: newSid(a.action_name) }));
  // side effects
  for (const id of ids) {
    if (a.action_name === 'ops_event_action_link_ticket')
      linkTicket(id, params.ticket_system, params.ticket_id, typeof params.ticket_url === 'string' ? params.ticket_url : '', user);
    if (a.type === 'external_ticket') {
      const num = `INC${String(1000000 + Math.floor(Math.random() * 8999999))}`;
      linkTicket(id, a.label.replace(/ Incident$/, ''), num, `https://${a.action_name.split('_')[0]}.example.com/incident/${num}`, user);
    }
    if (a.action_name === 'ops_event_action_link_url' && typeof params.url === 'string') {
      const ep = db.event.notable_event_group.get(id);
      if (ep) {
        if (!Array.isArray(ep.drilldown)) ep.drilldown = [];
        ep.drilldown.push({ link: params.url, name: typeof params.name === 'string' ? params.name : params.url });
      }
    }
  }
  return ctx.reply(202, out);
}

// ---- generic event objects ----
const APPEND_ONLY = new Set(['notable_event_comment']);

function validateEventObject(type, o) {
  if (type === 'notable_event_comment') {
    if (typeof o.event_id !== 'string' || !o.event_id) throw invalid('Required field "event_id" is missing', 'MISSING_REQUIRED_FIELD');
    if (typeof o.comment !== 'string') throw invalid('Required field "comment" is missing', 'MISSING_REQUIRED_FIELD');
  }
  if (type === 'notable_event_tag') {
    if (typeof o.event_id !== 'string' || !o.event_id) throw invalid('Required field "event_id" is missing', 'MISSING_REQUIRED_FIELD');
    if (typeof o.tag_name !== 'string' || !o.tag_name) throw invalid('Required field "tag_name" is missing', 'MISSING_REQUIRED_FIELD');
  }
}

function createEventObject(type, body, user) {
  if (!isObj(body)) throw bad('Payload must be a JSON object', 'INVALID_PAYLOAD');
  const o = clone(body);
  validateEventObject(type, o);
  const store = db.event[type];
  if (o._key !== undefined && typeof o._key !== 'string') throw invalid('_key must be a string', 'INVALID_FIELD');
  if (!o._key) o._key = type === 'notable_event_group' || type === 'notable_event' ? uuid() : hexKey();
  if (store.has(o._key)) throw conflict(`An object with _key ${o._key} already exists`, 'OBJECT_ALREADY_EXISTS');
  const now = nowEpoch();
  o.object_type = type;
  o._version = SCHEMA_VERSION;
  o.create_time = now;
  o.mod_time = now;
  o._owner = 'nobody';
  o._user = 'nobody';
  if (type === 'notable_event_comment' || type === 'notable_event_tag') {
    o.user = user.name;
    o.owner = user.name;
  }
  if (type === 'notable_event_group' && o.event_id === undefined) o.event_id = o._key;
  store.set(o._key, o);
  return o;
}

function updateEventObject(type, key, body, partial) {
  const store = db.event[type];
  const ex = store.get(key);
  if (!ex) throw notFound(`No ${type} with _key ${key}`);
  if (!isObj(body)) throw bad('Payload must be a JSON object', 'INVALID_PAYLOAD');
  let n;
  if (partial) {
    n = clone(ex);
    const p = clone(body);
    delete p._key;
    deepMerge(n, p);
  } else {
    n = clone(body);
    for (const f of ['_key', 'create_time', '_owner', '_user']) n[f] = ex[f];
  }
  validateEventObject(type, n);
  n.object_type = type;
  n._version = SCHEMA_VERSION;
  n.mod_time = nowEpoch();
  store.set(key, n);
  return n;
}

export function handleEvents(ctx) {
  const { segs, method, q, user } = ctx;
  const [type, ...rest] = segs;
  if (!type) throw notFound('No such endpoint');
  if (type === 'notable_event_actions') return handleActions(ctx, rest);
  if (type === 'ticketing') return handleTicketing(ctx, rest);
  if (!EVENT_TYPES.includes(type)) throw bad(`(400, 'Unsupported object type: ${String(type).slice(0, 80)}')`, 'UNSUPPORTED_OBJECT_TYPE');
  const store = db.event[type];
  const appendOnly = APPEND_ONLY.has(type);
  if (rest.length === 0) {
    if (method === 'GET') {
      boolParam(q, 'is_partial_data', false); // accepted, no effect on reads
      const sq = sharedQuery(q, { filterName: 'filter_data', offsetName: 'skip' });
      let rows = [...store.values()];
      const ids = lastParam(q, 'ids');
      if (ids !== undefined) {
        const set = new Set(splitIds(ids));
        rows = rows.filter((o) => set.has(o._key));
      }
      return ctx.reply(
        200,
        select(rows, sq).map((o) => project(clone(o), sq.fields)),
      );
    }
    if (method === 'POST') {
      requireWrite(user);
      const o = createEventObject(type, ctx.json(), user);
      if (type === 'notable_event_comment') {
        return ctx.reply(201, {
          comment: o.comment,
          comment_id: o._key,
          object_type: type,
          event_id: o.event_id,
          create_time: String(o.create_time),
          mod_time: String(o.mod_time),
          owner: o.owner,
          user: o.user,
          _key: o._key,
        });
      }
      return ctx.reply(201, { _key: o._key });
    }
    if (method === 'PUT') {
      if (appendOnly) throw methodNotAllowed(['GET', 'POST'], 'Episode comments are append-only: update is not supported');
      const body = ctx.json();
      if (!Array.isArray(body) || !body.every((x) => isObj(x) && typeof x._key === 'string'))
        throw bad('Payload must be an array of objects with _key', 'INVALID_PAYLOAD');
      requireWrite(user);
      for (const x of body) if (!store.has(x._key)) throw notFound(`No ${type} with _key ${x._key}`);
      const partial = boolParam(q, 'is_partial_data', false);
      return ctx.reply(
        200,
        body.map((x) => updateEventObject(type, x._key, x, partial)._key),
      );
    }
    if (method === 'DELETE') {
      if (appendOnly) throw methodNotAllowed(['GET', 'POST'], 'Episode comments are append-only: delete is not supported');
      requireWrite(user);
      const sq = sharedQuery(q, { filterName: 'filter_data', offsetName: 'skip' });
      for (const o of select([...store.values()], sq)) store.delete(o._key);
      return ctx.reply(200, null);
    }
    throw methodNotAllowed(appendOnly ? ['GET', 'POST'] : ['GET', 'POST', 'PUT', 'DELETE']);
  }
  if (rest.length === 1 && rest[0] === 'count') {
    if (method !== 'GET') throw methodNotAllowed(['GET']);
    const pred = filterPredicate(lastParam(q, 'filter_data'));
    return ctx.reply(200, { count: [...store.values()].filter(pred).length });
  }
  if (rest.length !== 1) throw notFound('No such endpoint');
  const key = rest[0];
  if (method === 'GET') {
    const byEvent = lastParam(q, 'is_event_id');
    if (byEvent !== undefined && /^(1|true)$/i.test(byEvent) && (type === 'notable_event_comment' || type === 'notable_event_tag')) {
      return ctx.reply(200, clone([...store.values()].filter((o) => o.event_id === key)));
    }
    const o = store.get(key);
    if (!o) throw notFound(`No ${type} with _key ${key}`);
    return ctx.reply(200, clone(o));
  }
  if (method === 'POST' || method === 'PUT') {
    if (appendOnly) throw methodNotAllowed(['GET'], 'Episode comments are append-only: update is not supported');
    const partial = boolParam(q, 'is_partial_data', false);
    const body = ctx.json();
    requireWrite(user);
    updateEventObject(type, key, body, partial);
    return ctx.reply(200, { _key: key });
  }
  if (method === 'DELETE') {
    if (appendOnly && !bug('comment_delete')) throw methodNotAllowed(['GET'], 'Episode comments are append-only: delete is not supported');
    if (!store.has(key)) throw notFound(`No ${type} with _key ${key}`);
    requireWrite(user);
    store.delete(key);
    return ctx.reply(200, null);
  }
  throw methodNotAllowed(appendOnly ? ['GET'] : ['GET', 'POST', 'PUT', 'DELETE']);
}
