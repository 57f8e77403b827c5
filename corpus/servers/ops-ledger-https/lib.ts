// Shared helpers: errors, bugs, store (with optional read lag), query handling, filters, access.
import { randomUUID, randomBytes } from 'node:crypto';

export type Rec = Record<string, unknown>;

// ---------------------------------------------------------------- bugs / variant
const BUGS = new Set(
  (process.env.BUG || '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean),
);
export const bug = (name: string): boolean => BUGS.has(name);
const VARIANT = (process.env.VARIANT || '').trim();
export const LAGGING = VARIANT === 'lagging';

// ---------------------------------------------------------------- errors
export class ApiError extends Error {
  status: number;
  constructor(status: number, message: string) {
    super(message);
    this.status = status;
  }
}
export const bad = (msg: string) => new ApiError(400, msg);
export const notFound = (msg: string) => new ApiError(404, msg);
export const forbidden = (msg: string) => new ApiError(403, msg);
export const notAllowed = (msg: string) => new ApiError(405, msg);

// ---------------------------------------------------------------- time / keys
export const SCHEMA_VERSION = '4.18.1';
const pad = (n: number, w = 2) => String(n).padStart(w, '0');
export function isoOffset(d = new Date()): string {
  // 2024-05-01T12:00:00.123000+00:00
  return (
    `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}T` +
    `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}.${pad(d.getUTCMilliseconds(), 3)}000+00:00`
  );
}
export function modTime(d = new Date()): string {
  return (
    `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ` +
    `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}.${pad(d.getUTCMilliseconds(), 3)}000`
  );
}
export function plainTime(d = new Date()): string {
  return (
    `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ` +
    `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`
  );
}
export const epoch = () => Math.floor(Date.now() / 1000);
export const uuid = () => randomUUID();
export const hexKey = () => randomBytes(12).toString('hex');
export const clone = <T>(v: T): T => structuredClone(v);

// ---------------------------------------------------------------- store
export type DB = Map<string, Map<string, Rec>>;
let current: DB = new Map();
let snaps: { at: number; db: DB }[] = [];

export function col(db: DB, name: string): Map<string, Rec> {
  let c = db.get(name);
  if (!c) {
    c = new Map();
    db.set(name, c);
  }
  return c;
}
export function writeDb(): DB {
  return current;
}
export function readDb(): DB {
  if (!LAGGING) return current;
  const now = Date.now();
  let idx = 0;
  for (let i = 0; i < snaps.length; i++) if (snaps[i].at <= now) idx = i;
  if (idx > 0) snaps = snaps.slice(idx);
  return snaps[0].db;
}
export function initStore(seed: (db: DB) => void) {
  current = new Map();
  seed(current);
  snaps = [{ at: 0, db: clone(current) }];
}
// called after every successful write request
export function commit() {
  if (!LAGGING) return;
  const last = snaps[snaps.length - 1].at;
  const at = Math.max(Date.now() + 300 + Math.floor(Math.random() * 900), last);
  snaps.push({ at, db: clone(current) });
}

// ---------------------------------------------------------------- users / access
export const GLOBAL_TEAM = 'default_ops_security_group';
export const TEAMER_TEAM = 'team_ops_teamer';
export interface User {
  name: string;
  password: string;
  write: boolean;
  read: '*' | string[];
  writeTeams: '*' | string[];
}
export const USERS: Record<string, User> = {
  admin: { name: 'admin', password: 'Adm1n-pw', write: true, read: '*', writeTeams: '*' },
  viewer: { name: 'viewer', password: 'V1ew-pw', write: false, read: '*', writeTeams: [] },
  teamer: { name: 'teamer', password: 'T3am-pw', write: true, read: [TEAMER_TEAM], writeTeams: [TEAMER_TEAM] },
};
export const canReadTeam = (u: User, team: string) => u.read === '*' || u.read.includes(team);
export const canWriteTeam = (u: User, team: string) =>
  u.write && (u.writeTeams === '*' || u.writeTeams.includes(team)) && canReadTeam(u, team);
export const isAdmin = (u: User) => u.writeTeams === '*';
export function defaultTeamFor(u: User): string {
  if (canWriteTeam(u, GLOBAL_TEAM) || !u.write) return GLOBAL_TEAM;
  return (u.writeTeams as string[])[0] || GLOBAL_TEAM;
}
export function requireWrite(u: User) {
  if (!u.write) throw forbidden(`User "${u.name}" does not have the capability to write this object.`);
}

// ---------------------------------------------------------------- parsing helpers
export function intParam(q: URLSearchParams, name: string, opts: { min?: number } = {}): number | undefined {
  const raw = q.get(name);
  if (raw === null || raw === '') return undefined;
  if (!/^-?\d+$/.test(raw.trim())) throw bad(`Parameter "${name}" must be an integer, got "${raw}".`);
  const n = parseInt(raw, 10);
  if (opts.min !== undefined && n < opts.min) throw bad(`Parameter "${name}" must be >= ${opts.min}.`);
  return n;
}
export function boolParam(q: URLSearchParams, name: string, dflt: boolean): boolean {
  const raw = q.get(name);
  if (raw === null || raw === '') return dflt;
  return toBool(raw, name);
}
export function toBool(v: unknown, name: string): boolean {
  if (v === true || v === 1) return true;
  if (v === false || v === 0) return false;
  const s = String(v).trim().toLowerCase();
  if (s === '1' || s === 'true') return true;
  if (s === '0' || s === 'false') return false;
  throw bad(`Parameter "${name}" must be a Boolean (1 or 0), got "${v}".`);
}
export const isObj = (v: unknown): v is Rec => v !== null && typeof v === 'object' && !Array.isArray(v);

// ---------------------------------------------------------------- filters
class BadFilter extends Error {}

function getPath(rec: unknown, path: string): unknown {
  let cur = rec;
  for (const p of path.split('.')) {
    if (cur === null || cur === undefined) return undefined;
    if (Array.isArray(cur) && !/^\d+$/.test(p)) {
      const vals = cur.map((x) => (isObj(x) ? x[p] : undefined)).filter((x) => x !== undefined);
      cur = vals.length ? vals.flat() : undefined;
      continue;
    }
    cur = (cur as Rec)[p];
  }
  return cur;
}
function eqVal(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a === 'object' || typeof b === 'object') return JSON.stringify(a) === JSON.stringify(b);
  return false;
}
function fieldEq(v: unknown, target: unknown): boolean {
  if (Array.isArray(v) && !Array.isArray(target)) return v.some((x) => eqVal(x, target));
  return eqVal(v, target);
}
// JSON scalars compared with the operators of JavaScript (both sides share one typeof)
type Ord = string | number;
function cmp(v: unknown, t: unknown, op: string): boolean {
  const test = (x: unknown) => {
    if (x === undefined || x === null) return false;
    if (typeof x !== typeof t) return false;
    const a = x as Ord;
    const b = t as Ord;
    if (op === '$gt') return a > b;
    if (op === '$gte') return a >= b;
    if (op === '$lt') return a < b;
    return a <= b;
  };
  return Array.isArray(v) ? v.some(test) : test(v);
}
function matchField(rec: Rec, field: string, cond: unknown): boolean {
  const v = getPath(rec, field);
  if (isObj(cond) && Object.keys(cond).some((k) => k.startsWith('$'))) {
    for (const [op, arg] of Object.entries(cond)) {
      switch (op) {
        case '$eq':
          if (!fieldEq(v, arg)) return false;
          break;
        case '$ne':
          if (fieldEq(v, arg)) return false;
          break;
        case '$regex': {
          let re: RegExp;
          const opts = typeof cond.$options === 'string' ? cond.$options.replace(/[^imsu]/g, '') : '';
          try {
            re = new RegExp(String(arg), opts);
          } catch {
            throw new BadFilter('bad regex');
          }
          const t = (x: unknown) => typeof x === 'string' && re.test(x);
          if (!(Array.isArray(v) ? v.some(t) : t(v))) return false;
          break;
        }
        case '$options':
          break;
        case '$in':
          if (!Array.isArray(arg)) throw new BadFilter('$in needs array');
          if (!arg.some((a) => fieldEq(v, a))) return false;
          break;
        case '$nin':
          if (!Array.isArray(arg)) throw new BadFilter('$nin needs array');
          if (arg.some((a) => fieldEq(v, a))) return false;
          break;
        case '$gt':
        case '$gte':
        case '$lt':
        case '$lte':
          if (!cmp(v, arg, op)) return false;
          break;
        case '$exists':
          if ((v !== undefined) !== !!arg) return false;
          break;
        default:
          throw new BadFilter(`unknown operator ${op}`);
      }
    }
    return true;
  }
  return fieldEq(v, cond);
}
function matchExpr(rec: Rec, f: unknown): boolean {
  if (!isObj(f)) throw new BadFilter('not an object');
  for (const [k, c] of Object.entries(f)) {
    if (k === '$and' || k === '$or' || k === '$nor') {
      if (!Array.isArray(c)) throw new BadFilter(`${k} needs array`);
      const rs = c.map((sub) => matchExpr(rec, sub));
      if (k === '$and' && !rs.every(Boolean)) return false;
      if (k === '$or' && !rs.some(Boolean)) return false;
      if (k === '$nor' && rs.some(Boolean)) return false;
    } else if (k.startsWith('$')) {
      throw new BadFilter(`unknown operator ${k}`);
    } else if (!matchField(rec, k, c)) return false;
  }
  return true;
}
/** Returns a predicate. An incorrect filter (not JSON, not an object, unknown operator, bad regex)
 *  yields `{incorrect:true}` and a predicate that matches every row, as the document states. */
export function compileFilter(raw: string | null | undefined): { pred: (r: Rec) => boolean; incorrect: boolean; given: boolean } {
  if (raw === null || raw === undefined || raw === '') return { pred: () => true, incorrect: false, given: false };
  let f: unknown;
  try {
    f = JSON.parse(raw);
  } catch {
    return { pred: () => true, incorrect: true, given: true };
  }
  if (!isObj(f)) return { pred: () => true, incorrect: true, given: true };
  // probe the expression once against an empty record to detect structural errors
  try {
    matchExpr({}, f);
  } catch {
    return { pred: () => true, incorrect: true, given: true };
  }
  return {
    pred: (r) => {
      try {
        return matchExpr(r, f);
      } catch {
        return true;
      }
    },
    incorrect: false,
    given: true,
  };
}

// ---------------------------------------------------------------- sorting / paging / projection
function rank(v: unknown): number {
  if (v === undefined || v === null) return 0;
  if (typeof v === 'number' || typeof v === 'boolean') return 1;
  if (typeof v === 'string') return 2;
  return 3;
}
function compareValues(a: unknown, b: unknown): number {
  const ra = rank(a);
  const rb = rank(b);
  if (ra !== rb) return ra - rb;
  if (ra === 0) return 0;
  if (ra === 1) return Number(a) - Number(b);
  if (ra === 2) {
    const sa = a as string;
    const sb = b as string;
    return sa < sb ? -1 : sa > sb ? 1 : 0;
  }
  const sa = JSON.stringify(a);
  const sb = JSON.stringify(b);
  return sa < sb ? -1 : sa > sb ? 1 : 0;
}
export function sortRecs(recs: Rec[], key: string | undefined, asc: boolean, fallback = '_key'): Rec[] {
  const k = key || fallback;
  const out = recs.slice().sort((x, y) => {
    const c = compareValues(getPath(x, k), getPath(y, k));
    if (c !== 0) return c;
    return compareValues(x._key ?? x.id, y._key ?? y.id);
  });
  if (!asc) out.reverse();
  return out;
}
export function parseFields(q: URLSearchParams, name = 'fields'): string[] | undefined {
  const all = q.getAll(name).concat(q.getAll(name + '[]'));
  if (!all.length) return undefined;
  const out: string[] = [];
  for (const raw of all) {
    const s = raw.trim();
    if (s.startsWith('[')) {
      try {
        const arr = JSON.parse(s);
        if (Array.isArray(arr)) {
          out.push(...arr.map(String));
          continue;
        }
      } catch {
        /* fall through */
      }
    }
    out.push(...s.split(','));
  }
  const f = out.map((x) => x.trim()).filter(Boolean);
  return f.length ? f : undefined;
}
export function project(rec: Rec, fields: string[] | undefined, always: string[] = ['_key']): Rec {
  if (!fields) return rec;
  const out: Rec = {};
  for (const a of always) if (rec[a] !== undefined) out[a] = rec[a];
  for (const f of fields) {
    if (f.includes('.')) {
      const v = getPath(rec, f);
      if (v === undefined) continue;
      const parts = f.split('.');
      let cur = out;
      for (let i = 0; i < parts.length - 1; i++) {
        if (!isObj(cur[parts[i]])) cur[parts[i]] = {};
        cur = cur[parts[i]] as Rec;
      }
      cur[parts[parts.length - 1]] = v;
    } else if (rec[f] !== undefined) out[f] = rec[f];
  }
  return out;
}
export interface ListOpts {
  sortKey?: string;
  asc: boolean;
  offset: number;
  limit?: number; // undefined = all
  fields?: string[];
  filter: ReturnType<typeof compileFilter>;
}
/** Shared query parameters: sort_key, sort_dir (1/0), limit, offset, fields, filter. */
export function sharedOpts(q: URLSearchParams, filterName = 'filter', offsetName = 'offset'): ListOpts {
  const sd = q.get('sort_dir');
  let asc = true;
  if (sd !== null && sd !== '') {
    const s = sd.trim().toLowerCase();
    if (s === '1' || s === 'asc') asc = true;
    else if (s === '0' || s === '-1' || s === 'desc') asc = false;
    else throw bad(`Parameter "sort_dir" must be 1 (ascending) or 0 (descending), got "${sd}".`);
  }
  const limit = intParam(q, 'limit', { min: 0 });
  const offset = intParam(q, offsetName, { min: 0 }) ?? 0;
  return {
    sortKey: q.get('sort_key') || undefined,
    asc,
    offset,
    limit: limit === 0 ? undefined : limit,
    fields: parseFields(q),
    filter: compileFilter(q.get(filterName)),
  };
}
export function applyList(recs: Rec[], o: ListOpts, fallbackSort = '_key'): Rec[] {
  let r = recs.filter(o.filter.pred);
  r = sortRecs(r, o.sortKey, o.asc, fallbackSort);
  r = r.slice(o.offset);
  if (o.limit !== undefined) r = r.slice(0, o.limit);
  return r;
}

export function commonStamp(rec: Rec, user: User, objectType: string) {
  rec.object_type = objectType;
  rec._version = SCHEMA_VERSION;
  rec._user = 'nobody';
  rec.mod_source = 'REST';
  rec.mod_timestamp = isoOffset();
  if (typeof rec.title === 'string') rec.identifying_name = rec.title.toLowerCase();
  void user;
}
