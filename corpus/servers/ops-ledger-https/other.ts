// Event management, maintenance windows, backup/restore jobs and glass table icons.
import {
  bad,
  notFound,
  notAllowed,
  forbidden,
  bug,
  type Rec,
  type DB,
  type User,
  col,
  uuid,
  hexKey,
  clone,
  isObj,
  epoch,
  isoOffset,
  plainTime,
  SCHEMA_VERSION,
  GLOBAL_TEAM,
  canReadTeam,
  canWriteTeam,
  defaultTeamFor,
  isAdmin,
  requireWrite,
  sharedOpts,
  applyList,
  compileFilter,
  project,
  boolParam,
  commonStamp,
} from './lib';
import type { Ctx, Resp } from './core';
import { ok } from './core';

// ================================================================= event management
const EM_TYPES = ['correlation_search', 'notable_event_group', 'notable_aggregation_policy', 'notable_event_comment'];

const ACTIONS: Rec[] = [
  {
    action_name: 'email',
    label: 'Send email',
    type: '',
    is_group_compatible: 1,
    execute_once_per_group: 0,
    execute_in_sync: '0',
    is_bulk_compatible: 1,
  },
  {
    action_name: 'script',
    label: 'Run a script',
    type: '',
    is_group_compatible: 1,
    execute_once_per_group: 0,
    execute_in_sync: '0',
    is_bulk_compatible: 1,
  },
  {
    action_name: 'ops_event_action_link_ticket',
    label: 'Link Ticket',
    type: 'external_ticket',
    is_group_compatible: 1,
    execute_once_per_group: 1,
    execute_in_sync: '1',
    is_bulk_compatible: 0,
  },
  {
    action_name: 'ops_event_action_link_url',
    label: 'Link URL',
    type: '',
    is_group_compatible: 1,
    execute_once_per_group: 1,
    execute_in_sync: '1',
    is_bulk_compatible: 0,
  },
  {
    action_name: 'ops_event_action_send_to_orchestrator',
    label: 'Send to Orchestrator',
    type: '',
    is_group_compatible: 1,
    execute_once_per_group: 0,
    execute_in_sync: '0',
    is_bulk_compatible: 1,
  },
  {
    action_name: 'ops_sample_event_action_ping',
    label: 'Ping a host',
    type: '',
    is_group_compatible: 0,
    execute_once_per_group: 0,
    execute_in_sync: '1',
    is_bulk_compatible: 0,
  },
  {
    action_name: 'servicedesk_incident',
    label: 'Create ServiceDesk Incident',
    type: 'external_ticket',
    is_group_compatible: 1,
    execute_once_per_group: 1,
    execute_in_sync: '0',
    is_bulk_compatible: 1,
  },
  {
    action_name: 'pager_alert',
    label: 'Page on-call',
    type: '',
    is_group_compatible: 1,
    execute_once_per_group: 1,
    execute_in_sync: '0',
    is_bulk_compatible: 1,
  },
];
function actionConfig(a: Rec): Rec {
  return {
    ttl: '600',
    filename: a.action_name === 'script' ? 'run.sh' : '',
    track_alert: '1',
    maxresults: '10000',
    description: a.label,
    label: a.label,
    maxtime: '5m',
    disabled: '0',
    hostname: '',
    icon_path: `${a.action_name}.png`,
    command: `sendalert ${a.action_name} param.episode_ids="$result.itsi_group_id$" results_file="$results.file$"`,
    'eai:userName': 'nobody',
    'eai:appName': 'SA-ITOA',
    'eai:acl': { app: 'SA-ITOA', owner: 'nobody', sharing: 'global', can_write: true, perms: { read: ['*'], write: ['admin'] } },
  };
}

function ticketKeyFor(db: DB, eventId: string, system: string): Rec | undefined {
  for (const t of col(db, 'external_ticket').values()) if (t.event_id === eventId && t.ticket_system === system) return t;
  return undefined;
}
function addTicket(ctx: Ctx, eventId: string, system: string, ticketId: string, url: string): string {
  let t = ticketKeyFor(ctx.db, eventId, system);
  if (!t) {
    t = { _key: hexKey(), object_type: 'external_ticket', _user: ctx.user.name, event_id: eventId, ticket_system: system, tickets: [] };
    col(ctx.db, 'external_ticket').set(t._key as string, t);
  }
  const tickets = t.tickets as Rec[];
  const ex = tickets.find((x: Rec) => x.ticket_id === ticketId);
  if (ex) ex.ticket_url = url;
  else tickets.push({ ticket_system: system, ticket_url: url, ticket_id: ticketId });
  t.mod_timestamp = isoOffset();
  return t._key as string;
}
function ticketFields(src: Rec, needId: boolean): { ids: string[]; system: string; ticketId: string; url: string } {
  const req = needId ? ['id', 'ticket_system', 'ticket_id', 'ticket_url'] : ['ticket_system', 'ticket_id', 'ticket_url'];
  for (const f of req) {
    if (typeof src[f] !== 'string' || src[f].trim() === '') throw bad(`Field "${f}" is required and must be a non-empty string.`);
  }
  const ids = needId
    ? (src.id as string)
        .split(',')
        .map((s: string) => s.trim())
        .filter(Boolean)
    : [];
  return { ids, system: src.ticket_system as string, ticketId: src.ticket_id as string, url: src.ticket_url as string };
}

export function eventRoute(ctx: Ctx): Resp {
  const p = ctx.parts;
  const m = ctx.method;
  if (!p.length) throw notFound('Specify an object type.');
  if (p[0] === 'notable_event_actions') {
    if (p.length === 1) {
      if (m !== 'GET') throw notAllowed('Only GET is supported on notable_event_actions.');
      return ok(clone(ACTIONS));
    }
    if (p.length === 2) {
      const a = ACTIONS.find((x) => x.action_name === p[1]);
      if (!a) throw notFound(`Episode action "${p[1]}" does not exist.`);
      if (m === 'GET') return ok(actionConfig(a));
      if (m === 'POST') {
        requireWrite(ctx.user);
        const body = ctx.body();
        if (!isObj(body)) throw bad('The payload must be {"params": {...}, "ids": [<episode id>, ...]}.');
        if (!Array.isArray(body.ids) || !body.ids.length || !body.ids.every((x: unknown) => typeof x === 'string' && x))
          throw bad('"ids" must be a non-empty array of episode identifiers.');
        if (body.params !== undefined && !isObj(body.params)) throw bad('"params" must be an object.');
        const params = body.params || {};
        if (a.action_name === 'ops_event_action_link_ticket' && params.ticket_system && params.ticket_id) {
          for (const id of body.ids)
            addTicket(ctx, id, String(params.ticket_system), String(params.ticket_id), String(params.ticket_url || ''));
        }
        const perEpisode = a.execute_once_per_group || !a.is_bulk_compatible;
        const ids = perEpisode ? body.ids.map((i: string) => [i]) : [body.ids];
        return ok(
          ids.map((grp: string[]) => ({
            action_name: a.action_name,
            // BUG em-action-ids-string: for a bulk run (one entry for all episodes) ids is returned as one
            // comma-joined string instead of an array of strings.
            ids: bug('em-action-ids-string') && !perEpisode ? grp.join(',') : grp,
            sid: `ops_episode_action_${epoch()}_${hexKey().slice(0, 8)}`,
          })),
        );
      }
      throw notAllowed(`Method ${m} is not supported on notable_event_actions/<action_name>.`);
    }
    throw notFound('Unknown episode action path.');
  }
  if (p[0] === 'ticketing') {
    if (p.length === 1) {
      if (m !== 'POST') throw notAllowed('Only POST is supported on ticketing.');
      requireWrite(ctx.user);
      const body = ctx.body();
      if (!isObj(body)) throw bad('The payload must be {id, ticket_system, ticket_id, ticket_url}.');
      const f = ticketFields(body, true);
      if (!f.ids.length) throw bad('Field "id" must hold at least one episode identifier.');
      // BUG ticket-first-episode-only: of a comma-separated "id" list only the first episode gets the ticket link.
      const episodes = bug('ticket-first-episode-only') ? f.ids.slice(0, 1) : f.ids;
      const keys = episodes.map((id) => addTicket(ctx, id, f.system, f.ticketId, f.url));
      return ok({ _key: keys.join(',') });
    }
    if (p.length === 2) {
      const eventId = p[1];
      if (m === 'GET') {
        const sys = ctx.q.get('ticket_system');
        const tid = ctx.q.get('ticket_id');
        const out: Rec[] = [];
        for (const t of col(ctx.db, 'external_ticket').values()) {
          if (t.event_id !== eventId) continue;
          if (sys && t.ticket_system !== sys) continue;
          if (tid && !(t.tickets as Rec[]).some((x: Rec) => x.ticket_id === tid)) continue;
          out.push(clone(t));
        }
        return ok(out);
      }
      if (m === 'POST') {
        requireWrite(ctx.user);
        const body = ctx.body();
        const src: Rec = {};
        for (const k of ['ticket_system', 'ticket_id', 'ticket_url']) src[k] = ctx.q.get(k) ?? (isObj(body) ? body[k] : undefined);
        const f = ticketFields(src, false);
        return ok([addTicket(ctx, eventId, f.system, f.ticketId, f.url)]);
      }
      throw notAllowed(`Method ${m} is not supported on ticketing/<episode>.`);
    }
    if (p.length === 4) {
      if (m !== 'DELETE') throw notAllowed('Only DELETE is supported on ticketing/<episode>/<system>/<ticket>.');
      requireWrite(ctx.user);
      const [, eventId, system, ticketId] = p;
      const t = ticketKeyFor(ctx.db, eventId, system);
      if (!(t && (t.tickets as Rec[]).some((x: Rec) => x.ticket_id === ticketId)))
        throw notFound(`Ticket "${ticketId}" of system "${system}" is not linked to episode "${eventId}".`);
      const kept = (t.tickets as Rec[]).filter((x: Rec) => x.ticket_id !== ticketId);
      t.tickets = kept;
      if (!kept.length) col(ctx.db, 'external_ticket').delete(t._key as string);
      return ok();
    }
    throw notFound('Unknown ticketing path.');
  }
  const type = p[0];
  if (!EM_TYPES.includes(type)) throw bad(`Unsupported event management object type "${type}".`);
  const c = col(ctx.db, 'em:' + type);
  const vis = (r: Rec) => canReadTeam(ctx.user, (r.sec_grp as string) || GLOBAL_TEAM);
  if (p.length === 1) {
    if (m === 'GET') {
      boolParam(ctx.q, 'is_partial_data', false);
      const o = sharedOpts(ctx.q, 'filter_data', bug('em-skip-ignored') ? 'offset' : 'skip');
      return ok(applyList([...c.values()].filter(vis), o).map((r) => project(r, o.fields)));
    }
    if (m === 'POST') {
      requireWrite(ctx.user);
      const body = ctx.body();
      if (!isObj(body)) throw bad('The payload must be a JSON object.');
      if (type === 'notable_event_comment') {
        if (typeof body.event_id !== 'string' || !body.event_id || typeof body.comment !== 'string' || !body.comment)
          throw bad('A comment needs "event_id" and "comment" strings.');
        if (body._key !== undefined && c.has(body._key as string))
          throw notAllowed('Episode comments are append-only: update is not supported.');
      } else if (typeof body.title !== 'string' || !body.title.trim()) throw bad('Required field "title" is missing.');
      if (body._key !== undefined && c.has(body._key as string)) {
        const ex = c.get(body._key as string)!;
        if (!canWriteTeam(ctx.user, (ex.sec_grp as string) || GLOBAL_TEAM)) throw forbidden('Cannot write this object.');
      }
      const rec: Rec = { ...clone(body), _key: body._key || uuid(), sec_grp: body.sec_grp || defaultTeamFor(ctx.user) };
      if (!canWriteTeam(ctx.user, rec.sec_grp as string)) throw forbidden(`User "${ctx.user.name}" cannot write to team "${rec.sec_grp}".`);
      commonStamp(rec, ctx.user, type);
      if (type === 'notable_event_comment') rec.create_time = epoch();
      c.set(rec._key as string, rec);
      return ok({ _key: rec._key });
    }
    throw notAllowed(`Method ${m} is not supported on ${type}.`);
  }
  if (p.length === 2 && p[1] === 'count') {
    if (m !== 'GET') throw notAllowed('Only GET is supported on count.');
    const f = compileFilter(ctx.q.get('filter_data') ?? ctx.q.get('filter'));
    return ok({ count: [...c.values()].filter((r) => vis(r) && f.pred(r)).length });
  }
  if (p.length === 2) {
    const key = p[1];
    const ex = c.get(key);
    if (m === 'GET') {
      if (!ex || !vis(ex)) throw notFound(`Object "${key}" of type "${type}" does not exist.`);
      return ok(ex);
    }
    if (type === 'notable_event_comment' && (m === 'POST' || m === 'DELETE') && !bug('comment-update-allowed')) {
      throw notAllowed('Episode comments are append-only: update and delete are not supported.');
    }
    if (m === 'POST') {
      requireWrite(ctx.user);
      if (!ex || !vis(ex)) throw notFound(`Object "${key}" of type "${type}" does not exist.`);
      if (!canWriteTeam(ctx.user, (ex.sec_grp as string) || GLOBAL_TEAM)) throw forbidden('Cannot write this object.');
      const body = ctx.body();
      if (!isObj(body)) throw bad('The payload must be a JSON object.');
      const isPartial = boolParam(ctx.q, 'is_partial_data', false);
      if (!isPartial && type !== 'notable_event_comment' && (typeof body.title !== 'string' || !body.title.trim()))
        throw bad('Required field "title" is missing.');
      const rec: Rec = isPartial
        ? { ...clone(ex), ...clone(body), _key: key }
        : { ...clone(body), _key: key, sec_grp: body.sec_grp || ex.sec_grp };
      commonStamp(rec, ctx.user, type);
      c.set(key, rec);
      return ok({ _key: key });
    }
    if (m === 'DELETE') {
      requireWrite(ctx.user);
      if (!ex || !vis(ex)) throw notFound(`Object "${key}" of type "${type}" does not exist.`);
      if (!canWriteTeam(ctx.user, (ex.sec_grp as string) || GLOBAL_TEAM)) throw forbidden('Cannot delete this object.');
      c.delete(key);
      return ok();
    }
    throw notAllowed(`Method ${m} is not supported.`);
  }
  throw notFound(`Unknown path ${p.join('/')}`);
}

// ================================================================= maintenance windows
function mwTeams(db: DB, rec: Rec, u: User): string[] {
  if (Array.isArray(rec.sec_grp_list) && rec.sec_grp_list.length) return rec.sec_grp_list;
  const teams = new Set<string>();
  for (const ob of (rec.objects || []) as Rec[]) {
    if (ob.object_type === 'service') teams.add((db.get('service')?.get(ob._key as string)?.sec_grp as string | undefined) || GLOBAL_TEAM);
    else teams.add((db.get('entity')?.get(ob._key as string)?.sec_grp as string | undefined) || GLOBAL_TEAM);
  }
  return teams.size ? [...teams] : [defaultTeamFor(u)];
}
const mwReadable = (u: User, r: Rec) => ((r.sec_grp_list || [GLOBAL_TEAM]) as string[]).every((t: string) => canReadTeam(u, t));
const mwWritable = (u: User, r: Rec) => ((r.sec_grp_list || [GLOBAL_TEAM]) as string[]).every((t: string) => canWriteTeam(u, t));
function validateMw(rec: Rec) {
  if (typeof rec.title !== 'string' || !rec.title.trim()) throw bad('Required field "title" is missing or empty.');
  for (const f of ['start_time', 'end_time']) {
    if (typeof rec[f] !== 'number' || !Number.isFinite(rec[f])) throw bad(`Field "${f}" must be epoch seconds (number).`);
  }
  if ((rec.end_time as number) < (rec.start_time as number)) throw bad('"end_time" must not be before "start_time".');
  if (rec.objects === undefined) rec.objects = [];
  if (!Array.isArray(rec.objects)) throw bad('Field "objects" must be an array of {object_type, _key}.');
  for (const ob of rec.objects) {
    if (!isObj(ob) || (ob.object_type !== 'service' && ob.object_type !== 'entity') || typeof ob._key !== 'string' || !ob._key) {
      throw bad('Each entry of "objects" must be {"object_type": "service" or "entity", "_key": string}.');
    }
  }
  if (
    rec.sec_grp_list !== undefined &&
    (!Array.isArray(rec.sec_grp_list) || !rec.sec_grp_list.every((s: unknown) => typeof s === 'string'))
  ) {
    throw bad('Field "sec_grp_list" must be an array of team keys.');
  }
}

// ================================================================= backup / restore
const DEFAULT_BACKUP = 'DefaultScheduledBackup';
const JOB_TYPES = ['Backup', 'Restore'];
const JOB_STATUSES = ['Queued', 'In Progress', 'Completed', 'Failed'];
const jobReadable = (u: User, r: Rec) => u.read === '*' || r._owner === u.name;
const jobWritable = (u: User, r: Rec) => u.write && (isAdmin(u) || r._owner === u.name);
function validateJob(rec: Rec) {
  if (typeof rec.title !== 'string' || !rec.title.trim()) throw bad('Required field "title" is missing or empty.');
  if (!JOB_TYPES.includes(rec.job_type as string)) throw bad(`Field "job_type" must be one of ${JOB_TYPES.join(', ')}.`);
  if (!JOB_STATUSES.includes(rec.status as string)) throw bad(`Field "status" must be one of ${JOB_STATUSES.join(', ')}.`);
  if (rec.rules !== undefined && !Array.isArray(rec.rules)) throw bad('Field "rules" must be an array.');
}

// ================================================================= generic window/job interface
interface Kind {
  type: string;
  readable: (u: User, r: Rec) => boolean;
  writable: (u: User, r: Rec) => boolean;
  prepare: (ctx: Ctx, rec: Rec, prev?: Rec) => void;
  deletable: (r: Rec, bulk: boolean) => boolean;
}
const MW: Kind = {
  type: 'maintenance_calendar',
  readable: mwReadable,
  writable: mwWritable,
  prepare: (ctx, rec, prev) => {
    validateMw(rec);
    rec.sec_grp_list = mwTeams(ctx.db, { ...rec, sec_grp_list: rec.sec_grp_list }, ctx.user);
    rec.sec_grp = rec.sec_grp || (rec.sec_grp_list as string[])[0];
    rec._owner = prev?._owner ?? ctx.user.name;
    if (!mwWritable(ctx.user, rec))
      throw forbidden(`User "${ctx.user.name}" cannot write maintenance windows for teams ${(rec.sec_grp_list as string[]).join(', ')}.`);
  },
  deletable: () => true,
};
const BR: Kind = {
  type: 'backup_restore',
  readable: jobReadable,
  writable: jobWritable,
  prepare: (ctx, rec, prev) => {
    if (rec.job_type === undefined) rec.job_type = prev?.job_type ?? 'Backup';
    if (rec.status === undefined) rec.status = prev?.status ?? 'Queued';
    validateJob(rec);
    const now = epoch();
    rec._owner = prev?._owner ?? ctx.user.name;
    rec.sec_grp = rec.sec_grp || GLOBAL_TEAM;
    rec.create_time = prev?.create_time ?? plainTime();
    if (rec.status === 'Queued' && prev?.status !== 'Queued') rec.last_queued_time = now;
    if (rec.last_queued_time === undefined) rec.last_queued_time = prev?.last_queued_time ?? now;
    if (rec.start_time === undefined) rec.start_time = prev?.start_time ?? 0;
    if (rec.end_time === undefined) rec.end_time = prev?.end_time ?? 0;
    if (rec.path === undefined) rec.path = prev?.path ?? `/opt/platform/var/ops/backups/${rec._key}/backup.zip`;
    if (rec.search_head_id === undefined) rec.search_head_id = 'C0A8E1F2-3B4D-4E5F-8A9B-0C1D2E3F4A5B';
    if (rec.platform_server === undefined) rec.platform_server = 'ops-sh-01';
    if (rec.rules === undefined) rec.rules = [];
    if (rec.last_error === undefined) rec.last_error = '';
    if (rec._key === DEFAULT_BACKUP) rec.scheduled = 1;
  },
  deletable: (r, bulk) => r._key !== DEFAULT_BACKUP || (bulk && bug('default-backup-bulk-delete')),
};

function kindRoute(ctx: Ctx, k: Kind, p: string[]): Resp {
  const m = ctx.method;
  const c = col(ctx.db, k.type);
  if (p.length === 1) {
    if (m === 'GET') {
      const o = sharedOpts(ctx.q);
      if (bug('sortdir-maint-inverted') && k === MW && ctx.q.get('sort_dir') !== null) o.asc = !o.asc;
      return ok(
        applyList(
          [...c.values()].filter((r) => k.readable(ctx.user, r)),
          o,
        ).map((r) => project(r, o.fields)),
      );
    }
    if (m === 'POST') {
      requireWrite(ctx.user);
      const body = ctx.body();
      if (!isObj(body)) throw bad('The payload must be a JSON object.');
      if (body._key !== undefined && (typeof body._key !== 'string' || !body._key || body._key.includes('/')))
        throw bad('"_key" must be a non-empty string.');
      const prev = body._key ? c.get(body._key) : undefined;
      if (prev && (!k.readable(ctx.user, prev) || !k.writable(ctx.user, prev))) throw forbidden('Cannot overwrite this object.');
      const rec: Rec = { ...clone(body), _key: body._key || uuid() };
      commonStamp(rec, ctx.user, k.type);
      k.prepare(ctx, rec, prev);
      c.set(rec._key as string, rec);
      return ok({ _key: rec._key });
    }
    if (m === 'DELETE') {
      requireWrite(ctx.user);
      const o = sharedOpts(ctx.q);
      if (o.filter.incorrect && bug('filter-invalid-delete-noop')) throw bad('Invalid filter; nothing was deleted.');
      const cands = [...c.values()].filter((r) => k.readable(ctx.user, r) && k.writable(ctx.user, r));
      const sel = applyList(cands, o);
      const bugFilterOnly = bug('default-backup-bulk-delete') && o.filter.given && !o.filter.incorrect;
      for (const r of sel) if (k.deletable(r, bugFilterOnly)) c.delete(r._key as string);
      return ok();
    }
    throw notAllowed(`Method ${m} is not supported on ${k.type}.`);
  }
  if (p.length === 2 && p[1] === 'count') {
    if (m !== 'GET') throw notAllowed('Only GET is supported on count.');
    // BUG br-count-ignores-filter: backup_restore/count never reads the filter parameter and counts every readable job.
    const f = compileFilter(k === BR && bug('br-count-ignores-filter') ? null : ctx.q.get('filter'));
    // BUG mw-count-ignores-access: maintenance_calendar/count counts every window, including those the caller cannot read.
    const countable = (r: Rec) => (k === MW && bug('mw-count-ignores-access')) || k.readable(ctx.user, r);
    return ok({ count: [...c.values()].filter((r) => countable(r) && f.pred(r)).length });
  }
  if (p.length === 2) {
    const key = p[1];
    const ex = c.get(key);
    const visible = ex && k.readable(ctx.user, ex);
    if (m === 'GET') {
      if (!visible) throw notFound(`Object "${key}" of type "${k.type}" does not exist.`);
      return ok(ex);
    }
    if (m === 'POST') {
      requireWrite(ctx.user);
      if (!visible) throw notFound(`Object "${key}" of type "${k.type}" does not exist.`);
      if (!k.writable(ctx.user, ex!)) throw forbidden('Cannot write this object.');
      const body = ctx.body();
      if (!isObj(body)) throw bad('The payload must be a JSON object.');
      if (body._key !== undefined && body._key !== key) throw bad('The "_key" in the payload does not match the key in the path.');
      const isPartial = boolParam(ctx.q, 'is_partial_data', false);
      const rec: Rec = isPartial ? { ...clone(ex!), ...clone(body), _key: key } : { ...clone(body), _key: key };
      if (isPartial && k === MW && body.objects !== undefined && body.sec_grp_list === undefined) delete rec.sec_grp_list;
      if (!isPartial && k === MW && body.sec_grp_list === undefined) delete rec.sec_grp_list;
      // BUG mw-partial-drops-objects: a partial update of a maintenance window that does not send "objects"
      // resets the window's objects to an empty list.
      if (isPartial && k === MW && body.objects === undefined && bug('mw-partial-drops-objects')) rec.objects = [];
      commonStamp(rec, ctx.user, k.type);
      k.prepare(ctx, rec, ex);
      c.set(key, rec);
      return ok({ _key: key });
    }
    if (m === 'DELETE') {
      requireWrite(ctx.user);
      if (!visible) throw notFound(`Object "${key}" of type "${k.type}" does not exist.`);
      if (!k.writable(ctx.user, ex!)) throw forbidden('Cannot delete this object.');
      if (!k.deletable(ex!, false)) throw bad('The default scheduled backup cannot be deleted.');
      c.delete(key);
      return ok();
    }
    throw notAllowed(`Method ${m} is not supported.`);
  }
  throw notFound(`Unknown path ${p.join('/')}`);
}

export function maintenanceRoute(ctx: Ctx): Resp {
  const p = ctx.parts;
  if (p.length === 1 && p[0] === 'get_supported_object_types') {
    if (ctx.method !== 'GET') throw notAllowed('Only GET is supported.');
    return ok(['maintenance_calendar']);
  }
  if (!p.length) throw notFound('Specify an object type.');
  if (p[0] !== 'maintenance_calendar') throw bad(`Unsupported object type "${p[0]}".`);
  return kindRoute(ctx, MW, p);
}
export function backupRoute(ctx: Ctx): Resp {
  const p = ctx.parts;
  if (p.length === 1 && p[0] === 'get_supported_object_types') {
    if (ctx.method !== 'GET') throw notAllowed('Only GET is supported.');
    return ok(['backup_restore']);
  }
  if (!p.length) throw notFound('Specify an object type.');
  if (p[0] !== 'backup_restore') throw bad(`Unsupported object type "${p[0]}".`);
  return kindRoute(ctx, BR, p);
}

// ================================================================= icons
const IMMUTABLE_CATEGORIES = ['Default', 'Network', 'Server'];
function normIcon(x: unknown, i: number): Rec {
  if (!isObj(x)) throw bad(`Icon ${i} must be an object.`);
  for (const f of ['title', 'svg_path', 'category']) {
    if (typeof x[f] !== 'string' || !x[f].trim()) throw bad(`Icon ${i}: field "${f}" is required and must be a non-empty string.`);
  }
  const size = (f: string) => {
    const v = x[f];
    if (v === undefined || v === null || v === '') return '48';
    if (typeof v === 'number' && Number.isFinite(v) && v > 0) return String(v);
    if (typeof v === 'string' && /^\d+(\.\d+)?$/.test(v.trim()) && Number(v) > 0) return v.trim();
    throw bad(`Icon ${i}: field "${f}" must be a positive number or numeric string.`);
  };
  if (x._key !== undefined && (typeof x._key !== 'string' || !x._key)) throw bad(`Icon ${i}: "_key" must be a non-empty string.`);
  return {
    _key: x._key || hexKey(),
    title: x.title,
    svg_path: x.svg_path,
    default_width: size('default_width'),
    default_height: size('default_height'),
    category: x.category,
  };
}
export function iconRoute(ctx: Ctx): Resp {
  const p = ctx.parts; // after icon_collection
  const m = ctx.method === 'PUT' && p.length === 0 ? 'POST' : ctx.method;
  const c = col(ctx.db, 'icon');
  if (p.length === 0) {
    if (m === 'GET') {
      if (boolParam(ctx.q, 'list_categories', false)) {
        const names = new Set<string>(IMMUTABLE_CATEGORIES);
        for (const ic of c.values()) names.add(ic.category as string);
        return ok([...names].sort().map((n) => (IMMUTABLE_CATEGORIES.includes(n) ? { name: n, immutable: true } : { name: n })));
      }
      const o = sharedOpts(ctx.q);
      const cat = ctx.q.get('category');
      const all = [...c.values()].filter((r) => !cat || r.category === cat);
      const matched = all.filter(o.filter.pred);
      const page = applyList(all, o, '_key');
      return ok({ total: matched.length, result: page.map((r) => project(r, o.fields)) });
    }
    if (m === 'POST') {
      requireWrite(ctx.user);
      let body = ctx.body();
      if (isObj(body)) body = [body];
      if (!Array.isArray(body) || !body.length) throw bad('The payload must be a non-empty array of icon objects.');
      const icons = body.map(normIcon);
      // BUG icon-post-first-only: only the first icon of the payload is stored, yet every key is answered.
      const toStore = bug('icon-post-first-only') ? icons.slice(0, 1) : icons;
      for (const ic of toStore) c.set(ic._key as string, { ...ic, _user: 'nobody' });
      return ok(icons.map((ic) => ic._key));
    }
    if (m === 'DELETE') {
      requireWrite(ctx.user);
      const cat = ctx.q.get('category');
      if (!cat) throw bad('Parameter "category" is required (use "*" to delete all icons).');
      for (const [k, ic] of [...c.entries()]) {
        if (cat === '*') {
          if (bug('icon-star-skips-immutable') && IMMUTABLE_CATEGORIES.includes(ic.category as string)) continue;
          c.delete(k);
        } else if (ic.category === cat) c.delete(k);
      }
      return ok({ Deleted: 'True' });
    }
    throw notAllowed(`Method ${ctx.method} is not supported on icon_collection.`);
  }
  if (p.length === 1) {
    const ic = c.get(p[0]);
    if (m === 'GET') {
      if (!ic) throw notFound(`Icon "${p[0]}" does not exist.`);
      return ok(ic);
    }
    if (m === 'DELETE') {
      requireWrite(ctx.user);
      if (!ic) throw notFound(`Icon "${p[0]}" does not exist.`);
      c.delete(p[0]);
      // BUG icon-delete-key-empty-body: deleting one icon by key answers an empty body instead of {Deleted: 'True'}.
      if (bug('icon-delete-key-empty-body')) return ok();
      return ok({ Deleted: 'True' });
    }
    throw notAllowed(`Method ${ctx.method} is not supported on icon_collection/<_key>.`);
  }
  throw notFound('Unknown icon path.');
}
void SCHEMA_VERSION;
