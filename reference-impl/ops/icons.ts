import { route, type Route } from '../http/router';
import type { ApiResponse } from '../http/types';
import { newKey } from './clock';
import type { Doc } from './config';
import type { OpsCtx, OpsRouteFn } from './context';
import { badRequest, notFound } from './errors';
import { boolParam, isPlainObject, parsedBody, unwrapData } from './input';
import { ICON_COLLECTION } from './object-types';
import { readableObjects } from './objects';
import { ICONS } from './paths';
import { listRows } from './query';

const DELETED = { Deleted: 'True' };

function isImmutable(ctx: OpsCtx, category: unknown): boolean {
  return ctx.state.iconCategories.some((c) => c.name === category && c.immutable === true);
}

function categories(ctx: OpsCtx): Doc[] {
  const out: Doc[] = ctx.state.iconCategories.map((c) => (c.immutable ? { name: c.name, immutable: true } : { name: c.name }));
  const known = new Set(ctx.state.iconCategories.map((c) => c.name));
  for (const icon of ctx.state.store.all(ICON_COLLECTION)) {
    if (typeof icon.category === 'string' && !known.has(icon.category)) {
      known.add(icon.category);
      out.push({ name: icon.category });
    }
  }
  return out;
}

// The document types the sizes as strings while its sample sends numbers: both are taken, strings are answered.
const SIZE_FIELDS = ['default_width', 'default_height'] as const;

function withStringSizes(icon: Doc): Doc {
  const out: Doc = { ...icon };
  for (const field of SIZE_FIELDS) if (typeof out[field] === 'number') out[field] = String(out[field]);
  return out;
}

function list(ctx: OpsCtx): ApiResponse {
  const listCategories = boolParam(ctx.req.query, 'list_categories');
  if (!listCategories.ok) return listCategories.error;
  if (listCategories.value) return { status: 200, body: categories(ctx) };
  const category = ctx.req.query.get('category');
  const icons = readableObjects(ctx, ICON_COLLECTION)
    .filter((i) => category === null || category === '' || i.category === category)
    .map(withStringSizes);
  const listed = listRows(icons, ctx.req.query, ctx.state.filters);
  if (!listed.ok) return listed.error;
  return { status: 200, body: { total: listed.value.total, result: listed.value.rows } };
}

const isSize = (v: unknown) =>
  (typeof v === 'number' && Number.isFinite(v) && v >= 0) || (typeof v === 'string' && /^\s*\d+(\.\d+)?\s*$/.test(v));

function checkIcon(icon: unknown, i: number): string | undefined {
  if (!isPlainObject(icon)) return `Icon ${i} must be an object`;
  for (const field of ['title', 'svg_path', 'category']) {
    if (typeof icon[field] !== 'string' || icon[field] === '') return `Icon ${i}: ${field} must be a non-empty string`;
  }
  for (const field of SIZE_FIELDS) {
    if (!isSize(icon[field])) return `Icon ${i}: ${field} must be a number (or a string holding one)`;
  }
  if (icon._key !== undefined && (typeof icon._key !== 'string' || icon._key === '')) return `Icon ${i}: _key must be a non-empty string`;
  return undefined;
}

/** POST or PUT: saves each icon of the array (one object is taken as an array of one) and answers their keys. */
function save(ctx: OpsCtx): ApiResponse {
  const { req } = ctx;
  if (req.bodyError === undefined && req.body === undefined) return badRequest('A JSON array of icons is required');
  const body = parsedBody(req);
  if (!body.ok) return body.error;
  const value = unwrapData(body.value, (inner) => Array.isArray(inner) || isPlainObject(inner));
  const icons = Array.isArray(value) ? value : [value];
  if (icons.length === 0) return badRequest('A JSON array of icons is required');
  for (const [i, icon] of icons.entries()) {
    const problem = checkIcon(icon, i);
    if (problem !== undefined) return badRequest(problem);
    const doc = icon as Doc;
    if (isImmutable(ctx, doc.category)) return badRequest(`Icon ${i}: category "${String(doc.category)}" cannot be modified`);
    const stored = typeof doc._key === 'string' ? ctx.state.store.get(ICON_COLLECTION, doc._key) : undefined;
    if (stored !== undefined && isImmutable(ctx, stored.category)) {
      return badRequest(`Icon ${i}: icon "${doc._key as string}" is in an immutable category`);
    }
  }
  const keys: string[] = [];
  for (const icon of icons as Doc[]) {
    const doc: Doc = withStringSizes({ ...icon, _key: typeof icon._key === 'string' ? icon._key : newKey() });
    ctx.state.store.put(ICON_COLLECTION, doc);
    keys.push(doc._key as string);
  }
  return { status: 200, body: keys };
}

function removeByCategory(ctx: OpsCtx): ApiResponse {
  const category = ctx.req.query.get('category');
  if (category === null || category === '') return badRequest('category is required (use * for every icon)');
  if (category !== '*' && isImmutable(ctx, category)) return badRequest(`Category "${category}" cannot be modified`);
  for (const icon of readableObjects(ctx, ICON_COLLECTION)) {
    if (isImmutable(ctx, icon.category)) continue;
    if (category === '*' || icon.category === category) ctx.state.store.delete(ICON_COLLECTION, icon._key as string);
  }
  return { status: 200, body: DELETED };
}

function readOne(ctx: OpsCtx): ApiResponse {
  const icon = readableObjects(ctx, ICON_COLLECTION).find((i) => i._key === ctx.params.key);
  return icon === undefined ? notFound(`No icon with _key "${ctx.params.key}"`) : { status: 200, body: withStringSizes(icon) };
}

function removeOne(ctx: OpsCtx): ApiResponse {
  const icon = readableObjects(ctx, ICON_COLLECTION).find((i) => i._key === ctx.params.key);
  if (icon === undefined) return notFound(`No icon with _key "${ctx.params.key}"`);
  if (isImmutable(ctx, icon.category)) return badRequest(`Icon "${ctx.params.key}" is in an immutable category`);
  ctx.state.store.delete(ICON_COLLECTION, icon._key as string);
  return { status: 200, body: DELETED };
}

export const iconRoutes: Route<OpsRouteFn>[] = [
  route('GET', ICONS, list),
  route('POST', ICONS, save),
  route('PUT', ICONS, save),
  route('DELETE', ICONS, removeByCategory),
  route('GET', `${ICONS}/:key`, readOne),
  route('DELETE', `${ICONS}/:key`, removeOne),
];
