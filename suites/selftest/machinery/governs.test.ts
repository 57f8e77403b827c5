import { describe, expect, it } from 'vitest';
import type { ApiDefinition } from '../../core/api';
import { notReached, reachText } from '../../core/reach';
import type { ComplianceReport } from '../../core/report/model';
import type { Target } from '../../core/types';
import { opsApi } from '../../ops/index';
import { embeddedOpsTarget } from '../../ops/target';
import { stacksApi } from '../../stacks/index';
import { embeddedStacksTarget } from '../../stacks/target';
import { runAgainst } from '../harness';

/** Each MUST requirement with a `governs` list, and what of it the run's assertions left out. */
const gaps = (report: ComplianceReport) =>
  report.requirements
    .filter((q) => q.level === 'MUST' && q.governs?.length)
    .map((q) => ({ id: q.id, missing: notReached(q.governs!, q.reached ?? []), reached: (q.reached ?? []).map(reachText) }))
    .filter((g) => g.missing.length);

const APIS: [string, ApiDefinition, () => Promise<Target>][] = [
  ['ops', opsApi, () => embeddedOpsTarget()],
  ['stacks', stacksApi, () => embeddedStacksTarget()],
];

/**
 * Where a clause applies is data (`governs` in the catalogue, read from the document): a requirement whose checks
 * judge it on one endpoint, one parameter or one path form where the document states it for more fails here, against
 * the embedded implementation, whatever the corpus says.
 */
describe('every MUST requirement is judged everywhere the document applies it', () => {
  it.each(APIS)('%s', async (_, api, target) => {
    const report = await runAgainst(api, await target());
    expect(gaps(report), 'governed operations, parameters or path forms no assertion reached').toEqual([]);
  });
});
