// biome-ignore-all lint/suspicious/noExplicitAny: the documents are free-form JSON read by shape, as their author wrote them
// biome-ignore-all lint/complexity/useOptionalChain: kept as its author wrote it
// biome-ignore-all lint/suspicious/noGlobalIsFinite: the global coerces strings, which this server relies on
// Shared machinery: bug switch, refusals, users/access, lagging store, filters, list queries.
import { randomBytes } from 'node:crypto';

const BUGS = new Set(
  (process.env.BUG || '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean),
);
export const VARIANT = process.env.VARIANT || '';
export const bug = (name: string): boolean => BUGS.has(name);
const LAGGING = VARIANT === 'lagging';

export const GLOBAL = 'default_ops_security_group';
export const SCHEMA_VERSION = '4.19.2';

export class Refusal extends Error {
  constructor(
    public status: number,
    public reason: string,
    message: string,
  ) {
    super(message);
  }
}
export function refuse(status: number, reason: string, message: string): never {
  throw new Refusal(status, reason, message);
}
export const badInput = (m: string): never => refuse(422, 'invalid_input', m);
export const notFound = (m: string): never => refuse(404, 'not_found', m);
export const conflict = (m: string): never => refuse(409, 'conflict', m);

// ---------- users and access ----------
export interface User {
  name: string;
  canWrite: boolean;
  teams: string[] | null;
}
export const USERS: Record<string, { pw: string; user: User }> = {
  admin: { pw: 'Adm1n-pw', user: { name: 'admin', canWrite: true, teams: null } },
  viewer: { pw: 'V1ew-pw', user: { name: 'viewer', canWrite: false, teams: null } },
  teamer: { pw: 'T3am-pw', user: { name: 'teamer', canWrite: true, teams: ['team_noc_ops'] } },
};
export function canReadTeam(u: User, team: string): boolean {
  return u.teams === null || u.teams.includes(team);
}
export function canRead(u: User, obj: any): boolean {
  if (u.teams === null) return true;
  if (obj && obj.object_type === 'team') return u.teams.includes(obj._key);
  return u.teams.includes(typeof obj?.sec_grp === 'string' && obj.sec_grp ? obj.sec_grp : GLOBAL);
}
export function mustWrite(u: User): void {
  if (!u.canWrite) refuse(403, 'forbidden', `user '${u.name}' has read-only access`);
}

// ---------- helpers ----------
export const clone = <T>(x: T): T => (x === undefined ? x : structuredClone(x));
export const newKey = (): string => 'ob-' + randomBytes(6).toString('hex');
export const isObj = (x: any): boolean => x !== null && typeof x === 'object' && !Array.isArray(x);
export const nowSec = (): number => Math.round(Date.now()) / 1000;
const pad = (n: number, w = 2) => String(n).padStart(w, '0');
export function isoOffset(d = new Date()): string {
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}T${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}.${pad(d.getUTCMilliseconds(), 3)}000+00:00`;
}
export function modTime(d = new Date()): string {
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}.${pad(d.getUTCMilliseconds(), 3)}000`;
}
export function plainTime(d = new Date()): string {
  return modTime(d).slice(0, 19);
}
export function boolParam(v: any, dflt: boolean, name: string): boolean {
  if (v === undefined || v === null || v === '') return dflt;
  if (v === true || v === 1 || v === '1' || v === 'true' || v === 'True') return true;
  if (v === false || v === 0 || v === '0' || v === 'false' || v === 'False') return false;
  return badInput(`'${name}' must be a Boolean (1 or 0)`);
}
export function intParam(v: string | null | undefined, name: string): number | undefined {
  if (v === null || v === undefined || v === '') return undefined;
  if (!/^\d+$/.test(v)) badInput(`'${name}' must be a non-negative integer`);
  return Number(v);
}
/** Remove internal fields (prefixed with "__"). */
export function strip(obj: any): any {
  if (!isObj(obj)) return obj;
  const out: any = {};
  for (const [k, v] of Object.entries(obj)) if (!k.startsWith('__')) out[k] = v;
  return out;
}

// ---------- store with optional read lag ----------
export class Collection {
  truth = new Map<string, any>();
  visible = new Map<string, any>();
  pending: { at: number; key: string; val: any }[] = [];
  lastAt = 0;
  constructor(public name: string) {}
  put(obj: any): void {
    this.truth.set(obj._key, clone(obj));
    this.schedule(obj._key, clone(obj));
  }
  del(key: string): void {
    this.truth.delete(key);
    this.schedule(key, null);
  }
  private schedule(key: string, val: any): void {
    if (!LAGGING) {
      if (val === null) this.visible.delete(key);
      else this.visible.set(key, val);
      return;
    }
    const at = Math.max(this.lastAt, Date.now() + 300 + Math.floor(Math.random() * 900));
    this.lastAt = at;
    this.pending.push({ at, key, val });
  }
  private flush(): void {
    const now = Date.now();
    while (this.pending.length && this.pending[0].at <= now) {
      const p = this.pending.shift()!;
      if (p.val === null) this.visible.delete(p.key);
      else this.visible.set(p.key, p.val);
    }
  }
  /** Latest state, used by writes. */
  get(key: string): any {
    return clone(this.truth.get(key));
  }
  all(): any[] {
    return [...this.truth.values()].map(clone).reverse();
  }
  /** Possibly lagging state, used by reads. Default order: most recently created first. */
  view(key: string): any {
    this.flush();
    return clone(this.visible.get(key));
  }
  viewAll(): any[] {
    this.flush();
    return [...this.visible.values()].map(clone).reverse();
  }
}

/** Registry of every stored object type, so modules can reach one another's objects. */
export const REG: Record<string, Collection> = {};

// ---------- filters ----------
const OPS = new Set(['$regex', '$options', '$ne', '$eq', '$gt', '$gte', '$lt', '$lte', '$in', '$nin', '$exists']);
function validate(f: any): void {
  if (!isObj(f)) throw new Error('filter must be an object');
  for (const [k, c] of Object.entries(f)) {
    if (k === '$and' || k === '$or' || k === '$nor') {
      if (!Array.isArray(c)) throw new Error('bad logical');
      c.forEach(validate);
      continue;
    }
    if (k.startsWith('$')) throw new Error('unknown operator ' + k);
    if (isObj(c) && Object.keys(c as object).some((x) => x.startsWith('$'))) {
      for (const [op, v] of Object.entries(c as any)) {
        if (!OPS.has(op)) throw new Error('unknown operator ' + op);
        if (op === '$regex') new RegExp(String(v), String((c as any).$options || '').replace(/[^imsu]/g, ''));
        if ((op === '$in' || op === '$nin') && !Array.isArray(v)) throw new Error('$in needs array');
      }
    }
  }
}
/** Returns a parsed filter, or null when absent or incorrect (incorrect filters select every row). */
export function parseFilter(raw: string | null | undefined): any | null {
  if (raw === null || raw === undefined || raw === '') return null;
  try {
    const f = JSON.parse(raw);
    validate(f);
    return f;
  } catch {
    return null;
  }
}
function getPath(obj: any, path: string): any {
  let cur = obj;
  for (const p of path.split('.')) {
    if (cur === null || cur === undefined) return undefined;
    cur = cur[p];
  }
  return cur;
}
function deepEq(a: any, b: any): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
function eqOrContains(v: any, c: any): boolean {
  if (Array.isArray(v) && !Array.isArray(c)) return v.some((x) => deepEq(x, c));
  return deepEq(v, c);
}
function cmp(a: any, b: any): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  return String(a) < String(b) ? -1 : String(a) > String(b) ? 1 : 0;
}
export function matches(obj: any, f: any): boolean {
  for (const [k, c] of Object.entries(f)) {
    if (k === '$and') {
      if (!(c as any[]).every((s) => matches(obj, s))) return false;
      continue;
    }
    if (k === '$or') {
      if (!(c as any[]).some((s) => matches(obj, s))) return false;
      continue;
    }
    if (k === '$nor') {
      if ((c as any[]).some((s) => matches(obj, s))) return false;
      continue;
    }
    const v = getPath(obj, k);
    if (isObj(c) && Object.keys(c as any).some((x) => x.startsWith('$'))) {
      const cc = c as any;
      for (const [op, arg] of Object.entries(cc)) {
        let ok = true;
        switch (op) {
          case '$regex': {
            const re = new RegExp(String(arg), String(cc.$options || '').replace(/[^imsu]/g, ''));
            ok = Array.isArray(v) ? v.some((x) => typeof x === 'string' && re.test(x)) : typeof v === 'string' && re.test(v);
            break;
          }
          case '$options':
            break;
          case '$ne':
            if (bug('ne-filter-numeric') && typeof arg === 'number') ok = String(v) !== (arg as any);
            else ok = !eqOrContains(v, arg);
            break;
          case '$eq':
            ok = eqOrContains(v, arg);
            break;
          case '$gt':
            ok = v !== undefined && v !== null && cmp(v, arg) > 0;
            break;
          case '$gte':
            ok = v !== undefined && v !== null && cmp(v, arg) >= 0;
            break;
          case '$lt':
            ok = v !== undefined && v !== null && cmp(v, arg) < 0;
            break;
          case '$lte':
            ok = v !== undefined && v !== null && cmp(v, arg) <= 0;
            break;
          case '$in':
            ok = (arg as any[]).some((a) => eqOrContains(v, a));
            break;
          case '$nin':
            ok = !(arg as any[]).some((a) => eqOrContains(v, a));
            break;
          case '$exists':
            ok = (v !== undefined) === !!arg;
            break;
        }
        if (!ok) return false;
      }
    } else if (!eqOrContains(v, c)) return false;
  }
  return true;
}

// ---------- list queries ----------
export interface ListOpts {
  filter?: any | null;
  sortKey?: string;
  desc?: boolean;
  offset?: number;
  limit?: number; // 0 or undefined = all
  fields?: string[];
}
export function sortRows(rows: any[], key: string, desc: boolean): any[] {
  const withIdx = rows.map((r, i) => ({ r, i }));
  withIdx.sort((a, b) => {
    const va = getPath(a.r, key),
      vb = getPath(b.r, key);
    const ma = va === undefined || va === null,
      mb = vb === undefined || vb === null;
    if (ma || mb) return ma && mb ? a.i - b.i : ma ? 1 : -1; // missing values always last
    const c = cmp(va, vb);
    return c === 0 ? a.i - b.i : desc ? -c : c;
  });
  return withIdx.map((x) => x.r);
}
export function project(obj: any, fields?: string[]): any {
  if (!fields || !fields.length) return obj;
  const out: any = { _key: obj._key };
  for (const f of fields) if (f in obj) out[f] = obj[f];
  return out;
}
export function applyList(rows: any[], o: ListOpts): { rows: any[]; total: number } {
  let r = rows;
  if (o.filter) r = r.filter((x) => matches(x, o.filter));
  if (o.sortKey) r = sortRows(r, o.sortKey, !!o.desc);
  const total = r.length;
  if (o.offset) r = r.slice(o.offset);
  if (o.limit) r = r.slice(0, o.limit);
  if (o.fields && o.fields.length) r = r.map((x) => project(x, o.fields));
  return { rows: r, total };
}
export function parseFields(q: URLSearchParams): string[] | undefined {
  const all = q.getAll('fields');
  if (!all.length) return undefined;
  const out: string[] = [];
  for (const raw of all) {
    let parts: string[];
    if (raw.trim().startsWith('[')) {
      try {
        parts = JSON.parse(raw).map(String);
      } catch {
        parts = raw.split(',');
      }
    } else parts = raw.split(',');
    for (const p of parts) if (p.trim()) out.push(p.trim());
  }
  return out.length ? out : undefined;
}
/** Shared query parameters: sort_key, sort_dir (1/0), limit, offset, fields, filter. */
export function sharedOpts(q: URLSearchParams, names: { offset?: string; filter?: string } = {}): ListOpts {
  const sd = q.get('sort_dir');
  let desc = false;
  if (sd !== null && sd !== '') {
    if (sd === '1') desc = false;
    else if (sd === '0') desc = true;
    else badInput("'sort_dir' must be 1 (ascending) or 0 (descending)");
  }
  return {
    sortKey: q.get('sort_key') || undefined,
    desc,
    limit: intParam(q.get('limit'), 'limit'),
    offset: intParam(q.get(names.offset || 'offset'), names.offset || 'offset'),
    fields: parseFields(q),
    filter: parseFilter(q.get(names.filter || 'filter')),
  };
}

// ---------- request context ----------
export interface Ctx {
  method: string;
  segs: string[];
  q: URLSearchParams;
  body: any;
  user: User;
  pathUser: string;
}
export interface Reply {
  status: number;
  body?: any;
}
export const ok = (body: any, status = 200): Reply => ({ status, body });
export const empty = (): Reply => ({ status: 204 });
export const methodNotAllowed = (): never => refuse(405, 'method_not_allowed', 'method not supported on this path');

/** Stamp the common fields on a written object. */
export function stamp(obj: any, type: string, ctx: Ctx, isNew: boolean): any {
  obj.object_type = type;
  obj._version = SCHEMA_VERSION;
  obj._user = ctx.pathUser || 'nobody';
  obj.mod_source = 'REST';
  obj.mod_timestamp = isoOffset();
  if (typeof obj.title === 'string') {
    obj.identifying_name = obj.title.trim().toLowerCase();
  }
  if (isNew && (obj.sec_grp === undefined || obj.sec_grp === null || obj.sec_grp === '')) obj.sec_grp = GLOBAL;
  return obj;
}
