// Variants (all conforming) and injectable defects (each violating one stated rule)
// of the independent Operations Intelligence Management API implementation.

export interface Profile {
  id: string;
  /** 256 spaces and a newline before every JSON body. */
  pad: boolean;
  /** Python-style JSON text (", " and ": " separators, non-ASCII escaped). */
  pythonJson: boolean;
  errorShape: 'message' | 'legacy-message' | 'error';
  /** Status of a successful generic DELETE, and whether it carries `{}`. */
  deleteStatus: 200 | 204;
  createStatus: 200 | 201;
  /** POST <object_type> with an existing _key updates it (true) or is refused with 409 (false). */
  upsertOnCreate: boolean;
  keyStyle: 'objectid' | 'uuid';
  /** Order of list answers when no sort_key is given. */
  defaultOrder: 'newest-first' | 'insertion';
  unknownPathStatus: 404 | 405;
  methodNotAllowedStatus: 404 | 405;
  contentPackErrorStatus: 404 | 500;
  /** Icon sizes and episode-action flags rendered as numeric strings. */
  numericStrings: boolean;
  commentCreate: 'record' | 'key';
  previewLegacyEntries: boolean;
  installSavedSearches: boolean;
  /** Answer gzip-compressed bodies when the client accepts them. */
  gzip: boolean;
}

const REAL: Profile = {
  id: 'real-product',
  pad: true,
  pythonJson: true,
  errorShape: 'message',
  deleteStatus: 204,
  createStatus: 200,
  upsertOnCreate: true,
  keyStyle: 'objectid',
  defaultOrder: 'newest-first',
  unknownPathStatus: 404,
  methodNotAllowedStatus: 405,
  contentPackErrorStatus: 500,
  numericStrings: false,
  commentCreate: 'record',
  previewLegacyEntries: false,
  installSavedSearches: true,
  gzip: true,
};

const PROFILES: Record<string, Profile> = {
  'real-product': REAL,
  plain: {
    ...REAL,
    id: 'plain',
    pad: false,
    pythonJson: false,
    errorShape: 'error',
    deleteStatus: 200,
    createStatus: 201,
    upsertOnCreate: false,
    keyStyle: 'uuid',
    defaultOrder: 'insertion',
    unknownPathStatus: 404,
    methodNotAllowedStatus: 404,
    contentPackErrorStatus: 404,
    gzip: false,
  },
  'numeric-strings': { ...REAL, id: 'numeric-strings', numericStrings: true },
  'legacy-release': {
    ...REAL,
    id: 'legacy-release',
    errorShape: 'legacy-message',
    keyStyle: 'uuid',
    unknownPathStatus: 405,
    commentCreate: 'key',
    previewLegacyEntries: true,
    installSavedSearches: false,
    gzip: false,
  },
};

export const OPS_VARIANTS: { id: string; description: string }[] = [
  {
    id: 'real-product',
    description:
      'Default. Behaves like current releases: 256 spaces + newline before JSON, Python-style JSON text, {"message"} errors, ' +
      '204 on delete, create with an existing _key updates it, 24-hex keys, newest first when unsorted, content-pack errors 500.',
  },
  {
    id: 'plain',
    description:
      'Minimal web-service style: no padding, compact JSON, {"error"} bodies with 400/403/404/409, 201 on create, 200 {} on delete, ' +
      'create with an existing _key refused with 409, UUID keys, insertion order when unsorted, unknown content pack 404.',
  },
  {
    id: 'numeric-strings',
    description: 'As real-product, but icon sizes come back as numeric strings and episode-action flags as integer-like strings.',
  },
  {
    id: 'legacy-release',
    description:
      'Older release: comment create answers {_key}, error messages in the form "(400, \'...\')", unknown paths 405, UUID keys, ' +
      'content-pack preview entries in the older {id, title, description, installed} form, install result without saved_searches.',
  },
];

export function profileFor(variant: string): Profile {
  const p = PROFILES[variant];
  if (!p) throw new Error(`unknown variant "${variant}" (known: ${Object.keys(PROFILES).join(', ')})`);
  return p;
}

const FILTER_SHAPES = 'Shapes seen: equality `{field: value}`, pattern `{field: {$regex: pattern}}`, and `{field: {$ne: value}}`.';
const FULL_UPDATE =
  'With 0 the payload is the whole object and overwrites the existing object, and the required fields of the schema must be present (for a service, `title`).';
const READ_RESTRICTED = 'Results are restricted to objects the caller can read.';

export const OPS_BUGS: { id: string; clause: string; description: string }[] = [
  { id: 'filter-eq-case-insensitive', clause: FILTER_SHAPES, description: 'Equality filters compare strings case-insensitively.' },
  { id: 'filter-ne-as-eq', clause: FILTER_SHAPES, description: '`$ne` is evaluated as equality.' },
  {
    id: 'filter-regex-prefix',
    clause: FILTER_SHAPES,
    description: '`$regex` only matches at the start of the value (implicitly anchored with ^).',
  },
  {
    id: 'filter-regex-substring',
    clause: FILTER_SHAPES,
    description: '`$regex` is a literal substring test; metacharacters are not interpreted.',
  },
  { id: 'filter-regex-exact', clause: FILTER_SHAPES, description: '`$regex` is evaluated as exact equality with the pattern text.' },
  {
    id: 'delete-filter-ignored',
    clause: 'It uses document-store query syntax.',
    description: 'DELETE <object_type> with a valid filter drops the filter and removes every row of the type.',
  },
  {
    id: 'get-bad-filter-empty',
    clause: 'An incorrect filter makes a GET return all rows of the type.',
    description: 'A GET with an unparsable filter answers an empty array.',
  },
  {
    id: 'delete-bad-filter-noop',
    clause: 'On DELETE it deletes all rows of the type.',
    description: 'A DELETE with an unparsable filter deletes nothing.',
  },
  {
    id: 'limit-default-100',
    clause: 'Listing endpoints return all entries when `limit` (or `count`) is unset.',
    description: 'Lists without limit are cut to the first 100 rows.',
  },
  {
    id: 'offset-ignored',
    clause: 'entries to skip, used for paging',
    description: 'The offset parameter is ignored on core, maintenance and backup lists.',
  },
  { id: 'sort-dir-reversed', clause: '1 ascending, 0 descending', description: 'sort_dir=1 sorts descending and 0 ascending.' },
  { id: 'sort-key-ignored', clause: 'field to sort by', description: 'sort_key is ignored; the default order is kept.' },
  {
    id: 'fields-ignored',
    clause: 'comma-separated field names to return',
    description: 'The fields parameter is ignored; whole objects are returned.',
  },
  {
    id: 'count-ignores-filter',
    clause: '`filter`; absent means all',
    description: 'GET <object_type>/count counts every row of the type regardless of the filter.',
  },
  {
    id: 'count-ignores-access',
    clause: READ_RESTRICTED,
    description: 'Core counts include objects in security groups the caller cannot read.',
  },
  {
    id: 'list-ignores-access',
    clause: READ_RESTRICTED,
    description: 'Core lists include objects in security groups the caller cannot read.',
  },
  {
    id: 'get-ignores-access',
    clause: READ_RESTRICTED,
    description: 'GET <object_type>/<_key> returns objects in security groups the caller cannot read.',
  },
  {
    id: 'partial-update-replaces',
    clause: 'With 1 the payload is a partial update.',
    description: 'is_partial_data=1 replaces the whole object with the payload.',
  },
  {
    id: 'full-update-merges',
    clause: FULL_UPDATE,
    description: 'is_partial_data=0 merges the payload into the stored object instead of replacing it.',
  },
  { id: 'full-update-no-title', clause: FULL_UPDATE, description: 'A full update without the required `title` is accepted.' },
  {
    id: 'bulk-update-ignores-partial',
    clause: 'When `is_partial_data` is accepted it is Boolean (1 or 0) with default 0.',
    description: 'bulk_update always replaces whole objects (without checking required fields), even with is_partial_data=1.',
  },
  {
    id: 'identifying-name-raw',
    clause:
      'Objects commonly carry these fields: `_version` (schema version string), `_user`, `mod_source`, `mod_timestamp`, `identifying_name` (lower-cased title), `sec_grp` (security group/team key; the default group is `default_ops_security_group`) and `title`.',
    description: 'identifying_name is the title as sent, not lower-cased.',
  },
  {
    id: 'create-no-key',
    clause: 'Every object has a `_key` (string identifier, returned by create) and an `object_type`.',
    description: 'POST <object_type> answers {} without the _key.',
  },
  {
    id: 'templatize-any-type',
    clause: 'template dictionary; supported only for `service` and `kpi_base_search`',
    description: 'templatize also answers a template for other object types.',
  },
  {
    id: 'templatize-no-kpi-base-search',
    clause: 'template dictionary; supported only for `service` and `kpi_base_search`',
    description: 'templatize of a kpi_base_search is refused with 400.',
  },
  {
    id: 'template-link-replaces-rules',
    clause: "Linking a service to a template over this API always appends the template's entity rules.",
    description: "Linking a service to a template replaces the service's entity rules instead of appending.",
  },
  {
    id: 'retire-keeps-links',
    clause:
      '`POST entity/retire` retires the listed entities and un-links them from their services; `POST entity/restore` makes retired entities active and re-links them to their services; `POST entity/retire_retirable` retires all entities flagged retirable',
    description: 'Retired entities keep their services links.',
  },
  {
    id: 'restore-no-relink',
    clause:
      '`POST entity/retire` retires the listed entities and un-links them from their services; `POST entity/restore` makes retired entities active and re-links them to their services; `POST entity/retire_retirable` retires all entities flagged retirable',
    description: 'Restored entities stay without services.',
  },
  {
    id: 'retire-retirable-all',
    clause:
      '`POST entity/retire` retires the listed entities and un-links them from their services; `POST entity/restore` makes retired entities active and re-links them to their services; `POST entity/retire_retirable` retires all entities flagged retirable',
    description: 'retire_retirable retires every active entity, flagged or not.',
  },
  {
    id: 'ctw-stop-no-time',
    clause: 'the response is the window with its status set to stopped and `last_stopped_time` set',
    description: 'Stopping a threshold window does not set last_stopped_time.',
  },
  {
    id: 'ctw-stop-stays-active',
    clause: 'the response is the window with its status set to stopped and `last_stopped_time` set',
    description: 'Stopping a threshold window leaves its status at active.',
  },
  {
    id: 'ctw-status-capitalized',
    clause: 'string, lower-case in responses, for example `stopped`',
    description: 'Threshold-window status is answered capitalised (Active, Stopped).',
  },
  {
    id: 'linked-kpis-limit0-empty',
    clause: '`limit=0` on `linked_kpis` also returns all.',
    description: 'linked_kpis with limit=0 answers no KPIs.',
  },
  {
    id: 'cp-install-ignores-content',
    clause: 'install only these objects; when none is given, install everything',
    description: 'Content-pack install ignores `content` and installs every object of the pack.',
  },
  {
    id: 'cp-skip-no-failure',
    clause:
      'Content-pack install reports per-object failures inside a normal result: `failure` entries carry `content_type`, `id`, `title` and `type` (for example `OBJECT_ALREADY_EXISTS`).',
    description: 'With resolution skip, already installed objects are silently skipped (no OBJECT_ALREADY_EXISTS failure).',
  },
  {
    id: 'cp-prefix-ignored',
    clause: 'prefix added to each installed object; default empty string',
    description: 'The install prefix is ignored.',
  },
  {
    id: 'cp-enabled-ignored',
    clause: '1 installs services, correlation searches and aggregation policies enabled; when unset they are installed disabled',
    description: 'Content-pack services are always installed enabled.',
  },
  {
    id: 'cp-refresh-shape',
    clause: '`{success: {apps_added: [string], apps_removed: [string]}, failed: {apps_added: [string], apps_removed: [string]}}`',
    description: 'Refresh answers a flat {apps_added, apps_removed}.',
  },
  {
    id: 'cp-list-array',
    clause: 'The list response is `{success: [content pack], failure: [error info]}`.',
    description: 'The content-pack library list answers a bare array of packs.',
  },
  {
    id: 'authoring-extras-with-fields',
    clause:
      'On the list endpoint, the fields `icon`, `ops_objects_counts`, `platform_objects_counts` are returned only when no `fields` parameter is given.',
    description: 'Authoring list returns icon and *_counts even when fields is given.',
  },
  {
    id: 'authoring-extras-missing',
    clause:
      'On the list endpoint, the fields `icon`, `ops_objects_counts`, `platform_objects_counts` are returned only when no `fields` parameter is given.',
    description: 'Authoring list never returns icon and *_counts.',
  },
  {
    id: 'authoring-search-ignored',
    clause: '`search` (string; matches titles containing it)',
    description: 'Authoring list ignores the search parameter.',
  },
  {
    id: 'comments-mutable',
    clause: 'Episode comments (`notable_event_comment`) are append-only: update and delete are not supported on them.',
    description: 'Episode comments can be updated and deleted.',
  },
  {
    id: 'ticketing-missing-field',
    clause: '`{id, ticket_system, ticket_id, ticket_url}` (all strings, all required; `id` holds the episode identifier(s))',
    description: 'POST ticketing accepts a body with required fields missing.',
  },
  {
    id: 'backup-default-bulk-deletable',
    clause: 'The default scheduled backup cannot be deleted by bulk delete or by single delete.',
    description: 'Bulk delete of backup_restore also removes the default scheduled backup.',
  },
  {
    id: 'backup-default-deletable',
    clause: 'The default scheduled backup cannot be deleted by bulk delete or by single delete.',
    description: 'Single delete of the default scheduled backup succeeds.',
  },
  {
    id: 'maintenance-count-access',
    clause: '`{count: integer}`, counting only windows the caller can read',
    description: 'Maintenance-window count includes windows the caller cannot read.',
  },
  {
    id: 'backup-count-access',
    clause: "Counts of maintenance windows and jobs reflect the caller's access.",
    description: 'Backup/restore job count includes jobs the caller cannot read.',
  },
  {
    id: 'icon-delete-category-overreach',
    clause: '`category` (string; the value `*` deletes all icons)',
    description: 'DELETE icon_collection?category=X deletes the icons of every mutable category.',
  },
  {
    id: 'icon-delete-star-noop',
    clause: '`category` (string; the value `*` deletes all icons)',
    description: 'DELETE icon_collection?category=* deletes nothing (treated as a category literally named *).',
  },
  {
    id: 'icon-immutable-writable',
    clause: 'A category entry is `{name: string, immutable: present when the category cannot be modified}`.',
    description: 'Icons can be added to, and deleted from, immutable categories.',
  },
  {
    id: 'icon-list-array',
    clause: 'The list response is `{total: integer, result: [icon]}`.',
    description: 'The icon list answers a bare array of icons.',
  },
  {
    id: 'vlatest-rejected',
    clause:
      'The version is left out of the path, or `vLatest` follows the interface name: `/servicesNS/<user>/<app>/itoa_interface/vLatest/...`.',
    description: 'Paths with vLatest after the interface name answer 404.',
  },
];

export function checkBugs(bugs: string[]): Set<string> {
  const known = new Set(OPS_BUGS.map((b) => b.id));
  for (const b of bugs) if (!known.has(b)) throw new Error(`unknown bug "${b}"`);
  return new Set(bugs);
}
