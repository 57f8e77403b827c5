import { describe, expect, it } from 'vitest';
import { loadStacksConfig } from '../../../reference-impl/stacks/config';
import { runConformance } from '../../core/conformance';
import { stacksApi } from '../../stacks/index';
import { embeddedStacksTarget } from '../../stacks/target';
import { selftestSettings } from '../harness';
import { stacksFaults } from '../stacks/faults';

/** --via-prism-proxy: a second validator sees every answer, and the two agree on what is wrong. */
describe('running through prism proxy', () => {
  it('agrees with Prism on every answer of a broken server, and both see the schema fault', async () => {
    const fault = stacksFaults.find((f) => f.id === 'summary-without-termination-date')!;
    const { report } = await runConformance({
      settings: selftestSettings('stacks', { viaPrismProxy: true, runs: 3 }),
      apis: [stacksApi],
      targets: { stacks: await embeddedStacksTarget((h) => fault.wrap(h, loadStacksConfig())) },
      tool: { name: 'api-conformance', version: 'test' },
      write: false,
    });
    const cc = report.apis[0].crossCheck!;
    expect(cc.exchanges).toBeGreaterThan(100);
    expect(cc.prismOnly).toEqual([]);
    expect(cc.suiteOnly).toEqual([]);
    expect(report.requirements.find((q) => q.id === 'STK-SCHEMA-SUMMARY')?.status).toBe('failed');
  }, 120_000);
});
