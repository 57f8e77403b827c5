import { describe, expect, it } from 'vitest';
import { loadStacksConfig } from '../../../reference-impl/stacks/config';
import { stacksApi } from '../../stacks/index';
import { embeddedStacksTarget } from '../../stacks/target';
import { failedIds, runAgainst } from '../harness';
import { expectVerdict } from '../expectation';
import { chosen } from '../changes/selection';
import { stacksFaults } from './faults';

describe('stack API suite against the reference implementation', () => {
  it.runIf(chosen.correct('stacks'))('passes every MUST and SHOULD requirement it can establish', async () => {
    const report = await runAgainst(stacksApi, await embeddedStacksTarget());
    expect(failedIds(report)).toEqual([]);
    expect(report.summary.gate).toBe('pass');
    // Statements about the interface description and about clients: no answer of a server can show them.
    const untestedMust = report.requirements.filter((q) => q.level === 'MUST' && q.status !== 'passed').map((q) => q.id);
    expect(untestedMust).toEqual(['STK-VERSION-LABEL', 'STK-ERR-CODES-EXTENSIBLE']);
  });
});

describe('stack API suite catches each deliberately broken implementation', () => {
  it('has at least 15 distinct faults', () => {
    expect(new Set(stacksFaults.map((f) => f.id)).size).toBeGreaterThanOrEqual(15);
  });
  it.each(stacksFaults.filter((f) => chosen.fault('stacks', f)).map((f) => [f.id, f] as const))('%s', async (_, fault) => {
    const config = loadStacksConfig();
    const report = await runAgainst(stacksApi, await embeddedStacksTarget((h) => fault.wrap(h, config)));
    expectVerdict(report, fault, fault.description);
    expect(report.summary.gate).toBe('fail');
  });
});
