// Small shared helpers: errors, time formats, parsing of query values.
import { randomUUID } from 'node:crypto';

export const CURRENT_VERSION = '4.19.1';
export const GLOBAL_TEAM = 'default_ops_security_group';

export class ApiError extends Error {
  constructor(status, text, headers = {}) {
    super(text);
    this.status = status;
    this.headers = headers;
  }
}
export const bad = (text) => new ApiError(422, text);
export const notFound = (text) => new ApiError(404, text);
export const forbidden = (text) => new ApiError(403, text);
export const conflict = (text) => new ApiError(409, text);
export const methodNotAllowed = (allow) =>
  new ApiError(405, `Method not allowed here. Allowed: ${allow.join(', ')}`, { Allow: allow.join(', ') });

export const newKey = () => randomUUID();
export const clone = (v) => (v === undefined ? undefined : structuredClone(v));
export const isObj = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);
export const isStrArray = (v) => Array.isArray(v) && v.every((x) => typeof x === 'string');

const pad = (n, w = 2) => String(n).padStart(w, '0');
function micro(d) {
  // millisecond clock padded to microseconds with a pseudo-random tail so values differ
  return pad(d.getUTCMilliseconds(), 3) + pad(Math.floor(Math.random() * 1000), 3);
}
/** ISO-8601 with microseconds and explicit +00:00 offset */
export function isoTs(d = new Date()) {
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}T${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}.${micro(d)}+00:00`;
}
/** YYYY-MM-DD HH:MM:SS.ffffff */
export function modTimeStr(d = new Date()) {
  return `${plainTs(d)}.${micro(d)}`;
}
/** YYYY-MM-DD HH:MM:SS */
export function plainTs(d = new Date()) {
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
}
export const epochNow = () => Math.round(Date.now()) / 1000;
export const epochSec = () => Math.floor(Date.now() / 1000);

/** Boolean query/body value: 1/0/true/false (strings or natives). undefined -> dflt. Anything else -> 422 */
export function parseBool(v, name, dflt) {
  if (v === undefined || v === null || v === '') return dflt;
  if (v === true || v === 1) return true;
  if (v === false || v === 0) return false;
  if (typeof v === 'string') {
    const s = v.trim().toLowerCase();
    if (s === '1' || s === 'true') return true;
    if (s === '0' || s === 'false') return false;
  }
  throw bad(`Parameter '${name}' must be a Boolean (1 or 0); got ${JSON.stringify(v)}`);
}
/** non-negative integer query value; undefined -> undefined */
export function parseNonNegInt(v, name) {
  if (v === undefined || v === null || v === '') return undefined;
  const s = String(v).trim();
  if (!/^\d+$/.test(s)) throw bad(`Parameter '${name}' must be a non-negative integer; got ${JSON.stringify(v)}`);
  const n = Number(s);
  if (!Number.isSafeInteger(n)) throw bad(`Parameter '${name}' is too large`);
  return n;
}
export function lowerTitle(t) {
  return typeof t === 'string' ? t.toLowerCase() : '';
}

/** explicit status + body (body undefined = empty body) */
export class Reply {
  constructor(status, body, headers = {}) {
    this.status = status;
    this.body = body;
    this.headers = headers;
  }
}
/** Dispatch on method; unknown method -> 405 with Allow */
export async function byMethod(ctx, table) {
  const m = ctx.method === 'HEAD' ? 'GET' : ctx.method;
  const h = table[m];
  if (!h) throw methodNotAllowed(Object.keys(table));
  return h();
}
