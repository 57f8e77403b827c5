// Custom threshold windows: linking KPIs, disconnecting them, the linked-KPI list and stop.
import { bug } from './bugs.mjs';
import { checkWrite, findReadable, output, readable } from './crud.mjs';
import { clone, intParam, isPlainObject, notFound } from './http.mjs';
import { coreKind } from './kinds.mjs';
import { collection } from './store.mjs';
import { epoch, isoStamp, modTime } from './time.mjs';

const kind = () => coreKind('custom_threshold_windows');

/** Service/KPI pairs from any of the shapes a client may send. */
function serviceSpecs(body) {
  const items = Array.isArray(body)
    ? body
    : isPlainObject(body)
      ? (body.services ?? body.linked_services ?? body.service_kpis_dict ?? [])
      : [];
  const out = [];
  for (const it of Array.isArray(items) ? items : []) {
    if (!isPlainObject(it)) continue;
    const service = it._key ?? it.service_id ?? it.service_key;
    const kpis = it.kpi_ids ?? it.linked_kpi_ids ?? it.kpis ?? [];
    if (service === undefined) continue;
    out.push({ service_id: String(service), linked_kpi_ids: (Array.isArray(kpis) ? kpis : [kpis]).map(String) });
  }
  return out;
}

function windowKeys(id, q, body) {
  const keys = new Set();
  if (id) keys.add(String(id));
  if (q.get('ctw_id')) for (const k of q.get('ctw_id').split(',')) if (k.trim()) keys.add(k.trim());
  const fromBody =
    typeof body === 'string'
      ? [body]
      : Array.isArray(body)
        ? body.filter((x) => typeof x === 'string')
        : isPlainObject(body)
          ? [].concat(body.ctw_id ?? body.ctw_ids ?? body.keys ?? [])
          : [];
  for (const k of fromBody) keys.add(String(k));
  return [...keys];
}

function mergeLinks(current, specs) {
  const map = new Map();
  for (const s of Array.isArray(current) ? current : []) {
    if (isPlainObject(s)) map.set(String(s.service_id), new Set((s.linked_kpi_ids || []).map(String)));
  }
  for (const s of specs) {
    const set = map.get(s.service_id) || new Set();
    for (const k of s.linked_kpi_ids) set.add(k);
    map.set(s.service_id, set);
  }
  return [...map].map(([service_id, set]) => ({ service_id, linked_kpi_ids: [...set] }));
}

function touch(row, user) {
  row.mod_timestamp = isoStamp();
  row.mod_time = modTime();
  row.mod_by = user.name;
}

export function associate(user, id, q, body) {
  const k = kind();
  const specs = serviceSpecs(body);
  const linked = new Map();
  for (const key of windowKeys(id, q, body)) {
    const row = findReadable(k, user, key);
    checkWrite(k, user, row);
    const use = specs.length ? specs : serviceSpecs(clone(row.linked_services));
    row.linked_services = mergeLinks(row.linked_services, use);
    touch(row, user);
    for (const s of use) {
      const set = linked.get(s.service_id) || new Set();
      for (const kpi of s.linked_kpi_ids) set.add(kpi);
      linked.set(s.service_id, set);
    }
  }
  return { services: [...linked].map(([_key, set]) => ({ _key, kpi_ids: [...set] })) };
}

export function disconnect(user, id, q, body) {
  const k = kind();
  const specs = serviceSpecs(body);
  const removed = [];
  for (const key of windowKeys(id, q, undefined)) {
    const row = findReadable(k, user, key);
    checkWrite(k, user, row);
    const current = serviceSpecs(clone(row.linked_services));
    if (!specs.length) {
      removed.push(...current);
      row.linked_services = [];
    } else {
      const keep = [];
      for (const c of current) {
        const spec = specs.find((s) => s.service_id === c.service_id);
        if (!spec) {
          keep.push(c);
          continue;
        }
        const drop = spec.linked_kpi_ids.length ? c.linked_kpi_ids.filter((x) => spec.linked_kpi_ids.includes(x)) : c.linked_kpi_ids;
        const rest = c.linked_kpi_ids.filter((x) => !drop.includes(x));
        if (drop.length) removed.push({ service_id: c.service_id, linked_kpi_ids: drop });
        if (rest.length) keep.push({ service_id: c.service_id, linked_kpi_ids: rest });
      }
      row.linked_services = keep;
    }
    touch(row, user);
  }
  return { service_kpis_dict: removed };
}

export function linkedKpis(user, q) {
  const k = kind();
  const id = q.get('ctw_id') || q.get('custom_threshold_window_id') || q.get('_key');
  let rows;
  if (id) {
    rows = id
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean)
      .map((key) => findReadable(k, user, key));
  } else rows = k.coll.all().filter((r) => readable(k, user, r));
  const services = collection('itoa', 'service');
  const list = [];
  for (const row of rows) {
    for (const s of serviceSpecs(row.linked_services)) {
      const svc = services.get(s.service_id);
      for (const kpiKey of s.linked_kpi_ids) {
        const kpi = Array.isArray(svc?.kpis) ? svc.kpis.find((x) => x?._key === kpiKey) : undefined;
        list.push({ kpi_key: kpiKey, kpi_title: kpi?.title ?? null, service_title: svc?.title ?? null, service_key: s.service_id });
      }
    }
  }
  let limit = intParam(q.get('limit') ?? q.get('count'));
  if (limit !== undefined && limit < 0) limit = undefined;
  let page = list;
  if (limit === 0 && bug('linked-kpis-limit-zero-empty')) page = [];
  else if (limit !== undefined && limit > 0) page = list.slice(0, limit);
  return { linked_kpis: page, count: list.length };
}

export function stopWindow(user, id) {
  const k = kind();
  const row = k.coll.get(id);
  if (!row || !readable(k, user, row)) throw notFound(`custom_threshold_windows ${id}`);
  checkWrite(k, user, row);
  const already = typeof row.status === 'string' && row.status.toLowerCase() === 'stopped';
  if (!already) {
    row.status = 'stopped';
    if (!bug('stop-no-timestamp')) row.last_stopped_time = epoch();
    touch(row, user);
  } else if (row.last_stopped_time === undefined && !bug('stop-no-timestamp')) row.last_stopped_time = epoch();
  return output(k, user, row);
}
