import { gateCounts } from './gate-counts';
import type { ComplianceReport } from './model';
import { INTERRUPTED, verdictWord } from './verdict';

const esc = (s: string) => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');
const icon: Record<string, string> = { passed: '✅ passed', failed: '❌ failed', skipped: '⏭️ skipped', untested: '❔ untested', error: '⚠️ tool error' };

/** Short enough for a CI job summary: the verdict, per-API counts, then only what needs attention. */
export function renderMarkdown(r: ComplianceReport): string {
  const out: string[] = [];
  out.push(`# Conformance: ${verdictWord(r.summary)}`, '');
  if (r.summary.gate === 'incomplete') out.push(`**${INTERRUPTED}**`, '');
  out.push(`Seed \`${r.run.seed}\` · ${r.run.runs} property runs · ${(r.run.durationMs / 1000).toFixed(1)} s · ${r.tool.name} ${r.tool.version}`, '');
  out.push('| API | target | passed | failed | warnings | skipped | untested | requests |', '|---|---|---|---|---|---|---|---|');
  for (const a of r.apis) {
    const c = gateCounts(r, a.api);
    out.push(`| ${a.api} | ${a.target.embedded ? 'embedded reference' : a.target.baseUrl} | ${c.passed} | ${c.failed} | ${c.warnings} | ${c.skipped} | ${c.untested} | ${a.stats.requests} |`);
  }
  out.push('', '| level | passed | failed | skipped | untested |', '|---|---|---|---|---|');
  for (const [level, c] of Object.entries(r.summary.byLevel)) out.push(`| ${level} | ${c.passed} | ${c.failed} | ${c.skipped} | ${c.untested} |`);
  for (const a of r.apis.filter((x) => x.crossCheck)) {
    const c = a.crossCheck!;
    out.push('', `Prism proxy cross-check (${a.api}): ${c.agreed} of ${c.exchanges} answers judged alike; ${c.prismOnly.length} flagged only by Prism, ${c.suiteOnly.length} only by this suite.`);
  }
  // Only what fails the gate is under "Failed requirements"; a SHOULD that failed is a warning, in its own section.
  out.push(
    ...failureSection(
      'Failed requirements',
      r.requirements.filter((q) => q.status === 'failed' && q.level === 'MUST'),
    ),
  );
  out.push(
    ...failureSection(
      'Warnings (SHOULD: reported, not gating)',
      r.requirements.filter((q) => q.status === 'failed' && q.level !== 'MUST'),
    ),
  );
  const errors = r.requirements.filter((q) => q.status === 'error');
  if (errors.length) {
    out.push('', '## Tool errors (no verdict: the suite itself failed)', '', '| id | what happened |', '|---|---|');
    for (const q of errors) out.push(`| ${q.id} | ${esc(q.reason ?? '')} |`);
  }
  const open = r.requirements.filter((q) => q.status === 'untested' || q.status === 'skipped');
  if (open.length) {
    out.push('', '## Not established', '', '| id | level | status | why | checked with |', '|---|---|---|---|---|');
    for (const q of open) out.push(`| ${q.id} | ${q.level} | ${icon[q.status]} | ${esc(q.reason ?? '')} | ${q.enabledBy ? esc(q.enabledBy) : '—'} |`);
  }
  const obs = r.requirements.filter((q) => q.observations.length);
  if (obs.length) {
    out.push('', '## Observed where the document is silent', '');
    for (const q of obs) for (const o of q.observations) out.push(`- **${q.id}**: ${o.note}`);
  }
  return `${out.join('\n')}\n`;
}

/** A table of failed requirements with their first failure, then their curl reproducers; nothing when there are none. */
function failureSection(title: string, failed: ComplianceReport['requirements']): string[] {
  if (!failed.length) return [];
  const out = ['', `## ${title}`, '', '| id | level | summary | first failure | expected | actual |', '|---|---|---|---|---|---|'];
  for (const q of failed) {
    const e = q.evidence[0];
    out.push(
      `| ${q.id} | ${q.level}${q.intermittent ? ' (intermittent)' : ''} | ${esc(q.summary)} | ${esc(e?.message ?? '')}${q.hint ? ` (hint: ${esc(q.hint)})` : ''} | ${esc(e?.expected ?? '')} | ${esc(e?.actual ?? '')} |`,
    );
  }
  out.push('', '<details><summary>Reproducers</summary>', '');
  for (const q of failed) {
    const e = q.evidence.find((x) => x.evidence?.curl);
    if (e) out.push(`**${q.id}**`, '', '```sh', e.evidence!.curl!, '```', '');
  }
  out.push('</details>');
  return out;
}
