import type { Status } from '../types';
import { countOf, summarize, type ComplianceReport } from './model';

const RANK: Record<Status, number> = { failed: 3, passed: 2, untested: 1, skipped: 0 };

/** One report from the reports of the shards of a run: a requirement takes the strongest status any shard found. */
export function mergeReports(parts: ComplianceReport[]): ComplianceReport {
  if (!parts.length) throw new Error('nothing to merge');
  const byId = new Map<string, ComplianceReport['requirements'][number]>();
  for (const part of parts) {
    for (const q of part.requirements) {
      const key = `${q.api}\u0000${q.id}`;
      const seen = byId.get(key);
      if (!seen) {
        byId.set(key, structuredClone(q));
        continue;
      }
      const winner = RANK[q.status] > RANK[seen.status] ? q : seen;
      byId.set(key, {
        ...seen,
        status: winner.status,
        reason: winner.status === 'passed' || winner.status === 'failed' ? undefined : winner.reason,
        passed: seen.passed + q.passed,
        failed: seen.failed + q.failed,
        intermittent: seen.failed + q.failed > 0 ? Boolean((seen.failed === 0 || seen.intermittent) && (q.failed === 0 || q.intermittent)) || undefined : undefined,
        evidence: winner.status === seen.status ? [...seen.evidence, ...q.evidence.filter((e) => e.outcome === (winner.status === 'failed' ? 'fail' : e.outcome))] : winner.evidence,
        observations: [...seen.observations, ...q.observations.filter((o) => !seen.observations.some((x) => x.note === o.note))],
      });
    }
  }
  const requirements = [...byId.values()];
  const apis = new Map<string, ComplianceReport['apis'][number]>();
  for (const a of parts.flatMap((p) => p.apis)) {
    const seen = apis.get(a.api);
    if (!seen) apis.set(a.api, structuredClone(a));
    else {
      seen.stats = { requests: seen.stats.requests + a.stats.requests, writes: seen.stats.writes + a.stats.writes, assertions: seen.stats.assertions + a.stats.assertions, ms: Math.max(seen.stats.ms, a.stats.ms) };
      seen.cleanup = { created: seen.cleanup.created + a.cleanup.created, removed: seen.cleanup.removed + a.cleanup.removed, failed: [...seen.cleanup.failed, ...a.cleanup.failed] };
      seen.checks = seen.checks.map((c) => (c.outcome === 'filtered' ? (a.checks.find((x) => x.id === c.id && x.outcome !== 'filtered') ?? c) : c));
    }
  }
  for (const a of apis.values()) a.summary = countOf(requirements.filter((q) => q.api === a.api));
  const first = parts[0];
  return {
    tool: first.tool,
    run: { ...first.run, durationMs: Math.max(...parts.map((p) => p.run.durationMs)), config: { ...first.run.config, mergedFrom: parts.length } },
    summary: summarize(requirements),
    apis: [...apis.values()],
    requirements,
  };
}
