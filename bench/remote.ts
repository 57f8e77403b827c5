import type { ApiDefinition } from '../suites/core/api';
import { runConformance } from '../suites/core/conformance';
import { DEPLOYMENT_CONCURRENCY } from '../suites/core/runner';
import { settingsFrom } from '../suites/core/settings';
import { startLatencyProxy } from '../suites/selftest/latency-proxy';

/**
 * A conformance run against the reference implementation behind a proxy that delays every answer, as a remote
 * deployment would: wall time next to the floor (requests x latency / checks in flight).
 */
export async function remoteFigures(api: ApiDefinition, latencyMs: number, concurrency = DEPLOYMENT_CONCURRENCY) {
  const embedded = await api.startEmbedded();
  const proxy = await startLatencyProxy(embedded.baseUrl, latencyMs);
  // Seen as a deployment (not embedded): the run uses its deployment defaults, concurrency included.
  const target = { ...embedded, baseUrl: proxy.url, embedded: false, close: undefined };
  const settings = { ...settingsFrom({}, [api.id]), seed: 1, retries: 0, formats: [], allowDestructive: true, concurrency, readyTimeoutS: 10 };
  const t0 = performance.now();
  const result = await runConformance({ settings, apis: [api], targets: { [api.id]: target }, tool: { name: 'bench', version: '0' }, write: false });
  const wall = (performance.now() - t0) / 1000;
  await proxy.close();
  await embedded.close?.();
  const requests = result.runs[0].stats.requests;
  const floor = (requests * latencyMs) / 1000 / concurrency;
  return { api: api.id, latencyMs, concurrency, verdict: result.report.summary.gate, requests, wallSeconds: wall, floorSeconds: floor, ratio: wall / floor };
}
