// Event management, maintenance windows, backup/restore jobs, glass table icons.
import {
  bug,
  fail,
  canRead,
  needWrite,
  checkGroups,
  sharedList,
  applyFilter,
  boolParam,
  newKey,
  isoOff,
  plainTime,
  type Store,
  GLOBAL,
  VERSION,
  type User,
} from './store.js';
import { EM, TICKETS, MAINT, BACKUP, ICONS, ACTIONS } from './seed.js';
import type { Res } from './core.js';

const ok = (b: any, s = 200): Res => ({ s, b });
const isObj = (b: any) => b !== null && typeof b === 'object' && !Array.isArray(b);
const mna = (m: string): never => fail(405, 'method_not_allowed', `method ${m} is not supported on this path`);
const csv = (v: any): string[] =>
  v === null || v === undefined
    ? []
    : String(v)
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);

// ---------- event management ----------
function linkOut(l: any) {
  const o = { ...l };
  delete o._grp;
  return o;
}
function linkReadable(u: User, l: any) {
  return canRead(u, { sec_grp: l._grp || GLOBAL });
}
function episodeGroup(id: string, u: User): string {
  const ep = EM.notable_event_group.get(id);
  if (ep) return ep.sec_grp || GLOBAL;
  return u.all ? GLOBAL : u.teams[0];
}
function addTicket(u: User, eventId: string, sys: string, tid: string, url: string): string {
  const ep = EM.notable_event_group.get(eventId);
  if (ep && !canRead(u, ep)) fail(404, 'not_found', `episode '${eventId}' was not found`);
  const existing = TICKETS.list().find((l) => l.event_id === eventId && l.ticket_system === sys);
  if (existing) {
    if (!linkReadable(u, existing)) fail(404, 'not_found', `episode '${eventId}' was not found`);
    const t = (existing.tickets || []).find((x: any) => x.ticket_id === tid);
    if (t) t.ticket_url = url;
    else existing.tickets = [...(existing.tickets || []), { ticket_system: sys, ticket_url: url, ticket_id: tid }];
    existing._user = u.name;
    TICKETS.put(existing._key, existing);
    return existing._key;
  }
  const key = newKey();
  TICKETS.put(key, {
    _key: key,
    object_type: 'external_ticket',
    event_id: eventId,
    ticket_system: sys,
    _user: u.name,
    tickets: [{ ticket_system: sys, ticket_url: url, ticket_id: tid }],
    _grp: episodeGroup(eventId, u),
  });
  return key;
}
function ticketFields(src: any, required: string[]): any {
  const out: any = {};
  for (const f of ['id', 'ids', 'ticket_system', 'ticket_id', 'ticket_url']) {
    const v = src?.[f];
    if (v !== undefined && v !== null) out[f] = Array.isArray(v) ? v.map(String).join(',') : v;
  }
  for (const f of required) {
    if (bug('ticket-missing-field-accepted') && f === 'ticket_url') continue;
    if (typeof out[f] !== 'string' || !out[f].trim()) fail(400, 'missing_required_field', `field '${f}' is required and must be a string`);
  }
  for (const f of ['ticket_system', 'ticket_id', 'ticket_url'])
    if (out[f] !== undefined && typeof out[f] !== 'string') fail(400, 'bad_payload', `field '${f}' must be a string`);
  return out;
}

export function handleEm(method: string, segs: string[], q: URLSearchParams, body: any, u: User): Res {
  const [a, b] = segs;
  if (a === 'notable_event_actions') {
    if (segs.length === 1) {
      if (method !== 'GET') mna(method);
      return ok(ACTIONS.map(({ config, ...rest }) => rest));
    }
    if (segs.length !== 2) fail(404, 'not_found', 'no such resource');
    const act = ACTIONS.find((x) => x.action_name === b);
    if (!act) fail(404, 'not_found', `episode action '${b}' was not found`);
    if (method === 'GET') return ok({ ...act.config });
    if (method !== 'POST') mna(method);
    needWrite(u);
    if (!isObj(body)) fail(400, 'bad_payload', 'payload must be {params: {...}, ids: [episode id]}');
    if (body.params !== undefined && !isObj(body.params)) fail(400, 'bad_payload', "'params' must be an object");
    const ids = Array.isArray(body.ids) ? body.ids : typeof body.ids === 'string' ? csv(body.ids) : null;
    if (!ids?.length || !ids.every((x: any) => typeof x === 'string'))
      fail(400, 'bad_payload', "'ids' must be a non-empty array of episode ids");
    const sid = `ops_act_${Date.now()}_${newKey().replace(/[^A-Za-z0-9]/g, '')}`;
    return ok([{ action_name: act.action_name, ids, sid }]);
  }
  if (a === 'ticketing') {
    if (segs.length === 1) {
      if (method !== 'POST') mna(method);
      needWrite(u);
      if (!isObj(body)) fail(400, 'bad_payload', 'payload must be {id, ticket_system, ticket_id, ticket_url}');
      const f = ticketFields(body, ['id', 'ticket_system', 'ticket_id', 'ticket_url']);
      const keys = [...new Set(csv(f.id))].map((id) => addTicket(u, id, f.ticket_system, f.ticket_id, f.ticket_url ?? ''));
      return ok({ _key: keys.length === 1 ? keys[0] : keys }, 201);
    }
    if (segs.length === 2) {
      if (method === 'GET') {
        const events = new Set([b, ...csv(q.get('ids'))]);
        const sys = q.get('ticket_system'),
          tid = q.get('ticket_id'),
          url = q.get('ticket_url');
        const rows = TICKETS.list()
          .filter((l) => events.has(l.event_id) && linkReadable(u, l))
          .filter((l) => !sys || l.ticket_system === sys)
          .map((l) => ({
            ...l,
            tickets: (l.tickets || []).filter((t: any) => (!tid || t.ticket_id === tid) && (!url || t.ticket_url === url)),
          }))
          .filter((l) => (!tid && !url) || l.tickets.length);
        return ok(rows.map(linkOut));
      }
      if (method === 'POST') {
        needWrite(u);
        const src: any = {};
        for (const k of ['ids', 'ticket_system', 'ticket_id', 'ticket_url']) if (q.get(k) !== null) src[k] = q.get(k);
        if (isObj(body)) Object.assign(src, body);
        const f = ticketFields(src, ['ticket_system', 'ticket_id', 'ticket_url']);
        const events = [...new Set([b, ...csv(f.ids), ...csv(f.id)])];
        const keys = events.map((id) => addTicket(u, id, f.ticket_system, f.ticket_id, f.ticket_url ?? ''));
        return ok([...new Set(keys)], 201);
      }
      return mna(method);
    }
    if (segs.length === 4) {
      if (method !== 'DELETE') mna(method);
      needWrite(u);
      const [, ep, sys, tid] = segs;
      const links = TICKETS.list().filter((l) => l.event_id === ep && l.ticket_system === sys && linkReadable(u, l));
      let found = false;
      for (const l of links) {
        const rest = (l.tickets || []).filter((t: any) => t.ticket_id !== tid);
        if (rest.length === (l.tickets || []).length) continue;
        found = true;
        if (rest.length) TICKETS.put(l._key, { ...l, tickets: rest });
        else TICKETS.del(l._key);
      }
      if (!found) fail(404, 'not_found', `ticket '${tid}' of system '${sys}' is not linked to episode '${ep}'`);
      return { s: 204 };
    }
    return fail(404, 'not_found', 'no such ticketing resource');
  }
  if (segs.length === 1 && EM[a]) {
    if (method !== 'GET') mna(method);
    boolParam(q, 'is_partial_data', false);
    const rows = EM[a].list().filter((o) => canRead(u, o));
    return ok(sharedList(rows, q, { offsetName: 'skip', filterName: 'filter_data', ignoreOffset: bug('em-skip-ignored') }));
  }
  return fail(404, 'not_found', `event management resource '${segs.join('/')}' was not found`);
}

// ---------- maintenance and backup: shared CRUD ----------
type Kind = {
  type: string;
  store: Store;
  listGroups: boolean;
  validate: (o: any, full: boolean) => void;
  defaults: (o: any, prev: any, u: User) => void;
  undeletable?: string;
};
function stamp(kind: Kind, key: string, o: any, prev: any, u: User) {
  o._key = key;
  o.object_type = kind.type;
  o._version = VERSION;
  o._user = 'nobody';
  o.mod_source = 'REST';
  o.mod_timestamp = isoOff();
  if (typeof o.title === 'string') o.identifying_name = o.title.toLowerCase();
  kind.defaults(o, prev, u);
  if (kind.listGroups) {
    checkGroups(u, o, true);
    o.sec_grp = o.sec_grp_list[0];
  } else {
    checkGroups(u, o);
  }
  return o;
}
function crud(kind: Kind, method: string, segs: string[], q: URLSearchParams, body: any, u: User): Res {
  const st = kind.store;
  const visible = () => st.list().filter((o) => canRead(u, o));
  const find = (k: string) => {
    const o = st.get(k);
    if (!o || !canRead(u, o)) fail(404, 'not_found', `${kind.type} '${k}' was not found`);
    return o;
  };
  if (segs.length === 1) {
    if (method === 'GET') return ok(sharedList(visible(), q));
    if (method === 'POST') {
      needWrite(u);
      if (!isObj(body)) fail(400, 'bad_payload', `payload must be a ${kind.type} object`);
      kind.validate(body, true);
      const key = typeof body._key === 'string' && body._key ? body._key : newKey();
      const prev = st.get(key);
      if (prev && !canRead(u, prev)) fail(409, 'key_in_use', `key '${key}' is already in use`);
      st.put(key, stamp(kind, key, { ...body }, prev, u));
      return ok({ _key: key }, prev ? 200 : 201);
    }
    if (method === 'DELETE') {
      needWrite(u);
      for (const r of sharedList(visible(), q)) {
        if (r._key === kind.undeletable && !bug('backup-default-bulk-deletable')) continue;
        st.del(r._key);
      }
      return { s: 204 };
    }
    return mna(method);
  }
  if (segs.length === 2 && segs[1] === 'count') {
    if (method !== 'GET') mna(method);
    const rows = bug('maint-count-unscoped') && kind.type === 'maintenance_calendar' ? st.list() : visible();
    return ok({ count: applyFilter(rows, q.get('filter')).length });
  }
  if (segs.length === 2) {
    const key = segs[1];
    if (method === 'GET') return ok(find(key));
    if (method === 'POST') {
      needWrite(u);
      if (!isObj(body)) fail(400, 'bad_payload', 'payload must be a JSON object');
      const prev = find(key);
      const partial = boolParam(q, 'is_partial_data', false);
      kind.validate(body, !partial);
      const o = partial ? { ...prev, ...body } : { ...body };
      if (!partial && kind.type === 'backup_restore') o.create_time = prev.create_time;
      st.put(key, stamp(kind, key, o, prev, u));
      return ok({ _key: key });
    }
    if (method === 'DELETE') {
      needWrite(u);
      find(key);
      if (key === kind.undeletable) fail(403, 'forbidden', 'the default scheduled backup cannot be deleted');
      st.del(key);
      return { s: 204 };
    }
    return mna(method);
  }
  return fail(404, 'not_found', 'no such resource');
}
const isNum = (v: any) => typeof v === 'number' && Number.isFinite(v);
const MAINT_KIND: Kind = {
  type: 'maintenance_calendar',
  store: MAINT,
  listGroups: true,
  validate(o, full) {
    if (full && (typeof o.title !== 'string' || !o.title.trim())) fail(400, 'missing_required_field', "field 'title' is required");
    for (const f of ['start_time', 'end_time']) {
      if (full && o[f] === undefined) fail(400, 'missing_required_field', `field '${f}' is required`);
      if (o[f] !== undefined && !isNum(o[f])) fail(400, 'bad_payload', `field '${f}' must be epoch seconds (number)`);
    }
    if (isNum(o.start_time) && isNum(o.end_time) && o.end_time < o.start_time)
      fail(400, 'bad_payload', 'end_time must not be before start_time');
    if (o.objects !== undefined) {
      if (!Array.isArray(o.objects)) fail(400, 'bad_payload', "'objects' must be an array");
      for (const x of o.objects)
        if (!isObj(x) || (x.object_type !== 'service' && x.object_type !== 'entity') || typeof x._key !== 'string')
          fail(400, 'bad_payload', "each entry of 'objects' must be {object_type: 'service' or 'entity', _key}");
    }
    if (o.sec_grp_list !== undefined && (!Array.isArray(o.sec_grp_list) || !o.sec_grp_list.every((g: any) => typeof g === 'string')))
      fail(400, 'bad_payload', "'sec_grp_list' must be an array of strings");
  },
  defaults(o, prev, u) {
    if (!Array.isArray(o.objects)) o.objects = [];
    if (!o._owner) o._owner = prev?._owner ?? u.name;
    if ((!Array.isArray(o.sec_grp_list) || !o.sec_grp_list.length) && u.all) o.sec_grp_list = [GLOBAL];
  },
};
const BACKUP_KIND: Kind = {
  type: 'backup_restore',
  store: BACKUP,
  listGroups: false,
  undeletable: 'ops_default_scheduled_backup',
  validate(o, full) {
    if (full && (typeof o.title !== 'string' || !o.title.trim())) fail(400, 'missing_required_field', "field 'title' is required");
    for (const f of ['title', 'job_type', 'status', 'path', 'last_error'])
      if (o[f] !== undefined && typeof o[f] !== 'string') fail(400, 'bad_payload', `field '${f}' must be a string`);
    if (o.rules !== undefined && !Array.isArray(o.rules)) fail(400, 'bad_payload', "'rules' must be an array");
  },
  defaults(o, prev, u) {
    const now = Math.floor(Date.now() / 1000);
    o.job_type = o.job_type || 'Backup';
    o.status = o.status || 'Queued';
    o.create_time = o.create_time || prev?.create_time || plainTime();
    for (const f of ['start_time', 'end_time']) if (!isNum(o[f])) o[f] = 0;
    if (!isNum(o.last_queued_time)) o.last_queued_time = now;
    if (!o.path) o.path = `/opt/platform/var/ops/backups/${o._key}`;
    o.search_head_id = o.search_head_id || 'sh-7f3a21';
    o.platform_server = o.platform_server || 'localhost';
    if (!Array.isArray(o.rules)) o.rules = [];
    if (typeof o.last_error !== 'string') o.last_error = 'None';
    o._owner = o._owner || prev?._owner || u.name;
  },
};
export function handleMaint(method: string, segs: string[], q: URLSearchParams, body: any, u: User): Res {
  if (segs.length === 1 && segs[0] === 'get_supported_object_types') {
    if (method !== 'GET') mna(method);
    return ok(['maintenance_calendar']);
  }
  if (segs[0] !== 'maintenance_calendar') fail(400, 'unknown_object_type', `object type '${segs[0] ?? ''}' is not supported`);
  return crud(MAINT_KIND, method, segs, q, body, u);
}
export function handleBackup(method: string, segs: string[], q: URLSearchParams, body: any, u: User): Res {
  if (segs[0] !== 'backup_restore') fail(400, 'unknown_object_type', `object type '${segs[0] ?? ''}' is not supported`);
  return crud(BACKUP_KIND, method, segs, q, body, u);
}

// ---------- glass table icons ----------
const IMMUTABLE = ['Basic Shapes'];
export function handleIcons(method: string, segs: string[], q: URLSearchParams, body: any, u: User): Res {
  if (segs.length === 0) {
    if (method === 'GET') {
      if (boolParam(q, 'list_categories', false)) {
        const names = new Set<string>([...IMMUTABLE, ...ICONS.list().map((i) => String(i.category))]);
        return ok([...names].sort().map((name) => (IMMUTABLE.includes(name) ? { name, immutable: true } : { name })));
      }
      let rows = ICONS.list();
      const cat = q.get('category');
      if (cat) rows = rows.filter((i) => i.category === cat);
      const total = applyFilter(rows, q.get('filter')).length;
      const result = sharedList(rows, q, { defaultKey: 'title', defaultAsc: true });
      return ok({ total, result });
    }
    if (method === 'POST' || method === 'PUT') {
      needWrite(u);
      if (!Array.isArray(body) || !body.length) fail(400, 'bad_payload', 'payload must be a non-empty array of icon objects');
      const items = body.map((ic: any) => {
        if (!isObj(ic)) fail(400, 'bad_payload', 'every icon must be an object');
        for (const f of ['title', 'svg_path', 'category'])
          if (typeof ic[f] !== 'string' || !ic[f]) fail(400, 'missing_required_field', `icon field '${f}' is required`);
        for (const f of ['default_width', 'default_height'])
          if ((typeof ic[f] !== 'number' && typeof ic[f] !== 'string') || ic[f] === '' || Number.isNaN(Number(ic[f])))
            fail(400, 'bad_payload', `icon field '${f}' must be a number or numeric string`);
        if (IMMUTABLE.includes(ic.category)) fail(403, 'forbidden', `category '${ic.category}' cannot be modified`);
        return ic;
      });
      const keys = items.map((ic: any) => {
        const key = typeof ic._key === 'string' && ic._key ? ic._key : newKey();
        ICONS.put(key, { ...ic, _key: key, mod_timestamp: isoOff() });
        return key;
      });
      return ok(keys, 201);
    }
    if (method === 'DELETE') {
      needWrite(u);
      const cat = q.get('category');
      if (!cat) fail(400, 'missing_parameter', "parameter 'category' is required ('*' deletes all icons)");
      for (const i of ICONS.list()) if ((cat === '*' && !bug('icon-star-literal')) || i.category === cat) ICONS.del(i._key);
      return ok({ Deleted: 'True' });
    }
    return mna(method);
  }
  if (segs.length === 1) {
    const ic = ICONS.get(segs[0]);
    if (method === 'GET') {
      if (!ic) fail(404, 'not_found', `icon '${segs[0]}' was not found`);
      return ok(ic);
    }
    if (method === 'DELETE') {
      needWrite(u);
      if (!ic) fail(404, 'not_found', `icon '${segs[0]}' was not found`);
      ICONS.del(segs[0]);
      return ok({ Deleted: 'True' });
    }
    return mna(method);
  }
  return fail(404, 'not_found', 'no such icon resource');
}
