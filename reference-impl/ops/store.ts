import type { Doc } from './config';

/**
 * In-memory document store: one Map per collection (object type), keyed by `_key`.
 * Documents are deep-copied on the way in and out, so no caller can change stored state by mutating a result.
 */
export interface Store {
  get(collection: string, key: string): Doc | undefined;
  has(collection: string, key: string): boolean;
  /** Inserts or replaces `doc` under its `_key`. */
  put(collection: string, doc: Doc): void;
  delete(collection: string, key: string): boolean;
  /** Every document of the collection, in insertion order. */
  all(collection: string): Doc[];
}

export function createStore(): Store {
  const collections = new Map<string, Map<string, Doc>>();
  const coll = (name: string): Map<string, Doc> => {
    let c = collections.get(name);
    if (c === undefined) {
      c = new Map();
      collections.set(name, c);
    }
    return c;
  };
  return {
    get(collection, key) {
      const doc = collections.get(collection)?.get(key);
      return doc === undefined ? undefined : structuredClone(doc);
    },
    has(collection, key) {
      return collections.get(collection)?.has(key) ?? false;
    },
    put(collection, doc) {
      const key = doc._key;
      if (typeof key !== 'string') throw new Error('store: a document needs a string _key');
      coll(collection).set(key, structuredClone(doc));
    },
    delete(collection, key) {
      return collections.get(collection)?.delete(key) ?? false;
    },
    all(collection) {
      return [...(collections.get(collection)?.values() ?? [])].map((d) => structuredClone(d));
    },
  };
}
