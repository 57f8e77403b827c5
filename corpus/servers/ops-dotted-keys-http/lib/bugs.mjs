// Deliberate defects, switched on with env BUG=<name>[,<name>...]. See BUGS.md.
export const KNOWN_BUGS = [
  'sort_dir_inverted',
  'bad_filter_400',
  'partial_overwrites',
  'count_ignores_access',
  'default_backup_deletable',
  'retire_keeps_links',
  'cp_fields_counts',
  'linked_kpis_limit_zero',
];
const active = new Set(
  String(process.env.BUG || '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean),
);
export const bug = (name) => active.has(name);
export const activeBugs = () => [...active];
