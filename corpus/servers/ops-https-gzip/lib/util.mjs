// Small shared helpers: errors, keys, clocks, comparison, parameter parsing.
import crypto from 'node:crypto';

export const SCHEMA_VERSION = '4.18.2';
export const GLOBAL_TEAM = 'default_ops_security_group';

export class HttpError extends Error {
  constructor(status, text, headers = {}) {
    super(text);
    this.status = status;
    this.text = text;
    this.headers = headers;
  }
}
export const bad = (text) => new HttpError(400, text);
export const notFound = (text = 'Object not found') => new HttpError(404, text);
export const forbidden = (text = 'Permission denied') => new HttpError(403, text);
export const conflict = (text) => new HttpError(409, text);
export const notAllowed = (allow) =>
  new HttpError(405, `Method not allowed here; allowed: ${allow.join(', ')}`, { Allow: allow.join(', ') });

// 24 lower-case hex characters, random (never time-ordered).
export const newKey = () => crypto.randomBytes(12).toString('hex');
// Stable "random looking" key for seed data, so seeded keys survive restarts.
export const seedKey = (name) =>
  crypto
    .createHash('sha1')
    .update('ops-seed:' + name)
    .digest('hex')
    .slice(0, 24);

export const clone = (v) => (v === undefined ? undefined : structuredClone(v));
export const isObj = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);
export const isStr = (v) => typeof v === 'string';
export const isStrArray = (v) => Array.isArray(v) && v.every((x) => typeof x === 'string');

// ---- clocks ---------------------------------------------------------------------------------
// Server-written timestamps are rendered in a fixed -07:00 offset (the document only asks for
// "ISO-8601 timestamp with offset").
const OFFSET_MIN = -7 * 60;
let lastMicro = 0;
export function nowMicro() {
  // strictly increasing microsecond clock
  let m = Date.now() * 1000 + Math.floor(Math.random() * 1000);
  if (m <= lastMicro) m = lastMicro + 1;
  lastMicro = m;
  return m;
}
const pad = (n, w = 2) => String(n).padStart(w, '0');
function localParts(micro) {
  const ms = Math.floor(micro / 1000);
  const d = new Date(ms + OFFSET_MIN * 60000);
  return {
    date: `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`,
    time: `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`,
    frac: pad(micro % 1000000, 6),
  };
}
export const isoWithOffset = (micro) => {
  const p = localParts(micro);
  return `${p.date}T${p.time}.${p.frac}-07:00`;
};
export const spaceMicroTime = (micro) => {
  const p = localParts(micro);
  return `${p.date} ${p.time}.${p.frac}`;
};
export const spaceSecondTime = (micro) => {
  const p = localParts(micro);
  return `${p.date} ${p.time}`;
};
export const epochSeconds = (micro) => Math.round(micro / 1000) / 1000; // fractional, ms precision

// ---- comparison (byte-wise strings) -------------------------------------------------------
function rank(v) {
  if (v === undefined || v === null) return 0;
  if (typeof v === 'number') return 1;
  if (typeof v === 'string') return 2;
  if (typeof v === 'boolean') return 5;
  if (Array.isArray(v)) return 4;
  return 3;
}
export function compareValues(a, b) {
  const ra = rank(a),
    rb = rank(b);
  if (ra !== rb) return ra - rb;
  if (ra === 0) return 0;
  if (ra === 1) return a < b ? -1 : a > b ? 1 : 0;
  if (ra === 2) return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
  if (ra === 5) return (a ? 1 : 0) - (b ? 1 : 0);
  return Buffer.compare(Buffer.from(JSON.stringify(a)), Buffer.from(JSON.stringify(b)));
}
export function deepEqual(a, b) {
  if (a === b) return true;
  if (typeof a !== typeof b || a === null || b === null || typeof a !== 'object') return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) return a.length === b.length && a.every((x, i) => deepEqual(x, b[i]));
  const ka = Object.keys(a),
    kb = Object.keys(b);
  return ka.length === kb.length && ka.every((k) => Object.hasOwn(b, k) && deepEqual(a[k], b[k]));
}

// ---- query parameters ------------------------------------------------------------------------
export function intParam(q, name, { min = 0 } = {}) {
  if (!q.has(name)) return undefined;
  const raw = q.get(name).trim();
  if (!/^-?\d+$/.test(raw)) throw bad(`Parameter ${name} must be an integer, got "${q.get(name)}"`);
  const n = Number(raw);
  if (!Number.isSafeInteger(n) || n < min) throw bad(`Parameter ${name} must be an integer >= ${min}`);
  return n;
}
// Boolean flags documented as "Boolean (1 or 0)"; true/false (any case) also understood.
export function parseBool(raw, name) {
  const s = String(raw).trim().toLowerCase();
  if (s === '1' || s === 'true') return true;
  if (s === '0' || s === 'false') return false;
  throw bad(`Parameter ${name} must be 1 or 0`);
}
export function boolParam(q, name, dflt) {
  if (!q.has(name)) return dflt;
  return parseBool(q.get(name), name);
}
export function bodyBool(v, name, dflt) {
  if (v === undefined || v === null) return dflt;
  if (typeof v === 'boolean') return v;
  if (v === 1 || v === 0) return v === 1;
  if (typeof v === 'string') return parseBool(v, name);
  throw bad(`Field ${name} must be a Boolean (1 or 0)`);
}
// list of identifiers given as JSON array or comma-separated string
export function idList(raw) {
  if (raw === undefined || raw === null) return [];
  if (Array.isArray(raw)) return raw.map(String).filter(Boolean);
  const s = String(raw).trim();
  if (s.startsWith('[')) {
    try {
      const v = JSON.parse(s);
      if (Array.isArray(v)) return v.map(String).filter(Boolean);
    } catch {
      /* fall through */
    }
    throw bad('Identifier list is not a valid JSON array');
  }
  return s
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean);
}
