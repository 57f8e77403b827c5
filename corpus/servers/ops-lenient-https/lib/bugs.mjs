// Documented bugs, switched on by BUG=<name>[,<name>...]. All are off by default.
export const KNOWN_BUGS = [
  'sort-dir-inverted',
  'limit-off-by-one',
  'default-limit-ten',
  'offset-ignored',
  'fields-ignored',
  'partial-update-overwrites',
  'full-update-drops-custom-fields',
  'full-update-no-required',
  'bad-filter-rejected',
  'bad-filter-deletes-nothing',
  'count-filter-ignored',
  'count-ignores-access',
  'backup-count-ignores-access',
  'list-ignores-access',
  'viewer-can-write',
  'default-backup-deletable',
  'retire-keeps-links',
  'restore-no-relink',
  'template-link-replaces-rules',
  'template-link-no-global-check',
  'templatize-any-type',
  'comment-editable',
  'linked-kpis-limit-zero-empty',
  'stop-no-timestamp',
  'ctw-status-as-stored',
  'install-ignores-prefix',
  'install-skip-overwrites',
  'install-enabled-by-default',
  'cp-list-fields-keeps-counts',
  'cp-search-prefix-only',
  'em-skip-ignored',
  'icon-star-literal',
  'icon-category-ignored',
];

const active = new Set(
  (process.env.BUG || '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean),
);

for (const name of active) {
  if (!KNOWN_BUGS.includes(name)) process.stderr.write(`unknown bug switch ignored: ${name}\n`);
}

export function bug(name) {
  return active.has(name);
}
