import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { ApiDefinition } from '../../core/api';
import { opsApi } from '../../ops/index';
import { stacksApi } from '../../stacks/index';
import { mustFailed, runAgainst } from '../harness';

/**
 * Two more servers written from the documents alone, as plain JavaScript programs run the way a user runs theirs
 * (a process on a port, reached through the README's variables). Their choices where the documents are silent are
 * listed in their NOTES.md: ULID stack ids, stacks that stay visible as STOPPING after a delete, UUID keys, 422 and
 * 201 answers, {messages: [...]} errors, entity membership computed from service rules, tickets only on known
 * episodes, {_key: null} for a service without template. Both are correct: the only failure the suite may report is
 * the ops server's plain HTTP, which the document's "Transport: HTTPS" rules out.
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

async function start(script: string): Promise<{ port: number; child: ChildProcess }> {
  const port = await freePort();
  const child = spawn(process.execPath, [join(HERE, script)], { env: { ...process.env, PORT: String(port) }, stdio: ['ignore', 'pipe', 'inherit'] });
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

async function runOn(api: ApiDefinition, script: string, env: (port: number) => Record<string, string>) {
  const { port, child } = await start(script);
  try {
    return await runAgainst(api, api.targetFromEnv(env(port))!, { readyTimeoutS: 10 });
  } finally {
    child.kill();
  }
}

describe('servers written from the documents alone, run as processes', () => {
  it('stacks: the gate passes', async () => {
    const report = await runOn(stacksApi, 'stacks/server.mjs', (port) => ({
      STACKS_BASE_URL: `http://127.0.0.1:${port}`,
      STACKS_API_KEY: 'key-alice',
      STACKS_API_KEY_2: 'key-bob',
      STACKS_API_KEY_FORBIDDEN: 'key-mallory',
    }));
    expect(mustFailed(report)).toEqual([]);
    expect(report.summary.gate).toBe('pass');
  }, 120_000);

  it('ops: the only MUST that fails is the transport (the server speaks plain HTTP)', async () => {
    const report = await runOn(opsApi, 'ops/server.mjs', (port) => ({
      OPS_BASE_URL: `http://127.0.0.1:${port}`,
      OPS_USERNAME: 'admin',
      OPS_PASSWORD: 's3cret-admin',
      OPS_READONLY_USERNAME: 'viewer',
      OPS_READONLY_PASSWORD: 's3cret-view',
      OPS_RESTRICTED_USERNAME: 'teamwriter',
      OPS_RESTRICTED_PASSWORD: 's3cret-team',
    }));
    expect(mustFailed(report)).toEqual(['OPS-AUTH-HTTPS']);
    const warned = report.requirements.filter((q) => q.level === 'SHOULD' && q.status === 'failed').map((q) => q.id);
    expect(warned).toEqual([]);
  }, 120_000);
});
