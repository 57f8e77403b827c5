// Small shared helpers: errors, JSON answers, time formats, key generators.
import crypto from 'node:crypto';

export const SCHEMA_VERSION = '4.19.1';
export const GLOBAL_TEAM = 'default_ops_security_group';

export class HttpError extends Error {
  constructor(status, text, extra) {
    super(text);
    this.status = status;
    this.extra = extra;
  }
}
export const bad = (t) => new HttpError(400, t);
export const notFound = (t) => new HttpError(404, t || 'Object not found');
export const forbidden = (t) => new HttpError(403, t || 'Permission denied');
export const conflict = (t) => new HttpError(409, t);

// Every JSON answer starts with a run of white space and a newline (seen in the field; valid JSON).
const LEAD = ' '.repeat(48) + '\n';

export function sendJson(res, status, body, headers = {}) {
  const text = LEAD + JSON.stringify(body);
  res.writeHead(status, {
    'Content-Type': 'text/json; charset=UTF-8',
    'Content-Length': Buffer.byteLength(text),
    'Cache-Control': 'no-store, max-age=0',
    'X-Ops-Api': 'vLatest',
    ...headers,
  });
  res.end(text);
}

export function sendEmpty(res, status = 200, headers = {}) {
  res.writeHead(status, { 'Content-Length': 0, 'Cache-Control': 'no-store, max-age=0', ...headers });
  res.end();
}

export function errorBody(status, text) {
  return { messages: [{ type: status >= 500 ? 'FATAL' : 'ERROR', text: `(${status}, '${text}')` }] };
}

// ---------- time ----------
// The server reports local time of a fixed zone, UTC+05:45.
const OFFSET_MIN = 345;
const pad = (n, w = 2) => String(n).padStart(w, '0');
// Millisecond clock with microsecond fraction, strictly increasing between calls.
let lastNow = 0;
export function nowPrecise() {
  let t = performance.timeOrigin + performance.now();
  if (t <= lastNow) t = lastNow + 0.001;
  lastNow = t;
  return t;
}
function shifted(ms) {
  const whole = Math.floor(ms);
  const d = new Date(whole + OFFSET_MIN * 60000);
  return {
    y: d.getUTCFullYear(),
    mo: pad(d.getUTCMonth() + 1),
    d: pad(d.getUTCDate()),
    h: pad(d.getUTCHours()),
    mi: pad(d.getUTCMinutes()),
    s: pad(d.getUTCSeconds()),
    us: pad(Math.min(999999, d.getUTCMilliseconds() * 1000 + Math.floor((ms - whole) * 1000)), 6),
  };
}
export function isoTs(ms = nowPrecise()) {
  const t = shifted(ms);
  return `${t.y}-${t.mo}-${t.d}T${t.h}:${t.mi}:${t.s}.${t.us}+05:45`;
}
export function modTime(ms = nowPrecise()) {
  const t = shifted(ms);
  return `${t.y}-${t.mo}-${t.d} ${t.h}:${t.mi}:${t.s}.${t.us}`;
}
export function plainTime(ms = Date.now()) {
  const t = shifted(ms);
  return `${t.y}-${t.mo}-${t.d} ${t.h}:${t.mi}:${t.s}`;
}
export function epoch(ms = Date.now()) {
  return Number((ms / 1000).toFixed(6));
}
export function epochInt(ms = Date.now()) {
  return Math.floor(ms / 1000);
}

// ---------- keys ----------
export const hex = (n) =>
  crypto
    .randomBytes(Math.ceil(n / 2))
    .toString('hex')
    .slice(0, n);
export const objectIdKey = () => hex(24);
export const upperUuid = () => crypto.randomUUID().toUpperCase();
export const kpiKey = () => hex(40);
export const KEY_RE = /^[A-Za-z0-9_\-.:@]{1,200}$/;

// ---------- misc ----------
export const clone = (v) => (v === undefined ? undefined : structuredClone(v));
export const isObj = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);

export function deepMerge(base, patch) {
  const out = isObj(base) ? { ...base } : {};
  for (const [k, v] of Object.entries(patch)) {
    if (isObj(v) && isObj(out[k])) out[k] = deepMerge(out[k], v);
    else out[k] = clone(v);
  }
  return out;
}

export function truthyFlag(v) {
  return v === true || v === 1 || v === '1' || (typeof v === 'string' && ['true', 'yes', 't'].includes(v.toLowerCase()));
}
