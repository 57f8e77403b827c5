import type { ApiDefinition } from '../suites/core/api';
import { startPrism } from '../suites/core/prism';
import { load } from './load';

export interface Endpoint {
  name: string;
  path: string;
}

/** Requests per second and latency of typical endpoints: the reference implementation, then Prism's mock of the same spec. */
export async function throughputFigures(api: ApiDefinition, endpoints: Endpoint[], seconds: number) {
  const rows: { api: string; endpoint: string; server: string; rps: number; p50: number; p99: number; errors: number }[] = [];
  const target = await api.startEmbedded();
  const prism = await startPrism('mock', api.specFile);
  const auth = { authorization: target.principals.primary.authorization! };
  try {
    for (const e of endpoints) {
      for (const [server, base] of [['reference', target.baseUrl], ['prism mock', prism.url]] as const) {
        const r = await load({ url: base + e.path, headers: auth, connections: 10, duration: seconds });
        rows.push({ api: api.id, endpoint: e.name, server, rps: r.rps, p50: r.p50, p99: r.p99, errors: r.errors + r.non2xx });
      }
    }
  } finally {
    await prism.stop();
    await target.close?.();
  }
  return rows;
}
