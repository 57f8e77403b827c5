// Starts one reference implementation on a local port:
//   tsx reference-impl/serve.ts stacks [--port N] [--host H]
//   tsx reference-impl/serve.ts ops [--port N] [--host H]
import { pathToFileURL } from 'node:url';
import { localhostTls } from './http/tls';
import { listen, type RunningServer } from './http/server';
import type { ApiHandler, ErrorBody } from './http/types';

interface Args {
  api: 'stacks' | 'ops';
  port: number;
  host: string;
}

function usage(message: string): never {
  process.stderr.write(`${message}\nusage: tsx reference-impl/serve.ts <stacks|ops> [--port N] [--host H]\n`);
  process.exit(2);
}

function parseArgs(argv: string[]): Args {
  const [api, ...rest] = argv;
  if (api !== 'stacks' && api !== 'ops') usage(`unknown API ${JSON.stringify(api ?? '')}`);
  let port = 0;
  let host = '127.0.0.1';
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i]!;
    const [flag, inline] = arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg];
    const value = inline ?? rest[++i];
    if (value === undefined) usage(`missing value for ${flag}`);
    if (flag === '--port') {
      port = Number(value);
      if (!Number.isInteger(port) || port < 0 || port > 65535) usage(`bad port ${JSON.stringify(value)}`);
    } else if (flag === '--host') {
      host = value;
    } else {
      usage(`unknown option ${flag}`);
    }
  }
  return { api, port, host };
}

interface Started {
  handler: ApiHandler;
  errorBody: ErrorBody;
  /** Lines describing the demo credentials. */
  credentials: string[];
  tls?: { key: Buffer; cert: Buffer };
}

// Each API is imported only when chosen, so one API's server starts even while the other's code is broken.
async function stacks(): Promise<Started> {
  const { loadStacksConfig } = await import('./stacks/config');
  const { createStacksHandler } = await import('./stacks/handler');
  const { stacksErrorBody } = await import('./stacks/errors');
  const config = loadStacksConfig();
  const width = Math.max(...config.users.map((u) => u.name.length));
  return {
    handler: createStacksHandler(config),
    errorBody: stacksErrorBody,
    credentials: [
      'demo API keys (Authorization: Bearer <key>):',
      ...config.users.map((u) => `  ${u.name.padEnd(width)}  ${u.allowed ? 'allowed    ' : 'not allowed'}  ${u.apiKey}`),
    ],
  };
}

async function ops(): Promise<Started> {
  const { createOpsHandler, opsErrorBody } = await import('./ops/handler');
  const { loadOpsConfig } = await import('./ops/config');
  const config = loadOpsConfig();
  const users: { name: string; password: string; readOnly: boolean }[] = config.users;
  const width = Math.max(...users.map((u) => u.name.length));
  return {
    handler: createOpsHandler(config),
    errorBody: opsErrorBody,
    tls: localhostTls(),
    credentials: [
      'HTTPS with a self-signed certificate for localhost (clients: OPS_TLS_INSECURE=1, curl -k)',
      'demo users (HTTP basic auth):',
      ...users.map((u) => `  ${u.name.padEnd(width)}  ${u.readOnly ? 'read-only ' : 'read-write'}  ${u.password}`),
    ],
  };
}

/** Starts the reference implementation of one API, prints where and with which demo credentials, stops on SIGINT/SIGTERM. */
export async function serveReference(api: 'stacks' | 'ops', port = 0, host = '127.0.0.1'): Promise<RunningServer> {
  const started = api === 'stacks' ? await stacks() : await ops();
  const server: RunningServer = await listen(started.handler, {
    errorBody: started.errorBody,
    port,
    host,
    tls: started.tls,
  });
  process.stdout.write(`${api} API listening on ${server.url}\n${started.credentials.join('\n')}\n`);

  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) process.exit(130);
    stopping = true;
    process.stdout.write(`${signal}: stopping\n`);
    server.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  return server;
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  await serveReference(args.api, args.port, args.host);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href)
  main().catch((err: unknown) => {
    process.stderr.write(`failed to start: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  });
