// Small shared helpers: errors, keys, clocks, cloning.
import { randomBytes } from 'node:crypto';

export class HttpError extends Error {
  constructor(status, message, headers) {
    super(message);
    this.status = status;
    this.headers = headers || {};
  }
}

export const bad = (msg) => new HttpError(400, msg);
export const notFound = (msg) => new HttpError(404, msg);
export const forbidden = (msg) => new HttpError(403, msg || 'Forbidden: insufficient permissions for this object');
export const methodNotAllowed = (allow) =>
  new HttpError(405, `Method not allowed. Allowed: ${allow.join(', ')}`, { Allow: allow.join(', ') });

export const CURRENT_VERSION = '4.19.1';
export const GLOBAL_TEAM = 'default_ops_security_group';

// Server-generated object keys: 32 upper-case hex characters.
export function newKey() {
  return randomBytes(16).toString('hex').toUpperCase();
}

// Microsecond clock, strictly increasing, last digit never 0 so that epoch floats
// always print with six decimals.
let lastMicros = 0;
export function nowMicros() {
  let m = Math.floor((performance.timeOrigin + performance.now()) * 1000);
  if (m <= lastMicros) m = lastMicros + 1;
  if (m % 10 === 0) m += 1;
  lastMicros = m;
  return m;
}
export function microsFromDate(d) {
  // for seeds: date string -> micros with a non-zero last digit
  const m = new Date(d).getTime() * 1000 + 123457;
  return m;
}
export const epochFloat = (m) => m / 1e6;
export const epochFloatString = (m) => (m / 1e6).toFixed(6);

const pad = (n, w = 2) => String(n).padStart(w, '0');
function parts(m, offsetMin) {
  const d = new Date(Math.floor(m / 1000) + offsetMin * 60000);
  return {
    date: `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`,
    time: `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`,
    us: pad(((m % 1e6) + 1e6) % 1e6, 6),
  };
}
function offStr(offsetMin) {
  const s = offsetMin < 0 ? '-' : '+';
  const a = Math.abs(offsetMin);
  return `${s}${pad(Math.floor(a / 60))}:${pad(a % 60)}`;
}
// The "local" zone of the simulated search head.
export const LOCAL_OFFSET_MIN = -420;
// ISO-8601 in UTC with explicit +00:00 offset and microseconds (mod_timestamp).
export function isoUtc(m) {
  const p = parts(m, 0);
  return `${p.date}T${p.time}.${p.us}+00:00`;
}
// ISO-8601 in the local zone with its offset (entity create_time).
export function isoLocal(m) {
  const p = parts(m, LOCAL_OFFSET_MIN);
  return `${p.date}T${p.time}.${p.us}${offStr(LOCAL_OFFSET_MIN)}`;
}
// 'YYYY-MM-DD HH:MM:SS.ffffff' local (entity mod_time).
export function localMicroStr(m) {
  const p = parts(m, LOCAL_OFFSET_MIN);
  return `${p.date} ${p.time}.${p.us}`;
}
// 'YYYY-MM-DD HH:MM:SS' local (backup create_time).
export function localSecStr(m) {
  const p = parts(m, LOCAL_OFFSET_MIN);
  return `${p.date} ${p.time}`;
}

export const clone = (v) => (v === undefined ? undefined : structuredClone(v));
export const isObj = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);
export const isStr = (v) => typeof v === 'string';
export const isNum = (v) => typeof v === 'number' && Number.isFinite(v);
export const isStrArray = (v) => Array.isArray(v) && v.every((x) => typeof x === 'string');

export function deepEqual(a, b) {
  if (a === b) return true;
  if (typeof a !== typeof b || a === null || b === null || typeof a !== 'object') return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) return a.length === b.length && a.every((x, i) => deepEqual(x, b[i]));
  const ka = Object.keys(a),
    kb = Object.keys(b);
  return ka.length === kb.length && ka.every((k) => Object.hasOwn(b, k) && deepEqual(a[k], b[k]));
}

// BUG switches
const BUGS = new Set(
  (process.env.BUG || '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean),
);
export const bug = (name) => BUGS.has(name);
