import type { Doc } from './config';

/**
 * In-memory document store: one Map per collection (object type), keyed by `_key`.
 * Documents are deep-copied and frozen on the way in, so no caller can change stored state through a result: `get`
 * hands out a copy, `all` the frozen documents themselves, because a list must not cost a deep copy of the collection.
 */
export interface Store {
  get(collection: string, key: string): Doc | undefined;
  has(collection: string, key: string): boolean;
  /** Inserts or replaces `doc` under its `_key`. */
  put(collection: string, doc: Doc): void;
  delete(collection: string, key: string): boolean;
  /** Every document of the collection, in insertion order; the documents are frozen (read-only). */
  all(collection: string): readonly Doc[];
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
      coll(collection).set(key, deepFreeze(structuredClone(doc)));
    },
    delete(collection, key) {
      return collections.get(collection)?.delete(key) ?? false;
    },
    all(collection) {
      return [...(collections.get(collection)?.values() ?? [])];
    },
  };
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}
