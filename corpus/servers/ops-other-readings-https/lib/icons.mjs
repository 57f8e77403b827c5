// Glass table icons: /services/SA-ITOA/v1/icon_collection
import { bad, notFound, forbidden, methodNotAllowed, isPlainObject, qp, newKey, GLOBAL } from './util.mjs';
import { canRead, canWrite } from './access.mjs';
import { icons } from './store.mjs';
import { applyShared } from './query.mjs';

export const IMMUTABLE_CATEGORIES = new Set(['Default', 'Infrastructure']);
export const EXTRA_CATEGORIES = new Set(); // categories that exist without icons

const ICON_FIELDS = ['_key', 'title', 'svg_path', 'default_width', 'default_height', 'category'];

function categories() {
  const names = new Set([...IMMUTABLE_CATEGORIES, ...EXTRA_CATEGORIES]);
  for (const i of icons.all()) names.add(i.category);
  return [...names].sort((a, b) => a.localeCompare(b)).map((n) => (IMMUTABLE_CATEGORIES.has(n) ? { name: n, immutable: 1 } : { name: n }));
}

function list(ctx) {
  const lc = qp(ctx.q, 'list_categories');
  if (!canRead(ctx.user, GLOBAL)) return lc === '1' ? [] : { total: 0, result: [] };
  if (lc === '1') return categories();
  const cat = qp(ctx.q, 'category');
  let items = icons.all().map((i) => ({ ...i }));
  const total = items.length; // total: every icon in the collection
  if (cat !== undefined) items = items.filter((i) => i.category === cat);
  const { rows } = applyShared(items, ctx.q);
  return { total, result: rows };
}

function sizeString(v, name) {
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  if (typeof v === 'string') return v;
  throw bad(`'${name}' must be a string (or a number)`);
}

function save(ctx, body) {
  if (!canWrite(ctx.user, GLOBAL)) throw forbidden('No write access to the icon collection');
  if (!Array.isArray(body)) throw bad('Payload must be an array of icon objects');
  const docs = [];
  for (const o of body) {
    if (!isPlainObject(o)) throw bad('Each icon must be an object');
    for (const f of ['title', 'svg_path', 'category']) {
      if (typeof o[f] !== 'string') throw bad(`Icon field '${f}' is required and must be a string`);
    }
    for (const f of ['default_width', 'default_height']) if (o[f] === undefined) throw bad(`Icon field '${f}' is required`);
    if (IMMUTABLE_CATEGORIES.has(o.category)) throw forbidden(`Category '${o.category}' cannot be modified`);
    if (o._key !== undefined && (typeof o._key !== 'string' || !o._key)) throw bad('_key must be a non-empty string');
    if (o._key && icons.has(o._key) && IMMUTABLE_CATEGORIES.has(icons.get(o._key).category)) {
      throw forbidden(`Category '${icons.get(o._key).category}' cannot be modified`);
    }
    docs.push({
      _key: o._key || newKey(),
      title: o.title,
      svg_path: o.svg_path,
      default_width: sizeString(o.default_width, 'default_width'),
      default_height: sizeString(o.default_height, 'default_height'),
      category: o.category,
    });
  }
  for (const d of docs) icons.put(d._key, d);
  return docs.map((d) => d._key);
}

function deleteByCategory(ctx) {
  if (!canWrite(ctx.user, GLOBAL)) throw forbidden('No write access to the icon collection');
  const cat = qp(ctx.q, 'category');
  if (cat === undefined) throw bad("Parameter 'category' is required ('*' deletes all icons)");
  if (cat !== '*' && IMMUTABLE_CATEGORIES.has(cat)) throw forbidden(`Category '${cat}' cannot be modified`);
  // '*' deletes all icons, including those of immutable categories (the categories themselves stay listed)
  for (const i of icons.all()) if (cat === '*' || i.category === cat) icons.delete(i._key);
  return { Deleted: 'True' };
}

export function handleIcons(ctx, rest) {
  const m = ctx.method;
  if (rest.length === 0) {
    if (m === 'GET') return list(ctx);
    if (m === 'POST' || m === 'PUT') return save(ctx, ctx.body);
    if (m === 'DELETE') return deleteByCategory(ctx);
    throw methodNotAllowed(['GET', 'POST', 'PUT', 'DELETE']);
  }
  if (rest.length === 1) {
    const key = rest[0];
    if (m === 'DELETE') {
      const i = icons.get(key);
      if (!i || !canRead(ctx.user, GLOBAL)) throw notFound(`Icon '${key}' not found`);
      if (!canWrite(ctx.user, GLOBAL)) throw forbidden('No write access to the icon collection');
      if (IMMUTABLE_CATEGORIES.has(i.category)) throw forbidden(`Category '${i.category}' cannot be modified`);
      icons.delete(key);
      return { Deleted: 'True' };
    }
    if (m === 'GET') {
      const i = icons.get(key);
      if (!i || !canRead(ctx.user, GLOBAL)) throw notFound(`Icon '${key}' not found`);
      return Object.fromEntries(ICON_FIELDS.map((f) => [f, i[f]]));
    }
    throw methodNotAllowed(['GET', 'DELETE']);
  }
  throw notFound('Unknown icon endpoint');
}
