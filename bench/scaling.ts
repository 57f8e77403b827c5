import { listen } from '../reference-impl/http/server';
import { loadOpsConfig } from '../reference-impl/ops/config';
import { createOpsHandler, opsErrorBody } from '../reference-impl/ops/handler';
import { load } from './load';

const BASE = '/servicesNS/nobody/SA-ITOA/itoa_interface/service';

/** List with filter + sort + paging, and count, over growing numbers of stored objects: latency and memory per size. */
export async function scalingFigures(sizes: number[], seconds: number) {
  const rows: { objects: number; query: string; p50: number; p99: number; rps: number; heapMB: number; seedSeconds: number }[] = [];
  const config = loadOpsConfig();
  const admin = config.users.find((u) => !u.readOnly)!;
  const authorization = `Basic ${Buffer.from(`${admin.name}:${admin.password}`).toString('base64')}`;
  for (const n of sizes) {
    global.gc?.();
    const heap0 = process.memoryUsage().heapUsed;
    const handler = createOpsHandler(loadOpsConfig());
    const t0 = performance.now();
    for (let i = 0; i < n; i++) {
      const body = { title: `svc ${String(i).padStart(6, '0')}`, cf_bucket: i % 100, cf_tier: i % 3 === 0 ? 'gold' : 'silver' };
      await handler({
        method: 'POST',
        path: BASE,
        query: new URLSearchParams(),
        headers: { authorization },
        rawBody: JSON.stringify(body),
        body,
      });
    }
    const seedSeconds = (performance.now() - t0) / 1000;
    global.gc?.();
    const heapMB = (process.memoryUsage().heapUsed - heap0) / 2 ** 20;
    const server = await listen(handler, { errorBody: opsErrorBody });
    const filter = encodeURIComponent(JSON.stringify({ cf_tier: 'gold', cf_bucket: { $ne: 7 } }));
    const queries = {
      'filter+sort+page': `${BASE}?filter=${filter}&sort_key=title&sort_dir=0&limit=20&offset=40`,
      'count with filter': `${BASE}/count?filter=${filter}`,
      'regex filter+page': `${BASE}?filter=${encodeURIComponent(JSON.stringify({ title: { $regex: '9$' } }))}&limit=20`,
    };
    for (const [query, path] of Object.entries(queries)) {
      const r = await load({ url: server.url + path, headers: { authorization }, connections: 4, duration: seconds });
      rows.push({ objects: n, query, p50: r.p50, p99: r.p99, rps: r.rps, heapMB, seedSeconds });
    }
    await server.close();
  }
  return rows;
}
