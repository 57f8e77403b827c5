import type { ApiDefinition } from '../core/api';
import { destructiveAllowed } from '../core/destructive';
import type { ApiRun } from '../core/runner';
import { specOf } from '../core/spec';
import type { Target } from '../core/types';

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
    };
  }
  return { text: `${text.join('\n')}\n`, json };
}

/** Requirements that only destructive checks of the rehearsed selection judge: skipped when those checks do not run. */
function onlyDestructive(run: ApiRun): number {
  const ran = run.checks.filter((c) => c.outcome !== 'filtered');
  const safe = new Set(ran.filter((c) => !c.destructive).flatMap((c) => c.requirements));
  return new Set(ran.filter((c) => c.destructive).flatMap((c) => c.requirements.filter((q) => !safe.has(q)))).size;
}

/** Whether the destructive requests would be sent to the target, and what leaving them out costs. */
function destructiveHeading(run: ApiRun, target: Target | undefined, allowed: boolean): string {
  if (!target) return "destructive (sent: the embedded implementation holds only the run's own data):";
  if (allowed) return `destructive (sent to ${target.baseUrl}: --allow-destructive was given):`;
  const n = onlyDestructive(run);
  return `destructive: NOT sent to ${target.baseUrl}: ${n} requirement${n === 1 ? '' : 's'} will be skipped; --allow-destructive sends them:`;
}
