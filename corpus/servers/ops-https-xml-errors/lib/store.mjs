// In-memory object store: type -> key -> { obj, seq }.  seq gives creation order.
import { clone } from './util.mjs';

let seqCounter = 0;
const data = new Map();
// Internal, never serialised state (e.g. the service links of a retired entity).
export const internal = new Map();

function bucket(type) {
  let b = data.get(type);
  if (!b) {
    b = new Map();
    data.set(type, b);
  }
  return b;
}

export const store = {
  rows(type) {
    return [...bucket(type).values()];
  },
  all(type) {
    return [...bucket(type).values()].map((r) => r.obj);
  },
  get(type, key) {
    const r = bucket(type).get(key);
    return r ? r.obj : undefined;
  },
  has(type, key) {
    return bucket(type).has(key);
  },
  // Insert or replace; replacing keeps the original creation order.
  put(type, obj) {
    const b = bucket(type);
    const prev = b.get(obj._key);
    b.set(obj._key, { obj, seq: prev ? prev.seq : ++seqCounter });
    return obj;
  },
  del(type, key) {
    const r = bucket(type).get(key);
    bucket(type).delete(key);
    return r ? r.obj : undefined;
  },
  copy(type, key) {
    return clone(this.get(type, key));
  },
};
