import { describe, expect, it } from 'vitest';
import type { ApiDefinition } from '../core/api';
import type { Target } from '../core/types';
import { opsApi } from '../ops/index';
import { stacksApi } from '../stacks/index';
import { runAgainst } from './harness';
import { readServer } from './corpus/manifest';
import { startServer } from './corpus/servers';
import { startLatencyProxy } from './latency-proxy';

/** Every requirement's status at 1 and at 8 checks in flight, same seed: a verdict never depends on concurrency. */
async function statusesAt(api: ApiDefinition, target: () => Promise<Target & { stop(): Promise<void> }>) {
  const out: Record<number, Record<string, string>> = {};
  for (const concurrency of [1, 8]) {
    const t = await target();
    try {
      const report = await runAgainst(api, t, { concurrency, seed: 4242, readyTimeoutS: 5 });
      out[concurrency] = Object.fromEntries(report.requirements.map((q) => [q.id, q.status]));
      expect(report.summary.gate, `concurrency ${concurrency}`).toBe('pass');
    } finally {
      await t.stop();
    }
  }
  expect(out[8]).toEqual(out[1]);
}

/** An independent server (a process of the corpus, its default variant) behind a proxy that delays each answer, so checks in flight really overlap. */
const independent =
  (api: ApiDefinition, start: () => Promise<{ env: Record<string, string>; close(): Promise<void> }>, latencyMs: number) => async () => {
    const server = await start();
    const direct = api.targetFromEnv(server.env)!;
    const proxy = await startLatencyProxy(direct.baseUrl, latencyMs);
    return { ...direct, baseUrl: proxy.url, stop: async () => (await proxy.close(), await server.close()) };
  };

const embedded = (api: ApiDefinition) => async () => {
  const t = await api.startEmbedded();
  return { ...t, stop: async () => t.close?.() };
};

describe('the same seed gives the same verdict and statuses at concurrency 1 and 8', () => {
  it('stacks, reference implementation', () => statusesAt(stacksApi, embedded(stacksApi)), 120_000);
  it('ops, reference implementation', () => statusesAt(opsApi, embedded(opsApi)), 120_000);
  it(
    'stacks, independent server with 10 ms latency',
    () =>
      statusesAt(
        stacksApi,
        independent(stacksApi, () => startServer(readServer('stacks-in-process')), 10),
      ),
    180_000,
  );
  it(
    'ops, independent server with 10 ms latency',
    () =>
      statusesAt(
        opsApi,
        independent(opsApi, () => startServer(readServer('ops-product-like')), 10),
      ),
    180_000,
  );
});
