import { describe, expect, it } from 'vitest';
import type { Check } from '../../core/check';
import { runConformance } from '../../core/conformance';
import type { ProgressEvent } from '../../core/runner';
import { opsApi } from '../../ops/index';
import { selftestSettings } from '../harness';

/** A check re-runs only for a failed MUST: a SHOULD only warns, and against a deployment each re-run costs requests. */
let runs = { warns: 0, flaky: 0 };

const warns: Check = {
  id: 'selftest.warns',
  title: 'misses a SHOULD every time',
  requirements: ['OPS-CPA-FIELDS'],
  async run(ctx) {
    runs.warns++;
    ctx.assert('OPS-CPA-FIELDS', false, 'a field seen has another type');
  },
};

const flaky: Check = {
  id: 'selftest.flaky-must',
  title: 'fails a MUST on its first attempt only',
  requirements: ['OPS-CORE-COUNT'],
  async run(ctx) {
    runs.flaky++;
    ctx.assert('OPS-CORE-COUNT', runs.flaky > 1, 'count disagrees with the list');
  },
};

describe('re-runs of a failing check', () => {
  it('happen for a failed MUST, never for a SHOULD that only warns; progress tells a warning from a failure', async () => {
    runs = { warns: 0, flaky: 0 };
    const events: ProgressEvent[] = [];
    const target = await opsApi.startEmbedded();
    try {
      const { report } = await runConformance({
        settings: selftestSettings('ops', { retries: 2 }),
        apis: [{ ...opsApi, checks: [warns, flaky] }],
        targets: { ops: target },
        tool: { name: 'selftest', version: '0' },
        write: false,
        progress: (e) => events.push(e),
      });
      expect(runs).toEqual({ warns: 1, flaky: 2 });
      const status = (id: string) => report.requirements.find((q) => q.id === id)!.status;
      expect(status('OPS-CPA-FIELDS')).toBe('failed');
      const end = (check: string) => events.find((e) => e.type === 'check-end' && e.check === check);
      expect(end('selftest.warns')).toMatchObject({ failed: 0, warned: 1 });
    } finally {
      await target.close?.();
    }
  });
});
