/*
 * Every conformance check as a vitest test: a describe per API and group, a test per check named by its id and
 * requirement ids. One conformance run (the runner of `api-conformance run`, with its settings, targets, cleanup
 * ledger and reports) happens in `beforeAll`, over the checks whose tests vitest selected (`-t`, `.only`, file:line);
 * each test then asserts what the run recorded for its check. The package exports it as `api-conformance/vitest`:
 *
 *   // conformance.test.ts in the repository of the implementation under test
 *   import { defineConformanceTests } from 'api-conformance/vitest';
 *   defineConformanceTests();
 */
import { beforeAll, describe, it } from 'vitest';
import { getCurrentSuite } from 'vitest/suite';
import {
  conformanceFailure,
  groupsOf,
  runOf,
  runSelection,
  selectedChecks,
  testName,
  verdictOf,
  type SessionRun,
  type TaskLike,
} from './front-end';
import { loadCatalogue } from '../core/catalogue';
import { UsageError } from '../core/usage-error';
import { emptySelection, namePattern } from './selection';
import { sessionFromCode, type ConformanceOptions } from '../options';

export type { ConformanceOptions };

/** The whole run happens in one hook: against a slow deployment it can take a while (each request is bounded). */
const RUN_TIMEOUT_MS = 60 * 60_000;

/**
 * Declares the conformance tests in the calling test file. Settings come from the environment and `CONFORMANCE_CONFIG`
 * (README, "Checking a deployment"); `options` (the config file's keys) win over both. A mistake in them fails the
 * file with the one-line message of `api-conformance run`.
 */
export function defineConformanceTests(options?: ConformanceOptions): void {
  const session = sessionFromCode(options, 'defineConformanceTests options', process.env);
  // Thrown at collection, this fails the file (exit 1) before vitest skips every test and ends green.
  const nothing = emptySelection(session.apis, namePattern(), getCurrentSuite()?.name);
  if (nothing) throw new UsageError(nothing);
  let run: SessionRun | undefined;

  // biome-ignore lint/correctness/noEmptyPattern: vitest reads the hook's first parameter as fixtures and wants it destructured; only the second (the file) is used
  beforeAll(async ({}, file) => {
    run = await runSelection(session, selectedChecks(file as TaskLike));
    console.log(run.summary);
  }, RUN_TIMEOUT_MS);

  for (const api of session.apis) {
    const levels = new Map(loadCatalogue(api.catalogueFile).requirements.map((r) => [r.id, r.level] as const));
    describe(api.id, () => {
      for (const [group, checks] of groupsOf(api)) {
        describe(group, () => {
          for (const check of checks) {
            const meta = {
              api: api.id,
              check: check.id,
              title: check.title,
              requirements: check.requirements,
              levels: Object.fromEntries(check.requirements.map((r) => [r, levels.get(r) ?? 'MUST'])),
              destructive: Boolean(check.destructive),
            };
            it(testName(check), { meta: { conformance: meta } }, async (ctx) => {
              const apiRun = run && runOf(run, api.id);
              if (!apiRun) return ctx.skip(run?.result ? 'not selected by CONFORMANCE_ONLY' : 'the conformance run did not happen');
              const verdict = verdictOf(apiRun, check, {
                mask: run!.mask,
                settings: session.settings,
                responseCheckId: api.responseCheckId,
              });
              ctx.task.meta.conformance = { ...meta, status: verdict.status };
              for (const w of verdict.warnings) await ctx.annotate(w, 'warning');
              // A skipped test says why in its skip note; a test that ran lists what it left untested or observed.
              if (verdict.state !== 'skipped') for (const n of verdict.notes) await ctx.annotate(n.message, n.type);
              if (verdict.state === 'failed') throw conformanceFailure(verdict.message);
              if (verdict.state === 'skipped') ctx.skip(verdict.skipReason);
            });
          }
        });
      }
    });
  }
}
