import { unsaidFacts } from '../core/expect';
import { gateCounts } from '../core/report/gate-counts';
import type { ComplianceReport } from '../core/report/model';
import { verdictWord } from '../core/report/verdict';
import { destructiveLines, targetName } from './summary-targets';
import { requireAllNote, untestedLines } from './summary-untested';

/** The verdict with what it means where that is not plain. */
const VERDICT_TEXT: Record<ReturnType<typeof verdictWord>, (r: ComplianceReport) => string> = {
  INCOMPLETE: (r) =>
    r.summary.incomplete
      ? `INCOMPLETE (exit 2): ${r.summary.incomplete.replace(/\.$/, '')}, so this is not a pass`
      : `INCOMPLETE (exit 130): the run was interrupted; ${notRun(r)} requirements were not checked, so this is not a pass`,
  'TOOL ERROR': () => 'TOOL ERROR (exit 2): a check failed as a tool, its requirements have no verdict',
  PASS: () => 'PASS',
  FAIL: (r) => `FAIL${requireAllNote(r)}`,
};

const notRun = (r: ComplianceReport) => r.requirements.filter((q) => q.status === 'skipped' && q.causes?.includes('interrupted')).length;

/** The few lines a person reads at the end of a run. */
export function summaryText(r: ComplianceReport, files: string[]): string {
  const rows = [['API', 'target', 'requirements', 'passed', 'failed', 'warnings', 'skipped', 'untested', 'requests', 'seconds']];
  for (const a of r.apis) {
    const c = gateCounts(r, a.api);
    rows.push(
      [
        a.api,
        targetName(a),
        c.total,
        c.passed,
        c.failed,
        c.warnings,
        c.skipped,
        c.untested,
        a.stats.requests,
        (a.stats.ms / 1000).toFixed(1),
      ].map(String),
    );
  }
  const widths = rows[0].map((_, i) => Math.max(...rows.map((row) => row[i].length)));
  const lines = rows.map((row) => row.map((c, i) => c.padEnd(widths[i])).join('  '));
  const m = r.summary.byLevel;
  lines.push(
    '',
    `MUST: ${m.MUST.passed} passed, ${m.MUST.failed} failed, ${m.MUST.untested} untested, ${m.MUST.skipped} skipped · SHOULD warnings: ${r.summary.warnings} · unspecified observed: ${m.unspecified.passed + m.unspecified.failed}`,
  );
  for (const q of r.requirements.filter((x) => x.status === 'error')) lines.push(`  TOOL ERROR ${q.id}: ${q.reason ?? ''}`);
  // Failures first, then warnings: only a failed MUST reads FAIL.
  const failed = r.requirements.filter((x) => x.status === 'failed');
  for (const q of [...failed.filter((x) => x.level === 'MUST'), ...failed.filter((x) => x.level !== 'MUST')]) {
    lines.push(
      `  ${q.level === 'MUST' ? 'FAIL' : 'WARN'} ${q.id}${q.intermittent ? ' (intermittent)' : ''}: ${q.evidence[0]?.message ?? ''}`,
    );
    const facts = q.evidence[0] && unsaidFacts(q.evidence[0]);
    if (facts) lines.push(`       ${facts}`);
    if (q.hint) lines.push(`       hint: ${q.hint}`);
  }
  for (const a of r.apis)
    lines.push(
      `${a.api}: created ${a.cleanup.created} objects, removed ${a.cleanup.removed}${a.cleanup.failed.length ? `, could not remove ${a.cleanup.failed.length}: ${a.cleanup.failed.join('; ')}` : ''}`,
    );
  lines.push(...untestedLines(r), ...destructiveLines(r));
  if (files.length) lines.push(`reports: ${files.join(', ')}`);
  const json = files.find((f) => f.endsWith('compliance.json'));
  const first = r.requirements.find((q) => q.status === 'failed' && q.level === 'MUST');
  if (json && first) lines.push(`replay a failure: api-conformance replay ${json} ${first.id} (add --script for its requests as curl)`);
  // The verdict line says "partial" too: a PASS of part of the checks is no PASS of the deployment.
  const partial = r.summary.partial ? ` (partial: ${r.summary.partial})` : '';
  lines.push(
    `seed ${r.run.seed} (replay with CONFORMANCE_SEED=${r.run.seed}) · verdict: ${VERDICT_TEXT[verdictWord(r.summary)](r)}${partial}`,
  );
  return `${lines.join('\n')}\n`;
}
