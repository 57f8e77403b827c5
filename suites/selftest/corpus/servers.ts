import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { join } from 'node:path';
import type { ApiDefinition } from '../../core/api';
import type { ComplianceReport } from '../../core/report/model';
import { opsApi } from '../../ops/index';
import { stacksApi } from '../../stacks/index';
import { runAgainst } from '../harness';
import type { CorpusApi, CorpusServer } from './manifest';

const API: Record<CorpusApi, ApiDefinition> = { stacks: stacksApi, ops: opsApi };
const BASE_URL: Record<CorpusApi, string> = { stacks: 'STACKS_BASE_URL', ops: 'OPS_BASE_URL' };

export interface StartedServer {
  /** The README's variables that reach it, as a user would set them. */
  env: Record<string, string>;
  close(): Promise<void>;
}

async function freePort(): Promise<number> {
  const probe = createServer().listen(0, '127.0.0.1');
  await once(probe, 'listening');
  const { port } = probe.address() as { port: number };
  probe.close();
  await once(probe, 'close');
  return port;
}

/**
 * Starts a server of the corpus as a process, the way its NOTES.md says: `PORT`, and `BUG` or `VARIANT` when asked,
 * in the environment, with its manifest's `serverEnv`; `.ts` entries run with tsx. It is ready when it prints `listening on <port>`. Its base URL is
 * `<scheme>://127.0.0.1:<port>`, unless it prints `export <API>_BASE_URL=<url>` first (a server under a path); the
 * other variables come from its manifest, and a value it prints that contradicts them is an error.
 */
export async function startServer(
  server: CorpusServer,
  opts: { bug?: string; variant?: string } = {},
  attempt = 1,
): Promise<StartedServer> {
  const { manifest: m, dir, name } = server;
  const port = await freePort();
  const args = m.entry.endsWith('.ts') ? ['--import', 'tsx', join(dir, m.entry)] : [join(dir, m.entry)];
  const env = {
    ...process.env,
    ...m.serverEnv,
    PORT: String(port),
    ...(opts.bug ? { BUG: opts.bug } : {}),
    ...(opts.variant ? { VARIANT: opts.variant } : {}),
  };
  const child = spawn(process.execPath, args, { cwd: dir, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stderr!.on('data', (b: Buffer) => (err = (err + b.toString()).slice(-4000)));
  const exited = once(child, 'exit');
  const listening = await new Promise<boolean>((resolve) => {
    child.once('exit', () => resolve(false));
    child.stdout!.on('data', (b: Buffer) => {
      out += b.toString();
      if (/^listening on \d+/m.test(out)) resolve(true);
    });
  });
  // Another process may take the free port between the probe and the listen: try another.
  if (!listening && attempt < 3 && /EADDRINUSE/.test(err)) return startServer(server, opts, attempt + 1);
  if (!listening) throw new Error(`${name}/${m.entry} exited before listening${err ? `:\n${err}` : ''}`);
  const printed = Object.fromEntries([...out.matchAll(/^export (\w+)=(.*)$/gm)].map((x) => [x[1], x[2]]));
  for (const [k, v] of Object.entries(printed))
    if (k in m.credentials && m.credentials[k] !== v) throw new Error(`${name} prints ${k}=${v}, its manifest says ${m.credentials[k]}`);
  const baseUrl = printed[BASE_URL[m.api]] ?? `${m.scheme}://127.0.0.1:${port}`;
  return {
    env: { [BASE_URL[m.api]]: baseUrl, ...m.credentials },
    close: async () => {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill();
        await exited;
      }
    },
  };
}

/**
 * Runs the suite against a server of the corpus as a user would run it against a deployment: through the variables,
 * destructive checks allowed (the server holds only its seed, and is gone after the run).
 */
export async function runServer(server: CorpusServer, opts: { bug?: string; variant?: string } = {}): Promise<ComplianceReport> {
  const started = await startServer(server, opts);
  const api = API[server.manifest.api];
  const { lagS = {} } = server.manifest;
  // A server that shows writes at once is run without a settle bound, so a bug run's failing checks are not each
  // run again with waits: the lag the suite meets on a real deployment is judged by the lagging variants.
  const settleS = (opts.variant ? lagS[opts.variant] : undefined) ?? lagS['*'] ?? 0;
  try {
    // The servers are on this machine: an answer is late only when the machine is busy (ten runs and the other
    // self-tests share two cores), so a request waits longer than against a deployment before the target counts as gone.
    return await runAgainst(api, api.targetFromEnv(started.env)!, {
      allowDestructive: true,
      readyTimeoutS: 10,
      settleS,
      timeoutMs: 30_000,
    });
  } finally {
    await started.close();
  }
}
