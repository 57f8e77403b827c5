// Custom threshold windows: the object type plus stop, associate_service_kpi, disconnect_kpis, linked_kpis.

import {
  badRequest,
  byMethod,
  intParam,
  isPlainObject,
  jsonBody,
  notFound,
  ok,
  requireWrite,
  type Ctx,
  type Doc,
  type Reply,
} from './ops-http.js';
import { findReadable, presentDoc, type KindSpec, type WriteMode } from './ops-objects.js';
import { canRead, epochSeconds, isoTimestamp, permissionsFor, type Rec } from './ops-store.js';

const CTW_COLL = 'itoa:custom_threshold_windows';
const SERVICE_COLL = 'itoa:service';

interface Link {
  service_id: string;
  linked_kpi_ids: string[];
}

function capitalize(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

function optionalNumber(doc: Doc, field: string): void {
  if (doc[field] === undefined || doc[field] === null) return;
  if (typeof doc[field] !== 'number' || !Number.isFinite(doc[field])) throw badRequest(`Field "${field}" must be a number (epoch seconds)`);
}

function parseLinks(v: unknown, field: string): Link[] {
  if (!Array.isArray(v)) throw badRequest(`Field "${field}" must be an array`);
  return v.map((x) => {
    if (!isPlainObject(x) || typeof x.service_id !== 'string' || !Array.isArray(x.linked_kpi_ids)) {
      throw badRequest(`Every entry of "${field}" must be {service_id, linked_kpi_ids}`);
    }
    return { service_id: x.service_id, linked_kpi_ids: x.linked_kpi_ids.map(String) };
  });
}

export const ctwSpec: KindSpec = {
  type: 'custom_threshold_windows',
  coll: CTW_COLL,
  required: ['title'],
  prepare(_ctx: Ctx, doc: Doc, prev: Doc | undefined, _meta: Doc, _mode: WriteMode, body: Doc) {
    doc.status = typeof body.status === 'string' && body.status !== '' ? body.status.toLowerCase() : String(prev?.status ?? 'active');
    if (typeof doc.window_type !== 'string') doc.window_type = 'percentage';
    if (doc.window_type === 'percentage' && doc.window_config_percentage === undefined) doc.window_config_percentage = 0;
    optionalNumber(doc, 'window_config_percentage');
    if (!isPlainObject(doc.window_config_static)) doc.window_config_static = {};
    for (const f of ['start_time', 'end_time', 'duration']) optionalNumber(doc, f);
    const timed = typeof doc.start_time === 'number' && typeof doc.end_time === 'number';
    if (timed && (doc.end_time as number) <= (doc.start_time as number)) throw badRequest('end_time must be later than start_time');
    if (doc.duration === undefined || doc.duration === null)
      doc.duration = timed ? (doc.end_time as number) - (doc.start_time as number) : 0;
    for (const f of ['description', 'pause_description', 'cron_schedule', 'next_scheduled_time']) if (doc[f] === undefined) doc[f] = '';
    if (typeof doc.recurrence !== 'boolean') doc.recurrence = Boolean(doc.recurrence);
    doc.linked_services =
      body.linked_services !== undefined ? parseLinks(body.linked_services, 'linked_services') : (prev?.linked_services ?? []);
    if (prev?.last_stopped_time !== undefined) doc.last_stopped_time = prev.last_stopped_time;
    else delete doc.last_stopped_time;
    doc.is_overlapping = false;
    doc.overlapping_kpis = [];
    doc.sec_grp_list = [String(doc.sec_grp)];
  },
  present(ctx: Ctx, doc: Doc) {
    doc.permissions = permissionsFor(ctx.user);
    doc.can_view = true;
    doc.can_link = ctx.user.write;
    doc.can_edit = ctx.user.write;
    doc.can_transition = ctx.user.write;
    if (ctx.bug('ctw-status-capitalized') && typeof doc.status === 'string') doc.status = capitalize(doc.status);
    return doc;
  },
  afterWrite(ctx: Ctx) {
    recomputeOverlaps(ctx);
  },
  afterDelete(ctx: Ctx) {
    recomputeOverlaps(ctx);
  },
};

function recomputeOverlaps(ctx: Ctx): void {
  const live = ctx.store
    .coll(CTW_COLL)
    .all()
    .filter((r) => r.doc.status !== 'stopped');
  const owners = new Map<string, number>();
  for (const r of live) for (const id of kpiIdsOf(r.doc)) owners.set(id, (owners.get(id) ?? 0) + 1);
  for (const r of ctx.store.coll(CTW_COLL).all()) {
    const overlapping = r.doc.status === 'stopped' ? [] : kpiIdsOf(r.doc).filter((id) => (owners.get(id) ?? 0) > 1);
    r.doc.overlapping_kpis = overlapping;
    r.doc.is_overlapping = overlapping.length > 0;
  }
}

function kpiIdsOf(doc: Doc): string[] {
  return (doc.linked_services as Link[]).flatMap((l) => l.linked_kpi_ids);
}

function splitIds(v: unknown): string[] {
  if (Array.isArray(v)) return v.map(String);
  if (typeof v !== 'string' || v.trim() === '') return [];
  const t = v.trim();
  if (t.startsWith('[')) {
    try {
      const arr = JSON.parse(t) as unknown;
      if (Array.isArray(arr)) return arr.map(String);
    } catch {
      /* fall through to comma splitting */
    }
  }
  return t
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

/** Windows addressed by the path, the ctw_id parameter or the payload. */
function windows(ctx: Ctx, pathKey: string | undefined, body: unknown): Rec[] {
  const keys = new Set<string>();
  if (pathKey) keys.add(pathKey);
  for (const name of ['ctw_id', 'custom_threshold_window_id']) for (const k of splitIds(ctx.query.get(name) ?? '')) keys.add(k);
  if (typeof body === 'string' || Array.isArray(body)) for (const k of splitIds(body)) keys.add(k);
  if (isPlainObject(body)) for (const f of ['ctw_id', 'ctw_ids', '_key', 'keys']) for (const k of splitIds(body[f])) keys.add(k);
  if (keys.size === 0) throw badRequest('Missing ctw_id: the key of a custom threshold window is required');
  return [...keys].map((k) => findReadable(ctx, ctwSpec, k));
}

interface Wanted {
  service: string;
  kpis: string[];
}

function wantedKpis(body: unknown): Wanted[] | undefined {
  if (!isPlainObject(body)) return undefined;
  if (Array.isArray(body.services)) {
    return body.services
      .filter(isPlainObject)
      .map((s) => ({ service: String(s._key ?? s.service_id ?? ''), kpis: splitIds(s.kpi_ids ?? s.linked_kpi_ids) }));
  }
  if (Array.isArray(body.linked_services)) {
    return body.linked_services
      .filter(isPlainObject)
      .map((s) => ({ service: String(s.service_id ?? s._key ?? ''), kpis: splitIds(s.linked_kpi_ids ?? s.kpi_ids) }));
  }
  return undefined;
}

function serviceKpis(ctx: Ctx, serviceKey: string): { rec: Rec; kpis: Doc[] } | undefined {
  const rec = ctx.store.coll(SERVICE_COLL).get(serviceKey);
  if (!rec || !canRead(ctx.user, rec.doc)) return undefined;
  return { rec, kpis: (rec.doc.kpis as Doc[]) ?? [] };
}

function touch(doc: Doc): void {
  doc.mod_timestamp = isoTimestamp();
}

function associate(ctx: Ctx, pathKey: string | undefined): Reply {
  requireWrite(ctx);
  const body = jsonBody(ctx);
  const targets = windows(ctx, pathKey, body);
  const wanted = wantedKpis(body);
  if (!wanted || wanted.length === 0) throw badRequest('Payload must list the KPIs to associate as services: [{_key, kpi_ids}]');
  const linked = new Map<string, Set<string>>();
  for (const w of wanted) {
    const svc = serviceKpis(ctx, w.service);
    if (!svc) continue;
    const known = svc.kpis.map((k) => String(k._key));
    const ids = w.kpis.length ? w.kpis.filter((k) => known.includes(k)) : known.filter((k) => !k.startsWith('SHKPI-'));
    if (ids.length === 0) continue;
    const set = linked.get(w.service) ?? new Set<string>();
    for (const i of ids) set.add(i);
    linked.set(w.service, set);
  }
  for (const t of targets) {
    const links = t.doc.linked_services as Link[];
    for (const [service, ids] of linked) {
      let entry = links.find((l) => l.service_id === service);
      if (!entry) links.push((entry = { service_id: service, linked_kpi_ids: [] }));
      for (const id of ids) if (!entry.linked_kpi_ids.includes(id)) entry.linked_kpi_ids.push(id);
    }
    touch(t.doc);
  }
  recomputeOverlaps(ctx);
  return ok({ services: [...linked].map(([service, ids]) => ({ _key: service, kpi_ids: [...ids] })) });
}

function disconnect(ctx: Ctx, pathKey: string | undefined): Reply {
  requireWrite(ctx);
  const body = jsonBody(ctx);
  const targets = windows(ctx, pathKey, body);
  const only = wantedKpis(body);
  const removed = new Map<string, Set<string>>();
  for (const t of targets) {
    const keep: Link[] = [];
    for (const l of t.doc.linked_services as Link[]) {
      const sel = only?.find((w) => w.service === l.service_id);
      const drop = only
        ? sel
          ? sel.kpis.length
            ? l.linked_kpi_ids.filter((k) => sel.kpis.includes(k))
            : l.linked_kpi_ids
          : []
        : l.linked_kpi_ids;
      const rest = l.linked_kpi_ids.filter((k) => !drop.includes(k));
      if (drop.length) {
        const set = removed.get(l.service_id) ?? new Set<string>();
        for (const k of drop) set.add(k);
        removed.set(l.service_id, set);
      }
      if (rest.length) keep.push({ service_id: l.service_id, linked_kpi_ids: rest });
    }
    t.doc.linked_services = keep;
    touch(t.doc);
  }
  recomputeOverlaps(ctx);
  return ok({ service_kpis_dict: [...removed].map(([service_id, ids]) => ({ service_id, linked_kpi_ids: [...ids] })) });
}

function linkedKpis(ctx: Ctx, pathKey: string | undefined): Reply {
  const [win] = windows(ctx, pathKey, undefined);
  const rows: Doc[] = [];
  for (const l of win.doc.linked_services as Link[]) {
    const svc = serviceKpis(ctx, l.service_id);
    if (!svc) continue;
    for (const id of l.linked_kpi_ids) {
      const kpi = svc.kpis.find((k) => k._key === id);
      if (!kpi) continue;
      rows.push({
        kpi_key: id,
        kpi_title: String(kpi.title ?? ''),
        service_title: String(svc.rec.doc.title ?? ''),
        service_key: l.service_id,
      });
    }
  }
  const limit = intParam(ctx, 'limit');
  let page = rows;
  if (limit !== undefined) page = limit === 0 ? (ctx.bug('linked-kpis-limit0-empty') ? [] : rows) : rows.slice(0, limit);
  return ok({ linked_kpis: page, count: rows.length });
}

function stop(ctx: Ctx, pathKey: string | undefined): Reply {
  requireWrite(ctx);
  const [win] = windows(ctx, pathKey, undefined);
  if (win.doc.status === 'stopped') throw badRequest(`Custom threshold window "${String(win.doc._key)}" is already stopped`);
  if (!ctx.bug('ctw-stop-stays-active')) win.doc.status = 'stopped';
  if (!ctx.bug('ctw-stop-no-time')) win.doc.last_stopped_time = Math.floor(epochSeconds());
  touch(win.doc);
  recomputeOverlaps(ctx);
  return ok(presentDoc(ctx, ctwSpec, win.doc));
}

export const CTW_ACTIONS = new Set(['stop', 'associate_service_kpi', 'disconnect_kpis', 'linked_kpis']);

export function handleCtwAction(ctx: Ctx, pathKey: string | undefined, action: string): Reply {
  if (pathKey !== undefined && !ctx.store.coll(CTW_COLL).has(pathKey)) {
    throw notFound(`Custom threshold window "${pathKey}" does not exist`);
  }
  switch (action) {
    case 'stop':
      return byMethod(ctx, { POST: () => stop(ctx, pathKey) });
    case 'associate_service_kpi':
      return byMethod(ctx, { POST: () => associate(ctx, pathKey) });
    case 'disconnect_kpis':
      return byMethod(ctx, { POST: () => disconnect(ctx, pathKey) });
    default:
      return byMethod(ctx, { GET: () => linkedKpis(ctx, pathKey) });
  }
}
