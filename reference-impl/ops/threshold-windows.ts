import { route, type Route } from '../http/router';
import type { ApiResponse } from '../http/types';
import type { Doc } from './config';
import type { OpsCtx, OpsRouteFn } from './context';
import { coreRules } from './core';
import { badRequest } from './errors';
import { isPlainObject, isStringArray, optionalObjectBody } from './input';
import { noSuchObject, readableObject, writeObject } from './objects';
import { ITOA } from './paths';
import { intParam } from './query';

const TYPE = 'custom_threshold_windows';
const BASE = `${ITOA}/${TYPE}`;

interface ServiceLink {
  service_id: string;
  linked_kpi_ids: string[];
}

function linksOf(window: Doc): ServiceLink[] {
  if (!Array.isArray(window.linked_services)) return [];
  return window.linked_services.filter(
    (l): l is ServiceLink => isPlainObject(l) && typeof l.service_id === 'string' && isStringArray(l.linked_kpi_ids),
  );
}

/** The window a call is about: the `ctw_id` query parameter when given, else the path's object ID. */
function targetWindow(ctx: OpsCtx, pathId: string | undefined): { ok: true; window: Doc } | { ok: false; error: ApiResponse } {
  const id = ctx.req.query.get('ctw_id') || ctx.req.query.get('custom_threshold_window_id') || pathId;
  if (id === undefined || id === null || id === '') {
    return { ok: false, error: badRequest('ctw_id (or custom_threshold_window_id) is required') };
  }
  const window = readableObject(ctx, TYPE, id);
  return window === undefined ? { ok: false, error: noSuchObject(TYPE, id) } : { ok: true, window };
}

function save(ctx: OpsCtx, window: Doc, changes: Doc): Doc | string {
  return writeObject(ctx, coreRules(TYPE)!, { ...window, ...changes }, window);
}

function kpiIdsOf(service: Doc): Set<string> {
  const ids = new Set<string>();
  if (Array.isArray(service.kpis)) for (const k of service.kpis) if (isPlainObject(k) && typeof k._key === 'string') ids.add(k._key);
  return ids;
}

function associate(ctx: OpsCtx): ApiResponse {
  const target = targetWindow(ctx, ctx.params.id);
  if (!target.ok) return target.error;
  const body = optionalObjectBody(ctx.req);
  if (!body.ok) return body.error;
  const requested = body.value.services;
  if (!Array.isArray(requested) || requested.length === 0) {
    return badRequest('services must be a non-empty array of {_key, kpi_ids}');
  }
  const links = linksOf(target.window).map((l) => ({ ...l, linked_kpi_ids: [...l.linked_kpi_ids] }));
  const linkedNow: { _key: string; kpi_ids: string[] }[] = [];
  for (const [i, entry] of requested.entries()) {
    if (!isPlainObject(entry) || typeof entry._key !== 'string' || !isStringArray(entry.kpi_ids)) {
      return badRequest(`services[${i}] must be {_key: string, kpi_ids: [string]}`);
    }
    const service = readableObject(ctx, 'service', entry._key);
    if (service === undefined) return noSuchObject('service', entry._key);
    const known = kpiIdsOf(service);
    const unknown = entry.kpi_ids.find((id) => !known.has(id));
    if (unknown !== undefined) return badRequest(`Service "${entry._key}" has no KPI "${unknown}"`);
    let link = links.find((l) => l.service_id === entry._key);
    if (link === undefined) {
      link = { service_id: entry._key, linked_kpi_ids: [] };
      links.push(link);
    }
    for (const id of entry.kpi_ids) if (!link.linked_kpi_ids.includes(id)) link.linked_kpi_ids.push(id);
    linkedNow.push({ _key: entry._key, kpi_ids: [...new Set(entry.kpi_ids)] });
  }
  const saved = save(ctx, target.window, { linked_services: links });
  if (typeof saved === 'string') return badRequest(saved);
  return { status: 200, body: { services: linkedNow } };
}

function disconnect(ctx: OpsCtx): ApiResponse {
  const target = targetWindow(ctx, ctx.params.id);
  if (!target.ok) return target.error;
  const removed = linksOf(target.window);
  const saved = save(ctx, target.window, { linked_services: [] });
  if (typeof saved === 'string') return badRequest(saved);
  return { status: 200, body: { service_kpis_dict: removed } };
}

function linkedKpis(ctx: OpsCtx): ApiResponse {
  const target = targetWindow(ctx, undefined);
  if (!target.ok) return target.error;
  const limit = intParam(ctx.req.query, 'limit');
  if (!limit.ok) return limit.error;
  const offset = intParam(ctx.req.query, 'offset');
  if (!offset.ok) return offset.error;
  const rows: Doc[] = [];
  for (const link of linksOf(target.window)) {
    const service = readableObject(ctx, 'service', link.service_id);
    if (service === undefined) continue;
    const kpis = Array.isArray(service.kpis) ? service.kpis.filter(isPlainObject) : [];
    for (const id of link.linked_kpi_ids) {
      const kpi = kpis.find((k) => k._key === id);
      rows.push({ kpi_key: id, kpi_title: kpi?.title ?? '', service_title: service.title, service_key: link.service_id });
    }
  }
  const start = offset.value ?? 0;
  const end = limit.value === undefined || limit.value === 0 ? undefined : start + limit.value;
  return { status: 200, body: { linked_kpis: rows.slice(start, end), count: rows.length } };
}

function stop(ctx: OpsCtx): ApiResponse {
  const target = targetWindow(ctx, ctx.params.id);
  if (!target.ok) return target.error;
  const status = typeof target.window.status === 'string' ? target.window.status.toLowerCase() : '';
  // Stopping a stopped window changes nothing: the answer is the window as it is.
  if (status === 'stopped') return { status: 200, body: target.window };
  const saved = save(ctx, target.window, {
    status: 'stopped',
    last_stopped_time: Math.floor(ctx.state.clock.now() / 1000),
  });
  if (typeof saved === 'string') return badRequest(saved);
  return { status: 200, body: saved };
}

export const thresholdWindowRoutes: Route<OpsRouteFn>[] = [
  route('POST', `${BASE}/:id/associate_service_kpi`, associate),
  route('POST', `${BASE}/:id/disconnect_kpis`, disconnect),
  route('GET', `${BASE}/linked_kpis`, linkedKpis),
  route('POST', `${BASE}/:id/stop`, stop),
];
