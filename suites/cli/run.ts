import { writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { APIS } from '../apis';
import { UsageError } from '../core/api';
import { runConformance } from '../core/conformance';
import { createMasker } from '../core/mask';
import { configFileEnv, settingsFrom } from '../core/settings';
import type { Target } from '../core/types';
import { dryRunPlan } from './dry-run';
import { progressPrinter } from './progress';
import { summaryText } from './summary';
import { TOOL } from './tool';

export const RUN_HELP = `usage: ${TOOL.name} run [options]

Runs against the embedded reference implementation unless a target is configured
(STACKS_BASE_URL + STACKS_API_KEY, OPS_BASE_URL + OPS_USERNAME + OPS_PASSWORD, or --target / --config).
Exit code: 0 every MUST requirement passed, 1 one failed, 2 usage or connection error.

options:                                                                   [environment variable]
  --api LIST            comma list of APIs (stacks, ops); default all           [CONFORMANCE_APIS]
  --target URL          base URL of the deployment (needs a single --api)
  --config FILE         YAML file with the same settings (secrets may stay in the environment)
  --only GLOB,...       run only checks whose id or requirement ids match        [CONFORMANCE_ONLY]
  --seed N              seed of the property-based checks                        [CONFORMANCE_SEED]
  --runs N              generated cases per property check (default 25)          [CONFORMANCE_RUNS]
  --allow-destructive   allow checks that can change data the run did not create [CONFORMANCE_ALLOW_DESTRUCTIVE=1]
  --dry-run             list every request the run would send (simulated against the embedded
                        implementation), grouped by destructive or not; sends nothing to the target
  --timeout S           seconds to wait for one answer (default 10)              [CONFORMANCE_TIMEOUT_S]
  --retries N           re-runs of a failing check, to tell intermittent failures (default 2) [CONFORMANCE_RETRIES]
  --concurrency N       checks of one API run at once (default 1)                [CONFORMANCE_CONCURRENCY]
  --rate-limit N        at most N requests per second                            [CONFORMANCE_RATE_LIMIT]
  --max-writes N        at most N non-GET requests                               [CONFORMANCE_MAX_WRITES]
  --shard I/N           run the I-th of N slices of the checks (merge with 'report --merge') [CONFORMANCE_SHARD]
  --via-prism-proxy     route every request through 'prism proxy' and report where it disagrees [CONFORMANCE_VIA_PRISM_PROXY=1]
  --report-dir DIR      where reports go (default reports)                       [CONFORMANCE_REPORT_DIR]
  --format LIST         json,md,html,junit (default all)                         [CONFORMANCE_FORMATS]
  --har                 also save the traffic as <report-dir>/traffic.har, credentials masked [CONFORMANCE_HAR=1]`;

const FLAGS = {
  api: 'CONFORMANCE_APIS',
  only: 'CONFORMANCE_ONLY',
  seed: 'CONFORMANCE_SEED',
  runs: 'CONFORMANCE_RUNS',
  'allow-destructive': 'CONFORMANCE_ALLOW_DESTRUCTIVE',
  timeout: 'CONFORMANCE_TIMEOUT_S',
  retries: 'CONFORMANCE_RETRIES',
  concurrency: 'CONFORMANCE_CONCURRENCY',
  'rate-limit': 'CONFORMANCE_RATE_LIMIT',
  'max-writes': 'CONFORMANCE_MAX_WRITES',
  shard: 'CONFORMANCE_SHARD',
  'via-prism-proxy': 'CONFORMANCE_VIA_PRISM_PROXY',
  'report-dir': 'CONFORMANCE_REPORT_DIR',
  format: 'CONFORMANCE_FORMATS',
  har: 'CONFORMANCE_HAR',
} as const;
const BOOLEAN = new Set(['allow-destructive', 'via-prism-proxy', 'har']);

export async function run(argv: string[]): Promise<number> {
  const options = Object.fromEntries([...Object.keys(FLAGS), 'target', 'config', 'help', 'dry-run'].map((k) => [k, { type: BOOLEAN.has(k) || k === 'help' || k === 'dry-run' ? 'boolean' : 'string' }])) as Record<string, { type: 'string' | 'boolean' }>;
  const { values, positionals } = parseArgs({ args: argv, strict: true, allowPositionals: true, options });
  if (positionals.length) throw new UsageError(`unexpected argument '${positionals[0]}' (try run --help)`);
  if (values.help) {
    console.log(RUN_HELP);
    return 0;
  }
  const env: NodeJS.ProcessEnv = { ...process.env, ...(values.config ? configFileEnv(String(values.config)) : {}) };
  for (const [flag, name] of Object.entries(FLAGS)) {
    const v = values[flag];
    if (v !== undefined) env[name] = v === true ? '1' : String(v);
  }
  const settings = settingsFrom(env, APIS.map((a) => a.id));
  if (values.target) {
    if (settings.apis.length !== 1) throw new UsageError('--target needs exactly one API: add --api stacks or --api ops');
    env[`${settings.apis[0].toUpperCase()}_BASE_URL`] = String(values.target);
  }
  const apis = APIS.filter((a) => settings.apis.includes(a.id));
  // Validates the target configuration (missing keys, bad URLs) before anything starts.
  const configured = Object.fromEntries(apis.map((a) => [a.id, a.targetFromEnv(env)]));

  if (values['dry-run']) {
    const targets: Record<string, Target> = Object.fromEntries(await Promise.all(apis.map(async (a) => [a.id, await a.startEmbedded()] as const)));
    const result = await runConformance({ settings: { ...settings, allowDestructive: settings.allowDestructive || apis.every((a) => !configured[a.id]), retries: 0 }, apis, env, targets, tool: TOOL, write: false, captureTraffic: true });
    const plan = dryRunPlan(result.runs, apis, configured);
    mkdirSync(settings.reportDir, { recursive: true });
    writeFileSync(join(settings.reportDir, 'dry-run.json'), JSON.stringify(plan.json, null, 2));
    process.stdout.write(`${plan.text}plan: ${join(settings.reportDir, 'dry-run.json')}\n`);
    return 0;
  }

  const controller = new AbortController();
  process.once('SIGINT', () => {
    process.stderr.write('\ninterrupted: finishing the current check and cleaning up (Ctrl-C again to quit at once)\n');
    controller.abort();
    process.once('SIGINT', () => process.exit(130));
  });
  const result = await runConformance({ settings, apis, env, progress: progressPrinter(), signal: controller.signal, tool: TOOL });
  const mask = createMasker(result.runs.flatMap((r) => r.secrets));
  process.stdout.write(mask(summaryText(result.report, result.files)));
  return controller.signal.aborted ? 130 : result.exitCode;
}
