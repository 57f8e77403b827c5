// Field lists of each object type's schema (used for partial updates, which write only schema fields)
// and the required fields checked on full writes.
const COMMON = [
  '_key',
  'object_type',
  '_version',
  '_user',
  '_owner',
  'mod_source',
  'mod_timestamp',
  'mod_time',
  'mod_by',
  'create_time',
  'create_by',
  'create_source',
  'identifying_name',
  'sec_grp',
  'title',
  'description',
  'acl',
  'permissions',
  '_immutable',
  'source_itsi_da',
];

const KPI_LIKE = [
  'kpis',
  'entity_rules',
  'services_depends_on',
  'service_tags',
  'tags',
  'enabled',
  'backfill_enabled',
  'is_healthscore_calculate_by_entity_enabled',
  'algorithms',
  'isFirstTimeSaveDone',
  'serviceTemplateId',
  'service_template_id',
  'base_service_template_id',
  'content_pack_id',
  'health_score',
  'services_depending_on_me',
];

export const SCHEMA = {
  team: ['acl', 'parent_sec_grp'],
  entity: ['identifier', 'informational', 'services', '_type', 'retirable', 'entity_type_ids', 'entity_types', 'cloud', 'status'],
  service: KPI_LIKE,
  base_service_template: [...KPI_LIKE, 'linked_services', 'total_linked_services', 'last_sync_error', 'sync_status', 'template_version'],
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
    'objectType',
    'search_alert_earliest',
    'sec_grp',
    'source_itsi_da',
  ],
  kpi_threshold_template: [
    'adaptive_thresholding_training_window',
    'adaptive_thresholds_is_enabled',
    'objectType',
    'time_variate_thresholds',
    'time_variate_thresholds_specification',
    'kpi_thresholds_template_type',
  ],
  deep_dive: ['lane_settings_collection', 'focus_id', 'earliest_time', 'latest_time', 'is_named', 'acl_mode'],
  glass_table: ['content', 'svg_content', 'layout', 'definition', 'latest', 'earliest', 'gt_version', 'is_template'],
  home_view: ['tiles', 'layout', 'filter', 'service_filter', 'is_default'],
  kpi_template: ['kpis', 'template_type'],
  event_management_state: ['viewingOption', 'columns', 'filters', 'sort', 'view_type', 'is_default'],
  entity_filter_rule: ['rules', 'entity_type_ids'],
  entity_type: ['dashboard_drilldowns', 'data_drilldowns', 'vital_metrics'],
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
  ],
  entity_relationship: ['subject_identifier', 'object_identifier', 'predicate'],
  entity_relationship_rule: ['rules', 'predicate', 'subject_type', 'object_type_rule'],
  maintenance_calendar: ['start_time', 'end_time', 'objects', 'sec_grp_list', '_owner', 'comment'],
  operative_maintenance_log: ['start_time', 'end_time', 'maintenance_object_type', 'maintenance_object_key', 'maintenance_calendar_key', 'sec_grp_list', '_owner'],
  backup_restore: [
    'job_type',
    'status',
    'create_time',
    'start_time',
    'end_time',
    'last_queued_time',
    'path',
    'search_head_id',
    'platform_server',
    'rules',
    'last_error',
    '_owner',
    'scheduled',
    'frequency',
    'scheduled_time',
    'include_conf_files',
    'backup_retention_count',
    'is_default',
  ],
  correlation_search: ['search', 'disabled', 'cron_schedule', 'severity', 'rule_title', 'rule_description', 'drilldown_search', 'name', 'earliest_time', 'latest_time'],
  notable_event_group: ['status', 'severity', 'owner', 'event_id', 'drilldown', 'service_ids', 'policy_id', 'is_active', 'start_time', 'last_time'],
  notable_aggregation_policy: ['disabled', 'filter_criteria', 'breaking_criteria', 'group_title', 'group_severity', 'group_status', 'group_assignee', 'rules', 'split_by_field', 'priority'],
  notable_event_comment: ['comment', 'event_id', 'user', 'owner', 'is_group'],
  notable_event_tag: ['tag_name', 'event_id', 'user', 'owner', 'is_group'],
};

export function schemaFields(type, obj) {
  const set = new Set([...COMMON, ...(Object.hasOwn(SCHEMA, type) ? SCHEMA[type] : [])]);
  if (type === 'entity' && obj) {
    // Alias and informational fields are part of an entity's schema: one array per field name.
    for (const part of ['identifier', 'informational']) {
      const f = obj[part];
      if (f && Array.isArray(f.fields)) for (const n of f.fields) if (typeof n === 'string') set.add(n);
    }
  }
  return set;
}

export const REQUIRED = {
  maintenance_calendar: ['title', 'start_time', 'end_time'],
  operative_maintenance_log: ['title'],
  backup_restore: ['title'],
  notable_event_comment: ['comment', 'event_id'],
  notable_event_tag: ['tag_name', 'event_id'],
};
export const requiredFields = (type) => (Object.hasOwn(REQUIRED, type) ? REQUIRED[type] : ['title']);
