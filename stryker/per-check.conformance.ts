/*
 * The conformance checks, one check per test, for Stryker's per-test coverage (MUTATION_TESTS=per-check, the default
 * of `npm run mutation`; README "Mutation testing").
 *
 * suites/vitest/checks.conformance.ts runs the whole registry once in its beforeAll and each test only reads the
 * result: Stryker then sees every mutant reached outside any test ("static") and runs the whole run for each, and a
 * mutant that makes that beforeAll throw is reported Survived (the vitest runner only looks at tests, which vitest
 * marks skipped). Here each test runs its check on its own, as `npx vitest run --project conformance -t <check id>`
 * does (the front-end's runSelection with that one check selected: same registry, settings, embedded target, ledger
 * and verdict), so the code a check reaches is recorded against its test, each mutant runs only the checks that
 * reach it, and whatever a mutant breaks fails a test.
 */
import { describe, it } from 'vitest';
import type { Session } from '../suites/core/session';

type FrontEnd = typeof import('../suites/vitest/front-end');

const warningsKill = process.env.MUTATION_WARNINGS_KILL !== '0';

// A mutant in code that runs on import (module-level values of the reference implementation) can make the import
// throw; vitest would report a failed file without tests, which Stryker 9.6.1 counts as Survived. It fails a test.
const loaded = await Promise.all([import('../suites/vitest/front-end'), import('../suites/options')])
  .then(([fe, options]) => ({ fe, session: options.sessionFromCode(undefined, 'stryker', process.env) }))
  .catch((error: unknown) => ({ error }));

if ('error' in loaded) {
  it('the conformance registry loads', () => {
    throw loaded.error;
  });
} else {
  defineChecks(loaded.fe, loaded.session);
}

function defineChecks(fe: FrontEnd, session: Session): void {
  for (const api of session.apis) {
    describe(api.id, () => {
      for (const [group, checks] of fe.groupsOf(api)) {
        describe(group, () => {
          for (const check of checks) {
            it(fe.testName(check), async (ctx) => {
              const run = await fe.runSelection(session, [check.id]);
              const apiRun = fe.runOf(run, api.id);
              if (!apiRun) return ctx.skip(run.result ? 'not selected by CONFORMANCE_ONLY' : 'the conformance run did not happen');
              const verdict = fe.verdictOf(apiRun, check, {
                mask: run.mask,
                settings: session.settings,
                responseCheckId: api.responseCheckId,
              });
              if (verdict.state === 'failed') throw fe.conformanceFailure(verdict.message);
              // The reference implementations mean to meet every SHOULD (Stryker's dry run, unmutated, proves it): a
              // failed SHOULD is the checks noticing the mutant, so it kills it, though it only warns a user's gate.
              if (warningsKill && verdict.warnings.length) throw fe.conformanceFailure(verdict.warnings.join('\n\n'));
              if (verdict.state === 'skipped') ctx.skip(verdict.skipReason);
            });
          }
        });
      }
    });
  }
}
