import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { RUN_OPTIONS } from '../core/settings';

/** Every file a run writes into its report folder. */
const REPORT_FILES = ['compliance.json', 'compliance.md', 'compliance.html', 'junit.xml', 'traffic.har'];

/** The folder `npm run conformance` writes to when not told: generated, git-ignored, so a new run may replace it. */
const DEFAULT_DIR = resolve(RUN_OPTIONS.reportDir.default({ remote: false, apis: [] }));

/** What the report already in a folder says of itself, for the message that refuses to replace it. */
function describeReport(file: string): string {
  try {
    const r = JSON.parse(readFileSync(file, 'utf8')) as { run?: { startedAt?: string }; summary?: { gate?: string } };
    return `a run started ${r.run?.startedAt ?? 'at an unknown time'}, gate ${r.summary?.gate ?? 'unknown'}`;
  } catch {
    return 'a compliance.json';
  }
}

/**
 * A folder someone named that already holds another run's reports is not written over unless asked: a CI step that
 * publishes it could otherwise publish the old verdict next to new files, or the old one alone if this run dies.
 * The default folder is the exception (it only ever holds this tool's output).
 */
export function reportDirMistake(dir: string, overwrite: boolean): string | undefined {
  const existing = join(dir, 'compliance.json');
  if (overwrite || resolve(dir) === DEFAULT_DIR || !existsSync(existing)) return undefined;
  return `report folder ${dir} already holds the reports of ${describeReport(existing)}: give --overwrite (CONFORMANCE_OVERWRITE=1) to replace them, or another --report-dir`;
}

/** Removes the report files of an earlier run before a new one starts, so none of them can outlive it. */
export function clearReports(dir: string): void {
  for (const f of REPORT_FILES) rmSync(join(dir, f), { force: true });
}
