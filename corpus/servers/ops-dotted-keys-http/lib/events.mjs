// Event management interface: object lists, episode actions, ticket links, comments.
import { HttpError, bad, notFound, forbidden, clone, isObj, isStr, newKey, newSid, epochFloat, qp, boolParam01 } from './util.mjs';
import { coll, canRead, canWrite, getReadable, requireWriter, visibleList } from './store.mjs';
import { listObjects, getObject, createObject, stamp, methodNotAllowed } from './objects.mjs';
import { sortList } from './query.mjs';

function int01(body, f) {
  const v = body[f];
  if (v === undefined) return;
  if (v === true || v === 1 || v === '1') body[f] = 1;
  else if (v === false || v === 0 || v === '0') body[f] = 0;
  else throw bad(`Field "${f}" must be 1 or 0`);
}

function episodeFor(user, id) {
  const e = coll('notable_event_group').get(id);
  if (!isStr(id) || !e || !canRead(user, 'notable_event_group', e)) return null;
  return e;
}

export const EVENT_KINDS = {
  correlation_search: {
    type: 'correlation_search',
    prefix: 'cs',
    label: 'Correlation search',
    timeStyle: 'event',
    known: ['search', 'disabled', 'cron_schedule', 'dispatch.earliest_time', 'dispatch.latest_time', 'severity', 'name'],
    validate: (b) => int01(b, 'disabled'),
  },
  notable_aggregation_policy: {
    type: 'notable_aggregation_policy',
    prefix: 'nap',
    label: 'Aggregation policy',
    timeStyle: 'event',
    known: ['disabled', 'group_severity', 'group_status', 'filter_criteria', 'breaking_criteria', 'rules', 'priority'],
    validate: (b) => int01(b, 'disabled'),
  },
  notable_event_group: {
    type: 'notable_event_group',
    prefix: 'epi',
    label: 'Episode',
    timeStyle: 'event',
    known: ['status', 'severity', 'owner', 'event_id', 'drilldown', 'service_ids'],
  },
  notable_event_comment: {
    type: 'notable_event_comment',
    prefix: 'nec',
    label: 'Episode comment',
    timeStyle: 'event',
    required: ['event_id', 'comment'],
    validate(b, { user }) {
      if (!isStr(b.event_id) || !b.event_id) throw bad('Field "event_id" must be a non-empty string');
      if (!isStr(b.comment) || !b.comment) throw bad('Field "comment" must be a non-empty string');
      if (!episodeFor(user, b.event_id)) throw bad(`Episode "${b.event_id}" does not exist`);
    },
    defaults(obj, user) {
      obj.sec_grp = coll('notable_event_group').get(obj.event_id).sec_grp;
      obj.user = user.name;
      obj.owner = user.name;
    },
  },
  notable_event_tag: {
    type: 'notable_event_tag',
    prefix: 'ntg',
    label: 'Episode tag',
    timeStyle: 'event',
    required: ['event_id', 'tag_name'],
    validate(b, { user }) {
      if (!isStr(b.event_id) || !b.event_id) throw bad('Field "event_id" must be a non-empty string');
      if (!isStr(b.tag_name) || !b.tag_name) throw bad('Field "tag_name" must be a non-empty string');
      if (!episodeFor(user, b.event_id)) throw bad(`Episode "${b.event_id}" does not exist`);
    },
    defaults(obj, user) {
      obj.sec_grp = coll('notable_event_group').get(obj.event_id).sec_grp;
      obj.user = user.name;
      obj.owner = user.name;
    },
  },
  external_ticket: {
    type: 'external_ticket',
    prefix: 'tkt',
    label: 'Ticket link',
    timeStyle: 'event',
    required: ['event_id'],
  },
};

const CREATABLE = ['notable_event_comment', 'notable_event_tag'];

// ---------------------------------------------------------------- episode actions
const ACL = (app) => ({
  app,
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
});
function action(name, label, type, flags, conf) {
  return {
    entry: { label, type, action_name: name, ...flags },
    config: {
      label,
      description: conf.description,
      ttl: conf.ttl || '10p',
      filename: conf.filename || '',
      track_alert: conf.track_alert || '0',
      maxresults: conf.maxresults || '100',
      maxtime: conf.maxtime || '5m',
      disabled: conf.disabled || '0',
      hostname: conf.hostname || '',
      icon_path: conf.icon_path || `${name}.png`,
      command: conf.command,
      is_custom: conf.is_custom || '0',
      payload_format: 'json',
      'eai:userName': 'nobody',
      'eai:appName': conf.app || 'SA-ITOA',
      'eai:acl': ACL(conf.app || 'SA-ITOA'),
    },
  };
}
export const ACTIONS = new Map(
  [
    action(
      'email',
      'Send email',
      '',
      { is_group_compatible: 1, execute_once_per_group: '0', execute_in_sync: 0, is_bulk_compatible: '1' },
      {
        description: 'Send an email notification to specified recipients',
        app: 'platform_alerts',
        command:
          'sendemail "server=$action.email.mailserver{default=localhost}$" "to=$action.email.to$" "subject=$action.email.subject$" results_link="$results.url$"',
      },
    ),
    action(
      'script',
      'Run a script',
      '',
      { is_group_compatible: '0', execute_once_per_group: 0, execute_in_sync: '0', is_bulk_compatible: 0 },
      {
        description: 'Invoke a custom script',
        filename: 'ops_episode_hook.sh',
        app: 'platform_alerts',
        command: 'runshellscript "$action.script.filename$" "$results.file$" "$name$" "$results.url$"',
      },
    ),
    action(
      'ops_event_action_link_ticket',
      'Link to a ticket',
      'external_ticket',
      { is_group_compatible: 1, execute_once_per_group: 1, execute_in_sync: '1', is_bulk_compatible: 1 },
      {
        description: 'Link the episode to a ticket in an external ticketing system',
        track_alert: '1',
        command:
          'ops_link_ticket ticket_system="$action.ops_event_action_link_ticket.param.ticket_system$" ticket_id="$action.ops_event_action_link_ticket.param.ticket_id$"',
      },
    ),
    action(
      'ops_event_action_link_url',
      'Add a drilldown link',
      '',
      { is_group_compatible: '1', execute_once_per_group: '1', execute_in_sync: 1, is_bulk_compatible: '1' },
      {
        description: 'Attach a URL to the episode drilldowns',
        command: 'ops_link_url name="$action.ops_event_action_link_url.param.name$" url="$action.ops_event_action_link_url.param.url$"',
      },
    ),
    action(
      'ops_event_action_send_to_orchestrator',
      'Send to orchestrator',
      '',
      { is_group_compatible: 1, execute_once_per_group: '0', execute_in_sync: 0, is_bulk_compatible: 0 },
      {
        description: 'Send the episode to an orchestration playbook',
        maxtime: '10m',
        command: 'ops_send_to_orchestrator playbook="$action.ops_event_action_send_to_orchestrator.param.playbook$"',
      },
    ),
    action(
      'ops_sample_event_action_ping',
      'Ping a host',
      '',
      { is_group_compatible: '0', execute_once_per_group: '0', execute_in_sync: '1', is_bulk_compatible: '0' },
      {
        description: 'Ping the host named in the episode',
        command: 'ping host="$result.host$"',
        is_custom: '1',
      },
    ),
    action(
      'snow_incident',
      'Create incident (ticketing)',
      'external_ticket',
      { is_group_compatible: 1, execute_once_per_group: 1, execute_in_sync: 0, is_bulk_compatible: 0 },
      {
        description: 'Create or update an incident in the third-party ticketing product',
        app: 'TA-ticketing',
        maxresults: '1',
        command:
          'snowincident account="$action.snow_incident.param.account$" short_description="$action.snow_incident.param.short_description$"',
      },
    ),
    action(
      'remedy_incident',
      'Create Remedy-style incident',
      'external_ticket',
      { is_group_compatible: '1', execute_once_per_group: '1', execute_in_sync: '0', is_bulk_compatible: '0' },
      {
        description: 'Create an incident in the second ticketing integration',
        app: 'TA-remedy',
        command: 'remedyincident summary="$action.remedy_incident.param.summary$"',
      },
    ),
    action(
      'pager_notify',
      'Page the on-call engineer',
      '',
      { is_group_compatible: 1, execute_once_per_group: '1', execute_in_sync: '0', is_bulk_compatible: 1 },
      {
        description: 'Trigger a page in the paging product (integration disabled on this deployment)',
        app: 'TA-paging',
        disabled: '1',
        command: 'pagernotify routing_key="$action.pager_notify.param.routing_key$"',
      },
    ),
  ].map((a) => [a.entry.action_name, a]),
);

function listActions() {
  return [...ACTIONS.values()].map((a) => clone(a.entry)).sort((x, y) => x.label.toLowerCase().localeCompare(y.label.toLowerCase()));
}

function runAction(ctx, name, body) {
  requireWriter(ctx.user);
  const a = ACTIONS.get(name);
  if (!isObj(body)) throw bad('The payload must be {"params": {...}, "ids": [<episode id>, ...]}');
  if (!isObj(body.params)) throw bad('"params" must be an object with the action parameters');
  if (!Array.isArray(body.ids) || !body.ids.length || !body.ids.every((x) => isStr(x) && x))
    throw bad('"ids" must be a non-empty array of episode ids');
  if (a.config.disabled === '1') throw bad(`Episode action "${name}" is disabled`);
  const ids = [...new Set(body.ids)];
  const eps = ids.map((id) => {
    const e = episodeFor(ctx.user, id);
    if (!e) throw bad(`Episode "${id}" does not exist`);
    if (!canWrite(ctx.user, 'notable_event_group', e)) throw forbidden(`User "${ctx.user.name}" cannot act on episode "${id}"`);
    return e;
  });
  const p = body.params;
  if (name === 'ops_event_action_link_ticket') {
    if (!isStr(p.ticket_system) || !p.ticket_system || !isStr(p.ticket_id) || !p.ticket_id)
      throw bad('params.ticket_system and params.ticket_id are required strings for ops_event_action_link_ticket');
    if (p.ticket_url !== undefined && !isStr(p.ticket_url)) throw bad('params.ticket_url must be a string');
    for (const e of eps) linkTicket(ctx.user, e, p.ticket_system, p.ticket_id, p.ticket_url || '');
  }
  if (name === 'ops_event_action_link_url') {
    if (!isStr(p.url) || !p.url) throw bad('params.url is a required string for ops_event_action_link_url');
    for (const e of eps) {
      const prev = clone(e);
      if (!Array.isArray(e.drilldown)) e.drilldown = [];
      e.drilldown.push({ name: isStr(p.name) && p.name ? p.name : 'Link', link: p.url });
      stamp(EVENT_KINDS.notable_event_group, ctx.user, e, prev);
    }
  }
  const bulk = String(a.entry.is_bulk_compatible) === '1';
  if (bulk) return [{ action_name: name, ids, sid: newSid(name) }];
  return ids.map((id) => ({ action_name: name, ids: [id], sid: newSid(name) }));
}

// ---------------------------------------------------------------- ticket links
function linkTicket(user, ep, system, ticketId, url) {
  const store = coll('external_ticket');
  let t = [...store.values()].find((x) => x.event_id === ep._key && x.ticket_system === system);
  const prev = t ? clone(t) : null;
  if (!t) t = { _key: newKey('tkt'), event_id: ep._key, ticket_system: system, tickets: [], sec_grp: ep.sec_grp };
  const existing = t.tickets.find((x) => x.ticket_id === ticketId);
  if (existing) existing.ticket_url = url;
  else t.tickets.push({ ticket_system: system, ticket_url: url, ticket_id: ticketId });
  stamp(EVENT_KINDS.external_ticket, user, t, prev);
  store.set(t._key, t);
  return t._key;
}

function idList(v) {
  if (v === undefined || v === null || v === '') return [];
  if (Array.isArray(v)) return v;
  if (isStr(v) && v.trim().startsWith('[')) {
    try {
      const a = JSON.parse(v);
      if (Array.isArray(a)) return a;
    } catch {
      /* comma form */
    }
  }
  return String(v)
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

function createTicketing(ctx, body) {
  requireWriter(ctx.user);
  if (!isObj(body)) throw bad('The payload must be {"id", "ticket_system", "ticket_id", "ticket_url"}');
  for (const f of ['id', 'ticket_system', 'ticket_id', 'ticket_url'])
    if (!isStr(body[f]) || !body[f]) throw bad(`Field "${f}" is required and must be a non-empty string`);
  const ids = idList(body.id);
  if (!ids.length || !ids.every(isStr)) throw bad('Field "id" must name at least one episode');
  const eps = ids.map((id) => {
    const e = episodeFor(ctx.user, id);
    if (!e) throw bad(`Episode "${id}" does not exist`);
    if (!canWrite(ctx.user, 'notable_event_group', e)) throw forbidden(`User "${ctx.user.name}" cannot change episode "${id}"`);
    return e;
  });
  const keys = eps.map((e) => linkTicket(ctx.user, e, body.ticket_system, body.ticket_id, body.ticket_url));
  return keys.join(',');
}

function ticketParams(ctx, body) {
  const out = {};
  for (const f of ['ids', 'ticket_system', 'ticket_id', 'ticket_url']) {
    const q = qp(ctx.query, f);
    if (q !== undefined) out[f] = q;
    if (isObj(body) && body[f] !== undefined) out[f] = body[f];
  }
  return out;
}

function getTickets(ctx, key) {
  getReadable(ctx.user, 'notable_event_group', key, 'Episode');
  const p = ticketParams(ctx, null);
  const eventIds = [key, ...idList(p.ids).filter((id) => isStr(id) && id !== key && episodeFor(ctx.user, id))];
  const out = [];
  for (const id of eventIds) {
    let rows = [...coll('external_ticket').values()].filter((t) => t.event_id === id && canRead(ctx.user, 'external_ticket', t));
    if (p.ticket_system) rows = rows.filter((t) => t.ticket_system === p.ticket_system);
    rows = rows.map(clone);
    if (p.ticket_id || p.ticket_url) {
      rows = rows
        .map((t) => ({
          ...t,
          tickets: t.tickets.filter(
            (x) => (!p.ticket_id || x.ticket_id === p.ticket_id) && (!p.ticket_url || x.ticket_url === p.ticket_url),
          ),
        }))
        .filter((t) => t.tickets.length);
    }
    out.push(...sortList(rows, 'ticket_system', true));
  }
  return out;
}

function postTickets(ctx, key, body) {
  requireWriter(ctx.user);
  if (body !== undefined && body !== null && !isObj(body)) throw bad('The payload must be a JSON object');
  const ep = getReadable(ctx.user, 'notable_event_group', key, 'Episode');
  const p = ticketParams(ctx, body);
  for (const f of ['ticket_system', 'ticket_id']) if (!isStr(p[f]) || !p[f]) throw bad(`"${f}" is required and must be a non-empty string`);
  if (p.ticket_url !== undefined && !isStr(p.ticket_url)) throw bad('"ticket_url" must be a string');
  const others = idList(p.ids).filter((id) => id !== key);
  const eps = [
    ep,
    ...others.map((id) => {
      if (!isStr(id)) throw bad('"ids" must hold episode ids');
      const e = episodeFor(ctx.user, id);
      if (!e) throw bad(`Episode "${id}" does not exist`);
      return e;
    }),
  ];
  for (const e of eps)
    if (!canWrite(ctx.user, 'notable_event_group', e)) throw forbidden(`User "${ctx.user.name}" cannot change episode "${e._key}"`);
  return eps.map((e) => linkTicket(ctx.user, e, p.ticket_system, p.ticket_id, p.ticket_url || ''));
}

function deleteTicket(ctx, ep, system, tid) {
  requireWriter(ctx.user);
  const e = getReadable(ctx.user, 'notable_event_group', ep, 'Episode');
  const t = [...coll('external_ticket').values()].find((x) => x.event_id === e._key && x.ticket_system === system);
  if (!t) throw notFound(`Episode "${ep}" has no link to ticketing system "${system}"`);
  if (!canWrite(ctx.user, 'external_ticket', t)) throw forbidden(`User "${ctx.user.name}" cannot change ticket links of episode "${ep}"`);
  const i = t.tickets.findIndex((x) => x.ticket_id === tid);
  if (i < 0) throw notFound(`Episode "${ep}" has no ticket "${tid}" in "${system}"`);
  const prev = clone(t);
  t.tickets.splice(i, 1);
  if (!t.tickets.length) coll('external_ticket').delete(t._key);
  else stamp(EVENT_KINDS.external_ticket, ctx.user, t, prev);
}

// ---------------------------------------------------------------- misc
const CONFIG_ALL_INFO = {
  owners: [
    { default: true, value: 'unassigned', label: 'unassigned' },
    { default: false, value: 'svc_conformance', label: 'svc_conformance' },
    { default: false, value: 'team_ops', label: 'team_ops' },
    { default: false, value: 'admin', label: 'Administrator' },
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

const isEmpty = (v) => v === null || v === '' || (Array.isArray(v) && !v.length) || (isObj(v) && !Object.keys(v).length);

export async function handleEvents(ctx, segs) {
  const m = ctx.method;
  const [a, b] = segs;
  if (!a) throw notFound('No object type in the path');
  if (a === 'notable_event_actions') {
    if (segs.length === 1) {
      if (m !== 'GET') throw methodNotAllowed(['GET']);
      return { body: listActions() };
    }
    if (segs.length === 2) {
      const act = ACTIONS.get(b);
      if (!act) throw notFound(`Episode action "${b}" does not exist`);
      if (m === 'GET') return { body: clone(act.config) };
      if (m === 'POST') {
        requireWriter(ctx.user);
        return { body: runAction(ctx, b, await ctx.json(true)) };
      }
      throw methodNotAllowed(['GET', 'POST']);
    }
    throw notFound('Unknown path under notable_event_actions');
  }
  if (a === 'ticketing') {
    if (segs.length === 1) {
      if (m !== 'POST') throw methodNotAllowed(['POST']);
      requireWriter(ctx.user);
      return { status: 201, body: createTicketing(ctx, await ctx.json(true)) };
    }
    if (segs.length === 2) {
      if (m === 'GET') return { body: getTickets(ctx, b) };
      if (m === 'POST' || m === 'PUT') {
        requireWriter(ctx.user);
        return { status: 201, body: postTickets(ctx, b, await ctx.json(false)) };
      }
      throw methodNotAllowed(['GET', 'POST', 'PUT']);
    }
    if (segs.length === 4) {
      if (m !== 'DELETE') throw methodNotAllowed(['DELETE']);
      deleteTicket(ctx, segs[1], segs[2], segs[3]);
      return { status: 204 };
    }
    throw notFound('Unknown path under ticketing');
  }
  if (a === 'notable_event_configuration' && segs.length === 2 && b === 'all_info') {
    if (m !== 'GET') throw methodNotAllowed(['GET']);
    return { body: clone(CONFIG_ALL_INFO) };
  }
  const kind = EVENT_KINDS[a];
  if (!kind) throw notFound(`Unknown event management object type "${a}"`);
  const appendOnly = a === 'notable_event_comment';
  if (segs.length === 1) {
    if (m === 'GET') {
      const partial = boolParam01(ctx.query, 'is_partial_data', false);
      let rows = listObjects(kind, ctx, { filter: 'filter_data', offset: 'skip' });
      if (partial) rows = rows.map((o) => Object.fromEntries(Object.entries(o).filter(([k, v]) => k === '_key' || !isEmpty(v))));
      return { body: rows };
    }
    if (m === 'POST' && CREATABLE.includes(a)) {
      requireWriter(ctx.user);
      const body = await ctx.json(true);
      if (isObj(body)) delete body._key;
      const r = createObject(kind, ctx, body);
      const o = coll(a).get(r.key);
      if (a === 'notable_event_comment')
        return {
          status: 201,
          body: {
            comment: o.comment,
            comment_id: o._key,
            create_time: o.create_time.toFixed(6),
            mod_time: o.mod_time.toFixed(6),
            owner: o.owner,
            user: o.user,
            event_id: o.event_id,
          },
        };
      return { status: 201, body: { _key: r.key } };
    }
    if (appendOnly && (m === 'DELETE' || m === 'PUT' || m === 'POST'))
      throw new HttpError(405, 'Episode comments are append-only: update and delete are not supported', { Allow: 'GET, POST' });
    throw methodNotAllowed(CREATABLE.includes(a) ? ['GET', 'POST'] : ['GET']);
  }
  if (segs.length === 2) {
    if (m === 'GET') {
      const byEvent = qp(ctx.query, 'is_event_id');
      if (
        byEvent !== undefined &&
        /^(1|true)$/i.test(byEvent) &&
        (a === 'notable_event_comment' || a === 'notable_event_tag' || a === 'external_ticket')
      ) {
        getReadable(ctx.user, 'notable_event_group', b, 'Episode');
        return {
          body: sortList(
            visibleList(ctx.user, a).filter((o) => o.event_id === b),
            'create_time',
            true,
          ).map(clone),
        };
      }
      return { body: getObject(kind, ctx, b) };
    }
    if (appendOnly) throw new HttpError(405, 'Episode comments are append-only: update and delete are not supported', { Allow: 'GET' });
    throw methodNotAllowed(['GET']);
  }
  throw notFound('Unknown event management path');
}

export { epochFloat };
