import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiDefinition } from '../../core/api';
import { startPrism, type PrismProcess } from '../../core/prism';
import type { Target } from '../../core/types';
import { opsApi } from '../../ops/index';
import { stacksApi } from '../../stacks/index';
import { runAgainst } from '../harness';

/** A second, independent reading of the specs: Prism's mock answers from the examples, and the suite must accept them. */
describe.each([
  [stacksApi, { primary: { role: 'primary', authorization: 'Bearer mock-key', secrets: [] } }],
  [opsApi, { primary: { role: 'primary', authorization: `Basic ${Buffer.from('mock:mock').toString('base64')}`, secrets: [] } }],
] as [ApiDefinition, Target['principals']][])('schema-only checks against the Prism mock of %s', (api, principals) => {
  let prism: PrismProcess;
  beforeAll(async () => {
    prism = await startPrism('mock', api.specFile);
  }, 90_000);
  afterAll(() => prism?.stop());

  it('finds every example answer of the spec valid', async () => {
    const target: Target = {
      api: api.id,
      baseUrl: prism.url,
      embedded: false,
      principals,
      pathDefaults: { user: 'nobody', app: 'SA-ITOA' },
    };
    const report = await runAgainst(api, target, { only: [api.responseCheckId] });
    const ran = report.requirements.filter((q) => q.status === 'passed' || q.status === 'failed');
    expect(ran.length).toBeGreaterThan(3);
    expect(report.requirements.filter((q) => q.status === 'failed').map((q) => `${q.id}: ${q.evidence[0]?.message}`)).toEqual([]);
  }, 90_000);
});
