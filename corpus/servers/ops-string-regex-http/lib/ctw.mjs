// itoa_interface/custom_threshold_windows: linking KPIs, listing linked KPIs, stopping a window.
import { HttpError, bad, notFound, forbidden, conflict, isObj, epoch, isoTs, modTime } from './util.mjs';
import * as db from './store.mjs';
import { requireWriter } from './auth.mjs';
import { present } from './objects.mjs';
import { lastParam } from './query.mjs';

const SCOPE = 'core:custom_threshold_windows';
const OPS = ['associate_service_kpi', 'disconnect_kpis', 'stop'];

export function isCtwSpecial(rest) {
  return (rest.length === 1 && rest[0] === 'linked_kpis') || (rest.length === 2 && OPS.includes(rest[1]));
}

const mna = (allow) => new HttpError(405, `Method not allowed; use ${allow.join(', ')}`, { Allow: allow.join(', ') });
const splitIds = (v) =>
  v === undefined
    ? []
    : v
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);

function touch(ctx, o) {
  o.mod_timestamp = isoTs();
  o.mod_time = modTime();
  o.mod_source = 'REST';
  o.mod_by = ctx.user.name;
}

function windowsFrom(ctx, ids, needWrite) {
  const found = [];
  for (const id of [...new Set(ids)]) {
    const w = db.get(SCOPE, id);
    if (!w || !db.canRead(ctx.user, SCOPE, w)) continue;
    if (needWrite && !db.canWrite(ctx.user, SCOPE, w)) throw forbidden(`User ${ctx.user.name} cannot change window ${id}`);
    found.push(w);
  }
  return found;
}

function linkedView(ctx, windows) {
  const out = [];
  const seen = new Set();
  for (const w of windows) {
    for (const l of w.linked_services || []) {
      const svc = db.get('core:service', l.service_id);
      if (!svc || !db.canRead(ctx.user, 'core:service', svc)) continue;
      for (const kid of l.linked_kpi_ids || []) {
        const id = `${svc._key}\0${kid}`;
        if (seen.has(id)) continue;
        seen.add(id);
        const kpi = (svc.kpis || []).find((k) => k._key === kid);
        out.push({ kpi_key: kid, kpi_title: kpi ? kpi.title : '', service_title: svc.title, service_key: svc._key });
      }
    }
  }
  return out;
}

function mergeLinks(target, svcKey, kpiIds) {
  let l = target.find((x) => x.service_id === svcKey);
  if (!l) {
    l = { service_id: svcKey, linked_kpi_ids: [] };
    target.push(l);
  }
  for (const k of kpiIds) if (!l.linked_kpi_ids.includes(k)) l.linked_kpi_ids.push(k);
}

// Interpret the payload of associate_service_kpi: window keys and/or service KPI selections.
function readAssociatePayload(body, windowIds, specs) {
  const takeKey = (k, kpiIds) => {
    if (typeof k !== 'string') throw bad('keys must be strings');
    if (db.get(SCOPE, k)) windowIds.push(k);
    else if (db.get('core:service', k)) specs.push([k, kpiIds]);
    else throw notFound(`No window or service with key ${k}`);
  };
  if (body === undefined || body === null) return;
  if (typeof body === 'string') return takeKey(body);
  if (Array.isArray(body)) {
    for (const x of body) {
      if (typeof x === 'string') takeKey(x);
      else if (isObj(x) && typeof x._key === 'string') takeKey(x._key, x.kpi_ids);
      else if (isObj(x) && typeof x.service_id === 'string') takeKey(x.service_id, x.linked_kpi_ids);
      else throw bad('Unrecognised entry in payload');
    }
    return;
  }
  if (!isObj(body)) throw bad('Payload must be key(s) of the window(s)');
  for (const [k, v] of Object.entries(body)) {
    if (k === '_key' || k === 'ctw_id' || k === 'key') {
      for (const id of Array.isArray(v) ? v : [v]) takeKey(id);
    } else if (k === 'keys' || k === 'ctw_ids' || k === 'data') {
      if (!Array.isArray(v)) throw bad(`${k} must be an array`);
      for (const id of v) takeKey(id);
    } else if (k === 'services') {
      if (!Array.isArray(v)) throw bad('services must be an array');
      for (const s of v) {
        if (!isObj(s) || typeof s._key !== 'string') throw bad('services entries are {_key, kpi_ids}');
        takeKey(s._key, s.kpi_ids);
      }
    } else if (k === 'linked_services') {
      if (!Array.isArray(v)) throw bad('linked_services must be an array');
      for (const s of v) {
        if (!isObj(s) || typeof s.service_id !== 'string') throw bad('linked_services entries are {service_id, linked_kpi_ids}');
        takeKey(s.service_id, s.linked_kpi_ids);
      }
    } else if (db.get('core:service', k) && Array.isArray(v)) {
      specs.push([k, v]);
    } else {
      throw bad(`Unrecognised payload member "${k}"`);
    }
  }
}

export function handleCtw(ctx, method, rest, q) {
  if (rest[0] === 'linked_kpis') {
    if (method !== 'GET') throw mna(['GET']);
    const ids = [...splitIds(lastParam(q, 'ctw_id')), ...splitIds(lastParam(q, 'custom_threshold_window_id'))];
    let windows;
    if (ids.length) {
      windows = windowsFrom(ctx, ids, false);
      if (!windows.length) throw notFound(`No custom threshold window ${ids.join(', ')}`);
    } else windows = db.readableStrict(ctx.user, SCOPE);
    const rawLimit = lastParam(q, 'limit');
    let limit = 0;
    if (rawLimit !== undefined && rawLimit !== '') {
      if (!/^\d+$/.test(rawLimit.trim())) throw bad('limit must be a non-negative integer');
      limit = Number(rawLimit);
    }
    const all = linkedView(ctx, windows);
    return { status: 200, json: { linked_kpis: limit > 0 ? all.slice(0, limit) : all, count: all.length } };
  }
  const [id, op] = rest;
  if (method !== 'POST') throw mna(['POST']);
  requireWriter(ctx.user);
  if (op === 'stop') {
    const w = db.get(SCOPE, id);
    if (!w || !db.canRead(ctx.user, SCOPE, w)) throw notFound(`Custom threshold window ${id} not found`);
    if (!db.canWrite(ctx.user, SCOPE, w)) throw forbidden(`User ${ctx.user.name} cannot stop window ${id}`);
    if (String(w.status).toLowerCase() !== 'active')
      throw conflict(`Window ${id} is ${String(w.status).toLowerCase()}; only an active window can be stopped`);
    w.status = 'stopped';
    w.last_stopped_time = epoch();
    touch(ctx, w);
    return { status: 200, json: present(ctx, SCOPE, w) };
  }
  const windowIds = [id, ...splitIds(lastParam(q, 'ctw_id'))];
  if (op === 'disconnect_kpis') {
    const windows = windowsFrom(ctx, windowIds, true);
    if (!windows.length) throw notFound(`Custom threshold window ${id} not found`);
    const removed = [];
    for (const w of windows) {
      for (const l of w.linked_services || []) mergeLinks(removed, l.service_id, l.linked_kpi_ids || []);
      w.linked_services = [];
      touch(ctx, w);
    }
    return { status: 200, json: { service_kpis_dict: removed } };
  }
  // associate_service_kpi
  const specs = [];
  const payloadIds = [];
  const body = ctx.json(true);
  readAssociatePayload(body, payloadIds, specs);
  const targetIds = [...windowIds, ...payloadIds].filter((k) => db.get(SCOPE, k));
  if (db.get('core:service', id) && !db.get(SCOPE, id)) specs.push([id, undefined]);
  const windows = windowsFrom(ctx, targetIds, true);
  if (!windows.length) throw notFound(`Custom threshold window ${id} not found`);
  const resolved = specs.map(([sk, kpiIds]) => {
    const svc = db.get('core:service', sk);
    if (!svc || !db.canRead(ctx.user, 'core:service', svc)) throw notFound(`Service ${sk} not found`);
    const allKpis = (svc.kpis || []).map((k) => k._key);
    const ids = kpiIds === undefined ? allKpis : kpiIds;
    if (!Array.isArray(ids) || ids.some((x) => typeof x !== 'string')) throw bad('kpi_ids must be an array of strings');
    const unknown = ids.filter((x) => !allKpis.includes(x));
    if (unknown.length) throw bad(`Service ${sk} has no KPI ${unknown.join(', ')}`);
    return [sk, ids];
  });
  for (const w of windows) {
    if (!Array.isArray(w.linked_services)) w.linked_services = [];
    for (const [sk, ids] of resolved) mergeLinks(w.linked_services, sk, ids);
    const teams = new Set(w.sec_grp_list || []);
    for (const [sk] of resolved) teams.add(db.get('core:service', sk).sec_grp);
    w.sec_grp_list = [...teams];
    if (resolved.length) touch(ctx, w);
  }
  const services = [];
  for (const w of windows) {
    for (const l of w.linked_services) {
      let s = services.find((x) => x._key === l.service_id);
      if (!s) {
        s = { _key: l.service_id, kpi_ids: [] };
        services.push(s);
      }
      for (const k of l.linked_kpi_ids) if (!s.kpi_ids.includes(k)) s.kpi_ids.push(k);
    }
  }
  return { status: 200, json: { services } };
}
