// Shared helpers: errors, time formats, keys, parameter parsing.
import crypto from 'node:crypto';

export const SCHEMA_VERSION = '4.19.1';
export const GLOBAL = 'default_ops_security_group';

export class HttpError extends Error {
  constructor(status, text, extraHeaders) {
    super(text);
    this.status = status;
    this.extraHeaders = extraHeaders || {};
  }
}
export const bad = (t) => new HttpError(400, t);
export const notFound = (t = 'Object not found') => new HttpError(404, t);
export const forbidden = (t = 'Permission denied') => new HttpError(403, t);
export const conflict = (t) => new HttpError(409, t);
export const methodNotAllowed = (allow) => new HttpError(405, 'Method not allowed on this endpoint', { Allow: allow.join(', ') });

// ---- time -------------------------------------------------------------------------------------
// The service reports wall-clock times in a fixed +05:30 offset (server local time).
const OFFSET_MIN = 330;
const pad = (n, w = 2) => String(n).padStart(w, '0');
let lastMicros = 0;
// monotonic microsecond clock so that mod_timestamp strictly increases
export function nowMicros() {
  let m = Date.now() * 1000 + Math.floor((performance.now() % 1) * 1000);
  if (m <= lastMicros) m = lastMicros + 1;
  lastMicros = m;
  return m;
}
function parts(micros) {
  const ms = Math.floor(micros / 1000);
  const d = new Date(ms + OFFSET_MIN * 60000);
  return {
    date: `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`,
    time: `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`,
    frac: pad(micros % 1000000, 6),
  };
}
const OFFSET_STR = `${OFFSET_MIN >= 0 ? '+' : '-'}${pad(Math.floor(Math.abs(OFFSET_MIN) / 60))}:${pad(Math.abs(OFFSET_MIN) % 60)}`;
export const isoWithOffset = (micros) => {
  const p = parts(micros);
  return `${p.date}T${p.time}.${p.frac}${OFFSET_STR}`;
};
export const modTimeString = (micros) => {
  const p = parts(micros);
  return `${p.date} ${p.time}.${p.frac}`;
};
export const plainTimeString = (micros) => {
  const p = parts(micros);
  return `${p.date} ${p.time}`;
};
export const epochSeconds = (micros) => Math.floor(micros / 1000000);

// ---- keys -------------------------------------------------------------------------------------
let counter = crypto.randomBytes(3).readUIntBE(0, 3);
export function newKey() {
  // 24 hex characters in the style of document-store object ids
  const t = Math.floor(Date.now() / 1000)
    .toString(16)
    .padStart(8, '0');
  counter = (counter + 1) % 0xffffff;
  return t + crypto.randomBytes(5).toString('hex') + counter.toString(16).padStart(6, '0');
}
export const newUuid = () => crypto.randomUUID();
export const newKpiKey = () => crypto.randomBytes(20).toString('hex');

// ---- misc -------------------------------------------------------------------------------------
export const isPlainObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);
export const clone = (v) => (v === undefined ? undefined : JSON.parse(JSON.stringify(v)));

// Query parameter access: a repeated parameter takes its LAST occurrence.
export function qp(q, name) {
  const all = q.getAll(name);
  return all.length ? all[all.length - 1] : undefined;
}
export function intParam(q, name, { min = 0, allowNegative = false } = {}) {
  const v = qp(q, name);
  if (v === undefined) return undefined;
  if (!/^-?[0-9]+$/.test(v)) throw bad(`Parameter ${name} must be an integer, got '${v}'`);
  const n = Number(v);
  if (!allowNegative && n < min) throw bad(`Parameter ${name} must be >= ${min}`);
  if (!Number.isSafeInteger(n)) throw bad(`Parameter ${name} is out of range`);
  return n;
}
// Boolean (1 or 0) parameters: only the literal strings "1" and "0".
export function bool01Param(q, name, dflt = 0) {
  const v = qp(q, name);
  if (v === undefined) return dflt;
  if (v === '1') return 1;
  if (v === '0') return 0;
  throw bad(`Parameter ${name} must be 1 or 0`);
}
// epoch seconds: numbers, or numeric strings, become numbers
export function toEpochNumber(v, name) {
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  if (typeof v === 'string' && /^\s*-?[0-9]+(\.[0-9]+)?\s*$/.test(v)) return Number(v);
  throw bad(`Field ${name} must be epoch seconds (number)`);
}
export function truthyFlag(v) {
  return v === 1 || v === '1' || v === true || v === 'true' || v === 'True';
}

// An explicit reply (status + JSON body, or an empty body).
export class Reply {
  constructor(status, json, empty = false) {
    this.status = status;
    this.json = json;
    this.empty = empty;
  }
}
