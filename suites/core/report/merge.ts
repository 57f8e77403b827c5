import { UsageError } from '../usage-error';
import type { Status } from '../types';
import { countOf, partialOf, summarize, type ComplianceReport } from './model';

// As in one run (suites/core/status.ts): a failure anywhere outranks a check that broke elsewhere, so a gate merged
// from a failing shard and an erring one fails (exit 1) instead of passing with a tool error.
const RANK: Record<Status, number> = { failed: 4, error: 3, passed: 2, untested: 1, skipped: 0 };

type Shard = { index: number; count: number } | undefined;
const shardOf = (r: ComplianceReport) => r.run.config?.shard as Shard;
const shardText = (s: Shard) => (s ? `shard ${s.index}/${s.count}` : 'a whole run (no --shard)');

/**
 * Refuses parts that are not the shards of one run: different seeds (the shards would have generated different
 * cases), different versions of the suite or of an API's spec (their requirements differ), the same shard of an API
 * twice (counted twice), or shards sliced by different counts.
 */
function checkMergeable(parts: ComplianceReport[], names: string[]): void {
  const versions = parts.map((p) => `${p.tool.name} ${p.tool.version}${p.tool.commit ? ` (${p.tool.commit.slice(0, 12)})` : ''}`);
  const otherVersion = versions.findIndex((v) => v !== versions[0]);
  if (otherVersion >= 0)
    throw new UsageError(
      `cannot merge: ${names[0]} was written by ${versions[0]} but ${names[otherVersion]} by ${versions[otherVersion]} (run every shard with the same suite)`,
    );
  const specs = new Map<string, { name: string; sha: string }>();
  for (const [i, part] of parts.entries()) {
    for (const a of part.apis) {
      const first = specs.get(a.api);
      if (first && first.sha !== a.specSha256)
        throw new UsageError(
          `cannot merge: ${first.name} and ${names[i]} judged the ${a.api} API against different specs (sha256 ${first.sha.slice(0, 12)} and ${a.specSha256.slice(0, 12)})`,
        );
      if (!first) specs.set(a.api, { name: names[i], sha: a.specSha256 });
    }
  }
  const seeds = new Set(parts.map((p) => p.run.seed));
  if (seeds.size > 1) {
    const other = parts.findIndex((p) => p.run.seed !== parts[0].run.seed);
    throw new UsageError(
      `cannot merge: ${names[0]} has seed ${parts[0].run.seed} but ${names[other]} has seed ${parts[other].run.seed} (the shards of one run share --seed)`,
    );
  }
  const seen = new Map<string, { name: string; shard: Shard }>();
  for (const [i, part] of parts.entries()) {
    const shard = shardOf(part);
    for (const api of part.apis.map((a) => a.api)) {
      const key = `${api} ${shard ? `${shard.index}/${shard.count}` : 'whole'}`;
      const dup = seen.get(key);
      if (dup) throw new UsageError(`cannot merge: ${dup.name} and ${names[i]} are both ${shardText(shard)} of the ${api} API`);
      for (const [k, v] of seen) {
        if (k.split(' ')[0] === api && (v.shard?.count ?? 1) !== (shard?.count ?? 1)) {
          throw new UsageError(
            `cannot merge: ${v.name} is ${shardText(v.shard)} but ${names[i]} is ${shardText(shard)} of the ${api} API (shards of one run use the same N)`,
          );
        }
      }
      seen.set(key, { name: names[i], shard });
    }
  }
}

/**
 * The shards of a run that are not among the parts, per API: a merge is a whole run only when shards 1..N are all
 * there (or one part is a whole run), since each missing shard's checks were run by no part.
 */
export function missingShards(parts: ComplianceReport[]): { api: string; missing: number[]; count: number }[] {
  const out: { api: string; missing: number[]; count: number }[] = [];
  for (const api of [...new Set(parts.flatMap((p) => p.apis.map((a) => a.api)))]) {
    const shards = parts.filter((p) => p.apis.some((a) => a.api === api)).map(shardOf);
    if (shards.some((s) => !s)) continue;
    const count = shards[0]!.count;
    const missing = Array.from({ length: count }, (_, i) => i + 1).filter((i) => !shards.some((s) => s!.index === i));
    if (missing.length) out.push({ api, missing, count });
  }
  return out;
}

/** The headline of a merge that lacks shards. */
const missingText = (gaps: ReturnType<typeof missingShards>) =>
  `Shards missing from the merge: ${gaps.map((g) => `${g.missing.map((i) => `${i}/${g.count}`).join(', ')} of the ${g.api} API`).join('; ')}. Their checks were run by none of the merged reports, so this report is not a pass.`;

/** One report from the reports of the shards of a run: a requirement takes the strongest status any shard found. */
export function mergeReports(parts: ComplianceReport[], names: string[] = parts.map((_, i) => `report ${i + 1}`)): ComplianceReport {
  if (!parts.length) throw new UsageError('nothing to merge');
  checkMergeable(parts, names);
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
        intermittent:
          seen.failed + q.failed > 0
            ? Boolean((seen.failed === 0 || seen.intermittent) && (q.failed === 0 || q.intermittent)) || undefined
            : undefined,
        evidence:
          winner.status === seen.status
            ? [...seen.evidence, ...q.evidence.filter((e) => e.outcome === (winner.status === 'failed' ? 'fail' : e.outcome))]
            : winner.evidence,
        observations: [...seen.observations, ...q.observations.filter((o) => !seen.observations.some((x) => x.note === o.note))],
      });
    }
  }
  const gaps = missingShards(parts);
  // A requirement no merged shard ran says where it went: into a shard that never reported.
  const requirements = [...byId.values()].map((q) =>
    q.status === 'skipped' && q.reason?.startsWith('run in another shard') && gaps.some((g) => g.api === q.api)
      ? { ...q, reason: 'not run: its shard is missing from the merge' }
      : q,
  );
  const apis = new Map<string, ComplianceReport['apis'][number]>();
  for (const a of parts.flatMap((p) => p.apis)) {
    const seen = apis.get(a.api);
    if (!seen) apis.set(a.api, structuredClone(a));
    else {
      seen.stats = {
        requests: seen.stats.requests + a.stats.requests,
        writes: seen.stats.writes + a.stats.writes,
        assertions: seen.stats.assertions + a.stats.assertions,
        ms: Math.max(seen.stats.ms, a.stats.ms),
      };
      seen.cleanup = {
        created: seen.cleanup.created + a.cleanup.created,
        removed: seen.cleanup.removed + a.cleanup.removed,
        failed: [...seen.cleanup.failed, ...a.cleanup.failed],
      };
      seen.checks = seen.checks.map((c) =>
        c.outcome === 'filtered' ? (a.checks.find((x) => x.id === c.id && x.outcome !== 'filtered') ?? c) : c,
      );
    }
  }
  for (const a of apis.values()) a.summary = countOf(requirements.filter((q) => q.api === a.api));
  const first = parts[0];
  // One interrupted shard leaves the merged run incomplete: its unstarted checks were run by no shard.
  const interrupted = parts.some((p) => p.run.interrupted || p.summary.gate === 'incomplete') || undefined;
  return {
    tool: first.tool,
    run: {
      ...first.run,
      interrupted,
      durationMs: Math.max(...parts.map((p) => p.run.durationMs)),
      config: { ...first.run.config, shard: undefined, mergedFrom: parts.length, shards: parts.map((p) => shardOf(p) ?? null) },
    },
    summary: summarize(requirements, {
      interrupted,
      incomplete: gaps.length ? missingText(gaps) : parts.find((p) => p.summary.incomplete)?.summary.incomplete,
      requireAll: parts.some((p) => p.run.requireAll),
      partial: partialOf(
        [...apis.values()].flatMap((a) => a.checks),
        first.run.only,
        undefined,
      ),
    }),
    apis: [...apis.values()],
    requirements,
  };
}
