// @ts-check
/*
 * Mutation testing of the reference implementations with StrykerJS: `npm run mutation` (stryker/run.mjs runs this
 * config, then stryker/summary.mjs writes reports/mutation.json); README, "Mutation testing".
 *
 * Mutants are made in reference-impl/stacks and reference-impl/ops (not their unit tests, not their test clients);
 * the tests that must kill them are the CONFORMANCE checks, through the vitest project `conformance`
 * (stryker/vitest.config.mts: the runner has no --project option).
 *
 *   MUTATION_SCOPE=stacks|ops|all (default all; `--scope` of run.mjs): the files to mutate, and the API(s) whose
 *     checks run (CONFORMANCE_APIS).
 *   MUTATION_TESTS=per-check|project (default per-check; `--tests`): per-check runs each check in a test of its own
 *     (stryker/per-check.conformance.ts), so Stryker's perTest coverage maps each mutant to the checks that reach
 *     it; project runs suites/vitest/checks.conformance.ts as it is, where the whole run happens in a beforeAll:
 *     every mutant is then "static" (runs every check) and a mutant that makes that beforeAll throw is reported
 *     Survived by the vitest runner (9.6.1 ignores a failed file-level hook). Kept to compare, not to trust.
 *   MUTATION_WARNINGS_KILL=1|0 (default 1): with per-check, a check that warns (a failed SHOULD) fails its test, so the
 *     mutant is killed; 0 counts only MUST failures, as a user's gate does.
 */
const scope = process.env.MUTATION_SCOPE ?? 'all';
const dirs = { stacks: ['stacks'], ops: ['ops'], all: ['stacks', 'ops'] }[scope];
if (!dirs) throw new Error(`MUTATION_SCOPE must be stacks, ops or all, not '${scope}'`);

// Settings of the conformance run inside every mutant run (Stryker's workers and vitest's workers inherit them):
// only the API(s) whose code is mutated; a fixed seed, so every mutant meets the same generated cases; no retries (a
// failure that goes away on a re-run still fails its check, re-running only costs time); only the json report,
// written inside Stryker's sandbox.
process.env.CONFORMANCE_APIS ??= dirs.join(',');
process.env.CONFORMANCE_SEED ??= '1';
process.env.CONFORMANCE_RETRIES ??= '0';
process.env.CONFORMANCE_FORMATS ??= 'json';
process.env.CONFORMANCE_REPORT_DIR ??= '.conformance-reports';

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'vitest',
  // related: false — the conformance tests reach the implementation through HTTP, not by importing what they test.
  vitest: { configFile: 'stryker/vitest.config.mts', related: false },
  coverageAnalysis: 'perTest',
  mutate: [...dirs.map((d) => `reference-impl/${d}/**/*.ts`), '!reference-impl/**/*.test.ts', '!reference-impl/**/test-client.ts'],
  // 2 cores, shared: never more than 2 test runners (`--concurrency 1` on a busy machine).
  concurrency: 2,
  reporters: ['json', 'html', 'clear-text', 'progress'],
  jsonReporter: { fileName: 'reports/mutation/mutation-report.json' },
  htmlReporter: { fileName: 'reports/mutation/index.html' },
  clearTextReporter: { allowColor: false, logTests: false, reportMutants: false },
  // `--incremental` reuses the results of unchanged code and checks from the last run of the same scope.
  incrementalFile: `reports/mutation/stryker-incremental-${scope}.json`,
  tempDirName: '.stryker-tmp',
  thresholds: { high: 90, low: 75, break: null },
  // A mutant that keeps a stack from becoming RUNNING makes a check wait STACKS_READY_TIMEOUT_S (10 s embedded)
  // before it reports untested: the allowance is larger, so such a check ends and is judged rather than timed out.
  timeoutMS: 15000,
};
