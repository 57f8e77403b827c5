import { describe, expect, it } from 'vitest';
import { APIS } from '../../apis';

// The scheduler's figures are generated (`npm run bench -- --only durations`): a check added or renamed since is
// scheduled as the median, so the table is regenerated when the registry changes.
describe.each(APIS.map((a) => [a.id, a] as const))('%s durations', (_, api) => {
  it('name every check of the registry and nothing else', () => {
    const ids = api.checks.map((c) => c.id).sort();
    expect(Object.keys(api.durations ?? {}).sort(), 'regenerate with: npm run bench -- --only durations').toEqual(ids);
  });
});
