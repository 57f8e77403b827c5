import { mkdirSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { APIS } from '../apis';
import { createMasker } from '../core/mask';
import { openSession, runSession, type Session } from '../core/session';
import { flagHelp, parseArgsOptions, RUN_OPTIONS, variableHelp } from '../core/settings';
import { TOOL } from '../core/tool';
import { UsageError } from '../core/usage-error';
import { parseCommand } from './args';
import { dryRunPlan, rehearsal } from './dry-run';
import { interruptOnSignals } from './interrupt';
import { clearReports, reportDirMistake } from './report-dir';
import { progressPrinter } from './progress';
import { summaryText } from './summary';

/**
 * The example config file where this copy of the tool has it, from the working directory: `fixtures/…` in a checkout,
 * `node_modules/api-conformance/fixtures/…` in a project that installed the package.
 */
export const CONFIG_EXAMPLE = relative(process.cwd(), fileURLToPath(new URL('../../fixtures/config.example.yaml', import.meta.url)));

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

config file (--config FILE): YAML with the keys above, e.g. ${CONFIG_EXAMPLE}; unknown keys are refused.`;

const OPTIONS = parseArgsOptions(RUN_OPTIONS);

/** What the run would send, rehearsed against the embedded implementations; nothing reaches a target. */
async function dryRun(session: Session): Promise<number> {
  const { settings, apis } = session;
  process.stderr.write('dry run: rehearsing against the embedded reference implementation; nothing is sent to any target\n');
  const progress = progressPrinter();
  const runs = await rehearsal(session, progress).finally(() => progress.close());
  const plan = dryRunPlan(runs, apis, session.targets, settings.allowDestructive);
  mkdirSync(settings.reportDir, { recursive: true });
  writeFileSync(join(settings.reportDir, 'dry-run.json'), JSON.stringify(plan.json, null, 2));
  process.stdout.write(`${plan.text}plan: ${join(settings.reportDir, 'dry-run.json')}\n`);
  return 0;
}

export async function run(argv: string[]): Promise<number> {
  const { values } = parseCommand('run', OPTIONS, argv);
  if (values.help) {
    console.log(RUN_HELP);
    return 0;
  }
  const flags = values as Record<string, string | boolean | undefined>;
  const session = openSession({ flags, configFile: typeof values.config === 'string' ? values.config : undefined, env: process.env }, APIS);
  if (values['dry-run']) return dryRun(session);
  const { reportDir, overwrite } = session.settings;
  const occupied = reportDirMistake(reportDir, overwrite);
  if (occupied) throw new UsageError(occupied);

  let stop = () => {};
  const result = await runSession(session, {
    start: () => {
      clearReports(reportDir);
      const interrupt = interruptOnSignals();
      const progress = progressPrinter();
      stop = () => {
        progress.close();
        interrupt.dispose();
      };
      return { progress, signal: interrupt.signal };
    },
  }).finally(() => stop());
  const mask = createMasker(result.runs.flatMap((r) => r.secrets));
  process.stdout.write(mask(summaryText(result.report, result.files)));
  return result.exitCode;
}
