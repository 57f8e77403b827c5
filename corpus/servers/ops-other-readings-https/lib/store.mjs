// In-memory collections.
import { nowMicros, isoWithOffset, modTimeString, SCHEMA_VERSION } from './util.mjs';

let seq = 0;
export class Collection {
  constructor(name) {
    this.name = name;
    this.map = new Map();
  }
  get(key) {
    const r = this.map.get(key);
    return r ? r.doc : undefined;
  }
  has(key) {
    return this.map.has(key);
  }
  put(key, doc) {
    const r = this.map.get(key);
    if (r) {
      r.doc = doc;
      r.mseq = ++seq;
    } else this.map.set(key, { doc, seq: ++seq, mseq: seq });
    return doc;
  }
  delete(key) {
    return this.map.delete(key);
  }
  // Default order: most recently modified first.
  all() {
    return [...this.map.values()].sort((a, b) => b.mseq - a.mseq).map((r) => r.doc);
  }
  size() {
    return this.map.size;
  }
}

export const CORE_TYPES = [
  'team',
  'entity',
  'service',
  'base_service_template',
  'kpi_base_search',
  'deep_dive',
  'glass_table',
  'home_view',
  'kpi_template',
  'kpi_threshold_template',
  'event_management_state',
  'entity_filter_rule',
  'entity_type',
  'custom_threshold_windows',
];
export const NOT_USED_TYPES = ['entity_relationship', 'entity_relationship_rule'];
export const ALL_CORE_TYPES = [...CORE_TYPES, ...NOT_USED_TYPES];

export const core = Object.fromEntries(ALL_CORE_TYPES.map((t) => [t, new Collection(t)]));
export const maintenance = {
  maintenance_calendar: new Collection('maintenance_calendar'),
  operative_maintenance_log: new Collection('operative_maintenance_log'),
};
export const backup = { backup_restore: new Collection('backup_restore') };
export const EVENT_TYPES = [
  'correlation_search',
  'notable_event_group',
  'notable_event_aggregation_policy',
  'notable_event_comment',
  'notable_event_tag',
  'notable_event',
];
export const events = Object.fromEntries(EVENT_TYPES.map((t) => [t, new Collection(t)]));
export const tickets = new Collection('external_ticket');
export const authored = new Collection('content_pack');
export const icons = new Collection('icon');
export const library = { packs: [], failures: [] };
export const savedSearches = new Map(); // name -> {disabled}
// hidden per-object metadata (never serialised): key -> {...}
export const meta = new Map();
export const metaOf = (key) => {
  let m = meta.get(key);
  if (!m) {
    m = {};
    meta.set(key, m);
  }
  return m;
};

// Stamp the server-maintained common fields.
export function stamp(doc, ctx, { keepVersion = false } = {}) {
  const m = nowMicros();
  doc._user = ctx.pathUser;
  doc.mod_source = 'REST';
  doc.mod_timestamp = isoWithOffset(m);
  doc.mod_time = modTimeString(m);
  if (!keepVersion || typeof doc._version !== 'string') doc._version = SCHEMA_VERSION;
  if (typeof doc.title === 'string') doc.identifying_name = doc.title.toLowerCase();
  else delete doc.identifying_name;
  return doc;
}
