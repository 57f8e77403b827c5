// Custom threshold windows: the collection plus associate/disconnect/linked_kpis/stop.
import { GLOBAL_TEAM, bad, conflict, notAllowed, clone, isObj, isStr, isStrArray, nowMicro, epochSeconds, intParam } from './util.mjs';
import { Collection, db } from './store.mjs';
import { requireWriter } from './auth.mjs';

const STATUSES = ['active', 'stopped'];

const ctw = new Collection({
  name: 'custom_threshold_windows',
  extraServer: ['last_stopped_time', 'can_view', 'can_link', 'can_edit', 'can_transition'],
  schemaFields: [
    'pause_description',
    'status',
    'window_type',
    'window_config_percentage',
    'window_config_static',
    'start_time',
    'end_time',
    'next_scheduled_time',
    'cron_schedule',
    'duration',
    'recurrence',
    'is_overlapping',
    'overlapping_kpis',
    'linked_services',
    'sec_grp_list',
  ],
  teamsOf: (o) => [o.sec_grp || GLOBAL_TEAM, ...(Array.isArray(o.sec_grp_list) ? o.sec_grp_list : [])],
  validate(o, _ctx, old) {
    if (o.status !== undefined) {
      if (!isStr(o.status) || !STATUSES.includes(o.status.toLowerCase())) throw bad('Field "status" must be Active or Stopped');
      if (old && o.status.toLowerCase() !== old.status) throw bad('The status of a window changes only through POST <object ID>/stop');
    }
    for (const f of ['window_type', 'pause_description', 'next_scheduled_time', 'cron_schedule']) {
      if (o[f] !== undefined && !isStr(o[f])) throw bad(`Field "${f}" must be a string`);
    }
    for (const f of ['window_config_percentage', 'start_time', 'end_time', 'duration']) {
      if (o[f] !== undefined && (typeof o[f] !== 'number' || !Number.isFinite(o[f]))) throw bad(`Field "${f}" must be a number`);
    }
    if (typeof o.start_time === 'number' && typeof o.end_time === 'number' && o.end_time < o.start_time)
      throw bad('end_time is before start_time');
    for (const f of ['recurrence', 'is_overlapping'])
      if (o[f] !== undefined && typeof o[f] !== 'boolean') throw bad(`Field "${f}" must be a boolean`);
    if (o.window_config_static !== undefined && !isObj(o.window_config_static)) throw bad('Field "window_config_static" must be an object');
    if (o.overlapping_kpis !== undefined && !Array.isArray(o.overlapping_kpis)) throw bad('Field "overlapping_kpis" must be an array');
    if (o.linked_services !== undefined) {
      if (
        !Array.isArray(o.linked_services) ||
        !o.linked_services.every((l) => isObj(l) && isStr(l.service_id) && isStrArray(l.linked_kpi_ids ?? []))
      ) {
        throw bad('Field "linked_services" must be an array of {service_id, linked_kpi_ids: [string]}');
      }
    }
    if (o.sec_grp_list !== undefined) {
      if (!isStrArray(o.sec_grp_list)) throw bad('Field "sec_grp_list" must be an array of strings');
      for (const t of o.sec_grp_list) if (!db.team.map.has(t)) throw bad(`Unknown team "${t}" in sec_grp_list`);
    }
  },
  normalize(o, _ctx, old) {
    o.status = isStr(o.status) ? o.status.toLowerCase() : old ? old.status : 'active';
    if (old && old.last_stopped_time !== undefined) o.last_stopped_time = old.last_stopped_time;
    if (!Array.isArray(o.linked_services)) o.linked_services = [];
    o.linked_services = o.linked_services.map((l) => ({ service_id: l.service_id, linked_kpi_ids: [...(l.linked_kpi_ids || [])] }));
    if (!Array.isArray(o.sec_grp_list)) o.sec_grp_list = [o.sec_grp || GLOBAL_TEAM];
    if (!Array.isArray(o.overlapping_kpis)) o.overlapping_kpis = [];
    if (typeof o.is_overlapping !== 'boolean') o.is_overlapping = false;
    if (typeof o.recurrence !== 'boolean') o.recurrence = false;
  },
  decorate(o, ctx, raw) {
    const w = ctw.writable(ctx, raw);
    o.can_view = true;
    o.can_link = w;
    o.can_edit = w;
    o.can_transition = w && raw.status === 'active';
    return o;
  },
});

function windowFor(ctx, pathId, q, write) {
  let id = pathId;
  if (q.has('ctw_id')) {
    const p = q.get('ctw_id').trim();
    if (id !== undefined && p !== id) throw bad('ctw_id does not match the window in the path');
    id = p;
  }
  const w = ctw.get(ctx, id);
  if (write) ctw.assertWritable(ctx, w);
  return w;
}

function resolvedLinks(ctx, w) {
  const out = [];
  for (const l of w.linked_services || []) {
    const s = db.service.raw(l.service_id);
    if (!s || !db.service.readable(ctx, s)) continue;
    const kpis = (l.linked_kpi_ids || []).map((k) => (s.kpis || []).find((x) => x._key === k)).filter(Boolean);
    out.push({ service: s, kpis });
  }
  return out;
}

function payloadKeys(body, fallback) {
  if (body === undefined || body === null || body === '') return [fallback];
  if (isStr(body))
    return body
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
  if (isStrArray(body)) return body.length ? body : [fallback];
  if (isObj(body)) {
    if (isStr(body._key)) return [body._key];
    for (const f of ['_keys', 'keys', 'ctw_ids', 'data']) if (isStrArray(body[f])) return body[f].length ? body[f] : [fallback];
  }
  throw bad('Payload must be the key(s) of the window(s): a string, an array of strings or {"_key": ...}');
}

function associate(ctx, pathId, q) {
  requireWriter(ctx.user);
  const w0 = windowFor(ctx, pathId, q, true);
  const keys = [...new Set(payloadKeys(ctx.json(), w0._key))];
  const wins = keys.map((k) => {
    const w = ctw.get(ctx, k);
    ctw.assertWritable(ctx, w);
    return w;
  });
  const merged = new Map();
  for (const w of wins) {
    const links = resolvedLinks(ctx, w);
    const cand = clone(w);
    cand.linked_services = links.map(({ service, kpis }) => ({ service_id: service._key, linked_kpi_ids: kpis.map((k) => k._key) }));
    ctw.stamp(ctx, cand, w);
    ctw.map.set(cand._key, cand);
    for (const { service, kpis } of links) {
      if (!merged.has(service._key)) merged.set(service._key, new Set());
      for (const k of kpis) merged.get(service._key).add(k._key);
    }
  }
  return { services: [...merged].map(([k, set]) => ({ _key: k, kpi_ids: [...set] })) };
}

function disconnect(ctx, pathId, q) {
  requireWriter(ctx.user);
  const w = windowFor(ctx, pathId, q, true);
  const removed = (w.linked_services || []).map((l) => ({ service_id: l.service_id, linked_kpi_ids: [...(l.linked_kpi_ids || [])] }));
  const cand = clone(w);
  cand.linked_services = [];
  ctw.stamp(ctx, cand, w);
  ctw.map.set(cand._key, cand);
  return { service_kpis_dict: removed };
}

function linkedKpis(ctx, q) {
  const a = q.has('ctw_id') ? q.get('ctw_id').trim() : undefined;
  const b = q.has('custom_threshold_window_id') ? q.get('custom_threshold_window_id').trim() : undefined;
  if (a !== undefined && b !== undefined && a !== b) throw bad('ctw_id and custom_threshold_window_id name different windows');
  const id = a ?? b;
  if (!id) throw bad('Parameter ctw_id (or custom_threshold_window_id) is required');
  const w = ctw.get(ctx, id);
  const limit = intParam(q, 'limit');
  const rows = [];
  for (const { service, kpis } of resolvedLinks(ctx, w)) {
    for (const k of kpis) rows.push({ kpi_key: k._key, kpi_title: k.title, service_title: service.title, service_key: service._key });
  }
  const shown = limit ? rows.slice(0, limit) : rows; // limit unset or 0: all
  return { linked_kpis: shown, count: rows.length };
}

function stop(ctx, pathId) {
  requireWriter(ctx.user);
  const w = ctw.get(ctx, pathId);
  ctw.assertWritable(ctx, w);
  if (w.status !== 'active') throw conflict(`Window is ${w.status}; only an active window can be stopped`);
  const cand = clone(w);
  cand.status = 'stopped';
  cand.last_stopped_time = epochSeconds(nowMicro());
  ctw.stamp(ctx, cand, w);
  ctw.map.set(cand._key, cand);
  return ctw.out(ctx, cand);
}

// returns undefined when the path is an ordinary CRUD path
export function ctwRoutes(ctx, method, segs, q) {
  if (segs.length === 1 && segs[0] === 'linked_kpis') {
    if (method !== 'GET') throw notAllowed(['GET']);
    return linkedKpis(ctx, q);
  }
  if (segs.length === 2 && ['associate_service_kpi', 'disconnect_kpis', 'stop'].includes(segs[1])) {
    if (method !== 'POST') throw notAllowed(['POST']);
    if (segs[1] === 'associate_service_kpi') return associate(ctx, segs[0], q);
    if (segs[1] === 'disconnect_kpis') return disconnect(ctx, segs[0], q);
    return stop(ctx, segs[0]);
  }
  return undefined;
}
