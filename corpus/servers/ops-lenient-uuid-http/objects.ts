import { type Doc, newKey, nowIso, modTime } from './util.js';
import { GLOBAL_TEAM, type User, coll, creators } from './store.js';

const SCHEMA_VERSION = '4.19.0';

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
export const EXTRA_SUPPORTED = ['entity_relationship', 'entity_relationship_rule'];

/** Set the common fields on a stored object (create or update). */
export function stamp(ns: string, type: string, d: Doc, user: User, isNew: boolean): Doc {
  d.object_type = type;
  d._version = SCHEMA_VERSION;
  if (d._user === undefined) d._user = 'nobody';
  d.mod_source = 'REST';
  d.mod_timestamp = nowIso();
  if (typeof d.title === 'string') d.identifying_name = d.title.toLowerCase();
  if (ns === 'core' && type !== 'team' && d.sec_grp === undefined) d.sec_grp = GLOBAL_TEAM;
  if (type === 'entity') {
    if (isNew || d.create_time === undefined) {
      d.create_time = d.create_time ?? nowIso();
      d.create_by = d.create_by ?? user.name;
      d.create_source = d.create_source ?? 'REST';
    }
    d.mod_time = modTime();
    d.mod_by = user.name;
  }
  return d;
}

export function createObject(ns: string, type: string, body: Doc, user: User, key?: string): Doc {
  const k = key ?? (typeof body._key === 'string' && body._key !== '' ? body._key : newKey());
  const d: Doc = { ...body, _key: k };
  stamp(ns, type, d, user, true);
  coll(`${ns}:${type}`).set(k, d);
  creators.set(k, user.name);
  return d;
}

function objectGroups(d: Doc, type: string): string[] {
  if (type === 'team') return [typeof d._key === 'string' ? d._key : ''];
  if (Array.isArray(d.sec_grp_list) && d.sec_grp_list.length > 0) return d.sec_grp_list.map((x) => String(x));
  if (typeof d.sec_grp === 'string' && d.sec_grp !== '') return [d.sec_grp];
  return [GLOBAL_TEAM];
}

export function canRead(user: User, d: Doc, type: string): boolean {
  if (user.readGlobal) return true;
  if (objectGroups(d, type).some((g) => g !== GLOBAL_TEAM)) return true;
  if (type === 'team') return false;
  const k = typeof d._key === 'string' ? d._key : '';
  return creators.get(k) === user.name;
}
