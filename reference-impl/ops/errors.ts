import type { ApiResponse, ErrorBody } from '../http/types';

/**
 * Every error status the ops API answers. The document shows none of them; real deployments answer
 * `{"message": "..."}`, except 401, which the platform layer answers before the API sees the call.
 */
const OPS_ERRORS = {
  BadRequest: 400,
  Unauthenticated: 401,
  Forbidden: 403,
  NotFound: 404,
  MethodNotAllowed: 405,
  PayloadTooLarge: 413,
  UriTooLong: 414,
  RequestHeaderFieldsTooLarge: 431,
  InternalServerError: 500,
} as const;

type OpsErrorKind = keyof typeof OPS_ERRORS;

const PLATFORM_401_TEXT = 'call not properly authenticated';

function platformUnauthenticatedBody(): unknown {
  return { messages: [{ type: 'WARN', text: PLATFORM_401_TEXT }] };
}

function opsError(kind: OpsErrorKind, message: string, headers?: Record<string, string>): ApiResponse {
  const status = OPS_ERRORS[kind];
  const body = status === 401 ? platformUnauthenticatedBody() : { message };
  return headers === undefined ? { status, body } : { status, body, headers };
}

export const badRequest = (message: string): ApiResponse => opsError('BadRequest', message);
export const notFound = (message: string): ApiResponse => opsError('NotFound', message);
export const forbidden = (message: string): ApiResponse => opsError('Forbidden', message);

export function unauthenticated(): ApiResponse {
  return opsError('Unauthenticated', PLATFORM_401_TEXT, { 'www-authenticate': 'Basic realm="platform"' });
}

export function methodNotAllowed(allowed: readonly string[], what: string): ApiResponse {
  return opsError('MethodNotAllowed', `Method not allowed on ${what}`, { allow: allowed.join(', ') });
}

/** Errors raised by the shared HTTP layer (413, 414, 431, 500...) in this API's shapes. */
export const opsErrorBody: ErrorBody = (status, message) => (status === 401 ? platformUnauthenticatedBody() : { message });
