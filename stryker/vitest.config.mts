/*
 * The vitest config Stryker's vitest runner loads (`vitest.configFile` in stryker.config.mjs). The runner has no
 * `--project` option, so this config holds only the `conformance` project of the repository's vitest.config.ts,
 * taken from it (same timeouts), and nothing of `selftest`.
 *
 * MUTATION_TESTS=per-check (the default) runs stryker/per-check.conformance.ts, one check per test, so that
 * Stryker's per-test coverage maps each mutant to the checks that reach it; MUTATION_TESTS=project runs the
 * project's own file unchanged (suites/vitest/checks.conformance.ts: one run of the whole registry in a beforeAll).
 * Pool `threads` (the runner's own choice) instead of the project's `forks`: the same verdicts, a quarter faster
 * per mutant here.
 */
import { defineConfig } from 'vitest/config';
import base from '../vitest.config';

const conformance = base.test?.projects?.find((p) => typeof p === 'object' && 'test' in p && p.test?.name === 'conformance');
if (!conformance || typeof conformance !== 'object' || !('test' in conformance))
  throw new Error('vitest.config.ts has no project named conformance');

const mode = process.env.MUTATION_TESTS ?? 'per-check';
if (mode !== 'per-check' && mode !== 'project') throw new Error(`MUTATION_TESTS must be per-check or project, not '${mode}'`);
const include = mode === 'project' ? conformance.test!.include : ['stryker/per-check.conformance.ts'];

export default defineConfig({
  root: new URL('..', import.meta.url).pathname,
  test: { projects: [{ ...conformance, test: { ...conformance.test, include, pool: 'threads' } }] },
});
