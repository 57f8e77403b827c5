import type { ComplianceReport } from './model';

/** How a requirement's status moved from the old run to the new one. */
type ChangeKind = 'NEW FAILURE' | 'FIXED' | 'NO LONGER CHECKED' | 'COVERAGE LOST' | 'NOW PASSES' | 'CHANGED';

export interface Change {
  api: string;
  id: string;
  level: string;
  from: string;
  to: string;
  kind: ChangeKind;
  /** The new run's first failure message, for new failures. */
  message?: string;
}

const ORDER: ChangeKind[] = ['NEW FAILURE', 'NO LONGER CHECKED', 'COVERAGE LOST', 'FIXED', 'NOW PASSES', 'CHANGED'];

function kindOf(from: string, to: string): ChangeKind {
  if (to === 'failed') return 'NEW FAILURE';
  if (from === 'failed') return to === 'passed' ? 'FIXED' : 'NO LONGER CHECKED';
  if (from === 'passed') return 'COVERAGE LOST';
  if (to === 'passed') return 'NOW PASSES';
  return 'CHANGED';
}

/**
 * Requirements whose status differs from the old run (`before`) to the new one (`after`), worst news first:
 * a requirement failing now that did not fail before is a NEW FAILURE; failing before and passing now is FIXED.
 */
export function compareReports(
  before: ComplianceReport,
  after: ComplianceReport,
): { changes: Change[]; stillFailing: number; text: string } {
  const old = new Map(before.requirements.map((q) => [`${q.api} ${q.id}`, q]));
  const changes: Change[] = [];
  let stillFailing = 0;
  for (const q of after.requirements) {
    const o = old.get(`${q.api} ${q.id}`);
    const from = o?.status ?? '(new)';
    if (from === 'failed' && q.status === 'failed') stillFailing++;
    if (from === q.status) continue;
    const kind = kindOf(from, q.status);
    changes.push({
      api: q.api,
      id: q.id,
      level: q.level,
      from,
      to: q.status,
      kind,
      message: kind === 'NEW FAILURE' ? q.evidence.find((e) => e.outcome === 'fail')?.message : undefined,
    });
  }
  const fresh = new Set(after.requirements.map((q) => `${q.api} ${q.id}`));
  for (const o of before.requirements)
    if (!fresh.has(`${o.api} ${o.id}`))
      changes.push({ api: o.api, id: o.id, level: o.level, from: o.status, to: '(removed)', kind: kindOf(o.status, '(removed)') });
  changes.sort((a, b) => ORDER.indexOf(a.kind) - ORDER.indexOf(b.kind) || a.api.localeCompare(b.api) || a.id.localeCompare(b.id));
  const width = Math.max(0, ...changes.map((c) => c.kind.length));
  const counts = ORDER.map((k) => [k, changes.filter((c) => c.kind === k).length] as const).filter(([, n]) => n);
  const lines = [
    `verdict: ${before.summary.gate.toUpperCase()} → ${after.summary.gate.toUpperCase()}`,
    `passed ${before.summary.passed} → ${after.summary.passed}, failed ${before.summary.failed} → ${after.summary.failed}, untested ${before.summary.untested} → ${after.summary.untested}, skipped ${before.summary.skipped} → ${after.summary.skipped}`,
    changes.length
      ? `${changes.length} requirement(s) changed: ${counts.map(([k, n]) => `${n} ${k.toLowerCase()}`).join(', ')}${stillFailing ? ` (${stillFailing} still failing)` : ''}`
      : `no requirement changed status${stillFailing ? ` (${stillFailing} still failing)` : ''}`,
    ...changes.map(
      (c) => `  ${c.kind.padEnd(width)}  ${c.api} ${c.id} [${c.level}]: ${c.from} → ${c.to}${c.message ? `: ${c.message}` : ''}`,
    ),
  ];
  return { changes, stillFailing, text: `${lines.join('\n')}\n` };
}
