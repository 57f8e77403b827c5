// Custom threshold windows: linked_kpis, associate_service_kpi, disconnect_kpis, stop.
import { bad, notFound, isObj, isStr, isStrArray, clone, nowMicros, epochFloat, bug } from './util.mjs';
import { store } from './store.mjs';
import { assertRead, assertWrite, canRead } from './auth.mjs';
import { intParam } from './query.mjs';
import { decorate } from './types.mjs';
import { stamp, loadReadable } from './crud.mjs';
import { route, J } from './route.mjs';

const T = 'custom_threshold_windows';

// Returns a response, or undefined when the path is a generic object path.
export function handleCtwSpecial(ctx, segs) {
  if (segs.length === 1 && segs[0] === 'linked_kpis') return route(ctx, { GET: () => J(linkedKpis(ctx)) });
  if (segs.length === 2) {
    const [id, op] = segs;
    if (op === 'associate_service_kpi') return route(ctx, { POST: () => J(associate(ctx, id)) });
    if (op === 'disconnect_kpis') return route(ctx, { POST: () => J(disconnect(ctx, id)) });
    if (op === 'stop') return route(ctx, { POST: () => J(stop(ctx, id)) });
  }
  return undefined;
}

function windowIdParam(ctx) {
  const q = ctx.query;
  const a = q.has('ctw_id') ? q.get('ctw_id') : undefined;
  const b = q.has('custom_threshold_window_id') ? q.get('custom_threshold_window_id') : undefined;
  if (a !== undefined && b !== undefined && a !== b) {
    throw bad('ctw_id and custom_threshold_window_id name different windows');
  }
  return a ?? b;
}

function writableWindow(ctx, id) {
  const w = loadReadable(ctx, T, id);
  assertWrite(ctx.user, T, w);
  return w;
}

function save(ctx, next, prev) {
  const out = stamp(T, next, prev, ctx);
  store.put(T, out);
  return out;
}

function linkedKpis(ctx) {
  const id = windowIdParam(ctx);
  if (id === undefined || id === '') throw bad('Missing parameter ctw_id (or custom_threshold_window_id)');
  const limit = intParam(ctx.query, 'limit');
  const w = loadReadable(ctx, T, id);
  const all = [];
  for (const ls of w.linked_services || []) {
    const svc = store.get('service', ls.service_id);
    if (svc && !canRead(ctx.user, 'service', svc)) continue;
    for (const kid of ls.linked_kpi_ids || []) {
      const kpi = svc && Array.isArray(svc.kpis) ? svc.kpis.find((k) => k._key === kid) : undefined;
      all.push({
        kpi_key: kid,
        kpi_title: kpi ? String(kpi.title) : '',
        service_title: svc ? String(svc.title) : '',
        service_key: ls.service_id,
      });
    }
  }
  let out = all;
  if (limit === 0) out = bug('linked_kpis_limit0_empty') ? [] : all;
  else if (limit !== undefined) out = all.slice(0, limit);
  return { linked_kpis: out, count: all.length };
}

// The payload names the window(s): a key, an array of keys, or an object carrying
// _key / ctw_id / keys.  It may also carry services: [{_key, kpi_ids}] to link.
function parseAssociateBody(body) {
  const keys = [];
  let services;
  if (body === undefined || body === null) return { keys, services };
  if (isStr(body)) keys.push(body);
  else if (Array.isArray(body)) {
    if (!isStrArray(body)) throw bad('The payload must be a window key or an array of window keys');
    keys.push(...body);
  } else if (isObj(body)) {
    for (const f of ['_key', 'ctw_id']) {
      if (body[f] !== undefined) {
        if (!isStr(body[f])) throw bad(`${f} must be a string`);
        keys.push(body[f]);
      }
    }
    if (body.keys !== undefined) {
      if (!isStrArray(body.keys)) throw bad('keys must be an array of strings');
      keys.push(...body.keys);
    }
    if (body.services !== undefined) {
      if (!Array.isArray(body.services)) throw bad('services must be an array of {_key, kpi_ids}');
      services = body.services.map((s, i) => {
        if (!isObj(s) || !isStr(s._key) || !isStrArray(s.kpi_ids)) {
          throw bad(`services[${i}] must be {_key: string, kpi_ids: [string]}`);
        }
        return { _key: s._key, kpi_ids: [...s.kpi_ids] };
      });
    }
  } else throw bad('Unsupported payload');
  return { keys, services };
}

function associate(ctx, id) {
  const { keys, services } = parseAssociateBody(ctx.body());
  const q = windowIdParam(ctx);
  const winKeys = [...new Set([id, ...(q ? [q] : []), ...keys])];
  const windows = winKeys.map((k) => writableWindow(ctx, k));
  const linked = new Map();
  const add = (sid, kids) => {
    if (!linked.has(sid)) linked.set(sid, []);
    const arr = linked.get(sid);
    for (const k of kids) if (!arr.includes(k)) arr.push(k);
  };
  const check = (sid, kids) => {
    const svc = store.get('service', sid);
    if (!svc) throw notFound(`Service not found: ${sid}`);
    assertRead(ctx.user, 'service', svc);
    for (const k of kids) {
      if (!(svc.kpis || []).some((x) => x._key === k)) throw notFound(`KPI not found in service ${sid}: ${k}`);
    }
  };
  const plan = windows.map((w) => {
    const wanted = services ? services.map((s) => ({ service_id: s._key, linked_kpi_ids: s.kpi_ids })) : clone(w.linked_services || []);
    for (const ls of wanted) check(ls.service_id, ls.linked_kpi_ids);
    return [w, wanted];
  });
  for (const [w, wanted] of plan) {
    const next = clone(w);
    const cur = Array.isArray(next.linked_services) ? next.linked_services : [];
    for (const ls of wanted) {
      let entry = cur.find((e) => e.service_id === ls.service_id);
      if (!entry) {
        entry = { service_id: ls.service_id, linked_kpi_ids: [] };
        cur.push(entry);
      }
      for (const k of ls.linked_kpi_ids) if (!entry.linked_kpi_ids.includes(k)) entry.linked_kpi_ids.push(k);
      add(ls.service_id, ls.linked_kpi_ids);
    }
    next.linked_services = cur;
    save(ctx, next, w);
  }
  return { services: [...linked.entries()].map(([k, ids]) => ({ _key: k, kpi_ids: ids })) };
}

function disconnect(ctx, id) {
  const q = windowIdParam(ctx);
  const winKeys = [...new Set([id, ...(q ? [q] : [])])];
  const windows = winKeys.map((k) => writableWindow(ctx, k));
  const out = [];
  for (const w of windows) {
    for (const ls of w.linked_services || []) {
      out.push({ service_id: ls.service_id, linked_kpi_ids: [...(ls.linked_kpi_ids || [])] });
    }
    const next = clone(w);
    next.linked_services = [];
    next.overlapping_kpis = [];
    save(ctx, next, w);
  }
  return { service_kpis_dict: out };
}

function stop(ctx, id) {
  const w = writableWindow(ctx, id);
  if (String(w.status).toLowerCase() !== 'active') {
    throw bad(`Only an active window can be stopped; this window is ${String(w.status).toLowerCase()}`);
  }
  const next = clone(w);
  next.status = 'stopped';
  next.last_stopped_time = epochFloat(nowMicros());
  const saved = save(ctx, next, w);
  return decorate(T, saved, ctx);
}
