import autocannon from 'autocannon';

export interface LoadResult {
  requests: number;
  seconds: number;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
}

/** One autocannon run on loopback, bounded by `amount` or `duration`, never both unbounded. */
export async function load(opts: {
  url: string;
  headers?: Record<string, string>;
  connections: number;
  amount?: number;
  duration?: number;
  method?: string;
  body?: string;
}): Promise<LoadResult> {
  const started = performance.now();
  const r = await autocannon({
    url: opts.url,
    headers: opts.headers,
    connections: opts.connections,
    ...(opts.amount ? { amount: opts.amount } : { duration: opts.duration ?? 3 }),
    method: (opts.method ?? 'GET') as 'GET',
    body: opts.body,
    timeout: 10,
  });
  const seconds = (performance.now() - started) / 1000;
  return {
    requests: r.requests.total,
    seconds,
    rps: r.requests.total / seconds,
    p50: r.latency.p50,
    p99: r.latency.p99,
    errors: r.errors + r.timeouts,
    non2xx: r.non2xx,
  };
}
