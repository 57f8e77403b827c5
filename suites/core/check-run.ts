import { judgingOutsideShape, levelsOf } from './catalogue';
import type { ApiDefinition } from './api';
import type { Check, CheckContext, RunOptions } from './check';
import { createClient } from './client';
import { evidenceOf } from './evidence';
import { createExpect, type Facts } from './expect';
import { inspectExchange } from './inspect';
import { createLedger } from './ledger';
import { compareWithPrism, type CrossCheck } from './prism-cross-check';
import { Unmet } from './precondition';
import type { Spec } from './spec';
import { MAX_SEQUENCE, sentRequest, type SentRequest } from './sequence';
import { ToolError } from './tool-error';
import { TransportError, type Transport } from './transport';
import type { AssertionRecord, Exchange, Observation, Target } from './types';

/** What one check left: its records, observations, how it ended, and what it cost. */
export interface CheckRun {
  records: AssertionRecord[];
  observations: Observation[];
  outcome: 'ran' | 'skipped' | 'untested' | 'aborted';
  attempts: number;
  lostTarget: boolean;
  cleanup: { created: number; removed: number; failed: string[] };
  requests: number;
  /** Every request of the first attempt that failed, in order (at most MAX_SEQUENCE): what a replay sends again. */
  sequence?: SentRequest[];
}

export function notRun(check: Check, outcome: 'skipped' | 'untested' | 'fail', message: string): CheckRun {
  return {
    records: check.requirements.map((requirement) => ({ requirement, check: check.id, outcome, message })),
    observations: [],
    outcome: outcome === 'fail' ? 'aborted' : outcome,
    attempts: 0,
    lostTarget: outcome === 'fail',
    cleanup: { created: 0, removed: 0, failed: [] },
    requests: 0,
  };
}

/** What a check runs with: the spec, the target and its transport, the run's options and evidence sinks. */
export interface CheckEnv {
  spec: Spec;
  target: Target;
  transport: Transport;
  /** The check's `ctx.options`, and how often a check that failed a MUST is run again. */
  options: RunOptions & { retries: number };
  exchanges?: Exchange[];
  crossCheck?: CrossCheck;
}

/** A check with its retries: a failure that disappears on a later attempt is marked intermittent. */
export async function runCheck(def: ApiDefinition, check: Check, env: CheckEnv): Promise<CheckRun> {
  const missing = (check.needs ?? []).filter((role) => !env.target.principals[role]);
  if (missing.length) {
    const hint = missing.map((r) => def.roleHints[r] ?? r).join(', ');
    return notRun(check, 'untested', `needs credentials that were not given (${hint})`);
  }
  if (check.destructive && !env.options.allowDestructive) {
    return notRun(
      check,
      'skipped',
      'destructive check: can change data the run did not create; runs with --allow-destructive (CONFORMANCE_ALLOW_DESTRUCTIVE=1) against a target you name',
    );
  }
  // Only a failed MUST is worth a re-run: a SHOULD only warns, and re-running the check would multiply its requests.
  const levels = levelsOf(def.catalogueFile);
  let first: CheckRun | undefined;
  for (let attempt = 1; attempt <= 1 + env.options.retries; attempt++) {
    const run = await attemptCheck(def, check, env);
    run.attempts = attempt;
    if (!first) first = run;
    else {
      first.cleanup.created += run.cleanup.created;
      first.cleanup.removed += run.cleanup.removed;
      first.cleanup.failed.push(...run.cleanup.failed);
      first.requests += run.requests;
    }
    const failed = run.records.some((r) => r.outcome === 'fail' && levels.get(r.requirement) === 'MUST');
    if (!failed) {
      if (run !== first) for (const r of first.records) if (r.outcome === 'fail') r.intermittent = true;
      break;
    }
    first.attempts = attempt;
    if (run.lostTarget) break;
  }
  return first!;
}

/** One attempt: a fresh ledger and client, every assertion recorded against a declared requirement, cleanup at the end. */
async function attemptCheck(def: ApiDefinition, check: Check, env: CheckEnv): Promise<CheckRun> {
  const records: AssertionRecord[] = [];
  const observations: Observation[] = [];
  const ledger = createLedger();
  const principalOf = (ex?: Exchange) => (ex?.principal ? env.target.principals[ex.principal] : undefined);
  let requests = 0;
  const sent: SentRequest[] = [];
  const client = createClient(
    env.target,
    env.spec,
    env.transport,
    (ex) => {
      requests++;
      if (sent.length < MAX_SEQUENCE) sent.push(sentRequest(ex, env.target));
      ex.check = check.id;
      env.exchanges?.push(ex);
      const first = records.length;
      inspectExchange(env.spec, ex, (requirement, ok, message, e, details) =>
        records.push({
          requirement,
          check: def.responseCheckId,
          outcome: ok ? 'pass' : 'fail',
          message: ok ? message : `${message} (seen while running ${check.id})`,
          kind: 'response',
          seenIn: check.id,
          evidence: ok ? undefined : evidenceOf(e, principalOf(e), details),
        }),
      );
      if (env.crossCheck && ex.operationId && !ex.pathRewritten)
        compareWithPrism(
          env.crossCheck,
          ex,
          records
            .slice(first)
            .filter((r) => r.outcome === 'fail')
            .map((r) => r.message),
        );
    },
    check.id,
  );
  const own = (requirement: string) => {
    if (!check.requirements.includes(requirement))
      throw new ToolError(`check ${check.id} records against ${requirement}, which it does not declare`);
  };
  const record = (requirement: string, ok: boolean, message: string, ex?: Exchange, facts?: Facts, details?: unknown) => {
    own(requirement);
    records.push({
      requirement,
      check: check.id,
      outcome: ok ? 'pass' : 'fail',
      message,
      kind: 'predicate',
      ...facts,
      evidence: ok ? undefined : evidenceOf(ex, principalOf(ex), details),
    });
    return ok;
  };
  // Where a document leaves behaviour open the suite only records it: an assertion there could raise a false alarm.
  const levels = levelsOf(def.catalogueFile);
  const outsideOk = judgingOutsideShape(def.catalogueFile);
  const asserted = (requirement: string, ok: boolean, message: string, ex?: Exchange, facts?: Facts, details?: unknown) => {
    if (levels.get(requirement) === 'unspecified')
      throw new ToolError(`check ${check.id} asserts on ${requirement}, which the document leaves open: it may only observe it`);
    // What a server does with input outside the documented shape is not stated unless the clause says so.
    if (levels.get(requirement) === 'MUST' && ex?.outsideShape && !outsideOk.has(requirement))
      throw new ToolError(
        `check ${check.id} asserts MUST ${requirement} on the answer to a request outside the documented shape (${ex.outsideShape.join('; ')}): only a requirement marked judgesInputOutsideShape may`,
      );
    return record(requirement, ok, message, ex, facts, details);
  };
  const ctx: CheckContext = {
    checkId: check.id,
    target: env.target,
    options: env.options,
    http: client,
    ledger,
    expect: createExpect(asserted),
    assert: asserted,
    untested(requirement, reason, ex) {
      own(requirement);
      records.push({
        requirement,
        check: check.id,
        outcome: 'untested',
        message: reason,
        evidence: ex ? evidenceOf(ex, principalOf(ex)) : undefined,
      });
    },
    observe(requirement, note) {
      own(requirement);
      observations.push({ requirement, check: check.id, note });
    },
    has: (role) => Boolean(env.target.principals[role]),
  };
  /** The check's run; a set-up it could not make (Unmet) leaves every requirement it has not judged untested, with why. */
  const run = async () => {
    try {
      await check.run(ctx);
    } catch (e) {
      if (!(e instanceof Unmet)) throw e;
      const judged = new Set(records.filter((r) => r.check === check.id).map((r) => r.requirement));
      // Where the document leaves behaviour open an observation is all a check leaves: such a requirement keeps it.
      const observed = new Set(observations.filter((o) => levels.get(o.requirement) === 'unspecified').map((o) => o.requirement));
      for (const requirement of check.requirements.filter((r) => !judged.has(r) && !observed.has(r)))
        records.push({
          requirement,
          check: check.id,
          outcome: 'untested',
          message: e.reason,
          evidence: e.ex ? evidenceOf(e.ex, principalOf(e.ex)) : undefined,
        });
    }
  };
  let lostTarget = false;
  let outcome: CheckRun['outcome'] = 'ran';
  let cleanup = { removed: 0, failed: [] as string[] };
  try {
    await run();
  } catch (e) {
    const err = e as Error;
    const transport = err instanceof TransportError;
    lostTarget = transport && (err.kind === 'timeout' || err.kind === 'connection');
    const capped = transport && (err.kind === 'write-cap' || err.kind === 'rate-limited');
    // Anything but the target failing to answer is the tool's own failure: no verdict, never a server failure.
    const outcome_: AssertionRecord['outcome'] = capped ? 'untested' : transport ? 'fail' : 'error';
    outcome = capped ? 'untested' : 'aborted';
    const touched = new Set(records.filter((r) => r.check === check.id).map((r) => r.requirement));
    const affected = check.requirements.filter((r) => !touched.has(r));
    for (const requirement of outcome_ === 'error' ? check.requirements : affected.length ? affected : check.requirements.slice(0, 1)) {
      records.push({
        requirement,
        check: check.id,
        // What the document leaves open cannot fail, not even by a lost connection: it stays untested, with the reason.
        outcome: outcome_ === 'fail' && levels.get(requirement) === 'unspecified' ? 'untested' : outcome_,
        message: capped
          ? `not run: ${err.message}`
          : transport
            ? `check aborted: ${err.message}`
            : `tool error in ${check.id}: ${err.name}: ${err.message}`,
        kind: transport ? 'transport' : 'tool',
      });
    }
  } finally {
    cleanup = await env.transport.exempt(() => ledger.cleanup());
  }
  const failed = records.some((r) => r.outcome === 'fail' || r.outcome === 'error');
  return {
    records,
    observations,
    outcome,
    attempts: 1,
    lostTarget,
    cleanup: { created: ledger.created, removed: ledger.removed, failed: cleanup.failed },
    requests,
    ...(failed ? { sequence: sent } : {}),
  };
}
