// /services/SA-ITOA/v1/icon_collection: glass table icons.
import { bad, notFound, isObj, isStr, newKey, GLOBAL_TEAM } from './util.mjs';
import { store } from './store.mjs';
import { canReadTeam, canWrite, assertGlobalWrite } from './auth.mjs';
import { bool10Param, fieldsParam, project } from './query.mjs';
import { selectRows, loadReadable, stamp } from './crud.mjs';
import { route, J } from './route.mjs';

const T = 'icon';
export const BUILTIN_CATEGORIES = ['Default', 'Infrastructure', 'Cloud'];

function publicIcon(o) {
  return { ...o };
}

export function handleIcons(ctx, segs) {
  if (segs.length === 0) {
    const save = () => J(saveIcons(ctx));
    return route(ctx, {
      GET: () => J(listIcons(ctx)),
      POST: save,
      PUT: save,
      DELETE: () => J(deleteByCategory(ctx)),
    });
  }
  if (segs.length === 1) {
    const key = segs[0];
    return route(ctx, {
      GET: () => J(publicIcon(loadReadable(ctx, T, key))),
      DELETE: () => {
        const o = loadReadable(ctx, T, key);
        assertGlobalWrite(ctx.user);
        store.del(T, o._key);
        return J({ Deleted: 'True' });
      },
    });
  }
  throw notFound('Unknown endpoint');
}

function listIcons(ctx) {
  const q = ctx.query;
  const listCats = bool10Param(q, 'list_categories');
  const category = q.has('category') ? q.get('category') : undefined;
  if (listCats === 1) {
    const names = [];
    const global = canReadTeam(ctx.user, GLOBAL_TEAM);
    if (global) names.push(...BUILTIN_CATEGORIES);
    const { rows } = selectRows(ctx, T, { limitZeroAll: true });
    for (const { obj } of rows.sort((x, y) => x.seq - y.seq)) {
      if (isStr(obj.category) && !names.includes(obj.category)) names.push(obj.category);
    }
    return names.map((n) => (BUILTIN_CATEGORIES.includes(n) ? { name: n, immutable: true } : { name: n }));
  }
  const fields = fieldsParam(q);
  const { rows, total } = selectRows(ctx, T, {
    pre: (o) => category === undefined || o.category === category,
  });
  return { total, result: rows.map((r) => project(publicIcon(r.obj), fields)) };
}

function sizeStr(v, name, i) {
  if (typeof v === 'number' && Number.isFinite(v) && v > 0) return String(v);
  if (isStr(v) && /^\d+(\.\d+)?$/.test(v.trim()) && Number(v) > 0) return v.trim();
  throw bad(`icon ${i}: ${name} must be a positive number (string or number)`);
}

function saveIcons(ctx) {
  const body = ctx.body();
  if (!Array.isArray(body)) throw bad('The payload must be a JSON array of icon objects');
  assertGlobalWrite(ctx.user);
  const prepared = body.map((ic, i) => {
    if (!isObj(ic)) throw bad(`icon ${i} must be an object`);
    for (const f of ['title', 'svg_path', 'category']) {
      if (!isStr(ic[f]) || !ic[f].trim()) throw bad(`icon ${i}: ${f} is required (non-empty string)`);
    }
    if (ic._key !== undefined && (!isStr(ic._key) || !ic._key)) throw bad(`icon ${i}: _key must be a non-empty string`);
    const prev = ic._key !== undefined ? store.get(T, ic._key) : undefined;
    if (prev && !canWrite(ctx.user, T, prev)) throw bad(`icon ${i}: not writable`);
    return [
      {
        _key: ic._key ?? newKey(),
        title: ic.title,
        svg_path: ic.svg_path,
        default_width: sizeStr(ic.default_width, 'default_width', i),
        default_height: sizeStr(ic.default_height, 'default_height', i),
        category: ic.category,
      },
      prev,
    ];
  });
  return prepared.map(([o, prev]) => {
    const s = stamp(T, o, prev, ctx);
    delete s.identifying_name;
    store.put(T, s);
    return s._key;
  });
}

function deleteByCategory(ctx) {
  const q = ctx.query;
  if (!q.has('category') || q.get('category') === '') {
    throw bad('Parameter category is required (use * to delete all icons)');
  }
  assertGlobalWrite(ctx.user);
  const cat = q.get('category');
  for (const o of store.all(T)) {
    if (!canWrite(ctx.user, T, o)) continue;
    if (cat === '*' || o.category === cat) store.del(T, o._key);
  }
  return { Deleted: 'True' };
}
