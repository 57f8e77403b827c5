import type { IncomingHttpHeaders } from 'node:http';
import { buildApiRequest } from '../../../reference-impl/http/request';
import type { ApiHandler, ApiRequest, ApiResponse } from '../../../reference-impl/http/types';

/** What a client puts on the wire, before the HTTP layer turns it into an ApiRequest. */
export interface WireRequest {
  method: string;
  /** Request target as sent: origin form (`/path?query`), absolute form or `*`. */
  target: string;
  headers: Record<string, string>;
  /** Raw body text; empty for none. */
  body: string;
}

/** The ApiRequest node:http + server.ts would hand to the handler for `wire` (header names lower-cased as node does). */
export function toApiRequest(wire: WireRequest): ApiRequest {
  const headers: IncomingHttpHeaders = {};
  for (const [name, value] of Object.entries(wire.headers)) headers[name.toLowerCase()] = value;
  return buildApiRequest(wire.method, wire.target, headers, wire.body);
}

export type Outcome = { ok: true; res: ApiResponse; ms: number; json: string | undefined } | { ok: false; error: unknown; ms: number };

/**
 * Calls the handler in-process and serialises the body as the HTTP layer would; a throw, a rejected promise or a
 * body that cannot be serialised (which the HTTP layer turns into a 500) is an `ok: false` outcome.
 */
export async function callHandler(handler: ApiHandler, req: ApiRequest): Promise<Outcome> {
  const started = performance.now();
  try {
    const res = await handler(req);
    const json = res.body === undefined ? undefined : JSON.stringify(res.body);
    return { ok: true, res, ms: performance.now() - started, json };
  } catch (error) {
    return { ok: false, error, ms: performance.now() - started };
  }
}

/** A GET as `headers` would send it, for fingerprints and look-ups. */
export function getRequest(target: string, headers: Record<string, string>): ApiRequest {
  return toApiRequest({ method: 'GET', target, headers, body: '' });
}

export function describeError(err: unknown): string {
  return err instanceof Error ? `${err.name}: ${err.message}` : String(err);
}
