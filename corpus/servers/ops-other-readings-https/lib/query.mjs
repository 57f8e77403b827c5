// Document-store style filters, sorting, paging and field projection.
import { bad, isPlainObject, qp, intParam } from './util.mjs';
import { bug } from './bugs.mjs';

class IncorrectFilter extends Error {}

// Parse a filter parameter. Returns null for "absent", a predicate otherwise. An incorrect filter
// (not JSON, not an object, unknown operator, invalid pattern) matches every row.
export function parseFilter(raw) {
  if (raw === undefined) return null;
  let f;
  try {
    f = JSON.parse(raw);
    if (!isPlainObject(f)) throw new IncorrectFilter('not an object');
    const pred = compile(f);
    return pred;
  } catch (e) {
    if (bug('bad_filter_400')) throw bad('Invalid filter: ' + e?.message);
    return () => true;
  }
}

function valuesAt(doc, path) {
  let cur = [doc];
  for (const seg of path.split('.')) {
    const next = [];
    for (const c of cur) {
      if (Array.isArray(c)) {
        for (const el of c) if (isPlainObject(el) && seg in el) next.push(el[seg]);
        if (/^[0-9]+$/.test(seg) && Number(seg) < c.length) next.push(c[Number(seg)]);
      } else if (isPlainObject(c) && Object.hasOwn(c, seg)) {
        next.push(c[seg]);
      }
    }
    cur = next;
  }
  return cur; // empty array = missing
}

function deepEq(a, b) {
  if (a === b) return true;
  if (typeof a !== typeof b || a === null || b === null || typeof a !== 'object') return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) return a.length === b.length && a.every((x, i) => deepEq(x, b[i]));
  const ka = Object.keys(a),
    kb = Object.keys(b);
  return ka.length === kb.length && ka.every((k) => deepEq(a[k], b[k]));
}

function eqMatch(vals, v) {
  if (v === null && vals.length === 0) return true;
  return vals.some((x) => deepEq(x, v) || (Array.isArray(x) && x.some((el) => deepEq(el, v))));
}
function expand(vals) {
  const out = [];
  for (const x of vals) {
    out.push(x);
    if (Array.isArray(x)) out.push(...x);
  }
  return out;
}
function cmp(op, a, b) {
  if (typeof a !== typeof b || (typeof a !== 'number' && typeof a !== 'string')) return false;
  switch (op) {
    case '$gt':
      return a > b;
    case '$gte':
      return a >= b;
    case '$lt':
      return a < b;
    default:
      return a <= b;
  }
}

function compileOps(path, ops) {
  const tests = [];
  const keys = Object.keys(ops);
  for (const op of keys) {
    const arg = ops[op];
    switch (op) {
      case '$eq':
        tests.push((vals) => eqMatch(vals, arg));
        break;
      case '$ne':
        tests.push((vals) => !eqMatch(vals, arg));
        break;
      case '$in':
        if (!Array.isArray(arg)) throw new IncorrectFilter('$in needs an array');
        tests.push((vals) => arg.some((a) => eqMatch(vals, a)));
        break;
      case '$nin':
        if (!Array.isArray(arg)) throw new IncorrectFilter('$nin needs an array');
        tests.push((vals) => !arg.some((a) => eqMatch(vals, a)));
        break;
      case '$gt':
      case '$gte':
      case '$lt':
      case '$lte':
        tests.push((vals) => expand(vals).some((x) => cmp(op, x, arg)));
        break;
      case '$exists':
        tests.push((vals) => vals.length > 0 === Boolean(arg));
        break;
      case '$regex': {
        if (typeof arg !== 'string') throw new IncorrectFilter('$regex needs a string');
        const flags = typeof ops.$options === 'string' ? ops.$options.replace(/[^imsu]/g, '') : '';
        const re = new RegExp(arg, flags); // throws on an invalid pattern -> incorrect filter
        tests.push((vals) => expand(vals).some((x) => typeof x === 'string' && re.test(x)));
        break;
      }
      case '$options':
        if (!('$regex' in ops)) throw new IncorrectFilter('$options without $regex');
        break;
      case '$not': {
        if (!isPlainObject(arg)) throw new IncorrectFilter('$not needs an operator object');
        const inner = compileOps(path, arg);
        tests.push((vals) => !inner(vals));
        break;
      }
      default:
        throw new IncorrectFilter('unknown operator ' + op);
    }
  }
  return (vals) => tests.every((t) => t(vals));
}

function compile(f) {
  const preds = [];
  for (const [k, v] of Object.entries(f)) {
    if (k === '$and' || k === '$or' || k === '$nor') {
      if (!Array.isArray(v) || v.length === 0 || !v.every(isPlainObject)) throw new IncorrectFilter(k);
      const subs = v.map(compile);
      if (k === '$and') preds.push((d) => subs.every((s) => s(d)));
      else if (k === '$or') preds.push((d) => subs.some((s) => s(d)));
      else preds.push((d) => !subs.some((s) => s(d)));
    } else if (k.startsWith('$')) {
      throw new IncorrectFilter('unknown top-level operator ' + k);
    } else if (isPlainObject(v) && Object.keys(v).length > 0 && Object.keys(v).every((x) => x.startsWith('$'))) {
      const t = compileOps(k, v);
      preds.push((d) => t(valuesAt(d, k)));
    } else {
      preds.push((d) => eqMatch(valuesAt(d, k), v));
    }
  }
  return (d) => preds.every((p) => p(d));
}

// ---- sorting ------------------------------------------------------------------------------------
const collator = new Intl.Collator('en', { numeric: true, sensitivity: 'variant' });
function rank(v) {
  if (v === undefined || v === null) return 0;
  if (typeof v === 'number') return 1;
  if (typeof v === 'string') return 2;
  if (typeof v === 'boolean') return 5;
  if (Array.isArray(v)) return 4;
  return 3;
}
export function compareValues(a, b) {
  const ra = rank(a),
    rb = rank(b);
  if (ra !== rb) return ra - rb;
  if (ra === 1) return a - b;
  if (ra === 2) return collator.compare(a, b);
  if (ra === 5) return (a ? 1 : 0) - (b ? 1 : 0);
  if (ra === 0) return 0;
  return collator.compare(JSON.stringify(a), JSON.stringify(b));
}
export function sortBy(items, key, ascending, get = (x) => x) {
  const first = (d) => {
    const vs = valuesAt(d, key);
    return vs.length ? vs[0] : undefined;
  };
  const dec = items.map((it, i) => ({ it, i, v: first(get(it)) }));
  dec.sort((x, y) => {
    const c = compareValues(x.v, y.v);
    return c !== 0 ? (ascending ? c : -c) : x.i - y.i;
  });
  return dec.map((d) => d.it);
}

// sort_dir for the shared parameters: 1 ascending, 0 descending; default (absent) is DESCENDING.
export function sortDir01(q) {
  const v = qp(q, 'sort_dir');
  if (v === undefined) return false;
  let asc;
  if (v === '1') asc = true;
  else if (v === '0') asc = false;
  else throw bad('Parameter sort_dir must be 1 (ascending) or 0 (descending)');
  return bug('sort_dir_inverted') ? !asc : asc;
}

// ---- field projection ---------------------------------------------------------------------------
// The list is taken literally: exactly the named top-level fields, no _key added, names not trimmed.
export function parseFieldsCsv(q, name = 'fields') {
  const v = qp(q, name);
  if (v === undefined) return null;
  if (v === '') return [];
  return v.split(',');
}
export function project(doc, fields) {
  if (!fields) return doc;
  const out = {};
  for (const f of fields) if (Object.hasOwn(doc, f)) out[f] = doc[f];
  return out;
}

// ---- full list pipeline for the shared query parameters -----------------------------------------
// items: array of "views" (already access-filtered, in default order). Order: filter, sort, offset,
// limit, fields.
export function applyShared(items, q, opts = {}) {
  const filterName = opts.filterName || 'filter';
  const offsetName = opts.offsetName || 'offset';
  const limitName = opts.limitName || 'limit';
  const pred = parseFilter(qp(q, filterName));
  let out = pred ? items.filter(pred) : items.slice();
  const sk = qp(q, 'sort_key');
  const asc = sortDir01(q);
  if (sk !== undefined && sk !== '') out = sortBy(out, sk, asc);
  const off = intParam(q, offsetName);
  const lim = intParam(q, limitName);
  if (off !== undefined) out = out.slice(off);
  if (lim !== undefined) out = out.slice(0, lim); // limit=0 -> no entries
  const fields = opts.noFields ? null : parseFieldsCsv(q);
  return { rows: fields ? out.map((d) => project(d, fields)) : out, fields, matched: pred ? items.filter(pred) : items };
}
