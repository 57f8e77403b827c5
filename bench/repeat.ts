import { APIS } from '../suites/apis';
import { runConformance } from '../suites/core/conformance';
import { settingsFrom } from '../suites/core/settings';

// Same verdict every time: N consecutive conformance runs with different seeds against fresh reference implementations.
const count = Number(process.argv[2] ?? 20);
const firstSeed = Number(process.env.CONFORMANCE_SEED ?? Date.now() % 1_000_000);
let bad = 0;
console.log(`${count} runs of ${APIS.map((a) => a.id).join(' + ')}, seeds ${firstSeed}..${firstSeed + count - 1}`);
for (let i = 0; i < count; i++) {
  const seed = firstSeed + i;
  const t0 = performance.now();
  const { report } = await runConformance({
    settings: {
      ...settingsFrom(
        {},
        APIS.map((a) => a.id),
      ),
      seed,
      retries: 0,
      formats: [],
    },
    apis: APIS,
    tool: { name: 'repeat', version: '0' },
    write: false,
  });
  const failed = report.requirements.filter((q) => q.status === 'failed');
  if (report.summary.gate !== 'pass' || failed.length) bad++;
  console.log(
    `run ${String(i + 1).padStart(2)} seed ${seed}: ${report.summary.gate.toUpperCase()} ${report.summary.passed} passed, ${failed.length} failed (${failed.map((q) => q.id).join(', ') || '-'}) in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
  );
}
console.log(`${count - bad} of ${count} runs passed`);
process.exit(bad ? 1 : 0);
