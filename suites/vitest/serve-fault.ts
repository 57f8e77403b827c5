// Serves the stacks reference implementation with one deliberately broken behaviour (a self-test fault), to see
// the conformance tests fail against it:
//   npx tsx suites/vitest/serve-fault.ts [FAULT-ID] [--port N]      (no FAULT-ID: lists the faults)
//   STACKS_BASE_URL=http://127.0.0.1:N STACKS_API_KEY=... CONFORMANCE_APIS=stacks npx vitest run --project conformance
import { pathToFileURL } from 'node:url';
import { listen, type RunningServer } from '../../reference-impl/http/server';
import { loadStacksConfig } from '../../reference-impl/stacks/config';
import { stacksErrorBody } from '../../reference-impl/stacks/errors';
import { createStacksHandler } from '../../reference-impl/stacks/handler';
import { stacksFaults } from '../selftest/stacks/faults';

/** The stacks reference behind the fault `id`, and the environment that points a conformance run at it. */
export async function serveStacksFault(id: string, port = 0): Promise<{ server: RunningServer; env: Record<string, string> }> {
  const fault = stacksFaults.find((f) => f.id === id);
  if (!fault) throw new Error(`unknown fault '${id}' (known: ${stacksFaults.map((f) => f.id).join(', ')})`);
  const config = loadStacksConfig();
  const server = await listen(fault.wrap(createStacksHandler(config), config), { errorBody: stacksErrorBody, port });
  const key = (allowed: boolean, skip = 0) => config.users.filter((u) => u.allowed === allowed)[skip]!.apiKey;
  return {
    server,
    env: { STACKS_BASE_URL: server.url, STACKS_API_KEY: key(true), STACKS_API_KEY_2: key(true, 1), STACKS_API_KEY_FORBIDDEN: key(false) },
  };
}

async function main(argv: string[]): Promise<void> {
  const [id, flag, value] = argv;
  if (!id) {
    for (const f of stacksFaults) process.stdout.write(`${f.id.padEnd(40)} ${f.description} (breaks ${f.breaks.join(', ')})\n`);
    return;
  }
  const { server, env } = await serveStacksFault(id, flag === '--port' ? Number(value) : 0);
  process.stdout.write(
    `stacks reference with fault '${id}' listening on ${server.url}\npoint a run at it with:\n${Object.entries(env)
      .map(([k, v]) => `  export ${k}=${v}`)
      .join('\n')}\n  export CONFORMANCE_APIS=stacks\n`,
  );
  const stop = () => void server.close().then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main(process.argv.slice(2)).catch((e: unknown) => {
    process.stderr.write(`${e instanceof Error ? e.message : String(e)}\n`);
    process.exit(2);
  });
}
