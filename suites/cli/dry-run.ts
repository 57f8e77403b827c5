import type { ApiDefinition } from '../core/api';
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
export function dryRunPlan(runs: ApiRun[], apis: ApiDefinition[], configured: Record<string, Target | undefined>) {
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
    text.push(
      `${run.api}: ${total(groups.safe) + total(groups.destructive)} requests to ${target ? target.baseUrl : 'the embedded implementation'} (${total(groups.safe)} from non-destructive checks, ${total(groups.destructive)} from destructive checks)`,
    );
    for (const [name, g] of Object.entries(groups)) {
      if (!g.size) continue;
      text.push(`  ${name === 'safe' ? 'non-destructive' : 'destructive (sent only with --allow-destructive against a deployment)'}:`);
      for (const l of [...g.values()].sort((a, b) => a.path.localeCompare(b.path) || a.method.localeCompare(b.method))) text.push(`    ${l.method.padEnd(6)} ${l.path}  ×${l.count}`);
    }
    text.push('');
    json[run.api] = { target: target?.baseUrl ?? null, safe: [...groups.safe.values()], destructive: [...groups.destructive.values()] };
  }
  return { text: `${text.join('\n')}\n`, json };
}
