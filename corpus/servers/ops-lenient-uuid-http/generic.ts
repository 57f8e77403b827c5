import {
  type Doc,
  HttpError,
  isDoc,
  clone,
  listQuery,
  parseFields,
  projectFields,
  parseIntParam,
  isDescending,
  truthy,
  applyFilter,
  createTimeShort,
  epochNow,
} from './util.js';
import { type User, coll, creators, protectedKeys } from './store.js';
import { canRead, createObject, stamp } from './objects.js';

export interface Ctx {
  method: string;
  q: URLSearchParams;
  body: unknown;
  hasBody: boolean;
  user: User;
}

export interface Reply {
  status: number;
  body?: unknown; // undefined → empty body
}

export const ok = (body?: unknown): Reply => ({ status: 200, body });

export function requireWrite(ctx: Ctx): void {
  if (!ctx.user.canWrite) throw new HttpError(403, `user ${ctx.user.name} does not have write access`);
}

export function bodyDoc(ctx: Ctx): Doc {
  if (!ctx.hasBody || ctx.body === undefined || ctx.body === null) return {};
  if (isDoc(ctx.body)) return ctx.body;
  throw new HttpError(400, 'request body must be a JSON object');
}

export interface TypeOpts {
  ns: string;
  type: string;
  scoped: boolean; // team scoped visibility
  em?: boolean; // event-management parameter names
  appendOnly?: boolean;
  present?: (d: Doc, user: User) => Doc;
  required?: string[];
}

function visible(o: TypeOpts, user: User, d: Doc): boolean {
  return !o.scoped || canRead(user, d, o.type);
}

function present(o: TypeOpts, d: Doc, user: User): Doc {
  const c = clone(d);
  return o.present ? o.present(c, user) : c;
}

function filterParam(o: TypeOpts, q: URLSearchParams): string | null {
  if (o.em) return q.get('filter_data') ?? q.get('filter');
  return q.get('filter') ?? q.get('filter_data');
}

function queryItems(o: TypeOpts, ctx: Ctx, forDelete = false): Doc[] {
  const q = ctx.q;
  const items = coll(`${o.ns}:${o.type}`)
    .all()
    .filter((d) => visible(o, ctx.user, d));
  const offset = parseIntParam(o.em ? (q.get('skip') ?? q.get('offset')) : (q.get('offset') ?? q.get('skip')));
  const limit = parseIntParam(q.get('limit') ?? q.get('count'));
  const res = listQuery(items, {
    filter: filterParam(o, q),
    sortKey: q.get('sort_key'),
    desc: isDescending(q.get('sort_dir')),
    offset,
    limit,
  });
  void forDelete;
  return res;
}

function checkRequired(o: TypeOpts, d: Doc): void {
  for (const f of o.required ?? []) {
    if (d[f] === undefined || d[f] === null) throw new HttpError(400, `missing required field: ${f}`);
  }
}

function onCreateDefaults(o: TypeOpts, d: Doc, user: User): void {
  if (o.ns === 'mw' || o.ns === 'br') {
    if (d._owner === undefined) d._owner = user.name;
  }
  if (o.ns === 'br') {
    if (d.create_time === undefined) d.create_time = createTimeShort();
    if (d.status === undefined) d.status = 'Queued';
    if (d.last_queued_time === undefined && String(d.status).toLowerCase() === 'queued') d.last_queued_time = epochNow();
  }
  if (o.type === 'custom_threshold_windows' && d.status === undefined) d.status = 'active';
  if (o.type === 'content_pack' && d.status === undefined) d.status = 'Draft';
}

export function createDoc(o: TypeOpts, body: Doc, user: User, key?: string): Doc {
  checkRequired(o, body);
  const d = createObject(o.ns, o.type, body, user, key);
  onCreateDefaults(o, d, user);
  return d;
}

/** Update existing doc (partial merge or full overwrite). Returns updated doc. */
export function updateDoc(o: TypeOpts, existing: Doc, body: Doc, partial: boolean, user: User): Doc {
  const key = String(existing._key);
  let d: Doc;
  if (partial) {
    d = { ...existing, ...body, _key: key };
  } else {
    checkRequired(o, body);
    d = { ...body, _key: key };
    // keep creation bookkeeping
    for (const f of ['create_time', 'create_by', 'create_source', '_owner']) {
      if (d[f] === undefined && existing[f] !== undefined) d[f] = existing[f];
    }
  }
  stamp(o.ns, o.type, d, user, false);
  onCreateDefaults(o, d, user);
  coll(`${o.ns}:${o.type}`).set(key, d);
  return d;
}

function getVisible(o: TypeOpts, ctx: Ctx, key: string): Doc {
  const d = coll(`${o.ns}:${o.type}`).get(key);
  if (!d) throw new HttpError(404, `${o.type} object with key ${key} not found`);
  if (!visible(o, ctx.user, d)) throw new HttpError(403, `user ${ctx.user.name} cannot access ${o.type} ${key}`);
  return d;
}

export function getOne(o: TypeOpts, ctx: Ctx, key: string): Doc {
  return getVisible(o, ctx, key);
}

function deleteKey(o: TypeOpts, key: string): void {
  coll(`${o.ns}:${o.type}`).delete(key);
  creators.delete(key);
}

/** Handles <type>, <type>/count, <type>/bulk_update, <type>/<key>. Returns undefined when not matched. */
export function handleGeneric(o: TypeOpts, ctx: Ctx, rest: string[]): Reply | undefined {
  const { method, q, user } = ctx;
  if (rest.length === 0) {
    if (method === 'GET') {
      const fields = parseFields(q);
      return ok(queryItems(o, ctx).map((d) => projectFields(present(o, d, user), fields)));
    }
    if (method === 'POST') {
      requireWrite(ctx);
      const body = bodyDoc(ctx);
      const k = typeof body._key === 'string' ? body._key : undefined;
      const existing = k ? coll(`${o.ns}:${o.type}`).get(k) : undefined;
      if (existing) {
        if (o.appendOnly) throw new HttpError(405, `${o.type} objects are append-only: update is not supported`);
        if (o.scoped && !canRead(user, existing, o.type)) throw new HttpError(403, `user ${user.name} cannot access ${o.type} ${k}`);
        const partial = truthy(q.get('is_partial_data'));
        updateDoc(o, existing, body, partial, user);
        return ok({ _key: k });
      }
      const d = createDoc(o, body, user);
      return ok({ _key: d._key });
    }
    if (method === 'DELETE') {
      requireWrite(ctx);
      if (o.appendOnly) throw new HttpError(405, `${o.type} objects are append-only: delete is not supported`);
      for (const d of queryItems(o, ctx, true)) {
        const k = String(d._key);
        if (protectedKeys.has(k)) continue;
        deleteKey(o, k);
      }
      return ok(o.em ? {} : undefined);
    }
    throw new HttpError(405, `method ${method} not allowed`);
  }
  if (rest.length === 1 && rest[0] === 'count') {
    if (method !== 'GET') throw new HttpError(405, `method ${method} not allowed`);
    const items = coll(`${o.ns}:${o.type}`)
      .all()
      .filter((d) => visible(o, user, d));
    return ok({ count: applyFilter(items, filterParam(o, q)).length });
  }
  if (rest.length === 1 && rest[0] === 'bulk_update') {
    if (method !== 'POST' && method !== 'PUT') throw new HttpError(405, `method ${method} not allowed`);
    requireWrite(ctx);
    if (o.appendOnly) throw new HttpError(405, `${o.type} objects are append-only: update is not supported`);
    let arr: unknown = ctx.hasBody ? ctx.body : [];
    if (arr === undefined || arr === null) arr = [];
    if (isDoc(arr)) arr = Array.isArray(arr.data) ? arr.data : [arr];
    if (!Array.isArray(arr)) throw new HttpError(400, 'bulk_update body must be an array of objects');
    const partial = truthy(q.get('is_partial_data'));
    const items = arr.map((x) => {
      if (!isDoc(x)) throw new HttpError(400, 'bulk_update entries must be objects');
      return x;
    });
    // validate first so that a failing entry changes nothing
    for (const it of items) {
      const k = typeof it._key === 'string' ? it._key : undefined;
      const ex = k ? coll(`${o.ns}:${o.type}`).get(k) : undefined;
      if (ex && o.scoped && !canRead(user, ex, o.type)) throw new HttpError(403, `user ${user.name} cannot access ${o.type} ${k}`);
      if (!(ex && partial)) checkRequired(o, it);
    }
    const keys: string[] = [];
    for (const it of items) {
      const k = typeof it._key === 'string' && it._key !== '' ? it._key : undefined;
      const ex = k ? coll(`${o.ns}:${o.type}`).get(k) : undefined;
      if (ex) {
        updateDoc(o, ex, it, partial, user);
        keys.push(String(ex._key));
      } else {
        const d = createDoc(o, it, user, k);
        keys.push(String(d._key));
      }
    }
    return ok({ _key: keys });
  }
  if (rest.length === 1) {
    const key = rest[0];
    if (method === 'GET') {
      const fields = parseFields(q);
      return ok(projectFields(present(o, getVisible(o, ctx, key), user), fields));
    }
    if (method === 'POST' || method === 'PUT') {
      requireWrite(ctx);
      if (o.appendOnly) throw new HttpError(405, `${o.type} objects are append-only: update is not supported`);
      const ex = getVisible(o, ctx, key);
      const body = bodyDoc(ctx);
      const partial = truthy(q.get('is_partial_data'));
      updateDoc(o, ex, body, partial, user);
      return ok({ _key: key });
    }
    if (method === 'DELETE') {
      requireWrite(ctx);
      if (o.appendOnly) throw new HttpError(405, `${o.type} objects are append-only: delete is not supported`);
      getVisible(o, ctx, key);
      if (protectedKeys.has(key)) throw new HttpError(403, `object ${key} is protected and cannot be deleted`);
      deleteKey(o, key);
      return ok(o.em ? {} : undefined);
    }
    throw new HttpError(405, `method ${method} not allowed`);
  }
  return undefined;
}
