import type { ComplianceReport } from './model';

/**
 * Per API, the counts every report shows side by side. `failed` is what fails the gate (MUST); a SHOULD that failed
 * is a warning, counted and coloured apart, so that a passing run never shows a failure count.
 */
export function gateCounts(r: ComplianceReport, api: string) {
  const reqs = r.requirements.filter((q) => q.api === api);
  const count = (f: (q: (typeof reqs)[number]) => boolean) => reqs.filter(f).length;
  return {
    total: reqs.length,
    passed: count((q) => q.status === 'passed'),
    failed: count((q) => q.status === 'failed' && q.level === 'MUST'),
    warnings: count((q) => q.status === 'failed' && q.level !== 'MUST'),
    skipped: count((q) => q.status === 'skipped'),
    untested: count((q) => q.status === 'untested'),
  };
}
