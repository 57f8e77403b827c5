import { randomUUID } from 'node:crypto';

export type Doc = Record<string, unknown>;

export function isDoc(v: unknown): v is Doc {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function newKey(): string {
  return randomUUID();
}

export function clone<T>(v: T): T {
  return structuredClone(v);
}

export class HttpError extends Error {
  status: number;
  constructor(status: number, message: string) {
    super(message);
    this.status = status;
  }
}

export function nowIso(): string {
  const d = new Date();
  const pad = (n: number, w = 2) => String(n).padStart(w, '0');
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}T${pad(d.getUTCHours())}:${pad(
    d.getUTCMinutes(),
  )}:${pad(d.getUTCSeconds())}.${pad(d.getUTCMilliseconds(), 3)}000+00:00`;
}

export function modTime(): string {
  const d = new Date();
  const pad = (n: number, w = 2) => String(n).padStart(w, '0');
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(
    d.getUTCMinutes(),
  )}:${pad(d.getUTCSeconds())}.${pad(d.getUTCMilliseconds(), 3)}000`;
}

export function createTimeShort(): string {
  return modTime().slice(0, 19);
}

export function epochNow(): number {
  return Math.floor(Date.now() / 1000);
}

export function truthy(v: unknown): boolean {
  if (v === undefined || v === null) return false;
  if (typeof v === 'boolean') return v;
  if (typeof v === 'number') return v !== 0;
  const s = String(v).trim().toLowerCase();
  return !(s === '' || s === '0' || s === 'false' || s === 'no' || s === 'f' || s === 'n');
}

// ---------- filter engine (document-store style) ----------

function getPath(d: unknown, path: string): unknown {
  if (isDoc(d) && path in d) return d[path];
  let cur: unknown = d;
  for (const p of path.split('.')) {
    if (Array.isArray(cur)) {
      const out: unknown[] = [];
      for (const el of cur) {
        const v = getPath(el, p);
        if (Array.isArray(v)) out.push(...v);
        else if (v !== undefined) out.push(v);
      }
      cur = out;
      continue;
    }
    if (!isDoc(cur)) return undefined;
    cur = cur[p];
  }
  return cur;
}

function scalarEq(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if ((typeof a === 'number' || typeof a === 'string') && (typeof b === 'number' || typeof b === 'string')) {
    return String(a) === String(b);
  }
  if (typeof a === 'object' && typeof b === 'object' && a !== null && b !== null) {
    return JSON.stringify(a) === JSON.stringify(b);
  }
  return false;
}

function valEq(val: unknown, x: unknown): boolean {
  if (Array.isArray(val) && !Array.isArray(x)) return val.some((v) => scalarEq(v, x));
  if (val === undefined && x === null) return true;
  return scalarEq(val, x);
}

function cmp(a: unknown, b: unknown): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  const na = Number(a);
  const nb = Number(b);
  if (
    typeof a !== 'boolean' &&
    typeof b !== 'boolean' &&
    a !== '' &&
    b !== '' &&
    !Number.isNaN(na) &&
    !Number.isNaN(nb) &&
    a !== null &&
    b !== null
  )
    return na - nb;
  return String(a) < String(b) ? -1 : String(a) > String(b) ? 1 : 0;
}

function fieldMatch(val: unknown, cond: unknown): boolean {
  if (isDoc(cond) && Object.keys(cond).some((k) => k.startsWith('$'))) {
    for (const [op, arg] of Object.entries(cond)) {
      switch (op) {
        case '$regex': {
          const flags = typeof cond.$options === 'string' ? cond.$options.replace(/[^imsu]/g, '') : '';
          const re = new RegExp(String(arg), flags); // throws on invalid → caller treats as bad filter
          const test = (v: unknown) => (typeof v === 'string' || typeof v === 'number') && re.test(String(v));
          if (!(Array.isArray(val) ? val.some(test) : test(val))) return false;
          break;
        }
        case '$options':
          break;
        case '$ne':
          if (valEq(val, arg)) return false;
          break;
        case '$eq':
          if (!valEq(val, arg)) return false;
          break;
        case '$in':
          if (!Array.isArray(arg) || !arg.some((a) => valEq(val, a))) return false;
          break;
        case '$nin':
          if (Array.isArray(arg) && arg.some((a) => valEq(val, a))) return false;
          break;
        case '$exists':
          if ((val !== undefined) !== truthy(arg)) return false;
          break;
        case '$gt':
          if (val === undefined || cmp(val, arg) <= 0) return false;
          break;
        case '$gte':
          if (val === undefined || cmp(val, arg) < 0) return false;
          break;
        case '$lt':
          if (val === undefined || cmp(val, arg) >= 0) return false;
          break;
        case '$lte':
          if (val === undefined || cmp(val, arg) > 0) return false;
          break;
        case '$not':
          if (fieldMatch(val, arg)) return false;
          break;
        default:
          throw new Error('unsupported operator');
      }
    }
    return true;
  }
  return valEq(val, cond);
}

function docMatches(doc: Doc, f: Doc): boolean {
  for (const [k, cond] of Object.entries(f)) {
    if (k === '$and') {
      if (!Array.isArray(cond)) throw new Error('bad $and');
      if (!cond.every((c) => isDoc(c) && docMatches(doc, c))) return false;
    } else if (k === '$or') {
      if (!Array.isArray(cond)) throw new Error('bad $or');
      if (!cond.some((c) => isDoc(c) && docMatches(doc, c))) return false;
    } else if (k === '$nor') {
      if (!Array.isArray(cond)) throw new Error('bad $nor');
      if (cond.some((c) => isDoc(c) && docMatches(doc, c))) return false;
    } else if (k.startsWith('$')) {
      throw new Error('unsupported top-level operator');
    } else if (!fieldMatch(getPath(doc, k), cond)) return false;
  }
  return true;
}

/** Apply a filter string. An incorrect filter (bad JSON, not an object, bad regex...) matches all rows. */
export function applyFilter(items: Doc[], filter: string | null | undefined): Doc[] {
  if (filter === null || filter === undefined || filter.trim() === '') return items;
  let f: unknown;
  try {
    f = JSON.parse(filter);
  } catch {
    return items;
  }
  if (!isDoc(f)) return items;
  const fd: Doc = f;
  try {
    return items.filter((d) => docMatches(d, fd));
  } catch {
    return items;
  }
}

export function parseIntParam(v: string | null | undefined): number | undefined {
  if (v === null || v === undefined || v.trim() === '') return undefined;
  const n = Number(v);
  if (!Number.isFinite(n)) return undefined;
  return Math.trunc(n);
}

export function isDescending(dir: string | null | undefined): boolean {
  if (dir === null || dir === undefined) return false;
  const s = dir.trim().toLowerCase();
  return s === '0' || s === '-1' || s === 'desc' || s === 'des' || s === 'descending';
}

export function sortDocs(items: Doc[], key: string | null | undefined, desc: boolean): Doc[] {
  if (!key) return desc ? [...items].reverse() : items;
  const withIdx = items.map((d, i) => ({ d, i }));
  withIdx.sort((x, y) => {
    const a = getPath(x.d, key);
    const b = getPath(y.d, key);
    let c: number;
    if (a === undefined && b === undefined) c = 0;
    else if (a === undefined) c = 1;
    else if (b === undefined) c = -1;
    else {
      c = cmp(typeof a === 'string' ? a.toLowerCase() : a, typeof b === 'string' ? b.toLowerCase() : b);
      if (c === 0 && typeof a === 'string' && typeof b === 'string') c = a < b ? -1 : a > b ? 1 : 0;
      if (desc) c = -c;
    }
    return c !== 0 ? c : x.i - y.i;
  });
  return withIdx.map((w) => w.d);
}

export function page<T>(items: T[], offset: number | undefined, limit: number | undefined): T[] {
  let out = items;
  if (offset !== undefined && offset > 0) out = out.slice(offset);
  if (limit !== undefined && limit > 0) out = out.slice(0, limit);
  return out;
}

export function parseFields(q: URLSearchParams, name = 'fields'): string[] | undefined {
  const vals = q.getAll(name).concat(q.getAll(name + '[]'));
  if (vals.length === 0) return undefined;
  const out: string[] = [];
  for (const v of vals) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(v);
    } catch {
      parsed = undefined;
    }
    if (Array.isArray(parsed)) out.push(...parsed.map((x) => String(x)));
    else out.push(...v.split(','));
  }
  const f = out.map((s) => s.trim()).filter((s) => s !== '');
  return f.length ? f : undefined;
}

export function projectFields(d: Doc, fields: string[] | undefined): Doc {
  if (!fields) return d;
  const out: Doc = {};
  if ('_key' in d) out._key = d._key;
  for (const f of fields) {
    if (f in d) out[f] = d[f];
    else {
      const v = getPath(d, f);
      if (v !== undefined) out[f] = v;
    }
  }
  return out;
}

export interface ListOpts {
  filter?: string | null;
  sortKey?: string | null;
  desc?: boolean;
  offset?: number;
  limit?: number;
}

export function listQuery(items: Doc[], o: ListOpts): Doc[] {
  let out = applyFilter(items, o.filter);
  out = sortDocs(out, o.sortKey, o.desc ?? false);
  return page(out, o.offset, o.limit);
}

export function splitIds(v: unknown): string[] {
  if (v === undefined || v === null) return [];
  if (Array.isArray(v)) return v.flatMap((x) => splitIds(x));
  if (typeof v === 'string') {
    const s = v.trim();
    if (s.startsWith('[')) {
      try {
        const p: unknown = JSON.parse(s);
        if (Array.isArray(p)) return splitIds(p);
      } catch {
        /* fall through */
      }
    }
    return s
      .split(',')
      .map((x) => x.trim())
      .filter((x) => x !== '');
  }
  return [String(v)];
}
