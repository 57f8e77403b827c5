import { describe, it } from 'vitest';
import { expectCaught, type Expected } from './expect';
import { runOps, transportFailures } from './servers';

/**
 * The documented bugs of the ops servers written from the document (BUGS.md beside each, with the clause each one
 * breaks): each must fail its named requirement, and no MUST beyond the stated collateral. A bug of a list parameter breaks it on
 * every interface that shares the parameter.
 */
const LIST_PARAMETER = ['OPS-EM-LIST-PARAMS', 'OPS-ICON-LIST'];
const SECOND_OPS_BUGS: Record<string, Expected> = {
  'sort-dir-ignored': { named: ['OPS-QUERY-SORT-DIR'], collateral: LIST_PARAMETER },
  'limit-off-by-one': { named: ['OPS-QUERY-LIMIT'], collateral: LIST_PARAMETER },
  'filter-case-insensitive': { named: ['OPS-FILTER-EQUALITY'], collateral: ['OPS-FILTER-NE'] },
  'bulk-delete-ignores-filter': { named: ['OPS-CORE-BULK-DELETE'], collateral: ['OPS-MW-BULK-DELETE', 'OPS-BR-BULK-DELETE'] },
  // Every partial update the checks judge carries the title, so the full replacement it becomes is judged by what it drops.
  'partial-flag-ignored': { named: ['OPS-PARTIAL-MERGE'], collateral: ['OPS-PARTIAL-VALUES', 'OPS-CORE-BULK-UPDATE', 'OPS-CORE-UPDATE', 'OPS-MW-UPDATE'] },
  'replace-skips-required': { named: ['OPS-PARTIAL-REQUIRED-FIELDS'] },
  'retire-keeps-links': { named: ['OPS-ENTITY-RETIRE'], collateral: ['OPS-ENTITY-RETIRE-RETIRABLE'] },
  'template-link-replaces-rules': { named: ['OPS-TEMPLATE-APPEND-RULES'] },
  'linked-kpis-limit-zero': { named: ['OPS-LIMITS-LINKED-KPIS-ZERO'] },
  'cp-install-enabled-default': { named: ['OPS-CP-INSTALL-ENABLED'] },
  'cp-sort-des-ignored': { named: ['OPS-CPA-LIST'] },
  'comment-not-append-only': { named: ['OPS-EM-COMMENTS-APPEND-ONLY'] },
  'maint-count-ignores-access': { named: ['OPS-AUTH-COUNTS'] },
  'default-backup-deletable': { named: ['OPS-BR-DEFAULT-SURVIVES-SINGLE'] },
  // The icon checks find their own icons by category, the read-only user's icon writes among them.
  'icon-category-filter-ignored': { named: ['OPS-ICON-CATEGORY-FILTER'], collateral: ['OPS-ICON-DELETE', 'OPS-AUTH-ACCESS-CHECKS'] },
  'get-by-key-leak': { named: ['OPS-AUTH-RESULTS-READABLE'] },
};

const THIRD_OPS_BUGS: Record<string, Expected> = {
  bad_filter_400: { named: ['OPS-FILTER-INVALID-GET', 'OPS-FILTER-INVALID-DELETE'] },
  sort_dir_inverted: { named: ['OPS-QUERY-SORT-DIR'], collateral: LIST_PARAMETER },
  partial_overwrites: { named: ['OPS-PARTIAL-MERGE'], collateral: ['OPS-CORE-BULK-UPDATE', 'OPS-MW-UPDATE'] },
  full_update_no_title_check: { named: ['OPS-PARTIAL-REQUIRED-FIELDS'] },
  retire_keeps_links: { named: ['OPS-ENTITY-RETIRE'], collateral: ['OPS-ENTITY-RETIRE-RETIRABLE'] },
  default_backup_deletable: { named: ['OPS-BR-DEFAULT-SURVIVES-BULK'] },
  maint_count_all: { named: ['OPS-AUTH-COUNTS'] },
  template_link_replace: { named: ['OPS-TEMPLATE-APPEND-RULES'] },
};

const FOURTH_OPS_BUGS: Record<string, Expected> = {
  sort_dir_inverted: { named: ['OPS-QUERY-SORT-DIR'], collateral: LIST_PARAMETER },
  bad_filter_400: { named: ['OPS-FILTER-INVALID-GET', 'OPS-FILTER-INVALID-DELETE'] },
  partial_overwrites: { named: ['OPS-PARTIAL-MERGE'], collateral: ['OPS-CORE-BULK-UPDATE', 'OPS-MW-UPDATE', 'OPS-BR-UPDATE'] },
  count_ignores_access: { named: ['OPS-AUTH-COUNTS'] },
  default_backup_deletable: { named: ['OPS-BR-DEFAULT-SURVIVES-BULK'] },
  retire_keeps_links: { named: ['OPS-ENTITY-RETIRE'], collateral: ['OPS-ENTITY-RETIRE-RETIRABLE'] },
  cp_fields_counts: { named: ['OPS-CPA-LIST-EXTRA-FIELDS'] },
  linked_kpis_limit_zero: { named: ['OPS-LIMITS-LINKED-KPIS-ZERO'] },
};

const FIFTH_OPS_BUGS: Record<string, Expected> = {
  // Every list that takes sort_dir: the core lists, event management and icons.
  sort_dir_inverted: { named: ['OPS-QUERY-SORT-DIR'], collateral: LIST_PARAMETER },
  partial_overwrites: { named: ['OPS-PARTIAL-MERGE'], collateral: ['OPS-CORE-BULK-UPDATE', 'OPS-MW-UPDATE'] },
  bad_filter_empty: { named: ['OPS-FILTER-INVALID-GET', 'OPS-FILTER-INVALID-DELETE'] },
  mw_count_all: { named: ['OPS-AUTH-COUNTS'] },
  default_backup_bulk_delete: { named: ['OPS-BR-DEFAULT-SURVIVES-BULK'] },
  restore_no_relink: { named: ['OPS-ENTITY-RESTORE'] },
  template_replaces_rules: { named: ['OPS-TEMPLATE-APPEND-RULES'] },
  linked_kpis_limit0_empty: { named: ['OPS-LIMITS-LINKED-KPIS-ZERO'] },
};

const SIXTH_OPS_BUGS: Record<string, Expected> = {
  ctw_stop_no_time: { named: ['OPS-CTW-STOP'] },
  linked_kpis_limit0: { named: ['OPS-LIMITS-LINKED-KPIS-ZERO'] },
  backup_default_bulk_delete: { named: ['OPS-BR-DEFAULT-SURVIVES-BULK'] },
  comment_delete: { named: ['OPS-EM-COMMENTS-APPEND-ONLY'] },
  // The checks of icon deletes and of access find icons by category.
  icon_category_ignored: { named: ['OPS-ICON-CATEGORY-FILTER'], collateral: ['OPS-ICON-DELETE', 'OPS-AUTH-ACCESS-CHECKS'] },
  authoring_fields_counts: { named: ['OPS-CPA-LIST-EXTRA-FIELDS'] },
  install_enabled_default: { named: ['OPS-CP-INSTALL-ENABLED'] },
  maint_count_all: { named: ['OPS-AUTH-COUNTS'] },
};

const SEVENTH_OPS_BUGS: Record<string, Expected> = {
  // Every list that takes sort_dir, the authoring list's asc/des included.
  sort_dir_inverted: { named: ['OPS-QUERY-SORT-DIR'], collateral: [...LIST_PARAMETER, 'OPS-CPA-LIST'] },
  offset_needs_limit: { named: ['OPS-QUERY-OFFSET'] },
  partial_is_full: { named: ['OPS-PARTIAL-MERGE'], collateral: ['OPS-CORE-BULK-UPDATE', 'OPS-MW-UPDATE'] },
  bad_filter_400: { named: ['OPS-FILTER-INVALID-GET', 'OPS-FILTER-INVALID-DELETE'] },
  retire_keeps_links: { named: ['OPS-ENTITY-RETIRE', 'OPS-ENTITY-RETIRE-RETIRABLE'] },
  link_replaces_rules: { named: ['OPS-TEMPLATE-APPEND-RULES'] },
  list_ignores_teams: { named: ['OPS-AUTH-RESULTS-READABLE'] },
  templatize_kbs_rejected: { named: ['OPS-CORE-TEMPLATIZE'] },
};

const NINTH_OPS_BUGS: Record<string, Expected> = {
  bad_filter_400: { named: ['OPS-FILTER-INVALID-GET', 'OPS-FILTER-INVALID-DELETE'] },
  full_update_merges: { named: ['OPS-PARTIAL-DEFAULT'], collateral: ['OPS-PARTIAL-REQUIRED-FIELDS', 'OPS-CORE-BULK-UPDATE', 'OPS-MW-UPDATE', 'OPS-PARTIAL-REPLACE'] },
  sort_dir_inverted: { named: ['OPS-QUERY-SORT-DIR'], collateral: LIST_PARAMETER },
  default_backup_deletable: { named: ['OPS-BR-DEFAULT-SURVIVES-SINGLE'], collateral: ['OPS-BR-DEFAULT-SURVIVES-BULK'] },
  retire_keeps_links: { named: ['OPS-ENTITY-RETIRE', 'OPS-ENTITY-RETIRE-RETIRABLE'] },
  linked_kpis_limit0: { named: ['OPS-LIMITS-LINKED-KPIS-ZERO'] },
  cp_fields_icon: { named: ['OPS-CPA-LIST-EXTRA-FIELDS'] },
  maint_count_all: { named: ['OPS-AUTH-COUNTS'] },
};

// Each run has a server of its own, and several answer after delays: the runs overlap (vitest's maxConcurrency, 5, at
// a time). A server that speaks plain HTTP fails OPS-AUTH-HTTPS in every run besides its bug.
for (const [server, bugs] of [
  ['second', SECOND_OPS_BUGS],
  ['third', THIRD_OPS_BUGS],
  ['fourth', FOURTH_OPS_BUGS],
  ['fifth', FIFTH_OPS_BUGS],
  ['sixth', SIXTH_OPS_BUGS],
  ['seventh', SEVENTH_OPS_BUGS],
  ['ninth', NINTH_OPS_BUGS],
] as const)
  describe.concurrent(`${server} ops server: each documented bug fails its requirement`, () => {
    for (const [bug, want] of Object.entries(bugs))
      it(bug, async () => expectCaught(await runOps(server, bug), { ...want, collateral: [...(want.collateral ?? []), ...transportFailures(server)] }, bug), 120_000);
  });
