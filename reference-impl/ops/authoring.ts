import { route, type Route } from '../http/router';
import type { ApiResponse } from '../http/types';
import { spacedTimeMicros } from './clock';
import type { Doc } from './config';
import type { OpsCtx, OpsRouteFn } from './context';
import { badRequest } from './errors';
import { isPlainObject, isStringArray } from './input';
import { AUTHORED_PACK_TYPE } from './object-types';
import { type TypeRules, countObjects, createObject, noSuchObject, readableObject, readableObjects, updateObject } from './objects';
import { ITOA } from './paths';
import { listRows, project } from './query';

const BASE = `${ITOA}/content_pack_authorship/content_pack`;

const PACK_STATUSES = ['Draft', 'Queued', 'Generating', 'Generated', 'Failed', 'Incomplete'] as const;

const PLATFORM_KINDS = ['dashboards', 'lookups', 'macros', 'props', 'savedsearches', 'transforms'] as const;

/**
 * Identifiers of an `ops_objects`-like member. Accepts the list form (arrays of ids) and, so a single read can be
 * sent back as an update, the single-read form (arrays of `{id: title}`).
 */
function idMap(value: unknown, member: string): Record<string, string[]> | string {
  if (value === undefined || value === null) return {};
  if (!isPlainObject(value)) return `${member} must map object types to arrays of identifiers`;
  const out: Record<string, string[]> = {};
  for (const [type, entries] of Object.entries(value)) {
    if (!Array.isArray(entries)) return `${member}.${type} must be an array`;
    const ids: string[] = [];
    for (const e of entries) {
      if (typeof e === 'string') ids.push(e);
      else if (isPlainObject(e) && Object.keys(e).length === 1) ids.push(Object.keys(e)[0]!);
      else return `${member}.${type} must hold identifiers`;
    }
    Object.defineProperty(out, type, { value: ids, enumerable: true, writable: true, configurable: true });
  }
  return out;
}

function preparePack(doc: Doc, _previous: Doc | undefined, ctx: OpsCtx): string | undefined {
  doc.status ??= 'Draft';
  if (!(PACK_STATUSES as readonly unknown[]).includes(doc.status)) return `status must be one of ${PACK_STATUSES.join(', ')}`;
  for (const field of ['description', 'overview', 'cp_version']) {
    if (doc[field] !== undefined && typeof doc[field] !== 'string') return `${field} must be a string`;
  }
  const ops = idMap(doc.ops_objects, 'ops_objects');
  if (typeof ops === 'string') return ops;
  doc.ops_objects = ops;
  const platform = idMap(doc.platform_objects, 'platform_objects');
  if (typeof platform === 'string') return platform;
  for (const kind of PLATFORM_KINDS) platform[kind] ??= [];
  doc.platform_objects = platform;
  const selected = doc.user_selected_objects ?? {};
  if (!isPlainObject(selected)) return 'user_selected_objects must be {ops_objects, platform_objects}';
  const selectedOps = idMap(selected.ops_objects, 'user_selected_objects.ops_objects');
  if (typeof selectedOps === 'string') return selectedOps;
  const selectedPlatform = idMap(selected.platform_objects, 'user_selected_objects.platform_objects');
  if (typeof selectedPlatform === 'string') return selectedPlatform;
  doc.user_selected_objects = { ops_objects: selectedOps, platform_objects: selectedPlatform };
  const metadata = doc.metadata ?? {};
  if (!isPlainObject(metadata)) return 'metadata must be {icon, main_screenshot, screenshots}';
  doc.metadata = { icon: null, main_screenshot: {}, screenshots: [], ...metadata };
  doc.mod_time = spacedTimeMicros(ctx.state.lastMicros);
  return undefined;
}

const RULES: TypeRules = { type: AUTHORED_PACK_TYPE, required: ['title'], flavor: 'core', prepare: preparePack };

function counts(map: unknown): Record<string, number> {
  const out: Record<string, number> = {};
  if (isPlainObject(map)) {
    for (const [k, v] of Object.entries(map)) {
      Object.defineProperty(out, k, { value: Array.isArray(v) ? v.length : 0, enumerable: true, writable: true, configurable: true });
    }
  }
  return out;
}

/** The single-read form: each object identifier with its current title. */
function singleRead(ctx: OpsCtx, pack: Doc): Doc {
  const ops: Record<string, Record<string, string>[]> = {};
  if (isPlainObject(pack.ops_objects)) {
    for (const [type, ids] of Object.entries(pack.ops_objects)) {
      if (!isStringArray(ids)) continue;
      const entries = ids.map((id) => {
        const title = ctx.state.store.get(type, id)?.title;
        const entry: Record<string, string> = {};
        Object.defineProperty(entry, id, { value: typeof title === 'string' ? title : id, enumerable: true });
        return entry;
      });
      Object.defineProperty(ops, type, { value: entries, enumerable: true, writable: true, configurable: true });
    }
  }
  return { ...pack, ops_objects: ops };
}

function list(ctx: OpsCtx): ApiResponse {
  const q = ctx.req.query;
  const status = q.get('status');
  if (status !== null && status !== '' && !(PACK_STATUSES as readonly string[]).includes(status)) {
    return badRequest(`status must be one of ${PACK_STATUSES.join(', ')}`);
  }
  const search = (q.get('search') ?? '').toLowerCase();
  const packs = readableObjects(ctx, AUTHORED_PACK_TYPE).filter(
    (p) =>
      (status === null || status === '' || p.status === status) &&
      (search === '' || (typeof p.title === 'string' && p.title.toLowerCase().includes(search))),
  );
  const listed = listRows(packs, q, ctx.state.filters, {
    names: { filter: 'filter', sortKey: 'sort_key', sortDir: 'sort_dir', offset: 'offset', limit: 'count', fields: 'fields' },
    skipProjection: true,
    accepts: ['search'],
  });
  if (!listed.ok) return listed.error;
  const { rows, fields } = listed.value;
  const body = rows.map((p) => {
    if (fields !== undefined) return project(p, fields);
    const metadata = isPlainObject(p.metadata) ? p.metadata : {};
    return {
      ...p,
      icon: metadata.icon ?? null,
      ops_objects_counts: counts(p.ops_objects),
      platform_objects_counts: counts(p.platform_objects),
    };
  });
  return { status: 200, body };
}

function read(ctx: OpsCtx): ApiResponse {
  const pack = readableObject(ctx, AUTHORED_PACK_TYPE, ctx.params.key!);
  if (pack === undefined) return noSuchObject(AUTHORED_PACK_TYPE, ctx.params.key!);
  return { status: 200, body: singleRead(ctx, pack) };
}

function remove(ctx: OpsCtx): ApiResponse {
  const pack = readableObject(ctx, AUTHORED_PACK_TYPE, ctx.params.key!);
  if (pack === undefined) return noSuchObject(AUTHORED_PACK_TYPE, ctx.params.key!);
  const details = singleRead(ctx, pack);
  ctx.state.store.delete(AUTHORED_PACK_TYPE, ctx.params.key!);
  return { status: 200, body: details };
}

export const authoringRoutes: Route<OpsRouteFn>[] = [
  route('GET', BASE, list),
  route('POST', BASE, (ctx) => createObject(ctx, RULES)),
  route('GET', `${BASE}/count`, (ctx) => countObjects(ctx, RULES)),
  route('GET', `${BASE}/:key`, read),
  route('POST', `${BASE}/:key`, (ctx) => updateObject(ctx, RULES, ctx.params.key!)),
  route('PUT', `${BASE}/:key`, (ctx) => updateObject(ctx, RULES, ctx.params.key!)),
  route('DELETE', `${BASE}/:key`, remove),
];
