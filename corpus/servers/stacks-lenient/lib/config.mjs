// Static configuration: seeded keys, versions, limits and timings.

export const USERS = [
  { key: 'lk_first_5e1a', user: 'first', allowed: true },
  { key: 'lk_second_9c4b', user: 'second', allowed: true },
  { key: 'lk_outsider_03d7', user: 'outsider', allowed: false },
];

// Listed oldest first.
export const VERSIONS = [
  { buildVersion: '9.1.7', releaseName: 'Narwhal', status: 'released' },
  { buildVersion: '9.2.4', releaseName: 'Ocelot', status: 'released' },
  { buildVersion: '9.3.1', releaseName: 'Pelican', status: 'released' },
  { buildVersion: '9.3.2', releaseName: 'Pelican', status: 'released' },
  { buildVersion: '9.4.0', releaseName: 'Quokka', status: 'unreleased' },
];

export const MAX_STACKS_PER_USER = 3;

const lifetimeSeconds = Number.parseInt(process.env.STACK_LIFETIME_SECONDS ?? '', 10);
export const LIFETIME_MS = (Number.isFinite(lifetimeSeconds) && lifetimeSeconds > 0 ? lifetimeSeconds : 45 * 60) * 1000;

export const PROVISION_MIN_MS = 1000;
export const PROVISION_MAX_MS = 3000;
// TEARDOWN_SECONDS shortens how long a deleted stack stays visible (default 15 s), so test runs need not wait it out.
const teardownSeconds = Number.parseInt(process.env.TEARDOWN_SECONDS ?? '', 10);
export const DELETE_VISIBLE_MS = (Number.isFinite(teardownSeconds) && teardownSeconds >= 0 ? teardownSeconds : 15) * 1000;
export const HIDDEN_COUNTED_MS = 10000;
export const STOPPING_MS = 3000;
export const RESPONSE_DELAY_MAX_MS = 30;
export const MAX_BODY_BYTES = 1024 * 1024;

export const KNOWN_BUGS = [
  'cross-user-list',
  'cross-user-get',
  'cross-user-delete',
  'quota-not-enforced',
  'quota-status-429',
  'deleted-listed-forever',
  'default-not-latest',
  'access-before-running',
  'missing-auth-accepted',
  'outsider-allowed',
  'create-returns-201',
  'delete-returns-200',
  'unknown-version-accepted',
  'malformed-body-500',
  'missing-termination-date',
  'not-found-wrong-code',
  'versions-missing-status',
];

export const KNOWN_VARIANTS = ['hidden-counted'];

const bugSet = new Set(
  (process.env.BUG ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean),
);
for (const name of bugSet) {
  if (!KNOWN_BUGS.includes(name)) {
    process.stderr.write(`unknown bug name ignored: ${name}\n`);
  }
}
export const bug = (name) => bugSet.has(name);

export const VARIANT = (process.env.VARIANT ?? '').trim();
if (VARIANT && !KNOWN_VARIANTS.includes(VARIANT)) {
  process.stderr.write(`unknown variant ignored: ${VARIANT}\n`);
}
export const hiddenCounted = VARIANT === 'hidden-counted';
