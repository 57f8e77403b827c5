// In-memory versioned stores, filters, list helpers, errors, users.
import { randomBytes } from 'node:crypto';

const BUGS: Set<string> = new Set(
  String(process.env.BUG || '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean),
);
export const bug = (name: string): boolean => BUGS.has(name);
const LAGGING =
  String(process.env.VARIANT || '')
    .trim()
    .toLowerCase() === 'lagging';

// Per-request context: reads (GET) see the "visible" state, writes act on the latest state.
const ctx: any = { mode: 'latest', delay: 0 };
export function beginRequest(method: string): void {
  ctx.mode = method === 'GET' || method === 'HEAD' ? 'visible' : 'latest';
  ctx.delay = LAGGING ? 300 + Math.floor(Math.random() * 901) : 0;
}

export const GLOBAL = 'default_ops_security_group';
export const VERSION = '4.19.2';

export class HttpError extends Error {
  status: number;
  code: string;
  constructor(status: number, code: string, message: string) {
    super(message);
    this.status = status;
    this.code = code;
  }
}
export const fail = (status: number, code: string, msg: string): never => {
  throw new HttpError(status, code, msg);
};

const clone = (v: any): any => (v === null || v === undefined ? v : structuredClone(v));

type Ver = { at: number; val: any };
export class Store {
  m: Map<string, Ver[]> = new Map();
  seed(key: string, val: any): void {
    this.m.set(key, [{ at: 0, val: clone(val) }]);
  }
  private cur(vs: Ver[]): any {
    if (ctx.mode !== 'visible') return vs[vs.length - 1].val;
    const now = Date.now();
    for (let i = vs.length - 1; i >= 0; i--) {
      if (vs[i].at <= now) {
        if (i > 0) vs.splice(0, i);
        return vs[0].val;
      }
    }
    return null;
  }
  get(key: string): any {
    const vs = this.m.get(key);
    if (!vs) return null;
    return clone(this.cur(vs));
  }
  has(key: string): boolean {
    return this.get(key) !== null;
  }
  list(): any[] {
    const out: any[] = [];
    for (const vs of this.m.values()) {
      const v = this.cur(vs);
      if (v !== null && v !== undefined) out.push(clone(v));
    }
    return out;
  }
  put(key: string, val: any): void {
    let vs = this.m.get(key);
    if (!vs) {
      vs = [{ at: 0, val: null }];
      this.m.set(key, vs);
    }
    const last = vs[vs.length - 1];
    const at = Math.max(Date.now() + ctx.delay, last.at);
    vs.push({ at, val: clone(val) });
    if (!LAGGING) vs.splice(0, vs.length - 1);
  }
  del(key: string): void {
    if (this.m.has(key)) this.put(key, null);
  }
}

export function newKey(): string {
  // 12-character URL-safe keys, e.g. "q3Zt-k9_aXbW"
  return randomBytes(9).toString('base64url');
}

export function isoOff(d: Date = new Date()): string {
  return d.toISOString().replace(/\.(\d{3})Z$/, '.$1000+00:00');
}
const p2 = (n: number) => String(n).padStart(2, '0');
export function modTime(d: Date = new Date()): string {
  return (
    `${d.getUTCFullYear()}-${p2(d.getUTCMonth() + 1)}-${p2(d.getUTCDate())} ` +
    `${p2(d.getUTCHours())}:${p2(d.getUTCMinutes())}:${p2(d.getUTCSeconds())}.` +
    String(d.getUTCMilliseconds()).padStart(3, '0') +
    '000'
  );
}
export function plainTime(d: Date = new Date()): string {
  return modTime(d).slice(0, 19);
}

// ---------- users ----------
export type User = { name: string; write: boolean; all: boolean; teams: string[] };
export const TEAM_KEY = 'team_payments_ops';
export const USERS: Record<string, { pw: string; u: User }> = {
  admin: { pw: 'Adm1n-pw', u: { name: 'admin', write: true, all: true, teams: [GLOBAL] } },
  viewer: { pw: 'V1ew-pw', u: { name: 'viewer', write: false, all: true, teams: [GLOBAL] } },
  teamer: { pw: 'T3am-pw', u: { name: 'teamer', write: true, all: false, teams: [TEAM_KEY] } },
};

function groupsOf(obj: any): string[] {
  if (Array.isArray(obj?.sec_grp_list) && obj.sec_grp_list.length) return obj.sec_grp_list.map(String);
  return [obj && typeof obj.sec_grp === 'string' && obj.sec_grp ? obj.sec_grp : GLOBAL];
}
export function canRead(u: User, obj: any): boolean {
  if (u.all) return true;
  if (obj && obj.object_type === 'team') return u.teams.includes(obj._key);
  return groupsOf(obj).some((g) => u.teams.includes(g));
}
export function needWrite(u: User): void {
  if (!u.write) fail(403, 'forbidden', `user '${u.name}' has read-only access; writes are refused`);
}
// sec_grp for a new or changed object of the caller
export function checkGroups(u: User, obj: any, listField = false): void {
  if (u.all) return;
  if (listField) {
    if (!Array.isArray(obj.sec_grp_list) || !obj.sec_grp_list.length) obj.sec_grp_list = [u.teams[0]];
    if (!obj.sec_grp_list.every((g: any) => u.teams.includes(String(g))))
      fail(403, 'forbidden', `user '${u.name}' cannot write objects of team(s) ${obj.sec_grp_list.join(',')}`);
    if (!obj.sec_grp) obj.sec_grp = obj.sec_grp_list[0];
    return;
  }
  if (!obj.sec_grp) obj.sec_grp = u.teams[0];
  if (!u.teams.includes(String(obj.sec_grp))) fail(403, 'forbidden', `user '${u.name}' cannot write objects of team '${obj.sec_grp}'`);
}

// ---------- filters ----------
function getPath(o: any, path: string): any {
  if (o == null) return undefined;
  if (Object.hasOwn(o, path)) return o[path];
  let cur = o;
  for (const p of path.split('.')) {
    if (cur == null) return undefined;
    if (Array.isArray(cur) && !/^\d+$/.test(p)) {
      const vals = cur.map((x) => (x == null ? undefined : x[p])).filter((x) => x !== undefined);
      cur = vals.flat();
      continue;
    }
    cur = cur[p];
  }
  return cur;
}
function eq(a: any, b: any): boolean {
  if (a === b) return true;
  if (typeof a === 'number' && typeof b === 'string' && b !== '' && Number(b) === a) return true;
  if (typeof b === 'number' && typeof a === 'string' && a !== '' && Number(a) === b) return true;
  if (a && b && typeof a === 'object' && typeof b === 'object') return JSON.stringify(a) === JSON.stringify(b);
  return false;
}
function eqOrContains(v: any, want: any): boolean {
  if (Array.isArray(v) && !Array.isArray(want)) return v.some((x) => eq(x, want));
  return eq(v, want);
}
function cmp(a: any, b: any): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  const na = Number(a),
    nb = Number(b);
  if (a !== '' && b !== '' && !Number.isNaN(na) && !Number.isNaN(nb) && typeof a !== 'object' && typeof b !== 'object') return na - nb;
  return String(a).localeCompare(String(b));
}
function matchCond(v: any, cond: any): boolean {
  if (cond && typeof cond === 'object' && !Array.isArray(cond) && Object.keys(cond).some((k) => k.startsWith('$'))) {
    for (const [op, arg] of Object.entries(cond)) {
      switch (op) {
        case '$regex': {
          const re = new RegExp(String(arg), String(cond.$options || ''));
          const vals = Array.isArray(v) ? v : [v];
          if (!vals.some((x) => x !== undefined && x !== null && re.test(String(x)))) return false;
          break;
        }
        case '$options':
          break;
        case '$ne':
          if (eqOrContains(v, arg)) return false;
          break;
        case '$eq':
          if (!eqOrContains(v, arg)) return false;
          break;
        case '$in':
          if (!Array.isArray(arg) || !arg.some((a) => eqOrContains(v, a))) return false;
          break;
        case '$nin':
          if (Array.isArray(arg) && arg.some((a) => eqOrContains(v, a))) return false;
          break;
        case '$gt':
          if (!(v !== undefined && cmp(v, arg) > 0)) return false;
          break;
        case '$gte':
          if (!(v !== undefined && cmp(v, arg) >= 0)) return false;
          break;
        case '$lt':
          if (!(v !== undefined && cmp(v, arg) < 0)) return false;
          break;
        case '$lte':
          if (!(v !== undefined && cmp(v, arg) <= 0)) return false;
          break;
        case '$exists':
          if ((v !== undefined) !== !!arg) return false;
          break;
        default:
          throw new Error('unknown operator ' + op);
      }
    }
    return true;
  }
  return eqOrContains(v, cond);
}
function matches(o: any, f: any): boolean {
  if (!f || typeof f !== 'object' || Array.isArray(f)) throw new Error('bad filter');
  for (const [k, c] of Object.entries(f)) {
    if (k === '$and') {
      if (!Array.isArray(c) || !c.every((x) => matches(o, x))) return false;
    } else if (k === '$or') {
      if (!Array.isArray(c) || !c.some((x) => matches(o, x))) return false;
    } else if (k === '$nor') {
      if (!Array.isArray(c) || c.some((x) => matches(o, x))) return false;
    } else if (!matchCond(getPath(o, k), c)) return false;
  }
  return true;
}
// An incorrect filter is not rejected: it selects every row.
export function applyFilter(items: any[], raw: any): any[] {
  if (raw === undefined || raw === null || raw === '') return items;
  let f: any;
  try {
    f = typeof raw === 'string' ? JSON.parse(raw) : raw;
    if (!f || typeof f !== 'object' || Array.isArray(f)) return items;
    return items.filter((o) => matches(o, f));
  } catch {
    return items;
  }
}

// ---------- query helpers ----------
export function intParam(q: URLSearchParams, name: string, min = 0): number | undefined {
  const v = q.get(name);
  if (v === null || v === '') return undefined;
  if (!/^-?\d+$/.test(v.trim())) fail(400, 'bad_parameter', `parameter '${name}' must be an integer`);
  const n = parseInt(v, 10);
  if (n < min) fail(400, 'bad_parameter', `parameter '${name}' must be >= ${min}`);
  return n;
}
export function boolParam(q: URLSearchParams | any, name: string, dflt: boolean): boolean {
  const v = q instanceof URLSearchParams ? q.get(name) : q?.[name];
  if (v === null || v === undefined || v === '') return dflt;
  const s = String(v).trim().toLowerCase();
  if (['1', 'true', 't', 'yes', 'y', 'on'].includes(s)) return true;
  if (['0', 'false', 'f', 'no', 'n', 'off'].includes(s)) return false;
  return fail(400, 'bad_parameter', `parameter '${name}' must be a Boolean (1 or 0)`);
}
export function sortItems(items: any[], key: string | null, asc: boolean): any[] {
  const k = key || 'mod_timestamp';
  const out = items.slice();
  out.sort((a, b) => {
    const va = getPath(a, k),
      vb = getPath(b, k);
    let c: number;
    if (va === undefined && vb === undefined) c = 0;
    else if (va === undefined) c = -1;
    else if (vb === undefined) c = 1;
    else c = cmp(va, vb);
    if (c === 0) c = String(a._key ?? a.id ?? '').localeCompare(String(b._key ?? b.id ?? ''));
    return asc ? c : -c;
  });
  return out;
}
export function project(o: any, fields: string[] | null): any {
  if (!fields?.length) return o;
  const out: any = {};
  if (o._key !== undefined) out._key = o._key;
  for (const f of fields) {
    const v = getPath(o, f);
    if (v !== undefined) out[f] = v;
  }
  return out;
}
export function fieldsParam(q: URLSearchParams): string[] | null {
  const all = q.getAll('fields');
  if (!all.length) return null;
  const out = all
    .flatMap((v) => v.split(','))
    .map((s) => s.trim())
    .filter(Boolean);
  return out.length ? out : null;
}
// Shared list parameters: sort_key, sort_dir (1/0), limit, offset, fields, filter.
// Default order (no sort_key): most recently modified first.
export function sharedList(items: any[], q: URLSearchParams, opt: any = {}): any[] {
  const offName = opt.offsetName || 'offset';
  const filterName = opt.filterName || 'filter';
  let rows = applyFilter(items, q.get(filterName));
  const sk = q.get('sort_key');
  const sdRaw = q.get('sort_dir');
  let asc = true;
  if (sdRaw !== null && sdRaw !== '') {
    const s = sdRaw.trim().toLowerCase();
    if (s === '1' || s === 'asc') asc = true;
    else if (s === '0' || s === 'desc') asc = false;
    else fail(400, 'bad_parameter', "parameter 'sort_dir' must be 1 (ascending) or 0 (descending)");
  }
  if (opt.invertDir) asc = !asc;
  if (sk) rows = sortItems(rows, sk, asc);
  else rows = sortItems(rows, opt.defaultKey || 'mod_timestamp', opt.defaultAsc ?? false);
  let offset = opt.ignoreOffset ? 0 : intParam(q, offName) || 0;
  const limit = intParam(q, opt.limitName || 'limit');
  if (opt.offsetDroppedWithLimit && limit) offset = 0;
  rows = rows.slice(offset);
  if (limit) rows = rows.slice(0, limit);
  const fields = fieldsParam(q);
  return rows.map((r) => project(r, fields));
}
