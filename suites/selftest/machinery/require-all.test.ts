import { describe, expect, it } from 'vitest';
import { summaryText } from '../../cli/summary';
import { settingName } from '../../core/enabler';
import { RUN_OPTIONS } from '../../core/settings';
import type { Target } from '../../core/types';
import { opsApi } from '../../ops/index';
import { embeddedOpsTarget } from '../../ops/target';
import { stacksApi } from '../../stacks/index';
import { embeddedStacksTarget, STACKS_OPTIONS } from '../../stacks/target';
import { runAgainst } from '../harness';

describe('what would have an untested requirement checked is named from the option itself', () => {
  it.each<[string, { flag?: string; env?: string; key?: string }, string]>([
    ['a flag before its variable', RUN_OPTIONS.allowDestructive, '--allow-destructive'],
    ['a flag', RUN_OPTIONS.maxWrites, '--max-writes'],
    ['a variable where there is no flag', STACKS_OPTIONS.readyTimeoutS, 'STACKS_READY_TIMEOUT_S'],
    ['another', STACKS_OPTIONS.limitProbeMax, 'STACKS_LIMIT_PROBE_MAX'],
  ])('%s', (_, option, name) => {
    expect(settingName(option)).toBe(name);
  });

  it('a record carries it as data: a destructive check skipped against a deployment names --allow-destructive', async () => {
    const live = await embeddedOpsTarget();
    try {
      const only = ['ops.content-packs.install-failures'];
      const report = await runAgainst(opsApi, { ...live, embedded: false, close: undefined }, { only, allowDestructive: false });
      const skipped = report.requirements.filter((q) => q.status === 'skipped' && q.reason?.includes('destructive check'));
      expect(skipped.length).toBeGreaterThan(0);
      for (const q of skipped) expect(q.enabledBy, `${q.id}: ${q.reason}`).toBe('--allow-destructive');
    } finally {
      await live.close?.();
    }
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
