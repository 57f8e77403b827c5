import type { ComplianceReport } from './model';

export interface Change {
  api: string;
  id: string;
  level: string;
  from: string;
  to: string;
}

/** Requirements whose status differs between two runs, worst news first. */
export function compareReports(before: ComplianceReport, after: ComplianceReport): { changes: Change[]; text: string } {
  const old = new Map(before.requirements.map((q) => [`${q.api} ${q.id}`, q]));
  const changes: Change[] = [];
  for (const q of after.requirements) {
    const o = old.get(`${q.api} ${q.id}`);
    const from = o?.status ?? '(new)';
    if (from !== q.status) changes.push({ api: q.api, id: q.id, level: q.level, from, to: q.status });
  }
  const fresh = new Set(after.requirements.map((q) => `${q.api} ${q.id}`));
  for (const o of before.requirements) if (!fresh.has(`${o.api} ${o.id}`)) changes.push({ api: o.api, id: o.id, level: o.level, from: o.status, to: '(removed)' });
  const weight = (c: Change) => (c.to === 'failed' ? 0 : c.from === 'failed' ? 1 : 2);
  changes.sort((a, b) => weight(a) - weight(b) || a.id.localeCompare(b.id));
  const lines = [
    `verdict: ${before.summary.gate.toUpperCase()} → ${after.summary.gate.toUpperCase()}`,
    `passed ${before.summary.passed} → ${after.summary.passed}, failed ${before.summary.failed} → ${after.summary.failed}, untested ${before.summary.untested} → ${after.summary.untested}, skipped ${before.summary.skipped} → ${after.summary.skipped}`,
    changes.length ? `${changes.length} requirement(s) changed:` : 'no requirement changed status',
    ...changes.map((c) => `  ${c.to === 'failed' ? 'NEW FAILURE' : c.from === 'failed' ? 'FIXED      ' : 'changed    '} ${c.api} ${c.id} [${c.level}]: ${c.from} → ${c.to}`),
  ];
  return { changes, text: `${lines.join('\n')}\n` };
}
