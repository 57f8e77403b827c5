import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { APIS } from '../../apis';
import { summaryText } from '../../cli/summary';
import { settingsFrom } from '../../core/settings';
import type { Target } from '../../core/types';
import { opsApi } from '../../ops/index';
import { embeddedOpsTarget } from '../../ops/target';
import { runAgainst } from '../harness';

const DECLARED = APIS.map((a) => ({ id: a.id, options: a.options }));
const ONLY = ['ops.query.bulk-delete-by-filter', 'ops.core.supported-object-types'];
const guarded = (r: Awaited<ReturnType<typeof runAgainst>>) =>
  r.requirements.filter((q) => q.status === 'skipped' && /^destructive check/.test(q.reason ?? ''));

describe('destructive checks run by default only against the embedded implementation', () => {
  it('are off unless asked, for any target someone names', () => {
    expect(settingsFrom({}, DECLARED).allowDestructive).toBe(false);
    expect(settingsFrom({ CONFORMANCE_ALLOW_DESTRUCTIVE: '1' }, DECLARED).allowDestructive).toBe(true);
  });

  it('a server on this machine (loopback) does not get them unless asked, and the summary says what that leaves out', async () => {
    const live = await embeddedOpsTarget();
    // The same server, named by a user instead of started by the run: a loopback address is no licence.
    const named: Target = { ...live, embedded: false, close: undefined };
    try {
      expect(named.baseUrl).toMatch(/^https:\/\/127\.0\.0\.1:/);
      const unset = await runAgainst(opsApi, named, { allowDestructive: undefined, only: ONLY });
      expect(unset.apis[0].allowDestructive).toBe(false);
      const n = guarded(unset).length;
      expect(n).toBeGreaterThan(0);
      expect(summaryText(unset, [])).toContain(
        `ops: ${n} requirements skipped: destructive checks run against ${named.baseUrl} only with --allow-destructive`,
      );
      const asked = await runAgainst(opsApi, named, { allowDestructive: true, only: ONLY });
      expect(asked.apis[0].allowDestructive).toBe(true);
      expect(guarded(asked)).toEqual([]);
      expect(summaryText(asked, [])).not.toMatch(/skipped: destructive/);
    } finally {
      await live.close?.();
    }
  });

  it('the embedded implementation the run starts gets them without being asked', async () => {
    const report = await runAgainst(opsApi, await embeddedOpsTarget(), { allowDestructive: false, only: ONLY });
    expect(report.apis[0].allowDestructive).toBe(true);
    expect(guarded(report)).toEqual([]);
  });
});

describe('--dry-run says which destructive requests would reach the target', () => {
  const dryRun = (extra: string[]) =>
    promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', 'suites/cli.ts', 'run', '--api', 'ops', '--only', ONLY.join(','), '--dry-run', ...extra],
      {
        env: { PATH: process.env.PATH, CI: 'true', OPS_BASE_URL: 'https://ops.example.test:8089', OPS_USERNAME: 'u', OPS_PASSWORD: 'p' },
        timeout: 60_000,
      },
    );

  it('not without --allow-destructive, with the number of requirements that leaves skipped; with it, yes', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'conformance-dry-'));
    const [without, withFlag] = await Promise.all([
      dryRun(['--report-dir', join(dir, 'a')]),
      dryRun(['--report-dir', join(dir, 'b'), '--allow-destructive']),
    ]);
    expect(without.stdout).toMatch(
      /destructive: NOT sent to https:\/\/ops\.example\.test:8089: 2 requirements \(2 MUST\) will be skipped; --allow-destructive sends them:/,
    );
    expect(without.stdout).toMatch(/more from destructive checks are not sent/);
    expect(withFlag.stdout).toMatch(/destructive \(sent to https:\/\/ops\.example\.test:8089: --allow-destructive was given\):/);
  }, 60_000);
});
