import { describe, expect, it } from 'vitest';
import { attemptTag, checkTag, isRunTitle } from '../../core/run-tag';

describe('run tags', () => {
  it("tell a title a check gave, in any attempt, from a deployment's own", () => {
    const tag = checkTag('cfabc123', 20);
    for (const attempt of [1, 2, 3]) expect(isRunTitle(`${attemptTag(tag, attempt)} filter 0`)).toBe(true);
    for (const own of ['Web Storefront', 'cfabc123c020', 'cfabc123c02 x', 'svc c1234 x']) expect(isRunTitle(own)).toBe(false);
  });
});
