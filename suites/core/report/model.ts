import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { ApiRun } from '../runner';
import { documentsOf, type DocumentRef } from './provenance';
import type { RequirementResult } from '../status';
import type { Level, Status } from '../types';

export interface Counts {
  total: number;
  passed: number;
  failed: number;
  skipped: number;
  untested: number;
  /** Requirements the tool could not judge because a check itself failed. */
  error: number;
}

export interface ComplianceReport {
  /** The suite: `commit` is its git commit ("unknown" outside a checkout; absent in reports of earlier versions). */
  tool: { name: string; version: string; commit?: string };
  run: {
    startedAt: string;
    durationMs: number;
    seed: number;
    runs: number;
    retries: number;
    /** As given (unset in reports of earlier versions); the embedded implementation always runs them (apis[].allowDestructive). */
    allowDestructive?: boolean;
    only?: string[];
    runTag: string;
    node: string;
    config: Record<string, unknown>;
    /** Set when the run was interrupted (SIGINT, SIGTERM): the checks that had not started were not run. */
    interrupted?: boolean;
    /** --require-all: a MUST requirement left unchecked for want of input fails the gate. */
    requireAll?: boolean;
    /** The deployment and its version, as the user named them (--label). */
    label?: string;
  };
  summary: Counts & {
    byLevel: Record<Level, Counts>;
    /**
     * pass when every MUST requirement that ran passed (and, with --require-all, none is unverified); incomplete when
     * the run was interrupted, whatever it found.
     */
    gate: 'pass' | 'fail' | 'incomplete';
    /**
     * Why the gate is incomplete when the run was not interrupted (a merge that lacks a shard, a target that stopped
     * answering): the headline every report leads with. Absent for an interrupted run (exit 130) and in earlier reports.
     */
    incomplete?: string;
    /** Set when the run judged only part of the requirements (--only, one shard, a vitest selection): what it covered. */
    partial?: string;
    /**
     * MUST requirements untested or skipped for want of a credential, flag or longer wait (each names it: enabledBy);
     * absent in reports of earlier versions.
     */
    unverified?: number;
    /** SHOULD requirements that failed: reported, not gating. */
    warnings: number;
    intermittent: number;
  };
  apis: {
    api: string;
    title: string;
    target: { baseUrl: string; embedded: boolean };
    allowDestructive: boolean;
    specSha256: string;
    /** Every file the run judged against, by name and full sha256 (absent in reports of earlier versions). */
    documents?: DocumentRef[];
    /** Who the run acted as, by role: names only, never a secret (absent in reports of earlier versions). */
    users?: ApiRun['users'];
    summary: Counts;
    stats: ApiRun['stats'];
    cleanup: ApiRun['cleanup'];
    checks: ApiRun['checks'];
    crossCheck?: ApiRun['crossCheck'];
  }[];
  requirements: (RequirementResult & { api: string })[];
}

export function countOf(reqs: { status: Status }[]): Counts {
  const c: Counts = { total: reqs.length, passed: 0, failed: 0, skipped: 0, untested: 0, error: 0 };
  for (const r of reqs) c[r.status]++;
  return c;
}

const sha256 = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');

/** What the gate depends on besides the requirement results. */
export interface GateOptions {
  /** The run was interrupted: the gate is incomplete. */
  interrupted?: boolean;
  /** Why the run is incomplete though it was not interrupted (exit 2): the gate is incomplete. */
  incomplete?: string;
  /** What part of the requirements the run judged, when not all (--only, --shard). */
  partial?: string;
  /** A MUST requirement left unchecked for want of input fails the gate. */
  requireAll?: boolean;
}

type Judged = { level: Level; status: Status; intermittent?: boolean; enabledBy?: string };

/** A MUST requirement the run could have checked with more input: a credential, a flag, a longer wait. */
const unverifiedMust = (q: Judged) => q.level === 'MUST' && (q.status === 'untested' || q.status === 'skipped') && Boolean(q.enabledBy);

/** The headline numbers, from requirement results and how the run went (so merged reports are summarised the same way). */
export function summarize(requirements: Judged[], o: GateOptions = {}): ComplianceReport['summary'] {
  const levels: Level[] = ['MUST', 'SHOULD', 'unspecified'];
  const byLevel = Object.fromEntries(levels.map((l) => [l, countOf(requirements.filter((r) => r.level === l))])) as Record<Level, Counts>;
  const unverified = requirements.filter(unverifiedMust).length;
  return {
    ...countOf(requirements),
    byLevel,
    gate: o.interrupted || o.incomplete ? 'incomplete' : byLevel.MUST.failed > 0 || (o.requireAll && unverified > 0) ? 'fail' : 'pass',
    ...(o.incomplete && !o.interrupted ? { incomplete: o.incomplete } : {}),
    ...(o.partial ? { partial: o.partial } : {}),
    unverified,
    warnings: byLevel.SHOULD.failed,
    intermittent: requirements.filter((r) => r.intermittent).length,
  };
}

type Shard = { index: number; count: number } | undefined;

/**
 * What part of the checks a run selected, when not all: a filtered run or one shard can pass only what it ran, and
 * its first page must not read like a whole run's. Undefined for a whole run.
 */
export function partialOf(checks: { outcome: string }[], only: string[] | undefined, shard: Shard): string | undefined {
  if (!only?.length && !shard) return undefined;
  const list = only && (only.length > 3 ? `${only.slice(0, 3).join(', ')} and ${only.length - 3} more` : only.join(', '));
  const by = [list && `only ${list}`, shard && `shard ${shard.index}/${shard.count}`].filter(Boolean).join('; ');
  const ran = checks.filter((c) => c.outcome !== 'filtered').length;
  return `${ran} of ${checks.length} checks selected (${by}); the others were not run`;
}

/** The headline of a run whose target went away, per API (see lost-target.ts). */
const lostText = (runs: ApiRun[]) =>
  runs
    .filter((r) => r.lostTarget)
    .map((r) => `The ${r.api} target stopped answering at ${r.lostTarget!.at}; ${r.lostTarget!.notRun} requirements not run.`)
    .join(' ') || undefined;

export function buildReport(
  runs: (ApiRun & { specFile: string; catalogueFile?: string })[],
  meta: Omit<ComplianceReport['run'], 'durationMs'> & { durationMs: number },
  tool: ComplianceReport['tool'],
): ComplianceReport {
  const requirements = runs.flatMap((r) => r.requirements.map((q) => ({ api: r.api, ...q })));
  return {
    tool,
    run: meta,
    summary: summarize(requirements, {
      interrupted: meta.interrupted,
      requireAll: meta.requireAll,
      incomplete: lostText(runs),
      partial: partialOf(
        runs.flatMap((r) => r.checks),
        meta.only,
        meta.config.shard as Shard,
      ),
    }),
    apis: runs.map((r) => ({
      api: r.api,
      title: r.title,
      target: r.target,
      allowDestructive: r.allowDestructive,
      specSha256: sha256(r.specFile),
      ...(r.catalogueFile ? { documents: documentsOf(r.specFile, r.catalogueFile) } : {}),
      users: r.users,
      summary: countOf(r.requirements),
      stats: r.stats,
      cleanup: r.cleanup,
      checks: r.checks,
      ...(r.crossCheck ? { crossCheck: r.crossCheck } : {}),
    })),
    requirements,
  };
}
