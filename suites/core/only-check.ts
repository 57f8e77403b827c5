import type { ApiDefinition } from './api';
import { matchesOnly } from './registry';
import { closest } from './settings';
import { TOOL } from './tool';

/** Ids and group globs to suggest for an --only pattern that matched nothing. */
function selectable(apis: readonly ApiDefinition[]): string[] {
  const out = new Set<string>();
  for (const a of apis) {
    for (const c of a.checks) {
      out.add(c.id);
      const parts = c.id.split('.');
      for (let i = 1; i < parts.length; i++) out.add(`${parts.slice(0, i).join('.')}.*`);
      for (const r of c.requirements) {
        out.add(r);
        const segs = r.split('-');
        for (let i = 1; i < segs.length; i++) out.add(`${segs.slice(0, i).join('-')}-*`);
      }
    }
  }
  return [...out];
}

/**
 * Every --only pattern must select a check of the chosen APIs (`known`: every API, to say where else a pattern
 * matches): a typo is a usage error, not a run of nothing. Returns the one line to print, or nothing.
 */
export function onlyMistake(
  patterns: string[] | undefined,
  apis: readonly ApiDefinition[],
  known: readonly ApiDefinition[],
  from: string,
): string | undefined {
  if (!patterns) return undefined;
  if (!patterns.length) return `${from} is empty: give check or requirement ids or globs (see '${TOOL.name} list')`;
  for (const p of patterns) {
    if (apis.some((a) => a.checks.some((c) => matchesOnly(c, [p])))) continue;
    const elsewhere = known.filter((a) => !apis.includes(a) && a.checks.some((c) => matchesOnly(c, [p]))).map((a) => a.id);
    const near = closest(p, selectable(apis));
    const hint = elsewhere.length
      ? `it matches checks of ${elsewhere.join(', ')}, which are not selected`
      : near.length
        ? `closest: ${near.join(', ')}`
        : `see '${TOOL.name} list'`;
    return `${from} '${p}' matches no check or requirement of ${apis.map((a) => a.id).join(', ')} (${hint})`;
  }
  return undefined;
}
