// Shared helpers: errors, responses, keys, time formats, parameter parsing.
import crypto from 'node:crypto';
import zlib from 'node:zlib';

export const SCHEMA_VERSION = '4.19.1';
export const GLOBAL = 'default_ops_security_group';
// Every JSON body is preceded by this run of white space and a newline (seen on real deployments).
const JSON_PREAMBLE = ' '.repeat(40) + '\n';

export class ApiError extends Error {
  constructor(status, code, text, extra) {
    super(text);
    this.status = status;
    this.code = code;
    this.extra = extra;
  }
}
export const bad = (text, code = 'BAD_REQUEST') => new ApiError(400, code, text);
export const invalid = (text, code = 'VALIDATION_FAILED') => new ApiError(422, code, text);
export const notFound = (text = 'Object not found', code = 'NOT_FOUND') => new ApiError(404, code, text);
export const forbidden = (text = 'Permission denied', code = 'FORBIDDEN') => new ApiError(403, code, text);
export const conflict = (text, code = 'CONFLICT') => new ApiError(409, code, text);
export const methodNotAllowed = (allow, text) => {
  const e = new ApiError(405, 'METHOD_NOT_ALLOWED', text || `Method not allowed here; allowed: ${allow.join(', ')}`);
  e.allow = allow;
  return e;
};

export function errorBody(err) {
  const msg = { type: 'ERROR', code: err.code, text: err.message };
  const body = { messages: [msg] };
  if (err.extra) Object.assign(body, err.extra);
  return body;
}

let requestCounter = 0;
export function send(req, res, status, body, headers = {}) {
  const h = {
    'X-Ops-Request-Id': `req-${(++requestCounter).toString(36).padStart(6, '0')}`,
    'X-Ops-Schema-Version': SCHEMA_VERSION,
    'Cache-Control': 'no-store, max-age=0',
    ...headers,
  };
  if (body === undefined || body === null) {
    // "empty" answers: no body at all.
    h['Content-Length'] = '0';
    res.writeHead(status, h);
    res.end();
    return;
  }
  let buf = Buffer.from(JSON_PREAMBLE + JSON.stringify(body), 'utf8');
  h['Content-Type'] = 'text/json; charset=UTF-8';
  const ae = String(req.headers['accept-encoding'] || '');
  if (buf.length > 512 && /\bgzip\b/i.test(ae)) {
    buf = zlib.gzipSync(buf);
    h['Content-Encoding'] = 'gzip';
    h['Vary'] = 'Accept-Encoding';
  }
  h['Content-Length'] = String(buf.length);
  res.writeHead(status, h);
  res.end(buf);
}

// Keys. Different object families use different key formats on purpose.
export const hexKey = () => crypto.randomBytes(12).toString('hex'); // 24 hex, KV-store style
export const uuid = () => crypto.randomUUID();
export const upperUuid = () => crypto.randomUUID().toUpperCase();

// Time formats.
export const nowEpoch = () => Math.round(Date.now()) / 1000; // fractional epoch seconds
const pad = (n, w = 2) => String(n).padStart(w, '0');
// ISO-8601 with a +05:30 offset and microseconds.
export function isoOffset(ms = Date.now()) {
  const off = 330; // minutes
  const d = new Date(ms + off * 60000);
  const micro = pad(d.getUTCMilliseconds(), 3) + pad(Math.floor(Math.random() * 1000), 3);
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}T${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}.${micro}+05:30`;
}
// "YYYY-MM-DD HH:MM:SS.ffffff" (UTC)
export function modTime(ms = Date.now()) {
  const d = new Date(ms);
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}.${pad(d.getUTCMilliseconds(), 3)}000`;
}
// "YYYY-MM-DD HH:MM:SS" (UTC)
export function plainTime(ms = Date.now()) {
  return modTime(ms).slice(0, 19);
}

export const clone = (x) => (x === undefined ? undefined : JSON.parse(JSON.stringify(x)));
export const isObj = (x) => x !== null && typeof x === 'object' && !Array.isArray(x);

export function deepMerge(target, src) {
  for (const [k, v] of Object.entries(src)) {
    if (k === '__proto__') continue;
    if (isObj(v) && isObj(target[k])) deepMerge(target[k], v);
    else target[k] = clone(v);
  }
  return target;
}

// Boolean "1 or 0" query parameter. Only 1 and 0 are accepted.
export function boolParam(q, name, dflt) {
  if (!q.has(name)) return dflt;
  const v = q.getAll(name).pop();
  if (v === '1') return true;
  if (v === '0') return false;
  throw bad(`Parameter ${name} must be 1 or 0`, 'INVALID_PARAMETER');
}

// Boolean in a JSON body: 1/0, true/false and their string forms.
export function boolBody(v, name) {
  if (v === true || v === 1 || v === '1' || v === 'true' || v === 'True') return true;
  if (v === false || v === 0 || v === '0' || v === 'false' || v === 'False') return false;
  throw invalid(`${name} must be a Boolean (1 or 0)`, 'INVALID_FIELD');
}

export function intParam(q, name) {
  if (!q.has(name)) return undefined;
  const v = q.getAll(name).pop();
  if (!/^\d+$/.test(v.trim())) throw bad(`Parameter ${name} must be a non-negative integer`, 'INVALID_PARAMETER');
  return parseInt(v.trim(), 10);
}

export function lastParam(q, name) {
  if (!q.has(name)) return undefined;
  return q.getAll(name).pop();
}

export function titleToIdentifying(t) {
  return typeof t === 'string' ? t.toLowerCase() : '';
}
