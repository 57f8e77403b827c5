import type { ApiRequest } from '../http/types';
import type { Doc } from './config';
import { badRequest } from './errors';
import { aliasedParam } from './param-aliases';
import type { Checked } from './query';
export { isPlainObject } from '../http/json';
import { isPlainObject } from '../http/json';

/**
 * How deep a body may nest: the key-value store behind the API refuses documents nested deeper than 100 levels,
 * and deeper values overflow the stack of structuredClone and JSON.stringify (about 3,000 levels on node's
 * default stack), so they are refused before anything copies or stores them.
 */
const MAX_BODY_DEPTH = 100;

/** True when `value` nests objects or arrays more than `max` levels deep; iterative, so any depth is safe to measure. */
function nestsDeeperThan(value: unknown, max: number): boolean {
  const pending: [unknown, number][] = [[value, 1]];
  while (pending.length > 0) {
    const [v, depth] = pending.pop()!;
    if (typeof v !== 'object' || v === null) continue;
    if (depth > max) return true;
    for (const child of Array.isArray(v) ? v : Object.values(v)) {
      if (typeof child === 'object' && child !== null) pending.push([child, depth + 1]);
    }
  }
  return false;
}

/** The parsed JSON body, or a 400 when it is missing, malformed or nested too deeply. */
export function parsedBody(req: ApiRequest): Checked<unknown> {
  if (req.bodyError !== undefined) return { ok: false, error: badRequest(`Malformed JSON body: ${req.bodyError}`) };
  if (req.body === undefined) return { ok: false, error: badRequest('A JSON body is required') };
  if (nestsDeeperThan(req.body, MAX_BODY_DEPTH)) {
    return { ok: false, error: badRequest(`The JSON body nests deeper than ${MAX_BODY_DEPTH} levels`) };
  }
  return { ok: true, value: req.body };
}

const FORM_CONTENT_TYPE = /^\s*application\/x-www-form-urlencoded\s*(;|$)/i;

/**
 * A form-encoded body (`data=<json>`, as platform clients send it) as the JSON body it carries: taken when the body is
 * not JSON and is declared form-encoded (or starts with `data=`). The other form fields join the query parameters,
 * which win when both name one. A JSON body is kept whatever the content type says.
 */
export function withFormBody(req: ApiRequest): ApiRequest {
  if (req.bodyError === undefined) return req;
  const declared = req.headers['content-type'];
  const contentType = Array.isArray(declared) ? declared.join(',') : String(declared ?? '');
  if (!FORM_CONTENT_TYPE.test(contentType) && !/^\s*data=/.test(req.rawBody)) return req;
  const form = new URLSearchParams(req.rawBody.trim());
  const data = form.getAll('data');
  if (data.length !== 1) {
    const bodyError =
      data.length === 0
        ? 'a form-encoded body needs a data field holding the JSON document'
        : 'the form field data is given more than once';
    return { ...req, body: undefined, bodyError };
  }
  const query = new URLSearchParams(req.query);
  for (const [name, value] of form) if (name !== 'data' && !query.has(name)) query.append(name, value);
  const out: ApiRequest = { ...req, query, body: undefined, bodyError: undefined };
  delete out.bodyError;
  const text = data[0]!;
  if (text.trim() === '') return out;
  try {
    out.body = JSON.parse(text);
  } catch (err) {
    out.bodyError = `the form field data is not JSON (${err instanceof Error ? err.message : String(err)})`;
  }
  return out;
}

/** `{"data": X}` as some clients wrap a document: X when it is what `accept` wants, else the body as sent. */
export function unwrapData(body: unknown, accept: (inner: unknown) => boolean): unknown {
  if (isPlainObject(body) && Object.keys(body).length === 1 && Object.hasOwn(body, 'data') && accept(body.data)) return body.data;
  return body;
}

/** The body as a JSON object (`{"data": {...}}` unwrapped), or a 400. */
export function objectBody(req: ApiRequest): Checked<Doc> {
  const body = parsedBody(req);
  if (!body.ok) return body;
  const value = unwrapData(body.value, isPlainObject);
  if (!isPlainObject(value)) return { ok: false, error: badRequest('The body must be a JSON object') };
  return { ok: true, value };
}

/** The body as a JSON object; an empty body counts as `{}`. */
export function optionalObjectBody(req: ApiRequest): Checked<Doc> {
  if (req.bodyError === undefined && req.body === undefined) return { ok: true, value: {} };
  return objectBody(req);
}

/** The body as a JSON array (`{"data": [...]}` unwrapped), or a 400. */
export function arrayBody(req: ApiRequest): Checked<unknown[]> {
  const body = parsedBody(req);
  if (!body.ok) return body;
  const value = unwrapData(body.value, Array.isArray);
  if (!Array.isArray(value)) return { ok: false, error: badRequest('The body must be a JSON array') };
  return { ok: true, value };
}

/** A Boolean given as 1/0 (or true/false), under any of its names; absent or empty is `fallback`. */
export function boolParam(query: URLSearchParams, name: string, fallback = false): Checked<boolean> {
  const given = aliasedParam(query, name);
  if (!given.ok) return given;
  const raw = given.value;
  if (raw === null || raw.trim() === '') return { ok: true, value: fallback };
  const v = raw.trim().toLowerCase();
  if (v === '1' || v === 'true') return { ok: true, value: true };
  if (v === '0' || v === 'false') return { ok: true, value: false };
  return { ok: false, error: badRequest(`${name} must be 1 or 0, got "${raw.slice(0, 100)}"`) };
}

/** A Boolean body member given as true/false or 1/0 (numbers or strings); undefined when absent. */
export function boolMember(body: Doc, name: string): Checked<boolean | undefined> {
  const v = body[name];
  if (v === undefined || v === null) return { ok: true, value: undefined };
  if (v === true || v === 1 || v === '1' || v === 'true') return { ok: true, value: true };
  if (v === false || v === 0 || v === '0' || v === 'false') return { ok: true, value: false };
  return { ok: false, error: badRequest(`${name} must be a Boolean (true/false or 1/0)`) };
}

export function isStringArray(v: unknown): v is string[] {
  return Array.isArray(v) && v.every((x) => typeof x === 'string');
}
