import { describe, expect, it } from 'vitest';
import { summaryText } from '../../cli/summary';
import { renderHtml } from '../../core/report/html';
import { renderJunit } from '../../core/report/junit';
import { renderMarkdown } from '../../core/report/markdown';
import { stacksApi } from '../../stacks/index';
import { embeddedStacksTarget } from '../../stacks/target';
import { runAgainst } from '../harness';

const total = stacksApi.checks.length;

/** Every report's first page and the summary line, for one run. */
function firstPages(r: Awaited<ReturnType<typeof runAgainst>>) {
  return {
    md: renderMarkdown(r).split('\n').slice(0, 4).join('\n'),
    html: renderHtml(r, { summaryOnly: true }),
    junit: renderJunit(r).split('\n')[1],
    line: summaryText(r, []).trimEnd().split('\n').at(-1)!,
  };
}

// A run of part of the checks passes only what it ran: its big PASS must not read like the deployment's.
describe('a filtered or single-shard run says "partial" on every first page and in the summary line', () => {
  it('--only', async () => {
    const r = await runAgainst(stacksApi, await embeddedStacksTarget(), { only: ['stacks.auth.*'] });
    const ran = r.apis[0].checks.filter((c) => c.outcome !== 'filtered').length;
    expect(r.summary.gate).toBe('pass');
    expect(r.summary.partial).toBe(`${ran} of ${total} checks selected (only stacks.auth.*); the others were not run`);
    const p = firstPages(r);
    expect(p.md).toBe(`# Conformance: PASS (partial)\n\n**Partial run: ${r.summary.partial}.**\n`);
    expect(p.html).toContain('<title>Conformance report: PASS (partial)</title>');
    expect(p.html).toContain(`<p class="partial"><b>Partial run: ${r.summary.partial}.</b></p>`);
    expect(p.junit).toContain(`<testsuites name="conformance (partial: ${r.summary.partial})"`);
    expect(p.line).toMatch(/ · verdict: PASS \(partial: \d+ of \d+ checks selected \(only stacks\.auth\.\*\); the others were not run\)$/);
  });

  it('one shard', async () => {
    const r = await runAgainst(stacksApi, await embeddedStacksTarget(), { shard: { index: 2, count: 3 } });
    expect(r.summary.partial).toMatch(new RegExp(`^\\d+ of ${total} checks selected \\(shard 2/3\\); the others were not run$`));
    expect(firstPages(r).md).toMatch(/^# Conformance: (PASS|FAIL) \(partial\)\n\n\*\*Partial run: /);
  });

  it('a whole run is not partial', async () => {
    const r = await runAgainst(stacksApi, await embeddedStacksTarget());
    expect(r.summary.partial).toBeUndefined();
    const p = firstPages(r);
    expect(p.md).not.toContain('partial');
    expect(p.line).toMatch(/ · verdict: PASS$/);
  });
});
