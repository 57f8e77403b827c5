// Filter rules, sorting, paging and field projection shared by the listing endpoints.
import { bad, isObj } from './util.mjs';
import { bug } from './bugs.mjs';

const OPS = new Set(['$regex', '$options', '$ne', '$eq', '$in', '$nin', '$gt', '$gte', '$lt', '$lte', '$exists', '$not']);
const LOGIC = new Set(['$and', '$or', '$nor']);

class Incorrect extends Error {}

function makeRegex(pattern, options = '') {
  if (typeof pattern !== 'string') throw new Incorrect('regex must be a string');
  let p = pattern;
  let flags = '';
  const m = /^\(\?([imsx]+)\)/.exec(p);
  if (m) {
    p = p.slice(m[0].length);
    options += m[1];
  }
  if (typeof options !== 'string') throw new Incorrect('bad $options');
  for (const c of options) if ('ims'.includes(c) && !flags.includes(c)) flags += c;
  try {
    return new RegExp(p, flags);
  } catch {
    throw new Incorrect('bad regex');
  }
}

// Compile a parsed filter into a predicate; throws Incorrect for anything outside document-store syntax.
function compile(f) {
  if (!isObj(f)) throw new Incorrect('filter must be an object');
  const preds = [];
  for (const [k, v] of Object.entries(f)) {
    if (LOGIC.has(k)) {
      if (!Array.isArray(v) || v.length === 0) throw new Incorrect(`${k} needs a non-empty array`);
      const subs = v.map(compile);
      if (k === '$and') preds.push((o) => subs.every((s) => s(o)));
      else if (k === '$or') preds.push((o) => subs.some((s) => s(o)));
      else preds.push((o) => !subs.some((s) => s(o)));
    } else if (k.startsWith('$')) {
      throw new Incorrect(`unknown top-level operator ${k}`);
    } else {
      const cond = compileCond(v);
      preds.push((o) => cond(valuesAt(o, k), hasPath(o, k)));
    }
  }
  return (o) => preds.every((p) => p(o));
}

function compileCond(v) {
  if (isObj(v) && Object.keys(v).length > 0 && Object.keys(v).every((k) => k.startsWith('$'))) {
    const parts = [];
    for (const [op, arg] of Object.entries(v)) {
      if (!OPS.has(op)) throw new Incorrect(`unknown operator ${op}`);
      switch (op) {
        case '$options':
          break;
        case '$regex': {
          const re = makeRegex(arg, v.$options || '');
          parts.push((vals) => vals.some((x) => typeof x === 'string' && re.test(x)));
          break;
        }
        case '$eq':
          parts.push((vals) => anyEq(vals, arg));
          break;
        case '$ne':
          parts.push((vals) => !anyEq(vals, arg));
          break;
        case '$in':
          if (!Array.isArray(arg)) throw new Incorrect('$in needs an array');
          parts.push((vals) => arg.some((a) => anyEq(vals, a)));
          break;
        case '$nin':
          if (!Array.isArray(arg)) throw new Incorrect('$nin needs an array');
          parts.push((vals) => !arg.some((a) => anyEq(vals, a)));
          break;
        case '$gt':
        case '$gte':
        case '$lt':
        case '$lte':
          if (typeof arg !== 'number' && typeof arg !== 'string') throw new Incorrect(`${op} needs a scalar`);
          parts.push((vals) => vals.some((x) => typeof x === typeof arg && cmpOp(op, x, arg)));
          break;
        case '$exists':
          parts.push((_vals, has) => (arg ? has : !has));
          break;
        case '$not': {
          const inner = compileCond(arg);
          parts.push((vals, has) => !inner(vals, has));
          break;
        }
      }
    }
    if (parts.length === 0) throw new Incorrect('$options alone');
    return (vals, has) => parts.every((p) => p(vals, has));
  }
  return (vals) => anyEq(vals, v);
}

function cmpOp(op, a, b) {
  if (op === '$gt') return a > b;
  if (op === '$gte') return a >= b;
  if (op === '$lt') return a < b;
  return a <= b;
}

function deepEq(a, b) {
  if (a === b) return true;
  if (typeof a !== typeof b || a === null || b === null || typeof a !== 'object') return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  return ka.every((k) => deepEq(a[k], b[k]));
}
// Typed equality; an array field matches when it equals the value or one element does.
function anyEq(vals, v) {
  return vals.some((x) => deepEq(x, v) || (Array.isArray(x) && x.some((e) => deepEq(e, v))));
}

function valuesAt(o, path) {
  let cur = [o];
  for (const part of path.split('.')) {
    const next = [];
    for (const c of cur) {
      if (Array.isArray(c)) {
        for (const e of c) if (isObj(e) && Object.hasOwn(e, part)) next.push(e[part]);
        if (/^\d+$/.test(part) && Number(part) < c.length) next.push(c[Number(part)]);
      } else if (isObj(c) && Object.hasOwn(c, part)) next.push(c[part]);
    }
    cur = next;
  }
  return cur;
}
const hasPath = (o, path) => valuesAt(o, path).length > 0;

// Returns {predicate, incorrect}. A missing filter matches everything.
export function parseFilter(raw) {
  if (raw === undefined || raw === null) return { predicate: () => true, incorrect: false, given: false };
  try {
    let v;
    try {
      v = JSON.parse(raw);
    } catch {
      throw new Incorrect('not JSON');
    }
    return { predicate: compile(v), incorrect: false, given: true };
  } catch (e) {
    if (!(e instanceof Incorrect)) throw e;
    if (bug('bad_filter_400')) throw bad(`Invalid filter: ${e.message}`);
    return { predicate: () => true, incorrect: true, given: true };
  }
}

// ---------- sorting ----------
function rank(v) {
  if (v === undefined || v === null) return 9;
  if (typeof v === 'number') return 1;
  if (typeof v === 'string') return 2;
  if (typeof v === 'boolean') return 3;
  return 4;
}
function cmpVal(a, b) {
  const ra = rank(a);
  const rb = rank(b);
  if (ra !== rb) return ra - rb;
  if (ra === 1) return a - b;
  if (ra === 2) {
    const la = a.toLowerCase();
    const lb = b.toLowerCase();
    if (la !== lb) return la < lb ? -1 : 1;
    return a < b ? -1 : a > b ? 1 : 0;
  }
  if (ra === 3) return Number(a) - Number(b);
  if (ra === 4) {
    const sa = JSON.stringify(a);
    const sb = JSON.stringify(b);
    return sa < sb ? -1 : sa > sb ? 1 : 0;
  }
  return 0;
}
function sortValue(o, key) {
  const vals = valuesAt(o, key);
  return vals.length ? vals[0] : undefined;
}
// Missing values always go last, whatever the direction.
export function sortRows(rows, key, ascending) {
  if (!key) return ascending ? rows : rows;
  const withIdx = rows.map((r, i) => [r, i, sortValue(r, key)]);
  withIdx.sort((x, y) => {
    const mx = x[2] === undefined || x[2] === null;
    const my = y[2] === undefined || y[2] === null;
    if (mx !== my) return mx ? 1 : -1;
    let c = cmpVal(x[2], y[2]);
    if (!ascending) c = -c;
    return c || x[1] - y[1];
  });
  return withIdx.map((x) => x[0]);
}

// ---------- projection ----------
function projectOne(o, path) {
  const [head, ...rest] = path.split('.');
  if (!Object.hasOwn(o, head)) return undefined;
  if (!rest.length) return { [head]: o[head] };
  const v = o[head];
  if (Array.isArray(v)) return { [head]: v.filter(isObj).map((e) => projectOne(e, rest.join('.')) || {}) };
  if (isObj(v)) {
    const sub = projectOne(v, rest.join('.'));
    return sub === undefined ? undefined : { [head]: sub };
  }
  return undefined;
}
function mergeProj(a, b) {
  for (const [k, v] of Object.entries(b)) {
    if (isObj(a[k]) && isObj(v)) mergeProj(a[k], v);
    else if (Array.isArray(a[k]) && Array.isArray(v)) a[k] = a[k].map((e, i) => (isObj(e) && isObj(v[i]) ? mergeProj(e, v[i]) : e));
    else a[k] = v;
  }
  return a;
}
export function project(o, fields) {
  if (!fields) return o;
  const out = {};
  for (const f of fields) {
    const p = projectOne(o, f);
    if (p) mergeProj(out, structuredClone(p));
  }
  return out;
}

// ---------- shared query parameters ----------
export function lastParam(q, name) {
  const all = q.getAll(name);
  return all.length ? all[all.length - 1] : undefined;
}

function parseNonNegInt(name, raw) {
  if (raw === undefined || raw === '') return undefined;
  if (!/^\s*\+?\d+\s*$/.test(raw)) throw bad(`Parameter ${name} must be a non-negative integer, got "${raw}"`);
  const n = Number(raw);
  if (!Number.isSafeInteger(n)) throw bad(`Parameter ${name} is too large`);
  return n;
}

export function parseFieldsList(raw) {
  if (raw === undefined) return undefined;
  if (raw === '') return [];
  return raw
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s.length);
}

/**
 * opts: limitName, offsetName, filterName, dirMode ('int' | 'asc-desc' | 'asc-des'), fieldsMode ('csv' | 'array')
 */
export function parseListParams(q, opts = {}) {
  const limitName = opts.limitName || 'limit';
  const offsetName = opts.offsetName || 'offset';
  const filterName = opts.filterName || 'filter';
  const dirMode = opts.dirMode || 'int';
  const sortKey = lastParam(q, 'sort_key') || undefined;
  const rawDir = lastParam(q, 'sort_dir');
  let ascending;
  if (rawDir === undefined || rawDir === '')
    ascending = false; // default descending
  else if (dirMode === 'int') {
    if (rawDir.trim() === '1') ascending = true;
    else if (rawDir.trim() === '0') ascending = false;
    else throw bad(`sort_dir must be 1 (ascending) or 0 (descending), got "${rawDir}"`);
  } else {
    const d = rawDir.trim();
    const descWord = dirMode === 'asc-des' ? 'des' : 'desc';
    if (d === 'asc') ascending = true;
    else if (d === descWord) ascending = false;
    else throw bad(`sort_dir must be "asc" or "${descWord}", got "${rawDir}"`);
  }
  if (bug('sort_dir_inverted') && rawDir !== undefined && rawDir !== '') ascending = !ascending;
  const limit = parseNonNegInt(limitName, lastParam(q, limitName));
  const offset = parseNonNegInt(offsetName, lastParam(q, offsetName)) || 0;
  let fields;
  if (opts.fieldsMode === 'array') {
    const all = q.getAll('fields');
    if (all.length) {
      fields = [];
      for (const raw of all) {
        const t = raw.trim();
        if (t.startsWith('[')) {
          let arr;
          try {
            arr = JSON.parse(t);
          } catch {
            throw bad('fields must be a JSON array or comma-separated names');
          }
          if (!Array.isArray(arr) || arr.some((x) => typeof x !== 'string')) throw bad('fields must be an array of strings');
          fields.push(...arr);
        } else fields.push(...parseFieldsList(raw));
      }
    }
  } else fields = parseFieldsList(lastParam(q, 'fields'));
  const filter = parseFilter(lastParam(q, filterName));
  return {
    sortKey,
    ascending,
    sortGiven: rawDir !== undefined && rawDir !== '',
    limit,
    offset,
    fields,
    filter,
    zeroMeansAll: !!opts.zeroMeansAll,
  };
}

// Select rows for a listing. rows are in default order already.
export function selectRows(rows, p, { paging = true } = {}) {
  let out = rows.filter((r) => p.filter.predicate(r));
  if (p.sortKey) out = sortRows(out, p.sortKey, p.ascending);
  else if (p.sortGiven && p.ascending) out = out.slice().reverse();
  // An incorrect filter returns ALL rows of the type: paging is not applied then.
  if (paging && !p.filter.incorrect) {
    let off = p.offset;
    if (bug('offset_needs_limit') && p.limit === undefined) off = 0;
    out = out.slice(off);
    if (p.limit !== undefined && !(p.limit === 0 && p.zeroMeansAll)) out = out.slice(0, p.limit);
  }
  return out;
}
