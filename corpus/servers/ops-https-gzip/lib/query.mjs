// Document-store style filters, sorting, paging and field projection.
import { bad, compareValues, deepEqual, isObj, intParam } from './util.mjs';

// Collect the values at a dotted path, descending into arrays (document-store semantics).
export function pathValues(obj, path) {
  let cur = [obj];
  for (const part of path.split('.')) {
    const next = [];
    for (const c of cur) {
      if (Array.isArray(c)) {
        if (/^\d+$/.test(part) && c[Number(part)] !== undefined) next.push(c[Number(part)]);
        for (const el of c) if (isObj(el) && part in el) next.push(el[part]);
      } else if (isObj(c) && Object.hasOwn(c, part)) {
        next.push(c[part]);
      }
    }
    cur = next;
  }
  return cur;
}
export function firstPathValue(obj, path) {
  const v = pathValues(obj, path);
  return v.length ? v[0] : undefined;
}

const FIELD_OPS = new Set(['$eq', '$ne', '$regex', '$options', '$gt', '$gte', '$lt', '$lte', '$in', '$nin', '$exists', '$not']);

class FilterInvalid extends Error {}

function eqMatch(values, want) {
  for (const v of values) {
    if (deepEqual(v, want)) return true;
    if (Array.isArray(v) && v.some((x) => deepEqual(x, want))) return true;
  }
  return false;
}
function flatten(values) {
  const out = [];
  for (const v of values) {
    if (Array.isArray(v)) out.push(...v);
    out.push(v);
  }
  return out;
}

function compileField(path, cond) {
  if (isObj(cond) && Object.keys(cond).some((k) => k.startsWith('$'))) {
    const keys = Object.keys(cond);
    if (!keys.every((k) => FIELD_OPS.has(k))) throw new FilterInvalid();
    if ('$options' in cond && !('$regex' in cond)) throw new FilterInvalid();
    const tests = [];
    for (const k of keys) {
      const arg = cond[k];
      switch (k) {
        case '$eq':
          tests.push((vals) => eqMatch(vals, arg));
          break;
        case '$ne':
          tests.push((vals) => !eqMatch(vals, arg));
          break;
        case '$regex': {
          if (typeof arg !== 'string') throw new FilterInvalid();
          const opts = cond.$options === undefined ? '' : cond.$options;
          if (typeof opts !== 'string' || !/^[imsu]*$/.test(opts)) throw new FilterInvalid();
          let re;
          try {
            re = new RegExp(arg, opts);
          } catch {
            throw new FilterInvalid();
          }
          tests.push((vals) => flatten(vals).some((v) => typeof v === 'string' && re.test(v)));
          break;
        }
        case '$options':
          break;
        case '$gt':
        case '$gte':
        case '$lt':
        case '$lte': {
          if (typeof arg !== 'number' && typeof arg !== 'string') throw new FilterInvalid();
          const ok = { $gt: (c) => c > 0, $gte: (c) => c >= 0, $lt: (c) => c < 0, $lte: (c) => c <= 0 }[k];
          tests.push((vals) => flatten(vals).some((v) => typeof v === typeof arg && ok(compareValues(v, arg))));
          break;
        }
        case '$in':
        case '$nin': {
          if (!Array.isArray(arg)) throw new FilterInvalid();
          const hit = (vals) => arg.some((a) => eqMatch(vals, a));
          tests.push(k === '$in' ? hit : (vals) => !hit(vals));
          break;
        }
        case '$exists': {
          if (typeof arg !== 'boolean' && arg !== 0 && arg !== 1) throw new FilterInvalid();
          tests.push((vals) => vals.length > 0 === Boolean(arg));
          break;
        }
        case '$not': {
          const inner = compileField(path, arg);
          tests.push((_vals, obj) => !inner(obj));
          break;
        }
        default:
          throw new FilterInvalid();
      }
    }
    return (obj) => {
      const vals = pathValues(obj, path);
      return tests.every((t) => t(vals, obj));
    };
  }
  return (obj) => eqMatch(pathValues(obj, path), cond);
}

function compileDoc(doc) {
  if (!isObj(doc)) throw new FilterInvalid();
  const parts = [];
  for (const [k, v] of Object.entries(doc)) {
    if (k === '$and' || k === '$or' || k === '$nor') {
      if (!Array.isArray(v) || v.length === 0) throw new FilterInvalid();
      const subs = v.map(compileDoc);
      if (k === '$and') parts.push((o) => subs.every((s) => s(o)));
      else if (k === '$or') parts.push((o) => subs.some((s) => s(o)));
      else parts.push((o) => !subs.some((s) => s(o)));
    } else if (k.startsWith('$') || k === '') {
      throw new FilterInvalid();
    } else {
      parts.push(compileField(k, v));
    }
  }
  return (o) => parts.every((p) => p(o));
}

// Returns a predicate. An incorrect filter (not JSON, not an object, unknown operator, bad regex)
// is NOT rejected: the document says it matches every row. With BUG bad_filter_400 it is refused.
export function compileFilter(raw, ctx) {
  if (raw === undefined || raw === null || raw === '') return () => true;
  let doc;
  try {
    doc = typeof raw === 'string' ? JSON.parse(raw) : raw;
    return compileDoc(doc);
  } catch (_e) {
    if (ctx?.bug('bad_filter_400')) throw bad('Invalid filter');
    return () => true;
  }
}

export function sortItems(items, sortKey, ascending) {
  const asc = ascending;
  const key = sortKey || '_key';
  const sign = asc ? 1 : -1;
  return items
    .map((o) => ({ o, v: firstPathValue(o, key) }))
    .sort((a, b) => sign * compareValues(a.v, b.v) || compareValues(a.o._key, b.o._key))
    .map((x) => x.o);
}

// project one dotted path, keeping array structure; merges into target
function projectInto(target, src, parts) {
  const [head, ...rest] = parts;
  if (!isObj(src) || !Object.hasOwn(src, head)) return;
  const v = src[head];
  if (rest.length === 0) {
    target[head] = v;
    return;
  }
  if (Array.isArray(v)) {
    const arr = Array.isArray(target[head]) ? target[head] : v.map(() => ({}));
    v.forEach((el, i) => {
      if (isObj(el)) {
        if (!isObj(arr[i])) arr[i] = {};
        projectInto(arr[i], el, rest);
      }
    });
    target[head] = arr;
  } else if (isObj(v)) {
    if (!isObj(target[head])) target[head] = {};
    projectInto(target[head], v, rest);
  }
}
export function parseFields(raw) {
  if (raw === undefined || raw === null) return null;
  let list;
  if (Array.isArray(raw)) list = raw.flatMap((r) => parseFields(r) || []);
  else {
    const s = String(raw).trim();
    if (s.startsWith('[')) {
      try {
        const v = JSON.parse(s);
        if (Array.isArray(v)) list = v.map(String);
      } catch {
        /* treat as comma list */
      }
    }
    if (!list) list = s.split(',');
  }
  return list.map((f) => f.trim()).filter(Boolean);
}
// Projection returns exactly the named fields (not even _key unless asked for).
export function project(obj, fields) {
  if (!fields) return obj;
  const out = {};
  for (const f of fields) {
    if (Object.hasOwn(obj, f)) out[f] = obj[f];
    else if (f.includes('.')) projectInto(out, obj, f.split('.'));
  }
  return out;
}

// sort_dir for the shared parameters: integer 1 ascending, 0 descending.
export function sortDirInt(q, name = 'sort_dir', ctx) {
  if (!q.has(name)) return true;
  const s = q.get(name).trim();
  const inverted = Boolean(ctx?.bug('sort_dir_inverted'));
  if (s === '1') return !inverted;
  if (s === '0') return inverted;
  throw bad(`Parameter ${name} must be 1 (ascending) or 0 (descending)`);
}

// Full shared-parameter listing: filter -> sort -> offset -> limit -> fields.
export function listing(items, q, ctx, opt = {}) {
  const filterName = opt.filterName || 'filter';
  const offsetName = opt.offsetName || 'offset';
  const pred = compileFilter(q.has(filterName) ? q.get(filterName) : undefined, ctx);
  let rows = items.filter(pred);
  const asc = opt.sortDir ? opt.sortDir(q) : sortDirInt(q, 'sort_dir', ctx);
  rows = sortItems(rows, q.has('sort_key') ? q.get('sort_key').trim() : opt.defaultSort, asc);
  const offset = intParam(q, offsetName) || 0;
  let limit = intParam(q, 'limit');
  if (limit === undefined && opt.countIsLimit !== false) limit = intParam(q, 'count');
  const total = rows.length;
  rows = rows.slice(offset);
  if (limit) rows = rows.slice(0, limit); // limit unset or 0: everything
  const fields = opt.noFields ? null : parseFields(q.has('fields') ? q.getAll('fields') : undefined);
  return { rows: fields ? rows.map((r) => project(r, fields)) : rows, total, fields };
}
