import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { UsageError } from './usage-error';
import { freePort } from './free-port';

/** The Prism release the suite is tested with (an optional dependency: only `mock` and `--via-prism-proxy` need it). */
const PRISM_PACKAGE = '@stoplight/prism-cli';
const PRISM_VERSION = '5.14.2';

/**
 * Prism's command, found the way Node finds any package from here: next to this package when it was installed as a
 * dependency (hoisted into the user's node_modules), or in a clone's own node_modules. Missing, it is a usage error
 * that says how to add it.
 */
export function prismCommand(why: string): string {
  let manifest: string;
  try {
    manifest = createRequire(import.meta.url).resolve(`${PRISM_PACKAGE}/package.json`);
  } catch {
    throw new UsageError(
      `${why} needs Prism, an optional dependency that is not installed: add it with npm install --save-dev ${PRISM_PACKAGE}@${PRISM_VERSION}`,
    );
  }
  const bin = (JSON.parse(readFileSync(manifest, 'utf8')) as { bin?: string | Record<string, string> }).bin;
  return join(dirname(manifest), typeof bin === 'string' ? bin : (bin?.prism ?? 'dist/index.js'));
}

export interface PrismProcess {
  url: string;
  stop(): Promise<void>;
}

/**
 * Starts Prism (`mock` or `proxy <upstream>`) for a spec on a free port and waits until it answers.
 * Prism is started with node directly: killing an npx wrapper would leave it running.
 */
export async function startPrism(
  mode: 'mock' | 'proxy',
  spec: string,
  opts: { upstream?: string; port?: number; insecure?: boolean; quiet?: boolean } = {},
): Promise<PrismProcess> {
  const prism = prismCommand(mode === 'mock' ? 'mock' : '--via-prism-proxy');
  const port = opts.port ?? (await freePort());
  const args = [
    prism,
    mode,
    spec,
    ...(mode === 'proxy' ? [opts.upstream!] : []),
    '-h',
    '127.0.0.1',
    '-p',
    String(port),
    '--errors',
    'false',
  ];
  if (mode === 'mock') args.splice(args.indexOf('--errors'), 2);
  const child: ChildProcess = spawn(process.execPath, args, {
    stdio: opts.quiet === false ? 'inherit' : 'ignore',
    env: { ...process.env, ...(opts.insecure ? { NODE_TLS_REJECT_UNAUTHORIZED: '0' } : {}) },
  });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  let exited = false;
  child.once('exit', () => (exited = true));
  for (;;) {
    if (exited) throw new Error(`prism ${mode} exited before it was ready`);
    try {
      await fetch(url, { signal: AbortSignal.timeout(1000) });
      break;
    } catch {
      if (Date.now() > deadline) {
        child.kill('SIGKILL');
        throw new Error(`prism ${mode} did not answer within 60 s`);
      }
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  return {
    url,
    stop: () =>
      new Promise<void>((resolve) => {
        if (exited) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
        setTimeout(() => child.kill('SIGKILL'), 3000).unref();
      }),
  };
}
