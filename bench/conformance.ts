import type { ApiDefinition } from '../suites/core/api';
import { runConformance } from '../suites/core/conformance';
import { propertyStats } from '../suites/core/property';
import { settingsFrom } from '../suites/core/settings';
import { load } from './load';

/** Wall time of a conformance run next to the time the same number of requests takes from a load tool (the floor). */
export async function conformanceFigures(api: ApiDefinition, floorPath: string) {
  const target = await api.startEmbedded();
  const kept = { ...target, close: undefined };
  const settings = { ...settingsFrom({}, [api.id]), seed: 1, retries: 0, formats: [] };
  const before = { ...propertyStats };
  const t0 = performance.now();
  const result = await runConformance({
    settings,
    apis: [api],
    targets: { [api.id]: kept },
    tool: { name: 'bench', version: '0' },
    write: false,
  });
  const wall = (performance.now() - t0) / 1000;
  const run = result.runs[0];
  const floor = await load({
    url: target.baseUrl + floorPath,
    headers: { authorization: target.principals.primary.authorization! },
    connections: 1,
    amount: run.stats.requests,
  });
  await target.close?.();
  return {
    api: api.id,
    verdict: result.report.summary.gate,
    wallSeconds: wall,
    requests: run.stats.requests,
    assertions: run.stats.assertions,
    properties: propertyStats.properties - before.properties,
    propertyCases: propertyStats.cases - before.cases,
    floorSeconds: floor.seconds,
    ratio: wall / floor.seconds,
  };
}
