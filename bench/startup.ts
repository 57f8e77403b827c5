import { spawn } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** Time from starting `npm run conformance` until its first request reaches a stub target. */
export async function startupSeconds(): Promise<number> {
  let first: number | undefined;
  let resolveFirst!: () => void;
  const seen = new Promise<void>((r) => (resolveFirst = r));
  const stub = http.createServer((_, res) => {
    first ??= performance.now();
    resolveFirst();
    res.writeHead(503).end();
  });
  await new Promise<void>((r) => stub.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(stub.address() as AddressInfo).port}`;
  const t0 = performance.now();
  const child = spawn(
    'npm',
    ['run', '--silent', 'conformance', '--', '--api', 'stacks', '--format', 'json', '--report-dir', 'reports/bench-startup'],
    {
      env: { ...process.env, STACKS_BASE_URL: url, STACKS_API_KEY: 'bench' },
      stdio: 'ignore',
    },
  );
  await Promise.race([seen, new Promise((r) => setTimeout(r, 60_000))]);
  child.kill('SIGKILL');
  stub.closeAllConnections();
  stub.close();
  if (first === undefined) throw new Error('no request within 60 s');
  return (first - t0) / 1000;
}
