// Filter rules, sorting, paging and field selection shared by the listing endpoints.
import { bug } from './bugs.mjs';
import { intParam, isPlainObject } from './http.mjs';

function deepEqual(a, b) {
  if (a === b) return true;
  if (typeof a !== typeof b || a === null || b === null || typeof a !== 'object') return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) return a.length === b.length && a.every((v, i) => deepEqual(v, b[i]));
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  return ka.length === kb.length && ka.every((k) => Object.hasOwn(b, k) && deepEqual(a[k], b[k]));
}

/** Values at a dotted path. A path crosses arrays of objects; the last value is never opened. */
function resolvePath(row, path) {
  let current = [row];
  for (const seg of String(path).split('.')) {
    const next = [];
    for (const v of current) {
      if (Array.isArray(v)) {
        if (/^\d+$/.test(seg)) {
          if (Number(seg) < v.length) next.push(v[Number(seg)]);
        } else {
          for (const el of v) if (isPlainObject(el) && Object.hasOwn(el, seg)) next.push(el[seg]);
        }
      } else if (isPlainObject(v) && Object.hasOwn(v, seg)) {
        next.push(v[seg]);
      }
    }
    current = next;
  }
  return current;
}

class BadFilter extends Error {}

function rank(v) {
  if (v === undefined || v === null) return 0;
  if (typeof v === 'number') return 1;
  if (typeof v === 'string') return 2;
  if (typeof v === 'boolean') return 4;
  return 3;
}

function compareValues(a, b) {
  const ra = rank(a);
  const rb = rank(b);
  if (ra !== rb) return ra - rb;
  if (ra === 1) return a - b;
  if (ra === 2) return a.localeCompare(b, 'en', { sensitivity: 'base', numeric: true });
  if (ra === 4) return Number(a) - Number(b);
  if (ra === 3) return JSON.stringify(a).localeCompare(JSON.stringify(b));
  return 0;
}

function operatorTest(path, ops) {
  const tests = [];
  for (const [op, arg] of Object.entries(ops)) {
    switch (op) {
      case '$eq':
        tests.push((vals) => vals.some((v) => deepEqual(v, arg)));
        break;
      case '$ne':
        tests.push((vals) => vals.length > 0 && vals.every((v) => !deepEqual(v, arg)));
        break;
      case '$regex': {
        if (typeof arg !== 'string') throw new BadFilter('$regex needs a string');
        let re;
        try {
          re = new RegExp(arg, typeof ops.$options === 'string' ? ops.$options.replace(/[^imsu]/g, '') : '');
        } catch {
          throw new BadFilter('bad pattern');
        }
        tests.push((vals) => vals.some((v) => typeof v === 'string' && re.test(v)));
        break;
      }
      case '$options':
        if (!Object.hasOwn(ops, '$regex')) throw new BadFilter('$options without $regex');
        break;
      case '$in':
        if (!Array.isArray(arg)) throw new BadFilter('$in needs an array');
        tests.push((vals) => vals.some((v) => arg.some((a) => deepEqual(v, a))));
        break;
      case '$nin':
        if (!Array.isArray(arg)) throw new BadFilter('$nin needs an array');
        tests.push((vals) => vals.length > 0 && vals.every((v) => !arg.some((a) => deepEqual(v, a))));
        break;
      case '$gt':
      case '$gte':
      case '$lt':
      case '$lte':
        tests.push((vals) =>
          vals.some((v) => {
            if (rank(v) !== rank(arg) || rank(v) === 0) return false;
            const c = compareValues(v, arg);
            return op === '$gt' ? c > 0 : op === '$gte' ? c >= 0 : op === '$lt' ? c < 0 : c <= 0;
          }),
        );
        break;
      case '$exists':
        tests.push((vals) => vals.length > 0 === Boolean(arg));
        break;
      default:
        throw new BadFilter(`unknown operator ${op}`);
    }
  }
  return (row) => {
    const vals = resolvePath(row, path);
    return tests.every((t) => t(vals));
  };
}

function compile(expr) {
  if (!isPlainObject(expr)) throw new BadFilter('a filter is a JSON object');
  const parts = [];
  for (const [key, cond] of Object.entries(expr)) {
    if (key === '$and' || key === '$or' || key === '$nor') {
      if (!Array.isArray(cond) || cond.length === 0) throw new BadFilter(`${key} needs a non-empty array`);
      const subs = cond.map(compile);
      if (key === '$and') parts.push((r) => subs.every((s) => s(r)));
      else if (key === '$or') parts.push((r) => subs.some((s) => s(r)));
      else parts.push((r) => !subs.some((s) => s(r)));
      continue;
    }
    if (key.startsWith('$') || key === '') throw new BadFilter(`unknown operator ${key}`);
    const opKeys = isPlainObject(cond) ? Object.keys(cond) : [];
    const dollar = opKeys.filter((k) => k.startsWith('$'));
    if (dollar.length > 0 && dollar.length !== opKeys.length) throw new BadFilter('operators mixed with fields');
    if (dollar.length > 0) parts.push(operatorTest(key, cond));
    else parts.push((r) => resolvePath(r, key).some((v) => deepEqual(v, cond)));
  }
  return (r) => parts.every((p) => p(r));
}

/** { ok: true, match } for a usable filter (or none); { ok: false } for an incorrect one. */
export function parseFilter(raw) {
  if (raw === undefined || raw === null || raw === '') return { ok: true, match: () => true, given: false };
  let expr = raw;
  if (typeof raw === 'string') {
    try {
      expr = JSON.parse(raw);
    } catch {
      return { ok: false, match: () => true, given: true };
    }
  }
  try {
    return { ok: true, match: compile(expr), given: true };
  } catch (e) {
    if (e instanceof BadFilter) return { ok: false, match: () => true, given: true };
    throw e;
  }
}

/** sort_dir: 1/asc ascending; 0/-1/desc/des descending; unset reads as the integer default 0. */
function ascending(dir) {
  let asc = false;
  if (dir !== undefined && dir !== null && dir !== '') {
    const d = String(dir).trim().toLowerCase();
    asc = d === '1' || d === 'asc' || d === 'ascending' || d === 'true';
  }
  return bug('sort-dir-inverted') ? !asc : asc;
}

export function sortRows(rows, key, dir) {
  if (!key) return rows;
  const asc = ascending(dir);
  const keyed = rows.map((r, i) => ({ r, i, v: resolvePath(r, key)[0] }));
  keyed.sort((a, b) => {
    const c = compareValues(a.v, b.v);
    return c !== 0 ? (asc ? c : -c) : a.i - b.i;
  });
  return keyed.map((k) => k.r);
}

/** limit and offset. limit unset: everything; limit 0: nothing, unless zeroMeansAll. */
export function pageRows(rows, limitRaw, offsetRaw, { zeroMeansAll = false, skipBug = 'offset-ignored', countParam = false } = {}) {
  let offset = intParam(offsetRaw);
  if (offset === undefined || offset < 0 || bug(skipBug)) offset = 0;
  let limit = intParam(limitRaw);
  if (limit !== undefined && limit < 0) limit = undefined;
  if (limit === undefined && bug('default-limit-ten')) limit = 10;
  const rest = rows.slice(offset);
  if (limit === undefined) return rest;
  if (limit === 0 && zeroMeansAll) return rest;
  return rest.slice(0, bug('limit-off-by-one') && !countParam ? limit + 1 : limit);
}

/** fields: comma-separated names, repeated parameters, or a JSON array. */
export function parseFields(values) {
  const list = [];
  for (const v of values) {
    if (v === undefined || v === null) continue;
    const s = String(v).trim();
    if (s.startsWith('[')) {
      try {
        const arr = JSON.parse(s);
        if (Array.isArray(arr)) {
          for (const x of arr) list.push(String(x).trim());
          continue;
        }
      } catch {
        // not JSON: read as a comma-separated list below
      }
    }
    for (const part of s.split(',')) list.push(part.trim());
  }
  const out = list.filter(Boolean);
  return out.length ? out : undefined;
}

function pick(v, segs) {
  if (segs.length === 0) return v;
  if (Array.isArray(v)) {
    return v.filter((el) => isPlainObject(el) || Array.isArray(el)).map((el) => pick(el, segs) ?? {});
  }
  if (!isPlainObject(v) || !Object.hasOwn(v, segs[0])) return undefined;
  const inner = pick(v[segs[0]], segs.slice(1));
  return inner === undefined ? undefined : { [segs[0]]: inner };
}

function mergePicked(a, b) {
  if (a === undefined) return b;
  if (b === undefined) return a;
  if (Array.isArray(a) && Array.isArray(b)) return a.map((x, i) => mergePicked(x, b[i]));
  if (isPlainObject(a) && isPlainObject(b)) {
    const out = { ...a };
    for (const [k, v] of Object.entries(b)) out[k] = mergePicked(a[k], v);
    return out;
  }
  return b;
}

/** Only the named fields, nothing else (not even _key unless named); dotted names reach into objects and arrays. */
export function project(row, fields) {
  if (!fields || bug('fields-ignored')) return row;
  let out = {};
  for (const f of fields) out = mergePicked(out, pick(row, f.split('.')));
  return out;
}
