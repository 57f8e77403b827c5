// Glass table icons: /services/SA-ITOA/v1/icon_collection
import { coll } from './store.mjs';
import { bad, notFound, conflict, isObj, newKey, byMethod, Reply, parseBool, clone } from './util.mjs';
import { requireWriter } from './crud.mjs';
import { listParams, select, project } from './query.mjs';
import { bugs } from './bugs.mjs';

const ICONS = coll('icon');
const CATS = new Map(); // name -> {name, immutable?:true, seq}
let CSEQ = 0;

export function addCategory(name, immutable = false) {
  if (!CATS.has(name)) CATS.set(name, { name, ...(immutable ? { immutable: true } : {}), seq: ++CSEQ });
  return CATS.get(name);
}
const isImmutable = (name) => CATS.get(name)?.immutable === true;

function size(v, f, i) {
  if (typeof v === 'number' && Number.isFinite(v) && v > 0) return String(v);
  if (typeof v === 'string' && /^\d+(\.\d+)?$/.test(v.trim()) && Number(v) > 0) return v.trim();
  throw bad(`Icon ${i}: '${f}' must be a positive number (sent as a string or a number)`);
}

export function seedIcon(icon) {
  addCategory(icon.category);
  ICONS.put({ _key: icon._key ?? newKey(), ...icon });
}

function list(ctx) {
  if (parseBool(ctx.params.get('list_categories'), 'list_categories', false))
    return [...CATS.values()].sort((a, b) => b.seq - a.seq).map(({ seq, ...c }) => c);
  const p = listParams(ctx.params);
  const cat = ctx.params.get('category');
  let rows = ICONS.rows().map((r) => ({ doc: clone(r.doc), seq: r.seq }));
  if (cat !== null && cat !== '' && cat !== '*' && !bugs.has('icon-category-filter-ignored'))
    rows = rows.filter((r) => r.doc.category === cat);
  const total = (p.filter ? rows.filter((r) => p.filter(r.doc)) : rows).length;
  return { total, result: select(rows, p).map((r) => project(r.doc, p.fields)) };
}

async function save(ctx) {
  requireWriter(ctx);
  const body = await ctx.json(true);
  if (!Array.isArray(body) || body.length === 0) throw bad('The payload must be a non-empty array of icon objects');
  const prepared = body.map((ic, i) => {
    if (!isObj(ic)) throw bad(`Icon ${i} must be an object`);
    for (const f of ['title', 'svg_path', 'category'])
      if (typeof ic[f] !== 'string' || !ic[f].trim()) throw bad(`Icon ${i}: '${f}' is required and must be a non-empty string`);
    const doc = {
      ...clone(ic),
      default_width: size(ic.default_width, 'default_width', i),
      default_height: size(ic.default_height, 'default_height', i),
    };
    if (isImmutable(ic.category)) throw conflict(`Icon category '${ic.category}' is immutable; icons cannot be added to it`);
    if (ic._key !== undefined) {
      if (typeof ic._key !== 'string' || !/^[A-Za-z0-9_.:-]{1,200}$/.test(ic._key)) throw bad(`Icon ${i}: '_key' must be a simple string`);
      const old = ICONS.get(ic._key);
      if (old && isImmutable(old.category)) throw conflict(`Icon '${ic._key}' belongs to immutable category '${old.category}'`);
    } else doc._key = newKey();
    return doc;
  });
  for (const d of prepared) {
    addCategory(d.category);
    ICONS.put(d);
  }
  return new Reply(
    201,
    prepared.map((d) => d._key),
  );
}

function deleteByCategory(ctx) {
  requireWriter(ctx);
  const cat = ctx.params.get('category');
  if (cat === null || cat === '') throw bad(`Parameter 'category' is required (use '*' to delete all icons)`);
  if (cat === '*') {
    for (const d of ICONS.docs()) if (!isImmutable(d.category)) ICONS.delete(d._key);
    for (const [n, c] of CATS) if (!c.immutable) CATS.delete(n);
    return { Deleted: 'True' };
  }
  if (!CATS.has(cat)) throw notFound(`No icon category named '${cat}'`);
  if (isImmutable(cat)) throw conflict(`Icon category '${cat}' is immutable and cannot be deleted`);
  for (const d of ICONS.docs()) if (d.category === cat) ICONS.delete(d._key);
  CATS.delete(cat);
  return { Deleted: 'True' };
}

export function handleIcons(ctx, segs) {
  if (segs.length === 0)
    return byMethod(ctx, { GET: () => list(ctx), POST: () => save(ctx), PUT: () => save(ctx), DELETE: () => deleteByCategory(ctx) });
  if (segs.length === 1)
    return byMethod(ctx, {
      DELETE: () => {
        requireWriter(ctx);
        const d = ICONS.get(segs[0]);
        if (!d) throw notFound(`No icon with _key '${segs[0]}'`);
        if (isImmutable(d.category))
          throw conflict(`Icon '${segs[0]}' belongs to immutable category '${d.category}' and cannot be deleted`);
        ICONS.delete(segs[0]);
        return { Deleted: 'True' };
      },
    });
  throw notFound('No such icon_collection endpoint');
}
