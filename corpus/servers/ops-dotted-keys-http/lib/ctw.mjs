// Custom threshold windows: the object kind plus stop / associate / disconnect / linked_kpis.
import { bad, notFound, clone, isObj, isStr, isNum, isStrArray, epochFloat, qp, intParam } from './util.mjs';
import { coll, canRead, canWrite, canReadTeam, getReadable, getWritable, requireWriter, permissionsFor } from './store.mjs';
import { stamp, methodNotAllowed } from './objects.mjs';
import { bug } from './bugs.mjs';

const TYPE = 'custom_threshold_windows';
const COMPUTED = ['can_view', 'can_link', 'can_edit', 'can_transition', 'is_overlapping', 'overlapping_kpis'];

function overlapInfo(w) {
  const mine = new Set();
  for (const l of w.linked_services || []) for (const k of l.linked_kpi_ids || []) mine.add(`${l.service_id}\u0000${k}`);
  const out = new Set();
  if (!mine.size) return [];
  const s1 = isNum(w.start_time) ? w.start_time : -Infinity;
  const e1 = isNum(w.end_time) ? w.end_time : Infinity;
  for (const o of coll(TYPE).values()) {
    if (o._key === w._key || o.status !== 'active') continue;
    const s2 = isNum(o.start_time) ? o.start_time : -Infinity;
    const e2 = isNum(o.end_time) ? o.end_time : Infinity;
    if (s1 >= e2 || s2 >= e1) continue;
    for (const l of o.linked_services || []) for (const k of l.linked_kpi_ids || []) if (mine.has(`${l.service_id}\u0000${k}`)) out.add(k);
  }
  return [...out];
}

export const ctwKind = {
  type: TYPE,
  prefix: 'ctw',
  label: 'Custom threshold window',
  known: [
    'pause_description',
    'status',
    'window_type',
    'window_config_percentage',
    'window_config_static',
    'start_time',
    'end_time',
    'last_stopped_time',
    'next_scheduled_time',
    'cron_schedule',
    'duration',
    'recurrence',
    'linked_services',
    'sec_grp_list',
    ...COMPUTED,
  ],
  validate(body) {
    if (body.status !== undefined) {
      if (!isStr(body.status) || !['active', 'stopped'].includes(body.status.toLowerCase()))
        throw bad('Field "status" must be Active or Stopped');
    }
    if (body.window_type !== undefined && (!isStr(body.window_type) || !['percentage', 'static'].includes(body.window_type)))
      throw bad('Field "window_type" must be "percentage" or "static"');
    for (const f of ['window_config_percentage', 'start_time', 'end_time', 'last_stopped_time', 'duration'])
      if (body[f] !== undefined && body[f] !== null && !isNum(body[f])) throw bad(`Field "${f}" must be a number`);
    for (const f of ['description', 'pause_description', 'next_scheduled_time', 'cron_schedule'])
      if (body[f] !== undefined && body[f] !== null && !isStr(body[f])) throw bad(`Field "${f}" must be a string`);
    if (body.window_config_static !== undefined && body.window_config_static !== null && !isObj(body.window_config_static))
      throw bad('Field "window_config_static" must be an object');
    if (body.recurrence !== undefined && typeof body.recurrence !== 'boolean') throw bad('Field "recurrence" must be a boolean');
    if (body.sec_grp_list !== undefined && !isStrArray(body.sec_grp_list)) throw bad('Field "sec_grp_list" must be an array of strings');
    if (body.linked_services !== undefined) {
      if (!Array.isArray(body.linked_services)) throw bad('Field "linked_services" must be an array');
      body.linked_services.forEach((l, i) => {
        if (!isObj(l) || !isStr(l.service_id) || (l.linked_kpi_ids !== undefined && !isStrArray(l.linked_kpi_ids)))
          throw bad(`linked_services[${i}] must be {service_id: string, linked_kpi_ids: [string]}`);
      });
    }
    if (isNum(body.start_time) && isNum(body.end_time) && body.end_time < body.start_time)
      throw bad('end_time must not be before start_time');
  },
  defaults(obj) {
    if (obj.status === undefined) obj.status = 'active';
    if (obj.window_type === undefined) obj.window_type = 'percentage';
    if (obj.window_config_percentage === undefined && obj.window_type === 'percentage') obj.window_config_percentage = 25;
    if (obj.window_config_static === undefined) obj.window_config_static = {};
    if (obj.linked_services === undefined) obj.linked_services = [];
    if (obj.recurrence === undefined) obj.recurrence = false;
    if (obj.pause_description === undefined) obj.pause_description = '';
    if (obj.cron_schedule === undefined) obj.cron_schedule = '';
    if (obj.next_scheduled_time === undefined) obj.next_scheduled_time = '';
    if (obj.duration === undefined && isNum(obj.start_time) && isNum(obj.end_time)) obj.duration = obj.end_time - obj.start_time;
  },
  normalize(obj) {
    if (isStr(obj.status)) obj.status = obj.status.toLowerCase();
    for (const f of COMPUTED) delete obj[f];
    if (!Array.isArray(obj.sec_grp_list) || !obj.sec_grp_list.length) obj.sec_grp_list = [obj.sec_grp];
    for (const l of obj.linked_services || []) if (!l.linked_kpi_ids) l.linked_kpi_ids = [];
  },
  present(out, user, obj) {
    out.permissions = permissionsFor(user, TYPE, obj);
    const r = canRead(user, TYPE, obj);
    const w = canWrite(user, TYPE, obj);
    out.can_view = r;
    out.can_link = w;
    out.can_edit = w;
    out.can_transition = w;
    out.overlapping_kpis = overlapInfo(obj);
    out.is_overlapping = out.overlapping_kpis.length > 0;
    return out;
  },
};

const present = (user, w) => ctwKind.present(clone(w), user, w);

function windowIdParam(ctx) {
  const a = qp(ctx.query, 'ctw_id');
  const b = qp(ctx.query, 'custom_threshold_window_id');
  if (a && b && a !== b) throw bad('Parameters "ctw_id" and "custom_threshold_window_id" name different windows');
  return a || b || undefined;
}

function serviceSpecs(ctx, specs) {
  return specs.map((s, i) => {
    if (!isObj(s) || !isStr(s._key || s.service_id)) throw bad(`services[${i}] must be {_key: <service key>, kpi_ids: [string]}`);
    const svcKey = s._key || s.service_id;
    const svc = getReadable(ctx.user, 'service', svcKey, 'Service');
    const ids = s.kpi_ids ?? s.linked_kpi_ids;
    if (ids !== undefined && !isStrArray(ids)) throw bad(`services[${i}].kpi_ids must be an array of strings`);
    return { svc, kpiIds: ids };
  });
}

function associate(ctx, objectId, body) {
  requireWriter(ctx.user);
  const windows = new Map();
  const addWindow = (k) => {
    if (!isStr(k) || !k) throw bad('Window keys must be non-empty strings');
    windows.set(k, getWritable(ctx.user, TYPE, k, 'Custom threshold window'));
  };
  let specs = [];
  const isWindow = coll(TYPE).has(objectId);
  const pathSvc = !isWindow && coll('service').has(objectId) ? getReadable(ctx.user, 'service', objectId, 'Service') : null;
  if (isWindow) addWindow(objectId);
  else if (!pathSvc) throw notFound(`No custom threshold window or service with key "${objectId}"`);
  const ctwId = windowIdParam(ctx);
  if (ctwId) addWindow(ctwId);
  let pathKpis;
  if (isStr(body)) addWindow(body);
  else if (Array.isArray(body)) {
    if (body.every(isStr)) body.forEach(addWindow);
    else specs = serviceSpecs(ctx, body);
  } else if (isObj(body)) {
    if (isStr(body._key)) addWindow(body._key);
    else if (Array.isArray(body._key)) body._key.forEach(addWindow);
    for (const f of ['ctw_ids', 'keys', 'window_ids'])
      if (body[f] !== undefined) {
        if (!isStrArray(body[f])) throw bad(`"${f}" must be an array of window keys`);
        body[f].forEach(addWindow);
      }
    if (body.services !== undefined) {
      if (!Array.isArray(body.services)) throw bad('"services" must be an array');
      specs = serviceSpecs(ctx, body.services);
    }
    if (body.kpi_ids !== undefined) {
      if (!isStrArray(body.kpi_ids)) throw bad('"kpi_ids" must be an array of strings');
      pathKpis = body.kpi_ids;
    }
  } else if (body !== undefined && body !== null) throw bad('Unsupported payload for associate_service_kpi');
  if (pathSvc) specs.push({ svc: pathSvc, kpiIds: pathKpis });
  if (!windows.size) throw bad('No custom threshold window named: give ctw_id or the window key(s) in the payload');
  // resolve KPI ids
  const linked = new Map();
  for (const { svc, kpiIds } of specs) {
    const all = (svc.kpis || []).filter((k) => k.type !== 'service_health').map((k) => k._key);
    const ids = kpiIds === undefined ? all : kpiIds;
    for (const id of ids) if (!(svc.kpis || []).some((k) => k._key === id)) throw bad(`Service "${svc._key}" has no KPI "${id}"`);
    const cur = linked.get(svc._key) || [];
    for (const id of ids) if (!cur.includes(id)) cur.push(id);
    linked.set(svc._key, cur);
  }
  for (const w of windows.values()) {
    const prev = clone(w);
    const ls = Array.isArray(w.linked_services) ? w.linked_services : [];
    for (const [svcKey, ids] of linked) {
      let e = ls.find((l) => l.service_id === svcKey);
      if (!e) {
        e = { service_id: svcKey, linked_kpi_ids: [] };
        ls.push(e);
      }
      for (const id of ids) if (!e.linked_kpi_ids.includes(id)) e.linked_kpi_ids.push(id);
    }
    w.linked_services = ls;
    stamp(ctwKind, ctx.user, w, prev);
  }
  return { services: [...linked].map(([k, ids]) => ({ _key: k, kpi_ids: ids })) };
}

function disconnect(ctx, objectId) {
  requireWriter(ctx.user);
  const ctwId = windowIdParam(ctx);
  if (ctwId && ctwId !== objectId) throw bad(`ctw_id "${ctwId}" differs from the window key in the path "${objectId}"`);
  const w = getWritable(ctx.user, TYPE, objectId, 'Custom threshold window');
  const prev = clone(w);
  const removed = (w.linked_services || []).map((l) => ({ service_id: l.service_id, linked_kpi_ids: clone(l.linked_kpi_ids || []) }));
  w.linked_services = [];
  stamp(ctwKind, ctx.user, w, prev);
  return { service_kpis_dict: removed };
}

function linkedKpis(ctx) {
  const id = windowIdParam(ctx);
  if (!id) throw bad('Missing parameter "ctw_id" (or "custom_threshold_window_id")');
  const limit = intParam(ctx.query, 'limit');
  const w = getReadable(ctx.user, TYPE, id, 'Custom threshold window');
  const rows = [];
  for (const l of w.linked_services || []) {
    const svc = coll('service').get(l.service_id);
    if (!svc || !canReadTeam(ctx.user, svc.sec_grp)) continue;
    for (const kid of l.linked_kpi_ids || []) {
      const k = (svc.kpis || []).find((x) => x._key === kid);
      if (!k) continue;
      rows.push({ kpi_key: kid, kpi_title: k.title, service_title: svc.title, service_key: svc._key });
    }
  }
  rows.sort(
    (a, b) =>
      a.kpi_title.toLowerCase().localeCompare(b.kpi_title.toLowerCase()) ||
      a.service_title.toLowerCase().localeCompare(b.service_title.toLowerCase()) ||
      (a.kpi_key < b.kpi_key ? -1 : 1),
  );
  let page = rows;
  if (limit) page = rows.slice(0, limit);
  else if (limit === 0 && bug('linked_kpis_limit_zero')) page = [];
  return { linked_kpis: page, count: rows.length };
}

function stop(ctx, key) {
  requireWriter(ctx.user);
  const w = getWritable(ctx.user, TYPE, key, 'Custom threshold window');
  if (w.status !== 'active') throw bad(`Only an active window can be stopped; window "${key}" is ${w.status}`);
  const prev = clone(w);
  w.status = 'stopped';
  w.last_stopped_time = epochFloat();
  stamp(ctwKind, ctx.user, w, prev);
  return present(ctx.user, w);
}

// returns a response, or null to let the generic object routes handle the path
export async function handleCtw(ctx, segs) {
  const m = ctx.method;
  if (segs.length === 1 && segs[0] === 'linked_kpis') {
    if (m !== 'GET') throw methodNotAllowed(['GET']);
    return { body: linkedKpis(ctx) };
  }
  if (segs.length === 2 && ['stop', 'associate_service_kpi', 'disconnect_kpis'].includes(segs[1])) {
    if (m !== 'POST') throw methodNotAllowed(['POST']);
    requireWriter(ctx.user);
    if (segs[1] === 'stop') return { body: stop(ctx, segs[0]) };
    if (segs[1] === 'disconnect_kpis') return { body: disconnect(ctx, segs[0]) };
    return { body: associate(ctx, segs[0], await ctx.json(false)) };
  }
  return null;
}
