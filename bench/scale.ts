import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const TSX = ['--import', 'tsx'];
/** Printed by the conformance run's own process as it exits: its peak resident memory, not the server's. */
const RSS_PROBE = `data:text/javascript,process.on('exit',()=>process.stderr.write('maxrss-kb '+process.resourceUsage().maxRSS+'\\n'))`;

async function preloaded(entities: number, services: number): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, [...TSX, join(ROOT, 'bench/preloaded-ops.ts'), String(entities), String(services)], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let seen = '';
  const url = await new Promise<string>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`preloaded ops server exited with ${code}`)));
    child.stdout!.on('data', (b: Buffer) => {
      seen += b.toString();
      const m = /listening on (\S+)/.exec(seen);
      if (m) resolve(m[1]!);
    });
  });
  return { url, child };
}

/** `npm run conformance -- --api ops` against the server, as a process of its own: wall time, peak memory, verdict. */
async function conformanceRun(url: string): Promise<{ seconds: number; maxRssMB: number; exitCode: number | null; requests: number }> {
  const env = {
    ...process.env,
    OPS_BASE_URL: url,
    OPS_USERNAME: 'admin',
    OPS_PASSWORD: 'ops-admin-demo',
    OPS_READONLY_USERNAME: 'analyst',
    OPS_READONLY_PASSWORD: 'ops-analyst-demo',
    OPS_RESTRICTED_USERNAME: 'operator',
    OPS_RESTRICTED_PASSWORD: 'ops-operator-demo',
    OPS_TLS_INSECURE: '1',
    CONFORMANCE_SEED: '1',
    CONFORMANCE_RETRIES: '0',
    CI: '1',
  };
  const dir = mkdtempSync(join(tmpdir(), 'scale-'));
  const t0 = performance.now();
  const child = spawn(
    process.execPath,
    [...TSX, '--import', RSS_PROBE, join(ROOT, 'suites/cli.ts'), 'run', '--api', 'ops', '--format', 'json', '--report-dir', dir],
    {
      cwd: ROOT,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let err = '';
  child.stderr!.on('data', (b: Buffer) => (err += b.toString()));
  child.stdout!.resume();
  const [exitCode] = (await once(child, 'exit')) as [number | null];
  const seconds = (performance.now() - t0) / 1000;
  const rss = /maxrss-kb (\d+)/.exec(err);
  if (exitCode === 2) process.stderr.write(err.split('\n').slice(-5).join('\n'));
  const report =
    exitCode === 2
      ? undefined
      : (JSON.parse(readFileSync(join(dir, 'compliance.json'), 'utf8')) as { apis: { stats: { requests: number } }[] });
  return { seconds, maxRssMB: rss ? Number(rss[1]) / 1024 : Number.NaN, exitCode, requests: report?.apis[0]?.stats.requests ?? Number.NaN };
}

/**
 * The ops run against a small deployment and a large one (the reference preloaded with `small` and `large`
 * entities, a tenth as many services): the run's time and memory should not grow with the deployment.
 */
export async function scaleFigures(small = 2_000, large = 100_000) {
  const rows: Record<string, unknown>[] = [];
  for (const entities of [small, large]) {
    const server = await preloaded(entities, entities / 10);
    try {
      rows.push({ entities, services: entities / 10, ...(await conformanceRun(server.url)) });
    } finally {
      server.child.kill();
    }
  }
  const [a, b] = rows as { seconds: number; maxRssMB: number }[];
  rows.push({
    entities: 'ratio',
    services: '',
    seconds: b!.seconds / a!.seconds,
    maxRssMB: b!.maxRssMB / a!.maxRssMB,
    exitCode: '',
    requests: '',
  });
  return rows;
}
