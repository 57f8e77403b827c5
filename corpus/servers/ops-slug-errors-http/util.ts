// biome-ignore-all lint/suspicious/noExplicitAny: stored objects are free-form JSON documents, read and written field by field
import { randomBytes } from 'node:crypto';

export class HttpError extends Error {
  constructor(
    public status: number,
    public code: string,
    message: string,
    public extra?: Record<string, unknown>,
  ) {
    super(message);
  }
}

export const bad = (msg: string) => new HttpError(400, 'invalid_request', msg);
export const notFound = (msg: string) => new HttpError(404, 'not_found', msg);
export const forbidden = (msg: string) => new HttpError(403, 'access_denied', msg);
export const conflict = (msg: string) => new HttpError(409, 'conflict', msg);
export const unprocessable = (msg: string) => new HttpError(422, 'schema_violation', msg);

/** 24 hexadecimal characters (object-id like), URL safe. */
export function newKey(): string {
  return randomBytes(12).toString('hex');
}

export function isPlainObject(v: unknown): v is Record<string, any> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/** Copy own enumerable keys of src into a fresh object, dropping dangerous keys (deep). */
export function sanitize<T>(v: T): T {
  if (Array.isArray(v)) return v.map((x) => sanitize(x)) as any;
  if (isPlainObject(v)) {
    const out: Record<string, any> = {};
    for (const k of Object.keys(v)) {
      if (FORBIDDEN_KEYS.has(k)) continue;
      out[k] = sanitize((v as any)[k]);
    }
    return out as any;
  }
  return v;
}

export function clone<T>(v: T): T {
  return v === undefined ? v : JSON.parse(JSON.stringify(v));
}

const pad = (n: number, w = 2) => String(n).padStart(w, '0');

/** ISO-8601 timestamp with explicit offset, microsecond precision: 2024-05-01T12:00:00.123000+00:00 */
export function isoWithOffset(d = new Date()): string {
  return (
    `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}T` +
    `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}.` +
    `${pad(d.getUTCMilliseconds(), 3)}000+00:00`
  );
}

/** YYYY-MM-DD HH:MM:SS.ffffff */
export function modTimeString(d = new Date()): string {
  return (
    `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ` +
    `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}.${pad(d.getUTCMilliseconds(), 3)}000`
  );
}

/** YYYY-MM-DD HH:MM:SS */
export function plainTimeString(d = new Date()): string {
  return (
    `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ` +
    `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`
  );
}

export const nowEpoch = () => Math.round(Date.now() / 10) / 100; // seconds, 2 decimals

// ---------------------------------------------------------------- paths

function getPath(obj: any, path: string): any {
  let cur = obj;
  for (const part of path.split('.')) {
    if (cur === null || cur === undefined) return undefined;
    if (Array.isArray(cur) && !/^\d+$/.test(part)) {
      // project through arrays (document-store style)
      const vals = cur.map((x) => (isPlainObject(x) && Object.hasOwn(x, part) ? x[part] : undefined)).filter((x) => x !== undefined);
      cur = vals.length ? vals.flat() : undefined;
      continue;
    }
    if (typeof cur !== 'object' || !Object.hasOwn(cur, part)) return undefined;
    cur = cur[part];
  }
  return cur;
}

function setPath(obj: any, path: string, value: any) {
  const parts = path.split('.');
  let cur = obj;
  for (let i = 0; i < parts.length - 1; i++) {
    const p = parts[i];
    if (FORBIDDEN_KEYS.has(p)) return;
    if (!isPlainObject(cur[p])) cur[p] = {};
    cur = cur[p];
  }
  const last = parts[parts.length - 1];
  if (!FORBIDDEN_KEYS.has(last)) cur[last] = value;
}

export function project(obj: any, fields: string[] | null): any {
  if (!fields || fields.length === 0) return obj;
  const out: any = {};
  const all = ['_key', ...fields.filter((f) => f !== '_key')];
  for (const f of all) {
    const v = getPath(obj, f);
    if (v !== undefined) setPath(out, f, v);
  }
  return out;
}

// ---------------------------------------------------------------- filter rules

type Pred = (o: any) => boolean;

function deepEqual(a: any, b: any): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

function cmp(a: any, b: any): number | null {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (typeof a === 'string' && typeof b === 'string') return a < b ? -1 : a > b ? 1 : 0;
  return null;
}

function compileCondition(field: string, cond: any): Pred {
  const isOps = isPlainObject(cond) && Object.keys(cond).length > 0 && Object.keys(cond).every((k) => k.startsWith('$'));
  if (!isOps) {
    return (o) => {
      const v = getPath(o, field);
      if (Array.isArray(v) && !Array.isArray(cond)) return v.some((x) => deepEqual(x, cond));
      if (v === undefined) return cond === null;
      return deepEqual(v, cond);
    };
  }
  const preds: Pred[] = [];
  for (const op of Object.keys(cond)) {
    const arg = cond[op];
    switch (op) {
      case '$regex': {
        if (typeof arg !== 'string') throw new Error('bad $regex');
        const opts = typeof cond.$options === 'string' ? cond.$options.replace(/[^imsu]/g, '') : '';
        const re = new RegExp(arg, opts);
        preds.push((o) => {
          const v = getPath(o, field);
          const vals = Array.isArray(v) ? v : [v];
          return vals.some((x) => typeof x === 'string' && re.test(x));
        });
        break;
      }
      case '$options':
        break;
      case '$eq':
        preds.push(compileCondition(field, arg));
        break;
      case '$ne': {
        const eq = compileCondition(field, arg);
        preds.push((o) => !eq(o));
        break;
      }
      case '$in':
      case '$nin': {
        if (!Array.isArray(arg)) throw new Error('bad $in');
        const eqs = arg.map((a) => compileCondition(field, a));
        preds.push(op === '$in' ? (o) => eqs.some((p) => p(o)) : (o) => !eqs.some((p) => p(o)));
        break;
      }
      case '$gt':
      case '$gte':
      case '$lt':
      case '$lte':
        preds.push((o) => {
          const v = getPath(o, field);
          const c = cmp(v, arg);
          if (c === null) return false;
          return op === '$gt' ? c > 0 : op === '$gte' ? c >= 0 : op === '$lt' ? c < 0 : c <= 0;
        });
        break;
      case '$exists':
        preds.push((o) => (getPath(o, field) !== undefined) === Boolean(arg));
        break;
      case '$not': {
        const inner = compileCondition(field, arg);
        preds.push((o) => !inner(o));
        break;
      }
      default:
        throw new Error('unknown operator ' + op);
    }
  }
  return (o) => preds.every((p) => p(o));
}

function compileRules(rules: any): Pred {
  if (!isPlainObject(rules)) throw new Error('rules must be an object');
  const preds: Pred[] = [];
  for (const k of Object.keys(rules)) {
    const v = rules[k];
    if (k === '$and' || k === '$or' || k === '$nor') {
      if (!Array.isArray(v)) throw new Error('bad ' + k);
      const subs = v.map(compileRules);
      if (k === '$and') preds.push((o) => subs.every((p) => p(o)));
      else if (k === '$or') preds.push((o) => subs.length === 0 || subs.some((p) => p(o)));
      else preds.push((o) => !subs.some((p) => p(o)));
    } else if (k.startsWith('$')) {
      throw new Error('unknown top-level operator');
    } else {
      preds.push(compileCondition(k, v));
    }
  }
  return (o) => preds.every((p) => p(o));
}

/**
 * Compile a `filter` query parameter. As documented, an incorrect filter is
 * not rejected: it simply selects every row. Returns null for "all rows".
 */
export function compileFilter(raw: string | null | undefined): Pred | null {
  if (raw === null || raw === undefined || raw.trim() === '') return null;
  try {
    const parsed = JSON.parse(raw);
    const p = compileRules(parsed);
    return (o) => {
      try {
        return p(o);
      } catch {
        return true;
      }
    };
  } catch {
    return null;
  }
}

// ---------------------------------------------------------------- list shaping

export function sortList(list: any[], key: string | null, desc: boolean): any[] {
  if (!key) return list;
  const out = [...list];
  out.sort((a, b) => {
    const va = getPath(a, key);
    const vb = getPath(b, key);
    if (va === undefined && vb === undefined) return 0;
    if (va === undefined) return 1; // missing values always last
    if (vb === undefined) return -1;
    let c: number;
    if (typeof va === 'number' && typeof vb === 'number') c = va - vb;
    else {
      const sa = typeof va === 'string' ? va : JSON.stringify(va);
      const sb = typeof vb === 'string' ? vb : JSON.stringify(vb);
      c = sa.localeCompare(sb, 'en', { sensitivity: 'base', numeric: true });
    }
    return desc ? -c : c;
  });
  return out;
}

export function parseIntParam(name: string, raw: string | null): number | null {
  if (raw === null || raw.trim() === '') return null;
  if (!/^\s*-?\d+\s*$/.test(raw)) throw bad(`query parameter '${name}' must be an integer`);
  const n = parseInt(raw, 10);
  return Math.max(n, 0);
}

/** sort_dir: 1/asc ascending (default), 0/-1/desc/des descending */
export function parseSortDir(raw: string | null): boolean {
  if (raw === null) return false;
  const v = raw.trim().toLowerCase();
  return v === '0' || v === '-1' || v === 'desc' || v === 'des' || v === 'descending';
}

export function parseBool(raw: unknown, dflt: boolean): boolean {
  if (raw === undefined || raw === null || raw === '') return dflt;
  if (typeof raw === 'boolean') return raw;
  if (typeof raw === 'number') return raw !== 0;
  const v = String(raw).trim().toLowerCase();
  if (['1', 'true', 'yes', 'y', 't', 'on'].includes(v)) return true;
  if (['0', 'false', 'no', 'n', 'f', 'off'].includes(v)) return false;
  return dflt;
}

export function parseFields(params: URLSearchParams, name = 'fields'): string[] | null {
  const all = params.getAll(name).concat(params.getAll(name + '[]'));
  if (all.length === 0) return null;
  const out: string[] = [];
  for (const raw of all) {
    const t = raw.trim();
    if (t.startsWith('[')) {
      try {
        const arr = JSON.parse(t);
        if (Array.isArray(arr)) {
          for (const x of arr) if (typeof x === 'string' && x.trim()) out.push(x.trim());
          continue;
        }
      } catch {
        /* fall through */
      }
    }
    for (const p of t.split(',')) if (p.trim()) out.push(p.trim());
  }
  return out.length ? out : null;
}
