// Event management interface: episodes and related object types, episode actions, ticket links.
import { coll } from './store.mjs';
import { USERS } from './auth.mjs';
import { bad, notFound, clone, isObj, isStrArray, newKey, byMethod, Reply, methodNotAllowed, epochNow, parseBool } from './util.mjs';
import {
  register,
  handleList,
  handleCount,
  handleCreate,
  handleUpdate,
  handleGet,
  handleDeleteOne,
  requireWriter,
  visibleRows,
} from './crud.mjs';
import { listParams, select, project } from './query.mjs';
import { bugs } from './bugs.mjs';

const LIST_OPTS = { limitNames: ['limit', 'count'], offsetNames: ['skip', 'offset'], filterNames: ['filter_data', 'filter'] };
const SEVERITIES = ['1', '2', '3', '4', '5', '6'];
const STATUSES = ['0', '1', '2', '3', '4', '5'];

function codeField(doc, f, allowed) {
  if (doc[f] === undefined) return;
  if (typeof doc[f] === 'number') doc[f] = String(doc[f]);
  if (!allowed.includes(doc[f])) throw bad(`Field '${f}' must be one of ${allowed.join(', ')}`);
}
function episodeMustExist(id) {
  if (!coll('notable_event_group').has(id)) throw notFound(`No episode with identifier '${id}'`);
}

export const EDEFS = {
  notable_event_group: register({
    name: 'notable_event_group',
    teamMode: 'none',
    required: ['title'],
    createTime: 'epoch',
    stamps: 'light',
    normalize(doc, _ctx, _old) {
      codeField(doc, 'severity', SEVERITIES);
      codeField(doc, 'status', STATUSES);
      if (doc.severity === undefined) doc.severity = '1';
      if (doc.status === undefined) doc.status = '1';
      if (doc.owner === undefined) doc.owner = 'unassigned';
      if (typeof doc.owner !== 'string') throw bad(`Field 'owner' must be a string`);
      if (doc.drilldown !== undefined && !Array.isArray(doc.drilldown)) throw bad(`Field 'drilldown' must be an array`);
    },
    afterWrite(doc) {
      doc.event_id = doc._key;
    },
    afterDelete(doc) {
      for (const t of ['notable_event_comment', 'notable_event_tag', 'external_ticket'])
        for (const d of coll(t).docs()) if (d.event_id === doc._key) coll(t).delete(d._key);
    },
  }),
  notable_event_comment: register({
    name: 'notable_event_comment',
    teamMode: 'none',
    required: ['comment', 'event_id'],
    createTime: 'epoch',
    stamps: 'light',
    serverOwned: ['user', 'owner'],
    normalize(doc, ctx) {
      if (typeof doc.comment !== 'string' || !doc.comment.trim()) throw bad(`Field 'comment' must be a non-empty string`);
      if (typeof doc.event_id !== 'string') throw bad(`Field 'event_id' must be a string`);
      episodeMustExist(doc.event_id);
      doc.user = ctx.user.name;
      doc.owner = ctx.user.name;
    },
  }),
  notable_event_tag: register({
    name: 'notable_event_tag',
    teamMode: 'none',
    required: ['tag_name', 'event_id'],
    createTime: 'epoch',
    stamps: 'light',
    serverOwned: ['user', 'owner'],
    normalize(doc, ctx) {
      if (typeof doc.tag_name !== 'string' || !doc.tag_name.trim()) throw bad(`Field 'tag_name' must be a non-empty string`);
      if (typeof doc.event_id !== 'string') throw bad(`Field 'event_id' must be a string`);
      episodeMustExist(doc.event_id);
      doc.user = ctx.user.name;
      doc.owner = ctx.user.name;
    },
  }),
  correlation_search: register({
    name: 'correlation_search',
    teamMode: 'sec_grp',
    required: ['title'],
    normalize(doc) {
      if (doc.name === undefined) doc.name = doc.title;
      if (doc.search !== undefined && typeof doc.search !== 'string') throw bad(`Field 'search' must be a string`);
      for (const f of ['disabled', 'enabled']) {
        if (doc[f] === true || doc[f] === '1') doc[f] = 1;
        if (doc[f] === false || doc[f] === '0') doc[f] = 0;
        if (doc[f] !== undefined && doc[f] !== 0 && doc[f] !== 1) throw bad(`Field '${f}' must be 1 or 0`);
      }
      if (doc.disabled === undefined) doc.disabled = doc.enabled === 1 ? 0 : doc.enabled === 0 ? 1 : 0;
      doc.enabled = doc.disabled ? 0 : 1;
    },
  }),
  notable_aggregation_policy: register({
    name: 'notable_aggregation_policy',
    teamMode: 'sec_grp',
    required: ['title'],
    normalize(doc) {
      if (doc.enabled === true || doc.enabled === '1') doc.enabled = 1;
      if (doc.enabled === false || doc.enabled === '0') doc.enabled = 0;
      if (doc.enabled === undefined) doc.enabled = 1;
      if (doc.enabled !== 0 && doc.enabled !== 1) throw bad(`Field 'enabled' must be 1 or 0`);
      for (const f of ['filter_criteria', 'breaking_criteria'])
        if (doc[f] !== undefined && !isObj(doc[f])) throw bad(`Field '${f}' must be an object`);
    },
  }),
};
const APPEND_ONLY = new Set(['notable_event_comment']);

// ------------------------------------------------------------------ episode actions
const acl = {
  app: 'SA-ITOA',
  can_change_perms: true,
  can_list: true,
  can_share_app: true,
  can_share_global: true,
  can_share_user: false,
  can_write: true,
  modifiable: true,
  owner: 'nobody',
  perms: { read: ['*'], write: ['admin'] },
  removable: false,
  sharing: 'global',
};
function action(action_name, label, o = {}) {
  return {
    summary: {
      label,
      type: o.type ?? '',
      is_group_compatible: o.group ?? 1,
      action_name,
      execute_once_per_group: o.once ?? 0,
      execute_in_sync: o.sync ?? '0',
      is_bulk_compatible: o.bulk ?? '1',
    },
    config: {
      ttl: o.ttl ?? '10p',
      filename: o.filename ?? '',
      track_alert: '0',
      maxresults: '10000',
      description: o.description ?? label,
      label,
      maxtime: o.maxtime ?? '5m',
      disabled: '0',
      hostname: '',
      icon_path: o.icon ?? `${action_name}.png`,
      command: o.command ?? `sendalert ${action_name} param.episode_id="$result.itsi_group_id$"`,
      'eai:userName': 'nobody',
      'eai:appName': o.app ?? 'SA-ITOA',
      'eai:acl': { ...clone(acl), app: o.app ?? 'SA-ITOA' },
    },
  };
}
const ACTIONS = [
  action('email', 'Send email', {
    command: 'sendemail "to=$action.email.to$" "subject=$action.email.subject$" "format=$action.email.format$"',
    app: 'search',
    icon: 'mail.png',
    bulk: 0,
    group: '1',
    description: 'Send an email notification for the episode',
  }),
  action('script', 'Run a script', {
    command: 'runshellscript "$action.script.filename$" "$results.file$"',
    filename: '',
    app: 'search',
    bulk: '0',
    group: 0,
  }),
  action('ops_event_action_link_ticket', 'Link Ticket', {
    type: 'external_ticket',
    description: 'Link an episode to a ticket in an external ticketing system',
    once: 1,
  }),
  action('ops_event_action_link_url', 'Add a link to the episode', { description: 'Attach a URL to the episode' }),
  action('ops_event_action_send_to_orchestrator', 'Send to orchestrator', {
    sync: '1',
    description: 'Send the episode to the orchestration platform',
  }),
  action('ops_sample_event_action_ping', 'Ping a host', { bulk: 0, description: 'Ping the host of the episode', maxtime: '1m' }),
  action('ticketing_incident', 'Ticketing Incident Integration', {
    type: 'external_ticket',
    app: 'TA-ticketing',
    description: 'Create or update an incident in the third-party ticketing product',
    once: '1',
  }),
  action('paging_alert', 'Paging Incident Integration', {
    app: 'TA-paging',
    description: 'Open an incident in the third-party paging product',
    bulk: 1,
  }),
];

let SID = 0;
async function runAction(ctx, a) {
  requireWriter(ctx);
  const body = await ctx.json(true);
  if (!isObj(body)) throw bad(`The payload must be {"params": {...}, "ids": [<episode id>, ...]}`);
  if (!isStrArray(body.ids) || body.ids.length === 0) throw bad(`'ids' must be a non-empty array of episode identifiers`);
  const params = body.params ?? {};
  if (!isObj(params)) throw bad(`'params' must be an object`);
  for (const id of body.ids) episodeMustExist(id);
  const name = a.summary.action_name;
  if (name === 'ops_event_action_link_ticket') {
    for (const f of ['ticket_system', 'ticket_id'])
      if (typeof params[f] !== 'string' || !params[f]) throw bad(`params.${f} is required for ${name}`);
    if (params.ticket_url !== undefined && typeof params.ticket_url !== 'string') throw bad(`params.ticket_url must be a string`);
    for (const id of body.ids) upsertLink(ctx, id, params.ticket_system, params.ticket_id, params.ticket_url ?? '');
  }
  if (name === 'email' && params.to !== undefined && typeof params.to !== 'string') throw bad(`params.to must be a string`);
  const sid = () => `ops_act_${Math.floor(Date.now() / 1000)}_${++SID}_${newKey().slice(0, 8)}`;
  const bulk = String(a.summary.is_bulk_compatible) === '1';
  const groups = bulk ? [body.ids] : body.ids.map((i) => [i]);
  return groups.map((ids) => ({ action_name: name, ids, sid: sid() }));
}

// ------------------------------------------------------------------ ticketing
const LINKS = coll('external_ticket');
function upsertLink(ctx, eventId, system, ticketId, url) {
  let link = LINKS.docs().find((l) => l.event_id === eventId && l.ticket_system === system);
  const now = epochNow();
  if (!link) {
    link = {
      _key: newKey(),
      _user: ctx.pathUser || 'nobody',
      _owner: ctx.user.name,
      event_id: eventId,
      ticket_system: system,
      tickets: [],
      object_type: 'external_ticket',
      create_time: now,
      mod_time: now,
    };
    LINKS.put(link);
  }
  const t = link.tickets.find((x) => x.ticket_id === ticketId);
  if (t) t.ticket_url = url;
  else link.tickets.push({ ticket_system: system, ticket_url: url, ticket_id: ticketId });
  link.mod_time = now;
  return link._key;
}
function splitIds(v) {
  if (v === undefined || v === null || v === '') return [];
  if (Array.isArray(v)) return v;
  const s = String(v).trim();
  if (s.startsWith('[')) {
    try {
      const a = JSON.parse(s);
      if (isStrArray(a)) return a;
    } catch {
      /* fall through */
    }
    throw bad(`'ids' must be a comma-separated list or a JSON array of strings`);
  }
  return s
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean);
}
function ticketFields(src, required) {
  const out = {};
  for (const f of ['ticket_system', 'ticket_id', 'ticket_url']) {
    const v = src[f];
    if (v === undefined || v === null) {
      if (required.includes(f)) throw bad(`Field '${f}' is required and must be a string`);
      continue;
    }
    if (typeof v !== 'string' || (required.includes(f) && !v)) throw bad(`Field '${f}' must be a non-empty string`);
    out[f] = v;
  }
  return out;
}

async function ticketingRoot(ctx) {
  requireWriter(ctx);
  const body = await ctx.json(true);
  if (!isObj(body)) throw bad(`The payload must be {"id", "ticket_system", "ticket_id", "ticket_url"}`);
  if (typeof body.id !== 'string' || !body.id.trim()) throw bad(`Field 'id' (episode identifier) is required and must be a string`);
  const t = ticketFields(body, ['ticket_system', 'ticket_id', 'ticket_url']);
  const ids = splitIds(body.id);
  for (const i of ids) episodeMustExist(i);
  const keys = ids.map((i) => upsertLink(ctx, i, t.ticket_system, t.ticket_id, t.ticket_url));
  return new Reply(201, { _key: [...new Set(keys)].join(',') });
}

function ticketingGet(ctx, key) {
  episodeMustExist(key);
  const q = ctx.params;
  const eps = new Set([key, ...splitIds(q.get('ids'))]);
  const sys = q.get('ticket_system'),
    tid = q.get('ticket_id'),
    url = q.get('ticket_url');
  return LINKS.rows()
    .sort((a, b) => b.seq - a.seq)
    .map((r) => r.doc)
    .filter((l) => eps.has(l.event_id))
    .filter((l) => !sys || l.ticket_system === sys)
    .filter((l) => !tid || l.tickets.some((t) => t.ticket_id === tid))
    .filter((l) => !url || l.tickets.some((t) => t.ticket_url === url))
    .map(clone);
}

async function ticketingPost(ctx, key) {
  requireWriter(ctx);
  const body = (await ctx.json(false)) ?? {};
  if (!isObj(body)) throw bad(`The payload must be an object with ticket_system, ticket_id, ticket_url`);
  const src = {};
  for (const f of ['ids', 'ticket_system', 'ticket_id', 'ticket_url']) {
    if (ctx.params.has(f)) src[f] = ctx.params.get(f);
    if (body[f] !== undefined) src[f] = body[f];
  }
  const t = ticketFields(src, ['ticket_system', 'ticket_id', 'ticket_url']);
  const ids = [...new Set([key, ...splitIds(src.ids)])];
  for (const i of ids) episodeMustExist(i);
  const keys = ids.map((i) => upsertLink(ctx, i, t.ticket_system, t.ticket_id, t.ticket_url));
  return [...new Set(keys)];
}

function ticketingDelete(ctx, ep, sys, tid) {
  requireWriter(ctx);
  const link = LINKS.docs().find((l) => l.event_id === ep && l.ticket_system === sys && l.tickets.some((t) => t.ticket_id === tid));
  if (!link) throw notFound(`Episode '${ep}' has no ticket '${tid}' in ticketing system '${sys}'`);
  link.tickets = link.tickets.filter((t) => t.ticket_id !== tid);
  link.mod_time = epochNow();
  if (link.tickets.length === 0) LINKS.delete(link._key);
  return undefined;
}

function configuration() {
  const opt = (value, label, dflt = false, extra = {}) => ({ ...extra, default: dflt, value, label });
  return {
    owners: [opt('unassigned', 'unassigned', true), ...Object.keys(USERS).map((u) => opt(u, u === 'admin' ? 'Administrator' : u))],
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
      opt('1', 'Info', true, { color: '#AED3E5' }),
      opt('2', 'Normal', false, { color: '#99D18B' }),
      opt('3', 'Low', false, { color: '#FFE98C' }),
      opt('4', 'Medium', false, { color: '#FCB64E' }),
      opt('5', 'High', false, { color: '#F26A35' }),
      opt('6', 'Critical', false, { color: '#B50101' }),
    ],
  };
}

// ------------------------------------------------------------------ router
export async function handleEvents(ctx, segs) {
  const [a, b, c, d] = segs;
  if (!a) throw notFound('Specify an object type, for example event_management_interface/notable_event_group');
  if (a === 'notable_event_actions') {
    if (segs.length === 1) return byMethod(ctx, { GET: () => ACTIONS.map((x) => clone(x.summary)) });
    if (segs.length === 2) {
      const act = ACTIONS.find((x) => x.summary.action_name === b);
      if (!act) throw notFound(`No episode action named '${b}'. See GET notable_event_actions`);
      return byMethod(ctx, { GET: () => clone(act.config), POST: () => runAction(ctx, act) });
    }
  }
  if (a === 'ticketing') {
    if (segs.length === 1) return byMethod(ctx, { POST: () => ticketingRoot(ctx) });
    if (segs.length === 2)
      return byMethod(ctx, { GET: () => ticketingGet(ctx, b), POST: () => ticketingPost(ctx, b), PUT: () => ticketingPost(ctx, b) });
    if (segs.length === 4) return byMethod(ctx, { DELETE: () => ticketingDelete(ctx, b, c, d) });
    throw notFound('No such ticketing endpoint');
  }
  if (a === 'notable_event_configuration' && b === 'all_info' && segs.length === 2) return byMethod(ctx, { GET: () => configuration() });
  const def = Object.hasOwn(EDEFS, a) ? EDEFS[a] : null;
  if (!def) throw notFound(`Unknown event management object type '${a}'`);
  if (segs.length === 1)
    return byMethod(ctx, {
      GET: () => handleList(def, ctx, LIST_OPTS),
      POST: async () => {
        const r = await handleCreate(def, ctx);
        if (a === 'notable_event_comment') return new Reply(r.status, clone(coll(a).get(r.body._key)));
        return r;
      },
    });
  if (segs.length === 2 && b === 'count')
    return byMethod(ctx, { GET: () => handleCount(def, ctx, ctx.params.has('filter_data') ? 'filter_data' : 'filter') });
  if (segs.length === 2) {
    const get = () => {
      if (parseBool(ctx.params.get('is_event_id'), 'is_event_id', false)) {
        const p = listParams(ctx.params, LIST_OPTS);
        return select(
          visibleRows(def, ctx, (x) => x.event_id === b),
          p,
        ).map((r) => project(r.doc, p.fields));
      }
      return handleGet(def, ctx, b);
    };
    if (APPEND_ONLY.has(a) && !bugs.has('comment-not-append-only')) {
      if (ctx.method !== 'GET' && ctx.method !== 'HEAD')
        throw Object.assign(methodNotAllowed(['GET']), {
          message: 'Episode comments are append-only: update and delete are not supported',
        });
      return get();
    }
    return byMethod(ctx, { GET: get, POST: () => handleUpdate(def, ctx, b), DELETE: () => handleDeleteOne(def, ctx, b) });
  }
  throw notFound(`No such endpoint: event_management_interface/${segs.join('/')}`);
}
