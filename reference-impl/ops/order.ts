import { compare } from 'mingo/util';
import type { Doc } from './config';
import { isPlainObject } from '../http/json';

/** The value at a dotted path through plain sub-objects (own members only); undefined when absent. */
function fieldValue(doc: Doc, path: string): unknown {
  let v: unknown = doc;
  for (const part of path.split('.')) {
    if (!isPlainObject(v) || !Object.hasOwn(v, part)) return undefined;
    v = v[part];
  }
  return v;
}

/** What a list sorts a row by: the value at the path, missing counting as null (Mongo order). */
export function sortValue(doc: Doc, path: string): unknown {
  return fieldValue(doc, path) ?? null;
}

export function rowKey(doc: Doc): string {
  return typeof doc._key === 'string' ? doc._key : '';
}

/** Mingo order of the values in direction `dir`; ties broken by `_key` ascending whatever the direction. */
export function compareRows(va: unknown, ka: string, vb: unknown, kb: string, dir: 1 | -1): number {
  const c = compare(va, vb) * dir;
  if (c !== 0) return c;
  return ka < kb ? -1 : ka > kb ? 1 : 0;
}

/**
 * Values mingo's comparison orders consistently (a total order, so a sorted index can be searched and kept up to
 * date by bisection). Arrays and objects are compared element-wise in ways that are not transitive, so a field
 * holding one is sorted by a plain scan instead.
 */
export function isOrderable(v: unknown): boolean {
  return v === null || typeof v === 'string' || typeof v === 'boolean' || (typeof v === 'number' && !Number.isNaN(v));
}
