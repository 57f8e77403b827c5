// Glass table icons: /services/SA-ITOA/v1/icon_collection
import { GLOBAL_TEAM, bad, notFound, conflict, notAllowed, isObj, isStr, boolParam, compareValues } from './util.mjs';
import { Collection } from './store.mjs';
import { canRead, requireWriteTeam } from './auth.mjs';
import { listing } from './query.mjs';

export const categories = new Map(); // name -> { immutable: boolean }

const icons = new Collection({
  name: 'icon',
  defaultTeam: false,
  teamsOf: () => [GLOBAL_TEAM],
  schemaFields: ['svg_path', 'default_width', 'default_height', 'category'],
});

function sizeValue(v, name, i) {
  if (typeof v === 'number' && Number.isFinite(v) && v > 0) return String(v);
  if (typeof v === 'string' && /^\d+(\.\d+)?$/.test(v.trim()) && Number(v) > 0) return v.trim();
  throw bad(`Icon ${i}: "${name}" must be a positive size (string or number)`);
}

function saveIcons(ctx, body) {
  requireWriteTeam(ctx.user, GLOBAL_TEAM);
  if (!Array.isArray(body) || body.length === 0) throw bad('Payload must be a non-empty array of icon objects');
  const prepared = body.map((ic, i) => {
    if (!isObj(ic)) throw bad(`Icon ${i} is not an object`);
    for (const f of ['title', 'svg_path', 'category']) {
      if (!isStr(ic[f]) || !ic[f].trim()) throw bad(`Icon ${i}: "${f}" is required and must be a string`);
    }
    const cat = categories.get(ic.category);
    if (cat?.immutable) throw conflict(`Category "${ic.category}" cannot be modified`);
    return {
      title: ic.title,
      svg_path: ic.svg_path,
      category: ic.category,
      default_width: sizeValue(ic.default_width, 'default_width', i),
      default_height: sizeValue(ic.default_height, 'default_height', i),
    };
  });
  return prepared.map((ic) => {
    if (!categories.has(ic.category)) categories.set(ic.category, { immutable: false });
    return icons.commit(ctx, ic, undefined, { full: true })._key;
  });
}

function listIcons(ctx, q) {
  if (boolParam(q, 'list_categories', false)) {
    if (!canRead(ctx.user, GLOBAL_TEAM)) return [];
    const names = new Set([...categories.keys(), ...icons.all().map((i) => i.category)]);
    return [...names].sort(compareValues).map((name) => (categories.get(name)?.immutable ? { name, immutable: true } : { name }));
  }
  let items = icons
    .all()
    .filter((o) => icons.readable(ctx, o))
    .map((o) => icons.out(ctx, o));
  if (q.has('category')) items = items.filter((o) => o.category === q.get('category'));
  const { rows, total } = listing(items, q, ctx);
  return { total, result: rows };
}

function deleteCategory(ctx, q) {
  requireWriteTeam(ctx.user, GLOBAL_TEAM);
  if (!q.has('category') || q.get('category') === '') throw bad('Parameter category is required (use * for all icons)');
  const cat = q.get('category');
  if (cat === '*') {
    for (const ic of icons.all()) {
      const c = categories.get(ic.category);
      if (!c?.immutable) icons.map.delete(ic._key);
    }
    for (const [name, c] of categories) if (!c.immutable) categories.delete(name);
    return { Deleted: 'True' };
  }
  const c = categories.get(cat);
  if (!c && !icons.all().some((i) => i.category === cat)) throw notFound(`Unknown category "${cat}"`);
  if (c?.immutable) throw conflict(`Category "${cat}" cannot be modified`);
  for (const ic of icons.all()) if (ic.category === cat) icons.map.delete(ic._key);
  categories.delete(cat);
  return { Deleted: 'True' };
}

export function iconRoutes(ctx, method, segs, q) {
  if (segs.length === 0) {
    if (method === 'GET') return listIcons(ctx, q);
    if (method === 'POST') return saveIcons(ctx, ctx.json());
    if (method === 'DELETE') return deleteCategory(ctx, q);
    throw notAllowed(['GET', 'POST', 'PUT', 'DELETE']);
  }
  if (segs.length === 1) {
    if (method === 'GET') return icons.out(ctx, icons.get(ctx, segs[0]));
    if (method === 'DELETE') {
      requireWriteTeam(ctx.user, GLOBAL_TEAM);
      const ic = icons.get(ctx, segs[0]);
      const c = categories.get(ic.category);
      if (c?.immutable) throw conflict(`Category "${ic.category}" cannot be modified`);
      icons.map.delete(ic._key);
      return { Deleted: 'True' };
    }
    throw notAllowed(['GET', 'DELETE']);
  }
  throw notFound(`Unknown path icon_collection/${segs.join('/')}`);
}
