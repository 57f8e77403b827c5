import type { ApiDefinition } from './api';
import { UsageError } from './api';
import type { Check, CheckContext, RunOptions } from './check';
import { loadCatalogue } from './catalogue';
import { createClient } from './client';
import { evidenceOf } from './evidence';
import { inspectExchange } from './inspect';
import { createLedger } from './ledger';
import { startPrism } from './prism';
import { matchesOnly } from './registry';
import { createResults } from './results';
import { loadSpec, type Spec } from './spec';
import { requirementResult, type RequirementResult } from './status';
import { schedule } from './schedule';
import { createTransport, TransportError } from './transport';
import { ToolError } from './tool-error';
import type { AssertionRecord, Exchange, Observation, Target } from './types';

export interface RunnerOptions extends Omit<RunOptions, 'allowDestructive'> {
  /** Whether destructive checks may run; unset: only against a target on this machine. */
  allowDestructive?: boolean;
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
  signal?: AbortSignal;
  env?: NodeJS.ProcessEnv;
  /** Checks of one API run at once (never more than the API allows). */
  concurrency?: number;
  /** Route every request through `prism proxy` and compare its findings with the suite's own. */
  viaPrismProxy?: boolean;
  /** Run only every n-th check (1-based index of n), for spreading a run over CI machines. */
  shard?: { index: number; count: number };
}

const inShard = (i: number, shard: RunnerOptions['shard']) => !shard || i % shard.count === shard.index - 1;

export type ProgressEvent =
  | { type: 'api-start'; api: string; baseUrl: string; embedded: boolean; checks: number; /** Requests sent so far (live, for progress displays). */ requests: () => number }
  | { type: 'check-start'; api: string; check: string }
  | { type: 'check-end'; api: string; check: string; index: number; total: number; failed: number; outcome: CheckOutcome; ms: number };

type CheckOutcome = 'ran' | 'skipped' | 'untested' | 'aborted' | 'filtered';

export interface ApiRun {
  api: string;
  title: string;
  target: { baseUrl: string; embedded: boolean };
  /** Whether destructive checks were allowed for this API (always for the embedded implementation). */
  allowDestructive: boolean;
  requirements: RequirementResult[];
  /** Per check: outcome, attempts, time and requests sent (every attempt, cleanup included). */
  checks: { id: string; title: string; requirements: string[]; destructive: boolean; outcome: CheckOutcome; attempts: number; ms: number; requests: number }[];
  stats: { requests: number; writes: number; assertions: number; ms: number };
  cleanup: { created: number; removed: number; failed: string[] };
  exchanges?: Exchange[];
  secrets: string[];
  /** Present in --via-prism-proxy runs: where Prism and the suite's validator disagree about an answer. */
  crossCheck?: CrossCheck;
}

interface CrossCheck {
  exchanges: number;
  agreed: number;
  prismOnly: { request: string; status: number; prism: string[] }[];
  suiteOnly: { request: string; status: number; suite: string[] }[];
}

/** The run's tag plus the check's place in its API: fixed width, so no check's tag is a prefix of another's. */
const checkTag = (runTag: string, index: number) => `${runTag}c${String(index).padStart(3, '0')}`;

const specCache = new Map<string, Spec>();
export const specOf = (file: string) => {
  let s = specCache.get(file);
  if (!s) specCache.set(file, (s = loadSpec(file)));
  return s;
};

/** A target on the loopback interface: a server on this machine. */
export function onThisMachine(baseUrl: string): boolean {
  const host = new URL(baseUrl).hostname.replace(/^\[|\]$/g, '');
  return host === 'localhost' || host === '::1' || /^127(\.\d{1,3}){3}$/.test(host);
}

/** Checks in flight against a deployment unless --concurrency says otherwise. */
export const DEPLOYMENT_CONCURRENCY = 8;

/** After this many checks in a row lose their target, the rest are failed without sending anything. */
const DEAD_TARGET_AFTER = 3;

export async function runApi(def: ApiDefinition, options: RunnerOptions): Promise<ApiRun> {
  const started = performance.now();
  const spec = specOf(def.specFile);
  const catalogue = loadCatalogue(def.catalogueFile);
  const upstream = options.target ?? def.targetFromEnv(options.env ?? process.env) ?? (await def.startEmbedded());
  const prism = options.viaPrismProxy ? await startPrism('proxy', def.specFile, { upstream: upstream.baseUrl, insecure: upstream.tlsInsecure }) : undefined;
  // Prism refuses malformed request bodies itself, so those go straight to the target.
  const target: Target = prism ? { ...upstream, baseUrl: prism.url, directUrl: upstream.baseUrl, close: upstream.close } : upstream;
  const crossCheck: CrossCheck | undefined = prism ? { exchanges: 0, agreed: 0, prismOnly: [], suiteOnly: [] } : undefined;
  // The embedded implementation holds only the run's own data, so nothing there is off limits.
  // Unless told, destructive checks run where the target is on this machine: an implementation started for the
  // run, the usual CI gate. Anywhere else they need --allow-destructive; CONFORMANCE_ALLOW_DESTRUCTIVE=0 protects a
  // local one (a port-forwarded production, say). The embedded implementation holds only the run's own data.
  options = { ...options, allowDestructive: target.embedded || (options.allowDestructive ?? onThisMachine(upstream.baseUrl)) };
  const transport = createTransport({ timeoutMs: options.timeoutMs, maxBodyBytes: options.maxBodyBytes, tlsInsecure: target.tlsInsecure, rateLimit: options.rateLimit, maxWrites: options.maxWrites, documentedRefusal: def.documentedRefusal });
  const exchanges: Exchange[] | undefined = options.har ? [] : undefined;
  const results = createResults();
  const observations: Observation[] = [];
  const checkRuns: ApiRun['checks'] = [];
  const totals = { created: 0, removed: 0, failed: [] as string[] };
  try {
    await probe(target, transport);
    const selected = def.checks.filter((c, i) => matchesOnly(c, options.only) && inShard(i, options.shard));
    options.progress?.({ type: 'api-start', api: def.id, baseUrl: target.baseUrl, embedded: target.embedded, checks: selected.length, requests: () => transport.stats.requests });
    const done = new Map<Check, { run: CheckRun; ms: number }>();
    let lostInARow = 0;
    let index = 0;
    const runOne = async (check: Check) => {
      const t0 = performance.now();
      options.progress?.({ type: 'check-start', api: def.id, check: check.id });
      const run = options.signal?.aborted
        ? notRun(check, 'skipped', 'run interrupted before this check started')
        : lostInARow >= DEAD_TARGET_AFTER
          ? notRun(check, 'fail', `not run: the target stopped answering (${DEAD_TARGET_AFTER} checks in a row lost their connection)`)
          : await runCheck(def, check, { spec, target, transport, options: { ...options, runTag: checkTag(options.runTag, def.checks.indexOf(check)) }, exchanges, crossCheck });
      lostInARow = run.lostTarget ? lostInARow + 1 : 0;
      const ms = performance.now() - t0;
      done.set(check, { run, ms });
      options.progress?.({ type: 'check-end', api: def.id, check: check.id, index: ++index, total: selected.length, failed: run.records.filter((r) => r.outcome === 'fail').length, outcome: run.outcome, ms });
    };
    // A deployment answers over a network: checks in flight hide its latency. The embedded one answers in-process.
    const width = Math.max(1, Math.min(options.concurrency ?? (target.embedded ? 1 : DEPLOYMENT_CONCURRENCY), def.maxConcurrency ?? Number.POSITIVE_INFINITY));
    await schedule(selected, width, runOne);
    for (const check of def.checks) {
      const entry = done.get(check);
      if (!entry) {
        const why = !matchesOnly(check, options.only) ? 'not selected by --only' : `run in another shard than ${options.shard?.index}/${options.shard?.count}`;
        for (const r of notRun(check, 'skipped', why).records) results.record(r);
        checkRuns.push({ id: check.id, title: check.title, requirements: check.requirements, destructive: !!check.destructive, outcome: 'filtered', attempts: 0, ms: 0, requests: 0 });
        continue;
      }
      const { run, ms } = entry;
      for (const r of run.records) results.record(r);
      observations.push(...run.observations);
      totals.created += run.cleanup.created;
      totals.removed += run.cleanup.removed;
      totals.failed.push(...run.cleanup.failed);
      checkRuns.push({ id: check.id, title: check.title, requirements: check.requirements, destructive: !!check.destructive, outcome: run.outcome, attempts: run.attempts, ms, requests: run.requests });
    }
  } finally {
    transport.close();
    await prism?.stop();
    if (target.embedded) await target.close?.();
  }
  const records = results.records();
  const requirements = catalogue.requirements.map((req) =>
    requirementResult(req, records.filter((r) => r.requirement === req.id), results.passCount(req.id), observations.filter((o) => o.requirement === req.id)),
  );
  const unknown = records.filter((r) => !catalogue.requirements.some((q) => q.id === r.requirement));
  if (unknown.length) throw new Error(`records against requirements missing from the catalogue: ${[...new Set(unknown.map((r) => r.requirement))].join(', ')}`);
  return {
    api: def.id,
    title: def.title,
    target: { baseUrl: target.baseUrl, embedded: target.embedded },
    allowDestructive: options.allowDestructive ?? false,
    requirements,
    checks: checkRuns,
    stats: { ...transport.stats, assertions: results.assertions(), ms: performance.now() - started },
    cleanup: totals,
    exchanges,
    crossCheck,
    secrets: Object.values(target.principals).flatMap((p) => p.secrets),
  };
}

/** Any HTTP answer means the target is there; no answer at all is a usage error (exit 2), not a failed run. */
async function probe(target: Target, transport: ReturnType<typeof createTransport>): Promise<void> {
  try {
    await transport.send({ method: 'GET', url: target.baseUrl, headers: {} });
  } catch (e) {
    throw new UsageError(`target ${target.baseUrl} is unreachable: ${(e as Error).message}`);
  }
}

const MAX_DISAGREEMENTS = 50;

/** Prism reports response violations in the `sl-violations` header; the two validators should agree on each answer. */
function compareWithPrism(cc: CrossCheck, ex: Exchange, suite: string[]): void {
  let prism: string[] = [];
  try {
    const all = JSON.parse(ex.headers['sl-violations'] ?? '[]') as { location?: string[]; message?: string }[];
    prism = all.filter((v) => v.location?.[0] === 'response').map((v) => `${(v.location ?? []).join('.')}: ${v.message ?? ''}`);
  } catch {
    prism = [`unreadable sl-violations header: ${ex.headers['sl-violations']}`];
  }
  cc.exchanges++;
  const request = `${ex.request.method} ${new URL(ex.request.url).pathname}`;
  if (Boolean(prism.length) === Boolean(suite.length)) cc.agreed++;
  else if (prism.length && cc.prismOnly.length < MAX_DISAGREEMENTS) cc.prismOnly.push({ request, status: ex.status, prism });
  else if (suite.length && cc.suiteOnly.length < MAX_DISAGREEMENTS) cc.suiteOnly.push({ request, status: ex.status, suite });
}

interface CheckRun {
  records: AssertionRecord[];
  observations: Observation[];
  outcome: ApiRun['checks'][number]['outcome'];
  attempts: number;
  lostTarget: boolean;
  cleanup: { created: number; removed: number; failed: string[] };
  requests: number;
}

function notRun(check: Check, outcome: 'skipped' | 'untested' | 'fail', message: string): CheckRun {
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

interface Env {
  spec: Spec;
  target: Target;
  transport: ReturnType<typeof createTransport>;
  options: RunnerOptions;
  exchanges?: Exchange[];
  crossCheck?: CrossCheck;
}

async function runCheck(def: ApiDefinition, check: Check, env: Env): Promise<CheckRun> {
  const missing = (check.needs ?? []).filter((role) => !env.target.principals[role]);
  if (missing.length) {
    const hint = missing.map((r) => def.roleHints[r] ?? r).join(', ');
    return notRun(check, 'untested', `needs credentials that were not given (${hint})`);
  }
  if (check.destructive && !env.options.allowDestructive) {
    return notRun(check, 'skipped', 'destructive check: can change data the run did not create; allow with CONFORMANCE_ALLOW_DESTRUCTIVE=1 or --allow-destructive');
  }
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
    const failed = run.records.some((r) => r.outcome === 'fail');
    if (!failed) {
      if (run !== first) for (const r of first.records) if (r.outcome === 'fail') r.intermittent = true;
      break;
    }
    first.attempts = attempt;
    if (run.lostTarget) break;
  }
  return first!;
}

async function attemptCheck(def: ApiDefinition, check: Check, env: Env): Promise<CheckRun> {
  const records: AssertionRecord[] = [];
  const observations: Observation[] = [];
  const ledger = createLedger();
  const principalOf = (ex?: Exchange) => (ex?.principal ? env.target.principals[ex.principal] : undefined);
  let requests = 0;
  const client = createClient(env.target, env.spec, env.transport, (ex) => {
    requests++;
    ex.check = check.id;
    env.exchanges?.push(ex);
    const first = records.length;
    inspectExchange(env.spec, ex, (requirement, ok, message, e, details) =>
      records.push({
        requirement,
        check: def.responseCheckId,
        outcome: ok ? 'pass' : 'fail',
        message: ok ? message : `${message} (seen while running ${check.id})`,
        evidence: ok ? undefined : evidenceOf(e, principalOf(e), details),
      }),
    );
    if (env.crossCheck && ex.operationId && !ex.pathRewritten) compareWithPrism(env.crossCheck, ex, records.slice(first).filter((r) => r.outcome === 'fail').map((r) => r.message));
  });
  const own = (requirement: string) => {
    if (!check.requirements.includes(requirement)) throw new ToolError(`check ${check.id} records against ${requirement}, which it does not declare`);
  };
  const ctx: CheckContext = {
    checkId: check.id,
    target: env.target,
    options: { ...env.options, allowDestructive: env.options.allowDestructive ?? false },
    http: client,
    ledger,
    assert(requirement, ok, message, ex, details) {
      own(requirement);
      records.push({ requirement, check: check.id, outcome: ok ? 'pass' : 'fail', message, evidence: ok ? undefined : evidenceOf(ex, principalOf(ex), details) });
      return ok;
    },
    untested(requirement, reason, ex) {
      own(requirement);
      records.push({ requirement, check: check.id, outcome: 'untested', message: reason, evidence: ex ? evidenceOf(ex, principalOf(ex)) : undefined });
    },
    observe(requirement, note) {
      own(requirement);
      observations.push({ requirement, check: check.id, note });
    },
    has: (role) => Boolean(env.target.principals[role]),
  };
  let lostTarget = false;
  let outcome: CheckRun['outcome'] = 'ran';
  let cleanup = { removed: 0, failed: [] as string[] };
  try {
    await check.run(ctx);
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
        outcome: outcome_,
        message: capped ? `not run: ${err.message}` : transport ? `check aborted: ${err.message}` : `tool error in ${check.id}: ${err.name}: ${err.message}`,
      });
    }
  } finally {
    cleanup = await env.transport.exempt(() => ledger.cleanup());
  }
  return { records, observations, outcome, attempts: 1, lostTarget, cleanup: { created: ledger.created, removed: ledger.removed, failed: cleanup.failed }, requests };
}
