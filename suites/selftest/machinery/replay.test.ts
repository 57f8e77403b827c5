import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadStacksConfig } from '../../../reference-impl/stacks/config';
import type { RunningServer } from '../../../reference-impl/http/server';
import type { ComplianceReport } from '../../core/report/model';
import { embeddedStacksTarget } from '../../stacks/target';
import type { Target } from '../../core/types';
import { serveStacksFault } from '../../vitest/serve-fault';

const exec = promisify(execFile);

/** The command line, spawned: its exit code and output. */
async function cli(args: string[], env: Record<string, string>) {
  try {
    const { stdout, stderr } = await exec(process.execPath, ['--import', 'tsx', 'suites/cli.ts', ...args], {
      env: { PATH: process.env.PATH, CI: 'true', ...env },
      timeout: 90_000,
    });
    return { code: 0, stdout, stderr };
  } catch (e) {
    const err = e as { code: number; stdout: string; stderr: string };
    return { code: err.code, stdout: err.stdout, stderr: err.stderr };
  }
}

describe('a failure replays: its requests as a curl script, and the case itself against the target', () => {
  let faulty: { server: RunningServer; env: Record<string, string> };
  let correct: Target;
  let dir: string;
  let report: ComplianceReport;
  const file = () => join(dir, 'compliance.json');

  beforeAll(async () => {
    [faulty, correct] = await Promise.all([serveStacksFault('isolation-get-foreign'), embeddedStacksTarget()]);
    dir = mkdtempSync(join(tmpdir(), 'conformance-replay-'));
    const run = await cli(
      [
        'run',
        '--api',
        'stacks',
        '--only',
        'stacks.ownership.*,stacks.lifecycle.*',
        '--retries',
        '0',
        '--settle',
        '0',
        '--runs',
        '4',
        '--report-dir',
        dir,
      ],
      faulty.env,
    );
    expect(run.code, run.stderr).toBe(1);
    expect(run.stdout).toContain(`replay a failure: api-conformance replay ${file()} `);
    report = JSON.parse(readFileSync(file(), 'utf8'));
  }, 120_000);
  afterAll(() => Promise.all([faulty.server.close(), correct.close?.()]));

  const failed = () => report.requirements.find((q) => q.status === 'failed' && q.level === 'MUST')!;

  it('records every request of the failing case, in order, with its role and no credential', () => {
    const check = report.apis[0].checks.find((c) => c.sequence)!;
    expect(check.sequence!.length).toBe(check.requests);
    expect(new Set(check.sequence!.map((s) => s.role))).toEqual(new Set(['primary', 'second']));
    const text = JSON.stringify(check.sequence);
    for (const u of loadStacksConfig().users) expect(text.includes(u.apiKey)).toBe(false);
    // Checks that passed keep no sequence.
    expect(report.apis[0].checks.filter((c) => c.sequence).every((c) => c.outcome === 'ran')).toBe(true);
  });

  it('--script prints them as curl commands that run, credentials read from the environment', async () => {
    const q = failed();
    const out = await cli(['replay', file(), q.id, '--script'], {});
    expect(out.code, out.stderr).toBe(0);
    const requests = report.apis[0].checks.filter((c) => c.sequence).find((c) => out.stdout.includes(`# check ${c.id}: `))!;
    expect((out.stdout.match(/^curl /gm) ?? []).length).toBe(requests.sequence!.length);
    // The script stops at once when a credential it needs is not in the environment.
    expect(out.stdout).toContain(`: "\${STACKS_API_KEY_2:?set STACKS_API_KEY_2}"`);
    expect(out.stdout).toMatch(/^# 1\. as (primary|second) \(STACKS_API_KEY(_2)?\)$/m);
    for (const u of loadStacksConfig().users) expect(out.stdout.includes(u.apiKey)).toBe(false);
    const script = join(dir, 'replay.sh');
    writeFileSync(script, out.stdout);
    const ran = await exec('sh', [script], { env: { PATH: process.env.PATH, ...faulty.env }, timeout: 60_000 });
    expect((ran.stdout.match(/^HTTP\/1\.1 \d{3}/gm) ?? []).length).toBe(requests.sequence!.length);
  }, 60_000);

  it('replays the case against the target: it still fails there (exit 1), and passes against a fixed server (exit 0)', async () => {
    const q = failed();
    const still = await cli(['replay', file(), q.id], faulty.env);
    expect([still.code, still.stderr]).toEqual([1, '']);
    expect(still.stdout).toMatch(
      new RegExp(`^${q.id} still fails against ${faulty.env.STACKS_BASE_URL} \\(.*seed ${report.run.seed}\\): `),
    );
    // The same report, its target now a correct server: the case holds.
    const moved = structuredClone(report);
    moved.apis[0].target.baseUrl = correct.baseUrl;
    writeFileSync(join(dir, 'moved.json'), JSON.stringify(moved));
    const fixed = await cli(['replay', join(dir, 'moved.json'), q.id], { ...faulty.env, STACKS_BASE_URL: correct.baseUrl });
    expect(fixed.code, fixed.stdout + fixed.stderr).toBe(0);
    expect(fixed.stdout.startsWith(`${q.id} passes now against ${correct.baseUrl}: the case that failed in `)).toBe(true);
  }, 120_000);

  it('a property failure replays with its seed and counterexample path, beside the other checks that failed the requirement', async () => {
    const q = report.requirements.find((x) => x.id === 'STK-OWNERSHIP')!;
    expect(q.evidence.some((e) => (e.evidence?.details as { path?: string } | undefined)?.path)).toBe(true);
    const still = await cli(['replay', file(), q.id], faulty.env);
    expect(still.code).toBe(1);
    expect(still.stdout).toMatch(
      /^STK-OWNERSHIP still fails against .* \(stacks\.ownership\.isolation, stacks\.lifecycle\.model, seed \d+\): /,
    );
  }, 60_000);

  it('refuses what cannot be replayed, in one line', async () => {
    const passed = report.requirements.find((q) => q.status === 'passed')!;
    const r = await cli(['replay', file(), passed.id], {});
    expect([r.code, r.stderr]).toEqual([
      2,
      `error: ${passed.id} did not fail in ${file()} (it was passed): only a failure can be replayed\n`,
    ]);
    const typo = await cli(['replay', file(), 'STK-OWNERSHP'], {});
    expect(typo.stderr).toMatch(/^error: .* holds no requirement STK-OWNERSHP \(did you mean STK-OWNERSHIP\?\)\n$/);
  }, 60_000);
});
