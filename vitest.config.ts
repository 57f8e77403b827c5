import { configDefaults, defineConfig } from 'vitest/config';

/*
 * Five projects. `npm test` runs two stages and stops after the first if it fails, so a broken engine is reported in
 * under a minute rather than after twenty: `unit` (`npm run test:fast`: the engine's modules in memory, the reference
 * implementations in-process, specs, catalogues, expect, HAR), then `selftest` (the project's own tests less those of
 * `unit`: broken servers, the CLI, reports, fuzzing) with `corpus` (the runs of the server corpus). No file is in
 * both stages. `conformance` is every conformance check as a vitest test (`npx vitest run --project conformance`, see
 * the README, "As a vitest project"); `package` installs the packed product and runs it as a user would
 * (`npm run test:package`).
 */

/*
 * The files of `unit`: none spawns a process or needs a target beyond one served in-process, and none takes much
 * more than a second. The same list is taken out of `selftest`, so a file named here runs once; a slow one belongs
 * in `selftest`, or the first stage stops being quick.
 */
const UNIT = [
  'suites/selftest/unit/**/*.test.ts',
  'reference-impl/**/*.test.ts',
  'suites/selftest/traceability.test.ts',
  'suites/selftest/machinery/spec-*.test.ts',
  'suites/selftest/machinery/expect.test.ts',
  'suites/selftest/machinery/expect-usage.test.ts',
  'suites/selftest/machinery/tool-error.test.ts',
  'suites/selftest/machinery/realworld.test.ts',
  'suites/selftest/machinery/har.test.ts',
  'suites/selftest/machinery/property.test.ts',
  'suites/selftest/machinery/schedule.test.ts',
];

export default defineConfig({
  test: {
    // Vitest's default on two cores is one file at a time; the slow files mostly wait on servers and timers.
    maxWorkers: 3,
    reporters: ['default', './suites/selftest/closing-line-reporter.ts'],
    projects: [
      {
        test: {
          name: 'unit',
          include: UNIT,
          // The timeouts these files had in `selftest`: on a busy two-core machine the in-process runs take longer.
          testTimeout: 60_000,
          hookTimeout: 60_000,
          pool: 'forks',
        },
      },
      {
        test: {
          name: 'selftest',
          include: ['suites/**/*.test.ts', 'reference-impl/**/*.test.ts'],
          exclude: [...configDefaults.exclude, 'suites/selftest/corpus/**', ...UNIT],
          testTimeout: 60_000,
          hookTimeout: 60_000,
          pool: 'forks',
        },
      },
      {
        test: {
          // The suite run against every server of corpus/ (suites/selftest/corpus/suite.ts, one file per API): one
          // run per test, each against a process of its own, five at a time in each file. The runs mostly wait (on
          // servers that answer after delays, on stacks that take seconds to provision), so the two files and the
          // other self-tests run side by side (maxWorkers).
          name: 'corpus',
          include: ['suites/selftest/corpus/**/*.test.ts'],
          testTimeout: 180_000,
          hookTimeout: 60_000,
          maxConcurrency: 5,
          // No retry: a run starved by the others (five at once on two cores) leaves what timed out untested, never
          // failed, so a correct server passes on the first attempt and a bug is judged once.
          pool: 'forks',
        },
      },
      {
        test: {
          // `npm run test:package`: the packed product installed into temporary npm projects (README, "Installing").
          name: 'package',
          include: ['suites/package/**/*.package.ts'],
          globalSetup: ['suites/package/pack.ts'],
          testTimeout: 180_000,
          hookTimeout: 240_000,
          pool: 'forks',
        },
      },
      {
        test: {
          name: 'conformance',
          include: ['suites/vitest/**/*.conformance.ts'],
          // The run itself happens in one beforeAll (it sets its own timeout); the tests only read its results.
          testTimeout: 60_000,
          hookTimeout: 60_000,
          pool: 'forks',
        },
      },
    ],
  },
});
