// Filter rules, sorting, paging and field selection shared by the list endpoints.
import { bad, getPath, isObj, isStr, qp, intParam } from './util.mjs';
import { bug } from './bugs.mjs';

class Incorrect extends Error {}

function deepEq(a, b) {
  if (a === b) return true;
  if (typeof a !== typeof b || a === null || b === null) return false;
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((x, i) => deepEq(x, b[i]));
  if (isObj(a) && isObj(b)) {
    const ka = Object.keys(a);
    const kb = Object.keys(b);
    return ka.length === kb.length && ka.every((k) => deepEq(a[k], b[k]));
  }
  return false;
}
// values at a path, with arrays also contributing their elements
function flatVals(doc, field) {
  const vals = getPath(doc, field);
  const out = [];
  for (const v of vals) {
    out.push(v);
    if (Array.isArray(v)) out.push(...v);
  }
  return out;
}
function eqMatch(doc, field, value) {
  const vals = flatVals(doc, field);
  if (value === null && getPath(doc, field).length === 0) return true;
  return vals.some((v) => deepEq(v, value));
}
function cmp(a, b) {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (typeof a === 'string' && typeof b === 'string') return a < b ? -1 : a > b ? 1 : 0;
  return null;
}

function compileOps(field, ops) {
  const preds = [];
  for (const [op, arg] of Object.entries(ops)) {
    switch (op) {
      case '$eq':
        preds.push((d) => eqMatch(d, field, arg));
        break;
      case '$ne':
        preds.push((d) => !eqMatch(d, field, arg));
        break;
      case '$regex': {
        if (!isStr(arg)) throw new Incorrect();
        const flags = isStr(ops.$options) ? ops.$options.replace(/[^imsu]/g, '') : '';
        let re;
        try {
          re = new RegExp(arg, flags);
        } catch {
          throw new Incorrect();
        }
        preds.push((d) => flatVals(d, field).some((v) => isStr(v) && re.test(v)));
        break;
      }
      case '$options':
        if (!('$regex' in ops)) throw new Incorrect();
        break;
      case '$in':
      case '$nin': {
        if (!Array.isArray(arg)) throw new Incorrect();
        const p = (d) => arg.some((a) => eqMatch(d, field, a));
        preds.push(op === '$in' ? p : (d) => !p(d));
        break;
      }
      case '$gt':
      case '$gte':
      case '$lt':
      case '$lte': {
        const test = { $gt: (c) => c > 0, $gte: (c) => c >= 0, $lt: (c) => c < 0, $lte: (c) => c <= 0 }[op];
        preds.push((d) =>
          flatVals(d, field).some((v) => {
            const c = cmp(v, arg);
            return c !== null && test(c);
          }),
        );
        break;
      }
      case '$exists':
        preds.push((d) => getPath(d, field).length > 0 === Boolean(arg));
        break;
      case '$not': {
        if (!isObj(arg)) throw new Incorrect();
        const inner = compileOps(field, arg);
        preds.push((d) => !inner(d));
        break;
      }
      default:
        throw new Incorrect();
    }
  }
  return (d) => preds.every((p) => p(d));
}

function compile(f) {
  if (!isObj(f)) throw new Incorrect();
  const preds = [];
  for (const [k, v] of Object.entries(f)) {
    if (k === '$and' || k === '$or' || k === '$nor') {
      if (!Array.isArray(v) || !v.length) throw new Incorrect();
      const subs = v.map(compile);
      if (k === '$and') preds.push((d) => subs.every((s) => s(d)));
      else if (k === '$or') preds.push((d) => subs.some((s) => s(d)));
      else preds.push((d) => !subs.some((s) => s(d)));
    } else if (k.startsWith('$')) {
      throw new Incorrect();
    } else if (isObj(v) && Object.keys(v).some((x) => x.startsWith('$'))) {
      if (!Object.keys(v).every((x) => x.startsWith('$'))) throw new Incorrect();
      preds.push(compileOps(k, v));
    } else {
      preds.push((d) => eqMatch(d, k, v));
    }
  }
  return (d) => preds.every((p) => p(d));
}

// Returns a predicate. An incorrect filter is NOT rejected: it matches every row.
export function filterPredicate(raw) {
  if (raw === undefined || raw === null || raw === '') return () => true;
  try {
    const parsed = JSON.parse(raw);
    return compile(parsed);
  } catch {
    if (bug('bad_filter_400')) throw bad(`Invalid filter: ${raw}`);
    return () => true;
  }
}

// ---------------------------------------------------------------- sorting
function sortVal(o, key) {
  const v = getPath(o, key);
  return v.length ? v[0] : undefined;
}
function rank(v) {
  if (v === undefined || v === null) return 4;
  if (typeof v === 'number') return 0;
  if (typeof v === 'boolean') return 1;
  if (typeof v === 'string') return 2;
  return 3;
}
function cmpVals(a, b) {
  const ra = rank(a);
  const rb = rank(b);
  if (ra !== rb) return ra - rb;
  if (ra === 0) return a - b;
  if (ra === 1) return Number(a) - Number(b);
  if (ra === 2) {
    const la = a.toLowerCase();
    const lb = b.toLowerCase();
    return la < lb ? -1 : la > lb ? 1 : 0;
  }
  if (ra === 3) {
    const sa = JSON.stringify(a);
    const sb = JSON.stringify(b);
    return sa < sb ? -1 : sa > sb ? 1 : 0;
  }
  return 0;
}
const keyTie = (a, b) => (String(a._key) < String(b._key) ? -1 : String(a._key) > String(b._key) ? 1 : 0);

// asc: true/false. Missing values always sort last, in both directions.
export function sortList(list, key, asc) {
  const k = key || 'title';
  return [...list].sort((a, b) => {
    const va = sortVal(a, k);
    const vb = sortVal(b, k);
    const ma = va === undefined || va === null;
    const mb = vb === undefined || vb === null;
    if (ma !== mb) return ma ? 1 : -1;
    let c = cmpVals(va, vb);
    if (!asc) c = -c;
    return c || keyTie(a, b);
  });
}

// sort_dir for the integer form (1 ascending, 0 descending)
export function sortDirInt(query, dfltWithKey) {
  const v = qp(query, 'sort_dir');
  let asc;
  if (v === undefined || v === '') asc = qp(query, 'sort_key') ? dfltWithKey : true;
  else if (v === '1') asc = true;
  else if (v === '0') asc = false;
  else throw bad(`Invalid value for parameter "sort_dir": expected 1 (ascending) or 0 (descending), got "${v}"`);
  if (bug('sort_dir_inverted') && v !== undefined && v !== '') asc = !asc;
  return asc;
}

// ---------------------------------------------------------------- fields
export function parseFields(query, name = 'fields') {
  const all = query.getAll(name);
  if (!all.length) return undefined;
  const out = [];
  for (const raw of all) {
    const t = raw.trim();
    if (t.startsWith('[')) {
      try {
        const arr = JSON.parse(t);
        if (Array.isArray(arr)) {
          for (const x of arr) if (isStr(x) && x.trim()) out.push(x.trim());
          continue;
        }
      } catch {
        /* fall through to comma form */
      }
    }
    for (const f of t.split(',')) if (f.trim()) out.push(f.trim());
  }
  return out;
}
export function project(obj, fields) {
  if (!fields) return obj;
  const out = { _key: obj._key };
  for (const f of fields) {
    if (f in obj) {
      out[f] = obj[f];
      continue;
    }
    if (f.includes('.')) {
      const parts = f.split('.');
      let src = obj;
      let ok = true;
      for (const p of parts) {
        if (src !== null && typeof src === 'object' && !Array.isArray(src) && p in src) src = src[p];
        else {
          ok = false;
          break;
        }
      }
      if (!ok) continue;
      let dst = out;
      parts.slice(0, -1).forEach((p) => {
        if (!(dst[p] !== null && typeof dst[p] === 'object')) dst[p] = {};
        dst = dst[p];
      });
      dst[parts[parts.length - 1]] = src;
    }
  }
  return out;
}

// Applies the shared query parameters (filter, sort_key, sort_dir, offset, limit) to a list.
// names lets event management use skip/filter_data. Returns the selected page.
export function selectShared(list, query, names = {}) {
  const filterName = names.filter || 'filter';
  const offsetName = names.offset || 'offset';
  const limitName = names.limit || 'limit';
  const pred = filterPredicate(qp(query, filterName));
  const asc = sortDirInt(query, false); // sort_key without sort_dir: descending
  const limit = intParam(query, limitName);
  const offset = intParam(query, offsetName) || 0;
  let rows = list.filter(pred);
  rows = sortList(rows, qp(query, 'sort_key') || 'title', asc);
  rows = rows.slice(offset);
  if (limit) rows = rows.slice(0, limit); // unset or 0: everything
  return rows;
}
