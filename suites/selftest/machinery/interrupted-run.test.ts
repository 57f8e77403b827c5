import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { renderJunit } from '../../core/report/junit';
import { renderMarkdown } from '../../core/report/markdown';
import { mergeReports } from '../../core/report/merge';
import type { ComplianceReport } from '../../core/report/model';
import { exitCodeOf, verdictWord } from '../../core/report/verdict';

/** Starts a whole ops run, sends `signal` once a few checks have ended, and collects what it left. */
function interrupted(signal: NodeJS.Signals): Promise<{ code: number | null; stdout: string; dir: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'conformance-interrupted-'));
  const child = spawn(process.execPath, ['--import', 'tsx', 'suites/cli.ts', 'run', '--api', 'ops', '--report-dir', dir], {
    env: { PATH: process.env.PATH, CI: 'true' },
  });
  let stdout = '';
  let stderr = '';
  let sent = false;
  child.stdout.on('data', (c) => (stdout += c));
  child.stderr.on('data', (c) => {
    stderr += c;
    if (!sent && /ops 3\/\d+/.test(stderr)) {
      sent = true;
      child.kill(signal);
    }
  });
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, dir })));
}

const read = (dir: string, file: string) => readFileSync(join(dir, file), 'utf8');

describe('an interrupted run is INCOMPLETE everywhere, never a pass, and exits 130', () => {
  it.each(['SIGINT', 'SIGTERM'] as const)(
    '%s while checks run',
    async (signal) => {
      const { code, stdout, dir } = await interrupted(signal);
      expect(code).toBe(130);
      expect(stdout).toMatch(/verdict: INCOMPLETE \(exit 130\): the run was interrupted; \d+ requirements were not checked/);
      const report = JSON.parse(read(dir, 'compliance.json')) as ComplianceReport;
      expect([report.summary.gate, report.run.interrupted]).toEqual(['incomplete', true]);
      expect(report.requirements.some((q) => q.reason?.includes('run interrupted before this check started'))).toBe(true);
      expect(read(dir, 'compliance.md')).toMatch(/^# Conformance: INCOMPLETE\n/);
      expect(read(dir, 'compliance.html')).toContain('<title>Conformance report: INCOMPLETE</title>');
      expect(read(dir, 'junit.xml')).toMatch(
        /<testcase classname="run" name="the conformance run completed"><failure message="INCOMPLETE: /,
      );
    },
    90_000,
  );
});

describe('the verdict of an interrupted run, whatever it found', () => {
  const base = (gate: ComplianceReport['summary']['gate'], error = 0) => ({ gate, error });
  it('reads INCOMPLETE and exits 130 before any other verdict', () => {
    expect([verdictWord(base('incomplete')), exitCodeOf(base('incomplete'))]).toEqual(['INCOMPLETE', 130]);
    expect([verdictWord(base('incomplete', 3)), exitCodeOf(base('incomplete', 3))]).toEqual(['INCOMPLETE', 130]);
    expect([verdictWord(base('pass', 1)), exitCodeOf(base('pass', 1))]).toEqual(['TOOL ERROR', 2]);
    expect([verdictWord(base('pass')), exitCodeOf(base('pass'))]).toEqual(['PASS', 0]);
    expect([verdictWord(base('fail')), exitCodeOf(base('fail'))]).toEqual(['FAIL', 1]);
  });

  it('merging: one interrupted shard leaves the whole incomplete; renderers say so', () => {
    const shard = (index: number, interrupted: boolean): ComplianceReport => ({
      tool: { name: 't', version: '0' },
      run: {
        startedAt: '',
        durationMs: 0,
        seed: 1,
        runs: 1,
        retries: 0,
        runTag: 'x',
        node: '',
        config: { shard: { index, count: 2 } },
        ...(interrupted ? { interrupted } : {}),
      },
      summary: {
        total: 0,
        passed: 0,
        failed: 0,
        skipped: 0,
        untested: 0,
        error: 0,
        byLevel: {} as ComplianceReport['summary']['byLevel'],
        gate: interrupted ? 'incomplete' : 'pass',
        warnings: 0,
        intermittent: 0,
      },
      apis: [],
      requirements: [],
    });
    const merged = mergeReports([shard(1, false), shard(2, true)]);
    expect(merged.summary.gate).toBe('incomplete');
    expect(mergeReports([shard(1, false), shard(2, false)]).summary.gate).toBe('pass');
    expect(renderMarkdown(merged)).toMatch(/^# Conformance: INCOMPLETE/);
    expect(renderJunit(merged)).toMatch(/failures="1"/);
  });
});
