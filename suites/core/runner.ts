import { checkTag } from './run-tag';
import type { ApiDefinition } from './api';
import type { Check, RunOptions } from './check';
import { levelsOf, loadCatalogue } from './catalogue';
import { startPrism } from './prism';
import { matchesOnly } from './registry';
import { createResults, type Results } from './results';
import { specOf } from './spec';
import { requirementResult, type RequirementResult } from './status';
import { notRun, runCheck, type CheckRun } from './check-run';
import { createLostTarget } from './lost-target';
import { unreachableLine } from './network';
import { attachCredentialHints } from './credential-hints';
import { destructiveAllowed } from './destructive';
import { DEPLOYMENT_CONCURRENCY, DEPLOYMENT_SETTLE_S } from './settings';
import type { CrossCheck } from './prism-cross-check';
import { costFrom, schedule } from './schedule';
import type { SentRequest } from './sequence';
import { createTransport, type Transport } from './transport';
import { tlsInsecureVariable } from './transport-hint';
import type { Catalogue, Exchange, Interruption, Observation, Target } from './types';
import { UsageError } from './usage-error';

export interface RunnerOptions extends Omit<RunOptions, 'allowDestructive' | 'settleS'> {
  /** How long a write may take to show (RunOptions.settleS); unset: 0 embedded, DEPLOYMENT_SETTLE_S otherwise. */
  settleS?: number;
  /** Whether destructive checks may run against a target the run did not start (the setting; see destructiveAllowed). */
  allowDestructive?: boolean;
  /** The deployment to check; none: the API's embedded implementation, started for the run. */
  target?: Target;
  only?: string[];
  /** Extra attempts for a check that failed, to tell consistent from intermittent failures. */
  retries: number;
  timeoutMs: number;
  maxBodyBytes: number;
  rateLimit?: number;
  maxWrites?: number;
  har?: boolean;
  progress?: (e: ProgressEvent) => void;
  signal?: Interruption;
  /** Checks of one API run at once (never more than the API allows). */
  concurrency?: number;
  /** Route every request through `prism proxy` and compare its findings with the suite's own. */
  viaPrismProxy?: boolean;
  /** Run only every n-th check (1-based index of n), for spreading a run over CI machines. */
  shard?: { index: number; count: number };
  /** Hints by role from the credential probe: the failures of checks that use the role carry them. */
  credentialHints?: Record<string, string>;
}

const inShard = (i: number, shard: RunnerOptions['shard']) => !shard || i % shard.count === shard.index - 1;

export type ProgressEvent =
  | {
      type: 'api-start';
      api: string;
      baseUrl: string;
      embedded: boolean;
      checks: number /** Requests sent so far (live, for progress displays). */;
      requests: () => number;
    }
  | { type: 'check-start'; api: string; check: string }
  | {
      type: 'check-end';
      api: string;
      check: string;
      index: number;
      total: number;
      failed: number;
      warned?: number;
      outcome: CheckOutcome;
      ms: number;
    };

/** How a check ended, or `filtered`: --only or the shard left it out. */
type CheckOutcome = CheckRun['outcome'] | 'filtered';

export interface ApiRun {
  api: string;
  title: string;
  target: { baseUrl: string; embedded: boolean };
  /** Whether destructive checks were allowed for this API (always for the embedded implementation). */
  allowDestructive: boolean;
  requirements: RequirementResult[];
  /** Per check: outcome, attempts, time and requests sent (every attempt, cleanup included). */
  checks: {
    id: string;
    title: string;
    requirements: string[];
    destructive: boolean;
    outcome: CheckOutcome;
    attempts: number;
    ms: number;
    requests: number;
    /** For a check that failed: every request of its first failing attempt, in order, to replay. */
    sequence?: SentRequest[];
  }[];
  stats: { requests: number; writes: number; assertions: number; ms: number };
  cleanup: { created: number; removed: number; failed: string[] };
  exchanges?: Exchange[];
  secrets: string[];
  /** Who the run acted as: each role, the variable that supplied it, and the user's name where that is no secret. */
  users: { role: string; variable: string; name?: string }[];
  /** Present in --via-prism-proxy runs: where Prism and the suite's validator disagree about an answer. */
  crossCheck?: CrossCheck;
  /** Set when the target stopped answering: the check it went away in, and how many requirements were not run. */
  lostTarget?: { at: string; notRun: number };
}

/** The run's tag plus the check's place in its API: fixed width, so no check's tag is a prefix of another's. */

/** Why the checks that had not started when the run was interrupted were not run. */
const INTERRUPTED_REASON = 'run interrupted before this check started';

export async function runApi(def: ApiDefinition, options: RunnerOptions): Promise<ApiRun> {
  const started = performance.now();
  const spec = specOf(def.specFile);
  const catalogue = loadCatalogue(def.catalogueFile);
  const levelOf = levelsOf(def.catalogueFile);
  const { target, prism, crossCheck } = await targetOf(def, options);
  const allowDestructive = destructiveAllowed(target, options.allowDestructive);
  // What each check sees of the run (its `ctx.options`), and how often a failed MUST is tried again.
  const { seed, runs, replayPath, readyTimeoutS, runTag, apiOptions, retries } = options;
  // The embedded implementation shows every write at once; a deployment may take its time (--settle).
  const settleS = options.settleS ?? (target.embedded ? 0 : DEPLOYMENT_SETTLE_S);
  const checkOptions = { seed, runs, replayPath, allowDestructive, readyTimeoutS, settleS, apiOptions, retries };
  const width = widthOf(def, target, options);
  const transport = transportFor(def, target, options, width);
  const exchanges: Exchange[] | undefined = options.har ? [] : undefined;
  const tally = emptyTally();
  const lost = createLostTarget(target, transport);
  try {
    await probe(target, transport);
    const selected = def.checks.filter((c, i) => matchesOnly(c, options.only) && inShard(i, options.shard));
    options.progress?.({
      type: 'api-start',
      api: def.id,
      baseUrl: target.baseUrl,
      embedded: target.embedded,
      checks: selected.length,
      requests: () => transport.stats.requests,
    });
    const attempt = (check: Check) =>
      runCheck(def, check, {
        spec,
        target,
        transport,
        options: { ...checkOptions, runTag: checkTag(runTag, def.checks.indexOf(check)) },
        exchanges,
        crossCheck,
      });
    const done = await runSelected(def, options, selected, { width, attempt, lost, levelOf });
    tallyRuns(def, options, done, tally);
  } finally {
    transport.close();
    await prism?.stop();
    if (target.embedded) await target.close?.();
  }
  const requirements = requirementResults(def, catalogue, tally, options.credentialHints);
  return {
    api: def.id,
    title: def.title,
    target: { baseUrl: target.baseUrl, embedded: target.embedded },
    allowDestructive,
    requirements,
    checks: tally.checkRuns,
    stats: { ...transport.stats, assertions: tally.results.assertions(), ms: performance.now() - started },
    cleanup: tally.totals,
    exchanges,
    crossCheck,
    ...(lost.at ? { lostTarget: { at: lost.at, notRun: requirements.filter((q) => q.causes?.includes('lost-target')).length } } : {}),
    secrets: Object.values(target.principals).flatMap((p) => p.secrets),
    users: Object.entries(target.principals).map(([role, p]) => ({
      role,
      variable: def.roleHints[role] ?? role,
      ...(p.name ? { name: p.name } : {}),
    })),
  };
}

/** The target the checks send to: the deployment or the embedded implementation, behind `prism proxy` if asked. */
async function targetOf(def: ApiDefinition, options: RunnerOptions) {
  const upstream = options.target ?? (await def.startEmbedded());
  const prism = options.viaPrismProxy
    ? await startPrism('proxy', def.specFile, { upstream: upstream.baseUrl, insecure: upstream.tlsInsecure })
    : undefined;
  // Prism refuses malformed request bodies itself, so those go straight to the target.
  // Prism listens on this machine: the deployment's proxy is not for it.
  const target: Target = prism
    ? { ...upstream, baseUrl: prism.url, directUrl: upstream.baseUrl, close: upstream.close, proxy: undefined }
    : upstream;
  const crossCheck: CrossCheck | undefined = prism ? { exchanges: 0, agreed: 0, prismOnly: [], suiteOnly: [] } : undefined;
  return { target, prism, crossCheck };
}

/**
 * A deployment answers over a network: checks in flight hide its latency. The embedded one answers in-process.
 * Requests in flight are capped at the same width: a check that sends several at once fills the places other
 * checks leave, never more than --concurrency asks for.
 */
const widthOf = (def: ApiDefinition, target: Target, options: RunnerOptions) =>
  Math.max(
    1,
    Math.min(options.concurrency ?? (target.embedded ? 1 : DEPLOYMENT_CONCURRENCY), def.maxConcurrency ?? Number.POSITIVE_INFINITY),
  );

const transportFor = (def: ApiDefinition, target: Target, options: RunnerOptions, width: number) =>
  createTransport({
    maxInFlight: width,
    timeoutMs: options.timeoutMs,
    maxBodyBytes: options.maxBodyBytes,
    tlsInsecure: target.tlsInsecure,
    rateLimit: options.rateLimit,
    maxWrites: options.maxWrites,
    documentedRefusal: def.documentedRefusal,
    tlsInsecureVariable: tlsInsecureVariable(def.options),
    proxy: target.proxy,
  });

type Done = Map<Check, { run: CheckRun; ms: number }>;

/** Runs the selected checks side by side, up to `width` at once, each reported as it starts and as it ends. */
async function runSelected(
  def: ApiDefinition,
  options: RunnerOptions,
  selected: Check[],
  how: {
    width: number;
    attempt: (check: Check) => Promise<CheckRun>;
    lost: ReturnType<typeof createLostTarget>;
    levelOf: ReturnType<typeof levelsOf>;
  },
): Promise<Done> {
  const { lost, levelOf } = how;
  const done: Done = new Map();
  let index = 0;
  const runOne = async (check: Check) => {
    const t0 = performance.now();
    options.progress?.({ type: 'check-start', api: def.id, check: check.id });
    const run = options.signal?.aborted
      ? notRun(check, 'skipped', INTERRUPTED_REASON, 'interrupted')
      : lost.at
        ? lost.skip(check)
        : await lost.after(check, await how.attempt(check));
    const ms = performance.now() - t0;
    done.set(check, { run, ms });
    options.progress?.({
      type: 'check-end',
      api: def.id,
      check: check.id,
      index: ++index,
      total: selected.length,
      failed: run.records.filter((r) => r.outcome === 'fail' && levelOf.get(r.requirement) === 'MUST').length,
      warned: run.records.filter((r) => r.outcome === 'fail' && levelOf.get(r.requirement) === 'SHOULD').length,
      outcome: run.outcome,
      ms,
    });
  };
  await schedule(selected, how.width, runOne, costFrom(def.durations ?? {}));
  return done;
}

/** What the checks of an API add up to: their records and observations, one row per check, and the cleanup totals. */
interface Tally {
  results: Results;
  observations: Observation[];
  checkRuns: ApiRun['checks'];
  totals: { created: number; removed: number; failed: string[] };
}

const emptyTally = (): Tally => ({
  results: createResults(),
  observations: [],
  checkRuns: [],
  totals: { created: 0, removed: 0, failed: [] as string[] },
});

/** Adds every check of the API to the tally, in the registry's order; one that did not run is filtered out, with why. */
function tallyRuns(def: ApiDefinition, options: RunnerOptions, done: Done, tally: Tally): void {
  const { results, observations, checkRuns, totals } = tally;
  for (const check of def.checks) {
    const entry = done.get(check);
    if (!entry) {
      const why = !matchesOnly(check, options.only)
        ? 'not selected by --only'
        : `run in another shard than ${options.shard?.index}/${options.shard?.count}`;
      for (const r of notRun(check, 'skipped', why, 'not-selected').records) results.record(r);
      checkRuns.push({
        id: check.id,
        title: check.title,
        requirements: check.requirements,
        destructive: !!check.destructive,
        outcome: 'filtered',
        attempts: 0,
        ms: 0,
        requests: 0,
      });
      continue;
    }
    const { run, ms } = entry;
    for (const r of run.records) results.record(r);
    observations.push(...run.observations);
    totals.created += run.cleanup.created;
    totals.removed += run.cleanup.removed;
    totals.failed.push(...run.cleanup.failed);
    checkRuns.push({
      id: check.id,
      title: check.title,
      requirements: check.requirements,
      destructive: !!check.destructive,
      outcome: run.outcome,
      attempts: run.attempts,
      ms,
      requests: run.requests,
      ...(run.sequence ? { sequence: run.sequence } : {}),
    });
  }
}

/** The verdict on every requirement of the catalogue; a record against one the catalogue lacks is the tool's error. */
function requirementResults(
  def: ApiDefinition,
  catalogue: Catalogue,
  tally: Tally,
  credentialHints: RunnerOptions['credentialHints'],
): RequirementResult[] {
  const { results, observations } = tally;
  const levelOf = levelsOf(def.catalogueFile);
  const records = results.records();
  const requirements = attachCredentialHints(
    catalogue.requirements.map((req) =>
      requirementResult(
        req,
        records.filter((r) => r.requirement === req.id),
        results.passCount(req.id),
        observations.filter((o) => o.requirement === req.id),
        results.reached(req.id),
      ),
    ),
    def.checks,
    credentialHints,
  );
  const unknown = records.filter((r) => !levelOf.has(r.requirement));
  if (unknown.length)
    throw new Error(
      `records against requirements missing from the catalogue: ${[...new Set(unknown.map((r) => r.requirement))].join(', ')}`,
    );
  return requirements;
}

/** Any HTTP answer means the target is there; no answer at all is a usage error (exit 2), not a failed run. */
async function probe(target: Target, transport: Transport): Promise<void> {
  try {
    await transport.send({ method: 'GET', url: target.baseUrl, headers: {} });
  } catch (e) {
    throw new UsageError(unreachableLine(target, e as Error));
  }
}
