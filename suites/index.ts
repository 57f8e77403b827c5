/*
 * The package's programmatic API (`import { runConformance } from 'api-conformance'`): one conformance run, resolved
 * and checked like `api-conformance run` (the option table, the set-up checks, the credential probe, the report folder
 * guard), returning the model `compliance.json` holds.
 */
import type { ComplianceReport } from './core/report/model';
import { runSession } from './core/session';
import { UsageError } from './core/usage-error';
import { clearReports, reportDirMistake } from './cli/report-dir';
import { sessionFromCode, type ConformanceOptions, type RunContext } from './options';

export { UsageError };
export type { ComplianceReport };
export type { AssertionRecord, Evidence, Level, Status } from './core/types';
export type { ApiId, ConformanceOptions, OpsTargetOptions, ReportFormat, RunContext, StacksTargetOptions } from './options';

/**
 * Runs the conformance checks and writes the reports, like `api-conformance run`; resolves to the report
 * (`compliance.json`'s model). `report.summary.gate` is the verdict: `pass`, `fail` (a MUST requirement failed) or
 * `incomplete` (interrupted). A usage or connection mistake rejects with a `UsageError` whose message is the one line
 * the command line prints.
 */
export async function runConformance(options?: ConformanceOptions, context: RunContext = {}): Promise<ComplianceReport> {
  const session = sessionFromCode(options, 'runConformance options', context.env ?? process.env);
  const { reportDir, overwrite } = session.settings;
  const occupied = reportDirMistake(reportDir, overwrite);
  if (occupied) throw new UsageError(occupied);
  const start = () => {
    clearReports(reportDir);
    return { signal: context.signal };
  };
  return (await runSession(session, { start })).report;
}
