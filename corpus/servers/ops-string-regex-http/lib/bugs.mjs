// Deliberate defects, all off by default; switched on with env BUG=<name>[,<name>...].
export const BUG_NAMES = [
  'sort_dir_inverted',
  'offset_needs_limit',
  'partial_is_full',
  'bad_filter_400',
  'retire_keeps_links',
  'link_replaces_rules',
  'list_ignores_teams',
  'templatize_kbs_rejected',
];
const active = new Set(
  String(process.env.BUG || '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean),
);
export const bug = (name) => active.has(name);
