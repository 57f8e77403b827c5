// Glass table icons (/services/SA-ITOA/v1/icon_collection).
import { bad, notFound, clone, isObj, isStr, isNum, newKey, qp, boolParam01, isoMicro, SCHEMA_VERSION } from './util.mjs';
import { coll, requireWriter } from './store.mjs';
import { selectShared, parseFields, project } from './query.mjs';
import { methodNotAllowed } from './objects.mjs';

const TYPE = 'icon';
export const IMMUTABLE_CATEGORIES = ['Cloud', 'Database', 'Network', 'Server', 'Storage'];

function sizeField(v, name, i) {
  if (isNum(v) && v > 0) return String(v);
  if (isStr(v) && /^\d+(\.\d+)?$/.test(v.trim()) && Number(v) > 0) return v.trim();
  throw bad(`icons[${i}].${name} must be a positive number (sent as a string or a number)`);
}

function listIcons(ctx) {
  const cats = boolParam01(ctx.query, 'list_categories', false);
  if (cats) {
    const names = new Set(IMMUTABLE_CATEGORIES);
    for (const i of coll(TYPE).values()) names.add(i.category);
    return [...names]
      .sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase()))
      .map((name) => (IMMUTABLE_CATEGORIES.includes(name) ? { name, immutable: true } : { name }));
  }
  const category = qp(ctx.query, 'category');
  let all = [...coll(TYPE).values()];
  if (category !== undefined && category !== '') all = all.filter((i) => i.category === category);
  const fields = parseFields(ctx.query);
  // total counts the matching icons before offset/limit
  const q = new URLSearchParams(ctx.query);
  q.delete('limit');
  q.delete('offset');
  const total = selectShared(all, q).length;
  const rows = selectShared(all, ctx.query).map((i) => project(clone(i), fields));
  return { total, result: rows };
}

function saveIcons(ctx, body) {
  requireWriter(ctx.user);
  if (!Array.isArray(body)) throw bad('The payload must be a JSON array of icon objects');
  if (!body.length) throw bad('The payload must hold at least one icon');
  const prepared = body.map((ic, i) => {
    if (!isObj(ic)) throw bad(`icons[${i}] must be an object`);
    for (const f of ['title', 'svg_path', 'category'])
      if (!isStr(ic[f]) || !ic[f].trim()) throw bad(`icons[${i}].${f} is required and must be a non-empty string`);
    const w = sizeField(ic.default_width, 'default_width', i);
    const h = sizeField(ic.default_height, 'default_height', i);
    if (IMMUTABLE_CATEGORIES.includes(ic.category)) throw bad(`Category "${ic.category}" is immutable: icons cannot be added to it`);
    if (ic._key !== undefined && (!isStr(ic._key) || !ic._key)) throw bad(`icons[${i}]._key must be a non-empty string`);
    const prev = ic._key !== undefined ? coll(TYPE).get(ic._key) : undefined;
    if (prev && IMMUTABLE_CATEGORIES.includes(prev.category)) throw bad(`Icon "${ic._key}" belongs to an immutable category`);
    return {
      ...Object.fromEntries(Object.entries(ic).filter(([k]) => !k.startsWith('_'))),
      _key: ic._key || newKey('ico'),
      title: ic.title,
      svg_path: ic.svg_path,
      default_width: w,
      default_height: h,
      category: ic.category,
      _owner: prev ? prev._owner : ctx.user.name,
      _user: 'nobody',
      _version: SCHEMA_VERSION,
      mod_timestamp: isoMicro(),
      object_type: 'icon',
    };
  });
  for (const p of prepared) coll(TYPE).set(p._key, p);
  return prepared.map((p) => p._key);
}

function deleteCategory(ctx) {
  requireWriter(ctx.user);
  const category = qp(ctx.query, 'category');
  if (category === undefined || category === '') throw bad('Parameter "category" is required (use * to delete all icons)');
  if (category === '*') coll(TYPE).clear();
  else {
    if (IMMUTABLE_CATEGORIES.includes(category)) throw bad(`Category "${category}" is immutable and cannot be deleted`);
    for (const [k, i] of coll(TYPE)) if (i.category === category) coll(TYPE).delete(k);
  }
  return { Deleted: 'True' };
}

function deleteIcon(ctx, key) {
  requireWriter(ctx.user);
  const i = coll(TYPE).get(key);
  if (!i) throw notFound(`Icon "${key}" does not exist`);
  if (IMMUTABLE_CATEGORIES.includes(i.category)) throw bad(`Icon "${key}" belongs to immutable category "${i.category}"`);
  coll(TYPE).delete(key);
  return { Deleted: 'True' };
}

export async function handleIcons(ctx, segs) {
  const m = ctx.method;
  if (segs.length === 0) {
    if (m === 'GET') return { body: listIcons(ctx) };
    if (m === 'POST' || m === 'PUT') {
      requireWriter(ctx.user);
      return { status: 201, body: saveIcons(ctx, await ctx.json(true)) };
    }
    if (m === 'DELETE') return { body: deleteCategory(ctx) };
    throw methodNotAllowed(['GET', 'POST', 'PUT', 'DELETE']);
  }
  if (segs.length === 1) {
    if (m === 'DELETE') return { body: deleteIcon(ctx, segs[0]) };
    throw methodNotAllowed(['DELETE']);
  }
  throw notFound('Unknown icon_collection path');
}
