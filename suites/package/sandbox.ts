/*
 * What the package tests share: an environment without anything of this repository (no node_modules/.bin on PATH,
 * none of npm's or vitest's variables, no conformance settings), commands run in it, and servers started in the
 * background as process groups, so that stopping one stops what `npx` started under it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';
export { freePort } from '../core/free-port';

export const REPO = fileURLToPath(new URL('../..', import.meta.url));

/** A user's environment: PATH without any node_modules/.bin, no npm, vitest or run variables; npm told to use its cache. */
export function userEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const keep = Object.entries(process.env).filter(
    ([k]) =>
      !/^(npm_|VITEST|TEST$|NODE_ENV$|NODE_OPTIONS$|INIT_CWD$|CONFORMANCE_|STACKS_|OPS_|GITHUB_|GITLAB_|CI_)/i.test(k) ||
      /^npm_config_(cache|registry)$/i.test(k),
  );
  const env: NodeJS.ProcessEnv = Object.fromEntries(keep);
  env.PATH = (process.env.PATH ?? '')
    .split(delimiter)
    .filter((p) => p && !p.includes('node_modules') && !p.startsWith(REPO))
    .join(delimiter);
  return {
    ...env,
    NO_COLOR: '1',
    npm_config_prefer_offline: 'true',
    npm_config_audit: 'false',
    npm_config_fund: 'false',
    npm_config_update_notifier: 'false',
    ...extra,
  };
}

export function tempDir(prefix: string): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

export interface Result {
  /** Also the id of the process group it led, which outlives it while something it started in the background runs. */
  pid: number;
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a command (argv, no shell unless `bash` is the command) to its end. */
export function run(cmd: string, args: string[], o: { cwd: string; env?: NodeJS.ProcessEnv; timeoutMs?: number }): Promise<Result> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd: o.cwd, env: o.env ?? userEnv(), stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => stopGroup(child), o.timeoutMs ?? 120_000);
    child.once('error', reject);
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ pid: child.pid!, code, stdout, stderr });
    });
  });
}

/** A process started in the background in a group of its own, with what it has printed so far. */
export interface Background {
  child: ChildProcess;
  output: () => string;
  /** Resolves once the output matches. */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<string>;
  stop(): Promise<void>;
}

export function background(cmd: string, args: string[], o: { cwd: string; env?: NodeJS.ProcessEnv }): Background {
  const child = spawn(cmd, args, { cwd: o.cwd, env: o.env ?? userEnv(), stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    child,
    output: () => out,
    async waitFor(pattern, timeoutMs = 60_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const m = out.match(pattern);
        if (m) return m[0];
        if (child.exitCode !== null || Date.now() > deadline) throw new Error(`no ${pattern} from ${cmd} ${args.join(' ')}:\n${out}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    },
    async stop() {
      stopGroup(child);
      await exited;
    },
  };
}

/** SIGTERM to the process group a detached child leads (npx, the shell under it, the server and its children). */
export function stopGroup(child: ChildProcess | number): void {
  const pid = typeof child === 'number' ? child : child.pid;
  if (pid === undefined) return;
  try {
    process.kill(-pid, 'SIGTERM');
  } catch {
    // Already gone.
  }
}

/** Bytes on disk under a folder, its folders included (what `du` counts). */
export function diskUsage(dir: string): { bytes: number; files: number } {
  let bytes = 0;
  let files = 0;
  const walk = (d: string) => {
    bytes += statSync(d).blocks * 512;
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.isFile()) {
        files++;
        bytes += statSync(p).blocks * 512;
      }
    }
  };
  walk(dir);
  return { bytes, files };
}

export const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
