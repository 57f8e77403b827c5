// Document-store style filtering, sorting, paging and field projection.
import { bad, isObj, parseNonNegInt } from './util.mjs';
import { bugs } from './bugs.mjs';

class BadFilter extends Error {}

function deepEqual(a, b) {
  if (a === b) return true;
  if (typeof a !== typeof b || a === null || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    return a.every((x, i) => deepEqual(x, b[i]));
  }
  if (typeof a === 'object') {
    if (Array.isArray(b)) return false;
    const ka = Object.keys(a),
      kb = Object.keys(b);
    if (ka.length !== kb.length) return false;
    return ka.every((k) => deepEqual(a[k], b[k]));
  }
  return false;
}

/** all values reachable at a dotted path, descending through arrays */
export function pathValues(doc, path) {
  let cur = [doc];
  for (const part of path.split('.')) {
    const next = [];
    for (const v of cur) {
      if (Array.isArray(v)) {
        if (/^\d+$/.test(part) && v[Number(part)] !== undefined) next.push(v[Number(part)]);
        for (const el of v) if (isObj(el) && Object.hasOwn(el, part)) next.push(el[part]);
      } else if (isObj(v) && Object.hasOwn(v, part)) next.push(v[part]);
    }
    cur = next;
  }
  const out = [];
  for (const v of cur) {
    out.push(v);
    if (Array.isArray(v)) out.push(...v);
  }
  return out;
}

function cmpSameType(a, b) {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (typeof a === 'string' && typeof b === 'string') return a < b ? -1 : a > b ? 1 : 0;
  return null;
}

function compileOps(path, ops) {
  const tests = [];
  for (const [op, arg] of Object.entries(ops)) {
    switch (op) {
      case '$eq':
        tests.push((vals) => eqMatch(vals, arg));
        break;
      case '$ne':
        tests.push((vals) => !eqMatch(vals, arg));
        break;
      case '$in':
        if (!Array.isArray(arg)) throw new BadFilter();
        tests.push((vals) => arg.some((a) => eqMatch(vals, a)));
        break;
      case '$nin':
        if (!Array.isArray(arg)) throw new BadFilter();
        tests.push((vals) => !arg.some((a) => eqMatch(vals, a)));
        break;
      case '$gt':
      case '$gte':
      case '$lt':
      case '$lte': {
        if (typeof arg !== 'number' && typeof arg !== 'string') throw new BadFilter();
        const f = { $gt: (c) => c > 0, $gte: (c) => c >= 0, $lt: (c) => c < 0, $lte: (c) => c <= 0 }[op];
        tests.push((vals) =>
          vals.some((v) => {
            const c = cmpSameType(v, arg);
            return c !== null && f(c);
          }),
        );
        break;
      }
      case '$exists':
        tests.push((vals) => vals.length > 0 === Boolean(arg));
        break;
      case '$regex': {
        if (typeof arg !== 'string') throw new BadFilter();
        const flags = typeof ops.$options === 'string' ? ops.$options : '';
        if (!/^[imsx]*$/.test(flags)) throw new BadFilter();
        let re;
        try {
          re = new RegExp(arg, flags.replace('x', ''));
        } catch {
          throw new BadFilter();
        }
        tests.push((vals) => vals.some((v) => typeof v === 'string' && re.test(v)));
        break;
      }
      case '$options':
        if (!('$regex' in ops)) throw new BadFilter();
        break;
      case '$not': {
        if (!isObj(arg)) throw new BadFilter();
        const inner = compileOps(path, arg);
        tests.push((vals) => !inner(vals));
        break;
      }
      default:
        throw new BadFilter();
    }
  }
  return (vals) => tests.every((t) => t(vals));
}

function eqMatch(vals, target) {
  if (target === null && vals.length === 0) return true;
  if (bugs.has('filter-case-insensitive') && typeof target === 'string')
    return vals.some((v) => typeof v === 'string' && v.toLowerCase() === target.toLowerCase());
  return vals.some((v) => deepEqual(v, target));
}

function compile(expr) {
  if (!isObj(expr)) throw new BadFilter();
  const preds = [];
  for (const [k, v] of Object.entries(expr)) {
    if (k === '$and' || k === '$or' || k === '$nor') {
      if (!Array.isArray(v) || v.length === 0) throw new BadFilter();
      const subs = v.map(compile);
      if (k === '$and') preds.push((d) => subs.every((s) => s(d)));
      else if (k === '$or') preds.push((d) => subs.some((s) => s(d)));
      else preds.push((d) => !subs.some((s) => s(d)));
    } else if (k.startsWith('$')) {
      throw new BadFilter();
    } else if (isObj(v) && Object.keys(v).some((x) => x.startsWith('$'))) {
      if (!Object.keys(v).every((x) => x.startsWith('$'))) throw new BadFilter();
      const t = compileOps(k, v);
      preds.push((d) => t(pathValues(d, k)));
    } else {
      preds.push((d) => eqMatch(pathValues(d, k), v));
    }
  }
  return (d) => preds.every((p) => p(d));
}

/**
 * Parse a filter string. Returns a predicate, or null meaning "no usable filter":
 * absent and incorrect filters both select ALL rows (the document's rule).
 */
export function parseFilter(raw) {
  if (raw === undefined || raw === null || raw === '') return null;
  let expr;
  try {
    expr = JSON.parse(raw);
  } catch {
    return null; // incorrect filter syntax is not rejected
  }
  try {
    return compile(expr);
  } catch (e) {
    if (e instanceof BadFilter) return null;
    throw e;
  }
}

const rank = (v) =>
  v === undefined || v === null
    ? 0
    : typeof v === 'number'
      ? 1
      : typeof v === 'string'
        ? 2
        : Array.isArray(v)
          ? 4
          : typeof v === 'object'
            ? 3
            : typeof v === 'boolean'
              ? 5
              : 6;

export function compareValues(a, b) {
  const ra = rank(a),
    rb = rank(b);
  if (ra !== rb) return ra - rb;
  if (ra === 1) return a - b;
  if (ra === 2) {
    const la = a.toLowerCase(),
      lb = b.toLowerCase();
    if (la !== lb) return la < lb ? -1 : 1;
    return a < b ? -1 : a > b ? 1 : 0;
  }
  if (ra === 5) return Number(a) - Number(b);
  if (ra === 3 || ra === 4) {
    const sa = JSON.stringify(a),
      sb = JSON.stringify(b);
    return sa < sb ? -1 : sa > sb ? 1 : 0;
  }
  return 0;
}

/** Sort a list of {doc, seq}. No sort key -> reverse insertion order. asc: boolean */
export function sortRows(rows, sortKey, asc) {
  if (!sortKey) return rows.sort((a, b) => b.seq - a.seq);
  return rows.sort((a, b) => {
    const va = pathValues(a.doc, sortKey)[0];
    const vb = pathValues(b.doc, sortKey)[0];
    const c = compareValues(va, vb);
    if (c !== 0) return asc ? c : -c;
    return b.seq - a.seq;
  });
}

/** numeric sort_dir 1 ascending / 0 descending; default ascending */
export function parseSortDirNumeric(v) {
  if (v === undefined || v === null || v === '') return true;
  const s = String(v).trim();
  if (s === '1') return true;
  if (s === '0') return false;
  throw bad(`Parameter 'sort_dir' must be 1 (ascending) or 0 (descending); got ${JSON.stringify(v)}`);
}

/** fields parameter: comma separated, repeated, or a JSON array */
export function parseFields(params, name = 'fields') {
  const all = params.getAll(name);
  if (all.length === 0) return null;
  const out = [];
  for (const raw of all) {
    const t = raw.trim();
    if (t.startsWith('[')) {
      let arr;
      try {
        arr = JSON.parse(t);
      } catch {
        throw bad(`Parameter '${name}' is not a valid JSON array`);
      }
      if (!Array.isArray(arr) || !arr.every((x) => typeof x === 'string')) throw bad(`Parameter '${name}' must list field names`);
      out.push(...arr);
    } else out.push(...t.split(','));
  }
  const names = out.map((s) => s.trim()).filter(Boolean);
  return names.length ? names : null;
}

function pick(src, parts) {
  if (parts.length === 0) return src;
  if (Array.isArray(src)) {
    const arr = src
      .filter(isObj)
      .map((el) => pick(el, parts))
      .filter((x) => x !== undefined);
    return arr.length ? arr : undefined;
  }
  if (!isObj(src) || !Object.hasOwn(src, parts[0])) return undefined;
  const inner = pick(src[parts[0]], parts.slice(1));
  return inner === undefined ? undefined : { [parts[0]]: inner };
}

function deepMerge(a, b) {
  if (isObj(a) && isObj(b)) {
    const out = { ...a };
    for (const [k, v] of Object.entries(b)) out[k] = k in out ? deepMerge(out[k], v) : v;
    return out;
  }
  if (Array.isArray(a) && Array.isArray(b) && a.length === b.length) return a.map((x, i) => deepMerge(x, b[i]));
  return b;
}

/** keep only the named fields (dotted paths allowed); _key is always kept */
export function project(doc, fields) {
  if (!fields) return doc;
  let out = {};
  if (doc._key !== undefined) out._key = doc._key;
  for (const f of fields) {
    const v = pick(doc, f.split('.'));
    if (v !== undefined) out = deepMerge(out, v);
  }
  return out;
}

/** Read shared list parameters. opts.offsetNames e.g. ['offset'] or ['skip','offset'] */
export function listParams(params, { limitNames = ['limit', 'count'], offsetNames = ['offset'], filterNames = ['filter'] } = {}) {
  const pick = (names) => {
    for (const n of names) if (params.has(n)) return [n, params.get(n)];
    return [names[0], undefined];
  };
  const [ln, lv] = pick(limitNames);
  const [on, ov] = pick(offsetNames);
  const [, fv] = pick(filterNames);
  return {
    sortKey: params.get('sort_key') || null,
    asc: bugs.has('sort-dir-ignored') ? parseSortDirNumeric(params.get('sort_dir')) || true : parseSortDirNumeric(params.get('sort_dir')),
    limit: parseNonNegInt(lv, ln),
    offset: parseNonNegInt(ov, on) || 0,
    fields: parseFields(params),
    filter: parseFilter(fv),
  };
}

/** rows: [{doc, seq}] (doc is the caller-visible view). Returns selected rows (not projected). */
export function select(rows, p) {
  let r = p.filter ? rows.filter((x) => p.filter(x.doc)) : rows.slice();
  sortRows(r, p.sortKey, p.asc);
  r = r.slice(p.offset);
  if (p.limit !== undefined) r = r.slice(0, bugs.has('limit-off-by-one') ? p.limit + 1 : p.limit);
  return r;
}
