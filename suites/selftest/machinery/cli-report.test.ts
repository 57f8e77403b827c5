import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { report } from '../../cli/report';
import { UsageError } from '../../core/api';
import { runConformance } from '../../core/conformance';
import { compareReports } from '../../core/report/compare';
import { summarize, type ComplianceReport } from '../../core/report/model';
import { stacksApi } from '../../stacks/index';
import { selftestSettings } from '../harness';

const exec = promisify(execFile);

async function cli(args: string[]) {
  try {
    const { stdout, stderr } = await exec(process.execPath, ['--import', 'tsx', 'suites/cli.ts', ...args], {
      env: { ...process.env, CI: 'true' },
      timeout: 60_000,
    });
    return { code: 0, stdout, stderr };
  } catch (e) {
    const err = e as { code: number; stdout: string; stderr: string };
    return { code: err.code, stdout: err.stdout, stderr: err.stderr };
  }
}

const dir = mkdtempSync(join(tmpdir(), 'conformance-cli-report-'));
let base: ComplianceReport;
/** A passed MUST requirement that the "new" run breaks. */
let broken: string;

function variant(name: string, change: (r: ComplianceReport) => void): string {
  const r = structuredClone(base);
  change(r);
  r.summary = summarize(r.requirements);
  const sub = join(dir, name);
  mkdirSync(sub, { recursive: true });
  writeFileSync(join(sub, 'compliance.json'), JSON.stringify(r, null, 2));
  return join(sub, 'compliance.json');
}

const snapshot = (d: string) =>
  Object.fromEntries(readdirSync(d).map((f) => [f, `${statSync(join(d, f)).mtimeMs} ${readFileSync(join(d, f), 'utf8').length}`]));

function usageError(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    if (e instanceof UsageError) return e.message;
    throw e;
  }
  throw new Error('expected a usage error');
}

beforeAll(async () => {
  const { report: r } = await runConformance({
    settings: selftestSettings('stacks', { only: ['stacks.auth.*', 'stacks.create.*'], runs: 2, seed: 7 }),
    apis: [stacksApi],
    tool: { name: 'api-conformance', version: 'test' },
    write: false,
  });
  base = r;
  broken = base.requirements.find((q) => q.level === 'MUST' && q.status === 'passed')!.id;
}, 60_000);

const breakIt = (r: ComplianceReport) => {
  const q = r.requirements.find((x) => x.id === broken)!;
  q.status = 'failed';
  q.failed = 1;
  q.evidence = [{ requirement: broken, check: q.checks[0], outcome: 'fail', message: 'answered 200 without a key' }];
};

describe('report OLD.json --compare NEW.json', () => {
  it('reads the first report as the old run: a regression is a NEW FAILURE and exit 1; the reverse is FIXED and exit 0', async () => {
    const old = variant('old', () => {});
    const regressed = variant('new', breakIt);
    const before = { old: snapshot(join(dir, 'old')), new: snapshot(join(dir, 'new')) };
    const [worse, better] = await Promise.all([cli(['report', old, '--compare', regressed]), cli(['report', regressed, '--compare', old])]);
    expect(worse.code, worse.stderr).toBe(1);
    expect(worse.stdout).toMatch(new RegExp(`NEW FAILURE\\s+stacks ${broken} \\[MUST\\]: passed → failed: answered 200 without a key`));
    expect(worse.stdout).toMatch(/verdict: PASS → FAIL/);
    expect(worse.stdout).not.toMatch(/FIXED/);
    expect(better.code, better.stderr).toBe(0);
    expect(better.stdout).toMatch(new RegExp(`FIXED\\s+stacks ${broken} \\[MUST\\]: failed → passed`));
    expect(better.stdout).toMatch(/verdict: FAIL → PASS/);
    // Nothing written over or next to the compared runs' own files.
    expect({ old: snapshot(join(dir, 'old')), new: snapshot(join(dir, 'new')) }).toEqual(before);
  }, 60_000);

  it('with --report-dir, re-renders the new report there and only there', () => {
    const old = variant('old2', () => {});
    const regressed = variant('new2', breakIt);
    const out = join(dir, 'rendered');
    const lines: string[] = [];
    const write = process.stdout.write.bind(process.stdout);
    process.stdout.write = ((s: string) => (lines.push(s), true)) as typeof process.stdout.write;
    let code: number;
    try {
      code = report([old, '--compare', regressed, '--report-dir', out, '--format', 'md,junit']);
    } finally {
      process.stdout.write = write;
    }
    expect(code).toBe(1);
    expect(readdirSync(out).sort()).toEqual(['compliance.md', 'junit.xml']);
    expect(readFileSync(join(out, 'compliance.md'), 'utf8')).toContain(broken);
    expect(readdirSync(join(dir, 'old2'))).toEqual(['compliance.json']);
  });

  it('names every kind of change, worst first', () => {
    const before = structuredClone(base);
    const after = structuredClone(base);
    const [a, b, c, d] = after.requirements.filter((q) => q.status === 'passed');
    before.requirements.find((q) => q.id === b.id)!.status = 'failed';
    before.requirements.find((q) => q.id === c.id)!.status = 'failed';
    a.status = 'failed';
    c.status = 'untested';
    d.status = 'skipped';
    const diff = compareReports(before, after);
    expect(diff.changes.map((x) => [x.kind, x.id])).toEqual([
      ['NEW FAILURE', a.id],
      ['NO LONGER CHECKED', c.id],
      ['COVERAGE LOST', d.id],
      ['FIXED', b.id],
    ]);
  });
});

describe('report --merge refuses reports that are not the shards of one run', () => {
  const shard = (name: string, index: number, count: number, seed = base.run.seed) =>
    variant(name, (r) => {
      r.run.config = { ...r.run.config, shard: { index, count } };
      r.run.seed = seed;
    });

  it('merges the shards of one run', () => {
    const out = join(dir, 'merged');
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    try {
      expect(report(['--merge', shard('m1', 1, 2), shard('m2', 2, 2), '--report-dir', out])).toBe(0);
    } finally {
      log.mockRestore();
    }
    const merged = JSON.parse(readFileSync(join(out, 'compliance.json'), 'utf8')) as ComplianceReport;
    expect(merged.run.config.mergedFrom).toBe(2);
    expect(merged.run.config.shard).toBeUndefined();
  });

  // Shards 1 and 2 of 3 are not a run: the third shard's checks ran nowhere, so the merge cannot be a pass.
  it('a merge without every shard writes an incomplete report and exits 2', async () => {
    const out = join(dir, 'two-of-three');
    const r = await cli(['report', '--merge', shard('t1', 1, 3), shard('t2', 2, 3), '--report-dir', out]);
    expect(r.code).toBe(2);
    expect(r.stderr.trimEnd().split('\n')).toEqual([
      'error: Shards missing from the merge: 3/3 of the stacks API. Their checks were run by none of the merged reports, so this report is not a pass.',
    ]);
    const merged = JSON.parse(readFileSync(join(out, 'compliance.json'), 'utf8')) as ComplianceReport;
    expect(merged.summary.gate).toBe('incomplete');
    expect(readFileSync(join(out, 'compliance.md'), 'utf8')).toMatch(
      /^# Conformance: INCOMPLETE( \(partial\))?\n\n\*\*Shards missing from the merge: 3\/3/,
    );
    expect(readFileSync(join(out, 'junit.xml'), 'utf8')).toContain('<failure message="INCOMPLETE: Shards missing from the merge: 3/3');
  }, 60_000);

  it('the same shard twice, shards of different seeds, shards of different counts', () => {
    const out = ['--report-dir', join(dir, 'refused')];
    expect(usageError(() => report(['--merge', shard('d1', 1, 2), shard('d2', 1, 2), ...out]))).toMatch(
      /^cannot merge: .*d1\/compliance\.json and .*d2\/compliance\.json are both shard 1\/2 of the stacks API$/,
    );
    expect(usageError(() => report(['--merge', shard('s1', 1, 2, 7), shard('s2', 2, 2, 8), ...out]))).toMatch(
      /^cannot merge: .*s1\/compliance\.json has seed 7 but .*s2\/compliance\.json has seed 8/,
    );
    expect(usageError(() => report(['--merge', shard('c1', 1, 2), shard('c2', 2, 3), ...out]))).toMatch(
      /^cannot merge: .* is shard 1\/2 but .* is shard 2\/3/,
    );
    expect(usageError(() => report(['--merge', variant('w1', () => {}), variant('w2', () => {}), ...out]))).toMatch(
      /are both a whole run \(no --shard\)/,
    );
    // Writing the merged compliance.json over one of its own inputs is refused too.
    expect(usageError(() => report(['--merge', shard('o1', 1, 2), shard('o2', 2, 2), '--report-dir', join(dir, 'o1')]))).toMatch(
      /would overwrite .*o1\/compliance\.json/,
    );
  });

  it('spawned: exit 2 and one line', async () => {
    const r = await cli(['report', '--merge', shard('x1', 2, 2), shard('x2', 2, 2), '--report-dir', join(dir, 'x')]);
    expect(r.code).toBe(2);
    expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/^error: cannot merge: .* are both shard 2\/2/);
  }, 60_000);
});
