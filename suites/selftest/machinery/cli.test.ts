import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const exec = promisify(execFile);
const CLI = ['--import', 'tsx', 'suites/cli.ts'];

async function cli(args: string[], env: Record<string, string> = {}) {
  try {
    const { stdout, stderr } = await exec(process.execPath, [...CLI, ...args], {
      env: { ...process.env, NO_COLOR: '1', CI: 'true', ...env },
      timeout: 90_000,
    });
    return { code: 0, stdout, stderr };
  } catch (e) {
    const err = e as { code: number; stdout: string; stderr: string };
    return { code: err.code, stdout: err.stdout, stderr: err.stderr };
  }
}

describe('the command line', () => {
  it('answers bad usage with one line and exit code 2', async () => {
    for (const args of [
      ['run', '--bogus'],
      ['frobnicate'],
      ['run', '--api', 'nosuch'],
      ['run', '--shard', '3/2'],
      ['report', 'missing.json'],
    ]) {
      const r = await cli(args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr.trim().split('\n')[0], args.join(' ')).toMatch(/^error: /);
    }
  }, 90_000);

  it('exits 2 with a clear line when the target is unreachable or the key is missing', async () => {
    const unreachable = await cli(['run', '--api', 'stacks'], { STACKS_BASE_URL: 'http://127.0.0.1:9', STACKS_API_KEY: 'k' });
    expect(unreachable.code).toBe(2);
    expect(unreachable.stderr).toMatch(/error: target http:\/\/127\.0\.0\.1:9 is unreachable/);
    const nokey = await cli(['run', '--api', 'stacks'], { STACKS_BASE_URL: 'http://127.0.0.1:9' });
    expect(nokey.code).toBe(2);
    expect(nokey.stderr).toMatch(/STACKS_API_KEY/);
  }, 90_000);

  it('runs shards, merges them into the report of the whole run, and compares two runs', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'conformance-cli-'));
    for (const i of [1, 2]) {
      const r = await cli([
        'run',
        '--api',
        'stacks',
        '--runs',
        '3',
        '--seed',
        '7',
        '--shard',
        `${i}/2`,
        '--report-dir',
        join(dir, `s${i}`),
      ]);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toMatch(/verdict: PASS/);
    }
    const merged = await cli([
      'report',
      '--merge',
      join(dir, 's1/compliance.json'),
      join(dir, 's2/compliance.json'),
      '--report-dir',
      join(dir, 'merged'),
    ]);
    expect(merged.code, merged.stderr).toBe(0);
    const report = JSON.parse(readFileSync(join(dir, 'merged/compliance.json'), 'utf8'));
    const single = JSON.parse(readFileSync(join(dir, 's1/compliance.json'), 'utf8'));
    expect(report.summary.passed).toBeGreaterThan(single.summary.passed);
    expect(report.summary.skipped).toBe(0);
    for (const f of ['compliance.md', 'compliance.html', 'junit.xml']) expect(existsSync(join(dir, 'merged', f))).toBe(true);
    // Old run first, --compare the new one: the whole run covers what the first shard skipped, and nothing regressed.
    const cmp = await cli(['report', join(dir, 's1/compliance.json'), '--compare', join(dir, 'merged/compliance.json')]);
    expect(cmp.code, cmp.stderr).toBe(0);
    expect(cmp.stdout).toMatch(/requirement\(s\) changed/);
    expect(cmp.stdout).toMatch(/NOW PASSES/);
    expect(cmp.stdout).not.toMatch(/NEW FAILURE/);
  }, 120_000);

  it('lists requirements and checks, marking destructive ones', async () => {
    const r = await cli(['list', '--api', 'ops', '--json']);
    const [ops] = JSON.parse(r.stdout);
    expect(ops.requirements.length).toBeGreaterThan(100);
    expect(ops.checks.some((c: { destructive: boolean }) => c.destructive)).toBe(true);
  }, 60_000);
});
