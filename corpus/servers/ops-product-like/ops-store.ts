// In-memory document store, key and time helpers, read access and the shared list pipeline
// (filter, sort_key/sort_dir, offset, limit, fields).

import { randomBytes, randomUUID } from 'node:crypto';
import { compileFilter, collect, type Compiled, type FilterQuirks } from './ops-filter.js';
import { badRequest, intParam, type Ctx, type Doc, type User } from './ops-http.js';

export const DEFAULT_GROUP = 'default_ops_security_group';
export const SCHEMA_VERSION = '4.18.1';

export interface Rec {
  doc: Doc;
  /** Creation order; kept when an object is updated. */
  seq: number;
  /** Server-side bookkeeping that is never answered. */
  meta: Doc;
}

export class Collection {
  readonly recs = new Map<string, Rec>();
  constructor(private readonly store: Store) {}

  get(key: string): Rec | undefined {
    return this.recs.get(key);
  }
  has(key: string): boolean {
    return this.recs.has(key);
  }
  /** Inserts a new document or replaces the stored one (keeping creation order and meta). */
  put(doc: Doc, meta?: Doc): Rec {
    const key = String(doc._key);
    const prev = this.recs.get(key);
    const rec: Rec = { doc, seq: prev ? prev.seq : this.store.nextSeq(), meta: meta ?? prev?.meta ?? {} };
    this.recs.set(key, rec);
    return rec;
  }
  delete(key: string): boolean {
    return this.recs.delete(key);
  }
  all(): Rec[] {
    return [...this.recs.values()];
  }
  docs(): Doc[] {
    return this.all().map((r) => r.doc);
  }
}

export class Store {
  private seq = 0;
  private counter = randomBytes(3).readUIntBE(0, 3);
  private readonly machine = randomBytes(5).toString('hex');
  private readonly node = randomBytes(6).toString('hex');
  private readonly collections = new Map<string, Collection>();
  /** Free-form server state (content-pack library, icon categories, ...). */
  readonly state = new Map<string, unknown>();

  constructor(readonly keyStyle: 'objectid' | 'uuid') {}

  coll(name: string): Collection {
    let c = this.collections.get(name);
    if (!c) {
      c = new Collection(this);
      this.collections.set(name, c);
    }
    return c;
  }

  nextSeq(): number {
    return ++this.seq;
  }

  /** Key for a new kv-store object: a 24-hex object id or a UUID, per variant. */
  newKey(): string {
    return this.keyStyle === 'uuid' ? randomUUID() : this.objectId();
  }

  objectId(): string {
    const secs = Math.floor(Date.now() / 1000)
      .toString(16)
      .padStart(8, '0');
    this.counter = (this.counter + 1) % 0x1000000;
    return secs + this.machine + this.counter.toString(16).padStart(6, '0');
  }

  /** Time-based (version 1 layout) identifier, as used by episode objects and ticket links. */
  timeUuid(): string {
    this.counter = (this.counter + 1) % 0x1000000;
    const t = BigInt(Date.now()) * 10000n + 0x01b21dd213814000n + BigInt(this.counter % 10000);
    const low = (t & 0xffffffffn).toString(16).padStart(8, '0');
    const mid = ((t >> 32n) & 0xffffn).toString(16).padStart(4, '0');
    const high = (((t >> 48n) & 0x0fffn) | 0x1000n).toString(16).padStart(4, '0');
    const clock = ((this.counter & 0x3fff) | 0x8000).toString(16).padStart(4, '0');
    return `${low}-${mid}-${high}-${clock}-${this.node}`;
  }
}

// ---------- time ----------

const pad2 = (n: number) => String(n).padStart(2, '0');

function micro(d: Date): string {
  return String(d.getUTCMilliseconds()).padStart(3, '0') + String(Math.floor(Math.random() * 1000)).padStart(3, '0');
}

/** 2022-05-24T05:20:29.350678+00:00 */
export function isoTimestamp(d = new Date()): string {
  return d.toISOString().slice(0, 19) + '.' + micro(d) + '+00:00';
}

/** 2022-05-24 05:20:29 */
export function plainDateTime(d = new Date()): string {
  return (
    `${d.getUTCFullYear()}-${pad2(d.getUTCMonth() + 1)}-${pad2(d.getUTCDate())} ` +
    `${pad2(d.getUTCHours())}:${pad2(d.getUTCMinutes())}:${pad2(d.getUTCSeconds())}`
  );
}

/** 2022-05-24 05:20:29.350678 */
export function microDateTime(d = new Date()): string {
  return plainDateTime(d) + '.' + micro(d);
}

/** Epoch seconds with microsecond-like precision, e.g. 1653367656.356202. */
export function epochSeconds(d = new Date()): number {
  return Number(((d.getTime() + Math.random()) / 1000).toFixed(6));
}

// ---------- access ----------

export function canRead(user: User, doc: Doc): boolean {
  if (user.readGroups === '*') return true;
  const groups: string[] = [];
  if (typeof doc.sec_grp === 'string') groups.push(doc.sec_grp);
  if (Array.isArray(doc.sec_grp_list)) for (const g of doc.sec_grp_list) if (typeof g === 'string') groups.push(g);
  const readable = user.readGroups;
  return groups.every((g) => readable.has(g));
}

export function permissionsFor(user: User): Doc {
  return {
    user: user.name,
    group: { read: true, write: user.write, delete: user.write },
    read: true,
    write: user.write,
    delete: user.write,
  };
}

// ---------- shared query parameters ----------

export interface ListParams {
  sortKey?: string;
  /** 1 ascending, 0 descending. */
  sortDir: 0 | 1;
  limit?: number;
  offset: number;
  fields?: string[];
  filter: Compiled;
}

export interface ParamNames {
  offset: string;
  filter: string;
  limit: string;
}

const SHARED_NAMES: ParamNames = { offset: 'offset', filter: 'filter', limit: 'limit' };

export function filterQuirks(ctx: Ctx): FilterQuirks {
  return {
    eqCaseInsensitive: ctx.bug('filter-eq-case-insensitive'),
    neAsEq: ctx.bug('filter-ne-as-eq'),
    regexMode: ctx.bug('filter-regex-prefix')
      ? 'prefix'
      : ctx.bug('filter-regex-substring')
        ? 'substring'
        : ctx.bug('filter-regex-exact')
          ? 'exact'
          : 'regex',
  };
}

function parseSortDir(raw: string | null): 0 | 1 {
  if (raw === null || raw.trim() === '') return 1;
  const s = raw.trim().toLowerCase();
  if (s === '0' || s === 'desc' || s === 'des' || s === '-1') return 0;
  if (s === '1' || s === 'asc') return 1;
  throw badRequest(`Parameter sort_dir must be 1 (ascending) or 0 (descending), got "${raw}"`);
}

export function parseFields(raw: string | null): string[] | undefined {
  if (raw === null || raw.trim() === '') return undefined;
  let list: string[];
  const t = raw.trim();
  if (t.startsWith('[')) {
    try {
      const arr = JSON.parse(t) as unknown;
      list = Array.isArray(arr) ? arr.map(String) : [t];
    } catch {
      list = t.split(',');
    }
  } else list = t.split(',');
  const out = list.map((f) => f.trim()).filter((f) => f !== '');
  return out.length ? out : undefined;
}

export function parseListParams(ctx: Ctx, names: ParamNames = SHARED_NAMES): ListParams {
  const sortKey = ctx.query.get('sort_key')?.trim() || undefined;
  const fieldsRaw = ctx.query.getAll('fields').join(',');
  return {
    sortKey,
    sortDir: parseSortDir(ctx.query.get('sort_dir')),
    limit: intParam(ctx, names.limit),
    offset: intParam(ctx, names.offset) ?? 0,
    fields: parseFields(fieldsRaw === '' ? null : fieldsRaw),
    filter: compileFilter(ctx.query.get(names.filter), filterQuirks(ctx)),
  };
}

/** Rows matched by a compiled filter; an incorrect filter matches every row. */
export function applyFilter(recs: Rec[], filter: Compiled): Rec[] {
  if (!filter) return recs;
  return recs.filter((r) => filter(r.doc));
}

function typeRank(v: unknown): number {
  if (v === undefined || v === null) return 0;
  if (typeof v === 'number') return 1;
  if (typeof v === 'string') return 2;
  if (typeof v === 'object') return Array.isArray(v) ? 4 : 3;
  if (typeof v === 'boolean') return 5;
  return 6;
}

export function compareValues(a: unknown, b: unknown): number {
  const ra = typeRank(a);
  const rb = typeRank(b);
  if (ra !== rb) return ra - rb;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (typeof a === 'string' && typeof b === 'string') return a < b ? -1 : a > b ? 1 : 0;
  if (typeof a === 'boolean' && typeof b === 'boolean') return Number(a) - Number(b);
  const sa = JSON.stringify(a) ?? '';
  const sb = JSON.stringify(b) ?? '';
  return sa < sb ? -1 : sa > sb ? 1 : 0;
}

function sortValue(doc: Doc, parts: string[]): unknown {
  const vals = collect(doc, parts).filter((v) => v !== undefined);
  return vals.length ? vals[0] : undefined;
}

/** Default order, then sort_key/sort_dir, offset, limit. */
export function orderAndPage(ctx: Ctx, recs: Rec[], p: ListParams, opts: { noOffsetBug?: boolean } = {}): Rec[] {
  const newestFirst = ctx.profile.defaultOrder === 'newest-first';
  let rows = [...recs].sort((a, b) => (newestFirst ? b.seq - a.seq : a.seq - b.seq));
  const sortKey = ctx.bug('sort-key-ignored') ? undefined : p.sortKey;
  if (sortKey) {
    const parts = sortKey.split('.');
    let dir = p.sortDir === 1 ? 1 : -1;
    if (ctx.bug('sort-dir-reversed')) dir = -dir;
    rows = rows
      .map((r) => ({ r, v: sortValue(r.doc, parts) }))
      .sort((x, y) => dir * compareValues(x.v, y.v) || x.r.seq - y.r.seq)
      .map((x) => x.r);
  }
  const offset = ctx.bug('offset-ignored') && !opts.noOffsetBug ? 0 : p.offset;
  let limit = p.limit;
  if (limit === undefined && ctx.bug('limit-default-100')) limit = 100;
  rows = rows.slice(offset);
  if (limit !== undefined && limit > 0) rows = rows.slice(0, limit);
  return rows;
}

function isObj(v: unknown): v is Doc {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The part of `src` selected by a dotted path, keeping its shape (arrays are walked). */
function pick(src: unknown, parts: string[]): unknown {
  if (parts.length === 0) return clone(src);
  if (Array.isArray(src)) {
    return src.filter(isObj).map((el) => pick(el, parts) ?? {});
  }
  if (isObj(src) && Object.hasOwn(src, parts[0])) {
    const sub = pick(src[parts[0]], parts.slice(1));
    return sub === undefined ? undefined : { [parts[0]]: sub };
  }
  return undefined;
}

function merge(a: unknown, b: unknown): unknown {
  if (Array.isArray(a) && Array.isArray(b)) return b.map((x, i) => (i < a.length ? merge(a[i], x) : x));
  if (isObj(a) && isObj(b)) {
    const out: Doc = { ...a };
    for (const [k, v] of Object.entries(b)) out[k] = k in out ? merge(out[k], v) : v;
    return out;
  }
  return b;
}

/** Keeps the requested (possibly dotted) fields and `_key`. */
export function project(doc: Doc, fields: string[] | undefined, ctx?: Ctx): Doc {
  if (!fields || ctx?.bug('fields-ignored')) return doc;
  let out: Doc = {};
  if ('_key' in doc) out._key = doc._key;
  for (const f of fields) {
    const picked = pick(doc, f.split('.'));
    if (picked !== undefined) out = merge(out, picked) as Doc;
  }
  return out;
}

export function clone<T>(v: T): T {
  return structuredClone(v);
}
