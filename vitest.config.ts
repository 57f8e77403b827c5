import { configDefaults, defineConfig } from 'vitest/config';

/*
 * Four projects: `selftest` is the project's own tests and `corpus` the runs of the server corpus (`npm test` runs
 * both; `--project selftest` alone is the edit loop); `conformance` is every conformance check as a vitest test
 * (`npx vitest run --project conformance`, see the README, "As a vitest project"); `package` installs the packed
 * product and runs it as a user would (`npm run test:package`).
 */
export default defineConfig({
  test: {
    reporters: ['default', './suites/selftest/closing-line-reporter.ts'],
    projects: [
      {
        test: {
          name: 'selftest',
          include: ['suites/**/*.test.ts', 'reference-impl/**/*.test.ts'],
          exclude: [...configDefaults.exclude, 'suites/selftest/corpus/**'],
          testTimeout: 60_000,
          hookTimeout: 60_000,
          pool: 'forks',
        },
      },
      {
        test: {
          // The suite run against every server of corpus/ (suites/selftest/corpus/corpus.test.ts): one run per test,
          // each against a process of its own, five at a time. More does not finish sooner on two cores (the runs
          // then take the CPU in turns), and slows each answer enough to upset the checks that time a server.
          name: 'corpus',
          include: ['suites/selftest/corpus/**/*.test.ts'],
          testTimeout: 180_000,
          hookTimeout: 60_000,
          maxConcurrency: 5,
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
