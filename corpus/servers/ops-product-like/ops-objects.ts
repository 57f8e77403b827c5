// Generic kv-store object endpoints shared by the core, maintenance and backup interfaces:
// list, create (or update when the _key exists), get, update (partial or full), bulk_update,
// delete by key, delete by filter, count.

import {
  badRequest,
  boolParam,
  conflict,
  created,
  deleted,
  isPlainObject,
  jsonBody,
  notFound,
  objectBody,
  ok,
  requireWrite,
  type Ctx,
  type Doc,
  type Reply,
} from './ops-http.js';
import {
  applyFilter,
  canRead,
  clone,
  DEFAULT_GROUP,
  isoTimestamp,
  orderAndPage,
  parseListParams,
  project,
  SCHEMA_VERSION,
  type Collection,
  type Rec,
} from './ops-store.js';

export type WriteMode = 'create' | 'full' | 'partial';

export interface KindSpec {
  type: string;
  coll: string;
  /** Fields the schema requires on create and on a full update. */
  required: string[];
  /** Server-managed fields carried over from the stored version on a full update. */
  preserved?: string[];
  /** Validates and adds the server-managed fields of the type. `meta` is mutable bookkeeping. */
  prepare?(ctx: Ctx, doc: Doc, prev: Doc | undefined, meta: Doc, mode: WriteMode, body: Doc): void;
  /** Per-caller fields added to every answer (permissions, can_edit, ...). */
  present?(ctx: Ctx, doc: Doc): Doc;
  afterWrite?(ctx: Ctx, keys: string[]): void;
  afterDelete?(ctx: Ctx, docs: Doc[]): void;
  /** Message when the object must not be deleted. */
  undeletable?(doc: Doc): string | undefined;
  /** Defect ids that make this type's count or list ignore read access. */
  countAccessBug?: string;
  listAccessBug?: string;
  bulkUndeletableBug?: string;
  singleUndeletableBug?: string;
}

function collOf(ctx: Ctx, spec: KindSpec): Collection {
  return ctx.store.coll(spec.coll);
}

export function presentDoc(ctx: Ctx, spec: KindSpec, doc: Doc): Doc {
  const copy = clone(doc);
  return spec.present ? spec.present(ctx, copy) : copy;
}

function readable(ctx: Ctx, recs: Rec[], bypassBug?: string): Rec[] {
  if (bypassBug && ctx.bug(bypassBug)) return recs;
  return recs.filter((r) => canRead(ctx.user, r.doc));
}

/** Stored record visible to the caller, or 404. */
export function findReadable(ctx: Ctx, spec: KindSpec, key: string): Rec {
  const rec = collOf(ctx, spec).get(key);
  if (!rec || (!canRead(ctx.user, rec.doc) && !ctx.bug('get-ignores-access'))) {
    throw notFound(`Object of type ${spec.type} with _key "${key}" does not exist`);
  }
  return rec;
}

// ---------- building documents ----------

function checkTitle(doc: Doc): void {
  if ('title' in doc && (typeof doc.title !== 'string' || doc.title.trim() === '')) {
    throw badRequest('Field "title" must be a non-empty string');
  }
}

function checkRequired(spec: KindSpec, doc: Doc): void {
  for (const f of spec.required) {
    if (doc[f] === undefined || doc[f] === null || doc[f] === '') throw badRequest(`Missing required field "${f}" for ${spec.type}`);
  }
}

function stampCommon(ctx: Ctx, spec: KindSpec, doc: Doc, key: string, prev: Doc | undefined): void {
  doc._key = key;
  doc.object_type = spec.type;
  doc._version = SCHEMA_VERSION;
  doc._user = 'nobody';
  doc._owner = typeof prev?._owner === 'string' ? prev._owner : 'nobody';
  doc.mod_source = 'REST';
  doc.mod_timestamp = isoTimestamp();
  if (typeof doc.title === 'string') doc.identifying_name = ctx.bug('identifying-name-raw') ? doc.title : doc.title.toLowerCase();
  if (typeof doc.sec_grp !== 'string' || doc.sec_grp === '') {
    doc.sec_grp = typeof prev?.sec_grp === 'string' ? prev.sec_grp : DEFAULT_GROUP;
  }
}

export interface Built {
  doc: Doc;
  meta: Doc;
}

/**
 * The document that a write would store. `mode` decides how the payload combines with the
 * stored version; `checkRequired` is false only for defect paths.
 */
export function buildWrite(
  ctx: Ctx,
  spec: KindSpec,
  key: string,
  body: Doc,
  prevRec: Rec | undefined,
  mode: WriteMode,
  enforceRequired = true,
): Built {
  const prev = prevRec?.doc;
  let doc: Doc;
  let required = enforceRequired;
  if (mode === 'partial') {
    if (ctx.bug('partial-update-replaces')) {
      doc = clone(body);
      required = false;
    } else doc = { ...clone(prev ?? {}), ...clone(body) };
  } else if (mode === 'full' && ctx.bug('full-update-merges')) {
    doc = { ...clone(prev ?? {}), ...clone(body) };
  } else {
    doc = clone(body);
    for (const f of spec.preserved ?? []) if (prev && prev[f] !== undefined && doc[f] === undefined) doc[f] = clone(prev[f]);
  }
  if (mode === 'full' && ctx.bug('full-update-no-title')) required = false;
  checkTitle(doc);
  if (required && (mode !== 'partial' || !prev)) checkRequired(spec, doc);
  delete doc.permissions;
  const meta = clone(prevRec?.meta ?? {});
  stampCommon(ctx, spec, doc, key, prev);
  spec.prepare?.(ctx, doc, prev, meta, prev ? mode : 'create', body);
  return { doc, meta };
}

function keyOf(body: Doc): string | undefined {
  if (body._key === undefined || body._key === null || body._key === '') return undefined;
  if (typeof body._key !== 'string') throw badRequest('Field "_key" must be a string');
  if (/[/\\\s]/.test(body._key)) throw badRequest(`Invalid _key "${body._key}"`);
  return body._key;
}

// ---------- endpoints ----------

export function listObjects(ctx: Ctx, spec: KindSpec): Reply {
  const p = parseListParams(ctx);
  let recs = readable(ctx, collOf(ctx, spec).all(), spec.listAccessBug ?? 'list-ignores-access');
  if (p.filter === null && ctx.bug('get-bad-filter-empty')) recs = [];
  recs = applyFilter(recs, p.filter);
  return ok(orderAndPage(ctx, recs, p).map((r) => project(presentDoc(ctx, spec, r.doc), p.fields, ctx)));
}

export function countObjects(ctx: Ctx, spec: KindSpec): Reply {
  const p = parseListParams(ctx);
  let recs = readable(ctx, collOf(ctx, spec).all(), spec.countAccessBug ?? 'count-ignores-access');
  if (!ctx.bug('count-ignores-filter')) recs = applyFilter(recs, p.filter);
  return ok({ count: recs.length });
}

export function getObject(ctx: Ctx, spec: KindSpec, key: string): Reply {
  return ok(presentDoc(ctx, spec, findReadable(ctx, spec, key).doc));
}

function keyAnswer(ctx: Ctx, key: string): Doc {
  return ctx.bug('create-no-key') ? {} : { _key: key };
}

export function createObject(ctx: Ctx, spec: KindSpec, body: Doc = objectBody(ctx)): Reply {
  requireWrite(ctx);
  const coll = collOf(ctx, spec);
  const given = keyOf(body);
  if (given && coll.has(given)) {
    if (!ctx.profile.upsertOnCreate) throw conflict(`An object of type ${spec.type} with _key "${given}" already exists`);
    const rec = findReadable(ctx, spec, given);
    commit(ctx, spec, [buildWrite(ctx, spec, given, body, rec, 'full')]);
    return ok(keyAnswer(ctx, given));
  }
  const key = given ?? ctx.store.newKey();
  commit(ctx, spec, [buildWrite(ctx, spec, key, body, undefined, 'create')]);
  return created(ctx, keyAnswer(ctx, key));
}

export function updateObject(ctx: Ctx, spec: KindSpec, key: string): Reply {
  requireWrite(ctx);
  const partial = boolParam(ctx, 'is_partial_data', false);
  const body = objectBody(ctx);
  const rec = findReadable(ctx, spec, key);
  commit(ctx, spec, [buildWrite(ctx, spec, key, body, rec, partial ? 'partial' : 'full')]);
  return ok({ _key: key });
}

export function bulkUpdate(ctx: Ctx, spec: KindSpec): Reply {
  requireWrite(ctx);
  let partial = boolParam(ctx, 'is_partial_data', false);
  const body = jsonBody(ctx);
  if (!Array.isArray(body)) throw badRequest('bulk_update expects a JSON array of objects');
  const ignorePartial = ctx.bug('bulk-update-ignores-partial');
  if (ignorePartial) partial = false;
  const coll = collOf(ctx, spec);
  const built: Built[] = [];
  const seen = new Set<string>();
  for (const item of body) {
    if (!isPlainObject(item)) throw badRequest('Every element of the bulk_update payload must be an object');
    const key = keyOf(item);
    if (!key) throw badRequest('Every object in a bulk_update payload must carry a _key');
    if (seen.has(key)) throw badRequest(`_key "${key}" appears more than once in the payload`);
    seen.add(key);
    const rec = coll.get(key);
    if (rec && !canRead(ctx.user, rec.doc)) throw notFound(`Object of type ${spec.type} with _key "${key}" does not exist`);
    const mode: WriteMode = rec ? (partial ? 'partial' : 'full') : 'create';
    built.push(buildWrite(ctx, spec, key, item, rec, mode, !ignorePartial || !rec));
  }
  commit(ctx, spec, built);
  return ok({ _key: built.map((b) => String(b.doc._key)) });
}

export function commit(ctx: Ctx, spec: KindSpec, built: Built[]): void {
  const coll = collOf(ctx, spec);
  for (const b of built) coll.put(b.doc, b.meta);
  spec.afterWrite?.(
    ctx,
    built.map((b) => String(b.doc._key)),
  );
}

export function deleteObject(ctx: Ctx, spec: KindSpec, key: string): Reply {
  requireWrite(ctx);
  const rec = findReadable(ctx, spec, key);
  const reason = spec.undeletable?.(rec.doc);
  if (reason && !(spec.singleUndeletableBug && ctx.bug(spec.singleUndeletableBug))) throw badRequest(reason);
  collOf(ctx, spec).delete(key);
  spec.afterDelete?.(ctx, [rec.doc]);
  return deleted(ctx);
}

export function deleteByFilter(ctx: Ctx, spec: KindSpec): Reply {
  requireWrite(ctx);
  const p = parseListParams(ctx);
  const coll = collOf(ctx, spec);
  let recs = readable(ctx, coll.all());
  if (p.filter === null) {
    if (ctx.bug('delete-bad-filter-noop')) recs = [];
  } else if (!ctx.bug('delete-filter-ignored')) {
    recs = applyFilter(recs, p.filter);
  }
  const doomed = orderAndPage(ctx, recs, { ...p, fields: undefined }, { noOffsetBug: true }).filter(
    (r) => !spec.undeletable?.(r.doc) || (spec.bulkUndeletableBug !== undefined && ctx.bug(spec.bulkUndeletableBug)),
  );
  for (const r of doomed) coll.delete(String(r.doc._key));
  spec.afterDelete?.(
    ctx,
    doomed.map((r) => r.doc),
  );
  return deleted(ctx);
}
