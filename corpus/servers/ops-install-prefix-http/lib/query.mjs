// Filter rules, sorting, paging and field selection shared by list, count and bulk-delete endpoints.
import { bad, intParam, lastParam, isObj } from './util.mjs';

class IncorrectFilter extends Error {}

const own = (o, k) => Object.hasOwn(o, k);

function valuesAt(doc, path) {
  let cur = [doc];
  for (const part of path.split('.')) {
    const next = [];
    for (const c of cur) {
      if (Array.isArray(c)) {
        for (const el of c) if (isObj(el) && own(el, part)) next.push(el[part]);
        if (/^\d+$/.test(part) && c[+part] !== undefined) next.push(c[+part]);
      } else if (isObj(c) && own(c, part)) next.push(c[part]);
    }
    cur = next;
  }
  return cur;
}

const deepEq = (a, b) => JSON.stringify(a) === JSON.stringify(b);

function eqAny(vals, target) {
  for (const v of vals) {
    if (deepEq(v, target)) return true;
    if (Array.isArray(v) && v.some((x) => deepEq(x, target))) return true;
  }
  return false;
}

function cmp(a, b) {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  return String(a) < String(b) ? -1 : String(a) > String(b) ? 1 : 0;
}

function compileField(path, cond) {
  if (isObj(cond) && Object.keys(cond).length > 0 && Object.keys(cond).every((k) => k.startsWith('$'))) {
    const preds = [];
    for (const [op, arg] of Object.entries(cond)) {
      switch (op) {
        case '$regex': {
          if (typeof arg !== 'string') throw new IncorrectFilter();
          let re;
          try {
            re = new RegExp(arg, typeof cond.$options === 'string' ? cond.$options.replace(/[^imsu]/g, '') : '');
          } catch {
            throw new IncorrectFilter();
          }
          preds.push((d) => valuesAt(d, path).some((v) => (Array.isArray(v) ? v : [v]).some((x) => typeof x === 'string' && re.test(x))));
          break;
        }
        case '$options':
          break;
        case '$eq':
          preds.push((d) => eqAny(valuesAt(d, path), arg));
          break;
        case '$ne':
          preds.push((d) => !eqAny(valuesAt(d, path), arg));
          break;
        case '$in':
          if (!Array.isArray(arg)) throw new IncorrectFilter();
          preds.push((d) => arg.some((a) => eqAny(valuesAt(d, path), a)));
          break;
        case '$nin':
          if (!Array.isArray(arg)) throw new IncorrectFilter();
          preds.push((d) => !arg.some((a) => eqAny(valuesAt(d, path), a)));
          break;
        case '$gt':
        case '$gte':
        case '$lt':
        case '$lte':
          preds.push((d) =>
            valuesAt(d, path).some((v) => {
              if (v === null || typeof v === 'object') return false;
              const c = cmp(v, arg);
              return op === '$gt' ? c > 0 : op === '$gte' ? c >= 0 : op === '$lt' ? c < 0 : c <= 0;
            }),
          );
          break;
        case '$exists':
          preds.push((d) => valuesAt(d, path).length > 0 === Boolean(arg));
          break;
        default:
          throw new IncorrectFilter();
      }
    }
    return (d) => preds.every((p) => p(d));
  }
  return (d) => eqAny(valuesAt(d, path), cond);
}

function compile(f) {
  if (!isObj(f)) throw new IncorrectFilter();
  const preds = [];
  for (const [k, v] of Object.entries(f)) {
    if (k === '$and' || k === '$or') {
      if (!Array.isArray(v) || v.length === 0) throw new IncorrectFilter();
      const subs = v.map(compile);
      preds.push(k === '$and' ? (d) => subs.every((s) => s(d)) : (d) => subs.some((s) => s(d)));
    } else if (k.startsWith('$')) {
      throw new IncorrectFilter();
    } else {
      preds.push(compileField(k, v));
    }
  }
  return (d) => preds.every((p) => p(d));
}

// Returns a predicate. An incorrect filter (bad JSON, not an object, unknown operator,
// invalid regex) is not rejected: it matches every row.
export function filterPredicate(raw) {
  if (raw === undefined) return () => true;
  try {
    return compile(JSON.parse(raw));
  } catch {
    return () => true;
  }
}

export function sortRows(rows, key, asc) {
  const withVal = rows.map((r, i) => ({ r, i, v: valuesAt(r, key)[0] }));
  withVal.sort((a, b) => {
    const ma = a.v === undefined || a.v === null;
    const mb = b.v === undefined || b.v === null;
    let c;
    if (ma && mb) c = 0;
    else if (ma) c = -1;
    else if (mb) c = 1;
    else c = cmp(a.v, b.v);
    if (!asc) c = -c;
    return c || a.i - b.i;
  });
  return withVal.map((x) => x.r);
}

export function parseFields(q, name = 'fields') {
  if (!q.has(name)) return undefined;
  const out = [];
  for (const raw of q.getAll(name)) {
    let parts;
    const t = raw.trim();
    if (t.startsWith('[')) {
      try {
        const arr = JSON.parse(t);
        parts = Array.isArray(arr) ? arr.map(String) : [t];
      } catch {
        parts = t.split(',');
      }
    } else parts = t.split(',');
    for (const p of parts) if (p.trim()) out.push(p.trim());
  }
  return out;
}

export function project(obj, fields) {
  if (!fields) return obj;
  const out = {};
  for (const f of fields) {
    if (own(obj, f)) out[f] = obj[f];
    else if (f.includes('.')) {
      const top = f.split('.')[0];
      if (own(obj, top) && !own(out, top)) out[top] = obj[top];
    }
  }
  return out;
}

// Shared query parameters: sort_key, sort_dir (1 asc / 0 desc; default 0 when a sort_key is given),
// limit (unset = all; 0 = none), offset, fields, filter.
export function sharedQuery(q, { filterName = 'filter', offsetName = 'offset', limitName = 'limit' } = {}) {
  const sortKey = lastParam(q, 'sort_key');
  let sortAsc = false;
  if (q.has('sort_dir')) {
    const sd = lastParam(q, 'sort_dir');
    if (sd === '1') sortAsc = true;
    else if (sd === '0') sortAsc = false;
    else throw bad('sort_dir must be 1 (ascending) or 0 (descending)', 'INVALID_PARAMETER');
  }
  return {
    sortKey: sortKey === '' ? undefined : sortKey,
    sortAsc,
    limit: intParam(q, limitName),
    offset: intParam(q, offsetName) || 0,
    fields: parseFields(q),
    pred: filterPredicate(lastParam(q, filterName)),
  };
}

// Applies filter, sort and paging; returns the selected rows (not projected).
export function select(rows, sq, { paging = true } = {}) {
  let out = rows.filter(sq.pred);
  if (sq.sortKey) out = sortRows(out, sq.sortKey, sq.sortAsc);
  if (paging) {
    out = out.slice(sq.offset);
    if (sq.limit !== undefined) out = out.slice(0, sq.limit);
  }
  return out;
}
