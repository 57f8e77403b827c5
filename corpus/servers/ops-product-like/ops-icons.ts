// Glass-table icons: /services/SA-ITOA/v1/icon_collection

import { BUILTIN_ICONS, IMMUTABLE_ICON_CATEGORIES } from './ops-data.js';
import {
  badRequest,
  boolParam,
  byMethod,
  isPlainObject,
  jsonBody,
  notFound,
  ok,
  requireWrite,
  unknownPath,
  type Ctx,
  type Doc,
  type Reply,
} from './ops-http.js';
import { applyFilter, clone, orderAndPage, parseListParams, project, type Collection } from './ops-store.js';

const ICONS = 'icons';
const FIELDS = ['title', 'svg_path', 'default_width', 'default_height', 'category'];

const icons = (ctx: Ctx): Collection => ctx.store.coll(ICONS);

function immutable(category: unknown): boolean {
  return typeof category === 'string' && IMMUTABLE_ICON_CATEGORIES.includes(category);
}

function guardImmutable(ctx: Ctx, category: unknown): void {
  if (immutable(category) && !ctx.bug('icon-immutable-writable')) {
    throw badRequest(`Icon category "${String(category)}" is immutable and cannot be modified`);
  }
}

function present(ctx: Ctx, doc: Doc): Doc {
  const out = clone(doc);
  if (ctx.profile.numericStrings) {
    for (const f of ['default_width', 'default_height']) if (typeof out[f] === 'number') out[f] = String(out[f]);
  }
  return out;
}

function categories(ctx: Ctx): Doc[] {
  const mutable = new Set<string>();
  for (const d of icons(ctx).docs()) if (typeof d.category === 'string' && !immutable(d.category)) mutable.add(d.category);
  return [...IMMUTABLE_ICON_CATEGORIES.map((name) => ({ name, immutable: true })), ...[...mutable].sort().map((name) => ({ name }))];
}

function list(ctx: Ctx): Reply {
  if (boolParam(ctx, 'list_categories', false)) return ok(categories(ctx));
  const p = parseListParams(ctx);
  const category = ctx.query.get('category');
  let recs = icons(ctx).all();
  if (category) recs = recs.filter((r) => r.doc.category === category);
  if (p.filter === null && ctx.bug('get-bad-filter-empty')) recs = [];
  recs = applyFilter(recs, p.filter);
  const page = orderAndPage(ctx, recs, p).map((r) => project(present(ctx, r.doc), p.fields, ctx));
  if (ctx.bug('icon-list-array')) return ok(page);
  return ok({ total: recs.length, result: page });
}

function size(v: unknown, field: string): void {
  const okNumber = typeof v === 'number' && Number.isFinite(v) && v > 0;
  const okString = typeof v === 'string' && /^\s*\d+(\.\d+)?\s*$/.test(v) && Number(v) > 0;
  if (!okNumber && !okString) throw badRequest(`Field "${field}" must be a positive number`);
}

function save(ctx: Ctx): Reply {
  requireWrite(ctx);
  const body = jsonBody(ctx);
  const items = Array.isArray(body) ? body : [body];
  if (items.length === 0) throw badRequest('Payload must be a non-empty array of icons');
  const docs: Doc[] = items.map((item) => {
    if (!isPlainObject(item)) throw badRequest('Every icon must be an object');
    for (const f of ['title', 'svg_path', 'category']) {
      if (typeof item[f] !== 'string' || (item[f] as string).trim() === '')
        throw badRequest(`Icon field "${f}" is required and must be a string`);
    }
    size(item.default_width, 'default_width');
    size(item.default_height, 'default_height');
    guardImmutable(ctx, item.category);
    const key = typeof item._key === 'string' && item._key !== '' ? item._key : ctx.store.newKey();
    const prev = icons(ctx).get(key);
    if (prev) guardImmutable(ctx, prev.doc.category);
    const doc: Doc = { _key: key };
    for (const f of FIELDS) doc[f] = clone(item[f]);
    return doc;
  });
  for (const d of docs) icons(ctx).put(d);
  return ok(docs.map((d) => d._key));
}

function removeByCategory(ctx: Ctx): Reply {
  requireWrite(ctx);
  const category = ctx.query.get('category');
  if (category === null || category === '') throw badRequest('Parameter "category" is required ("*" deletes all icons)');
  let doomed: Doc[];
  if (category === '*' && !ctx.bug('icon-delete-star-noop')) doomed = icons(ctx).docs();
  else {
    guardImmutable(ctx, category);
    doomed = ctx.bug('icon-delete-category-overreach')
      ? icons(ctx)
          .docs()
          .filter((d) => d.category === category || !immutable(d.category))
      : icons(ctx)
          .docs()
          .filter((d) => d.category === category);
  }
  for (const d of doomed) icons(ctx).delete(String(d._key));
  return ok({ Deleted: 'True' });
}

function removeOne(ctx: Ctx, key: string): Reply {
  requireWrite(ctx);
  const rec = icons(ctx).get(key);
  if (!rec) throw notFound(`Icon "${key}" does not exist`);
  guardImmutable(ctx, rec.doc.category);
  icons(ctx).delete(key);
  return ok({ Deleted: 'True' });
}

function getOne(ctx: Ctx, key: string): Reply {
  const rec = icons(ctx).get(key);
  if (!rec) throw notFound(`Icon "${key}" does not exist`);
  return ok(present(ctx, rec.doc));
}

export function handleIcons(ctx: Ctx, seg: string[]): Reply {
  if (seg.length === 0) {
    return byMethod(ctx, { GET: () => list(ctx), POST: () => save(ctx), PUT: () => save(ctx), DELETE: () => removeByCategory(ctx) });
  }
  if (seg.length === 1) return byMethod(ctx, { GET: () => getOne(ctx, seg[0]), DELETE: () => removeOne(ctx, seg[0]) });
  throw unknownPath();
}

export function seedIcons(ctx: Ctx): void {
  for (const icon of BUILTIN_ICONS) icons(ctx).put({ _key: ctx.store.newKey(), ...clone(icon) });
  icons(ctx).put({
    _key: ctx.store.newKey(),
    title: 'Payments gateway',
    category: 'Payments',
    svg_path: 'M3 6h18v12H3zM3 10h18',
    default_width: 80,
    default_height: 56,
  });
}
