// biome-ignore-all lint/suspicious/noExplicitAny: the documents are free-form JSON read by shape, as their author wrote them
// biome-ignore-all lint/complexity/useOptionalChain: kept as its author wrote it
// biome-ignore-all lint/suspicious/noGlobalIsFinite: the global coerces strings, which this server relies on
// Event management, maintenance, backup/restore and glass table icons.
import {
  Collection,
  type Ctx,
  GLOBAL,
  REG,
  type Reply,
  SCHEMA_VERSION,
  applyList,
  badInput,
  boolParam,
  bug,
  conflict,
  empty,
  isObj,
  isoOffset,
  methodNotAllowed,
  mustWrite,
  newKey,
  notFound,
  nowSec,
  ok,
  plainTime,
  sharedOpts,
  strip,
} from './lib';
import { type TypeDef, genericRoutes, listRows } from './crud';

// ---------- event management ----------
const EM_TYPES = ['correlation_search', 'notable_event_group', 'notable_aggregation_policy', 'notable_event_comment'];
const emDefs: Record<string, TypeDef> = {};
for (const t of EM_TYPES) {
  const coll = new Collection(t);
  REG[t] = coll;
  emDefs[t] = {
    iface: 'event',
    type: t,
    coll,
    access: false,
    required: t === 'notable_event_comment' ? ['comment', 'event_id'] : ['title'],
    readOnlyAfterCreate: t === 'notable_event_comment',
  };
}
const tickets = new Collection('external_ticket');

interface Action {
  label: string;
  type: string;
  is_group_compatible: any;
  action_name: string;
  execute_once_per_group: any;
  execute_in_sync: any;
  is_bulk_compatible: any;
}
const ACTIONS: Action[] = [
  {
    label: 'Send email',
    type: '',
    is_group_compatible: 1,
    action_name: 'email',
    execute_once_per_group: '0',
    execute_in_sync: 0,
    is_bulk_compatible: 1,
  },
  {
    label: 'Run a script',
    type: '',
    is_group_compatible: 0,
    action_name: 'script',
    execute_once_per_group: '0',
    execute_in_sync: 0,
    is_bulk_compatible: '1',
  },
  {
    label: 'Link Ticket',
    type: 'external_ticket',
    is_group_compatible: 1,
    action_name: 'ops_event_action_link_ticket',
    execute_once_per_group: '1',
    execute_in_sync: 1,
    is_bulk_compatible: 1,
  },
  {
    label: 'Link URL',
    type: '',
    is_group_compatible: 1,
    action_name: 'ops_event_action_link_url',
    execute_once_per_group: '1',
    execute_in_sync: 1,
    is_bulk_compatible: 0,
  },
  {
    label: 'Send to Orchestrator',
    type: '',
    is_group_compatible: 1,
    action_name: 'ops_event_action_send_to_orchestrator',
    execute_once_per_group: '0',
    execute_in_sync: 0,
    is_bulk_compatible: 1,
  },
  {
    label: 'Ping a host',
    type: '',
    is_group_compatible: 0,
    action_name: 'ops_sample_event_action_ping',
    execute_once_per_group: '0',
    execute_in_sync: 1,
    is_bulk_compatible: 0,
  },
  {
    label: 'Create ServiceDesk Incident',
    type: 'external_ticket',
    is_group_compatible: 1,
    action_name: 'servicedesk_incident',
    execute_once_per_group: '1',
    execute_in_sync: 0,
    is_bulk_compatible: 1,
  },
  {
    label: 'Page on-call (PagerBell)',
    type: '',
    is_group_compatible: 1,
    action_name: 'pagerbell_notify',
    execute_once_per_group: '1',
    execute_in_sync: 0,
    is_bulk_compatible: 1,
  },
];
function actionConfig(a: Action): any {
  return {
    ttl: '600',
    filename: a.action_name === 'script' ? 'run_action.sh' : '',
    track_alert: '0',
    maxresults: '100',
    description: `${a.label} for the selected episodes`,
    label: a.label,
    maxtime: '5m',
    disabled: '0',
    hostname: '',
    icon_path: `/static/app/SA-ITOA/${a.action_name}.png`,
    command: `sendalert ${a.action_name} param.ids="$ids$"`,
    'eai:userName': 'nobody',
    'eai:appName': 'SA-ITOA',
    'eai:acl': { app: 'SA-ITOA', owner: 'nobody', sharing: 'global', perms: { read: ['*'], write: ['admin'] } },
  };
}

export function seedEvents(): void {
  const put = (t: string, o: any) =>
    emDefs[t].coll.put({
      ...o,
      object_type: t,
      _version: SCHEMA_VERSION,
      _user: 'nobody',
      mod_source: 'seed',
      mod_timestamp: isoOffset(),
      identifying_name: (o.title ?? '').toLowerCase(),
    });
  put('correlation_search', { _key: 'cs-host-down', title: 'Host Down', search: 'index=os state=down', severity: 5, disabled: 0 });
  put('correlation_search', { _key: 'cs-disk-full', title: 'Disk Full', search: 'index=os pct_used>95', severity: 4, disabled: 1 });
  put('notable_aggregation_policy', { _key: 'ops_default_policy', title: 'Default Policy', is_default: 1, disabled: 0 });
  put('notable_event_group', { _key: 'ep-1001', title: 'Storefront errors', status: 1, severity: 6, owner: 'unassigned' });
  put('notable_event_group', { _key: 'ep-1002', title: 'DNS failures', status: 2, severity: 4, owner: 'admin' });
  put('notable_event_group', { _key: 'ep-1003', title: 'Disk nearly full', status: 5, severity: 3, owner: 'unassigned' });
  put('notable_event_comment', { _key: 'cm-1', comment: 'Looking into it', event_id: 'ep-1001' });
}

function emList(ctx: Ctx, def: TypeDef): Reply {
  boolParam(ctx.q.get('is_partial_data'), false, 'is_partial_data');
  const opts = sharedOpts(ctx.q, { offset: bug('em-skip-ignored') ? 'offset' : 'skip', filter: 'filter_data' });
  if (bug('em-limit-before-skip') && opts.limit && opts.offset) {
    const page = listRows(def, ctx, { ...opts, offset: undefined });
    return ok(page.slice(opts.offset));
  }
  return ok(listRows(def, ctx, opts));
}

function runAction(ctx: Ctx, name: string): Reply {
  mustWrite(ctx.user);
  const a = ACTIONS.find((x) => x.action_name === name);
  if (!a) notFound(`episode action '${name}' does not exist`);
  const b = ctx.body;
  if (!isObj(b)) badInput('payload must be {params: {...}, ids: [<episode id>]}');
  if (b.params !== undefined && !isObj(b.params)) badInput("'params' must be an object");
  if (!Array.isArray(b.ids) || !b.ids.length || b.ids.some((x: any) => typeof x !== 'string' || !x))
    badInput("'ids' must be a non-empty array of episode ids");
  return ok([
    {
      action_name: name,
      ids: bug('action-run-ids-string') ? b.ids.join(',') : [...b.ids],
      sid: `scheduler__${ctx.user.name}__${name}_${Date.now().toString(36)}${newKey().slice(3, 9)}`,
    },
  ]);
}

function ticketFields(src: any, needId: boolean): { ids: string[]; ticket_system: string; ticket_id: string; ticket_url: string } {
  const names = needId ? ['id', 'ticket_system', 'ticket_id', 'ticket_url'] : ['ticket_system', 'ticket_id', 'ticket_url'];
  for (const n of names) {
    const v = src[n];
    const missing = v === undefined || v === null || (typeof v === 'string' && !v.trim());
    if (missing && bug('ticketing-missing-field-accepted') && n === 'ticket_url') {
      src[n] = '';
      continue;
    }
    if (missing) badInput(`field '${n}' is required`);
    if (typeof v !== 'string') badInput(`field '${n}' must be a string`);
  }
  const idsRaw = needId ? src.id : (src.ids ?? '');
  const ids = String(idsRaw)
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  return { ids, ticket_system: src.ticket_system, ticket_id: src.ticket_id, ticket_url: src.ticket_url };
}
function linkTicket(ctx: Ctx, eventId: string, f: { ticket_system: string; ticket_id: string; ticket_url: string }): string {
  let link = tickets.all().find((t) => t.event_id === eventId && t.ticket_system === f.ticket_system);
  if (!link)
    link = {
      _key: newKey(),
      event_id: eventId,
      ticket_system: f.ticket_system,
      _user: ctx.pathUser,
      tickets: [],
      object_type: 'external_ticket',
    };
  link.tickets = link.tickets.filter((t: any) => t.ticket_id !== f.ticket_id);
  link.tickets.push({ ticket_system: f.ticket_system, ticket_url: f.ticket_url, ticket_id: f.ticket_id });
  link.mod_timestamp = isoOffset();
  tickets.put(link);
  return link._key;
}
function mergedParams(ctx: Ctx): any {
  const src: any = {};
  for (const [k, v] of ctx.q) src[k] = v;
  if (isObj(ctx.body)) Object.assign(src, ctx.body);
  return src;
}
function ticketingRoutes(ctx: Ctx, rest: string[]): Reply {
  const m = ctx.method;
  if (rest.length === 0) {
    if (m !== 'POST') methodNotAllowed();
    mustWrite(ctx.user);
    if (!isObj(ctx.body)) badInput('payload must be {id, ticket_system, ticket_id, ticket_url}');
    const f = ticketFields({ ...ctx.body }, true);
    if (!f.ids.length) badInput("field 'id' is required");
    if (bug('ticketing-multi-id-first-only')) f.ids = f.ids.slice(0, 1);
    const keys = f.ids.map((id) => linkTicket(ctx, id, f));
    return ok(keys.length === 1 ? keys[0] : keys, 201);
  }
  if (rest.length === 1) {
    const ev = rest[0];
    const src = mergedParams(ctx);
    if (m === 'GET') {
      const ids = new Set([
        ev,
        ...String(src.ids ?? '')
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean),
      ]);
      const res: any[] = [];
      for (const l of tickets.viewAll()) {
        if (!ids.has(l.event_id)) continue;
        if (src.ticket_system && l.ticket_system !== src.ticket_system) continue;
        const tk = l.tickets.filter(
          (t: any) => (!src.ticket_id || t.ticket_id === src.ticket_id) && (!src.ticket_url || t.ticket_url === src.ticket_url),
        );
        if (tk.length) res.push({ ...strip(l), tickets: tk });
      }
      return ok(res);
    }
    if (m === 'POST') {
      mustWrite(ctx.user);
      const f = ticketFields(src, false);
      const evs = [ev, ...f.ids.filter((x) => x !== ev)];
      return ok(
        evs.map((e) => linkTicket(ctx, e, f)),
        201,
      );
    }
    return methodNotAllowed();
  }
  if (rest.length === 3) {
    if (m !== 'DELETE') methodNotAllowed();
    mustWrite(ctx.user);
    const [ev, sys, tid] = rest;
    const link = tickets.all().find((t) => t.event_id === ev && t.ticket_system === sys && t.tickets.some((x: any) => x.ticket_id === tid));
    if (!link) notFound(`no ticket '${tid}' of system '${sys}' is linked to episode '${ev}'`);
    link.tickets = bug('ticketing-delete-removes-all-tickets') ? [] : link.tickets.filter((x: any) => x.ticket_id !== tid);
    if (link.tickets.length) tickets.put(link);
    else tickets.del(link._key);
    return empty();
  }
  return notFound('no such ticketing endpoint');
}

export function eventRoutes(ctx: Ctx, rest: string[]): Reply {
  const [head, ...tail] = rest;
  const m = ctx.method;
  if (head === 'notable_event_actions') {
    if (tail.length === 0)
      return m === 'GET' ? ok(ACTIONS.map((a) => ({ ...a, type: bug('action-type-missing') ? '' : a.type }))) : methodNotAllowed();
    if (tail.length === 1) {
      if (m === 'POST') return runAction(ctx, tail[0]);
      if (m !== 'GET') methodNotAllowed();
      const a = ACTIONS.find((x) => x.action_name === tail[0]);
      if (!a) notFound(`episode action '${tail[0]}' does not exist`);
      return ok(actionConfig(a!));
    }
    return notFound('no such endpoint');
  }
  if (head === 'ticketing') return ticketingRoutes(ctx, tail);
  const def = emDefs[head];
  if (!def) return notFound(`unknown event management object type '${head}'`);
  if (tail.length === 0 && m === 'GET') return emList(ctx, def);
  if (bug('em-comment-deletable') && head === 'notable_event_comment' && m === 'DELETE' && tail.length === 1) {
    mustWrite(ctx.user);
    if (!def.coll.get(tail[0])) notFound(`notable_event_comment '${tail[0]}' does not exist`);
    def.coll.del(tail[0]);
    return empty();
  }
  return genericRoutes(def, ctx, tail);
}

// ---------- maintenance ----------
const mwDef: TypeDef = {
  iface: 'maintenance',
  type: 'maintenance_calendar',
  coll: new Collection('maintenance_calendar'),
  access: true,
  required: ['title', 'start_time', 'end_time'],
  prepare(o, prev, ctx) {
    for (const f of ['start_time', 'end_time'])
      if (typeof o[f] !== 'number' || !isFinite(o[f])) badInput(`'${f}' must be epoch seconds (number)`);
    if (o.end_time < o.start_time) badInput("'end_time' must not be before 'start_time'");
    o.objects ??= [];
    if (!Array.isArray(o.objects)) badInput("'objects' must be an array");
    for (const x of o.objects) {
      if (!isObj(x) || (x.object_type !== 'service' && x.object_type !== 'entity') || typeof x._key !== 'string')
        badInput("every entry of 'objects' must be {object_type: 'service' or 'entity', _key}");
    }
    o.sec_grp_list ??= [o.sec_grp || prev?.sec_grp || GLOBAL];
    o._owner = prev?._owner ?? ctx.user.name;
  },
};
REG.maintenance_calendar = mwDef.coll;
export function maintenanceRoutes(ctx: Ctx, rest: string[]): Reply {
  const [head, ...tail] = rest;
  if (head === 'get_supported_object_types' && !tail.length) {
    if (ctx.method !== 'GET') methodNotAllowed();
    return ok(
      bug('mw-supported-types-core') ? ['team', 'entity', 'service', 'base_service_template', 'kpi_base_search'] : ['maintenance_calendar'],
    );
  }
  if (head !== 'maintenance_calendar') return notFound(`unknown maintenance object type '${head ?? ''}'`);
  if (bug('mw-fields-first-only') && ctx.method === 'GET' && !tail.length) {
    const opts = sharedOpts(ctx.q);
    return ok(listRows(mwDef, ctx, { ...opts, fields: opts.fields?.slice(0, 1) }));
  }
  return genericRoutes(mwDef, ctx, tail);
}

// ---------- backup and restore ----------
const DEFAULT_BACKUP = 'ops_default_scheduled_backup';
const brDef: TypeDef = {
  iface: 'backup',
  type: 'backup_restore',
  coll: new Collection('backup_restore'),
  access: true,
  required: ['title'],
  prepare(o, prev, ctx) {
    o.job_type ??= 'Backup';
    if (o.job_type !== 'Backup' && o.job_type !== 'Restore') badInput("'job_type' must be Backup or Restore");
    o.status ??= 'Queued';
    if (typeof o.status !== 'string') badInput("'status' must be a string");
    o.create_time = prev?.create_time ?? plainTime();
    for (const f of ['start_time', 'end_time', 'last_queued_time']) {
      if (o[f] !== undefined && typeof o[f] !== 'number') badInput(`'${f}' must be epoch seconds (number)`);
    }
    o.last_queued_time ??= Math.floor(nowSec());
    o.start_time ??= 0;
    o.end_time ??= 0;
    o.path ??= `/opt/platform/var/ops/backups/${o._key}.zip`;
    o.search_head_id ??= 'sh-7f3c1a';
    o.platform_server ??= 'ops-sh01.example.com';
    o.rules ??= [];
    o.last_error ??= '';
    o._owner = prev?._owner ?? ctx.user.name;
  },
  protect: (o) => (o._key === DEFAULT_BACKUP || o.is_default === 1 ? 'the default scheduled backup cannot be deleted' : null),
};
REG.backup_restore = brDef.coll;
export function backupRoutes(ctx: Ctx, rest: string[]): Reply {
  const [head, ...tail] = rest;
  if (head !== 'backup_restore') return notFound(`unknown backup object type '${head ?? ''}'`);
  return genericRoutes(brDef, ctx, tail);
}
export function seedOps(): void {
  const now = Math.floor(nowSec());
  brDef.coll.put({
    _key: DEFAULT_BACKUP,
    title: 'Default Scheduled Backup',
    job_type: 'Backup',
    status: 'Completed',
    is_default: 1,
    scheduled: 1,
    create_time: '2024-01-01 00:00:00',
    start_time: now - 3600,
    end_time: now - 3500,
    last_queued_time: now - 3600,
    path: '/opt/platform/var/ops/backups/default.zip',
    search_head_id: 'sh-7f3c1a',
    platform_server: 'ops-sh01.example.com',
    rules: [],
    last_error: '',
    _owner: 'nobody',
    sec_grp: GLOBAL,
    object_type: 'backup_restore',
    _version: SCHEMA_VERSION,
    _user: 'nobody',
    mod_source: 'seed',
    mod_timestamp: isoOffset(),
    identifying_name: 'default scheduled backup',
  });
  mwDef.coll.put({
    _key: 'mw-patch-night',
    title: 'Patch Night',
    start_time: 1767225600,
    end_time: 1767232800.5,
    objects: [{ object_type: 'service', _key: 'svc-storefront' }],
    sec_grp: GLOBAL,
    sec_grp_list: [GLOBAL],
    _owner: 'admin',
    object_type: 'maintenance_calendar',
    _version: SCHEMA_VERSION,
    _user: 'nobody',
    mod_source: 'seed',
    mod_timestamp: isoOffset(),
    identifying_name: 'patch night',
  });
}

// ---------- glass table icons ----------
const icons = new Collection('icon');
const IMMUTABLE = ['Infrastructure', 'Applications'];
export function seedIcons(): void {
  const add = (key: string, title: string, category: string) =>
    icons.put({ _key: key, title, svg_path: `M0 0 L24 0 L24 24 Z ${title}`, default_width: 48, default_height: 48, category });
  add('icon-server', 'Server', 'Infrastructure');
  add('icon-router', 'Router', 'Infrastructure');
  add('icon-db', 'Database', 'Applications');
  add('icon-team-logo', 'Team Logo', 'Team Icons');
}
function sizeOf(v: any, n: string): number {
  if (typeof v === 'number' && isFinite(v) && v > 0) return v;
  if (typeof v === 'string' && /^\d+(\.\d+)?$/.test(v) && Number(v) > 0) return Number(v);
  return badInput(`'${n}' must be a positive number`);
}
export function iconRoutes(ctx: Ctx, rest: string[]): Reply {
  const m = ctx.method;
  if (rest.length === 0) {
    if (m === 'GET') {
      if (boolParam(ctx.q.get('list_categories'), false, 'list_categories')) {
        const names = new Set<string>(IMMUTABLE);
        for (const i of icons.viewAll()) names.add(i.category);
        return ok(
          [...names]
            .sort()
            .map((name) => (IMMUTABLE.includes(name) && !bug('icon-categories-no-immutable') ? { name, immutable: true } : { name })),
        );
      }
      const opts = sharedOpts(ctx.q);
      const cat = ctx.q.get('category');
      let rows = icons.viewAll().map(strip);
      if (cat && !(bug('icon-category-ignored-with-paging') && (opts.limit || opts.offset))) rows = rows.filter((i) => i.category === cat);
      const r = applyList(rows, opts);
      return ok({ total: r.total, result: r.rows });
    }
    if (m === 'POST' || m === 'PUT') {
      mustWrite(ctx.user);
      let list = Array.isArray(ctx.body) ? ctx.body : isObj(ctx.body) ? [ctx.body] : null;
      if (!list || !list.length) badInput('payload must be an array of icon objects');
      if (bug('icon-post-first-only')) list = list!.slice(0, 1);
      const ready = list!.map((i: any) => {
        if (!isObj(i)) badInput('every icon must be an object');
        for (const f of ['title', 'svg_path', 'category'])
          if (typeof i[f] !== 'string' || !i[f].trim()) badInput(`icon field '${f}' is required`);
        if (IMMUTABLE.includes(i.category)) conflict(`category '${i.category}' cannot be modified`);
        return {
          ...i,
          _key: typeof i._key === 'string' && i._key ? i._key : newKey(),
          default_width: sizeOf(i.default_width, 'default_width'),
          default_height: sizeOf(i.default_height, 'default_height'),
        };
      });
      for (const i of ready) icons.put(i);
      return ok(
        ready.map((i: any) => i._key),
        201,
      );
    }
    if (m === 'DELETE') {
      mustWrite(ctx.user);
      const cat = ctx.q.get('category');
      if (!cat) badInput("'category' is required (use * to delete all icons)");
      const all = cat === '*' && !bug('icon-delete-star-literal');
      if (!all && IMMUTABLE.includes(cat!)) conflict(`category '${cat}' cannot be modified`);
      for (const i of icons.all()) if (all || i.category === cat) icons.del(i._key);
      return ok({ Deleted: 'True' });
    }
    return methodNotAllowed();
  }
  if (rest.length === 1) {
    if (m === 'GET') {
      const i = icons.view(rest[0]);
      if (!i) notFound(`icon '${rest[0]}' does not exist`);
      return ok(strip(i));
    }
    if (m !== 'DELETE') methodNotAllowed();
    mustWrite(ctx.user);
    const i = icons.get(rest[0]);
    if (!i) notFound(`icon '${rest[0]}' does not exist`);
    if (IMMUTABLE.includes(i.category)) conflict(`category '${i.category}' cannot be modified`);
    icons.del(rest[0]);
    return ok({ Deleted: 'True' });
  }
  return notFound('no such icon endpoint');
}
