import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { CheckContext } from '../../core/check';
import { checkProperty, Violation } from '../../core/property';

/** Just what checkProperty records through. */
function recorder() {
  const records: { requirement: string; ok: boolean | 'untested'; message: string; details?: unknown }[] = [];
  const ctx = {
    options: { seed: 7, runs: 12 },
    assert: (requirement: string, ok: boolean, message: string, _ex?: unknown, _facts?: unknown, details?: unknown) => (
      records.push({ requirement, ok, message, details }), ok
    ),
    untested: (requirement: string, message: string) => records.push({ requirement, ok: 'untested', message }),
    traffic: { mark: () => 0, since: () => [] },
  } as unknown as CheckContext;
  return { ctx, records };
}

describe('checkProperty with cases sent together', () => {
  it('passes when every case holds, having run them all at once', async () => {
    const { ctx, records } = recorder();
    let inFlight = 0;
    let most = 0;
    const property = fc.asyncProperty(fc.integer(), async () => {
      most = Math.max(most, ++inFlight);
      await new Promise((r) => setTimeout(r, 5));
      inFlight--;
    });
    expect(await checkProperty(ctx, 'R', 'reads', property, { concurrent: true, examples: [[1]] })).toBe(true);
    expect(most).toBe(13);
    expect(records).toEqual([{ requirement: 'R', ok: true, message: 'reads: held for 13 generated cases (seed 7)', details: undefined }]);
  });

  it('fails with the shrunk counterexample and its replay, found again one case at a time', async () => {
    const { ctx, records } = recorder();
    const property = fc.asyncProperty(fc.integer({ min: 0, max: 1000 }), async (n) => {
      if (n >= 10) throw new Violation(`${n} is too big`, 'R');
    });
    expect(await checkProperty(ctx, 'R', 'reads', property, { concurrent: true, runs: 50 })).toBe(false);
    expect(records).toHaveLength(1);
    expect(records[0].ok).toBe(false);
    expect(records[0].message).toMatch(
      /^reads: 10 is too big — minimal counterexample \[10\]; replay with CONFORMANCE_SEED=7 CONFORMANCE_PATH=/,
    );
    expect(records[0].details).toMatchObject({ seed: 7, counterexample: '[10]' });
  });
});
