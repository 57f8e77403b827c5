/*
 * The package's programmatic API (`import { runConformance } from 'api-conformance'`): one conformance run, resolved
 * and checked like `api-conformance run` (the option table, the set-up checks, the credential probe, the report folder
 * guard), returning the model `compliance.json` holds.
 */
import type { ComplianceReport } from './core/report/model';
import { UsageError } from './core/usage-error';
import { clearReports, reportDirMistake } from './cli/report-dir';
import { givenSettings, type ConformanceOptions, type RunContext } from './options';
import { openSession, runSession } from './vitest/front-end';

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
  const session = openSession(context.env ?? process.env, givenSettings(options, 'runConformance options'));
  const occupied = reportDirMistake(session.settings.reportDir, session.settings.overwrite);
  if (occupied) throw new UsageError(occupied);
  const run = await runSession(session, undefined, context.signal, () => clearReports(session.settings.reportDir));
  return run.result!.report;
}
