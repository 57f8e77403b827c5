// In-memory collections. Rows keep their insertion order; a read stamps the rows it returns.
import { randomBytes } from 'node:crypto';
import { clone } from './http.mjs';
import { isoStamp } from './time.mjs';

export const SCHEMA_VERSION = '4.19.1';

let counter = 0;

/** 24 hex digits, in the style of a document-store object id. */
export function newKey() {
  const t = Math.floor(Date.now() / 1000)
    .toString(16)
    .padStart(8, '0');
  counter = (counter + 1) % 0xffffff;
  return t + randomBytes(5).toString('hex') + counter.toString(16).padStart(6, '0');
}

let globalSeq = 0;

class Collection {
  constructor(name) {
    this.name = name;
    this.rows = new Map();
    this.seq = new Map();
  }

  get size() {
    return this.rows.size;
  }

  /** Rows newest first: the order of this server when no sort_key is given. */
  all() {
    return [...this.rows.values()].sort((a, b) => this.seq.get(b._key) - this.seq.get(a._key));
  }

  get(key) {
    return this.rows.get(String(key));
  }

  has(key) {
    return this.rows.has(String(key));
  }

  put(row) {
    if (row._key === undefined || row._key === null || row._key === '') row._key = newKey();
    row._key = String(row._key);
    if (!this.seq.has(row._key)) this.seq.set(row._key, ++globalSeq);
    if (row._revision === undefined) row._revision = 0;
    this.rows.set(row._key, row);
    return row;
  }

  remove(key) {
    this.seq.delete(String(key));
    return this.rows.delete(String(key));
  }
}

const registry = new Map();

export function collection(space, type) {
  const id = `${space}/${type}`;
  let c = registry.get(id);
  if (!c) {
    c = new Collection(id);
    registry.set(id, c);
  }
  return c;
}

/** Marks a row as read (its revision counter moves on every read) and gives back a copy. */
export function readCopy(row) {
  row._revision = (row._revision || 0) + 1;
  row._read_at = isoStamp();
  return clone(row);
}

/** Fields owned by the server: what a client sends for them is not taken. */
export const SERVER_FIELDS = [
  '_key',
  '_revision',
  '_read_at',
  'object_type',
  'create_time',
  'create_by',
  'create_source',
  'identifying_name',
  'mod_timestamp',
  'mod_time',
  'mod_by',
  '_version',
];
