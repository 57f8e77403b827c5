// Method dispatch with the read-only check placed after route resolution.
import { methodNotAllowed, forbidden, bad, isObj } from './util.mjs';

export function route(ctx, map) {
  const m = ctx.method === 'HEAD' ? 'GET' : ctx.method;
  const fn = map[m];
  if (!fn) throw methodNotAllowed(Object.keys(map));
  if (m !== 'GET' && ctx.user.readOnly) {
    throw forbidden('Forbidden: this user has read-only access and cannot modify objects');
  }
  return fn();
}

export const J = (v, status = 200) => ({ status, json: v });
export const EMPTY = { status: 200, empty: true };

// Parameters that may be given in the query string or in a JSON body object.
export function bodyObjectOrEmpty(ctx, what = 'payload') {
  const b = ctx.body();
  if (b === undefined) return {};
  if (!isObj(b)) throw bad(`The ${what} must be a JSON object`);
  return b;
}
