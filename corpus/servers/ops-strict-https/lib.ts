import { createHash, randomBytes } from 'node:crypto';

export type Doc = Record<string, unknown>;

export class HttpError extends Error {
  status: number;
  headers: Record<string, string>;
  constructor(status: number, text: string, headers: Record<string, string> = {}) {
    super(text);
    this.status = status;
    this.headers = headers;
  }
}

export const bad = (text: string): HttpError => new HttpError(400, text);
export const notFound = (text: string): HttpError => new HttpError(404, text);
export const forbidden = (text: string): HttpError => new HttpError(403, text);
export const conflict = (text: string): HttpError => new HttpError(409, text);

export function newKey(): string {
  return randomBytes(12).toString('hex');
}
export function seedKey(label: string): string {
  return createHash('sha1').update(label).digest('hex').slice(0, 24);
}

export function isObj(v: unknown): v is Doc {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
export function isStrArray(v: unknown): v is string[] {
  return Array.isArray(v) && v.every((x) => typeof x === 'string');
}
export function clone<T>(v: T): T {
  return JSON.parse(JSON.stringify(v)) as T;
}

const pad = (n: number, w = 2): string => String(n).padStart(w, '0');
export function isoNow(d = new Date()): string {
  const us = pad(d.getUTCMilliseconds(), 3) + '000';
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}T${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}.${us}+00:00`;
}
export function modTime(d = new Date()): string {
  const us = pad(d.getUTCMilliseconds(), 3) + '000';
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}.${us}`;
}
export function plainTime(d = new Date()): string {
  return modTime(d).slice(0, 19);
}
export function epochNow(): number {
  return Math.floor(Date.now() / 1000);
}

// ---------- filters (document-store style) ----------
export type Pred = (d: Doc) => boolean;

function getPath(d: unknown, path: string): unknown[] {
  const parts = path.split('.');
  let cur: unknown[] = [d];
  for (const p of parts) {
    const next: unknown[] = [];
    for (const c of cur) {
      if (Array.isArray(c)) {
        for (const e of c) if (isObj(e) && p in e) next.push(e[p]);
      } else if (isObj(c) && p in c) next.push(c[p]);
    }
    cur = next;
  }
  return cur;
}
function deepEq(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
function eqAny(vals: unknown[], target: unknown): boolean {
  return vals.some((v) => deepEq(v, target) || (Array.isArray(v) && v.some((e) => deepEq(e, target))));
}
function flat(vals: unknown[]): unknown[] {
  const out: unknown[] = [];
  for (const v of vals)
    if (Array.isArray(v)) out.push(...v, v);
    else out.push(v);
  return out;
}
function cmp(a: unknown, b: unknown): number | null {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (typeof a === 'string' && typeof b === 'string') return a < b ? -1 : a > b ? 1 : 0;
  return null;
}

function compileField(field: string, cond: unknown): Pred {
  if (isObj(cond) && Object.keys(cond).length > 0 && Object.keys(cond).every((k) => k.startsWith('$'))) {
    const preds: Pred[] = [];
    const opts = typeof cond.$options === 'string' ? cond.$options : '';
    for (const [op, arg] of Object.entries(cond)) {
      switch (op) {
        case '$options':
          if (typeof arg !== 'string') throw new Error('bad $options');
          break;
        case '$regex': {
          if (typeof arg !== 'string') throw new Error('bad regex');
          const re = new RegExp(arg, opts.replace(/[^imsu]/g, ''));
          preds.push((d) => flat(getPath(d, field)).some((v) => typeof v === 'string' && re.test(v)));
          break;
        }
        case '$ne':
          preds.push((d) => !eqAny(getPath(d, field), arg));
          break;
        case '$eq':
          preds.push((d) => eqAny(getPath(d, field), arg));
          break;
        case '$in':
        case '$nin': {
          if (!Array.isArray(arg)) throw new Error('bad $in');
          const inP: Pred = (d) => arg.some((a) => eqAny(getPath(d, field), a));
          preds.push(op === '$in' ? inP : (d) => !inP(d));
          break;
        }
        case '$gt':
        case '$gte':
        case '$lt':
        case '$lte':
          preds.push((d) =>
            flat(getPath(d, field)).some((v) => {
              const c = cmp(v, arg);
              if (c === null) return false;
              return op === '$gt' ? c > 0 : op === '$gte' ? c >= 0 : op === '$lt' ? c < 0 : c <= 0;
            }),
          );
          break;
        case '$exists':
          preds.push((d) => getPath(d, field).length > 0 === Boolean(arg));
          break;
        case '$not': {
          const inner = compileField(field, arg);
          preds.push((d) => !inner(d));
          break;
        }
        default:
          throw new Error(`unknown operator ${op}`);
      }
    }
    return (d) => preds.every((p) => p(d));
  }
  return (d) => eqAny(getPath(d, field), cond);
}

function compile(q: unknown): Pred {
  if (!isObj(q)) throw new Error('filter must be an object');
  const preds: Pred[] = [];
  for (const [k, v] of Object.entries(q)) {
    if (k === '$and' || k === '$or' || k === '$nor') {
      if (!Array.isArray(v) || v.length === 0) throw new Error('bad logical');
      const subs = v.map(compile);
      if (k === '$and') preds.push((d) => subs.every((s) => s(d)));
      else if (k === '$or') preds.push((d) => subs.some((s) => s(d)));
      else preds.push((d) => !subs.some((s) => s(d)));
    } else if (k.startsWith('$')) {
      throw new Error(`unknown operator ${k}`);
    } else preds.push(compileField(k, v));
  }
  return (d) => preds.every((p) => p(d));
}

/** Incorrect filters are not rejected: they match every row (as documented). */
export function compileFilter(raw: string | null | undefined): Pred {
  if (raw === null || raw === undefined || raw.trim() === '') return () => true;
  try {
    return compile(JSON.parse(raw));
  } catch {
    return () => true;
  }
}

// ---------- query helpers ----------
export function intParam(q: URLSearchParams, name: string): number | undefined {
  const v = q.get(name);
  if (v === null || v === '') return undefined;
  if (!/^\d+$/.test(v.trim())) throw bad(`Parameter "${name}" must be a non-negative integer.`);
  const n = Number(v.trim());
  if (!Number.isSafeInteger(n)) throw bad(`Parameter "${name}" is out of range.`);
  return n;
}
export function bool01(q: URLSearchParams, name: string, dflt: boolean): boolean {
  const v = q.get(name);
  if (v === null || v === '') return dflt;
  if (v === '1') return true;
  if (v === '0') return false;
  throw bad(`Parameter "${name}" must be 1 or 0.`);
}
export function fieldsParam(q: URLSearchParams, name = 'fields'): string[] | undefined {
  const all = q.getAll(name);
  if (all.length === 0) return undefined;
  const out: string[] = [];
  for (const raw of all) {
    const t = raw.trim();
    if (t.startsWith('[')) {
      try {
        const arr: unknown = JSON.parse(t);
        if (isStrArray(arr)) {
          out.push(...arr);
          continue;
        }
      } catch {
        /* fallthrough */
      }
      throw bad(`Parameter "${name}" must be a comma-separated list or a JSON array of field names.`);
    }
    out.push(
      ...t
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    );
  }
  return out;
}
export function project(d: Doc, fields: string[] | undefined): Doc {
  if (!fields || fields.length === 0) return d;
  const out: Doc = {};
  if ('_key' in d) out._key = d._key;
  for (const f of fields) {
    if (f in d) out[f] = d[f];
    else if (f.includes('.')) {
      const vals = getPath(d, f);
      if (vals.length === 1) out[f] = vals[0];
    }
  }
  return out;
}
function sortVal(v: unknown): [number, number | string] {
  if (v === undefined || v === null) return [0, 0];
  if (typeof v === 'number') return [1, v];
  if (typeof v === 'boolean') return [1, v ? 1 : 0];
  if (typeof v === 'string') return [2, v.toLowerCase()];
  return [3, JSON.stringify(v)];
}
export function sortDocs(docs: Doc[], key: string | undefined, asc: boolean): Doc[] {
  const byKey = (a: Doc, b: Doc): number => String(a._key ?? a.id ?? '').localeCompare(String(b._key ?? b.id ?? ''));
  if (!key) return [...docs].sort(byKey);
  return [...docs].sort((a, b) => {
    const [ta, va] = sortVal(getPath(a, key)[0]);
    const [tb, vb] = sortVal(getPath(b, key)[0]);
    let c = ta !== tb ? ta - tb : va < vb ? -1 : va > vb ? 1 : 0;
    if (!asc) c = -c;
    return c !== 0 ? c : byKey(a, b);
  });
}

export interface ListOpts {
  sortKey?: string;
  asc: boolean;
  limit?: number;
  offset: number;
  fields?: string[];
  filter: Pred;
}
/** Shared query parameters: sort_key, sort_dir (1/0), limit, offset, fields, filter. */
export function sharedOpts(q: URLSearchParams, names: { limit?: string; offset?: string; filter?: string } = {}): ListOpts {
  const sd = q.get('sort_dir');
  let asc = true;
  if (sd !== null && sd !== '') {
    if (sd === '1') asc = true;
    else if (sd === '0') asc = false;
    else throw bad('Parameter "sort_dir" must be 1 (ascending) or 0 (descending).');
  }
  const sk = q.get('sort_key');
  return {
    sortKey: sk?.trim() ? sk.trim() : undefined,
    asc,
    limit: intParam(q, names.limit ?? 'limit'),
    offset: intParam(q, names.offset ?? 'offset') ?? 0,
    fields: fieldsParam(q),
    filter: compileFilter(q.get(names.filter ?? 'filter')),
  };
}
export function applyList(docs: Doc[], o: ListOpts): Doc[] {
  const f = docs.filter(o.filter);
  const s = sortDocs(f, o.sortKey, o.asc);
  const end = o.limit && o.limit > 0 ? o.offset + o.limit : undefined;
  return s.slice(o.offset, end).map((d) => project(d, o.fields));
}

// ---------- field validation ----------
export function reqStr(d: Doc, f: string, where = ''): string {
  const v = d[f];
  if (typeof v !== 'string' || v.trim() === '') throw bad(`${where}Field "${f}" is required and must be a non-empty string.`);
  return v;
}
export function optStr(d: Doc, f: string, where = '', nullable = false): void {
  const v = d[f];
  if (v === undefined || (nullable && v === null)) return;
  if (typeof v !== 'string') throw bad(`${where}Field "${f}" must be a string.`);
}
export function optNum(d: Doc, f: string, where = ''): void {
  const v = d[f];
  if (v === undefined) return;
  if (typeof v !== 'number' || !Number.isFinite(v)) throw bad(`${where}Field "${f}" must be a number.`);
}
export function optBool(d: Doc, f: string, where = ''): void {
  const v = d[f];
  if (v === undefined) return;
  if (typeof v !== 'boolean' && v !== 0 && v !== 1) throw bad(`${where}Field "${f}" must be a boolean.`);
}
export function optInt01(d: Doc, f: string, where = ''): void {
  const v = d[f];
  if (v === undefined) return;
  if (v !== 0 && v !== 1 && v !== '0' && v !== '1' && typeof v !== 'boolean') throw bad(`${where}Field "${f}" must be 0 or 1.`);
}
export function optArr(d: Doc, f: string, where = ''): void {
  const v = d[f];
  if (v === undefined) return;
  if (!Array.isArray(v)) throw bad(`${where}Field "${f}" must be an array.`);
}
export function optStrArr(d: Doc, f: string, where = ''): void {
  const v = d[f];
  if (v === undefined) return;
  if (!isStrArray(v)) throw bad(`${where}Field "${f}" must be an array of strings.`);
}
export function optObj(d: Doc, f: string, where = ''): void {
  const v = d[f];
  if (v === undefined) return;
  if (!isObj(v)) throw bad(`${where}Field "${f}" must be an object.`);
}
export function truthy(v: unknown): boolean {
  return v === true || v === 1 || v === '1' || v === 'true';
}
