import { describe, expect, it } from 'vitest';
import { summaryText } from '../../cli/summary';
import { enablerNames, enablerOf } from '../../core/enabler';
import { RUN_OPTIONS } from '../../core/settings';
import type { Target } from '../../core/types';
import { stacksApi } from '../../stacks/index';
import { embeddedStacksTarget, STACKS_OPTIONS } from '../../stacks/target';
import { runAgainst } from '../harness';

const NAMES = enablerNames([RUN_OPTIONS, STACKS_OPTIONS]);

describe('what would have an untested requirement checked', () => {
  it.each<[string, string | undefined]>([
    ['needs credentials that were not given (STACKS_API_KEY_2)', 'STACKS_API_KEY_2'],
    ['needs credentials that were not given (STACKS_API_KEY_FORBIDDEN)', 'STACKS_API_KEY_FORBIDDEN'],
    [
      'destructive check: can change data the run did not create; runs with --allow-destructive (CONFORMANCE_ALLOW_DESTRUCTIVE=1) against a target you name',
      '--allow-destructive',
    ],
    ['stack did not become RUNNING within 60 s (STACKS_READY_TIMEOUT_S); last state PENDING', 'STACKS_READY_TIMEOUT_S'],
    ['no 409 within 12 creates; raise STACKS_LIMIT_PROBE_MAX to probe further', 'STACKS_LIMIT_PROBE_MAX'],
    ['not run: write cap of 5 requests reached (--max-writes)', '--max-writes'],
    // Left out on purpose, or nothing the run is given can check it.
    ['not selected by --only', undefined],
    ['a statement about the interface description, which the API does not serve: nothing a server answers can show it', undefined],
    [undefined as unknown as string, undefined],
  ])('%s', (reason, enabler) => {
    expect(enablerOf(reason, NAMES)).toBe(enabler);
  });
});

describe('--require-all turns MUST requirements left unchecked for want of a setting into a failed gate', () => {
  const only = ['stacks.auth.*', 'stacks.ownership.*', 'stacks.document.*', 'stacks.versions.*'];
  /** The embedded server named as a deployment with only the main key: the second and forbidden users are missing. */
  async function withOneKey(requireAll: boolean) {
    const live = await embeddedStacksTarget();
    const target: Target = { ...live, embedded: false, close: undefined, principals: { primary: live.principals.primary } };
    try {
      return await runAgainst(stacksApi, target, { only, requireAll });
    } finally {
      await live.close?.();
    }
  }

  it('without it the gate passes and the summary lists each untested MUST with what would check it', async () => {
    const report = await withOneKey(false);
    expect(report.summary.gate).toBe('pass');
    expect(report.summary.unverified).toBeGreaterThanOrEqual(2);
    const text = summaryText(report, []);
    expect(text).toMatch(
      /^ {2}UNTESTED STK-AUTH-403: needs credentials that were not given \(STACKS_API_KEY_FORBIDDEN\) · needs STACKS_API_KEY_FORBIDDEN$/m,
    );
    expect(text).toMatch(/^ {2}UNTESTED STK-LIST-OWN: .* · needs STACKS_API_KEY_2$/m);
    expect(text).toMatch(/^ {2}UNTESTED STK-VERSION-LABEL: .* · no setting of the run can check it$/m);
    expect(text).toMatch(
      /verdict: PASS \(partial: \d+ of \d+ checks selected \(only stacks\.auth\.\*, [^)]*\); the others were not run\)$/m,
    );
  });

  it('with it the same run fails (exit 1), saying why', async () => {
    const report = await withOneKey(true);
    expect(report.summary.gate).toBe('fail');
    expect(report.summary.byLevel.MUST.failed).toBe(0);
    expect(summaryText(report, [])).toMatch(
      /verdict: FAIL \(--require-all: \d+ MUST requirements were not checked for want of a setting, listed above\) \(partial: [^\n]*\)$/m,
    );
  });

  it('requirements no setting can check do not fail it: with every key the embedded run passes', async () => {
    const report = await runAgainst(stacksApi, await embeddedStacksTarget(), { only, requireAll: true });
    expect(report.requirements.filter((q) => q.level === 'MUST' && q.status === 'untested').length).toBeGreaterThan(0);
    expect([report.summary.unverified, report.summary.gate]).toEqual([0, 'pass']);
  });
});
