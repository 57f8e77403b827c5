import type { Doc } from './config';
import { compareRows, isOrderable, rowKey, sortValue } from './order';

/** A value an equality index can look up: what a filter compares a field with by `$eq` or `$in`. */
type IndexScalar = string | number | boolean;

/**
 * In-memory document store: one Map per collection (object type), keyed by `_key`.
 * Documents are deep-copied and frozen on the way in, so no caller can change stored state through a result: `get`
 * hands out a copy, `all` and `values` the frozen documents themselves, because a list must not cost a deep copy of
 * the collection.
 *
 * Lists on large collections use two kinds of index, both built the first time a query asks for them and then kept
 * up to date by every put and delete (never rebuilt wholesale on a write):
 * - an equality index per top-level field (`candidates`): the rows whose field may equal one of some values;
 * - a sorted index per sort path and direction (`sorted`): the rows in exactly the order a list sorts them.
 */
export interface Store {
  get(collection: string, key: string): Doc | undefined;
  has(collection: string, key: string): boolean;
  /** Inserts or replaces `doc` under its `_key`; a replaced document keeps its place in insertion order. */
  put(collection: string, doc: Doc): void;
  delete(collection: string, key: string): boolean;
  /** Every document of the collection, in insertion order; the documents are frozen (read-only). */
  all(collection: string): readonly Doc[];
  /** The same documents as `all`, in the same order, without copying the collection into an array. */
  values(collection: string): IterableIterator<Doc>;
  size(collection: string): number;
  /** Position of a stored document in insertion order (smaller is earlier); -1 when it is not stored. */
  insertionRank(collection: string, doc: Doc): number;
  /**
   * A superset of the documents whose top-level `field` equals one of `values` (scalars) or holds an array or object
   * (which a filter may still match): every document a `{field: value}` or `{field: {$in: values}}` filter matches is
   * in it. Undefined when the field cannot be indexed (a dotted path, an operator name, too many indexes).
   * The set is read-only and valid until the next write.
   */
  candidates(collection: string, field: string, values: readonly IndexScalar[]): ReadonlySet<Doc> | undefined;
  /**
   * Every document sorted by the value at `path` in direction `dir`, ties by `_key` ascending, exactly as a list
   * sorts them; undefined when some document holds a value there that does not order totally (an array or object).
   * The array is read-only and valid until the next write.
   */
  sorted(collection: string, path: string, dir: 1 | -1): readonly Doc[] | undefined;
}

/** Indexes kept per collection; past these, a query just scans. */
const MAX_EQUALITY_INDEXES = 32;
const MAX_SORTED_INDEXES = 16;

/** One value's documents: most values of an indexed field (titles, keys) hold a single document. */
type Bucket = Doc | Set<Doc>;

interface EqualityIndex {
  buckets: Map<string, Bucket>;
  /** Documents whose field holds an array or an object: a filter may match them whatever the value. */
  other: Set<Doc>;
}

interface SortedIndex {
  path: string;
  dir: 1 | -1;
  /** The order, or undefined when it has to be (re)built. */
  docs: Doc[] | undefined;
  /** The collection version at which a build found an unorderable value (so the next query need not look again). */
  unorderableAt: number;
}

interface Collection {
  rows: Map<string, Doc>;
  /** Insertion rank per `_key`: set on first insert, kept on replace (as the Map keeps the entry's place). */
  ranks: Map<string, number>;
  nextRank: number;
  /** Bumped by every write. */
  version: number;
  equality: Map<string, EqualityIndex>;
  sortedIndexes: Map<string, SortedIndex>;
}

function bucketKey(v: unknown): string | undefined {
  switch (typeof v) {
    case 'string':
      return `s${v}`;
    case 'number':
      // -0 and 0 are equal to a filter: String() spells both "0".
      return `n${String(v)}`;
    case 'boolean':
      return v ? 'btrue' : 'bfalse';
    default:
      return undefined;
  }
}

const isContainer = (v: unknown) => typeof v === 'object' && v !== null;

function ownValue(doc: Doc, field: string): unknown {
  return Object.hasOwn(doc, field) ? doc[field] : undefined;
}

function addToIndex(index: EqualityIndex, field: string, doc: Doc): void {
  const v = ownValue(doc, field);
  if (isContainer(v)) {
    index.other.add(doc);
    return;
  }
  const key = bucketKey(v);
  if (key === undefined) return; // missing or null: never equal to a scalar
  const bucket = index.buckets.get(key);
  if (bucket === undefined) index.buckets.set(key, doc);
  else if (bucket instanceof Set) bucket.add(doc);
  else index.buckets.set(key, new Set([bucket, doc]));
}

function removeFromIndex(index: EqualityIndex, field: string, doc: Doc): void {
  const v = ownValue(doc, field);
  if (isContainer(v)) {
    index.other.delete(doc);
    return;
  }
  const key = bucketKey(v);
  if (key === undefined) return;
  const bucket = index.buckets.get(key);
  if (bucket === doc) index.buckets.delete(key);
  else if (bucket instanceof Set) {
    bucket.delete(doc);
    if (bucket.size === 0) index.buckets.delete(key);
  }
}

/** First position in `docs` whose row sorts at or after (value, key). */
function lowerBound(docs: readonly Doc[], index: SortedIndex, value: unknown, key: string): number {
  let lo = 0;
  let hi = docs.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const d = docs[mid]!;
    if (compareRows(sortValue(d, index.path), rowKey(d), value, key, index.dir) < 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function removeFromSorted(index: SortedIndex, doc: Doc): void {
  const docs = index.docs;
  if (docs === undefined) return;
  let at = lowerBound(docs, index, sortValue(doc, index.path), rowKey(doc));
  if (docs[at] !== doc) at = docs.indexOf(doc);
  if (at === -1)
    index.docs = undefined; // cannot happen; rebuild rather than serve a wrong order
  else docs.splice(at, 1);
}

function addToSorted(index: SortedIndex, doc: Doc): void {
  const docs = index.docs;
  if (docs === undefined) return;
  const value = sortValue(doc, index.path);
  if (!isOrderable(value)) {
    index.docs = undefined;
    return;
  }
  docs.splice(lowerBound(docs, index, value, rowKey(doc)), 0, doc);
}

function buildSorted(c: Collection, index: SortedIndex): void {
  const entries: { doc: Doc; value: unknown; key: string }[] = [];
  for (const doc of c.rows.values()) {
    const value = sortValue(doc, index.path);
    if (!isOrderable(value)) {
      index.unorderableAt = c.version;
      return;
    }
    entries.push({ doc, value, key: rowKey(doc) });
  }
  entries.sort((a, b) => compareRows(a.value, a.key, b.value, b.key, index.dir));
  index.docs = entries.map((e) => e.doc);
}

function unindex(c: Collection, doc: Doc): void {
  for (const [field, index] of c.equality) removeFromIndex(index, field, doc);
  for (const index of c.sortedIndexes.values()) removeFromSorted(index, doc);
}

function reindex(c: Collection, doc: Doc): void {
  for (const [field, index] of c.equality) addToIndex(index, field, doc);
  for (const index of c.sortedIndexes.values()) addToSorted(index, doc);
}

export function createStore(): Store {
  const collections = new Map<string, Collection>();
  const coll = (name: string): Collection => {
    let c = collections.get(name);
    if (c === undefined) {
      c = { rows: new Map(), ranks: new Map(), nextRank: 0, version: 0, equality: new Map(), sortedIndexes: new Map() };
      collections.set(name, c);
    }
    return c;
  };
  return {
    get(collection, key) {
      const doc = collections.get(collection)?.rows.get(key);
      return doc === undefined ? undefined : structuredClone(doc);
    },
    has(collection, key) {
      return collections.get(collection)?.rows.has(key) ?? false;
    },
    put(collection, doc) {
      const key = doc._key;
      if (typeof key !== 'string') throw new Error('store: a document needs a string _key');
      const stored = deepFreeze(structuredClone(doc));
      const c = coll(collection);
      const previous = c.rows.get(key);
      if (previous !== undefined) unindex(c, previous);
      else c.ranks.set(key, c.nextRank++);
      c.rows.set(key, stored);
      c.version++;
      reindex(c, stored);
    },
    delete(collection, key) {
      const c = collections.get(collection);
      const previous = c?.rows.get(key);
      if (c === undefined || previous === undefined) return false;
      unindex(c, previous);
      c.rows.delete(key);
      c.ranks.delete(key);
      c.version++;
      return true;
    },
    all(collection) {
      return [...(collections.get(collection)?.rows.values() ?? [])];
    },
    values(collection) {
      return (collections.get(collection)?.rows ?? new Map<string, Doc>()).values();
    },
    size(collection) {
      return collections.get(collection)?.rows.size ?? 0;
    },
    insertionRank(collection, doc) {
      const c = collections.get(collection);
      const key = rowKey(doc);
      return c?.rows.get(key) === doc ? c.ranks.get(key)! : -1;
    },
    candidates(collection, field, values) {
      if (field === '' || field.includes('.') || field.startsWith('$')) return undefined;
      const c = collections.get(collection);
      if (c === undefined) return new Set();
      let index = c.equality.get(field);
      if (index === undefined) {
        if (c.equality.size >= MAX_EQUALITY_INDEXES) return undefined;
        index = { buckets: new Map(), other: new Set() };
        for (const doc of c.rows.values()) addToIndex(index, field, doc);
        c.equality.set(field, index);
      }
      const buckets: Bucket[] = [];
      for (const v of new Set(values)) {
        const key = bucketKey(v);
        const bucket = key === undefined ? undefined : index.buckets.get(key);
        if (bucket !== undefined) buckets.push(bucket);
      }
      if (index.other.size === 0 && buckets.length === 1 && buckets[0] instanceof Set) return buckets[0];
      const out = new Set<Doc>(index.other);
      for (const b of buckets) {
        if (b instanceof Set) for (const d of b) out.add(d);
        else out.add(b);
      }
      return out;
    },
    sorted(collection, path, dir) {
      const c = collections.get(collection);
      if (c === undefined) return [];
      const id = `${dir}:${path}`;
      let index = c.sortedIndexes.get(id);
      if (index === undefined) {
        if (c.sortedIndexes.size >= MAX_SORTED_INDEXES) {
          // Forget the oldest index.
          c.sortedIndexes.delete(c.sortedIndexes.keys().next().value!);
        }
        index = { path, dir, docs: undefined, unorderableAt: -1 };
        c.sortedIndexes.set(id, index);
      }
      if (index.docs === undefined && index.unorderableAt !== c.version) buildSorted(c, index);
      return index.docs;
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
