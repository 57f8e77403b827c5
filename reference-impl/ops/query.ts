import type { ApiResponse } from '../http/types';
import type { Doc } from './config';
import { badRequest } from './errors';
import type { FilterCompiler, Predicate } from './filter';
import { compareRows, rowKey, sortValue } from './order';
import type { Store } from './store';
import { isPlainObject } from '../http/json';
import { aliasedParam, unsupportedSelector } from './param-aliases';

/** Names of the list parameters; event management says `skip`/`filter_data`, the content-pack list `count`. */
export interface ListParamNames {
  filter: string;
  sortKey: string;
  sortDir: string;
  offset: string;
  limit: string;
  fields: string;
}

export const SHARED_LIST_PARAMS: ListParamNames = {
  filter: 'filter',
  sortKey: 'sort_key',
  sortDir: 'sort_dir',
  offset: 'offset',
  limit: 'limit',
  fields: 'fields',
};

export type Checked<T> = { ok: true; value: T } | { ok: false; error: ApiResponse };

const ok = <T>(value: T): Checked<T> => ({ ok: true, value });
const fail = <T>(error: ApiResponse): Checked<T> => ({ ok: false, error });

/**
 * A non-negative integer parameter, read under any of its names (`limit`/`count`, `offset`/`skip`); absent or empty
 * is undefined.
 */
export function intParam(query: URLSearchParams, name: string): Checked<number | undefined> {
  const raw = aliasedParam(query, name);
  return raw.ok ? intValue(raw.value, name) : raw;
}

function intValue(raw: string | null, name: string): Checked<number | undefined> {
  if (raw === null || raw.trim() === '') return ok(undefined);
  if (!/^\s*\d+\s*$/.test(raw)) return fail(badRequest(`${name} must be a non-negative integer, got "${raw.slice(0, 100)}"`));
  return ok(Number(raw));
}

/**
 * 1 for ascending, -1 for descending. Accepts every spelling the document uses on one endpoint or another
 * (`1`/`0`, `asc`/`desc`, `asc`/`des`), so a client mixing them up is still understood.
 */
function sortDirParam(query: URLSearchParams, name: string): Checked<1 | -1> {
  const raw = query.get(name);
  if (raw === null || raw.trim() === '') return ok(1);
  const v = raw.trim().toLowerCase();
  if (v === '1' || v === 'asc') return ok(1);
  if (v === '0' || v === '-1' || v === 'desc' || v === 'des') return ok(-1);
  return fail(badRequest(`${name} must be 1 (ascending) or 0 (descending), got "${raw.slice(0, 100)}"`));
}

/** Field names from a comma list, repeated parameters or a JSON array; undefined when the parameter is absent. */
function fieldsParam(query: URLSearchParams, name: string): string[] | undefined {
  const values = query.getAll(name);
  if (values.length === 0) return undefined;
  const fields: string[] = [];
  for (const raw of values) {
    let parts: unknown[] = raw.split(',');
    if (raw.trim().startsWith('[')) {
      try {
        const parsed: unknown = JSON.parse(raw);
        if (Array.isArray(parsed)) parts = parsed;
      } catch {
        // Not JSON after all: keep the comma split.
      }
    }
    for (const p of parts) {
      if (typeof p === 'string' && p.trim() !== '') fields.push(p.trim());
    }
  }
  return fields.length === 0 ? undefined : fields;
}

function defineOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

/**
 * The asked fields that exist (dotted paths reach into sub-objects), plus `_key` and `object_type`: the document
 * says every object has both, so a projection keeps them.
 */
export function project(doc: Doc, fields: readonly string[]): Doc {
  const out: Doc = {};
  for (const field of ['_key', 'object_type', ...fields]) {
    const path = field.split('.');
    let src: unknown = doc;
    let dst: Record<string, unknown> = out;
    for (let i = 0; i < path.length; i++) {
      const part = path[i]!;
      if (!isPlainObject(src) || !Object.hasOwn(src, part)) break;
      const value = src[part];
      if (i === path.length - 1) {
        defineOwn(dst, part, value);
      } else {
        if (!isPlainObject(dst[part]) || !Object.hasOwn(dst, part)) defineOwn(dst, part, {});
        dst = dst[part] as Record<string, unknown>;
        src = value;
      }
    }
  }
  return out;
}

/**
 * `doc` as a `fields` parameter asks, on a single read: the document gives single reads no parameters, but clients
 * send `fields` there as on lists (the Ansible collection does), and a read must not answer fields it was not asked.
 */
export function projectAsAsked(doc: Doc, query: URLSearchParams): Doc {
  const fields = fieldsParam(query, 'fields');
  return fields === undefined ? doc : project(doc, fields);
}

/** Mongo order (missing sorts with null, first when ascending); ties broken by `_key` ascending for stable paging. */
function sortRows(rows: Doc[], key: string, dir: 1 | -1): Doc[] {
  return rows
    .map((doc) => ({ doc, value: sortValue(doc, key), key: rowKey(doc) }))
    .sort((a, b) => compareRows(a.value, a.key, b.value, b.key, dir))
    .map((e) => e.doc);
}

export interface ListOutcome {
  rows: Doc[];
  /** Rows matching the filter, before offset and limit. */
  total: number;
  /** The `fields` parameter, when given. */
  fields: string[] | undefined;
}

export interface ListOptions {
  names?: ListParamNames;
  /** Selection parameters the caller applies itself (e.g. `search` on the authoring list), so not refused here. */
  accepts?: readonly string[];
  /** Leave the rows whole even when `fields` is given (the caller projects after adding computed fields). */
  skipProjection?: boolean;
}

interface Paging {
  start: number;
  /** Exclusive end; undefined for every row from `start` on. */
  end: number | undefined;
  dir: 1 | -1;
  sortKey: string | undefined;
}

/** The paging and sort parameters, checked in the order the scan always checked them. */
function pagingParams(query: URLSearchParams, names: ListParamNames, accepts?: readonly string[]): Checked<Paging> {
  const unsupported = unsupportedSelector(query, accepts);
  if (!unsupported.ok) return unsupported;
  const offset = intParam(query, names.offset);
  if (!offset.ok) return offset;
  const limit = intParam(query, names.limit);
  if (!limit.ok) return limit;
  const dir = sortDirParam(query, names.sortDir);
  if (!dir.ok) return dir;
  const start = offset.value ?? 0;
  // Unset or 0 means every entry.
  const end = limit.value === undefined || limit.value === 0 ? undefined : start + limit.value;
  const rawKey = query.get(names.sortKey);
  const sortKey = rawKey !== null && rawKey.trim() !== '' ? rawKey.trim() : undefined;
  return ok({ start, end, dir: dir.value, sortKey });
}

function finish(
  rows: Doc[],
  query: URLSearchParams,
  names: ListParamNames,
  opts: ListOptions,
): { rows: Doc[]; fields: string[] | undefined } {
  const fields = fieldsParam(query, names.fields);
  if (fields !== undefined && !opts.skipProjection) rows = rows.map((r) => project(r, fields));
  return { rows, fields };
}

/** Filter, sort, page and project `docs` as the shared query parameters ask: a plain scan of the rows. */
export function listRows(docs: Doc[], query: URLSearchParams, filters: FilterCompiler, opts: ListOptions = {}): Checked<ListOutcome> {
  const names = opts.names ?? SHARED_LIST_PARAMS;
  const paging = pagingParams(query, names, opts.accepts);
  if (!paging.ok) return paging;
  const { start, end, dir, sortKey } = paging.value;
  const filter = aliasedParam(query, names.filter);
  if (!filter.ok) return filter;
  const predicate = filters.compile(filter.value);
  let rows = docs.filter(predicate);
  const total = rows.length;
  if (sortKey !== undefined) rows = sortRows(rows, sortKey, dir);
  rows = rows.slice(start, end);
  return ok({ total, ...finish(rows, query, names, opts) });
}

/** The rows of one stored collection a caller may see. */
export interface RowSource {
  store: Store;
  collection: string;
  /** Whether the caller may see a row; absent when every row is visible. */
  visible?: (doc: Doc) => boolean;
}

export interface CollectionListOptions extends ListOptions {
  /** Count every matching row even when a page is asked for (default false: the scan stops at the page's end). */
  needTotal?: boolean;
}

export interface CollectionListOutcome {
  rows: Doc[];
  /** Rows matching the filter, before offset and limit; only with `needTotal`. */
  total: number | undefined;
  fields: string[] | undefined;
}

/** Candidate sets at most this fraction of the collection are read directly rather than through a full-order walk. */
const SMALL_CANDIDATE_SHARE = 16;

/** The smallest candidate set the filter's equalities give, or undefined when none applies. */
function narrowest(
  src: RowSource,
  equalities: readonly { field: string; values: (string | number | boolean)[] }[],
): ReadonlySet<Doc> | undefined {
  let best: ReadonlySet<Doc> | undefined;
  for (const eq of equalities) {
    const set = src.store.candidates(src.collection, eq.field, eq.values);
    if (set !== undefined && (best === undefined || set.size < best.size)) best = set;
    if (best?.size === 0) break;
  }
  return best;
}

/** Candidates in insertion order (the order a scan of the collection meets them). */
function inInsertionOrder(src: RowSource, set: ReadonlySet<Doc>): Doc[] {
  return [...set]
    .map((doc) => ({ doc, rank: src.store.insertionRank(src.collection, doc) }))
    .sort((a, b) => a.rank - b.rank)
    .map((e) => e.doc);
}

/**
 * `listRows` over a stored collection, with the same rows in the same order and the same projection, using the
 * store's indexes where they pay: an equality index narrows the rows to test when the filter pins a top-level field
 * to values, a sorted index gives the order without sorting, and without `needTotal` the walk stops at the end of
 * the page.
 */
export function listCollection(
  src: RowSource,
  query: URLSearchParams,
  filters: FilterCompiler,
  opts: CollectionListOptions = {},
): Checked<CollectionListOutcome> {
  const names = opts.names ?? SHARED_LIST_PARAMS;
  const paging = pagingParams(query, names, opts.accepts);
  if (!paging.ok) return paging;
  const { start, end, dir, sortKey } = paging.value;
  const filter = aliasedParam(query, names.filter);
  if (!filter.ok) return filter;
  const plan = filters.plan(filter.value);
  const { visible } = src;
  const predicate = plan.predicate;
  const matches: Predicate = plan.matchesAll
    ? (visible ?? (() => true))
    : visible === undefined
      ? predicate
      : (d) => visible(d) && predicate(d);
  const needTotal = opts.needTotal === true;
  const wanted = needTotal || end === undefined ? Infinity : end;
  const candidates = narrowest(src, plan.equalities);
  const size = src.store.size(src.collection);
  const small = candidates !== undefined && candidates.size * SMALL_CANDIDATE_SHARE <= size;

  let matched: Doc[] = [];
  let total = 0;
  /** Walks `docs`, keeping the matching rows up to the page's end (all of them with needTotal). */
  const walk = (docs: Iterable<Doc>, member: ReadonlySet<Doc> | undefined, keep: number) => {
    for (const doc of docs) {
      if (member !== undefined && !member.has(doc)) continue;
      if (!matches(doc)) continue;
      total++;
      if (matched.length < keep) matched.push(doc);
      else if (!needTotal) break;
    }
  };

  const order = sortKey === undefined || small ? undefined : src.store.sorted(src.collection, sortKey, dir);
  if (order !== undefined) {
    walk(order, candidates, wanted);
  } else if (sortKey !== undefined) {
    // Sort every matching row (and only those), met in insertion order as the scan meets them.
    if (small) walk(inInsertionOrder(src, candidates!), undefined, Infinity);
    else walk(src.store.values(src.collection), candidates, Infinity);
    matched = sortRows(matched, sortKey, dir);
  } else if (small) {
    walk(inInsertionOrder(src, candidates!), undefined, wanted);
  } else {
    walk(src.store.values(src.collection), candidates, wanted);
  }
  const rows = matched.slice(start, end);
  return ok({ total: needTotal ? total : undefined, ...finish(rows, query, names, opts) });
}

/**
 * How many rows of the collection match the filter parameter (under either of its names); an incorrect filter
 * matches every row.
 */
export function countCollection(src: RowSource, query: URLSearchParams, filters: FilterCompiler, filterName = 'filter'): Checked<number> {
  const filter = aliasedParam(query, filterName);
  if (!filter.ok) return filter;
  const plan = filters.plan(filter.value);
  const { visible } = src;
  if (plan.matchesAll && visible === undefined) return ok(src.store.size(src.collection));
  const candidates = narrowest(src, plan.equalities);
  let count = 0;
  for (const doc of candidates ?? src.store.values(src.collection)) {
    if ((visible === undefined || visible(doc)) && (plan.matchesAll || plan.predicate(doc))) count++;
  }
  return ok(count);
}
