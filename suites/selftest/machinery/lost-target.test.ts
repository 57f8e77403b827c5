import { describe, expect, it } from 'vitest';
import type { ApiDefinition } from '../../core/api';
import { runConformance } from '../../core/conformance';
import type { ProgressEvent } from '../../core/runner';
import type { Target } from '../../core/types';
import { summaryText } from '../../cli/summary';
import { renderMarkdown } from '../../core/report/markdown';
import { opsApi } from '../../ops/index';
import { embeddedOpsTarget } from '../../ops/target';
import { stacksApi } from '../../stacks/index';
import { embeddedStacksTarget } from '../../stacks/target';
import { mustFailed, selftestSettings, shouldFailed } from '../harness';

/**
 * A deployment that goes away mid-run: the server is stopped when the run reaches a given point (`when` sees every
 * progress event). Named by a user, not started by the run, so the runner does not close it itself.
 */
async function runUntilGone(def: ApiDefinition, live: Target, when: (e: ProgressEvent, starts: number) => boolean, concurrency?: number) {
  const named: Target = { ...live, embedded: false, close: undefined };
  let starts = 0;
  let gone: Promise<void> | undefined;
  const progress = (e: ProgressEvent) => {
    if (e.type === 'check-start') starts++;
    if (!gone && when(e, starts)) gone = live.close?.();
  };
  try {
    return await runConformance({
      settings: selftestSettings(def.id, { concurrency }),
      apis: [def],
      targets: { [def.id]: named },
      progress,
      tool: { name: 'selftest', version: '0' },
      write: false,
    });
  } finally {
    await (gone ?? live.close?.());
  }
}

const HEADLINE = /^The (ops|stacks) target stopped answering at (\S+); (\d+) requirements not run\.$/;

describe('a target that stops answering ends the run with one headline, exit 2, and nothing failed for it', () => {
  it('ops, gone after check 30: incomplete, exit 2, no MUST failed, and no replay of a requirement that never ran', async () => {
    const { report, exitCode } = await runUntilGone(opsApi, await embeddedOpsTarget(), (e) => e.type === 'check-end' && e.index === 30);
    expect(exitCode).toBe(2);
    expect(report.summary.gate).toBe('incomplete');
    const [, api, at, n] = report.summary.incomplete!.match(HEADLINE)!;
    expect(api).toBe('ops');
    expect(opsApi.checks.map((c) => c.id)).toContain(at);
    const notRun = report.requirements.filter((q) => q.reason?.includes(`not run: the target stopped answering at ${at}`));
    expect(notRun.length).toBe(Number(n));
    expect(Number(n)).toBeGreaterThan(30);
    // The reference implementation is correct: what it was not asked cannot have failed.
    expect(mustFailed(report)).toEqual([]);
    expect(shouldFailed(report)).toEqual([]);
    const text = summaryText(report, ['reports/compliance.json']);
    expect(text).toContain(
      `verdict: INCOMPLETE (exit 2): The ops target stopped answering at ${at}; ${n} requirements not run, so this is not a pass`,
    );
    expect(text).not.toContain('replay a failure');
    expect(renderMarkdown(report)).toMatch(/^# Conformance: INCOMPLETE\n\n\*\*The ops target stopped answering at /);
  }, 120_000);

  it('stacks, gone during the last check: not a pass with a warning, but incomplete and exit 2', async () => {
    const total = stacksApi.checks.length;
    const { report, exitCode } = await runUntilGone(
      stacksApi,
      await embeddedStacksTarget(),
      (e, starts) => e.type === 'check-start' && starts === total,
      1,
    );
    expect(exitCode).toBe(2);
    expect(report.summary.incomplete).toMatch(HEADLINE);
    expect(mustFailed(report)).toEqual([]);
    expect(shouldFailed(report)).toEqual([]);
  }, 120_000);
});
