import { describe, expect, it } from 'vitest';
import { UsageError } from '../../core/api';
import { runConformance } from '../../core/conformance';
import { stacksApi } from '../../stacks/index';
import { embeddedStacksTarget } from '../../stacks/target';
import { selftestSettings } from '../harness';
import { misbehavingProxy, type Misbehaviour } from './misbehaving-server';

const TIMEOUT_MS = 800;
// A target that answers wrongly but at once: on a loaded machine sixteen mebibytes take longer than the short
// deadline the silent targets are given, and a deadline passed is a target gone, not the answer this test is about.
const ANSWERING_TIMEOUT_MS = 5000;

async function runThrough(kind: Misbehaviour, healthy: number) {
  const real = await embeddedStacksTarget();
  const proxy = await misbehavingProxy(real.baseUrl, kind, healthy);
  const started = Date.now();
  try {
    const result = await runConformance({
      settings: {
        ...selftestSettings('stacks', {
          timeoutMs: ['hang', 'reset', 'slow'].includes(kind) ? TIMEOUT_MS : ANSWERING_TIMEOUT_MS,
          runs: 3,
        }),
      },
      apis: [stacksApi],
      targets: { stacks: { ...real, baseUrl: proxy.url, embedded: false, close: undefined } },
      tool: { name: 'api-conformance', version: 'test' },
      write: false,
    });
    return { result, ms: Date.now() - started };
  } finally {
    await proxy.close();
    await real.close?.();
  }
}

describe('a misbehaving target ends the run in time with a clear verdict', () => {
  it.each(['non-json', 'gigantic', 'redirect'] as Misbehaviour[])(
    '%s after 20 good answers: failed requirements with reasons, exit 1',
    async (kind) => {
      const { result, ms } = await runThrough(kind, 20);
      expect(result.exitCode).toBe(1);
      const failed = result.report.requirements.filter((q) => q.status === 'failed');
      expect(failed.length).toBeGreaterThan(0);
      for (const q of failed) expect(q.evidence[0]?.message.length, q.id).toBeGreaterThan(10);
      // Bounded by the per-request timeout, not by the number of checks.
      expect(ms).toBeLessThan(40_000);
      console.log(`${kind}: ${failed.length} requirements failed in ${ms} ms; first reason: ${failed[0].evidence[0]?.message}`);
    },
    60_000,
  );

  // A target that stops answering in the middle of the run went away: the rest is not run, and nothing fails for it.
  it.each(['hang', 'reset', 'slow'] as Misbehaviour[])(
    '%s after 20 good answers: incomplete with one headline, exit 2, nothing failed for want of an answer',
    async (kind) => {
      const { result, ms } = await runThrough(kind, 20);
      expect(result.exitCode).toBe(2);
      expect(result.report.summary.gate).toBe('incomplete');
      expect(result.report.summary.incomplete).toMatch(/^The stacks target stopped answering at \S+; \d+ requirements not run\.$/);
      const failed = result.report.requirements.filter((q) => q.status === 'failed');
      for (const q of failed) expect(q.evidence.map((e) => e.message).join(' '), q.id).not.toMatch(/stopped answering|check aborted/);
      // Bounded by the per-request timeout: the run stops where the target went away.
      expect(ms).toBeLessThan(40_000);
    },
    60_000,
  );

  it.each(['hang', 'reset'] as Misbehaviour[])(
    '%s from the first request: a usage error (exit 2), nothing else runs',
    async (kind) => {
      await expect(runThrough(kind, 0)).rejects.toBeInstanceOf(UsageError);
    },
    30_000,
  );
});
