import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { APIS } from './apis';
import { UsageError } from './core/api';
import { runConformance } from './core/conformance';
import { configFileEnv, settingsFrom } from './core/settings';
import { createMasker } from './core/mask';
import { progressPrinter } from './cli/progress';
import { summaryText } from './cli/summary';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
const TOOL = { name: pkg.name as string, version: pkg.version as string };

const HELP: Record<string, string> = {
  main: `${TOOL.name} ${TOOL.version}: conformance checks for the stack provisioning API and the operations management API

usage: ${TOOL.name} <command> [options]

commands:
  run      run the conformance checks and write reports (exit 0 pass, 1 a MUST failed, 2 usage/connection error)
  list     list requirements and checks with ids, levels and whether they are destructive

'${TOOL.name} <command> --help' shows the options of a command.`,
  run: `usage: ${TOOL.name} run [options]

Runs against the embedded reference implementation unless a target is configured
(STACKS_BASE_URL + STACKS_API_KEY, OPS_BASE_URL + OPS_USERNAME + OPS_PASSWORD, or --target / --config).

options:
  --api LIST            comma list of APIs (stacks, ops); default all           [CONFORMANCE_APIS]
  --target URL          base URL of the deployment (needs a single --api)
  --config FILE         YAML file with the same settings (secrets may stay in the environment)
  --only GLOB,...       run only checks whose id or requirement ids match        [CONFORMANCE_ONLY]
  --seed N              seed of the property-based checks                        [CONFORMANCE_SEED]
  --runs N              generated cases per property check (default 25)          [CONFORMANCE_RUNS]
  --allow-destructive   allow checks that can change data the run did not create [CONFORMANCE_ALLOW_DESTRUCTIVE=1]
  --timeout S           seconds to wait for one answer (default 10)              [CONFORMANCE_TIMEOUT_S]
  --retries N           re-runs of a failing check to tell intermittent failures (default 2) [CONFORMANCE_RETRIES]
  --rate-limit N        at most N requests per second                            [CONFORMANCE_RATE_LIMIT]
  --max-writes N        at most N non-GET requests                               [CONFORMANCE_MAX_WRITES]
  --report-dir DIR      where reports go (default reports)                       [CONFORMANCE_REPORT_DIR]
  --format LIST         json,md,html,junit (default all)                         [CONFORMANCE_FORMATS]
  --har                 also save the run's traffic as reports/traffic.har, credentials masked`,
  list: `usage: ${TOOL.name} list [--api LIST] [--json]

Lists every requirement (id, level, group, checks) and every check (id, requirements, destructive).`,
};

function fail(message: string): never {
  process.stderr.write(`error: ${message}\n`);
  process.exit(2);
}

async function run(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    options: {
      help: { type: 'boolean', short: 'h' },
      api: { type: 'string' },
      target: { type: 'string' },
      config: { type: 'string' },
      only: { type: 'string' },
      seed: { type: 'string' },
      runs: { type: 'string' },
      'allow-destructive': { type: 'boolean' },
      timeout: { type: 'string' },
      retries: { type: 'string' },
      'rate-limit': { type: 'string' },
      'max-writes': { type: 'string' },
      'report-dir': { type: 'string' },
      format: { type: 'string' },
      har: { type: 'boolean' },
    },
  });
  if (values.help) { console.log(HELP.run); return 0; }
  const env: NodeJS.ProcessEnv = { ...process.env, ...(values.config ? configFileEnv(values.config) : {}) };
  const set = (name: string, v: string | boolean | undefined) => {
    if (v !== undefined) env[name] = v === true ? '1' : String(v);
  };
  set('CONFORMANCE_APIS', values.api);
  set('CONFORMANCE_ONLY', values.only);
  set('CONFORMANCE_SEED', values.seed);
  set('CONFORMANCE_RUNS', values.runs);
  set('CONFORMANCE_ALLOW_DESTRUCTIVE', values['allow-destructive']);
  set('CONFORMANCE_TIMEOUT_S', values.timeout);
  set('CONFORMANCE_RETRIES', values.retries);
  set('CONFORMANCE_RATE_LIMIT', values['rate-limit']);
  set('CONFORMANCE_MAX_WRITES', values['max-writes']);
  set('CONFORMANCE_REPORT_DIR', values['report-dir']);
  set('CONFORMANCE_FORMATS', values.format);
  set('CONFORMANCE_HAR', values.har);
  const settings = settingsFrom(env, APIS.map((a) => a.id));
  if (values.target) {
    if (settings.apis.length !== 1) throw new UsageError('--target needs exactly one API: add --api stacks or --api ops');
    env[`${settings.apis[0].toUpperCase()}_BASE_URL`] = values.target;
  }
  const controller = new AbortController();
  process.once('SIGINT', () => {
    process.stderr.write('\ninterrupted: finishing the current check and cleaning up (Ctrl-C again to quit at once)\n');
    controller.abort();
    process.once('SIGINT', () => process.exit(130));
  });
  const result = await runConformance({ settings, apis: APIS, env, progress: progressPrinter(), signal: controller.signal, tool: TOOL });
  const mask = createMasker(result.runs.flatMap((r) => r.secrets));
  process.stdout.write(mask(summaryText(result.report, result.files)));
  return controller.signal.aborted ? 130 : result.exitCode;
}

function list(argv: string[]): number {
  const { values } = parseArgs({ args: argv, strict: true, options: { help: { type: 'boolean', short: 'h' }, api: { type: 'string' }, json: { type: 'boolean' } } });
  if (values.help) { console.log(HELP.list); return 0; }
  const ids = values.api?.split(',') ?? APIS.map((a) => a.id);
  const chosen = APIS.filter((a) => ids.includes(a.id));
  if (chosen.length !== ids.length) throw new UsageError(`unknown API in --api ${values.api}`);
  const data = chosen.map((a) => ({
    api: a.id,
    checks: a.checks.map((c) => ({ id: c.id, title: c.title, requirements: c.requirements, destructive: !!c.destructive, needs: c.needs ?? [] })),
  }));
  if (values.json) { console.log(JSON.stringify(data, null, 2)); return 0; }
  for (const a of data) {
    console.log(`${a.api}: ${a.checks.length} checks`);
    for (const c of a.checks) console.log(`  ${c.id}${c.destructive ? ' [destructive]' : ''}${c.needs.length ? ` [needs ${c.needs.join(', ')}]` : ''}\n      ${c.title}\n      covers ${c.requirements.join(', ')}`);
  }
  return 0;
}

const COMMANDS: Record<string, (argv: string[]) => number | Promise<number>> = { run, list };

async function main(): Promise<void> {
  // `... | head` closes the pipe early; that is not an error worth a stack trace.
  process.stdout.on('error', (e: NodeJS.ErrnoException) => (e.code === 'EPIPE' ? process.exit(0) : undefined));
  const [command, ...rest] = process.argv.slice(2);
  if (!command || command === '--help' || command === '-h' || command === 'help') {
    console.log(HELP.main);
    process.exit(command ? 0 : 2);
  }
  const fn = COMMANDS[command];
  if (!fn) fail(`unknown command '${command}' (try --help)`);
  try {
    process.exitCode = await fn(rest);
  } catch (e) {
    if (e instanceof UsageError || (e as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) fail((e as Error).message);
    throw e;
  }
}

await main();
