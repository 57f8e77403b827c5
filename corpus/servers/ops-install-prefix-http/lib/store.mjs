// In-memory state.
import { SCHEMA_VERSION, GLOBAL, isoOffset, titleToIdentifying } from './util.mjs';

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
export const UNUSED_CORE_TYPES = ['entity_relationship', 'entity_relationship_rule'];
export const EVENT_TYPES = [
  'notable_event_group',
  'correlation_search',
  'notable_aggregation_policy',
  'notable_event_comment',
  'notable_event_tag',
  'notable_event',
];

export const db = {
  core: Object.fromEntries([...CORE_TYPES, ...UNUSED_CORE_TYPES].map((t) => [t, new Map()])),
  event: Object.fromEntries(EVENT_TYPES.map((t) => [t, new Map()])),
  tickets: new Map(), // external_ticket links
  maint: new Map(), // maintenance_calendar
  backup: new Map(), // backup_restore
  icons: new Map(),
  iconCategories: [], // built-in immutable category names
  cpLibrary: new Map(), // "<id>@<version>" -> library entry (with hidden _objects)
  cpLoadFailures: [],
  cpLocalApps: new Map(), // app name -> library entries available on disk (for refresh)
  cpInstalled: new Map(), // pack id -> Set(version)
  installRecords: new Map(), // "<object_type>:<_key>" -> {pack, version, prefix}
  savedSearches: new Map(), // name -> {name, disabled, pack}
  cpAuthoring: new Map(),
};

// Stamp the common fields on a stored object.
export function stamp(obj, objectType, user) {
  obj.object_type = objectType;
  obj._version = SCHEMA_VERSION;
  obj._user = 'nobody';
  obj.mod_source = 'REST';
  obj.mod_timestamp = isoOffset();
  if (typeof obj.title === 'string') obj.identifying_name = titleToIdentifying(obj.title);
  if (user) obj.mod_by = user.name;
  return obj;
}

export const teamOf = (o) => (o && typeof o.sec_grp === 'string' && o.sec_grp ? o.sec_grp : GLOBAL);
