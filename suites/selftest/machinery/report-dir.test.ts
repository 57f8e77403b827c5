import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { clearReports, reportDirMistake } from '../../cli/report-dir';
import { run } from '../../cli/run';
import { UsageError } from '../../core/api';

const folder = (withReport: boolean) => {
  const dir = mkdtempSync(join(tmpdir(), 'conformance-dir-'));
  if (withReport)
    writeFileSync(join(dir, 'compliance.json'), JSON.stringify({ run: { startedAt: '2026-01-02T03:04:05Z' }, summary: { gate: 'pass' } }));
  return dir;
};

describe('a report folder that holds another run is not written over unless asked', () => {
  it('is refused in one line naming the run it holds and the flag', () => {
    const dir = folder(true);
    expect(reportDirMistake(dir, false)).toBe(
      `report folder ${dir} already holds the reports of a run started 2026-01-02T03:04:05Z, gate pass: give --overwrite (CONFORMANCE_OVERWRITE=1) to replace them, or another --report-dir`,
    );
  });

  it('is accepted with --overwrite, when it holds no compliance.json, and always for the default reports/', () => {
    expect(reportDirMistake(folder(true), true)).toBeUndefined();
    expect(reportDirMistake(folder(false), false)).toBeUndefined();
    expect(reportDirMistake('reports', false)).toBeUndefined();
    expect(reportDirMistake('./reports/', false)).toBeUndefined();
  });

  it('the run ends with exit 2 before anything is sent', async () => {
    const dir = folder(true);
    await expect(run(['--api', 'stacks', '--report-dir', dir])).rejects.toThrow(UsageError);
  });

  it('a new run first removes every report file of the old one, so none of them outlives it', () => {
    const dir = folder(true);
    for (const f of ['compliance.md', 'compliance.html', 'junit.xml', 'traffic.har', 'notes.txt']) writeFileSync(join(dir, f), 'old');
    mkdirSync(join(dir, 'sub'));
    clearReports(dir);
    expect(
      ['compliance.json', 'compliance.md', 'compliance.html', 'junit.xml', 'traffic.har'].filter((f) => existsSync(join(dir, f))),
    ).toEqual([]);
    expect(existsSync(join(dir, 'notes.txt'))).toBe(true);
  });
});
