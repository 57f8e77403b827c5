// Deliberate bugs, switched on with env BUG=<name>[,<name>...]. All off by default. See BUGS.md.
export const KNOWN_BUGS = [
  'bad_filter_400',
  'full_update_merges',
  'sort_dir_inverted',
  'default_backup_deletable',
  'retire_keeps_links',
  'linked_kpis_limit0',
  'cp_fields_icon',
  'maint_count_all',
];
const enabled = new Set(
  String(process.env.BUG || '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean),
);
export const bug = (name) => enabled.has(name);
export const enabledBugs = () => [...enabled];
