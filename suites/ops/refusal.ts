import type { Spec } from '../core/spec';
import type { Exchange } from '../core/types';
import { isDoc } from '../core/json';

/** Keys of the error bodies servers of this API answer with ({message}, {error}, {messages: [...]}, {success: false, ...}). */
const ERROR_KEYS = new Set([
  'success',
  'ok',
  'error',
  'errors',
  'message',
  'messages',
  'status',
  'code',
  'error_code',
  'reason',
  'detail',
  'details',
  'type',
]);
const SAYS_WHY = ['error', 'errors', 'message', 'messages'];

/**
 * "HTTP status codes and the error body shape: not shown": the documented success of an operation is its answer, so
 * a 2xx that says it refused is a refusal. That is a body with `success: false` (no documented answer has a false
 * `success`), or one made only of error keys with a reason in it that the operation's success schema does not take.
 */
export function opsRefusedIn2xx(ex: Exchange, spec: Spec): boolean {
  const body = ex.json;
  if (!isDoc(body)) return false;
  if (body.success === false || body.ok === false) return true;
  const keys = Object.keys(body);
  if (!keys.length || !keys.every((k) => ERROR_KEYS.has(k)) || !SAYS_WHY.some((k) => k in body)) return false;
  const schema = ex.operationId ? spec.responseSchema(ex.operationId, ex.status) : undefined;
  return !schema || schema.validate(body).findings.length > 0;
}
