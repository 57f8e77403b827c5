import { describe, expect, it } from 'vitest';
import { loadOpsConfig } from '../../../reference-impl/ops/config';
import { opsApi } from '../../ops/index';
import { embeddedOpsTarget } from '../../ops/target';
import { failedIds, runAgainst } from '../harness';
import { expectVerdict } from '../expectation';
import { chosen } from '../changes/selection';
import { opsFaults } from './faults';

describe('ops API suite against the reference implementation', () => {
  it.runIf(chosen.correct('ops'))('passes every requirement it can establish', async () => {
    const report = await runAgainst(opsApi, await embeddedOpsTarget());
    expect(failedIds(report)).toEqual([]);
    expect(report.summary.gate).toBe('pass');
  });
});

describe('ops API suite catches each deliberately broken implementation', () => {
  it('has at least 55 distinct faults', () => {
    expect(new Set(opsFaults.map((f) => f.id)).size).toBe(opsFaults.length);
    expect(opsFaults.length).toBeGreaterThanOrEqual(55);
  });
  it.each(opsFaults.filter((f) => chosen.fault('ops', f)).map((f) => [f.id, f] as const))('%s', async (_, fault) => {
    const config = loadOpsConfig();
    const report = await runAgainst(opsApi, await embeddedOpsTarget((h) => fault.wrap(h, config)), fault.only ? { only: fault.only } : {});
    expectVerdict(report, fault, fault.description);
  });
});
