import { inFlight } from './in-flight';
import { attemptTag } from './run-tag';
import { judgingOutsideShape, levelsOf } from './catalogue';
import type { ApiDefinition } from './api';
import type { Check, CheckContext, RunOptions } from './check';
import { createClient } from './client';
import { settingName } from './enabler';
import { evidenceOf } from './evidence';
import { createExpect, type Facts } from './expect';
import { inspectExchange } from './inspect';
import { createLedger } from './ledger';
import { compareWithPrism, type CrossCheck } from './prism-cross-check';
import { Unmet } from './precondition';
import type { Spec } from './spec';
import { MAX_SEQUENCE, sentRequest, type SentRequest } from './sequence';
import { ToolError } from './tool-error';
import { reachOf, reachText } from './reach';
import { RUN_OPTIONS } from './settings';
import { settling } from './settle';
import { TransportError, type Transport } from './transport';
import type { AssertionRecord, Exchange, NotRunCause, Observation, Reach, Target } from './types';

/** What one check left: its records, observations, how it ended, and what it cost. */
export interface CheckRun {
  records: AssertionRecord[];
  observations: Observation[];
  outcome: 'ran' | 'skipped' | 'untested' | 'aborted';
  attempts: number;
  lostTarget: boolean;
  cleanup: { created: number; removed: number; failed: string[] };
  requests: number;
  /** MUST requirements the first attempt failed that held once reads waited for writes to settle (the target lags). */
  settled?: string[];
  /** Every request of the first attempt that failed, in order (at most MAX_SEQUENCE): what a replay sends again. */
  sequence?: SentRequest[];
}

export function notRun(
  check: Check,
  outcome: 'skipped' | 'untested' | 'fail',
  message: string,
  cause?: NotRunCause,
  enabledBy?: string,
): CheckRun {
  return {
    records: check.requirements.map((requirement) => ({
      requirement,
      check: check.id,
      outcome,
      message,
      ...(cause ? { cause } : {}),
      ...(enabledBy ? { enabledBy } : {}),
    })),
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

/**
 * A check, with the attempts that make its verdict hold on a real deployment. A failure on the first attempt is
 * checked again with every read after a write held back by the settle bound (`settleS`): a requirement that attempt
 * passes was failed by the target showing a write late, which the documents allow, and the lag is recorded as an
 * observation. A failure that also appears when reads wait is the server's; further attempts (`retries`) only tell
 * whether a MUST failure is intermittent.
 */
export async function runCheck(def: ApiDefinition, check: Check, env: CheckEnv): Promise<CheckRun> {
  const missing = (check.needs ?? []).filter((role) => !env.target.principals[role]);
  if (missing.length) {
    const hint = missing.map((r) => def.roleHints[r] ?? r).join(', ');
    return notRun(check, 'untested', `needs credentials that were not given (${hint})`, 'credentials', hint);
  }
  if (check.destructive && !env.options.allowDestructive) {
    return notRun(
      check,
      'skipped',
      `destructive check: can change data the run did not create; runs with ${settingName(RUN_OPTIONS.allowDestructive)} (${RUN_OPTIONS.allowDestructive.env}=1) against a target you name`,
      'destructive',
      settingName(RUN_OPTIONS.allowDestructive),
    );
  }
  const levels = levelsOf(def.catalogueFile);
  const mustFailed = (run: CheckRun) => run.records.some((r) => r.outcome === 'fail' && levels.get(r.requirement) === 'MUST');
  const first = await attemptCheck(def, check, env, 1);
  const settleMs = env.options.settleS * 1000;
  // A warning is worth the settled attempt too (a lagging target must not warn either); only a MUST is worth retries.
  const judgedFailed = failedRequirements(first, (id) => levels.get(id) !== 'unspecified');
  if (first.lostTarget || !judgedFailed.length || (settleMs === 0 && !mustFailed(first))) return first;
  let base = first;
  if (settleMs > 0) {
    base = settledVerdict(first, await attemptCheck(def, check, env, 2, settleMs), judgedFailed, env.options.settleS);
    if (!mustFailed(base) || base.lostTarget) return base;
  }
  for (let extra = 1; extra <= env.options.retries; extra++) {
    const run = await attemptCheck(def, check, env, base.attempts + 1, settleMs || undefined);
    base = merged(base, [run]);
    base.attempts = run.attempts;
    if (!mustFailed(run)) {
      for (const r of base.records) if (r.outcome === 'fail') r.intermittent = true;
      break;
    }
    if (run.lostTarget) break;
  }
  return base;
}

const isSchemaFinding = (details: unknown) => typeof (details as { schemaError?: unknown })?.schemaError === 'string';

/** The requirements a run failed that `judged` picks, each once. */
const failedRequirements = (run: CheckRun, judged: (id: string) => boolean) => [
  ...new Set(run.records.filter((r) => r.outcome === 'fail' && judged(r.requirement)).map((r) => r.requirement)),
];

/**
 * The verdict once reads waited for writes: a requirement the first attempt failed is cleared only when the settled
 * attempt passed it (an assertion ran and held). One the settled attempt could not judge because its set-up could
 * not be made (Unmet) keeps the first attempt's failures, so a bug that also undoes the set-up is not lost; one left
 * unjudged otherwise (no generated case reached it) is untested, as the settled attempt says.
 */
function settledVerdict(first: CheckRun, settled: CheckRun, failedFirst: string[], settleS: number): CheckRun {
  const outcomes = (id: string) => new Set(settled.records.filter((r) => r.requirement === id).map((r) => r.outcome));
  const cleared = failedFirst.filter((id) => outcomes(id).has('pass') && !outcomes(id).has('fail'));
  const unmet = (id: string) => settled.records.some((r) => r.requirement === id && r.kind === 'unmet');
  const unjudged = failedFirst.filter((id) => !outcomes(id).has('pass') && !outcomes(id).has('fail') && unmet(id));
  settled.records.push(...first.records.filter((r) => r.outcome === 'fail' && unjudged.includes(r.requirement)));
  const run = merged(settled, [first]);
  for (const id of cleared) {
    const failure = first.records.find((r) => r.outcome === 'fail' && r.requirement === id)!;
    run.observations.push({
      requirement: id,
      check: failure.check,
      note: `read right after a write it failed (${failure.message}); with each read ${settleS} s after the last write it held: the target shows writes late, which the document allows`,
    });
  }
  if (cleared.length) run.settled = cleared;
  return run;
}

/** `run`'s verdict, with the cost of the other attempts added to it. */
function merged(run: CheckRun, others: CheckRun[]): CheckRun {
  for (const o of others) {
    run.cleanup.created += o.cleanup.created;
    run.cleanup.removed += o.cleanup.removed;
    run.cleanup.failed.push(...o.cleanup.failed);
    run.requests += o.requests;
  }
  return run;
}

/** What one attempt collects while it runs, and what it judges its records by. */
interface Attempt {
  records: AssertionRecord[];
  observations: Observation[];
  /** Every request of the attempt, at most MAX_SEQUENCE: what a replay sends again. */
  sent: SentRequest[];
  // What every request of the attempt reached, for assertions that judge many at once (a property).
  traffic: Reach[];
  requests: number;
  /** The run has ended: an assertion of a branch it left behind is not the attempt's verdict. */
  closed?: boolean;
  levels: ReturnType<typeof levelsOf>;
  outsideOk: Set<string>;
  principalOf: (ex?: Exchange) => Target['principals'][string] | undefined;
}

/** One attempt: a fresh ledger and client, every assertion recorded against a declared requirement, cleanup at the end. */
async function attemptCheck(def: ApiDefinition, check: Check, env: CheckEnv, attempt: number, settleMs?: number): Promise<CheckRun> {
  const ledger = createLedger();
  const state: Attempt = {
    records: [],
    observations: [],
    sent: [],
    traffic: [],
    requests: 0,
    levels: levelsOf(def.catalogueFile),
    outsideOk: judgingOutsideShape(def.catalogueFile),
    principalOf: (ex?: Exchange) => (ex?.principal ? env.target.principals[ex.principal] : undefined),
  };
  const transport = inFlight(settleMs ? settling(env.transport, settleMs) : env.transport);
  const client = createClient(env.target, env.spec, transport, exchangeRecorder(def, check, env, state), check.id);
  const ctx = checkContext(check, env, state, { attempt, client, ledger, pathForm: def.pathForm });
  let lostTarget = false;
  let outcome: CheckRun['outcome'] = 'ran';
  let cleanup = { removed: 0, failed: [] as string[] };
  try {
    await runJudgingUnmet(check, ctx, state);
  } catch (e) {
    ({ lostTarget, outcome } = recordCutShort(check, state.records, e as Error));
  } finally {
    // What a branch the run left behind still judges is judged on rows that are there; after it, nothing is the attempt's.
    // Each request ends by its own deadline; the bound only keeps a stuck one from holding the cleanup for ever.
    await transport.drained(60_000);
    state.closed = true;
    cleanup = await env.transport.exempt(() => ledger.cleanup());
  }
  const { records, observations, requests, sent } = state;
  const failed = records.some((r) => r.outcome === 'fail' || r.outcome === 'error');
  return {
    records,
    observations,
    outcome,
    attempts: attempt,
    lostTarget,
    cleanup: { created: ledger.created, removed: ledger.removed, failed: cleanup.failed },
    requests,
    ...(failed ? { sequence: sent } : {}),
  };
}

/** What the client calls with every exchange of the attempt: counted, kept for replay and HAR, and checked against the document. */
function exchangeRecorder(def: ApiDefinition, check: Check, env: CheckEnv, state: Attempt): (ex: Exchange) => void {
  const { records, observations, levels, outsideOk, principalOf } = state;
  return (ex) => {
    state.requests++;
    const reach = reachOf(ex, def.pathForm);
    if (reach) state.traffic.push(reach);
    if (state.sent.length < MAX_SEQUENCE) state.sent.push(sentRequest(ex, env.target));
    ex.check = check.id;
    if (ex.status >= 200 && ex.status < 300 && def.refusedIn2xx?.(ex, env.spec)) ex.refusal = true;
    env.exchanges?.push(ex);
    if (state.closed) return;
    const first = records.length;
    inspectExchange(env.spec, ex, (requirement, ok, message, e, details) => {
      // The answer to a request outside the documented shape is held to the documented answer only where a clause
      // speaks of that input, as a check's assertions are: elsewhere what it looks like is an observation.
      if (!ok && isSchemaFinding(details) && e.outsideShape && levels.get(requirement) === 'MUST' && !outsideOk.has(requirement))
        return void observations.push({
          requirement,
          check: def.responseCheckId,
          note: `${message}, answering a request outside the documented shape (${e.outsideShape.join('; ')}), seen while running ${check.id}`,
        });
      records.push({
        requirement,
        check: def.responseCheckId,
        outcome: ok ? 'pass' : 'fail',
        message: ok ? message : `${message} (seen while running ${check.id})`,
        kind: 'response',
        seenIn: check.id,
        evidence: ok ? undefined : evidenceOf(e, principalOf(e), details),
        reached: [reachOf(e, def.pathForm)].filter((x) => x !== undefined),
      });
    });
    if (env.crossCheck && ex.operationId && !ex.pathRewritten)
      compareWithPrism(
        env.crossCheck,
        ex,
        records
          .slice(first)
          .filter((r) => r.outcome === 'fail')
          .map((r) => r.message),
      );
  };
}

/** The `ctx` a check runs with: its assertions go through the guard, and only against requirements it declares. */
function checkContext(
  check: Check,
  env: CheckEnv,
  state: Attempt,
  parts: { attempt: number; client: CheckContext['http']; ledger: CheckContext['ledger']; pathForm: ApiDefinition['pathForm'] },
): CheckContext {
  const { records, observations, traffic, levels, outsideOk, principalOf } = state;
  const own = (requirement: string) => {
    if (!check.requirements.includes(requirement))
      throw new ToolError(`check ${check.id} records against ${requirement}, which it does not declare`);
  };
  const record = (requirement: string, ok: boolean, message: string, ex?: Exchange, facts?: Facts, details?: unknown) => {
    own(requirement);
    if (state.closed) return ok;
    records.push({
      requirement,
      check: check.id,
      outcome: ok ? 'pass' : 'fail',
      message,
      kind: 'predicate',
      ...facts,
      evidence: ok ? undefined : evidenceOf(ex, principalOf(ex), details),
      reached: ex ? [reachOf(ex, parts.pathForm)].filter((x) => x !== undefined) : facts?.reached,
    });
    return ok;
  };
  // Where a document leaves behaviour open the suite only records it: an assertion there could raise a false alarm.
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
  return {
    checkId: check.id,
    target: env.target,
    // Each attempt's rows carry a tag of their own: a lagging target may still list the rows of the attempt before.
    options: parts.attempt > 1 ? { ...env.options, runTag: attemptTag(env.options.runTag, parts.attempt) } : env.options,
    http: parts.client,
    ledger: parts.ledger,
    expect: createExpect(asserted),
    assert: asserted,
    untested(requirement, reason, ex, enabledBy) {
      own(requirement);
      records.push({
        requirement,
        check: check.id,
        outcome: 'untested',
        message: reason,
        evidence: ex ? evidenceOf(ex, principalOf(ex)) : undefined,
        ...(enabledBy ? { enabledBy } : {}),
      });
    },
    observe(requirement, note) {
      own(requirement);
      observations.push({ requirement, check: check.id, note });
    },
    has: (role) => Boolean(env.target.principals[role]),
    traffic: { mark: () => traffic.length, since: (mark) => [...new Map(traffic.slice(mark).map((r) => [reachText(r), r])).values()] },
  };
}

/** The check's run; a set-up it could not make (Unmet) leaves every requirement it has not judged untested, with why. */
async function runJudgingUnmet(check: Check, ctx: CheckContext, state: Attempt): Promise<void> {
  const { records, observations, levels, principalOf } = state;
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
        kind: 'unmet',
        evidence: e.ex ? evidenceOf(e.ex, principalOf(e.ex)) : undefined,
        ...(e.enabledBy ? { enabledBy: e.enabledBy } : {}),
      });
  }
}

/** Records what a check cut short by `err` leaves: untested, failed (an answer too large) or a tool error. */
function recordCutShort(check: Check, records: AssertionRecord[], err: Error): { lostTarget: boolean; outcome: CheckRun['outcome'] } {
  const transport = err instanceof TransportError;
  const lostTarget = transport && (err.kind === 'timeout' || err.kind === 'connection');
  const capped = transport && (err.kind === 'write-cap' || err.kind === 'rate-limited');
  // No answer in time (a slow deployment, a starved machine) or none at all says nothing of what the document
  // requires: what the check had not judged yet is untested. Anything else is the tool's own failure (no verdict).
  // An answer past the body cap (16 MiB) is an answer, and no documented one: it stays the server's failure.
  const tooLarge = transport && err.kind === 'too-large';
  const outcome_: AssertionRecord['outcome'] = tooLarge ? 'fail' : transport ? 'untested' : 'error';
  const outcome = capped ? 'untested' : 'aborted';
  const touched = new Set(records.filter((r) => r.check === check.id).map((r) => r.requirement));
  const affected = check.requirements.filter((r) => !touched.has(r));
  for (const requirement of outcome_ === 'error' ? check.requirements : affected.length ? affected : check.requirements.slice(0, 1)) {
    records.push({
      requirement,
      check: check.id,
      outcome: outcome_,
      message: capped
        ? `not run: ${err.message}`
        : tooLarge
          ? `check aborted: ${err.message}`
          : transport
            ? `not judged: the check was cut short, ${err.message}`
            : `tool error in ${check.id}: ${err.name}: ${err.message}`,
      kind: transport ? 'transport' : 'tool',
      ...(transport && err.enabledBy ? { enabledBy: err.enabledBy } : {}),
    });
  }
  return { lostTarget, outcome };
}
