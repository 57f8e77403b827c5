import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ApiDefinition } from '../suites/core/api';
import { startPrism } from '../suites/core/prism';
import { load } from './load';

export interface Endpoint {
  name: string;
  path: string;
}

/**
 * A node:http server that answers every request with the body the reference gave the same path, and does nothing
 * else: the ceiling of the machine and of node:http, against which the reference's own cost reads.
 */
async function startBare(bodies: Map<string, string>): Promise<{ url: string; close(): void }> {
  const server = http.createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(bodies.get(req.url ?? '') ?? '{}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => server.close() };
}

/**
 * Requests per second and latency of typical endpoints: the reference implementation, Prism's mock of the same spec,
 * and a bare node:http server answering the same bodies.
 */
export async function throughputFigures(api: ApiDefinition, endpoints: Endpoint[], seconds: number) {
  const rows: { api: string; endpoint: string; server: string; rps: number; p50: number; p99: number; errors: number }[] = [];
  const target = await api.startEmbedded();
  const prism = await startPrism('mock', api.specFile);
  const bodies = new Map<string, string>();
  for (const e of endpoints)
    bodies.set(
      e.path,
      await (await fetch(target.baseUrl + e.path, { headers: { authorization: target.principals.primary.authorization! } })).text(),
    );
  const bare = await startBare(bodies);
  const auth = { authorization: target.principals.primary.authorization! };
  try {
    for (const e of endpoints) {
      for (const [server, base] of [
        ['reference', target.baseUrl],
        ['prism mock', prism.url],
        ['bare node:http', bare.url],
      ] as const) {
        const r = await load({ url: base + e.path, headers: auth, connections: 10, duration: seconds });
        rows.push({ api: api.id, endpoint: e.name, server, rps: r.rps, p50: r.p50, p99: r.p99, errors: r.errors + r.non2xx });
      }
    }
  } finally {
    bare.close();
    await prism.stop();
    await target.close?.();
  }
  return rows;
}
