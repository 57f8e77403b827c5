import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ApiDefinition } from '../../core/api';
import type { ComplianceReport } from '../../core/report/model';
import { opsApi } from '../../ops/index';
import { stacksApi } from '../../stacks/index';
import { runAgainst } from '../harness';

/**
 * The second pair of servers written from the documents alone, started as processes on a free port and reached
 * through the README's variables; `bug` switches on documented bugs by name (BUGS.md beside each server).
 */
const HERE = dirname(fileURLToPath(import.meta.url));

async function freePort(): Promise<number> {
  const probe = createServer().listen(0, '127.0.0.1');
  await once(probe, 'listening');
  const { port } = probe.address() as { port: number };
  probe.close();
  await once(probe, 'close');
  return port;
}

async function start(script: string, extraEnv: Record<string, string> = {}): Promise<{ port: number; child: ChildProcess }> {
  const port = await freePort();
  const child = spawn(process.execPath, [join(HERE, script)], { env: { ...process.env, ...extraEnv, PORT: String(port) }, stdio: ['ignore', 'pipe', 'inherit'] });
  let seen = '';
  await new Promise<void>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code} before listening`)));
    child.stdout!.on('data', (b: Buffer) => {
      seen += b.toString();
      if (seen.includes('listening on')) resolve();
    });
  });
  return { port, child };
}

async function runOn(api: ApiDefinition, script: string, env: (port: number) => Record<string, string>, bug?: string): Promise<ComplianceReport> {
  const { port, child } = await start(script, bug ? { BUG: bug } : {});
  try {
    return await runAgainst(api, api.targetFromEnv(env(port))!, { readyTimeoutS: 10 });
  } finally {
    child.kill();
  }
}

export const runStacks = (bug?: string) =>
  runOn(
    stacksApi,
    'stacks/server.mjs',
    (port) => ({ STACKS_BASE_URL: `http://127.0.0.1:${port}`, STACKS_API_KEY: 'key-alice', STACKS_API_KEY_2: 'key-bob', STACKS_API_KEY_FORBIDDEN: 'key-mallory' }),
    bug,
  );

export const runOps = (bug?: string) =>
  runOn(
    opsApi,
    'ops/server.mjs',
    (port) => ({
      OPS_BASE_URL: `http://127.0.0.1:${port}`,
      OPS_USERNAME: 'admin',
      OPS_PASSWORD: 's3cret-admin',
      OPS_READONLY_USERNAME: 'viewer',
      OPS_READONLY_PASSWORD: 's3cret-view',
      OPS_RESTRICTED_USERNAME: 'teamwriter',
      OPS_RESTRICTED_PASSWORD: 's3cret-team',
    }),
    bug,
  );
