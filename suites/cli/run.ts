import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { APIS } from '../apis';
import type { ApiDefinition } from '../core/api';
import { probeCredentials, runConformance } from '../core/conformance';
import { createMasker } from '../core/mask';
import { prismCommand } from '../core/prism';
import { setupMistake } from '../core/setup-check';
import { matchesOnly } from '../core/registry';
import { closest, exportedEnv, flagHelp, loadConfigFile, parseArgsOptions, resolveSettings, RUN_OPTIONS, variableHelp } from '../core/settings';
import { TOOL } from '../core/tool';
import type { Target } from '../core/types';
import { UsageError } from '../core/usage-error';
import { parseCommand } from './args';
import { dryRunPlan } from './dry-run';
import { interruptOnSignals } from './interrupt';
import { clearReports, reportDirMistake } from './report-dir';
import { progressPrinter } from './progress';
import { summaryText } from './summary';

const declarations = () => APIS.map((a) => ({ id: a.id, options: a.options }));

/** The help of `run`, from the option table and each API's declared variables. */
export const RUN_HELP = `usage: ${TOOL.name} run [options]

Runs against the embedded reference implementation of each API unless a deployment is configured (its base URL and
credentials below, --target, or --config). Flags win over the config file, the file over the environment.
Exit code: 0 every MUST requirement passed, 1 one failed, 2 usage or connection error (one line on stderr),
130 interrupted (SIGINT, SIGTERM: reports written with the gate incomplete).

options:                                                  [environment variable · config-file key]
${flagHelp(RUN_OPTIONS, { api: APIS.map((a) => a.id).join(', ') }).join('\n')}

environment only:
${variableHelp(RUN_OPTIONS).join('\n')}
${APIS.map((a) => `\n${a.id} deployment (${a.title}): environment variable · config-file key\n${variableHelp(a.options, `targets.${a.id}.`).join('\n')}`).join('\n')}

config file (--config FILE): YAML with the keys above, e.g. fixtures/config.example.yaml; unknown keys are refused.`;

const OPTIONS = parseArgsOptions(RUN_OPTIONS);

/** Ids and group globs to suggest for an --only pattern that matched nothing. */
function selectable(apis: ApiDefinition[]): string[] {
  const out = new Set<string>();
  for (const a of apis) {
    for (const c of a.checks) {
      out.add(c.id);
      const parts = c.id.split('.');
      for (let i = 1; i < parts.length; i++) out.add(`${parts.slice(0, i).join('.')}.*`);
      for (const r of c.requirements) {
        out.add(r);
        const segs = r.split('-');
        for (let i = 1; i < segs.length; i++) out.add(`${segs.slice(0, i).join('-')}-*`);
      }
    }
  }
  return [...out];
}

/** Every --only pattern must select a check of the chosen APIs: a typo is a usage error, not a run of nothing. */
function checkOnly(patterns: string[] | undefined, apis: ApiDefinition[], from: string): void {
  if (!patterns) return;
  if (!patterns.length) throw new UsageError(`${from} is empty: give check or requirement ids or globs (see '${TOOL.name} list')`);
  for (const p of patterns) {
    if (apis.some((a) => a.checks.some((c) => matchesOnly(c, [p])))) continue;
    const elsewhere = APIS.filter((a) => !apis.includes(a) && a.checks.some((c) => matchesOnly(c, [p]))).map((a) => a.id);
    const near = closest(p, selectable(apis));
    const hint = elsewhere.length ? `it matches checks of ${elsewhere.join(', ')}, which are not selected` : near.length ? `closest: ${near.join(', ')}` : `see '${TOOL.name} list'`;
    throw new UsageError(`${from} '${p}' matches no check or requirement of ${apis.map((a) => a.id).join(', ')} (${hint})`);
  }
}

export async function run(argv: string[]): Promise<number> {
  const { values } = parseCommand('run', OPTIONS, argv);
  if (values.help) {
    console.log(RUN_HELP);
    return 0;
  }
  const file = typeof values.config === 'string' ? loadConfigFile(values.config, declarations()) : undefined;
  const { settings, origins } = resolveSettings({ flags: values as Record<string, string | boolean | undefined>, file, env: process.env }, declarations());
  const mistake = setupMistake(process.env, { settings, origins }, declarations());
  if (mistake) throw new UsageError(mistake);
  if (settings.viaPrismProxy) prismCommand(origins.viaPrismProxy ?? '--via-prism-proxy');
  const apis = APIS.filter((a) => settings.apis.includes(a.id));
  // Validates each deployment's configuration (missing keys, bad URLs) before anything starts.
  const configured: Record<string, Target | undefined> = Object.fromEntries(apis.map((a) => [a.id, a.targetFrom(settings.apiOptions?.[a.id] ?? {}, origins)]));
  checkOnly(settings.only, apis, origins.only ?? '--only');
  // Options that checks read from the environment (replay path, limit probe) get the resolved value.
  Object.assign(process.env, exportedEnv(settings, apis));

  if (values['dry-run']) {
    process.stderr.write('dry run: rehearsing against the embedded reference implementation; nothing is sent to any target\n');
    const targets: Record<string, Target> = Object.fromEntries(await Promise.all(apis.map(async (a) => [a.id, await a.startEmbedded()] as const)));
    const progress = progressPrinter();
    // The rate limit protects a deployment; the rehearsal does not reach one, so it runs at full speed.
    // Every check is rehearsed, destructive ones included (the rehearsal's targets are embedded); the plan says which
    // of them would reach the target.
    const rehearsal = { ...settings, retries: 0, rateLimit: undefined };
    const result = await runConformance({ settings: rehearsal, apis, env: {}, targets, progress, tool: TOOL, write: false, captureTraffic: true }).finally(() => progress.close());
    const plan = dryRunPlan(result.runs, apis, configured, settings.allowDestructive);
    mkdirSync(settings.reportDir, { recursive: true });
    writeFileSync(join(settings.reportDir, 'dry-run.json'), JSON.stringify(plan.json, null, 2));
    process.stdout.write(`${plan.text}plan: ${join(settings.reportDir, 'dry-run.json')}\n`);
    return 0;
  }

  const occupied = reportDirMistake(settings.reportDir, settings.overwrite);
  if (occupied) throw new UsageError(occupied);

  // Each deployment's credentials are tried once before any check: a refused key is a usage error, not 100 failures.
  const credentialHints = Object.fromEntries(await Promise.all(apis.map(async (a) => [a.id, configured[a.id] ? await probeCredentials(a, configured[a.id]!, settings.timeoutMs) : {}] as const)));

  clearReports(settings.reportDir);
  const interrupt = interruptOnSignals();
  const targets = Object.fromEntries(Object.entries(configured).filter((e): e is [string, Target] => e[1] !== undefined));
  const progress = progressPrinter();
  const result = await runConformance({ settings, apis, env: {}, targets, progress, signal: interrupt.signal, tool: TOOL, credentialHints }).finally(() => {
    progress.close();
    interrupt.dispose();
  });
  const mask = createMasker(result.runs.flatMap((r) => r.secrets));
  process.stdout.write(mask(summaryText(result.report, result.files)));
  return result.exitCode;
}
