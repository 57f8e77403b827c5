import { describe, expect, it } from 'vitest';
import { loadOpsConfig } from '../../../reference-impl/ops/config';
import { loadStacksConfig } from '../../../reference-impl/stacks/config';
import { opsApi } from '../../ops/index';
import { embeddedOpsTarget } from '../../ops/target';
import { stacksApi } from '../../stacks/index';
import { embeddedStacksTarget } from '../../stacks/target';
import { runAgainst } from '../harness';
import { expectVerdict } from '../expectation';
import { chosen } from '../changes/selection';
import { opsVariants } from './ops';
import { stacksVariants } from './stacks';

describe('correct implementations that choose differently where the document is silent all pass', () => {
  it.each(stacksVariants.filter(() => chosen.correct('stacks')).map((v) => [v.id, v] as const))('stacks: %s', async (_, v) => {
    const config = loadStacksConfig(v.config);
    const target = await embeddedStacksTarget((h) => (v.wrap ? v.wrap(h, config) : h), v.config);
    const report = await runAgainst(stacksApi, target, v.settings);
    expectVerdict(report, v, v.description, { noOtherWarnings: true });
    // The one variant that leaves requirements untested does so by never reaching RUNNING: it says so.
    for (const id of v.untested ?? [])
      expect(report.requirements.find((r) => r.id === id)?.reason, id).toMatch(/did not become RUNNING within 5 s.*last state CREATING/);
  });
  it.each(opsVariants.filter(() => chosen.correct('ops')).map((v) => [v.id, v] as const))('ops: %s', async (_, v) => {
    const config = loadOpsConfig(v.config);
    const report = await runAgainst(opsApi, await embeddedOpsTarget((h) => (v.wrap ? v.wrap(h, config) : h), v.config));
    expectVerdict(report, v, v.description, { noOtherWarnings: true });
  });
});
