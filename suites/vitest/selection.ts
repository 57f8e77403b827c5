import type { ApiDefinition } from '../core/api';
import { closest } from '../core/settings';
import { TOOL } from '../core/tool';
import { groupsOf, testName } from './front-end';

type WorkerState = { config?: { testNamePattern?: unknown } };

/**
 * The `-t` pattern of this vitest run. Vitest applies it only after the file is collected, and then skips every
 * hook of a file none of whose tests it selects, so the run's own hook never learns that nothing was chosen: the
 * pattern is read at collection from the worker's state, which no public API exposes at that point.
 */
export function namePattern(): RegExp | undefined {
  const state = (globalThis as { __vitest_worker__?: WorkerState }).__vitest_worker__;
  const p = state?.config?.testNamePattern;
  if (p instanceof RegExp) return p;
  return typeof p === 'string' && p ? new RegExp(p) : undefined;
}

/**
 * The one line for a `-t` that selects no conformance test, or nothing: the same mistake as an `--only` that
 * matches nothing, which would otherwise end green with every test skipped. Test names are matched as vitest
 * matches them, with the enclosing describe's name (`within`) in front when the tests are defined inside one.
 */
export function emptySelection(apis: readonly ApiDefinition[], pattern: RegExp | undefined, within = ''): string | undefined {
  if (!pattern || !apis.length) return undefined;
  const names = apis.flatMap((a) => groupsOf(a).flatMap(([group, checks]) => checks.map((c) => `${a.id} ${group} ${testName(c)}`)));
  if (names.some((n) => new RegExp(pattern.source, pattern.flags.replace('g', '')).test(within ? `${within} ${n}` : n))) return undefined;
  const ids = apis.flatMap((a) => a.checks.flatMap((c) => [c.id, ...c.requirements]));
  const near = closest(pattern.source, [...new Set(ids)]);
  return `vitest -t '${pattern.source}' selects no conformance test of ${apis.map((a) => a.id).join(', ')} (${near.length ? `closest: ${near.join(', ')}` : `see '${TOOL.name} list'`})`;
}
