import { describe, expect, it } from 'vitest';
import { loadOpsConfig } from '../ops/config';
import { loadStacksConfig } from '../stacks/config';

describe('fixture loading', () => {
  it('loads the shipped fixtures', () => {
    expect(loadStacksConfig().users.length).toBeGreaterThan(0);
    expect(loadOpsConfig().users.length).toBeGreaterThan(0);
  });

  it('stops with one line naming what is wrong', () => {
    expect(() => loadOpsConfig({ regexMaxPatternLength: 0 })).toThrow(/^ops config: ops\/regexMaxPatternLength must be >= 1$/);
    expect(() => loadStacksConfig({ versions: [{ buildVersion: '1.0', releaseName: 'x', status: 'unreleased' }] })).toThrow(
      /^stacks config: .*must contain at least 1 valid item/,
    );
    const twin = { name: 'a', apiKey: 'same', allowed: true };
    expect(() => loadStacksConfig({ users: [twin, { ...twin, name: 'b' }] })).toThrow('stacks config: users: apiKey must be unique');
    expect(() => loadOpsConfig({ users: [{ name: 'x', password: 'p', readOnly: 'no' as unknown as boolean }] })).toThrow(
      /readOnly must be boolean/,
    );
  });
});
