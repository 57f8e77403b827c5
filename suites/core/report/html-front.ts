import type { ComplianceReport } from './model';
import { anchors, facts, h } from './html-text';
import { incompleteText, verdictWord } from './verdict';

/*
 * The report's first page, which is all a reader who signs off on a deployment needs: the verdict, what was checked
 * (label and version, targets, users by role), against what (documents with their full sha256, the suite's version
 * and commit), when, the counts and the failed MUST requirements; then the contents of the rest. With --summary-only
 * it is the whole page, short enough for a PDF of at most two pages.
 */

type Req = ComplianceReport['requirements'][number];
type Api = ComplianceReport['apis'][number];

/** Failed MUST requirements listed in a summary-only page; the rest are counted (they are in compliance.json). */
const SUMMARY_FAILURES = 12;

const targetOf = (a: Api) => (a.target.embedded ? `embedded reference implementation (${a.target.baseUrl})` : a.target.baseUrl);

/** Each role, the variable that supplied it and the user's name where it is no secret: `primary: admin (OPS_USERNAME/OPS_PASSWORD)`. */
const usersOf = (a: Api) =>
  (a.users ?? [])
    .map(
      (u) =>
        `${h(u.role)}${u.name ? `: <b>${h(u.name)}</b>` : ''} <span class="muted">(${h(a.target.embedded ? 'demo user' : u.variable)})</span>`,
    )
    .join(', ') || 'none';

const documentsOf = (a: Api) =>
  (a.documents ?? [{ kind: 'OpenAPI description', name: 'OpenAPI description', sha256: a.specSha256 }])
    .map((d) => `<div>${h(d.kind)} <code>${h(d.name)}</code><br><span class="sha">sha256 <code>${h(d.sha256)}</code></span></div>`)
    .join('');

function facts_(r: ComplianceReport): string {
  const run = r.run;
  const rows: [string, string][] = [
    ['date', `${h(run.startedAt)} · ${(run.durationMs / 1000).toFixed(1)} s`],
    ...r.apis.map((a): [string, string] => [`${h(a.api)} target`, `${h(targetOf(a))}<div class="muted">${h(a.title)}</div>`]),
    ...r.apis.map((a): [string, string] => [`${h(a.api)} users`, usersOf(a)]),
    ...r.apis.map((a): [string, string] => [`${h(a.api)} documents`, documentsOf(a)]),
    [
      'suite',
      `${h(r.tool.name)} ${h(r.tool.version)} · commit <code>${h(r.tool.commit ?? 'unknown')}</code> · node ${h(run.node)} · seed <code>${run.seed}</code>`,
    ],
  ];
  return `<dl class="front">${rows.map(([k, v]) => `<dt>${k}</dt><dd>${v}</dd>`).join('')}</dl>`;
}

function cards(r: ComplianceReport): string {
  const s = r.summary;
  const card = (n: number, label: string, bad = false) => `<div class="card"><b${bad && n ? ' class="fail"' : ''}>${n}</b>${label}</div>`;
  return `<div class="cards">${[
    card(s.passed, 'passed'),
    card(s.byLevel.MUST.failed, 'failed (MUST)', true),
    card(s.warnings, 'warnings (SHOULD)'),
    s.error ? card(s.error, 'tool errors (no verdict)', true) : '',
    card(s.untested, 'untested'),
    card(s.skipped, 'skipped'),
    card(s.total, 'requirements'),
    card(s.intermittent, 'intermittent'),
  ].join('')}</div>`;
}

/** The header: verdict, label, what was checked against what, counts. */
export function frontHeader(r: ComplianceReport): string {
  const verdict = verdictWord(r.summary);
  const label = r.run.label
    ? `<div class="label">${h(r.run.label)}</div>`
    : '<div class="label muted">no deployment label given (--label)</div>';
  return `<header id="summary"><h1>Conformance report: <span class="${verdict === 'PASS' ? 'pass' : 'fail'}">${verdict}</span>${r.summary.partial ? ' <span class="partial">(partial)</span>' : ''}</h1>${r.summary.gate === 'incomplete' ? `<p class="fail"><b>${h(incompleteText(r.summary))}</b></p>` : ''}${r.summary.partial ? `<p class="partial"><b>Partial run: ${h(r.summary.partial)}.</b></p>` : ''}${label}${facts_(r)}${cards(r)}</header>`;
}

function failureItem(q: Req, linked: boolean): string {
  const first = q.evidence.find((e) => e.outcome === 'fail') ?? q.evidence[0];
  const id = linked ? `<a class="fm-link" href="#${anchors(q).evidence}"><code>${h(q.id)}</code></a>` : `<code>${h(q.id)}</code>`;
  return `<li class="fm" data-api="${h(q.api)}" data-id="${h(q.id)}">${id} <span class="muted">${h(q.api)} · ${h(q.group)}${q.level === 'MUST' ? '' : ` · ${h(q.level)}`}</span>${q.intermittent ? ' <span class="tag">intermittent</span>' : ''}<div>${h(q.summary)}</div>${
    first
      ? `<div class="fm-msg">${h(first.message)}${q.failed > 1 ? ` (${q.failed} failed assertions)` : ''}</div>${linked ? facts(first) : ''}`
      : ''
  }${q.hint ? `<div class="fm-hint"><b>Hint:</b> ${h(q.hint)}</div>` : ''}</li>`;
}

/** Every failed MUST requirement, linked to its evidence (a summary-only page lists the first few); then the non-gating failures. */
export function failuresSection(r: ComplianceReport, summaryOnly = false): string {
  const failed = r.requirements.filter((q) => q.status === 'failed');
  const must = failed.filter((q) => q.level === 'MUST');
  const other = failed.filter((q) => q.level !== 'MUST');
  const m = r.summary.byLevel.MUST;
  const notRun =
    m.untested + m.skipped
      ? `<p class="muted">${m.untested} MUST requirement${m.untested === 1 ? ' was' : 's were'} untested and ${m.skipped} skipped: not verified, see the table.</p>`
      : '';
  const shown = summaryOnly ? must.slice(0, SUMMARY_FAILURES) : must;
  const more = must.length > shown.length ? `<p class="muted">and ${must.length - shown.length} more, in the full report.</p>` : '';
  const warnings =
    other.length && !summaryOnly
      ? `<div class="warnings"><h3>Other failures, not gating (${other.length})</h3><ol>${other.map((q) => failureItem(q, true)).join('')}</ol></div>`
      : '';
  if (!must.length)
    return `<section id="failed-must" class="attention none"><h2>No MUST requirement failed</h2><p>${m.passed} of ${m.total} MUST requirements passed.</p>${notRun}${warnings}</section>`;
  return `<section id="failed-must" class="attention"><h2>Failed MUST requirements (${must.length})</h2><p class="muted">These fail the run.${summaryOnly ? '' : ' Each links to its evidence: curl reproducer, request and response.'}</p><ol>${shown.map((q) => failureItem(q, !summaryOnly)).join('')}</ol>${more}${notRun}${warnings}</section>`;
}

/** The sections after the first page, in page order. */
const SECTIONS: [string, string][] = [
  ['bars', 'Results by API and group'],
  ['requirements', 'Requirements, with clauses and evidence'],
  ['observed', 'Observed behaviour where the document says "not shown"'],
  ['checks', 'Checks'],
  ['run', 'Run'],
];

export const contents = () =>
  `<nav id="contents"><h2>Contents</h2><ol>${[['failed-must', 'Failed MUST requirements'], ...SECTIONS].map(([id, title]) => `<li><a href="#${id}">${h(title)}</a></li>`).join('')}</ol></nav>`;

/** What a summary-only page says in place of the rest. */
export const summaryOnlyNote = () =>
  '<p class="muted" id="summary-only">Summary only (--summary-only): every requirement with its clause and evidence is in compliance.json; <code>api-conformance report compliance.json</code> renders the full page.</p>';
