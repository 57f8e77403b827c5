// Custom threshold windows: decoration of the stored object and the special endpoints.
import {
  invalid,
  bad,
  notFound,
  forbidden,
  conflict,
  methodNotAllowed,
  isObj,
  clone,
  nowEpoch,
  modTime,
  lastParam,
  intParam,
} from './util.mjs';
import { db, stamp, teamOf } from './store.mjs';
import { canRead, canWrite } from './auth.mjs';
import { bug } from './bugs.mjs';

const TYPE = 'custom_threshold_windows';

export function ctwValidate(obj) {
  if (obj.status === undefined) obj.status = 'Active';
  if (typeof obj.status !== 'string' || !obj.status) throw invalid('status must be a non-empty string', 'INVALID_FIELD');
  if (obj.window_type === undefined) obj.window_type = 'percentage';
  if (typeof obj.window_type !== 'string') throw invalid('window_type must be a string', 'INVALID_FIELD');
  for (const f of ['window_config_percentage', 'start_time', 'end_time', 'duration', 'last_stopped_time']) {
    if (obj[f] !== undefined && obj[f] !== null && typeof obj[f] !== 'number') {
      if (typeof obj[f] === 'string' && obj[f].trim() !== '' && !Number.isNaN(Number(obj[f]))) obj[f] = Number(obj[f]);
      else throw invalid(`${f} must be a number`, 'INVALID_FIELD');
    }
  }
  if (obj.linked_services === undefined) obj.linked_services = [];
  if (!Array.isArray(obj.linked_services)) throw invalid('linked_services must be an array', 'INVALID_FIELD');
  for (const ls of obj.linked_services) {
    if (
      !isObj(ls) ||
      typeof ls.service_id !== 'string' ||
      !Array.isArray(ls.linked_kpi_ids) ||
      !ls.linked_kpi_ids.every((k) => typeof k === 'string')
    ) {
      throw invalid('linked_services entries must be {service_id: string, linked_kpi_ids: [string]}', 'INVALID_FIELD');
    }
  }
  if (obj.recurrence === undefined) obj.recurrence = false;
  if (obj.window_config_static === undefined) obj.window_config_static = {};
}

const isActive = (w) => String(w.status || '').toLowerCase() === 'active';

function linkPairs(w) {
  const out = [];
  for (const ls of w.linked_services || []) for (const k of ls.linked_kpi_ids || []) out.push([ls.service_id, k]);
  return out;
}

export function ctwPresent(o, user) {
  o.status = String(o.status || '').toLowerCase();
  const team = teamOf(o);
  const teams = new Set([team]);
  for (const ls of o.linked_services || []) {
    const svc = db.core.service.get(ls.service_id);
    if (svc) teams.add(teamOf(svc));
  }
  o.sec_grp_list = [...teams];
  // overlapping: linked KPIs that are also linked to another active window
  const mine = new Set(linkPairs(o).map(([s, k]) => `${s}\u0000${k}`));
  const overl = new Set();
  for (const w of db.core[TYPE].values()) {
    if (w._key === o._key || !isActive(w)) continue;
    for (const [s, k] of linkPairs(w)) if (mine.has(`${s}\u0000${k}`)) overl.add(k);
  }
  o.overlapping_kpis = [...overl];
  o.is_overlapping = overl.size > 0;
  o.can_view = canRead(user, team);
  o.can_edit = canWrite(user, team);
  o.can_link = o.can_edit && o.sec_grp_list.every((t) => canRead(user, t));
  o.can_transition = o.can_edit && o.status === 'active';
  return o;
}

function present(w, user) {
  const o = clone(w);
  const r = canRead(user, teamOf(w));
  const wr = canWrite(user, teamOf(w));
  o.permissions = { user: user.name, group: { read: r, write: wr, delete: wr }, read: r, write: wr, delete: wr };
  return ctwPresent(o, user);
}

function getWindow(user, key) {
  const w = db.core[TYPE].get(key);
  if (!w || !canRead(user, teamOf(w))) return null;
  return w;
}

function mustWindow(user, key) {
  const w = getWindow(user, key);
  if (!w) throw notFound(`No custom threshold window with _key ${key}`);
  return w;
}

function save(w, user) {
  w.mod_time = modTime();
  stamp(w, TYPE, user);
  db.core[TYPE].set(w._key, w);
}

function windowKeysFromPayload(body) {
  const out = [];
  const add = (v) => {
    if (typeof v === 'string' && v) out.push(v);
    else if (Array.isArray(v)) v.forEach(add);
  };
  if (typeof body === 'string' || Array.isArray(body)) add(body);
  else if (isObj(body)) {
    add(body._key);
    add(body.keys);
    add(body.ctw_ids);
    add(body.ctw_id);
  }
  return out;
}

function serviceKpisFromPayload(body) {
  const out = [];
  if (!isObj(body)) return out;
  const push = (svc, kpis) => {
    if (typeof svc === 'string' && Array.isArray(kpis)) out.push({ service: svc, kpis: kpis.filter((k) => typeof k === 'string') });
  };
  for (const s of Array.isArray(body.services) ? body.services : [])
    if (isObj(s)) push(s._key ?? s.service_id, s.kpi_ids ?? s.linked_kpi_ids);
  for (const s of Array.isArray(body.linked_services) ? body.linked_services : [])
    if (isObj(s)) push(s.service_id ?? s._key, s.linked_kpi_ids ?? s.kpi_ids);
  for (const s of Array.isArray(body.service_kpis) ? body.service_kpis : [])
    if (isObj(s)) push(s.service_id ?? s._key, s.kpi_ids ?? s.linked_kpi_ids);
  return out;
}

function linkInto(w, serviceId, kpiIds) {
  let ls = w.linked_services.find((x) => x.service_id === serviceId);
  if (!ls) {
    ls = { service_id: serviceId, linked_kpi_ids: [] };
    w.linked_services.push(ls);
  }
  for (const k of kpiIds) if (!ls.linked_kpi_ids.includes(k)) ls.linked_kpi_ids.push(k);
}

export function handleCtwSpecial(ctx, segs) {
  const { method, q, user } = ctx;
  if (segs[0] === 'linked_kpis' && segs.length === 1) {
    if (method !== 'GET') throw methodNotAllowed(['GET']);
    return linkedKpis(ctx);
  }
  const [id, op] = segs;
  if (segs.length !== 2) throw notFound('No such endpoint');
  if (method !== 'POST') throw methodNotAllowed(['POST']);
  if (op === 'stop') {
    const w = mustWindow(user, id);
    if (!canWrite(user, teamOf(w))) throw forbidden(`User ${user.name} cannot transition this window`);
    const st = String(w.status || '').toLowerCase();
    if (st === 'stopped') return ctx.reply(200, present(w, user));
    if (st !== 'active') throw conflict(`Only an active window can be stopped; this window is ${st}`, 'INVALID_TRANSITION');
    const n = clone(w);
    n.status = 'Stopped';
    if (!bug('ctw_stop_no_time')) n.last_stopped_time = nowEpoch();
    save(n, user);
    return ctx.reply(200, present(n, user));
  }
  const ctwId = lastParam(q, 'ctw_id');
  if (op === 'disconnect_kpis') {
    const keys = [id];
    if (ctwId && ctwId !== id) keys.push(ctwId);
    const wins = keys.map((k) => mustWindow(user, k));
    for (const w of wins) if (!canWrite(user, teamOf(w))) throw forbidden(`User ${user.name} cannot change window ${w._key}`);
    const removed = [];
    for (const w of wins) {
      const n = clone(w);
      for (const ls of n.linked_services || []) {
        let r = removed.find((x) => x.service_id === ls.service_id);
        if (!r) removed.push((r = { service_id: ls.service_id, linked_kpi_ids: [] }));
        for (const k of ls.linked_kpi_ids) if (!r.linked_kpi_ids.includes(k)) r.linked_kpi_ids.push(k);
      }
      n.linked_services = [];
      save(n, user);
    }
    return ctx.reply(200, { service_kpis_dict: removed });
  }
  if (op === 'associate_service_kpi') {
    let body;
    if (ctx.hasBody()) body = ctx.json();
    const winKeys = [];
    let pathService = null;
    const pw = getWindow(user, id);
    if (pw) winKeys.push(id);
    else {
      const svc = db.core.service.get(id);
      if (svc && canRead(user, teamOf(svc))) pathService = svc;
      else throw notFound(`No custom threshold window or service with _key ${id}`);
    }
    if (ctwId) winKeys.push(ctwId);
    winKeys.push(...windowKeysFromPayload(body));
    const uniq = [...new Set(winKeys)];
    if (uniq.length === 0) throw invalid('No custom threshold window named (path, ctw_id or payload)', 'MISSING_WINDOW');
    const wins = uniq.map((k) => mustWindow(user, k));
    for (const w of wins) if (!canWrite(user, teamOf(w))) throw forbidden(`User ${user.name} cannot link KPIs to window ${w._key}`);
    const pairs = serviceKpisFromPayload(body);
    if (pathService) {
      const explicit = isObj(body) && Array.isArray(body.kpi_ids) ? body.kpi_ids : null;
      pairs.push({ service: pathService._key, kpis: explicit || (pathService.kpis || []).map((k) => k._key) });
    }
    const saved = [];
    for (const w of wins) {
      const n = clone(w);
      if (!Array.isArray(n.linked_services)) n.linked_services = [];
      for (const { service, kpis } of pairs) {
        const svc = db.core.service.get(service);
        if (!svc || !canRead(user, teamOf(svc))) continue;
        const valid = kpis.filter((k) => (svc.kpis || []).some((x) => x._key === k));
        if (valid.length) linkInto(n, service, valid);
      }
      save(n, user);
      saved.push(n);
    }
    // Answer: the service KPIs linked to the window(s) after the call.
    const services = [];
    for (const w of saved) {
      for (const ls of w.linked_services) {
        let s = services.find((x) => x._key === ls.service_id);
        if (!s) services.push((s = { _key: ls.service_id, kpi_ids: [] }));
        for (const k of ls.linked_kpi_ids) if (!s.kpi_ids.includes(k)) s.kpi_ids.push(k);
      }
    }
    return ctx.reply(200, { services });
  }
  throw notFound('No such endpoint');
}

function linkedKpis(ctx) {
  const { q, user } = ctx;
  const wid = lastParam(q, 'custom_threshold_window_id') ?? lastParam(q, 'ctw_id');
  const limit = intParam(q, 'limit');
  let wins;
  if (wid !== undefined && wid !== '') {
    const w = getWindow(user, wid);
    wins = w ? [w] : [];
  } else {
    wins = [...db.core[TYPE].values()].filter((w) => canRead(user, teamOf(w)));
  }
  const seen = new Set();
  const rows = [];
  for (const w of wins) {
    for (const ls of w.linked_services || []) {
      const svc = db.core.service.get(ls.service_id);
      if (!svc || !canRead(user, teamOf(svc))) continue;
      for (const k of ls.linked_kpi_ids || []) {
        const kpi = (svc.kpis || []).find((x) => x._key === k);
        if (!kpi || seen.has(`${svc._key}\u0000${k}`)) continue;
        seen.add(`${svc._key}\u0000${k}`);
        rows.push({ kpi_key: k, kpi_title: kpi.title, service_title: svc.title, service_key: svc._key });
      }
    }
  }
  rows.sort((a, b) => (a.kpi_key < b.kpi_key ? 1 : a.kpi_key > b.kpi_key ? -1 : 0));
  let out = rows;
  if (limit !== undefined && limit > 0) out = rows.slice(0, limit);
  else if (limit === 0 && bug('linked_kpis_limit0')) out = [];
  return ctx.reply(200, { linked_kpis: out, count: rows.length });
}

export { bad };
