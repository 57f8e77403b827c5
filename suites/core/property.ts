import fc from 'fast-check';
import type { CheckContext } from './check';
import { factsOf } from './expect';
import { Unmet } from './precondition';
import { ToolError } from './tool-error';
import { TransportError } from './transport';
import type { Exchange } from './types';

/** Thrown inside a property when the target breaks a rule; carries the exchange that shows it and, where the rule compares, what it expected and saw. */
export class Violation extends Error {
  constructor(
    message: string,
    readonly requirement?: string,
    readonly exchange?: Exchange,
    readonly facts?: { expected: string; actual: unknown },
  ) {
    super(message);
  }
}

/** fast-check's error for a property that answered false rather than throwing. */
const RETURNED_FALSE = 'Property failed by returning false';

/** Generated cases run in this process, for the benchmark's figures. */
export const propertyStats = { properties: 0, cases: 0 };

/**
 * Runs a fast-check property with the run's seed and budget; a pass counts for every requirement it covers.
 * A failure records the shrunk counterexample, the seed and the path that replay it.
 */
export async function checkProperty<T, Ops extends object>(
  ctx: CheckContext<Ops>,
  requirements: string | string[],
  name: string,
  property: fc.IAsyncPropertyWithHooks<T> | fc.IAsyncProperty<T>,
  opts: {
    runs?: number;
    examples?: T[];
    /**
     * Filled by the property with the requirements a generated case actually put to the test. When given, a held
     * property passes only those; the others are untested (a rule no case could have broken has not passed).
     */
    exercised?: Set<string>;
    /**
     * The property only reads state that holds still while it runs: its cases are sent together, and only a failure
     * is run again case by case, so that fast-check can shrink it.
     */
    concurrent?: boolean;
  } = {},
): Promise<boolean> {
  // A printed failure's path (CONFORMANCE_PATH, --replay-path, `replay`) runs exactly that case again.
  const path = ctx.options.replayPath || undefined;
  const all = Array.isArray(requirements) ? requirements : [requirements];
  const numRuns = opts.runs ?? ctx.options.runs;
  // A held property judged the requests sent while it ran (those of properties run beside it in the same check too).
  const mark = ctx.traffic.mark();
  const held = (runs: number) => {
    const reached = ctx.traffic.since(mark);
    propertyStats.properties++;
    propertyStats.cases += runs;
    for (const r of all) {
      if (!opts.exercised || opts.exercised.has(r))
        ctx.assert(r, true, `${name}: held for ${runs} generated cases (seed ${ctx.options.seed})`, undefined, {
          expected: 'every generated case to hold',
          actual: `${runs} cases held`,
          kind: 'property',
          reached,
        });
      else ctx.untested(r, `${name}: none of ${runs} generated cases (seed ${ctx.options.seed}) could have broken this rule`);
    }
    return true;
  };
  if (
    opts.concurrent &&
    !path &&
    (await allHold(property, [...(opts.examples ?? []), ...fc.sample(property, { seed: ctx.options.seed, numRuns })]))
  ) {
    return held((opts.examples?.length ?? 0) + numRuns);
  }
  // Fixed examples run first, whatever the seed: the cases a rule is most often broken on are always tried.
  const details = await fc.check(property, { seed: ctx.options.seed, numRuns, path, endOnFailure: false, examples: opts.examples ?? [] });
  if (!details.failed) return held(details.numRuns);
  propertyStats.properties++;
  propertyStats.cases += details.numRuns;
  const err = details.errorInstance;
  // A lost or refusing target is the runner's to report (aborted, or untested when rate-limited), not a counterexample.
  if (err instanceof TransportError || err instanceof Unmet || err instanceof ToolError) throw err;
  // A property breaks a rule by throwing a Violation or answering false; any other exception is the check's own bug
  // (a TypeError on an answer shaped as the document allows, say), never the server's failure.
  if (!(err instanceof Violation) && !(err instanceof Error && err.message === RETURNED_FALSE))
    throw new ToolError(
      `${name}: the property threw ${String((err as Error)?.stack ?? err)
        .split('\n')
        .slice(0, 3)
        .join(' ')} (replay with CONFORMANCE_SEED=${details.seed} CONFORMANCE_PATH=${details.counterexamplePath})`,
    );
  const violation = err instanceof Violation ? err : undefined;
  const target = violation?.requirement ?? all[0];
  const replay = `CONFORMANCE_SEED=${details.seed} CONFORMANCE_PATH=${details.counterexamplePath}`;
  const counterexample = fc.stringify(details.counterexample);
  const message = `${name}: ${violation ? violation.message : 'the property answered false'} — minimal counterexample ${counterexample}; replay with ${replay}`;
  const facts = violation?.facts ? factsOf(violation.facts) : { expected: 'every generated case to hold', actual: 'a counterexample' };
  return ctx.assert(
    target,
    false,
    message,
    violation?.exchange,
    { ...facts, kind: 'property' },
    {
      seed: details.seed,
      path: details.counterexamplePath,
      counterexample,
      runs: details.numRuns,
      shrinks: details.numShrinks,
    },
  );
}

/**
 * Runs every case at once; whether all held. A failed precondition skips its case, as fast-check would. A lost
 * target is thrown as it is: the runner reports it, not a counterexample.
 */
async function allHold<T>(property: fc.IAsyncPropertyWithHooks<T> | fc.IAsyncProperty<T>, cases: T[]): Promise<boolean> {
  const outcomes = await Promise.all(cases.map((c) => property.run(c)));
  for (const o of outcomes) if (o && !fc.PreconditionFailure.isFailure(o) && o.error instanceof TransportError) throw o.error;
  return outcomes.every((o) => o === null || fc.PreconditionFailure.isFailure(o));
}
