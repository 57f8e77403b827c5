// In-memory collections keeping insertion order (seq) per object.
let SEQ = 0;
export class Collection {
  constructor() {
    this.map = new Map();
  }
  get(key) {
    const r = this.map.get(key);
    return r ? r.doc : undefined;
  }
  has(key) {
    return this.map.has(key);
  }
  put(doc) {
    const r = this.map.get(doc._key);
    if (r) r.doc = doc;
    else this.map.set(doc._key, { doc, seq: ++SEQ });
    return doc;
  }
  delete(key) {
    return this.map.delete(key);
  }
  rows() {
    return [...this.map.values()];
  }
  docs() {
    return [...this.map.values()].map((r) => r.doc);
  }
  get size() {
    return this.map.size;
  }
}

const collections = new Map();
export function coll(name) {
  if (!collections.has(name)) collections.set(name, new Collection());
  return collections.get(name);
}
