// biome-ignore-all lint/suspicious/noExplicitAny: the documents are free-form JSON read by shape, as their author wrote them
// Generic object-type handling shared by the core, maintenance, backup and event interfaces.
import {
  type Collection,
  type Ctx,
  conflict,
  type ListOpts,
  type Reply,
  applyList,
  badInput,
  boolParam,
  bug,
  canRead,
  clone,
  empty,
  isObj,
  matches,
  methodNotAllowed,
  mustWrite,
  newKey,
  notFound,
  ok,
  parseFilter,
  project,
  sharedOpts,
  stamp,
  strip,
} from './lib';

export interface TypeDef {
  iface: 'core' | 'maintenance' | 'backup' | 'event';
  type: string;
  coll: Collection;
  access: boolean; // reads restricted by sec_grp
  required: string[];
  prepare?: (obj: any, prev: any | undefined, ctx: Ctx) => void;
  present?: (obj: any, ctx: Ctx) => any;
  protect?: (obj: any) => string | null; // reason the object cannot be deleted
  readOnlyAfterCreate?: boolean; // append-only types
}

const SYSTEM_KEEP = ['create_time', 'create_by', 'create_source', '_owner'];

export function out(def: TypeDef, obj: any, ctx: Ctx): any {
  const o = strip(obj);
  return def.present ? def.present(o, ctx) : o;
}
function readable(def: TypeDef, ctx: Ctx, obj: any): boolean {
  return !def.access || canRead(ctx.user, obj);
}
export function readableRows(def: TypeDef, ctx: Ctx, leak = false): any[] {
  return def.coll.viewAll().filter((o) => leak || readable(def, ctx, o));
}
export function getVisible(def: TypeDef, ctx: Ctx, key: string): any {
  const obj = def.coll.view(key);
  const unchecked = bug('mw-get-key-unrestricted') && def.iface === 'maintenance';
  if (!obj || (!unchecked && !readable(def, ctx, obj))) notFound(`${def.type} '${key}' does not exist`);
  return obj;
}
function checkRequired(def: TypeDef, obj: any): void {
  for (const f of def.required) {
    const v = obj[f];
    if (v === undefined || v === null || (typeof v === 'string' && !v.trim())) badInput(`field '${f}' is required for ${def.type}`);
  }
  if (obj.title !== undefined && typeof obj.title !== 'string') badInput("'title' must be a string");
}

export function listRows(def: TypeDef, ctx: Ctx, opts: ListOpts): any[] {
  const leak = (bug('core-list-leak') && def.iface === 'core') || (bug('backup-list-leak') && def.iface === 'backup');
  const rows = readableRows(def, ctx, leak).map((o) => out(def, o, ctx));
  if (bug('list-limit-before-filter') && def.iface === 'core' && opts.filter && opts.limit) {
    const page = applyList(rows, { ...opts, filter: null, fields: undefined }).rows.filter((r) => matches(r, opts.filter));
    return page.map((r) => project(r, opts.fields));
  }
  if (bug('backup-offset-off-by-one') && def.iface === 'backup' && opts.offset) opts = { ...opts, offset: opts.offset - 1 };
  return applyList(rows, opts).rows;
}

function create(def: TypeDef, ctx: Ctx): Reply {
  mustWrite(ctx.user);
  const body = ctx.body;
  if (!isObj(body)) badInput('payload must be a JSON object');
  if (body._key !== undefined && (typeof body._key !== 'string' || !body._key)) badInput("'_key' must be a non-empty string");
  let prev = body._key ? def.coll.get(body._key) : undefined;
  if (prev && def.readOnlyAfterCreate) badInput(`${def.type} objects cannot be updated`);
  let key = body._key || newKey();
  if (prev && bug('create-existing-key-dup') && def.iface === 'core') {
    prev = undefined;
    key = newKey();
  }
  const obj = writeFull(def, ctx, body, prev, key);
  return ok({ _key: obj._key }, prev ? 200 : 201);
}

function writeFull(def: TypeDef, ctx: Ctx, body: any, prev: any, key: string, skipRequired = false): any {
  const obj: any = clone(body);
  obj._key = key;
  if (!skipRequired) checkRequired(def, obj);
  if (prev) {
    for (const k of SYSTEM_KEEP) if (prev[k] !== undefined && obj[k] === undefined) obj[k] = prev[k];
    for (const k of Object.keys(prev)) if (k.startsWith('__')) obj[k] = prev[k];
    if (obj.sec_grp === undefined) obj.sec_grp = prev.sec_grp;
  }
  for (const k of Object.keys(obj)) if (k.startsWith('__') && !(prev && k in prev)) delete obj[k];
  def.prepare?.(obj, prev, ctx);
  stamp(obj, def.type, ctx, !prev);
  def.coll.put(obj);
  return obj;
}

function writePartial(def: TypeDef, ctx: Ctx, body: any, prev: any): any {
  const patch = clone(body);
  delete patch._key;
  for (const k of Object.keys(patch)) if (k.startsWith('__')) delete patch[k];
  if ('title' in patch && (typeof patch.title !== 'string' || !patch.title.trim())) badInput("'title' must be a non-empty string");
  let obj: any;
  if (bug('partial-update-drops-fields') && def.iface === 'core') {
    obj = { ...patch, _key: prev._key, title: patch.title ?? prev.title, sec_grp: patch.sec_grp ?? prev.sec_grp };
  } else if (bug('backup-partial-drops-fields') && def.iface === 'backup') {
    obj = { ...patch, _key: prev._key, title: patch.title ?? prev.title, sec_grp: prev.sec_grp, _owner: prev._owner };
  } else obj = { ...prev, ...patch };
  def.prepare?.(obj, prev, ctx);
  stamp(obj, def.type, ctx, false);
  if (bug('partial-identifying-name-stale') && def.iface === 'core') obj.identifying_name = prev.identifying_name;
  def.coll.put(obj);
  return obj;
}

function update(def: TypeDef, ctx: Ctx, key: string): Reply {
  mustWrite(ctx.user);
  if (def.readOnlyAfterCreate) badInput(`${def.type} objects are append-only: update is not supported`);
  const partialDefault = bug('mw-partial-default-on') && def.iface === 'maintenance';
  const partial = boolParam(ctx.q.get('is_partial_data'), partialDefault, 'is_partial_data');
  const body = ctx.body;
  if (!isObj(body)) badInput('payload must be a JSON object');
  const prev = def.coll.get(key);
  if (!prev) notFound(`${def.type} '${key}' does not exist`);
  const skipRequired = bug('full-update-no-required-check') && def.iface === 'core';
  const obj = partial ? writePartial(def, ctx, body, prev) : writeFull(def, ctx, body, prev, key, skipRequired);
  return ok({ _key: obj._key });
}

function bulkUpdate(def: TypeDef, ctx: Ctx): Reply {
  mustWrite(ctx.user);
  if (def.readOnlyAfterCreate) badInput(`${def.type} objects are append-only: update is not supported`);
  const partial = boolParam(ctx.q.get('is_partial_data'), false, 'is_partial_data');
  let items = ctx.body;
  if (!Array.isArray(items) || !items.length) badInput('payload must be a non-empty array of objects');
  for (const it of items) {
    if (!isObj(it) || typeof it._key !== 'string' || !it._key) badInput('every object of a bulk update needs a _key');
    if (!def.coll.get(it._key)) notFound(`${def.type} '${it._key}' does not exist`);
    if (!partial) checkRequired(def, it);
  }
  if (bug('bulk-update-first-only') && def.iface === 'core') items = items.slice(0, 1);
  const keys: string[] = [];
  for (const it of items) {
    const prev = def.coll.get(it._key);
    const obj = partial ? writePartial(def, ctx, it, prev) : writeFull(def, ctx, it, prev, it._key);
    keys.push(obj._key);
  }
  return ok({ _key: keys });
}

function getOne(def: TypeDef, ctx: Ctx, key: string): Reply {
  return ok(out(def, getVisible(def, ctx, key), ctx));
}

function deleteOne(def: TypeDef, ctx: Ctx, key: string): Reply {
  mustWrite(ctx.user);
  if (def.readOnlyAfterCreate) badInput(`${def.type} objects are append-only: delete is not supported`);
  const prev = def.coll.get(key);
  if (!prev) notFound(`${def.type} '${key}' does not exist`);
  const why = def.protect?.(prev);
  if (why) conflict(why);
  def.coll.del(key);
  return empty();
}

function bulkDelete(def: TypeDef, ctx: Ctx, opts: ListOpts): Reply {
  mustWrite(ctx.user);
  if (def.readOnlyAfterCreate) badInput(`${def.type} objects are append-only: delete is not supported`);
  let rows = def.coll.all().filter((o) => readable(def, ctx, o));
  if (bug('delete-filter-deletes-all') && def.iface === 'core') opts = { ...opts, filter: null };
  if (bug('bad-filter-delete-nothing') && def.iface === 'core' && ctx.q.get('filter') && !opts.filter) return empty();
  rows = applyList(rows, { ...opts, fields: undefined }).rows;
  for (const o of rows) {
    if (def.protect?.(o) && !(bug('backup-default-bulk-deleted') && def.iface === 'backup')) continue;
    def.coll.del(o._key);
  }
  return empty();
}

function count(def: TypeDef, ctx: Ctx): Reply {
  const leak = (bug('mw-count-leak') && def.iface === 'maintenance') || (bug('backup-count-leak') && def.iface === 'backup');
  let f = parseFilter(ctx.q.get('filter'));
  if (bug('count-ignores-filter') && def.iface === 'core') f = null;
  const rows = readableRows(def, ctx, leak).map((o) => out(def, o, ctx));
  return ok({ count: f ? rows.filter((r) => matches(r, f)).length : rows.length });
}

/** Routes shared by every type: list, create, bulk delete, count, bulk_update, by key. */
export function genericRoutes(def: TypeDef, ctx: Ctx, rest: string[]): Reply {
  const m = ctx.method;
  if (rest.length === 0) {
    if (m === 'GET') return ok(listRows(def, ctx, sharedOpts(ctx.q)));
    if (m === 'POST') return create(def, ctx);
    if (m === 'DELETE') return bulkDelete(def, ctx, sharedOpts(ctx.q));
    return methodNotAllowed();
  }
  if (rest.length === 1) {
    if (rest[0] === 'count' && m === 'GET') return count(def, ctx);
    if (rest[0] === 'bulk_update' && m === 'POST') return bulkUpdate(def, ctx);
    if (m === 'GET') return getOne(def, ctx, rest[0]);
    if (m === 'POST') return update(def, ctx, rest[0]);
    if (m === 'DELETE') return deleteOne(def, ctx, rest[0]);
    return methodNotAllowed();
  }
  return notFound('no such endpoint');
}
