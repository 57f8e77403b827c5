import { describe, expect, it } from 'vitest';
import { APIS } from '../../apis';

// The scheduler's figures are generated (`npm run bench -- --only durations`) and only order the start of checks: a
// check added since is scheduled as the median, so adding one fails nothing; an entry naming no check of the registry
// (one renamed or removed) is stale and fails, as the table no longer describes the registry.
describe.each(APIS.map((a) => [a.id, a] as const))('%s durations', (_, api) => {
  it('name only checks of the registry', () => {
    const ids = new Set(api.checks.map((c) => c.id));
    expect(
      Object.keys(api.durations ?? {}).filter((id) => !ids.has(id)),
      'regenerate with: npm run bench -- --only durations',
    ).toEqual([]);
  });
});
