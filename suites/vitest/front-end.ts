/*
 * The conformance run as a vitest project: the same registry (`APIS`) and session (`openSession`, `runSession`: the
 * settings, set-up checks and targets, then the runner, ledger, cleanup and reports) as `npm run conformance`, seen
 * through vitest. Nothing here decides a verdict: every test asserts what the run recorded for its check, so a test
 * fails exactly when the report shows a failure of that check.
 */
import type { ApiDefinition } from '../core/api';
import type { Check } from '../core/check';
import type { ConformanceResult } from '../core/conformance';
import { factLines } from '../core/expect';
import { createMasker } from '../core/mask';
import { matchesOnly } from '../core/registry';
import type { ApiRun } from '../core/runner';
import { runSession, type Session } from '../core/session';
import type { Settings } from '../core/settings';
import type { RequirementResult } from '../core/status';
import type { AssertionRecord, Level, Status } from '../core/types';
import { summaryText } from '../cli/summary';
// The augmentation below needs vitest's declarations in the program whichever file reaches this one first.
import type {} from 'vitest';

/** What every conformance test carries in `task.meta` (reporters read it with `testCase.meta()`). */
interface ConformanceMeta {
  api: string;
  check: string;
  title: string;
  requirements: string[];
  /** Level of each requirement, from the catalogue. */
  levels: Record<string, Level>;
  destructive: boolean;
  /** Set when the test ran: the status of each requirement in the run's report. */
  status?: Record<string, Status>;
}

declare module 'vitest' {
  interface TaskMeta {
    conformance?: ConformanceMeta;
  }
}

/** The describe a check goes in: the second part of its id (`stacks.create.accepted-202` is in `create`). */
const groupOf = (check: Check) => check.id.split('.')[1] ?? check.id;

/** Checks of an API by group, in registry order. */
export function groupsOf(api: ApiDefinition): [string, Check[]][] {
  const groups = new Map<string, Check[]>();
  for (const c of api.checks) {
    const g = groupOf(c);
    if (!groups.has(g)) groups.set(g, []);
    groups.get(g)!.push(c);
  }
  return [...groups];
}

/** The test name: the check id and its requirement ids, so `-t` selects by either. */
export const testName = (check: Check) => `${check.id} [${check.requirements.join(', ')}]`;

/** Minimal view of a vitest task tree (the suite `beforeAll` receives), to read which tests are selected. */
export interface TaskLike {
  type: string;
  mode: string;
  meta?: { conformance?: { check: string } };
  tasks?: TaskLike[];
}

/**
 * The checks whose tests vitest will run, after `-t`, `.only`, tags, line numbers and test ids have been applied to
 * the collected tree; `undefined` when every conformance test is selected (then the run selects as usual).
 */
export function selectedChecks(root: TaskLike): string[] | undefined {
  const all: string[] = [];
  const chosen: string[] = [];
  const walk = (t: TaskLike) => {
    if (t.type === 'test' && t.meta?.conformance) {
      all.push(t.meta.conformance.check);
      if (t.mode === 'run' || t.mode === 'queued') chosen.push(t.meta.conformance.check);
    }
    t.tasks?.forEach(walk);
  };
  walk(root);
  return chosen.length === all.length ? undefined : chosen;
}

/** What the selection and the session's own `only` (CONFORMANCE_ONLY) leave to run. */
export function planRun(session: Session, selected: string[] | undefined): { apis: ApiDefinition[]; only: string[] | undefined } {
  if (!selected) return { apis: session.apis, only: session.settings.only };
  const checks = session.apis.flatMap((a) =>
    a.checks.filter((c) => selected.includes(c.id) && matchesOnly(c, session.settings.only)).map((c) => [a, c] as const),
  );
  return { apis: session.apis.filter((a) => checks.some(([api]) => api === a)), only: checks.map(([, c]) => c.id) };
}

export interface SessionRun {
  result?: ConformanceResult;
  /** Masks every credential of the run in a text. */
  mask: (text: string) => string;
  /** The run's summary as `npm run conformance` prints it, credentials masked. */
  summary: string;
}

/** One conformance run over the selected checks of every selected API: the reports are written as usual. */
export async function runSelection(session: Session, selected: string[] | undefined): Promise<SessionRun> {
  const plan = planRun(session, selected);
  if (!plan.apis.length) return { mask: (t) => t, summary: 'no conformance check selected: nothing was sent and no report written\n' };
  const settings: Settings = { ...session.settings, apis: plan.apis.map((a) => a.id), only: plan.only };
  const result = await runSession({ ...session, settings, apis: plan.apis });
  const mask = createMasker(result.runs.flatMap((r) => r.secrets));
  return { result, mask, summary: mask(summaryText(result.report, result.files)) };
}

// ---------------------------------------------------------------------------------------------------------------
// One check's verdict, from the run's results

export interface Verdict {
  /** `failed`: a MUST requirement failed or the check failed as a tool; `skipped`: nothing of it was judged. */
  state: 'passed' | 'failed' | 'skipped';
  /** The failure message with its evidence (curl reproducer, request, response excerpt), credentials masked. */
  message?: string;
  /** SHOULD (or weaker) failures: reported, never failing the test. */
  warnings: string[];
  /** Requirements of the check left untested or skipped, and behaviour observed where the document is silent. */
  notes: { type: 'untested' | 'skipped' | 'observed'; message: string }[];
  skipReason?: string;
  status: Record<string, Status>;
}

const indent = (text: string, by: string) =>
  text
    .split('\n')
    .map((l) => `${by}${l}`)
    .join('\n');

function describeRecord(r: AssertionRecord, level: Level): string {
  const lines = [
    `${r.requirement} [${level}] ${r.outcome === 'error' ? 'tool error' : 'failed'}${r.intermittent ? ' (intermittent: passed when run again)' : ''}: ${r.message}`,
  ];
  lines.push(...factLines(r).map((l) => `  ${l}`));
  const e = r.evidence;
  if (e?.curl) lines.push(indent(`reproduce: ${e.curl}`, '  '));
  if (e?.request) lines.push(indent(`request:\n${indent(e.request, '  ')}`, '  '));
  if (e?.response) lines.push(indent(`response:\n${indent(e.response, '  ')}`, '  '));
  if (e?.details !== undefined) {
    const d = typeof e.details === 'string' ? e.details : JSON.stringify(e.details, null, 1);
    lines.push(indent(`details: ${d.length > 1500 ? `${d.slice(0, 1500)}… (${d.length} chars)` : d}`, '  '));
  }
  return lines.join('\n');
}

/** The verdict of one check from the run of its API: its own records in the requirement results the report holds. */
export function verdictOf(
  run: ApiRun,
  check: Check,
  o: { mask?: (t: string) => string; settings?: Pick<Settings, 'only' | 'shard'>; responseCheckId?: string } = {},
): Verdict {
  const mask = o.mask ?? ((t: string) => t);
  const entry = run.checks.find((c) => c.id === check.id);
  const results = new Map(run.requirements.map((r) => [r.id, r] as const));
  // Answers are validated against the spec whatever check sends them, and the failures recorded under the response
  // check. When that check's test is not selected (`-t`), they count against the check that sent the request.
  const responsesDeselected = o.responseCheckId !== undefined && run.checks.find((c) => c.id === o.responseCheckId)?.outcome === 'filtered';
  const seenHere = (e: AssertionRecord) => responsesDeselected && e.check === o.responseCheckId && e.seenIn === check.id;
  const own = (r: RequirementResult) => r.evidence.filter((e) => e.check === check.id || seenHere(e));
  const status: Record<string, Status> = {};
  const failures: string[] = [];
  const warnings: string[] = [];
  const notes: Verdict['notes'] = [];
  let judged = false;
  const judge = (e: AssertionRecord, level: Level) => {
    if (e.outcome === 'error' || (e.outcome === 'fail' && level === 'MUST')) failures.push(describeRecord(e, level));
    else if (e.outcome === 'fail') warnings.push(mask(describeRecord(e, level)));
  };
  for (const id of check.requirements) {
    const r = results.get(id);
    if (!r) continue;
    status[id] = r.status;
    for (const e of own(r)) judge(e, r.level);
    const observed = [...new Set(r.observations.filter((o) => o.check === check.id).map((o) => o.note))];
    for (const note of observed) notes.push({ type: 'observed', message: mask(`${id}: ${note}`) });
    if (r.status === 'passed' || r.status === 'failed' || r.status === 'error' || observed.length) judged = true;
    else if (r.status === 'skipped' || r.status === 'untested')
      notes.push({ type: r.status, message: mask(`${id} ${r.status}: ${r.reason ?? ''}`) });
  }
  if (responsesDeselected)
    for (const r of run.requirements)
      if (!check.requirements.includes(r.id)) for (const e of r.evidence.filter(seenHere)) judge(e, r.level);
  const hints = [...new Set(check.requirements.flatMap((id) => results.get(id)?.hint ?? []))];
  if (failures.length) failures.push(...hints.map((h) => `hint: ${h}`));
  if (failures.length) {
    const head = `${check.id}: ${check.title}`;
    return { state: 'failed', message: mask(`${head}\n\n${failures.join('\n\n')}`), warnings, notes, status };
  }
  if (!entry || entry.outcome === 'filtered' || entry.outcome === 'skipped' || entry.outcome === 'untested' || !judged) {
    const why = entry?.outcome === 'filtered' ? filteredReason(check, o.settings) : notes.map((n) => n.message).join('; ');
    return { state: 'skipped', skipReason: why || 'nothing of this check was judged', warnings, notes, status };
  }
  return { state: 'passed', warnings, notes, status };
}

function filteredReason(check: Check, s: Pick<Settings, 'only' | 'shard'> | undefined): string {
  if (s && !matchesOnly(check, s.only)) return `not selected by CONFORMANCE_ONLY (${s.only?.join(',')})`;
  if (s?.shard) return `run in another shard than ${s.shard.index}/${s.shard.count} (CONFORMANCE_SHARD)`;
  return 'not selected';
}

/** The run of an API in a session run, or why there is none. */
export function runOf(run: SessionRun, api: string): ApiRun | undefined {
  return run.result?.runs.find((r) => r.api === api);
}

/** The error a failed check's test throws: its message is the evidence; a stack into the test file would hide it. */
export function conformanceFailure(message = 'the check failed'): Error {
  const err = new Error(message);
  err.name = 'ConformanceFailure';
  err.stack = `${err.name}: ${err.message}`;
  return err;
}
