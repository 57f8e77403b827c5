import { describe, expect, it } from 'vitest';
import { loadOpsConfig } from '../../../reference-impl/ops/config';
import { loadStacksConfig } from '../../../reference-impl/stacks/config';
import { opsApi } from '../../ops/index';
import { embeddedOpsTarget } from '../../ops/target';
import { stacksApi } from '../../stacks/index';
import { embeddedStacksTarget } from '../../stacks/target';
import { runAgainst } from '../harness';
import { opsVariants } from './ops';
import { stacksVariants } from './stacks';

const failures = (r: Awaited<ReturnType<typeof runAgainst>>) => r.requirements.filter((q) => q.status === 'failed').map((q) => `${q.id}: ${q.evidence[0]?.message}`);

describe('correct implementations that choose differently where the document is silent all pass', () => {
  it.each(stacksVariants.map((v) => [v.id, v] as const))('stacks: %s', async (_, v) => {
    const config = loadStacksConfig(v.config);
    const report = await runAgainst(stacksApi, await embeddedStacksTarget((h) => (v.wrap ? v.wrap(h, config) : h), v.config));
    expect(failures(report), v.description).toEqual([]);
    for (const id of v.untested ?? []) {
      const q = report.requirements.find((r) => r.id === id)!;
      expect(q.status, id).toBe('untested');
      expect(q.reason, id).toMatch(/did not become RUNNING within 5 s.*last state CREATING/);
    }
  });
  it.each(opsVariants.map((v) => [v.id, v] as const))('ops: %s', async (_, v) => {
    const config = loadOpsConfig(v.config);
    const report = await runAgainst(opsApi, await embeddedOpsTarget((h) => (v.wrap ? v.wrap(h, config) : h), v.config));
    expect(failures(report), v.description).toEqual([]);
  });
});
