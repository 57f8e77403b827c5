import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ApiDefinition } from './api';
import { judgeProbe } from './credential-probe';
import { probeWrite } from './write-probe';
import { unreachableLine } from './network';
import { createMasker } from './mask';
import { buildReport, type ComplianceReport } from './report/model';
import { renderHtml } from './report/html';
import { renderJunit } from './report/junit';
import { renderMarkdown } from './report/markdown';
import { toHar } from './report/har';
import { suiteCommit } from './report/provenance';
import { exitCodeOf } from './report/verdict';
import { runApi, type ApiRun, type ProgressEvent } from './runner';
import { apiValuesFromEnv, exportedValues, recordedConfig, type Settings } from './settings';
import { createTransport } from './transport';
import { tlsInsecureVariable } from './transport-hint';
import type { Interruption, Target } from './types';
import { UsageError } from './usage-error';

export interface ConformanceOptions {
  settings: Settings;
  apis: ApiDefinition[];
  /** The deployment of each API, as the session resolved it; an API without one runs against its embedded implementation. */
  targets?: Record<string, Target>;
  progress?: (e: ProgressEvent) => void;
  signal?: Interruption;
  tool: { name: string; version: string };
  /** Write report files; off for in-process self-tests. */
  write?: boolean;
  /** Keep every exchange in memory (dry runs) without writing a HAR file. */
  captureTraffic?: boolean;
  /** By API, then by role: what the credential probe found suspect (see probeCredentials). */
  credentialHints?: Record<string, Record<string, string>>;
}

export interface ConformanceResult {
  report: ComplianceReport;
  runs: ApiRun[];
  /** 0 every MUST passed, 1 a MUST failed, 2 a check failed as a tool (its requirements have no verdict), 130 interrupted. */
  exitCode: 0 | 1 | 2 | 130;
  files: string[];
}

/** Runs the selected APIs side by side (they never share a target) and turns the results into the reports. */
export async function runConformance(o: ConformanceOptions): Promise<ConformanceResult> {
  const started = new Date();
  const s = o.settings;
  const selected = o.apis.filter((a) => s.apis.includes(a.id));
  // Each API's own variables as the session resolved them; settings made from API ids alone (in-process runs) have
  // none, and get the API's defaults: the environment is the session's to read, never the run's.
  const apiOptions = Object.fromEntries(selected.map((def) => [def.id, s.apiOptions?.[def.id] ?? apiValuesFromEnv(def, {}).values]));
  const runs = await Promise.all(
    selected.map((def) =>
      runApi(def, {
        seed: s.seed,
        runs: s.runs,
        allowDestructive: s.allowDestructive,
        readyTimeoutS: s.readyTimeoutS ?? def.runOptions?.(apiOptions[def.id]).readyTimeoutS ?? 10,
        runTag: s.runTag,
        replayPath: s.replayPath,
        apiOptions: exportedValues(def, apiOptions[def.id]),
        target: o.targets?.[def.id],
        only: s.only,
        retries: s.retries,
        settleS: s.settleS,
        timeoutMs: s.timeoutMs,
        maxBodyBytes: 16 * 1024 * 1024,
        rateLimit: s.rateLimit,
        maxWrites: s.maxWrites,
        har: s.har || o.captureTraffic,
        concurrency: s.concurrency,
        viaPrismProxy: s.viaPrismProxy,
        shard: s.shard,
        progress: o.progress,
        signal: o.signal,
        credentialHints: o.credentialHints?.[def.id],
      }).then((run) => ({ ...run, specFile: def.specFile, catalogueFile: def.catalogueFile })),
    ),
  );
  const report = buildReport(
    runs,
    {
      startedAt: started.toISOString(),
      durationMs: Date.now() - started.getTime(),
      seed: s.seed,
      runs: s.runs,
      retries: s.retries,
      allowDestructive: s.allowDestructive,
      only: s.only,
      runTag: s.runTag,
      node: process.version,
      config: {
        ...recordedConfig({ ...s, apiOptions }, selected),
        ...(s.readyTimeoutS !== undefined ? { readyTimeoutS: s.readyTimeoutS } : {}),
      },
      ...(o.signal?.aborted ? { interrupted: true } : {}),
      ...(s.requireAll ? { requireAll: true } : {}),
      ...(s.label ? { label: s.label } : {}),
    },
    { ...o.tool, commit: suiteCommit() },
  );
  const files = o.write === false ? [] : writeReports(report, runs, s);
  return { report, runs, exitCode: exitCodeOf(report.summary), files };
}

function writeReports(report: ComplianceReport, runs: ApiRun[], s: Settings): string[] {
  // Secrets are masked at the last moment, over the whole text, so no renderer can leak one.
  const mask = createMasker(runs.flatMap((r) => r.secrets));
  mkdirSync(s.reportDir, { recursive: true });
  const out: [string, string][] = [];
  if (s.formats.includes('json')) out.push(['compliance.json', JSON.stringify(report, null, 2)]);
  if (s.formats.includes('md')) out.push(['compliance.md', renderMarkdown(report)]);
  if (s.formats.includes('html')) out.push(['compliance.html', renderHtml(report, { summaryOnly: s.summaryOnly })]);
  if (s.formats.includes('junit')) out.push(['junit.xml', renderJunit(report)]);
  if (s.har) out.push(['traffic.har', JSON.stringify(toHar(runs.flatMap((r) => r.exchanges ?? [])), null, 1)]);
  return out.map(([name, text]) => {
    const file = join(s.reportDir, name);
    writeFileSync(file, mask(text));
    return file;
  });
}

/**
 * Sends each configured credential of a deployment once, with the API's harmless GET (and, for a role meant to
 * write, its harmless write of an object tagged with `runTag`: see probeWrite), before any check runs: a
 * credential the target refuses, or an address that holds no API, is a usage error naming the variable that supplied
 * it. A credential meant to be refused that gets another answer lets the run go on: its hint, by role, is returned
 * for the failures it will cause. Embedded targets are not probed (their demo credentials are the implementation's own).
 */
export async function probeCredentials(
  def: ApiDefinition,
  target: Target,
  timeoutMs: number,
  runTag = 'cfprobe',
): Promise<Record<string, string>> {
  const probe = def.credentialProbe;
  if (!probe || target.embedded) return {};
  const transport = createTransport({
    timeoutMs,
    maxBodyBytes: 1024 * 1024,
    tlsInsecure: target.tlsInsecure,
    tlsInsecureVariable: tlsInsecureVariable(def.options),
    proxy: target.proxy,
  });
  const refused: string[] = [];
  const hints: Record<string, string> = {};
  try {
    const url = `${target.baseUrl}${probe.path(target)}`;
    for (const [role, principal] of Object.entries(target.principals)) {
      if (!principal.authorization) continue;
      let answer: Awaited<ReturnType<typeof transport.send>>;
      try {
        answer = await transport.send({
          method: 'GET',
          url,
          headers: { authorization: principal.authorization, accept: 'application/json' },
        });
      } catch (e) {
        throw new UsageError(unreachableLine(target, e as Error));
      }
      const verdict = judgeProbe(def, target, role, answer.status, answer);
      if (verdict.kind === 'no-api') throw new UsageError(verdict.line);
      if (verdict.kind === 'refused') refused.push(verdict.line);
      if (verdict.kind === 'suspect') hints[role] = verdict.hint;
      const cannotWrite =
        verdict.kind === 'ok'
          ? await probeWrite(def, target, role, transport, runTag).catch((e: Error) => {
              throw new UsageError(unreachableLine(target, e));
            })
          : undefined;
      if (cannotWrite) refused.push(cannotWrite);
    }
  } finally {
    transport.close();
  }
  if (refused.length) throw new UsageError(refused.join('; '));
  return hints;
}
