import type { ApiResponse, ErrorBody } from '../http/types';

/**
 * Every error code the stack API returns, with its status. The first six are the document's; the others are
 * transport-level refusals the document does not cover, kept here so no code is invented anywhere else.
 */
const STACK_ERRORS = {
  InvalidRequest: 400,
  Unauthorized: 401,
  Forbidden: 403,
  NotFound: 404,
  MaxStacksLimitReached: 409,
  InternalServerError: 500,
  MethodNotAllowed: 405,
  PayloadTooLarge: 413,
  UriTooLong: 414,
  RequestHeaderFieldsTooLarge: 431,
} as const;

export type StackErrorCode = keyof typeof STACK_ERRORS;

interface ServiceError {
  code: string;
  message: string;
}

export function serviceError(code: StackErrorCode, message: string, headers?: Record<string, string>): ApiResponse {
  const body: ServiceError = { code, message };
  return headers === undefined ? { status: STACK_ERRORS[code], body } : { status: STACK_ERRORS[code], body, headers };
}

function codeForStatus(status: number): StackErrorCode {
  for (const [code, s] of Object.entries(STACK_ERRORS)) if (s === status) return code as StackErrorCode;
  return status >= 500 ? 'InternalServerError' : 'InvalidRequest';
}

/** Errors raised by the shared HTTP layer (413, 414, 431, 500...) as ServiceError bodies. */
export const stacksErrorBody: ErrorBody = (status, message): ServiceError => ({ code: codeForStatus(status), message });
