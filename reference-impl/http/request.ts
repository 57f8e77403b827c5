import type { IncomingHttpHeaders } from 'node:http';
import type { ApiRequest } from './types';

function splitTarget(target: string): { path: string; query: string } {
  let rest = target;
  if (!rest.startsWith('/') && rest !== '*') {
    // Absolute-form request targets (RFC 9112 §3.2.2) are legal, if rare outside proxies.
    try {
      const url = new URL(rest);
      rest = url.pathname + url.search;
    } catch {
      return { path: rest, query: '' };
    }
  }
  const hash = rest.indexOf('#');
  if (hash !== -1) rest = rest.slice(0, hash);
  const q = rest.indexOf('?');
  return q === -1 ? { path: rest, query: '' } : { path: rest.slice(0, q), query: rest.slice(q + 1) };
}

/** The ApiRequest for a request target, headers and raw body: one place, so in-process callers see what sockets see. */
export function buildApiRequest(method: string, target: string, headers: IncomingHttpHeaders, rawBody: string): ApiRequest {
  const { path, query } = splitTarget(target);
  let body: unknown;
  let bodyError: string | undefined;
  if (rawBody.length > 0) {
    try {
      body = JSON.parse(rawBody);
    } catch (err) {
      bodyError = err instanceof Error ? err.message : String(err);
    }
  }
  const parsed: ApiRequest = { method, path, query: new URLSearchParams(query), headers, rawBody, body };
  if (bodyError !== undefined) parsed.bodyError = bodyError;
  return parsed;
}
