// Field lists of the object schemas this server knows. Create and partial update keep only these
// fields; a full update (is_partial_data=0) writes every field it is given.
import { isPlainObject } from './http.mjs';

const COMMON = [
  '_key',
  'object_type',
  '_version',
  '_user',
  '_owner',
  '_type',
  'mod_source',
  'mod_timestamp',
  'mod_time',
  'mod_by',
  'create_by',
  'create_source',
  'create_time',
  'identifying_name',
  'sec_grp',
  'title',
  'description',
  'permissions',
  'acl',
  'objectType',
];

const KPI_HOLDER = [
  'kpis',
  'entity_rules',
  'services_depends_on',
  'tags',
  'service_tags',
  'enabled',
  'serviceTemplateId',
  'service_template_id',
];

const PER_TYPE = {
  team: ['members', 'roles'],
  entity: ['identifier', 'informational', 'services', 'retirable', 'entity_type_ids', 'entity_types', 'status', 'retired'],
  service: [
    ...KPI_HOLDER,
    'base_service_template_id',
    'is_healthscore_calculate_by_entity_enabled',
    'backfill_enabled',
    'algorithms',
    'isFirstTimeSaveDone',
    'sec_grp_list',
    'content_pack_id',
  ],
  base_service_template: [...KPI_HOLDER, 'linked_services', 'total_linked_services', 'kpi_ids'],
  kpi_base_search: [
    'actions',
    'alert_lag',
    'alert_period',
    'base_search',
    'entity_alias_filtering_fields',
    'entity_breakdown_id_fields',
    'entity_id_fields',
    'is_entity_breakdown',
    'is_service_entity_filter',
    'metric_qualifier',
    'metrics',
    'search_alert_earliest',
    'source_ops_da',
  ],
  deep_dive: ['lane_settings_collection', 'earliest_time', 'latest_time', 'is_named', 'focus_id', 'acl'],
  glass_table: ['content', 'definition', 'svg_content', 'svg_coordinates', 'layout', 'latest', 'earliest', 'gt_version', 'gt_thumbnail'],
  home_view: ['view_config', 'service_ids', 'layout', 'is_default'],
  kpi_template: ['kpis', 'source_ops_da'],
  kpi_threshold_template: [
    'adaptive_thresholding_training_window',
    'adaptive_thresholds_is_enabled',
    'time_variate_thresholds',
    'time_variate_thresholds_specification',
  ],
  event_management_state: ['viewingOption', 'columns', 'filter', 'sortBy', 'sortOrder', 'earliest', 'latest', 'name'],
  entity_filter_rule: ['entity_rules', 'service_id'],
  entity_type: ['dashboard_drilldowns', 'data_drilldowns', 'vital_metrics'],
  entity_relationship: ['subject_identifier', 'object_identifier', 'predicate'],
  entity_relationship_rule: ['subject_identifier', 'object_identifier', 'predicate', 'rule'],
  custom_threshold_windows: [
    'pause_description',
    'status',
    'window_type',
    'window_config_percentage',
    'window_config_static',
    'start_time',
    'end_time',
    'last_stopped_time',
    'next_scheduled_time',
    'cron_schedule',
    'duration',
    'recurrence',
    'is_overlapping',
    'overlapping_kpis',
    'linked_services',
    'sec_grp_list',
    'can_view',
    'can_link',
    'can_edit',
    'can_transition',
  ],
  maintenance_calendar: ['start_time', 'end_time', 'objects', 'sec_grp_list', 'comment', 'status', 'can_edit'],
  backup_restore: [
    'job_type',
    'status',
    'start_time',
    'end_time',
    'last_queued_time',
    'path',
    'search_head_id',
    'platform_server',
    'rules',
    'last_error',
    'scheduled',
    'frequency',
    'enabled',
    'backup_type',
  ],
  content_pack: ['overview', 'cp_version', 'metadata', 'ops_objects', 'platform_objects', 'user_selected_objects', 'status'],
};

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

export const EXTRA_TYPES = ['entity_relationship', 'entity_relationship_rule'];

const sets = new Map(Object.entries(PER_TYPE).map(([t, f]) => [t, new Set([...COMMON, ...f])]));

/** Entities also hold one array per alias or informational field name. */
function entityFieldNames(obj) {
  const names = new Set();
  for (const part of ['identifier', 'informational']) {
    const f = isPlainObject(obj?.[part]) ? obj[part].fields : undefined;
    if (Array.isArray(f)) for (const n of f) names.add(String(n));
  }
  return names;
}

function inSchema(type, name, obj) {
  const set = sets.get(type);
  if (!set) return true;
  if (set.has(name)) return true;
  if (type === 'entity' && entityFieldNames(obj).has(name)) return true;
  return false;
}

/** Keeps the schema fields of body; `context` supplies alias names for entities. */
export function keepSchemaFields(type, body, context = body) {
  const out = {};
  for (const [k, v] of Object.entries(body)) if (inSchema(type, k, context)) out[k] = v;
  return out;
}

/** Required fields for a full update (is_partial_data=0). */
export function requiredFields(type) {
  if (type === 'backup_restore' || type === 'maintenance_calendar' || sets.has(type)) return ['title'];
  return [];
}
