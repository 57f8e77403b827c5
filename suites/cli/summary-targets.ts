import type { ComplianceReport } from '../core/report/model';

type Api = ComplianceReport['apis'][number];

/** What a run was pointed at, as a person names it: the deployment's URL, or the implementation the run started. */
export const targetName = (a: Pick<Api, 'target'>) => (a.target.embedded ? 'embedded' : a.target.baseUrl);

/** Requirements a run left skipped because destructive checks did not run against a target someone named. */
const guardedCount = (r: ComplianceReport, api: string) =>
  r.requirements.filter((q) => q.api === api && q.status === 'skipped' && /^destructive check/.test(q.reason ?? '')).length;

/**
 * One line per API whose destructive checks were held back: how many requirements that leaves skipped, and the one
 * flag that runs them. A gate that passes with them skipped has not checked them; the line says so.
 */
export function destructiveLines(r: ComplianceReport): string[] {
  return r.apis.flatMap((a) => {
    const n = guardedCount(r, a.api);
    if (!n || a.allowDestructive) return [];
    return [
      `${a.api}: ${n} requirement${n === 1 ? '' : 's'} skipped: destructive checks run against ${a.target.baseUrl} only with --allow-destructive (use it against a disposable deployment)`,
    ];
  });
}
