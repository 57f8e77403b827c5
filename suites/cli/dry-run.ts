import type { ApiDefinition } from '../core/api';
import { runConformance } from '../core/conformance';
import { destructiveAllowed } from '../core/destructive';
import { matchesOnly } from '../core/registry';
import type { ApiRun, ProgressEvent } from '../core/runner';
import type { Session } from '../core/session';
import { specOf } from '../core/spec';
import { TOOL } from '../core/tool';
import type { Target } from '../core/types';

/**
 * The embedded implementation as the run would see the deployment it stands in for: only the roles the deployment
 * was given (a check without its user is untested, not skipped), and named rather than started by the run, so that
 * destructive checks are skipped exactly where the real run skips them. Its server is closed by whoever started it.
 */
function standIn(embedded: Target, real: Target | undefined): Target {
  if (!real) return embedded;
  const principals = Object.fromEntries(Object.entries(embedded.principals).filter(([role]) => real.principals[role]));
  return { ...embedded, principals, embedded: false, close: undefined };
}

/** One rehearsal over fresh embedded implementations, each standing in for its API's deployment. */
async function rehearse(
  session: Session,
  apis: ApiDefinition[],
  only: string[] | undefined,
  allowDestructive: boolean,
  progress?: (e: ProgressEvent) => void,
) {
  const embedded = await Promise.all(apis.map((a) => a.startEmbedded()));
  try {
    const targets = Object.fromEntries(apis.map((a, i) => [a.id, standIn(embedded[i], session.targets[a.id])] as const));
    // The rate limit protects a deployment; the rehearsal does not reach one, so it runs at full speed.
    const settings = { ...session.settings, apis: apis.map((a) => a.id), only, allowDestructive, retries: 0, rateLimit: undefined };
    return (await runConformance({ settings, apis, targets, progress, tool: TOOL, write: false, captureTraffic: true })).runs;
  } finally {
    await Promise.all(embedded.map((t) => t.close?.()));
  }
}

/**
 * What a run would send, and what it would leave skipped: a rehearsal with the run's own settings (so its skipped
 * requirements are the run's), then, where destructive checks would not be sent, a rehearsal of those alone to list
 * what they would have sent. Each API's runs come back with the traffic of both.
 */
export async function rehearsal(session: Session, progress?: (e: ProgressEvent) => void): Promise<ApiRun[]> {
  const { settings, apis } = session;
  const runs = await rehearse(session, apis, settings.only, settings.allowDestructive, progress);
  const held = apis.filter((a) => !destructiveAllowed(session.targets[a.id], settings.allowDestructive));
  const destructive = held.flatMap((a) => a.checks.filter((c) => c.destructive && matchesOnly(c, settings.only)).map((c) => c.id));
  if (!destructive.length) return runs;
  const withHeld = held.filter((a) => a.checks.some((c) => destructive.includes(c.id)));
  const extra = await rehearse(session, withHeld, destructive, true, progress);
  return runs.map((r) => {
    const more = extra.find((x) => x.api === r.api)?.exchanges ?? [];
    return { ...r, exchanges: [...(r.exchanges ?? []), ...more] };
  });
}

interface Line {
  method: string;
  path: string;
  count: number;
  checks: string[];
}

/**
 * What a run would send, from a rehearsal against the embedded implementation: requests grouped by whether the check
 * sending them is destructive, with the target's address in place of the rehearsal's.
 */
export function dryRunPlan(
  runs: ApiRun[],
  apis: ApiDefinition[],
  configured: Record<string, Target | undefined>,
  allowDestructive: boolean,
) {
  const text: string[] = ['dry run: rehearsed against the embedded reference implementation; nothing was sent to any target', ''];
  const json: Record<string, unknown> = {};
  for (const run of runs) {
    const def = apis.find((a) => a.id === run.api)!;
    const destructiveChecks = new Set(def.checks.filter((c) => c.destructive).map((c) => c.id));
    const target = configured[run.api];
    const spec = specOf(def.specFile);
    const groups: Record<'destructive' | 'safe', Map<string, Line>> = { destructive: new Map(), safe: new Map() };
    for (const ex of run.exchanges ?? []) {
      const url = new URL(ex.request.url);
      const template = ex.operationId ? spec.operations.get(ex.operationId)?.path : undefined;
      const path = (template ?? url.pathname) + (url.search ? url.search.replace(/=[^&]*/g, '=…') : '');
      const group = destructiveChecks.has(ex.check ?? '') ? groups.destructive : groups.safe;
      const key = `${ex.request.method} ${path}`;
      const line = group.get(key) ?? { method: ex.request.method, path, count: 0, checks: [] };
      line.count++;
      if (ex.check && !line.checks.includes(ex.check)) line.checks.push(ex.check);
      group.set(key, line);
    }
    const total = (g: Map<string, Line>) => [...g.values()].reduce((n, l) => n + l.count, 0);
    const destructiveSent = destructiveAllowed(target, allowDestructive);
    const [safe, destructive] = [total(groups.safe), total(groups.destructive)];
    text.push(
      destructiveSent
        ? `${run.api}: ${safe + destructive} requests to ${target ? target.baseUrl : 'the embedded implementation'} (${safe} from non-destructive checks, ${destructive} from destructive checks)`
        : `${run.api}: ${safe} requests to ${target!.baseUrl} from non-destructive checks (${destructive} more from destructive checks are not sent)`,
    );
    for (const [name, g] of Object.entries(groups)) {
      if (!g.size) continue;
      text.push(`  ${name === 'safe' ? 'non-destructive:' : destructiveHeading(run, target, allowDestructive)}`);
      for (const l of [...g.values()].sort((a, b) => a.path.localeCompare(b.path) || a.method.localeCompare(b.method)))
        text.push(`    ${l.method.padEnd(6)} ${l.path}  ×${l.count}`);
    }
    text.push('');
    json[run.api] = {
      target: target?.baseUrl ?? null,
      safe: [...groups.safe.values()],
      destructive: [...groups.destructive.values()],
      destructiveSent,
      // The real run's count, from a rehearsal with its settings.
      skippedAsDestructive: skippedAsDestructive(run).all,
    };
  }
  return { text: `${text.join('\n')}\n`, json };
}

/** Requirements the rehearsal, run as the real run would be, left skipped because destructive checks were not sent. */
function skippedAsDestructive(run: ApiRun): { all: number; must: number } {
  const skipped = run.requirements.filter((q) => q.status === 'skipped' && q.reason?.startsWith('destructive check'));
  return { all: skipped.length, must: skipped.filter((q) => q.level === 'MUST').length };
}

/** Whether the destructive requests would be sent to the target, and what leaving them out costs. */
function destructiveHeading(run: ApiRun, target: Target | undefined, allowed: boolean): string {
  if (!target) return "destructive (sent: the embedded implementation holds only the run's own data):";
  if (allowed) return `destructive (sent to ${target.baseUrl}: --allow-destructive was given):`;
  const n = skippedAsDestructive(run);
  return `destructive: NOT sent to ${target.baseUrl}: ${n.all} requirement${n.all === 1 ? '' : 's'} (${n.must} MUST) will be skipped; --allow-destructive sends them:`;
}
