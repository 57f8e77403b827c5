/** The object types of the core interface, in the document's order. */
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
] as const;

/** Listed by get_supported_object_types besides the core types; marked as not used. */
export const UNUSED_LISTED_TYPES = ['entity_relationship', 'entity_relationship_rule'] as const;

/**
 * Event-management object types served under `event_management_interface/<object_type>`. The document names
 * `correlation_search` and `notable_event_group` and leaves the full list out; the others are the ones
 * real deployments answer for (comments, tags, aggregation policies).
 */
export const EVENT_TYPES = [
  'notable_event_group',
  'correlation_search',
  'notable_aggregation_policy',
  'notable_event_comment',
  'notable_event_tag',
] as const;

export const MAINTENANCE_TYPE = 'maintenance_calendar';
export const BACKUP_TYPE = 'backup_restore';
export const TICKET_TYPE = 'external_ticket';
export const AUTHORED_PACK_TYPE = 'content_pack';
export const ICON_COLLECTION = 'icon';

const EVENT_FLAVORED = new Set<string>([...EVENT_TYPES, TICKET_TYPE]);

export function flavorOf(type: string): 'core' | 'entity' | 'event' {
  if (type === 'entity') return 'entity';
  return EVENT_FLAVORED.has(type) ? 'event' : 'core';
}
