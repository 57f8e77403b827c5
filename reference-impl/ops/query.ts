import { compare } from 'mingo/util';
import type { ApiResponse } from '../http/types';
import type { Doc } from './config';
import { badRequest } from './errors';
import type { FilterCompiler } from './filter';

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

/** A non-negative integer parameter; absent or empty is undefined. */
export function intParam(query: URLSearchParams, name: string): Checked<number | undefined> {
  const raw = query.get(name);
  if (raw === null || raw.trim() === '') return ok(undefined);
  if (!/^\s*\d+\s*$/.test(raw)) return fail(badRequest(`${name} must be a non-negative integer, got "${raw.slice(0, 100)}"`));
  return ok(Number(raw));
}

/**
 * 1 for ascending, -1 for descending. Accepts every spelling the document uses on one endpoint or another
 * (`1`/`0`, `asc`/`desc`, `asc`/`des`), so a client mixing them up is still understood.
 */
export function sortDirParam(query: URLSearchParams, name: string): Checked<1 | -1> {
  const raw = query.get(name);
  if (raw === null || raw.trim() === '') return ok(1);
  const v = raw.trim().toLowerCase();
  if (v === '1' || v === 'asc') return ok(1);
  if (v === '0' || v === '-1' || v === 'desc' || v === 'des') return ok(-1);
  return fail(badRequest(`${name} must be 1 (ascending) or 0 (descending), got "${raw.slice(0, 100)}"`));
}

/** Field names from a comma list, repeated parameters or a JSON array; undefined when the parameter is absent. */
export function fieldsParam(query: URLSearchParams, name: string): string[] | undefined {
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

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
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

function fieldValue(doc: Doc, path: string): unknown {
  let v: unknown = doc;
  for (const part of path.split('.')) {
    if (!isPlainObject(v) || !Object.hasOwn(v, part)) return undefined;
    v = v[part];
  }
  return v;
}

/** Mongo order (missing sorts with null, first when ascending); ties broken by `_key` ascending for stable paging. */
export function sortRows(rows: Doc[], key: string, dir: 1 | -1): Doc[] {
  const keyOf = (d: Doc) => (typeof d._key === 'string' ? d._key : '');
  return rows
    .map((doc) => ({ doc, value: fieldValue(doc, key) ?? null }))
    .sort((a, b) => {
      const c = compare(a.value, b.value) * dir;
      if (c !== 0) return c;
      const ka = keyOf(a.doc);
      const kb = keyOf(b.doc);
      return ka < kb ? -1 : ka > kb ? 1 : 0;
    })
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
  /** Leave the rows whole even when `fields` is given (the caller projects after adding computed fields). */
  skipProjection?: boolean;
}

/** Filter, sort, page and project `docs` as the shared query parameters ask. */
export function listRows(
  docs: Doc[],
  query: URLSearchParams,
  filters: FilterCompiler,
  opts: ListOptions = {},
): Checked<ListOutcome> {
  const names = opts.names ?? SHARED_LIST_PARAMS;
  const offset = intParam(query, names.offset);
  if (!offset.ok) return offset;
  const limit = intParam(query, names.limit);
  if (!limit.ok) return limit;
  const dir = sortDirParam(query, names.sortDir);
  if (!dir.ok) return dir;
  const predicate = filters.compile(query.get(names.filter));
  let rows = docs.filter(predicate);
  const total = rows.length;
  const sortKey = query.get(names.sortKey);
  if (sortKey !== null && sortKey.trim() !== '') rows = sortRows(rows, sortKey.trim(), dir.value);
  const start = offset.value ?? 0;
  // Unset or 0 means every entry.
  const end = limit.value === undefined || limit.value === 0 ? undefined : start + limit.value;
  rows = rows.slice(start, end);
  const fields = fieldsParam(query, names.fields);
  if (fields !== undefined && !opts.skipProjection) rows = rows.map((r) => project(r, fields));
  return ok({ rows, total, fields });
}

/** The rows matching the filter parameter; an incorrect filter matches every row. */
export function filterRows(docs: Doc[], query: URLSearchParams, filters: FilterCompiler, filterName = 'filter'): Doc[] {
  return docs.filter(filters.compile(query.get(filterName)));
}
