// Deliberate bugs, switched on by env BUG=<name>[,<name>...]. All off by default.
const KNOWN = new Set([
  'ctw_stop_no_time',
  'linked_kpis_limit0',
  'backup_default_bulk_delete',
  'comment_delete',
  'icon_category_ignored',
  'authoring_fields_counts',
  'install_enabled_default',
  'maint_count_all',
]);
const active = new Set(
  String(process.env.BUG || '')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => KNOWN.has(s)),
);
export const bug = (name) => active.has(name);
export const activeBugs = () => [...active];
