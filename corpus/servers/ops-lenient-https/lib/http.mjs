// Request and response helpers: errors, JSON bodies, query values.

export class HttpError extends Error {
  constructor(status, message, extra) {
    super(message);
    this.status = status;
    this.extra = extra;
  }
}

export const notFound = (what) => new HttpError(404, `${what} not found`);
export const forbidden = (what) => new HttpError(403, what || 'insufficient permissions for this operation');
export const invalid = (what) => new HttpError(422, what);
export const badRequest = (what) => new HttpError(400, what);
export const notAllowed = (what) => new HttpError(405, what || 'method not supported on this resource');

// Every JSON body starts with a short run of white space and a newline, as deployed platforms do.
const LEAD = '   \n';

export function sendJson(res, status, body, headers = {}) {
  const text = LEAD + JSON.stringify(body);
  res.writeHead(status, {
    'Content-Type': 'application/json; charset=UTF-8',
    'Content-Length': Buffer.byteLength(text),
    'Cache-Control': 'no-store',
    ...headers,
  });
  res.end(text);
}

export function sendEmpty(res, status = 204) {
  res.writeHead(status, { 'Cache-Control': 'no-store' });
  res.end();
}

export function sendError(res, err) {
  const status = err.status || 500;
  const body = { error: { message: err.message || 'internal error' } };
  if (err.extra) Object.assign(body.error, err.extra);
  sendJson(res, status, body);
}

export function readBody(req, max = 20 * 1024 * 1024) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    let size = 0;
    req.on('data', (c) => {
      size += c.length;
      if (size > max) {
        reject(new HttpError(413, 'payload too large'));
        req.destroy();
        return;
      }
      chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/** JSON first; a form-encoded body is read as a flat dictionary of strings; empty means undefined. */
export function parseBody(text) {
  const t = text.trim();
  if (t === '') return undefined;
  try {
    return JSON.parse(t);
  } catch {
    if (/^[^{[\s"][^\s]*=/.test(t)) {
      const out = {};
      for (const [k, v] of new URLSearchParams(t)) out[k] = v;
      return out;
    }
    throw badRequest('request body is not valid JSON');
  }
}

const TRUE_WORDS = new Set(['1', 'true', 'yes', 'y', 't', 'on']);

/** Boolean query values: 1/true/yes (any case) are true; anything else is false. */
export function truthy(v) {
  if (v === undefined || v === null) return false;
  if (typeof v === 'boolean') return v;
  if (typeof v === 'number') return v !== 0;
  return TRUE_WORDS.has(String(v).trim().toLowerCase());
}

/** Integer query values; anything that is not an integer reads as unset. */
export function intParam(v) {
  if (v === undefined || v === null || v === '') return undefined;
  const n = Number(v);
  if (!Number.isFinite(n)) return undefined;
  return Math.trunc(n);
}

export function isPlainObject(v) {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

export function clone(v) {
  return v === undefined ? undefined : structuredClone(v);
}
