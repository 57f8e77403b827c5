import type { ApiResponse } from '../http/types';
import { NAMED_TYPES } from './by-name';
import type { Doc } from './config';
import type { OpsCtx } from './context';
import { badRequest } from './errors';
import { objectBody } from './input';
import { type TypeRules, createObject } from './objects';

export const COMMENT_TYPE = 'notable_event_comment';

/** The fields of a comment a client wrote; the rest are stamped by the server. */
const COMMENT_CONTENT = ['event_id', 'comment', 'is_group'] as const;

/** `ctx` with `body` as the parsed request body (already unwrapped and checked). */
function withBody(ctx: OpsCtx, body: Doc): OpsCtx {
  const req = { ...ctx.req, body };
  delete req.bodyError;
  return { ...ctx, req };
}

/**
 * POST with the `_key` of a stored comment. Comments are append-only, so it never replaces one: the same comment
 * sent again (a client retrying after a lost answer) answers the stored one, anything else is refused.
 */
function repeatedComment(ctx: OpsCtx, body: Doc): ApiResponse | undefined {
  if (typeof body._key !== 'string') return undefined;
  const stored = ctx.state.store.get(COMMENT_TYPE, body._key);
  if (stored === undefined) return undefined;
  const same = COMMENT_CONTENT.every((f) => body[f] === undefined || JSON.stringify(body[f]) === JSON.stringify(stored[f]));
  if (!same) return badRequest(`Episode comments are append-only: comment "${body._key.slice(0, 200)}" exists and cannot be changed`);
  return { status: 200, body: { _key: stored._key, comment_id: stored._key } };
}

/**
 * The answer to a create, in the product's shapes where the document leaves it open: a comment's key also as
 * `comment_id` (what the event-action SDK and the SOAR connector read), a named object's `name` beside its `_key`
 * (the Terraform provider reads a correlation search's key from `name`).
 */
function answer(ctx: OpsCtx, rules: TypeRules, res: ApiResponse): ApiResponse {
  if (res.status !== 200) return res;
  const key = (res.body as Doc)._key as string;
  if (rules.type === COMMENT_TYPE) return { status: 200, body: { _key: key, comment_id: key } };
  if (NAMED_TYPES.has(rules.type)) return { status: 200, body: { _key: key, name: ctx.state.store.get(rules.type, key)?.name } };
  return res;
}

/**
 * POST event_management_interface/<type>. A named object created with a `name` and no `_key` takes its name as
 * key, so `<type>/<name>` reads it back at once, as every client of correlation searches expects.
 */
export function createEventObject(ctx: OpsCtx, rules: TypeRules): ApiResponse {
  // Breaking an episode (the SOAR connector's "break episode") is not in the document. Served as a plain POST it
  // would replace the episode with the few fields sent, so it is refused and the episode left as it is.
  if (ctx.req.query.has('break_group_policy_id')) {
    return badRequest('break_group_policy_id (breaking an episode) is not supported: the episode is left unchanged');
  }
  const parsed = objectBody(ctx.req);
  if (!parsed.ok) return parsed.error;
  const body: Doc = { ...parsed.value };
  if (rules.type === COMMENT_TYPE) {
    const repeated = repeatedComment(ctx, body);
    if (repeated !== undefined) return repeated;
  }
  if (NAMED_TYPES.has(rules.type) && body._key === undefined && typeof body.name === 'string' && body.name.trim() !== '') {
    body._key = body.name;
  }
  return answer(ctx, rules, createObject(withBody(ctx, body), rules));
}
