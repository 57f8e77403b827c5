// Event management interface: episode-related object lists, episode actions, ticket links,
// append-only episode comments, tags.

import { randomUUID } from 'node:crypto';
import { EPISODE_ACTIONS, type EpisodeAction } from './ops-data.js';
import {
  badRequest,
  boolParam,
  byMethod,
  created,
  deleted,
  isPlainObject,
  methodNotAllowed,
  notFound,
  objectBody,
  ok,
  requireWrite,
  unknownPath,
  type Ctx,
  type Doc,
  type Reply,
} from './ops-http.js';
import { applyFilter, clone, epochSeconds, orderAndPage, parseListParams, project, type Rec } from './ops-store.js';

const EVENT_TYPES = new Set([
  'notable_event_group',
  'correlation_search',
  'notable_aggregation_policy',
  'notable_event_comment',
  'notable_event_tag',
  'notable_event',
]);
const evColl = (type: string) => `ev:${type}`;
const TICKETS = evColl('external_ticket');

function stamp(doc: Doc, type: string, prev?: Doc): Doc {
  const now = epochSeconds();
  doc.object_type = type;
  doc._user = 'nobody';
  doc._owner = 'nobody';
  doc.create_time = prev?.create_time ?? now;
  doc.mod_time = now;
  return doc;
}

function idList(v: unknown): string[] {
  if (Array.isArray(v)) return v.map(String).filter(Boolean);
  if (typeof v !== 'string' || v.trim() === '') return [];
  const t = v.trim();
  if (t.startsWith('[')) {
    try {
      const arr = JSON.parse(t) as unknown;
      if (Array.isArray(arr)) return arr.map(String).filter(Boolean);
    } catch {
      /* comma list below */
    }
  }
  return t
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

// ---------- generic lists ----------

function listEvents(ctx: Ctx, type: string, only?: (r: Rec) => boolean): Reply {
  boolParam(ctx, 'is_partial_data', false);
  const p = parseListParams(ctx, { offset: 'skip', filter: 'filter_data', limit: 'limit' });
  let recs = ctx.store.coll(evColl(type)).all();
  if (only) recs = recs.filter(only);
  const ids = idList(ctx.query.get('ids') ?? '');
  if (ids.length) recs = recs.filter((r) => ids.includes(String(r.doc._key)) || ids.includes(String(r.doc.event_id)));
  if (p.filter === null && ctx.bug('get-bad-filter-empty')) recs = [];
  recs = applyFilter(recs, p.filter);
  return ok(orderAndPage(ctx, recs, p).map((r) => project(clone(r.doc), p.fields, ctx)));
}

function getEvent(ctx: Ctx, type: string, key: string): Reply {
  if ((type === 'notable_event_comment' || type === 'notable_event_tag') && boolParam(ctx, 'is_event_id', false)) {
    return listEvents(ctx, type, (r) => r.doc.event_id === key);
  }
  const rec = ctx.store.coll(evColl(type)).get(key);
  if (!rec) throw notFound(`Object of type ${type} with _key "${key}" does not exist`);
  return ok(clone(rec.doc));
}

function requireString(body: Doc, field: string): string {
  const v = body[field];
  if (typeof v !== 'string' || v.trim() === '') throw badRequest(`Missing required field "${field}"`);
  return v;
}

function createEvent(ctx: Ctx, type: string): Reply {
  requireWrite(ctx);
  const body = objectBody(ctx);
  if (type === 'notable_event_comment') return createComment(ctx, body);
  if (type === 'notable_event_tag') {
    requireString(body, 'event_id');
    requireString(body, 'tag_name');
  }
  const coll = ctx.store.coll(evColl(type));
  const key = typeof body._key === 'string' && body._key ? body._key : type === 'notable_event_tag' ? ctx.store.objectId() : randomUUID();
  const doc = stamp({ ...clone(body), _key: key, user: ctx.user.name, owner: body.owner ?? ctx.user.name }, type, coll.get(key)?.doc);
  coll.put(doc);
  return created(ctx, { _key: key });
}

function createComment(ctx: Ctx, body: Doc): Reply {
  const eventId = requireString(body, 'event_id');
  const comment = requireString(body, 'comment');
  const legacy = ctx.profile.commentCreate === 'key';
  const key = legacy ? ctx.store.objectId() : ctx.store.timeUuid();
  const doc = stamp({ _key: key, event_id: eventId, comment, user: ctx.user.name, owner: ctx.user.name }, 'notable_event_comment');
  if (typeof body.is_group === 'boolean' || typeof body.is_group === 'number') doc.is_group = body.is_group;
  ctx.store.coll(evColl('notable_event_comment')).put(doc);
  if (legacy) return created(ctx, { _key: key });
  return created(ctx, {
    comment,
    comment_id: key,
    create_time: String(doc.create_time),
    mod_time: String(doc.mod_time),
    owner: 'nobody',
    user: ctx.user.name,
  });
}

function appendOnly(ctx: Ctx): never {
  throw methodNotAllowed(ctx.method, 'Episode comments are append-only: update and delete are not supported');
}

function updateEvent(ctx: Ctx, type: string, key: string): Reply {
  if (type === 'notable_event_comment' && !ctx.bug('comments-mutable')) appendOnly(ctx);
  requireWrite(ctx);
  const coll = ctx.store.coll(evColl(type));
  const rec = coll.get(key);
  if (!rec) throw notFound(`Object of type ${type} with _key "${key}" does not exist`);
  const body = objectBody(ctx);
  const partial = boolParam(ctx, 'is_partial_data', type !== 'correlation_search');
  const next = partial ? { ...rec.doc, ...clone(body) } : { ...clone(body), event_id: rec.doc.event_id };
  coll.put(stamp({ ...next, _key: key }, type, rec.doc));
  return ok({ _key: key });
}

function deleteEvent(ctx: Ctx, type: string, key: string): Reply {
  if (type === 'notable_event_comment' && !ctx.bug('comments-mutable')) appendOnly(ctx);
  requireWrite(ctx);
  if (!ctx.store.coll(evColl(type)).delete(key)) throw notFound(`Object of type ${type} with _key "${key}" does not exist`);
  return deleted(ctx);
}

/** PUT notable_event: change status/severity/owner of episodes and events by id. */
function updateNotableEvents(ctx: Ctx): Reply {
  requireWrite(ctx);
  const body = objectBody(ctx);
  const ids = idList(body.ids ?? ctx.query.get('ids') ?? '');
  if (ids.length === 0) throw badRequest('Missing required field "ids"');
  const changes: Doc = {};
  for (const f of ['status', 'severity', 'owner']) if (body[f] !== undefined) changes[f] = String(body[f]);
  const done: string[] = [];
  for (const type of ['notable_event', 'notable_event_group']) {
    for (const id of ids) {
      const rec = ctx.store.coll(evColl(type)).get(id);
      if (!rec) continue;
      Object.assign(rec.doc, changes, { mod_time: epochSeconds() });
      if (!done.includes(id)) done.push(id);
    }
  }
  return ok(done);
}

// ---------- episode actions ----------

function actionEntry(ctx: Ctx, a: EpisodeAction): Doc {
  const n = (v: number) => (ctx.profile.numericStrings ? String(v) : v);
  return {
    label: a.label,
    type: a.type,
    is_group_compatible: n(a.is_group_compatible),
    action_name: a.action_name,
    execute_once_per_group: n(a.execute_once_per_group),
    execute_in_sync: n(a.execute_in_sync),
    is_bulk_compatible: n(a.is_bulk_compatible),
  };
}

function findAction(name: string): EpisodeAction {
  const a = EPISODE_ACTIONS.find((x) => x.action_name === name);
  if (!a) throw notFound(`Episode action "${name}" does not exist`);
  return a;
}

function actionConfig(a: EpisodeAction): Doc {
  return {
    ttl: '600',
    filename: a.action_name === 'script' ? '' : `${a.action_name}.py`,
    track_alert: '0',
    maxresults: '10000',
    description: a.description,
    label: a.label,
    maxtime: '5m',
    disabled: '0',
    hostname: '',
    icon_path: `${a.action_name}.png`,
    command: a.command,
    is_custom: a.action_name.startsWith('ops_') ? '0' : '1',
    'eai:userName': 'nobody',
    'eai:appName': 'SA-ITOA',
    'eai:acl': {
      app: 'SA-ITOA',
      owner: 'nobody',
      sharing: 'global',
      modifiable: '1',
      can_write: '1',
      perms: { read: ['*'], write: ['admin', 'ops_admin'] },
    },
  };
}

function executeAction(ctx: Ctx, a: EpisodeAction): Reply {
  requireWrite(ctx);
  const body = objectBody(ctx);
  const ids = idList(body.ids);
  if (ids.length === 0) throw badRequest('Missing required field "ids": the episode ids the action runs on');
  if (body.params !== undefined && !isPlainObject(body.params)) throw badRequest('"params" must be an object');
  if (ids.length > 1 && a.is_bulk_compatible !== 1) throw badRequest(`Action "${a.action_name}" cannot run on several episodes at once`);
  const params = (body.params as Doc | undefined) ?? {};
  if (a.action_name === 'ops_event_action_link_ticket') {
    const system = params.ticket_system;
    const id = params.ticket_id;
    if (typeof system !== 'string' || typeof id !== 'string') throw badRequest('params.ticket_system and params.ticket_id are required');
    for (const e of ids) linkTicket(ctx, e, system, id, typeof params.ticket_url === 'string' ? params.ticket_url : '');
  }
  const sid = `admin__admin__SA-ITOA__RMD5${ctx.store.objectId().slice(8, 24)}_at_${Math.floor(Date.now() / 1000)}_${Math.floor(Math.random() * 1000)}`;
  return ok([{ action_name: a.action_name, ids, sid }]);
}

// ---------- ticket links ----------

function linkTicket(ctx: Ctx, eventId: string, system: string, ticketId: string, url: string): string {
  const coll = ctx.store.coll(TICKETS);
  const existing = coll.all().find((r) => r.doc.event_id === eventId && r.doc.ticket_system === system);
  const ticket: Doc = { ticket_system: system, ticket_id: ticketId };
  if (url) ticket.ticket_url = url;
  if (existing) {
    const tickets = existing.doc.tickets as Doc[];
    const same = tickets.find((t) => t.ticket_id === ticketId);
    if (same) Object.assign(same, ticket);
    else tickets.push(ticket);
    existing.doc.mod_time = epochSeconds();
    return String(existing.doc._key);
  }
  const key = ctx.store.timeUuid();
  coll.put(stamp({ _key: key, event_id: eventId, ticket_system: system, tickets: [ticket] }, 'external_ticket'));
  return key;
}

function ticketFields(ctx: Ctx, body: Doc): Doc {
  const out: Doc = {};
  for (const f of ['id', 'ids', 'ticket_system', 'ticket_id', 'ticket_url']) {
    const v = body[f] ?? ctx.query.get(f) ?? undefined;
    if (v !== undefined) out[f] = v;
  }
  return out;
}

function createTicketLink(ctx: Ctx): Reply {
  requireWrite(ctx);
  const body = objectBody(ctx);
  const missingOk = ctx.bug('ticketing-missing-field');
  for (const f of ['id', 'ticket_system', 'ticket_id', 'ticket_url']) {
    const v = body[f];
    if (v !== undefined && typeof v !== 'string') throw badRequest(`Field "${f}" must be a string`);
    if (!missingOk && (typeof v !== 'string' || v.trim() === '')) throw badRequest(`Missing required field "${f}"`);
  }
  const events = idList(body.id ?? '');
  if (events.length === 0) events.push(String(body.id ?? ''));
  const keys = events.map((e) =>
    linkTicket(ctx, e, String(body.ticket_system ?? ''), String(body.ticket_id ?? ''), String(body.ticket_url ?? '')),
  );
  return created(ctx, { _key: keys[0] });
}

function ticketsOf(ctx: Ctx, eventId: string): Reply {
  const system = ctx.query.get('ticket_system');
  const ticketId = ctx.query.get('ticket_id');
  const ids = [eventId, ...idList(ctx.query.get('ids') ?? '')];
  const rows = ctx.store
    .coll(TICKETS)
    .all()
    .sort((a, b) => a.seq - b.seq)
    .map((r) => r.doc)
    .filter((d) => ids.includes(String(d.event_id)))
    .filter((d) => !system || d.ticket_system === system)
    .filter((d) => !ticketId || (d.tickets as Doc[]).some((t) => t.ticket_id === ticketId));
  return ok(rows.map((d) => clone(d)));
}

function linkForEvent(ctx: Ctx, eventId: string): Reply {
  requireWrite(ctx);
  const f = ticketFields(ctx, ctx.rawBody.length ? objectBody(ctx) : {});
  for (const name of ['ticket_system', 'ticket_id']) {
    if (typeof f[name] !== 'string' || String(f[name]).trim() === '') throw badRequest(`Missing required field "${name}"`);
  }
  const events = [eventId, ...idList(f.ids ?? '')].filter((v, i, a) => a.indexOf(v) === i);
  const keys = events.map((e) => linkTicket(ctx, e, String(f.ticket_system), String(f.ticket_id), String(f.ticket_url ?? '')));
  return ok(keys);
}

function unlinkTicket(ctx: Ctx, eventId: string, system: string, ticketId: string): Reply {
  requireWrite(ctx);
  const coll = ctx.store.coll(TICKETS);
  const rec = coll.all().find((r) => r.doc.event_id === eventId && r.doc.ticket_system === system);
  const tickets = (rec?.doc.tickets as Doc[] | undefined) ?? [];
  const idx = tickets.findIndex((t) => t.ticket_id === ticketId);
  if (!rec || idx < 0) throw notFound(`No ticket ${ticketId} of ${system} is linked to episode ${eventId}`);
  tickets.splice(idx, 1);
  if (tickets.length === 0) coll.delete(String(rec.doc._key));
  else rec.doc.mod_time = epochSeconds();
  return deleted(ctx);
}

// ---------- configuration ----------

function configuration(): Doc {
  const opt = (value: string, label: string, dflt = false) => ({ default: dflt, value, label });
  return {
    owners: [opt('unassigned', 'unassigned', true), opt('admin', 'Administrator'), opt('ops_viewer', 'ops_viewer')],
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
}

// ---------- router ----------

export function handleEvents(ctx: Ctx, seg: string[]): Reply {
  const [a, b, c, d] = seg;
  if (a === undefined) throw unknownPath();
  if (a === 'notable_event_actions') {
    if (seg.length === 1) return byMethod(ctx, { GET: () => ok(EPISODE_ACTIONS.map((x) => actionEntry(ctx, x))) });
    if (seg.length === 2) {
      return byMethod(ctx, { GET: () => ok(actionConfig(findAction(b))), POST: () => executeAction(ctx, findAction(b)) });
    }
    throw unknownPath();
  }
  if (a === 'ticketing') {
    if (seg.length === 1) return byMethod(ctx, { POST: () => createTicketLink(ctx) });
    if (seg.length === 2)
      return byMethod(ctx, { GET: () => ticketsOf(ctx, b), POST: () => linkForEvent(ctx, b), PUT: () => linkForEvent(ctx, b) });
    if (seg.length === 4) return byMethod(ctx, { DELETE: () => unlinkTicket(ctx, b, c, d) });
    throw unknownPath();
  }
  if (a === 'notable_event_configuration' && seg.length <= 2) return byMethod(ctx, { GET: () => ok(configuration()) });
  if (!EVENT_TYPES.has(a)) throw unknownPath(`Unsupported object type "${a}"`);
  if (seg.length === 1) {
    if (a === 'notable_event') {
      return byMethod(ctx, { GET: () => listEvents(ctx, a), POST: () => updateNotableEvents(ctx), PUT: () => updateNotableEvents(ctx) });
    }
    return byMethod(ctx, { GET: () => listEvents(ctx, a), POST: () => createEvent(ctx, a) });
  }
  if (seg.length === 2) {
    return byMethod(ctx, {
      GET: () => getEvent(ctx, a, b),
      POST: () => updateEvent(ctx, a, b),
      PUT: () => updateEvent(ctx, a, b),
      DELETE: () => deleteEvent(ctx, a, b),
    });
  }
  throw unknownPath();
}

// ---------- seeds ----------

export function seedEvents(ctx: Ctx, serviceKeys: string[]): void {
  const put = (type: string, doc: Doc) => ctx.store.coll(evColl(type)).put(stamp(doc, type));
  put('notable_aggregation_policy', {
    _key: 'ops_default_policy',
    title: 'Default Policy',
    disabled: 0,
    is_default: 1,
    group_severity: 'medium',
  });
  const searches = ['Service Health Degraded', 'Host Unreachable'].map((title, i) => {
    const key = randomUUID();
    put('correlation_search', {
      _key: key,
      title,
      name: title,
      disabled: 0,
      search: `index=ops_summary alert_level>=${4 + i}`,
      cron_schedule: '*/5 * * * *',
    });
    return key;
  });
  const episodes = [
    ['Checkout latency above threshold', '2', '5'],
    ['Disk usage critical on db-01', '1', '6'],
    ['Intermittent 5xx on web tier', '5', '4'],
  ].map(([title, status, severity], i) => {
    const key = randomUUID();
    put('notable_event_group', {
      _key: key,
      event_id: key,
      title,
      status,
      severity,
      owner: i === 0 ? 'admin' : 'unassigned',
      policy_id: 'ops_default_policy',
      service_ids: serviceKeys.slice(0, 1),
    });
    for (let n = 0; n < 2; n++) {
      const eid = ctx.store.timeUuid();
      put('notable_event', {
        _key: eid,
        event_id: eid,
        title: `${title} (${n + 1})`,
        status,
        severity: ['info', 'low', 'medium', 'high', 'critical'][n + i] ?? 'low',
        itsi_group_id: key,
        source: searches[n % 2],
        service_ids: serviceKeys.slice(0, 1).join(','),
      });
    }
    return key;
  });
  put('notable_event_comment', {
    _key: ctx.store.objectId(),
    event_id: episodes[0],
    comment: 'Investigating with the payments team',
    user: 'admin',
    owner: 'admin',
  });
  put('notable_event_tag', { _key: ctx.store.objectId(), event_id: episodes[0], tag_name: 'payments', user: 'admin', owner: 'admin' });
  linkTicket(ctx, episodes[1], 'ServiceNow', 'INC0012345', 'https://snow.example.invalid/INC0012345');
}
