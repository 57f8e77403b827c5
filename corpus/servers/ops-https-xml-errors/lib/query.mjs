// Query-string helpers: document-store filters, sorting, paging, projection.
import { bad, deepEqual, isObj, bug } from './util.mjs';

// ---------- parameter parsing ----------
export function intParam(q, name, { min = 0 } = {}) {
  if (!q.has(name)) return undefined;
  const v = q.get(name);
  if (!/^\d+$/.test(v)) throw bad(`Invalid value for parameter ${name}: must be a non-negative integer`);
  const n = Number(v);
  if (!Number.isSafeInteger(n) || n < min) throw bad(`Invalid value for parameter ${name}`);
  return n;
}
// Strict Boolean 1/0 parameters.
export function bool10Param(q, name, dflt = 0) {
  if (!q.has(name)) return dflt;
  const v = q.get(name);
  if (v === '1') return 1;
  if (v === '0') return 0;
  throw bad(`Invalid value for parameter ${name}: expected 1 or 0`);
}
export function fieldsParam(q, name = 'fields') {
  if (!q.has(name)) return undefined;
  const all = q.getAll(name).join(',');
  const list = all
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  return list.length ? list : undefined;
}

// ---------- value access with array fan-out (document-store semantics) ----------
export function valuesAt(obj, path) {
  let cur = [obj];
  for (const seg of path.split('.')) {
    const next = [];
    for (const c of cur) {
      if (Array.isArray(c)) {
        for (const el of c) if (isObj(el) && Object.hasOwn(el, seg)) next.push(el[seg]);
        if (/^\d+$/.test(seg) && Number(seg) < c.length) next.push(c[Number(seg)]);
      } else if (isObj(c) && Object.hasOwn(c, seg)) next.push(c[seg]);
    }
    cur = next;
    if (!cur.length) break;
  }
  // expand terminal arrays too (a field holding an array matches its elements)
  const out = [];
  for (const v of cur) {
    out.push(v);
    if (Array.isArray(v)) out.push(...v);
  }
  return out;
}

function cmpVal(a, b) {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (typeof a === 'string' && typeof b === 'string') return a < b ? -1 : a > b ? 1 : 0;
  return null;
}

class FilterError extends Error {}

function compileCond(path, cond) {
  if (isObj(cond) && Object.keys(cond).length && Object.keys(cond).every((k) => k.startsWith('$'))) {
    const preds = [];
    const regexOptions = cond.$options;
    if (regexOptions !== undefined && typeof regexOptions !== 'string') throw new FilterError();
    for (const [op, arg] of Object.entries(cond)) {
      switch (op) {
        case '$options':
          if (!('$regex' in cond)) throw new FilterError();
          break;
        case '$regex': {
          if (typeof arg !== 'string') throw new FilterError();
          let re;
          try {
            re = new RegExp(arg, (regexOptions || '').replace(/[^imsu]/g, ''));
          } catch {
            throw new FilterError();
          }
          preds.push((o) => valuesAt(o, path).some((v) => typeof v === 'string' && re.test(v)));
          break;
        }
        case '$ne':
          preds.push((o) => !valuesAt(o, path).some((v) => deepEqual(v, arg)));
          break;
        case '$eq':
          preds.push((o) => valuesAt(o, path).some((v) => deepEqual(v, arg)));
          break;
        case '$in':
          if (!Array.isArray(arg)) throw new FilterError();
          preds.push((o) => valuesAt(o, path).some((v) => arg.some((a) => deepEqual(v, a))));
          break;
        case '$nin':
          if (!Array.isArray(arg)) throw new FilterError();
          preds.push((o) => !valuesAt(o, path).some((v) => arg.some((a) => deepEqual(v, a))));
          break;
        case '$gt':
        case '$gte':
        case '$lt':
        case '$lte':
          preds.push((o) =>
            valuesAt(o, path).some((v) => {
              const c = cmpVal(v, arg);
              if (c === null) return false;
              return op === '$gt' ? c > 0 : op === '$gte' ? c >= 0 : op === '$lt' ? c < 0 : c <= 0;
            }),
          );
          break;
        case '$exists':
          preds.push((o) => valuesAt(o, path).length > 0 === Boolean(arg));
          break;
        default:
          throw new FilterError();
      }
    }
    return (o) => preds.every((p) => p(o));
  }
  return (o) => valuesAt(o, path).some((v) => deepEqual(v, cond));
}

function compileDoc(doc) {
  if (!isObj(doc)) throw new FilterError();
  const preds = [];
  for (const [k, v] of Object.entries(doc)) {
    if (k === '$and' || k === '$or' || k === '$nor') {
      if (!Array.isArray(v) || !v.length) throw new FilterError();
      const subs = v.map(compileDoc);
      if (k === '$and') preds.push((o) => subs.every((s) => s(o)));
      else if (k === '$or') preds.push((o) => subs.some((s) => s(o)));
      else preds.push((o) => !subs.some((s) => s(o)));
    } else if (k.startsWith('$')) {
      throw new FilterError();
    } else {
      preds.push(compileCond(k, v));
    }
  }
  return (o) => preds.every((p) => p(o));
}

const NONE = () => false;
// Returns a predicate.  An incorrect filter is not rejected: it matches every row
// (so GET returns all rows and DELETE deletes all rows).
export function compileFilter(raw) {
  if (raw === undefined || raw === null) return () => true;
  try {
    const doc = JSON.parse(raw);
    return compileDoc(doc);
  } catch {
    return bug('bad_filter_empty') ? NONE : () => true;
  }
}

// ---------- sorting ----------
function typeRank(v) {
  if (typeof v === 'number') return 1;
  if (typeof v === 'string') return 2;
  if (isObj(v)) return 3;
  if (Array.isArray(v)) return 4;
  if (typeof v === 'boolean') return 5;
  return 6;
}
function firstValue(o, path) {
  const vs = valuesAt(o, path);
  return vs.length ? vs[0] : undefined;
}
export function compareValues(a, b) {
  const ra = typeRank(a),
    rb = typeRank(b);
  if (ra !== rb) return ra - rb;
  if (ra === 1) return a - b;
  if (ra === 2) return a < b ? -1 : a > b ? 1 : 0;
  if (ra === 5) return Number(a) - Number(b);
  const sa = JSON.stringify(a),
    sb = JSON.stringify(b);
  return sa < sb ? -1 : sa > sb ? 1 : 0;
}

// rows: [{obj, seq}] ; asc: boolean.  Missing values always go last; ties newest first.
export function sortRows(rows, sortKey, asc) {
  if (!sortKey) {
    return rows.sort((x, y) => (asc ? x.seq - y.seq : y.seq - x.seq));
  }
  return rows.sort((x, y) => {
    const a = firstValue(x.obj, sortKey),
      b = firstValue(y.obj, sortKey);
    const ma = a === undefined || a === null,
      mb = b === undefined || b === null;
    if (ma || mb) {
      if (ma && mb) return y.seq - x.seq;
      return ma ? 1 : -1;
    }
    const c = compareValues(a, b);
    if (c !== 0) return asc ? c : -c;
    return y.seq - x.seq;
  });
}

// Shared sort_dir: 1 ascending, 0 descending; default descending.
export function sortDir10(q, name = 'sort_dir') {
  if (!q.has(name)) return false;
  const v = q.get(name);
  const inv = bug('sort_dir_inverted');
  if (v === '1') return !inv;
  if (v === '0') return inv;
  throw bad(`Invalid value for parameter ${name}: expected 1 (ascending) or 0 (descending)`);
}

export function page(rows, offset, limit) {
  const start = offset || 0;
  if (limit === undefined) return rows.slice(start);
  return rows.slice(start, start + limit);
}

// Projection: only the requested (possibly dotted) fields, nothing added.
export function project(obj, fields) {
  if (!fields) return obj;
  const out = {};
  for (const f of fields) {
    if (Object.hasOwn(obj, f)) {
      out[f] = obj[f];
      continue;
    }
    const segs = f.split('.');
    if (segs.length < 2) continue;
    const val = projectPath(obj, segs);
    if (val !== undefined) mergeInto(out, segs[0], val[segs[0]]);
  }
  return out;
}
function projectPath(obj, segs) {
  if (!segs.length) return obj;
  if (Array.isArray(obj)) {
    const arr = obj.map((el) => projectPath(el, segs)).filter((x) => x !== undefined);
    return arr.length ? arr : undefined;
  }
  if (!isObj(obj) || !Object.hasOwn(obj, segs[0])) return undefined;
  const inner = projectPath(obj[segs[0]], segs.slice(1));
  if (inner === undefined) return undefined;
  return { [segs[0]]: inner };
}
function mergeInto(out, k, v) {
  if (isObj(out[k]) && isObj(v)) {
    for (const [kk, vv] of Object.entries(v)) mergeInto(out[k], kk, vv);
  } else out[k] = v;
}
