import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { opsApi } from '../suites/ops/index';
import { stacksApi } from '../suites/stacks/index';
import { conformanceFigures } from './conformance';
import { writeDurations } from './durations';
import { remoteFigures } from './remote';
import { scaleFigures } from './scale';
import { scalingFigures } from './scaling';
import { startupSeconds } from './startup';
import { throughputFigures } from './throughput';

// The embedded ops implementation serves HTTPS with a self-signed certificate; the load tool must accept it.
process.env.NODE_TLS_REJECT_UNAUTHORIZED = '0';

const quick = process.argv.includes('--quick');
// `--only scaling,throughput` runs just those sections (conformance, remote, startup, throughput, scaling, scale); default all.
// `--only durations` measures each check alone and rewrites the scheduler's estimates.
const onlyArg = process.argv.find((a, i, all) => a.startsWith('--only=') || all[i - 1] === '--only');
const only = onlyArg === undefined ? undefined : new Set(onlyArg.replace(/^--only=/, '').split(','));
const wanted = (section: string) => only === undefined || only.has(section);
const seconds = quick ? 1 : 3;
// `--latency 80` (ms, default 80): the delay of the remote section's proxy.
const latencyArg = process.argv.find((a, i, all) => a.startsWith('--latency=') || all[i - 1] === '--latency');
const latency = latencyArg === undefined ? 80 : Number(latencyArg.replace(/^--latency=/, ''));
const sizes = quick ? [1000, 10000] : [1000, 10000, 100000];
const OPS = '/servicesNS/nobody/SA-ITOA/itoa_interface';

const table = (rows: Record<string, unknown>[]) => {
  const cols = Object.keys(rows[0] ?? {});
  const fmt = (v: unknown) => (typeof v === 'number' ? (Number.isInteger(v) ? String(v) : v.toFixed(v < 10 ? 2 : 0)) : String(v));
  return [
    `| ${cols.join(' | ')} |`,
    `|${cols.map(() => '---').join('|')}|`,
    ...rows.map((r) => `| ${cols.map((c) => fmt(r[c])).join(' | ')} |`),
  ].join('\n');
};

const sections: [string, Record<string, unknown>[]][] = [];
const say = (title: string, rows: Record<string, unknown>[]) => {
  sections.push([title, rows]);
  process.stdout.write(`\n## ${title}\n\n${table(rows)}\n`);
};

const t0 = performance.now();
if (wanted('conformance')) {
  const conformance = [await conformanceFigures(stacksApi, '/v1/stacks'), await conformanceFigures(opsApi, `${OPS}/service`)];
  say(
    'Conformance run against the embedded implementation (floor: the same number of requests from autocannon, 1 connection)',
    conformance,
  );
  say('Both APIs, total', [
    { wallSeconds: conformance.reduce((s, c) => s + c.wallSeconds, 0), requests: conformance.reduce((s, c) => s + c.requests, 0) },
  ]);
}
if (wanted('remote')) {
  // With a user's defaults against a named deployment destructive checks are skipped; with --allow-destructive they run.
  const remote = [];
  for (const api of [stacksApi, opsApi])
    for (const destructive of quick ? [false] : [false, true]) remote.push(await remoteFigures(api, latency, undefined, destructive));
  say(
    `Conformance run against a remote deployment: the reference behind a proxy delaying every answer by ${latency} ms (floor: requests x latency / checks in flight; critical path: the longest chain the declared shared state allows, from each check's time one at a time; ratio: wall time / the larger of the two)`,
    remote,
  );
}
// Not part of the default sections: it rewrites suites/<api>/durations.gen.ts, the scheduler's estimates.
if (only?.has('durations'))
  say('Durations written', [{ files: [await writeDurations(stacksApi, latency), await writeDurations(opsApi, latency)].join(', ') }]);
if (wanted('startup')) say('Start-up of npm run conformance until the first request', [{ seconds: await startupSeconds() }]);
if (wanted('throughput')) {
  say(`Throughput of typical endpoints (10 connections, ${seconds} s each)`, [
    ...(await throughputFigures(
      stacksApi,
      [
        { name: 'GET /v1/stacks', path: '/v1/stacks' },
        { name: 'GET /v1/stacks/versions', path: '/v1/stacks/versions' },
      ],
      seconds,
    )),
    ...(await throughputFigures(
      opsApi,
      [
        { name: 'GET service list', path: `${OPS}/service` },
        { name: 'GET service count', path: `${OPS}/service/count` },
        { name: 'GET entity by filter', path: `${OPS}/entity?filter=${encodeURIComponent('{"title":{"$regex":"web"}}')}` },
      ],
      seconds,
    )),
  ]);
}
if (wanted('scale'))
  say(
    'Ops run against a small and a large deployment (the reference preloaded; the run a process of its own, its peak memory)',
    await scaleFigures(quick ? 2_000 : 2_000, quick ? 20_000 : 100_000),
  );
if (wanted('scaling')) say(`Scaling of the ops store (4 connections, ${seconds} s per query)`, await scalingFigures(sizes, seconds));

const NOTES = `Lists and counts of stored objects use indexes built on first use and kept up to date by every write
(reference-impl/ops/store.ts): a filter that pins a top-level field by equality ({f: v}, $eq, $in) reads only that
value's rows from a hash index, a sort is read from a sorted index (no sort per request), and a paged list stops at
the end of the page. What still scans: a filter with no such equality (a regex, $ne alone) on an unpaged list or a
count, and the rows an equality leaves (a count still tests each of them); a sort on a field holding arrays or
objects falls back to sorting the matching rows.`;

const meta = {
  date: new Date().toISOString(),
  node: process.version,
  cpus: cpus().length,
  cpu: cpus()[0]?.model,
  quick,
  only: only === undefined ? 'all' : [...only].join(','),
  totalSeconds: (performance.now() - t0) / 1000,
};
mkdirSync('reports', { recursive: true });
writeFileSync('reports/bench.json', JSON.stringify({ meta, sections: Object.fromEntries(sections) }, null, 2));
writeFileSync(
  'reports/bench.md',
  `# Benchmark\n\n${Object.entries(meta)
    .map(([k, v]) => `- ${k}: ${v}`)
    .join('\n')}\n${sections.map(([t, r]) => `\n## ${t}\n\n${table(r)}\n`).join('')}\n## Indexes\n\n${NOTES}\n`,
);
process.stdout.write(`\n## Indexes\n\n${NOTES}\n`);
process.stdout.write(`\nwrote reports/bench.json and reports/bench.md in ${meta.totalSeconds.toFixed(1)} s\n`);
process.exit(0);
