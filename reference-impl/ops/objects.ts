import type { ApiResponse } from '../http/types';
import { canRead } from './access';
import { isoWithOffset, newKey, spacedTimeMicros } from './clock';
import type { Doc } from './config';
import { nextWriteMicros, type OpsCtx } from './context';
import { badRequest, forbidden, notFound } from './errors';
import { arrayBody, boolParam, isPlainObject, objectBody } from './input';
import { type ListParamNames, type RowSource, SHARED_LIST_PARAMS, countCollection, listCollection, projectAsAsked } from './query';

/**
 * How the server stamps an object type: `core` objects get the common fields, entities also the create/mod
 * audit fields, event-management objects epoch-second create/mod times as real episodes and comments carry.
 */
type Flavor = 'core' | 'entity' | 'event';

export interface TypeRules {
  /** object_type, also the store collection. */
  type: string;
  /** Fields a create or full replace must carry. */
  required: readonly string[];
  flavor: Flavor;
  /** Checks and completes an object about to be written; a string is the 400 message. */
  prepare?(doc: Doc, previous: Doc | undefined, ctx: OpsCtx): string | undefined;
  /** Why this object may not be deleted, when it may not. */
  undeletable?(doc: Doc, ctx: OpsCtx): string | undefined;
  /** An update of a key that does not exist yet creates the object under that key (maintenance windows). */
  upsert?: boolean;
}

const MAX_KEY_LENGTH = 1024;

/** `{...a, ...b}` defines own properties, so a `__proto__` member of a body stays plain data. */
function merge(a: Doc, b: Doc): Doc {
  return { ...a, ...b };
}

function checkKey(key: unknown): string | undefined {
  if (typeof key !== 'string' || key === '') return '_key must be a non-empty string';
  if (key.length > MAX_KEY_LENGTH) return `_key must be at most ${MAX_KEY_LENGTH} characters`;
  return undefined;
}

function checkRequired(rules: TypeRules, doc: Doc): string | undefined {
  for (const field of rules.required) {
    if (doc[field] === undefined || doc[field] === null) return `${field} is required for ${rules.type}`;
  }
  if (doc.title !== undefined && typeof doc.title !== 'string') return 'title must be a string';
  return undefined;
}

/** The server-written fields, over `doc` (the new content) and `previous` (the stored object, on updates). */
function stamp(ctx: OpsCtx, rules: TypeRules, doc: Doc, previous: Doc | undefined): Doc {
  const { config } = ctx.state;
  const micros = nextWriteMicros(ctx.state);
  const out: Doc = merge(doc, {
    object_type: rules.type,
    _user: 'nobody',
    _owner: typeof doc._owner === 'string' ? doc._owner : (previous?._owner ?? 'nobody'),
    mod_source: 'REST',
    mod_timestamp: isoWithOffset(micros),
    _version: config.schemaVersion,
    sec_grp:
      typeof doc.sec_grp === 'string' && doc.sec_grp !== ''
        ? doc.sec_grp
        : typeof previous?.sec_grp === 'string'
          ? previous.sec_grp
          : config.defaultSecurityGroup,
  });
  if (typeof out.title === 'string') out.identifying_name = out.title.toLowerCase();
  if (rules.flavor === 'entity') {
    out._type = 'entity';
    out.create_time = previous?.create_time ?? isoWithOffset(micros);
    out.create_by = previous?.create_by ?? ctx.user.name;
    out.create_source = previous?.create_source ?? 'REST';
    out.mod_time = spacedTimeMicros(micros);
    out.mod_by = ctx.user.name;
  } else if (rules.flavor === 'event') {
    const seconds = micros / 1_000_000;
    out.create_time = previous?.create_time ?? seconds;
    out.mod_time = seconds;
  }
  return out;
}

/** Completes and checks one object without storing it; a string is the 400 message. */
export function buildObject(ctx: OpsCtx, rules: TypeRules, content: Doc, previous: Doc | undefined): string | Doc {
  const missing = checkRequired(rules, content);
  if (missing !== undefined) return missing;
  const doc = stamp(ctx, rules, content, previous);
  const problem = rules.prepare?.(doc, previous, ctx);
  return problem ?? doc;
}

/** Completes, checks and stores one object; a string is the 400 message. */
export function writeObject(ctx: OpsCtx, rules: TypeRules, content: Doc, previous: Doc | undefined): string | Doc {
  const doc = buildObject(ctx, rules, content, previous);
  if (typeof doc !== 'string') ctx.state.store.put(rules.type, doc);
  return doc;
}

/** The objects of a type the caller can read. */
export function readableObjects(ctx: OpsCtx, type: string): Doc[] {
  const { store, config } = ctx.state;
  return store.all(type).filter((d) => canRead(ctx.user, d, config.defaultSecurityGroup));
}

/** The stored objects of a type as the caller sees them, for the indexed list and count. */
function readableSource(ctx: OpsCtx, type: string): RowSource {
  const { store, config } = ctx.state;
  const { user } = ctx;
  if (user.readGroups === undefined) return { store, collection: type };
  return { store, collection: type, visible: (d) => canRead(user, d, config.defaultSecurityGroup) };
}

/** One object the caller can read, or undefined (unknown and unreadable look the same). */
export function readableObject(ctx: OpsCtx, type: string, key: string): Doc | undefined {
  const doc = ctx.state.store.get(type, key);
  return doc !== undefined && canRead(ctx.user, doc, ctx.state.config.defaultSecurityGroup) ? doc : undefined;
}

export function noSuchObject(type: string, key: string): ApiResponse {
  return notFound(`No ${type} object with _key "${key}"`);
}

export function listObjects(ctx: OpsCtx, rules: TypeRules, names: ListParamNames = SHARED_LIST_PARAMS): ApiResponse {
  const listed = listCollection(readableSource(ctx, rules.type), ctx.req.query, ctx.state.filters, { names });
  if (!listed.ok) return listed.error;
  return { status: 200, body: listed.value.rows };
}

export function countObjects(ctx: OpsCtx, rules: TypeRules, filterName = 'filter'): ApiResponse {
  const count = countCollection(readableSource(ctx, rules.type), ctx.req.query, ctx.state.filters, filterName);
  return count.ok ? { status: 200, body: { count: count.value } } : count.error;
}

export function readObject(ctx: OpsCtx, rules: TypeRules, key: string): ApiResponse {
  const doc = readableObject(ctx, rules.type, key);
  return doc === undefined ? noSuchObject(rules.type, key) : { status: 200, body: projectAsAsked(doc, ctx.req.query) };
}

/** POST <type>: creates, or replaces the object whose `_key` the body carries. */
export function createObject(ctx: OpsCtx, rules: TypeRules): ApiResponse {
  const body = objectBody(ctx.req);
  if (!body.ok) return body.error;
  const content = merge(body.value, {});
  let previous: Doc | undefined;
  if (content._key === undefined) {
    content._key = newKey();
  } else {
    const bad = checkKey(content._key);
    if (bad !== undefined) return badRequest(bad);
    previous = ctx.state.store.get(rules.type, content._key as string);
    if (previous !== undefined && readableObject(ctx, rules.type, content._key as string) === undefined) {
      return forbidden(`Cannot write ${rules.type} "${content._key as string}"`);
    }
  }
  const written = writeObject(ctx, rules, content, previous);
  if (typeof written === 'string') return badRequest(written);
  return { status: 200, body: { _key: written._key } };
}

/** The new content of an update: a shallow merge for partial data, else the body itself. */
function updatedContent(key: string, body: Doc, previous: Doc, partial: boolean): Doc {
  const base = partial ? merge(previous, body) : merge(body, {});
  base._key = key;
  return base;
}

/** POST (or PUT) <type>/<key> with is_partial_data. */
export function updateObject(ctx: OpsCtx, rules: TypeRules, key: string): ApiResponse {
  const partial = boolParam(ctx.req.query, 'is_partial_data');
  if (!partial.ok) return partial.error;
  const body = objectBody(ctx.req);
  if (!body.ok) return body.error;
  const previous = readableObject(ctx, rules.type, key);
  if (previous === undefined) return rules.upsert ? createAtKey(ctx, rules, key, body.value) : noSuchObject(rules.type, key);
  const written = writeObject(ctx, rules, updatedContent(key, body.value, previous, partial.value), previous);
  if (typeof written === 'string') return badRequest(written);
  return { status: 200, body: { _key: key } };
}

/**
 * An update of a key that does not exist yet, on a type that upserts: the object is created under that key (as
 * POST <type> does with a new `_key`), so it needs the whole object whatever is_partial_data says.
 */
function createAtKey(ctx: OpsCtx, rules: TypeRules, key: string, body: Doc): ApiResponse {
  const bad = checkKey(key);
  if (bad !== undefined) return badRequest(bad);
  if (ctx.state.store.has(rules.type, key)) return forbidden(`Cannot write ${rules.type} "${key}"`);
  const written = writeObject(ctx, rules, merge(body, { _key: key }), undefined);
  if (typeof written === 'string') return badRequest(written);
  return { status: 200, body: { _key: key } };
}

/** POST <type>/bulk_update: every entry is checked before any is written. */
export function bulkUpdate(ctx: OpsCtx, rules: TypeRules): ApiResponse {
  const partial = boolParam(ctx.req.query, 'is_partial_data');
  if (!partial.ok) return partial.error;
  const body = arrayBody(ctx.req);
  if (!body.ok) return body.error;
  const planned: Doc[] = [];
  const seen = new Set<string>();
  for (const [i, entry] of body.value.entries()) {
    if (!isPlainObject(entry)) return badRequest(`Entry ${i} of bulk_update must be an object`);
    const bad = checkKey(entry._key);
    if (bad !== undefined) return badRequest(`Entry ${i} of bulk_update: ${bad}`);
    const key = entry._key as string;
    if (seen.has(key)) return badRequest(`Entry ${i} of bulk_update repeats _key "${key}"`);
    seen.add(key);
    const stored = ctx.state.store.get(rules.type, key);
    const previous = readableObject(ctx, rules.type, key);
    if (stored !== undefined && previous === undefined) return forbidden(`Cannot write ${rules.type} "${key}"`);
    // A key that does not exist yet is created, which needs the whole object whatever is_partial_data says.
    const content = previous === undefined ? merge(entry, {}) : updatedContent(key, entry, previous, partial.value);
    const built = buildObject(ctx, rules, content, previous);
    if (typeof built === 'string') return badRequest(`Entry ${i} of bulk_update: ${built}`);
    planned.push(built);
  }
  for (const doc of planned) ctx.state.store.put(rules.type, doc);
  return { status: 200, body: { _key: planned.map((d) => d._key) } };
}

export function deleteObject(ctx: OpsCtx, rules: TypeRules, key: string): ApiResponse {
  const doc = readableObject(ctx, rules.type, key);
  if (doc === undefined) return noSuchObject(rules.type, key);
  const refusal = rules.undeletable?.(doc, ctx);
  if (refusal !== undefined) return badRequest(refusal);
  ctx.state.store.delete(rules.type, key);
  return { status: 204 };
}

/** DELETE <type>: the rows the shared parameters select (all readable rows for no or an incorrect filter). */
export function deleteObjects(ctx: OpsCtx, rules: TypeRules, names: ListParamNames = SHARED_LIST_PARAMS): ApiResponse {
  const listed = listCollection(readableSource(ctx, rules.type), ctx.req.query, ctx.state.filters, {
    names,
    skipProjection: true,
  });
  if (!listed.ok) return listed.error;
  for (const doc of listed.value.rows) {
    if (rules.undeletable?.(doc, ctx) !== undefined) continue;
    ctx.state.store.delete(rules.type, doc._key as string);
  }
  return { status: 204 };
}
