import type { User } from './state.js';
import { bad, isObj, type Doc } from './lib.js';

export interface Ctx {
  method: string;
  q: URLSearchParams;
  body: unknown;
  hasBody: boolean;
  user: User;
}
export interface Res {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}
export const ok = (body: unknown, status = 200): Res => ({ status, body });
export const noContent = (): Res => ({ status: 204 });

export function objBody(ctx: Ctx, what = 'The request body'): Doc {
  if (!ctx.hasBody) throw bad(`${what} is required and must be a JSON object.`);
  if (!isObj(ctx.body)) throw bad(`${what} must be a JSON object.`);
  return ctx.body;
}
export function optObjBody(ctx: Ctx): Doc {
  if (!ctx.hasBody) return {};
  if (!isObj(ctx.body)) throw bad('The request body must be a JSON object.');
  return ctx.body;
}
