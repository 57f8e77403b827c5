import type { ApiResponse } from '../http/types';
import { keyForSegment } from './by-name';
import type { Doc } from './config';
import type { OpsCtx } from './context';
import { badRequest, forbidden } from './errors';
import { boolParam, isPlainObject, parsedBody, unwrapData } from './input';
import { type TypeRules, buildObject, noSuchObject, readableObject } from './objects';

/** The entries of a collection PUT: one object or an array of them, either of them wrapped in `{"data": ...}`. */
function entriesOf(ctx: OpsCtx): Doc[] | ApiResponse {
  const body = parsedBody(ctx.req);
  if (!body.ok) return body.error;
  const value = unwrapData(body.value, (inner) => isPlainObject(inner) || Array.isArray(inner));
  const entries = Array.isArray(value) ? value : [value];
  if (entries.length === 0) return badRequest('The body must hold at least one object with a _key');
  for (const [i, e] of entries.entries()) {
    if (!isPlainObject(e)) return badRequest(`Entry ${i} must be an object with a _key`);
  }
  return entries as Doc[];
}

/**
 * `is_partial_data` on a collection PUT. The document shows no method but GET on these paths; this one merges each
 * entry into the stored object (the event-action SDK sends only the fields it changes, `drilldown` with the
 * episode's `_key`), so a client asking for a whole replacement is refused rather than given a merge.
 */
function mergeAsked(ctx: OpsCtx): ApiResponse | undefined {
  const partial = boolParam(ctx.req.query, 'is_partial_data', true);
  if (!partial.ok) return partial.error;
  if (partial.value) return undefined;
  return badRequest('PUT on a collection merges each entry into its object; send a whole replacement to <object_type>/<_key>');
}

/**
 * PUT event_management_interface/<type>: merges each entry into the object its `_key` names and answers the keys
 * updated, in order (the product's answer, as the SDK's own fixtures show it). Every entry is checked before any is
 * written, so a bad entry changes nothing.
 */
export function putCollection(ctx: OpsCtx, rules: TypeRules): ApiResponse {
  const refused = mergeAsked(ctx);
  if (refused !== undefined) return refused;
  const entries = entriesOf(ctx);
  if (!Array.isArray(entries)) return entries;
  const planned: Doc[] = [];
  for (const [i, entry] of entries.entries()) {
    if (typeof entry._key !== 'string' || entry._key === '') return badRequest(`Entry ${i} needs the _key of the object to update`);
    const key = keyForSegment(ctx, rules.type, entry._key);
    const previous = readableObject(ctx, rules.type, key);
    if (previous === undefined) {
      if (ctx.state.store.has(rules.type, key)) return forbidden(`Cannot write ${rules.type} "${key}"`);
      return noSuchObject(rules.type, key);
    }
    if (planned.some((d) => d._key === key)) return badRequest(`Entry ${i} repeats _key "${key}"`);
    const built = buildObject(ctx, rules, { ...previous, ...entry, _key: key }, previous);
    if (typeof built === 'string') return badRequest(`Entry ${i}: ${built}`);
    planned.push(built);
  }
  for (const doc of planned) ctx.state.store.put(rules.type, doc);
  return { status: 200, body: planned.map((d) => d._key) };
}
