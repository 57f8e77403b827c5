import { notReached, reachText } from '../reach';
import { gateCounts } from './gate-counts';
import type { ComplianceReport } from './model';
import { incompleteText, verdictTitle } from './verdict';

type Req = ComplianceReport['requirements'][number];

const esc = (s: string) => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');
const icon: Record<string, string> = {
  passed: '✅ passed',
  failed: '❌ failed',
  skipped: '⏭️ skipped',
  untested: '❔ untested',
  error: '⚠️ tool error',
};

/** The anchor GitHub gives a heading, for the contents. */
const anchor = (title: string) =>
  title
    .toLowerCase()
    .replace(/[^a-z0-9 -]/g, '')
    .replace(/ /g, '-');

/**
 * Short enough for a CI job summary. The first page: verdict, label, date, targets, users by role, documents with
 * their sha256, the suite's version and commit, counts and the failed MUST requirements; then the contents, and only
 * what needs attention.
 */
export function renderMarkdown(r: ComplianceReport): string {
  const sections: [string, string[]][] = [
    // Only what fails the gate is under "Failed requirements"; a SHOULD that failed is a warning, in its own section.
    ['Failed requirements', failureTable(r.requirements.filter((q) => q.status === 'failed' && q.level === 'MUST'))],
    ['Warnings (SHOULD: reported, not gating)', failureTable(r.requirements.filter((q) => q.status === 'failed' && q.level !== 'MUST'))],
    ['Tool errors (no verdict: the suite itself failed)', toolErrors(r)],
    ['Not established', notEstablished(r)],
    ['Observed where the document is silent', observed(r)],
    ['Where the run judged the requirements that say where they apply', reach(r)],
  ];
  const present = sections.filter(([, lines]) => lines.length);
  const contents = present.length ? ['', '## Contents', '', ...present.map(([title]) => `- [${title}](#${anchor(title)})`)] : [];
  const body = present.flatMap(([title, lines]) => ['', `## ${title}`, ...lines]);
  return `${[...frontPage(r), ...contents, ...body].join('\n')}\n`;
}

function frontPage(r: ComplianceReport): string[] {
  const out = [`# Conformance: ${verdictTitle(r.summary)}`, ''];
  if (r.summary.gate === 'incomplete') out.push(`**${incompleteText(r.summary)}**`, '');
  if (r.summary.partial) out.push(`**Partial run: ${r.summary.partial}.**`, '');
  out.push(r.run.label ? `**${esc(r.run.label)}**` : '_no deployment label given (--label)_', '', '| | |', '|---|---|');
  out.push(`| date | ${r.run.startedAt} · ${(r.run.durationMs / 1000).toFixed(1)} s |`);
  for (const a of r.apis)
    out.push(`| ${a.api} target | ${a.target.embedded ? `embedded reference implementation (${a.target.baseUrl})` : a.target.baseUrl} |`);
  for (const a of r.apis) out.push(`| ${a.api} users | ${usersOf(a)} |`);
  for (const a of r.apis) out.push(`| ${a.api} documents | ${documentsOf(a)} |`);
  out.push(
    `| suite | ${r.tool.name} ${r.tool.version} · commit \`${r.tool.commit ?? 'unknown'}\` · node ${r.run.node} · seed \`${r.run.seed}\` · ${r.run.runs} property runs |`,
    '',
  );
  out.push(...counts(r), '', ...failedMust(r));
  return out;
}

const usersOf = (a: ComplianceReport['apis'][number]) =>
  (a.users ?? [])
    .map((u) => `${u.role}${u.name ? `: **${esc(u.name)}**` : ''} (${a.target.embedded ? 'demo user' : u.variable})`)
    .join(', ') || 'none';

const documentsOf = (a: ComplianceReport['apis'][number]) =>
  (a.documents ?? [{ kind: 'OpenAPI description', name: 'OpenAPI description', sha256: a.specSha256 }])
    .map((d) => `${d.kind} \`${d.name}\` sha256 \`${d.sha256}\``)
    .join('<br>');

function counts(r: ComplianceReport): string[] {
  const out = ['| API | target | passed | failed | warnings | skipped | untested | requests |', '|---|---|---|---|---|---|---|---|'];
  for (const a of r.apis) {
    const c = gateCounts(r, a.api);
    out.push(
      `| ${a.api} | ${a.target.embedded ? 'embedded' : a.target.baseUrl} | ${c.passed} | ${c.failed} | ${c.warnings} | ${c.skipped} | ${c.untested} | ${a.stats.requests} |`,
    );
  }
  out.push('', '| level | passed | failed | skipped | untested |', '|---|---|---|---|---|');
  for (const [level, c] of Object.entries(r.summary.byLevel))
    out.push(`| ${level} | ${c.passed} | ${c.failed} | ${c.skipped} | ${c.untested} |`);
  for (const a of r.apis.filter((x) => x.crossCheck)) {
    const c = a.crossCheck!;
    out.push(
      '',
      `Prism proxy cross-check (${a.api}): ${c.agreed} of ${c.exchanges} answers judged alike; ${c.prismOnly.length} flagged only by Prism, ${c.suiteOnly.length} only by this suite.`,
    );
  }
  return out;
}

/** The failed MUST requirements, one line each: the first page's list (their evidence is further down). */
function failedMust(r: ComplianceReport): string[] {
  const must = r.requirements.filter((q) => q.status === 'failed' && q.level === 'MUST');
  if (!must.length) return [`**No MUST requirement failed** (${r.summary.byLevel.MUST.passed} of ${r.summary.byLevel.MUST.total} passed).`];
  return [
    `**Failed MUST requirements (${must.length})**`,
    '',
    ...must.map((q) => `- \`${q.id}\` (${q.api}): ${esc(q.evidence[0]?.message ?? q.summary)}`),
  ];
}

/** A table of failed requirements with their first failure, then their curl reproducers; nothing when there are none. */
function failureTable(failed: Req[]): string[] {
  if (!failed.length) return [];
  const out = ['', '| id | level | summary | first failure | expected | actual |', '|---|---|---|---|---|---|'];
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

function toolErrors(r: ComplianceReport): string[] {
  const errors = r.requirements.filter((q) => q.status === 'error');
  return errors.length ? ['', '| id | what happened |', '|---|---|', ...errors.map((q) => `| ${q.id} | ${esc(q.reason ?? '')} |`)] : [];
}

function notEstablished(r: ComplianceReport): string[] {
  const open = r.requirements.filter((q) => q.status === 'untested' || q.status === 'skipped');
  if (!open.length) return [];
  return [
    '',
    '| id | level | status | why | checked with |',
    '|---|---|---|---|---|',
    ...open.map((q) => `| ${q.id} | ${q.level} | ${icon[q.status]} | ${esc(q.reason ?? '')} | ${q.enabledBy ? esc(q.enabledBy) : '—'} |`),
  ];
}

function observed(r: ComplianceReport): string[] {
  const obs = r.requirements.filter((q) => q.observations.length);
  return obs.length ? ['', ...obs.flatMap((q) => q.observations.map((o) => `- **${q.id}**: ${o.note}`))] : [];
}

/** Per requirement whose catalogue entry says what it governs: what its assertions reached, and what they left out. */
function reach(r: ComplianceReport): string[] {
  const governed = r.requirements.filter((q) => q.governs?.length && (q.status === 'passed' || q.status === 'failed'));
  if (!governed.length) return [];
  return [
    '',
    '| id | status | reached | left out |',
    '|---|---|---|---|',
    ...governed.map((q) => {
      const missing = notReached(q.governs!, q.reached ?? []);
      return `| ${q.id} | ${icon[q.status]} | ${esc((q.reached ?? []).map(reachText).join('; ') || '—')} | ${esc(missing.join(', ') || '—')} |`;
    }),
  ];
}
