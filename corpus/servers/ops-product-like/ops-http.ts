// Request context, errors, parameter parsing and answer rendering.

import type { IncomingMessage, ServerResponse } from 'node:http';
import { gzipSync } from 'node:zlib';
import type { Profile } from './ops-config.js';
import type { Store } from './ops-store.js';

export type Doc = Record<string, unknown>;

export interface User {
  name: string;
  password: string;
  write: boolean;
  /** Security groups (team keys) whose objects this user may read; '*' means all. */
  readGroups: '*' | ReadonlySet<string>;
}

export interface Ctx {
  method: string;
  segments: string[];
  query: URLSearchParams;
  user: User;
  profile: Profile;
  store: Store;
  rawBody: Buffer;
  bug(id: string): boolean;
}

export interface Reply {
  status: number;
  /** undefined: empty body. */
  body?: unknown;
}

/** Error kinds whose status depends on the variant. */
export type ErrorKind = 'fixed' | 'unknown-path' | 'method' | 'content-pack';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly kind: ErrorKind = 'fixed',
  ) {
    super(message);
  }
}

export const badRequest = (message: string) => new ApiError(400, message);
export const forbidden = (message: string) => new ApiError(403, message);
export const notFound = (message: string) => new ApiError(404, message);
export const conflict = (message: string) => new ApiError(409, message);
export const unknownPath = (message = 'The requested resource does not exist') => new ApiError(404, message, 'unknown-path');
export const methodNotAllowed = (method: string, message = `Method ${method} is not supported on this endpoint`) =>
  new ApiError(405, message, 'method');
export const contentPackError = (message: string) => new ApiError(500, message, 'content-pack');

export function statusFor(err: ApiError, p: Profile): number {
  switch (err.kind) {
    case 'unknown-path':
      return p.unknownPathStatus;
    case 'method':
      return p.methodNotAllowedStatus;
    case 'content-pack':
      return p.contentPackErrorStatus;
    default:
      return err.status;
  }
}

export function errorBody(status: number, message: string, p: Profile): Doc {
  if (p.errorShape === 'error') return { error: message };
  if (p.errorShape === 'legacy-message') return { message: `(${status}, '${message.replace(/'/g, "\\'")}')` };
  return { message };
}

// ---------- replies ----------

export const ok = (body: unknown): Reply => ({ status: 200, body });

export function created(ctx: Ctx, body: unknown): Reply {
  return { status: ctx.profile.createStatus, body };
}

export function deleted(ctx: Ctx): Reply {
  return ctx.profile.deleteStatus === 204 ? { status: 204 } : { status: 200, body: {} };
}

// ---------- body and parameters ----------

/** Parsed JSON body; undefined when the body is empty. */
export function jsonBody(ctx: Ctx): unknown {
  const text = ctx.rawBody.toString('utf8').trim();
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    throw badRequest('Invalid JSON in request body');
  }
}

export function isPlainObject(v: unknown): v is Doc {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function objectBody(ctx: Ctx, what = 'payload'): Doc {
  const body = jsonBody(ctx);
  if (!isPlainObject(body)) throw badRequest(`The ${what} must be a JSON object`);
  return body;
}

export function optionalObjectBody(ctx: Ctx): Doc {
  const body = jsonBody(ctx);
  if (body === undefined) return {};
  if (!isPlainObject(body)) throw badRequest('The payload must be a JSON object');
  return body;
}

/** A non-negative integer parameter; undefined when absent or empty. */
export function intParam(ctx: Ctx, name: string): number | undefined {
  const raw = ctx.query.get(name);
  if (raw === null || raw.trim() === '') return undefined;
  if (!/^\s*\d+\s*$/.test(raw)) throw badRequest(`Parameter ${name} must be a non-negative integer, got "${raw}"`);
  return Number(raw);
}

export function boolValue(raw: unknown, name: string, dflt: boolean): boolean {
  if (raw === undefined || raw === null || raw === '') return dflt;
  if (raw === true || raw === 1) return true;
  if (raw === false || raw === 0) return false;
  const s = String(raw).trim().toLowerCase();
  if (s === '1' || s === 'true') return true;
  if (s === '0' || s === 'false') return false;
  throw badRequest(`Parameter ${name} must be Boolean (1 or 0), got "${String(raw)}"`);
}

export function boolParam(ctx: Ctx, name: string, dflt: boolean): boolean {
  return boolValue(ctx.query.get(name) ?? undefined, name, dflt);
}

export function requireWrite(ctx: Ctx): void {
  if (!ctx.user.write) throw forbidden(`User ${ctx.user.name} does not have the capability to write this object`);
}

// ---------- rendering ----------

/** JSON text the way a Python json.dumps would write it (default separators, ensure_ascii). */
function pythonJson(v: unknown): string {
  if (v === null || v === undefined || typeof v === 'function') return 'null';
  if (Array.isArray(v)) return '[' + v.map((x) => pythonJson(x)).join(', ') + ']';
  if (typeof v === 'object') {
    const parts: string[] = [];
    for (const [k, x] of Object.entries(v as Doc)) {
      if (x === undefined) continue;
      parts.push(asciiString(k) + ': ' + pythonJson(x));
    }
    return '{' + parts.join(', ') + '}';
  }
  if (typeof v === 'string') return asciiString(v);
  if (typeof v === 'number') return Number.isFinite(v) ? String(v) : 'null';
  return JSON.stringify(v);
}

function asciiString(s: string): string {
  return JSON.stringify(s).replace(/[\u007f-\uffff]/g, (c) => '\\u' + c.charCodeAt(0).toString(16).padStart(4, '0'));
}

export function render(req: IncomingMessage, res: ServerResponse, p: Profile, reply: Reply, padded = p.pad): void {
  if (reply.body === undefined) {
    res.writeHead(reply.status, { 'Content-Length': '0' });
    res.end();
    return;
  }
  const json = p.pythonJson ? pythonJson(reply.body) : JSON.stringify(reply.body);
  let payload = Buffer.from((padded ? ' '.repeat(256) + '\n' : '') + json, 'utf8');
  const headers: Record<string, string> = { 'Content-Type': 'application/json; charset=UTF-8' };
  const accepts = String(req.headers['accept-encoding'] ?? '');
  if (p.gzip && payload.length >= 1024 && /\bgzip\b/.test(accepts)) {
    payload = gzipSync(payload);
    headers['Content-Encoding'] = 'gzip';
    headers['Vary'] = 'Accept-Encoding';
  }
  headers['Content-Length'] = String(payload.length);
  res.writeHead(reply.status, headers);
  res.end(payload);
}

/** Runs the handler registered for the request method, or answers 405. */
export function byMethod(ctx: Ctx, handlers: Partial<Record<string, () => Reply>>): Reply {
  const h = handlers[ctx.method];
  if (!h) throw methodNotAllowed(ctx.method);
  return h();
}
