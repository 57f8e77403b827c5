import { describe, expect, it } from 'vitest';
import { loadOpsConfig } from '../../../reference-impl/ops/config';
import { loadStacksConfig } from '../../../reference-impl/stacks/config';
import { opsApi } from '../../ops/index';
import { embeddedOpsTarget } from '../../ops/target';
import { stacksApi } from '../../stacks/index';
import { embeddedStacksTarget } from '../../stacks/target';
import { runAgainst } from '../harness';
import { chosen } from '../changes/selection';
import { opsVariants } from './ops';
import { stacksVariants } from './stacks';

type Report = Awaited<ReturnType<typeof runAgainst>>;
const failures = (r: Report, warns: string[] = []) =>
  r.requirements
    .filter((q) => (q.status === 'failed' || q.status === 'error') && !warns.includes(q.id))
    .map((q) => `${q.id}: ${q.evidence[0]?.message}`);
/** A departure from a SHOULD is a warning: failed, at level SHOULD, and the gate still passes. */
const expectWarnings = (r: Report, warns: string[] = []) => {
  for (const id of warns)
    expect(
      r.requirements.find((q) => q.id === id),
      id,
    ).toMatchObject({ level: 'SHOULD', status: 'failed' });
  expect(r.summary.gate).toBe('pass');
};

describe('correct implementations that choose differently where the document is silent all pass', () => {
  it.each(stacksVariants.filter(() => chosen.correct('stacks')).map((v) => [v.id, v] as const))('stacks: %s', async (_, v) => {
    const config = loadStacksConfig(v.config);
    const target = await embeddedStacksTarget((h) => (v.wrap ? v.wrap(h, config) : h), v.config);
    const report = await runAgainst(stacksApi, target, v.settings);
    expect(failures(report, v.warns), v.description).toEqual([]);
    expectWarnings(report, v.warns);
    for (const id of v.passes ?? []) expect(report.requirements.find((q) => q.id === id)?.status, id).toBe('passed');
    for (const id of v.untested ?? []) {
      const q = report.requirements.find((r) => r.id === id)!;
      expect(q.status, id).toBe('untested');
      expect(q.reason, id).toMatch(/did not become RUNNING within 5 s.*last state CREATING/);
    }
  });
  it.each(opsVariants.filter(() => chosen.correct('ops')).map((v) => [v.id, v] as const))('ops: %s', async (_, v) => {
    const config = loadOpsConfig(v.config);
    const report = await runAgainst(opsApi, await embeddedOpsTarget((h) => (v.wrap ? v.wrap(h, config) : h), v.config));
    expect(failures(report, v.warns), v.description).toEqual([]);
    expectWarnings(report, v.warns);
  });
});
