import { UsageError } from './core/usage-error';
import { closest } from './core/settings';
import { list, LIST_HELP } from './cli/list';
import { mock, MOCK_HELP } from './cli/mock';
import { replay, REPLAY_HELP } from './cli/replay';
import { report, REPORT_HELP } from './cli/report';
import { run, RUN_HELP } from './cli/run';
import { serve, SERVE_HELP } from './cli/serve';
import { TOOL } from './core/tool';

const COMMANDS: Record<string, { fn: (argv: string[]) => number | undefined | Promise<number | undefined>; help: string; line: string }> = {
  run: {
    fn: run,
    help: RUN_HELP,
    line: 'run the conformance checks and write reports (exit 0 pass, 1 a MUST failed, 2 usage/connection error, 130 interrupted)',
  },
  list: { fn: list, help: LIST_HELP, line: 'list requirements and checks with ids, levels and whether they are destructive' },
  report: { fn: report, help: REPORT_HELP, line: 're-render a compliance.json; OLD.json --compare NEW.json; --merge shard reports' },
  replay: {
    fn: replay,
    help: REPLAY_HELP,
    line: 're-run the case that failed a requirement in a compliance.json (--script: its requests as curl)',
  },
  serve: { fn: serve, help: SERVE_HELP, line: 'start the reference implementation of an API' },
  mock: { fn: mock, help: MOCK_HELP, line: 'serve a Prism mock of an API from its spec' },
};

const MAIN_HELP = `${TOOL.name} ${TOOL.version}: conformance checks for the stack provisioning API and the operations management API

usage: ${TOOL.name} <command> [options]

commands:
${Object.entries(COMMANDS)
  .map(([name, c]) => `  ${name.padEnd(8)} ${c.line}`)
  .join('\n')}

'${TOOL.name} <command> --help' shows the options of a command.`;

/** A usage mistake: one line on stderr, exit code 2. */
function fail(message: string): never {
  process.stderr.write(`error: ${message.replace(/\s*\n\s*/g, ' ')}\n`);
  process.exit(2);
}

async function main(): Promise<void> {
  // `... | head` closes the pipe early; that is not an error worth a stack trace.
  process.stdout.on('error', (e: NodeJS.ErrnoException) => (e.code === 'EPIPE' ? process.exit(0) : undefined));
  const [command, ...rest] = process.argv.slice(2);
  if (command === '--help' || command === '-h' || command === 'help') {
    console.log(MAIN_HELP);
    return;
  }
  if (command === '--version') return void console.log(TOOL.version);
  if (!command) fail(`no command given (commands: ${Object.keys(COMMANDS).join(', ')}; try --help)`);
  const c = COMMANDS[command];
  if (!c) {
    const near = closest(command, Object.keys(COMMANDS));
    fail(
      `unknown command '${command}' (${near.length ? `did you mean ${near[0]}? ` : ''}commands: ${Object.keys(COMMANDS).join(', ')}; try --help)`,
    );
  }
  try {
    const code = await c.fn(rest);
    if (code !== undefined) process.exitCode = code;
  } catch (e) {
    if (e instanceof UsageError) fail(e.message);
    process.stderr.write(`error: ${(e as Error).stack ?? e}\n`);
    process.exit(2);
  }
}

await main();
