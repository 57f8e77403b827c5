import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { ApiDefinition } from '../../core/api';
import { opsApi } from '../../ops/index';
import { stacksApi } from '../../stacks/index';
import { mustFailed, runAgainst, shouldFailed } from '../harness';
import { expectCaught } from './expect';

/**
 * The servers of the corpus that describe themselves in a manifest.json (corpus/servers/<name>/): read as data, never
 * imported, started as processes and reached through the README's variables, as a user would. A correct server passes
 * the gate and warns only on the SHOULDs its manifest lists; each documented bug fails the requirements it `breaks`
 * and no MUST beyond them, its `collateral` and the server's expected failures.
 */
const CORPUS = join(dirname(fileURLToPath(import.meta.url)), '../../../corpus/servers');

interface Bug {
  clause: string;
  does: string;
  breaks?: string[];
  collateral?: string[];
}
interface Manifest {
  api: 'stacks' | 'ops';
  summary: string;
  entry: string;
  scheme: 'http' | 'https';
  credentials: Record<string, string>;
  expected?: { mustFailures?: string[]; warnings?: string[] };
  bugs: Record<string, Bug>;
}

const servers = readdirSync(CORPUS)
  .filter((name) => existsSync(join(CORPUS, name, 'manifest.json')))
  .map((name) => ({ name, manifest: JSON.parse(readFileSync(join(CORPUS, name, 'manifest.json'), 'utf8')) as Manifest }))
  .filter((s) => s.manifest.entry.endsWith('.mjs'));

const API: Record<Manifest['api'], ApiDefinition> = { stacks: stacksApi, ops: opsApi };
const BASE_URL: Record<Manifest['api'], string> = { stacks: 'STACKS_BASE_URL', ops: 'OPS_BASE_URL' };

async function freePort(): Promise<number> {
  const probe = createServer().listen(0, '127.0.0.1');
  await once(probe, 'listening');
  const { port } = probe.address() as { port: number };
  probe.close();
  await once(probe, 'close');
  return port;
}

async function start(dir: string, entry: string, bug?: string): Promise<{ port: number; child: ChildProcess }> {
  const port = await freePort();
  const child = spawn(process.execPath, [join(dir, entry)], { env: { ...process.env, PORT: String(port), ...(bug ? { BUG: bug } : {}) }, stdio: ['ignore', 'pipe', 'inherit'] });
  let seen = '';
  await new Promise<void>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`${entry} exited with ${code} before listening`)));
    child.stdout!.on('data', (b: Buffer) => {
      seen += b.toString();
      if (seen.includes('listening on')) resolve();
    });
  });
  return { port, child };
}

async function run(name: string, m: Manifest, bug?: string) {
  const { port, child } = await start(join(CORPUS, name), m.entry, bug);
  try {
    const env = { [BASE_URL[m.api]]: `${m.scheme}://127.0.0.1:${port}`, ...m.credentials };
    return await runAgainst(API[m.api], API[m.api].targetFromEnv(env)!, { readyTimeoutS: 10 });
  } finally {
    child.kill();
  }
}

describe.concurrent.each(servers)('$name ($manifest.api)', ({ name, manifest: m }) => {
  const mustFailures = m.expected?.mustFailures ?? [];
  it('passes the gate, warning only where its manifest says', async () => {
    const report = await run(name, m);
    expect(mustFailed(report).sort()).toEqual([...mustFailures].sort());
    expect(shouldFailed(report).sort()).toEqual([...(m.expected?.warnings ?? [])].sort());
  }, 180_000);
  it.each(Object.entries(m.bugs))(
    'bug %s fails the requirement it breaks',
    async (bug, b) => {
      expect(b.breaks, `bug ${bug} has no requirement mapped`).toBeDefined();
      const report = await run(name, m, bug);
      expectCaught(report, { named: b.breaks!, collateral: [...(b.collateral ?? []), ...mustFailures] }, `${bug}: ${b.clause}`);
    },
    180_000,
  );
});
