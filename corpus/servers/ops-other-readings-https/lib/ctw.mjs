// Custom threshold windows: object hooks and the special endpoints under
// itoa_interface/custom_threshold_windows/.
import {
  bad,
  notFound,
  forbidden,
  conflict,
  methodNotAllowed,
  isPlainObject,
  clone,
  qp,
  intParam,
  toEpochNumber,
  nowMicros,
  epochSeconds,
  HttpError,
} from './util.mjs';
import { canRead, canWrite, isAdmin } from './access.mjs';
import { core, stamp } from './store.mjs';
import { bug } from './bugs.mjs';

const CTW_SCHEMA = [
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
  'is_overlapping',
  'overlapping_kpis',
  'linked_services',
  'sec_grp_list',
];

function linkedPairs(w) {
  const out = [];
  for (const ls of Array.isArray(w.linked_services) ? w.linked_services : []) {
    for (const k of ls.linked_kpi_ids || []) out.push([ls.service_id, k]);
  }
  return out;
}

export const hooks = {
  schema: CTW_SCHEMA,
  normalize(doc, _ctx, _existing) {
    for (const f of ['start_time', 'end_time', 'last_stopped_time']) {
      if (doc[f] !== undefined && doc[f] !== null) doc[f] = toEpochNumber(doc[f], f);
    }
    for (const f of ['duration', 'window_config_percentage']) {
      if (doc[f] !== undefined && doc[f] !== null) doc[f] = toEpochNumber(doc[f], f);
    }
    if (doc.status === undefined || doc.status === null) {
      const now = Date.now() / 1000;
      doc.status = typeof doc.start_time === 'number' && doc.start_time > now ? 'scheduled' : 'active';
    }
    if (typeof doc.status !== 'string') throw bad("Field 'status' must be a string");
    doc.status = doc.status.toLowerCase();
    if ('linked_services' in doc) {
      if (!Array.isArray(doc.linked_services)) throw bad("Field 'linked_services' must be an array");
      for (const ls of doc.linked_services) {
        if (
          !isPlainObject(ls) ||
          typeof ls.service_id !== 'string' ||
          !Array.isArray(ls.linked_kpi_ids) ||
          !ls.linked_kpi_ids.every((x) => typeof x === 'string')
        ) {
          throw bad('Each linked_services entry must be {service_id, linked_kpi_ids: [string]}');
        }
      }
    } else doc.linked_services = [];
    if (doc.sec_grp_list !== undefined && (!Array.isArray(doc.sec_grp_list) || !doc.sec_grp_list.every((x) => typeof x === 'string'))) {
      throw bad("Field 'sec_grp_list' must be an array of strings");
    }
    if (!Array.isArray(doc.sec_grp_list)) doc.sec_grp_list = [doc.sec_grp];
    for (const f of ['can_view', 'can_link', 'can_edit', 'can_transition', 'is_overlapping', 'overlapping_kpis']) delete doc[f];
  },
  view(doc, ctx) {
    const v = clone(doc);
    if (typeof v.status === 'string') v.status = v.status.toLowerCase();
    const mine = new Set(linkedPairs(doc).map((p) => p[1]));
    const overlapping = new Set();
    for (const o of core.custom_threshold_windows.all()) {
      if (o._key === doc._key || String(o.status).toLowerCase() !== 'active') continue;
      for (const [, k] of linkedPairs(o)) if (mine.has(k)) overlapping.add(k);
    }
    v.overlapping_kpis = [...overlapping];
    v.is_overlapping = overlapping.size > 0;
    v.recurrence = Boolean(v.recurrence);
    const u = ctx.user;
    v.can_view = canRead(u, doc.sec_grp);
    v.can_edit = canWrite(u, doc.sec_grp);
    v.can_link = canWrite(u, doc.sec_grp) && canRead(u, 'default_ops_security_group');
    v.can_transition = canWrite(u, doc.sec_grp) && v.status === 'active';
    return v;
  },
};

export function unlinkService(serviceKey) {
  for (const w of core.custom_threshold_windows.all()) {
    const before = JSON.stringify(w.linked_services || []);
    w.linked_services = (w.linked_services || []).filter((ls) => ls.service_id !== serviceKey);
    if (JSON.stringify(w.linked_services) !== before) core.custom_threshold_windows.put(w._key, w);
  }
}

function findKpi(kpiKey) {
  for (const s of core.service.all()) for (const k of s.kpis || []) if (k._key === kpiKey) return [s, k];
  return null;
}
function readableWindow(ctx, key) {
  const w = core.custom_threshold_windows.get(key);
  return w && canRead(ctx.user, w.sec_grp) ? w : null;
}
function windowKeysFromPayload(body) {
  if (body === undefined || body === null) return [];
  if (typeof body === 'string')
    return body
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
  if (Array.isArray(body))
    return body.flatMap((x) => (typeof x === 'string' ? [x] : isPlainObject(x) && typeof x._key === 'string' ? [x._key] : []));
  if (isPlainObject(body)) {
    const out = [];
    for (const f of ['_key', 'ctw_id', 'key']) if (typeof body[f] === 'string') out.push(body[f]);
    for (const f of ['_keys', 'keys', 'ctw_ids', 'ids'])
      if (Array.isArray(body[f])) out.push(...body[f].filter((x) => typeof x === 'string'));
    return out;
  }
  return [];
}

function addLink(w, serviceId, kpiId) {
  let ls = w.linked_services.find((x) => x.service_id === serviceId);
  if (!ls) {
    ls = { service_id: serviceId, linked_kpi_ids: [] };
    w.linked_services.push(ls);
  }
  if (ls.linked_kpi_ids.includes(kpiId)) return false;
  ls.linked_kpi_ids.push(kpiId);
  return true;
}

function associate(ctx, objectId) {
  const body = ctx.bodyOptional;
  const winKeys = new Set(windowKeysFromPayload(body));
  const ctwId = qp(ctx.q, 'ctw_id');
  if (ctwId !== undefined && ctwId !== '') winKeys.add(ctwId);
  // targets: from the path object (service or KPI) and from a {services: [...]} payload
  const targets = []; // [serviceKey, kpiKey]
  let pathKnown = false;
  if (readableWindow(ctx, objectId)) {
    winKeys.add(objectId);
    pathKnown = true;
  }
  const svc = core.service.get(objectId);
  if (svc && canRead(ctx.user, svc.sec_grp)) {
    pathKnown = true;
    for (const k of svc.kpis || []) targets.push([svc._key, k._key]);
  } else {
    const found = findKpi(objectId);
    if (found && canRead(ctx.user, found[0].sec_grp)) {
      pathKnown = true;
      targets.push([found[0]._key, objectId]);
    }
  }
  if (!pathKnown) throw notFound(`Object '${objectId}' not found`);
  const svcList = isPlainObject(body)
    ? Array.isArray(body.services)
      ? body.services
      : Array.isArray(body.linked_services)
        ? body.linked_services
        : []
    : [];
  for (const e of svcList) {
    if (!isPlainObject(e)) continue;
    const sk = typeof e._key === 'string' ? e._key : e.service_id;
    const ids = Array.isArray(e.kpi_ids) ? e.kpi_ids : Array.isArray(e.linked_kpi_ids) ? e.linked_kpi_ids : [];
    const s = core.service.get(sk);
    if (!s || !canRead(ctx.user, s.sec_grp)) continue;
    for (const id of ids) if ((s.kpis || []).some((k) => k._key === id)) targets.push([sk, id]);
  }
  if (winKeys.size === 0) throw bad('No custom threshold window given (ctw_id or key(s) of the window(s) in the payload)');
  const wins = [...winKeys].map((k) => readableWindow(ctx, k)).filter(Boolean);
  if (!wins.length) throw notFound('Custom threshold window not found');
  for (const w of wins) if (!canWrite(ctx.user, w.sec_grp)) throw forbidden('No write access to the custom threshold window');
  const linked = new Map();
  for (const w of wins) {
    let changed = false;
    for (const [s, k] of targets) {
      if (addLink(w, s, k)) {
        changed = true;
        if (!linked.has(s)) linked.set(s, []);
        if (!linked.get(s).includes(k)) linked.get(s).push(k);
      }
    }
    if (changed) {
      stamp(w, ctx, { keepVersion: true });
      core.custom_threshold_windows.put(w._key, w);
    }
  }
  return { services: [...linked].map(([s, ids]) => ({ _key: s, kpi_ids: ids })) };
}

function disconnect(ctx, objectId) {
  const winKeys = new Set();
  const ctwId = qp(ctx.q, 'ctw_id');
  if (ctwId !== undefined && ctwId !== '') winKeys.add(ctwId);
  let onlyService = null;
  if (readableWindow(ctx, objectId)) winKeys.add(objectId);
  else {
    const s = core.service.get(objectId);
    if (s && canRead(ctx.user, s.sec_grp)) onlyService = s._key;
    else throw notFound(`Object '${objectId}' not found`);
  }
  const wins = [...winKeys].map((k) => readableWindow(ctx, k)).filter(Boolean);
  if (!wins.length) throw notFound('Custom threshold window not found');
  for (const w of wins) if (!canWrite(ctx.user, w.sec_grp)) throw forbidden('No write access to the custom threshold window');
  const removed = new Map();
  for (const w of wins) {
    const keep = [];
    for (const ls of w.linked_services || []) {
      if (onlyService && ls.service_id !== onlyService) {
        keep.push(ls);
        continue;
      }
      if (!removed.has(ls.service_id)) removed.set(ls.service_id, []);
      for (const k of ls.linked_kpi_ids) if (!removed.get(ls.service_id).includes(k)) removed.get(ls.service_id).push(k);
    }
    w.linked_services = keep;
    stamp(w, ctx, { keepVersion: true });
    core.custom_threshold_windows.put(w._key, w);
  }
  return { service_kpis_dict: [...removed].map(([s, ids]) => ({ service_id: s, linked_kpi_ids: ids })) };
}

function linkedKpis(ctx) {
  const ids = [];
  for (const n of ['ctw_id', 'custom_threshold_window_id']) {
    const v = qp(ctx.q, n);
    if (v !== undefined && v !== '') ids.push(v);
  }
  let limit = intParam(ctx.q, 'limit');
  if (limit === 0 && bug('linked_kpis_limit0')) limit = -1;
  const wins = ids.length
    ? ids.map((k) => readableWindow(ctx, k)).filter(Boolean)
    : core.custom_threshold_windows.all().filter((w) => canRead(ctx.user, w.sec_grp));
  const seen = new Set();
  const out = [];
  for (const w of wins) {
    for (const [sk, kk] of linkedPairs(w)) {
      const id = sk + '\u0000' + kk;
      if (seen.has(id)) continue;
      seen.add(id);
      const s = core.service.get(sk);
      const k = s && (s.kpis || []).find((x) => x._key === kk);
      out.push({ kpi_key: kk, kpi_title: k ? k.title : '', service_title: s ? s.title : '', service_key: sk });
    }
  }
  const count = out.length;
  let rows = out;
  if (limit === -1) rows = [];
  else if (limit !== undefined && limit > 0) rows = out.slice(0, limit);
  return { linked_kpis: rows, count };
}

function stop(ctx, key) {
  const w = readableWindow(ctx, key);
  if (!w) throw notFound(`Custom threshold window '${key}' not found`);
  if (!canWrite(ctx.user, w.sec_grp)) throw forbidden('No write access to the custom threshold window');
  const st = String(w.status).toLowerCase();
  if (st !== 'active') throw conflict(`Only an active window can be stopped; this window is '${st}'`);
  w.status = 'stopped';
  w.last_stopped_time = epochSeconds(nowMicros());
  stamp(w, ctx, { keepVersion: true });
  core.custom_threshold_windows.put(w._key, w);
  return hooks.view(w, ctx);
}

// Returns undefined when the path is an ordinary object path handled by the core router.
export function route(ctx, rest) {
  const m = ctx.method;
  if (rest.length === 1 && rest[0] === 'linked_kpis') {
    if (m !== 'GET') throw methodNotAllowed(['GET']);
    return linkedKpis(ctx);
  }
  if (rest.length === 2) {
    const [id, op] = rest;
    if (op === 'associate_service_kpi') {
      if (m !== 'POST') throw methodNotAllowed(['POST']);
      return associate(ctx, id);
    }
    if (op === 'disconnect_kpis') {
      if (m !== 'POST') throw methodNotAllowed(['POST']);
      return disconnect(ctx, id);
    }
    if (op === 'stop') {
      if (m !== 'POST') throw methodNotAllowed(['POST']);
      return stop(ctx, id);
    }
  }
  return undefined;
}
export { HttpError, isAdmin };
