import type { ApiDefinition } from '../suites/core/api';
import { runConformance } from '../suites/core/conformance';
import { DEPLOYMENT_CONCURRENCY } from '../suites/core/settings';
import { settingsFrom } from '../suites/core/settings';
import { startLatencyProxy } from '../suites/selftest/latency-proxy';
import { criticalPathSeconds } from './critical-path';

/**
 * Conformance runs against the reference implementation behind a proxy that delays every answer, as a remote
 * deployment would: the whole run, or (`each`) every check in a run of its own, so that its time is its own chain of
 * requests and waits, with its own bursts side by side, and no other check's.
 */
export async function remoteRun(api: ApiDefinition, latencyMs: number, concurrency: number, allowDestructive: boolean, each = false) {
  const embedded = await api.startEmbedded();
  const proxy = await startLatencyProxy(embedded.baseUrl, latencyMs);
  // Seen as a deployment (not embedded): the run uses its deployment defaults, concurrency included.
  const target = { ...embedded, baseUrl: proxy.url, embedded: false, close: undefined };
  const base = { ...settingsFrom({}, [api.id]), seed: 1, retries: 0, formats: [], allowDestructive, concurrency, readyTimeoutS: 10 };
  const once = (only?: string[]) =>
    runConformance({
      settings: { ...base, ...(only ? { only } : {}) },
      apis: [api],
      targets: { [api.id]: target },
      tool: { name: 'bench', version: '0' },
      write: false,
    });
  const t0 = performance.now();
  const results = each
    ? await api.checks.reduce(
        async (all, c) => [...(await all), await once([c.id])],
        Promise.resolve([] as Awaited<ReturnType<typeof once>>[]),
      )
    : [await once()];
  const wall = (performance.now() - t0) / 1000;
  await proxy.close();
  await embedded.close?.();
  const checks = results.flatMap((r) => r.runs[0].checks.filter((c) => c.outcome !== 'filtered'));
  return {
    wall,
    checks,
    requests: results.reduce((n, r) => n + r.runs[0].stats.requests, 0),
    gate: results[results.length - 1].report.summary.gate,
  };
}

/**
 * Wall time of a remote run at `concurrency` next to its physical limit: the larger of the floor (requests x latency /
 * checks in flight) and the critical path (criticalPathSeconds, from each check's time in a run of its own).
 */
export async function remoteFigures(api: ApiDefinition, latencyMs: number, concurrency = DEPLOYMENT_CONCURRENCY, allowDestructive = true) {
  const alone = await remoteRun(api, latencyMs, concurrency, allowDestructive, true);
  const each = new Map(alone.checks.map((c) => [c.id, c.ms / 1000]));
  const wide = await remoteRun(api, latencyMs, concurrency, allowDestructive);
  const requests = wide.requests;
  const floor = (requests * latencyMs) / 1000 / concurrency;
  const critical = criticalPathSeconds(api.checks, each, concurrency);
  const limit = Math.max(floor, critical);
  return {
    api: api.id,
    destructive: allowDestructive ? 'run' : 'skipped',
    latencyMs,
    concurrency,
    verdict: wide.gate,
    requests,
    wallSeconds: wide.wall,
    floorSeconds: floor,
    criticalPathSeconds: critical,
    ratioToLimit: wide.wall / limit,
    checkByCheckSeconds: alone.wall,
  };
}
