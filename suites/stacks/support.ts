import type { Check, CheckContext } from '../core/check';
import type { Answer, SendOptions } from '../core/client';
import { settingName } from '../core/enabler';
import { compact } from '../core/expect';
import { asDoc } from '../core/json';
import { perTarget, perTargetAndRole } from '../core/per-target';
import { poll } from '../core/poll';
import { Unmet } from '../core/precondition';
import { sleep } from '../core/sleep';
import type { Exchange } from '../core/types';
import type { components, operations } from './openapi.gen';
import type { StacksRequirementId } from './requirements.gen';
import type { StacksState } from './state';
import { STACKS_OPTIONS } from './target';

export type { StacksRequirementId };

/** The setting that gives a stack longer to become RUNNING, or to be gone: a wait it outlasted names it. */
export const READY_TIMEOUT = settingName(STACKS_OPTIONS.readyTimeoutS);
/**
 * A stacks check: its client types each success body as the document does, and it names only `StacksState` and the
 * requirement ids of the catalogue.
 */
export type StacksCheck = Check<operations, StacksState, StacksRequirementId>;
export type StacksContext = CheckContext<operations, StacksRequirementId>;

export type Summary = components['schemas']['StackSummary'];
export type Version = components['schemas']['PlatformVersion'];
/** A create's answer, typed as the document's 202 body. */
export type Created = Answer<Summary>;

export const LIVE_STATES = ['CREATING', 'RUNNING'];
export const GONE_STATES = ['STOPPING', 'ERROR'];
/** "`CREATING`, `RUNNING`, `STOPPING`, `ERROR`": the StackState values. */
export const STACK_STATES: readonly unknown[] = [...LIVE_STATES, ...GONE_STATES];

/**
 * Stacks the run deleted, per target and caller. How long teardown takes is not shown, nor whether a deleted stack
 * counts against the limit until it is gone, listed or not, nor for how long after: a 409 at any time after one of
 * these deletes may be that stack still counting, however long ago it was deleted.
 */
const deletes = perTargetAndRole<string>();
const deletedBy = (ctx: StacksContext, as: string) => deletes(ctx.target, as);

/**
 * Stacks the run holds now, per target and caller: checks that only need a stack of their own run side by side
 * (`uses: stack-quota`), so a create may meet the limit while other checks of the run hold stacks; it waits for them.
 */
const held = perTargetAndRole<string>();
const heldBy = (ctx: StacksContext, as: string) => held(ctx.target, as);

/** Deletes a stack by id and notes the delete for the limit's reasoning; every delete of the checks goes through here. */
export async function sendDelete(ctx: StacksContext, id: string, as = 'primary'): Promise<Exchange> {
  const ex = await ctx.http.send('deleteStack', { as, params: { stackId: id } });
  if (ex.status >= 200 && ex.status < 300) deletedBy(ctx, as).add(id);
  if ((ex.status >= 200 && ex.status < 300) || ex.status === 404) heldBy(ctx, as).delete(id);
  return ex;
}

/** How many stacks the run deleted for this caller: each may still count against its limit, for a time not shown. */
export const deletedByRun = (ctx: StacksContext, as = 'primary'): number => deletedBy(ctx, as).size;

/**
 * A create refused at the limit while stacks of the run's may count against it (held now, or deleted): the order in
 * which a server weighs "request valid" and "stack limit not reached" is not said, so this refusal says nothing of
 * the request itself. Checks that judge a create's body leave it untested instead.
 */
export const refusedAtLimit = (ctx: StacksContext, ex: Exchange, as = 'primary'): boolean =>
  ex.status === 409 && codeOf(ex) === 'MaxStacksLimitReached' && (deletedByRun(ctx, as) > 0 || heldBy(ctx, as).size > 0);

/**
 * Creates a stack and puts it in the ledger at once, so it is deleted whatever the check does next.
 * Whether a deleted stack counts against the per-user limit until it is gone is left open by the document: a create
 * refused at the limit while the caller's list still shows STOPPING stacks, or after a delete the run made, is sent
 * again (up to the ready timeout). Checks that study the limit itself pass `settle: false`.
 */
export async function createStack(ctx: StacksContext, body: unknown = {}, as = 'primary', { settle = true } = {}): Promise<Created> {
  const send = () => sendCreate(ctx, { as, body });
  const ex = settle ? await settled(ctx, as, send) : await send();
  const id = ex.json?.id;
  if (ex.status >= 200 && ex.status < 300 && typeof id === 'string') {
    heldBy(ctx, as).add(id);
    ctx.ledger.add(stackEntry(id, as), () => sendDelete(ctx, id, as));
  }
  return ex;
}

/** Creates of the run not answered yet, per target: a list taken meanwhile may already show their stacks. */
const inFlight = perTarget(() => new Set<Promise<unknown>>());
const inFlightOf = (ctx: StacksContext) => inFlight(ctx.target);

/**
 * Sends a create; a stack it is answered with counts as the run's (see `appeared`) before the answer is handed on.
 * Every create of the checks goes through here.
 */
export function sendCreate(ctx: StacksContext, opts: SendOptions): Promise<Created> {
  const sent = ctx.http.send('createStack', opts).then((ex) => {
    const id = ex.json?.id;
    if (ex.status >= 200 && ex.status < 300 && typeof id === 'string') madeBy(ctx).add(id);
    return ex;
  });
  const sends = inFlightOf(ctx);
  sends.add(sent);
  void sent.finally(() => sends.delete(sent)).catch(() => undefined);
  return sent;
}

/**
 * Sends a create again while it is refused at the limit and what counts may be the run's own: stacks other checks
 * hold now, stacks the run deleted, or stacks still STOPPING. It waits the ready timeout from the last delete the run
 * made, not from its first try: while other checks keep releasing stacks the wait is the run's own queue, and a busy
 * target (or a small limit shared by many checks in flight) would otherwise leave a create untested that a quieter
 * moment would have judged.
 */
export async function settled(ctx: StacksContext, as: string, send: () => Promise<Created>): Promise<Created> {
  let ex = await send();
  const bound = () => Date.now() + ctx.options.readyTimeoutS * 1000;
  let deadline = bound();
  let releases = deletedByRun(ctx, as);
  for (let wait = 100; ex.status === 409 && Date.now() < deadline; wait = Math.min(wait * 2, 2000)) {
    if (deletedByRun(ctx, as) !== releases) [releases, deadline] = [deletedByRun(ctx, as), bound()];
    if (!deletedByRun(ctx, as) && heldBy(ctx, as).size === 0) {
      const list = await ctx.http.send('listStacks', { as });
      if (!stacksOf(list).some((s) => s.state === 'STOPPING')) break;
    }
    await sleep(wait);
    ex = await send();
  }
  return ex;
}

export const stacksOf = (list: Answer<components['schemas']['StackListResponse']>): Summary[] => {
  const stacks = list.json?.stacks;
  return Array.isArray(stacks) ? stacks : [];
};

/**
 * A check that needs a created stack goes on only when create behaved as documented (202); otherwise its
 * requirements are untested with the reason, and the fault is reported once, by the create checks.
 */
export function createdAsDocumented(ctx: StacksContext, requirements: StacksRequirementId[], ex: Exchange): boolean {
  if (ex.status === 202) return true;
  const why =
    ex.status === 409
      ? `create was refused with 409 ${String(codeOf(ex) ?? '')}: the caller is at its stack limit`
      : `create did not succeed as documented (answered ${ex.status}, not 202)`;
  for (const r of requirements) ctx.untested(r, why, ex);
  return false;
}

/** The ledger's name for a stack: its id and the caller who owns it. */
const stackEntry = (id: string, as: string) => `stack ${id} (${as})`;

/** Deletes a stack the check created and takes it off the ledger when the target confirms it. */
export async function deleteStack(ctx: StacksContext, created: Created, as = 'primary'): Promise<Exchange> {
  const id = created.json!.id;
  const ex = await sendDelete(ctx, id, as);
  if (ex.status === 204 || ex.status === 404) ctx.ledger.forget(stackEntry(id, as));
  return ex;
}

/** Polls get until `done` holds or the readiness timeout elapses; returns the last answer. */
export async function pollStack(
  ctx: StacksContext,
  id: string,
  done: (ex: Detail) => boolean,
  timeoutS = ctx.options.readyTimeoutS,
  as = 'primary',
): Promise<{ ex: Detail; reached: boolean }> {
  const { value, reached } = await poll(timeoutS, () => ctx.http.send('getStack', { as, params: { stackId: id } }), done);
  return { ex: value, reached };
}

export type Detail = Answer<components['schemas']['StackDetail']>;

/** A stack that can no longer become RUNNING: in ERROR, or gone. Waiting on it longer is waiting for nothing. */
const dead = (e: Detail) => e.status === 404 || (e.status === 200 && stateOf(e) === 'ERROR');

/**
 * A RUNNING stack of the caller's, for checks that need one: a stack that lands in ERROR (a documented state) or is
 * gone ends its wait at once, is deleted, and another is tried, up to `attempts` stacks; each that ended in ERROR is
 * observed. Returns the create answer and the last get; when none came up, Unmet says why.
 */
export async function runningStack(
  ctx: StacksContext,
  observeAs: StacksRequirementId,
  attempts = 3,
): Promise<{ created: Created; ex: Detail }> {
  let why = 'no stack was created';
  let last: Exchange | undefined;
  for (let i = 0; i < attempts; i++) {
    const created = await createStack(ctx, {});
    if (created.status !== 202) throw new Unmet(`create did not succeed as documented (answered ${created.status}, not 202)`, created);
    const up = (e: Detail) => stateOf(e) === 'RUNNING' || (e.status === 200 && e.json?.stackAccessDetails !== undefined);
    const { ex, reached } = await pollStack(ctx, created.json!.id, (e) => up(e) || dead(e));
    if (reached && !dead(ex)) return { created, ex };
    last = ex;
    if (!reached)
      throw new Unmet(
        `stack did not become RUNNING within ${ctx.options.readyTimeoutS} s (${READY_TIMEOUT}); last state ${String(stateOf(ex))}`,
        ex,
        READY_TIMEOUT,
      );
    why = `${i + 1} stack(s) ended in ${ex.status === 404 ? 'nothing (gone)' : 'ERROR'} before RUNNING`;
    ctx.observe(
      observeAs,
      `stack ${created.json!.id} went from CREATING to ${ex.status === 404 ? 'gone' : 'ERROR'} without a request of the run`,
    );
    await deleteStack(ctx, created);
  }
  throw new Unmet(why, last);
}

export const stateOf = (ex: Answer<Summary>) => ex.json?.state;
/** Error bodies are read field by field: whatever the status, the body may be any JSON. */
export const codeOf = (ex: Exchange) => asDoc(ex.json).code;
export const messageOf = (ex: Exchange) => String(asDoc(ex.json).message ?? '');

export async function listVersions(ctx: StacksContext): Promise<Version[]> {
  const ex = await ctx.http.send('listStackVersions');
  const versions = ex.json?.versions;
  return Array.isArray(versions) ? versions : [];
}

/** The listed versions with a build version string, each once (a list may repeat one). */
export const distinctVersions = async (ctx: StacksContext): Promise<(Version & { buildVersion: string })[]> =>
  (await listVersions(ctx)).filter(
    (v, i, all): v is Version & { buildVersion: string } =>
      typeof v.buildVersion === 'string' && all.findIndex((w) => w.buildVersion === v.buildVersion) === i,
  );

/**
 * The build versions "the latest released version" may name: every listed released one. Versions carry no release
 * date, and the document orders them neither by number nor by list position (a maintenance release of an older line
 * may be the latest one out), so which released version is the latest cannot be told from the list.
 */
export const releasedVersions = (versions: Version[]): string[] =>
  versions.filter((v) => v.status === 'released' && typeof v.buildVersion === 'string').map((v) => v.buildVersion);

/** Expect a ServiceError with this status and code; one assertion. */
export function expectError(
  ctx: StacksContext,
  requirement: StacksRequirementId,
  ex: Exchange,
  status: number,
  code: string,
  what: string,
): boolean {
  const seen = codeOf(ex);
  return ctx.expect.that(
    requirement,
    what,
    ex.status === status && seen === code,
    { expected: `${status} ${code}`, actual: `${ex.status} ${seen === undefined ? '(no code)' : String(seen)}` },
    ex,
  );
}

/**
 * A 404 for a stack, as the error table gives it: code NotFound and a message saying the resource was not found.
 * The table row holds for every stack that does not exist for the caller (one never issued, another user's, a
 * deleted one), so every 404 of get and delete is held to it; one assertion on the code, one on the message.
 */
export function expectNotFound(ctx: StacksContext, requirement: StacksRequirementId, ex: Exchange, what: string): boolean {
  if (!expectError(ctx, requirement, ex, 404, 'NotFound', what)) return false;
  return ctx.expect.that(
    requirement,
    `the message of the 404 to ${what}`,
    saysNotFound(messageOf(ex)),
    { expected: 'says the resource was not found', actual: compact(messageOf(ex)) },
    ex,
  );
}

/**
 * The list, read after a create, shows the new stack: "stack appears in list and get results", in whichever state
 * the create left it (CREATING or RUNNING). A stack that has moved on to STOPPING or ERROR by the time of the read
 * may have left the list (whether such a stack is one of the caller's "active stacks" is not said): not judged.
 * Answers the list and the stack's entry. A list read before the create shows is failed here and cleared by the settled attempt.
 */
export async function expectListed(
  ctx: StacksContext,
  requirement: StacksRequirementId,
  id: string,
  what: string,
): Promise<{ entry?: Summary; list: Exchange }> {
  const list = await ctx.http.send('listStacks');
  const entry = stacksOf(list).find((s) => s.id === id);
  if (!entry && list.status === 200) {
    const got = await ctx.http.send('getStack', { params: { stackId: id } });
    const state = String(stateOf(got));
    if (got.status === 200 && GONE_STATES.includes(state)) {
      ctx.untested(requirement, `${what}: the stack read ${state} before it was listed, and the list may leave such a stack out`, got);
      return { list };
    }
  }
  ctx.expect.contains(
    requirement,
    what,
    stacksOf(list).map((s) => s.id),
    id,
    list,
  );
  return { entry, list };
}

/**
 * The ways an English message says that something was not found: a negation of finding or existing ("could not be
 * found", "does not exist", "not present"), an absence ("there is no stack with id X", "no such stack", "no record
 * of", "nothing matches"), or a word for it ("unknown", "missing", "nonexistent"). The document fixes no wording, so
 * any of them passes; a message about something else (a refusal, a failure, an empty one) does not.
 */
const NOT_FOUND = [
  /\b(not|never|n't|no\s+longer)\s+(\w+\s+){0,2}?(found|find|located|locate|exists?|present|known|recogni[sz]ed|available)\b/,
  /\bno\s+(\w+[\s-]+){0,3}?(with|by|for|of|matching|matches|named|called|under|at|found|exists?|known|here|such)\b/,
  /\bno\s+such\b|\bthere\s+(is|are|was|were|exists?)\s+no\b|\b(nothing|none|no\s+\w+)\s+(matches|matched|found)\b/,
  /\b(unknown|missing|nonexistent|non-existent|inexistent|unrecogni[sz]ed|notfound|not_found)\b/,
  /\b(can ?not|can't|could\s*n[o']t|unable\s+to|failed\s+to)\s+(be\s+)?(find|found|locate|located|look\s*up|resolve)\b/,
  /\bdoes\s*n[o']t\s+exist|\bdoesn't\s+exist/,
];
export const saysNotFound = (message: string) => NOT_FOUND.some((re) => re.test(message.toLowerCase().replace(/[’`]/g, "'")));

/** An id that no implementation will have handed out. */
export const missingId = (ctx: StacksContext) => `no-such-stack-${ctx.options.runTag}-${Math.abs(ctx.options.seed) % 100000}`;

/** Ids the caller's list shows now. */
export async function listedIds(ctx: StacksContext, as = 'primary'): Promise<Set<string>> {
  return new Set(stacksOf(await ctx.http.send('listStacks', { as })).map((s) => s.id));
}

/** Waits until get answers 404 for every id and the list shows none of them (up to the ready timeout). */
export async function waitGone(ctx: StacksContext, ids: string[], as = 'primary'): Promise<boolean> {
  const gone = async () => {
    const listed = await listedIds(ctx, as);
    if (ids.some((id) => listed.has(id))) return false;
    for (const id of ids) if ((await ctx.http.send('getStack', { as, params: { stackId: id } })).status !== 404) return false;
    return true;
  };
  return (await poll(ctx.options.readyTimeoutS, gone, (done) => done)).reached;
}

/**
 * Every stack a create of the run was answered with, per target: a stack of the run's own that was not listed yet
 * (still CREATING where a server lists stacks only once provisioned) may show up between two lists.
 */
const made = perTarget(() => new Set<string>());
const madeBy = (ctx: StacksContext) => made(ctx.target);

/**
 * Stacks listed now that were not in `before` and are neither among `expected` nor stacks an accepted create of the
 * run was answered with. Counting would not do: a stack deleted earlier may still be listed as STOPPING and vanish in
 * between. The list is judged once every create of the run in flight when it came back has been answered, so a stack
 * another check is being answered with is known as the run's and never taken for one a refused create left.
 */
export async function appeared(ctx: StacksContext, before: Set<string>, expected: string[] = []): Promise<string[]> {
  const after = await listedIds(ctx);
  await Promise.allSettled([...inFlightOf(ctx)]);
  return [...after].filter((id) => !before.has(id) && !expected.includes(id) && !madeBy(ctx).has(id));
}

/** The resolution of an ISO-8601 time in ms: a whole second without a fraction, 10^-n s with n fraction digits. */
const resolutionMs = (t: string) => {
  const digits = /T\d{2}:\d{2}(?::\d{2}(?:[.,](\d+))?)?/.exec(t);
  if (!digits) return 1;
  if (digits[0].length <= 'T00:00'.length) return 60_000;
  return 1000 / 10 ** Math.min(3, digits[1]?.length ?? 0);
};

/**
 * Two renderings of a summary field agree: timestamps as the same instant at the coarser of the two precisions
 * (one answer may give milliseconds where another gives whole seconds, truncated or rounded; the offset notation may
 * differ too).
 */
export function sameField(key: keyof Summary, a: unknown, b: unknown): boolean {
  if ((key === 'createdAt' || key === 'terminationDate') && typeof a === 'string' && typeof b === 'string') {
    const x = Date.parse(a);
    const y = Date.parse(b);
    const res = Math.max(resolutionMs(a), resolutionMs(b));
    // At a coarse precision one answer may truncate and the other round: one step apart is the same instant.
    return Number.isFinite(x) && Number.isFinite(y) && (res === 1 ? x === y : Math.abs(x - y) <= res);
  }
  return a === b;
}
