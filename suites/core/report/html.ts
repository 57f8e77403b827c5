import type { AssertionRecord } from '../types';
import type { ComplianceReport } from './model';
import { barsSection } from './html-bars';
import { SCRIPT, STYLE } from './html-style';
import { contents, failuresSection, frontHeader, summaryOnlyNote } from './html-front';
import { anchors, facts, h } from './html-text';
import { verdictTitle } from './verdict';

type Req = ComplianceReport['requirements'][number];
type Api = ComplianceReport['apis'][number];

function evidenceItem(e: AssertionRecord, open: boolean): string {
  const ev = e.evidence;
  const part = (label: string, text: string | undefined) =>
    text ? `<details class="rr"${open ? ' open' : ''}><summary>${label}</summary><pre>${h(text)}</pre></details>` : '';
  return `<div class="ev ev-${h(e.outcome)}"><div class="ev-head"><b>${h(e.outcome)}</b> ${h(e.message)}${e.intermittent ? ' <i>(intermittent: passed on re-run)</i>' : ''}</div>${facts(e)}<div class="sub">check <code>${h(e.check)}</code></div>${
    ev?.curl ? `<div class="lbl">curl reproducer</div><pre class="curl">${h(ev.curl)}</pre>` : ''
  }${part('request', ev?.request)}${part('response', ev?.response)}${ev?.details ? `<details class="rr"><summary>details</summary><pre>${h(JSON.stringify(ev.details, null, 2))}</pre></details>` : ''}</div>`;
}

function requirementEntry(q: Req): string {
  const a = anchors(q);
  const failed = q.status === 'failed';
  const obs = q.observations.map((o) => `<li>${h(o.note)}</li>`).join('');
  const evidence = q.evidence.map((e, i) => evidenceItem(e, failed && i === 0)).join('');
  return `<tbody class="req-item" id="${a.row}"><tr class="req" data-status="${q.status}" data-level="${h(q.level)}" data-api="${h(q.api)}" data-group="${h(q.group)}"><td><code>${h(q.id)}</code></td><td>${h(q.api)}<div class="sub">${h(q.group)}</div></td><td class="lv-${h(q.level)}">${h(q.level)}</td><td class="st-${q.status}">${q.status}${q.intermittent ? ' <span class="tag">intermittent</span>' : ''}</td><td>${h(q.summary)}</td><td>${q.passed}/${q.failed}</td></tr>
<tr class="detail"><td colspan="6"><details${failed ? ' open' : ''}><summary>clause, checks, evidence</summary><blockquote>${h(q.clause)}</blockquote><div class="sub">§ ${h(q.section)} · checks: ${q.checks.map((c) => `<code>${h(c)}</code>`).join(', ') || '—'}</div>${q.tolerance ? `<div><b>Tolerance:</b> ${h(q.tolerance)}</div>` : ''}${q.reason ? `<div><b>Reason:</b> ${h(q.reason)}</div>` : ''}${q.hint ? `<div><b>Hint:</b> ${h(q.hint)}</div>` : ''}${obs ? `<div><b>Observed:</b><ul>${obs}</ul></div>` : ''}<div class="evidence" id="${a.evidence}">${evidence}</div>${failed ? '<a class="back" href="#failed-must">↑ back to the failures</a>' : ''}</details></td></tr></tbody>`;
}

function checksSection(a: Api): string {
  const rows = a.checks
    .map(
      (c) =>
        `<tr><td><code>${h(c.id)}</code>${c.destructive ? ' <i>destructive</i>' : ''}</td><td>${h(c.outcome)}</td><td>${c.attempts}</td><td>${Math.round(c.ms)}</td><td>${c.requirements.map((q) => `<code>${h(q)}</code>`).join(' ')}</td></tr>`,
    )
    .join('');
  return `<details class="checks"><summary><b>Checks of ${h(a.api)}</b> (${a.checks.length}: ${a.checks.filter((c) => c.outcome === 'ran').length} ran)</summary><table><colgroup><col style="width:35%"><col style="width:11%"><col style="width:12%"><col style="width:8%"><col></colgroup><thead><tr><th>check</th><th>outcome</th><th>attempts</th><th>ms</th><th>requirements</th></tr></thead><tbody>${rows}</tbody></table></details>`;
}

function crossCheckSection(a: Api): string {
  const c = a.crossCheck;
  if (!c) return '';
  const items = [
    ...c.prismOnly.map((d) => `<li>Prism only: ${h(d.request)} → ${d.status}: ${h(d.prism.join('; '))}</li>`),
    ...c.suiteOnly.map((d) => `<li>suite only: ${h(d.request)} → ${d.status}: ${h(d.suite.join('; '))}</li>`),
  ];
  return `<h2>Prism proxy cross-check: ${h(a.api)}</h2><p>${c.agreed} of ${c.exchanges} answers judged alike by Prism and this suite.</p>${items.length ? `<ul>${items.join('')}</ul>` : ''}`;
}

function options(values: string[]): string {
  return ['<option value="">all</option>', ...[...new Set(values)].sort().map((v) => `<option>${h(v)}</option>`)].join('');
}

const targetOf = (a: Api) => (a.target.embedded ? `embedded reference implementation (${a.target.baseUrl})` : a.target.baseUrl);

export interface HtmlOptions {
  /** Only the first page: verdict, deployment, documents, counts, failed MUSTs (a PDF of at most 2 pages). */
  summaryOnly?: boolean;
}

const page = (r: ComplianceReport, body: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>Conformance report: ${verdictTitle(r.summary)}</title><style>${STYLE}</style></head>
<body>${body}</body></html>
`;

/**
 * One self-contained page: no external assets, so it can be attached to a ticket, opened offline or printed to PDF.
 * The first page says what was checked against what and the verdict, with the failed MUST requirements linked to
 * their evidence; then the contents, bars per API and group, the filterable table.
 */
export function renderHtml(r: ComplianceReport, o: HtmlOptions = {}): string {
  if (o.summaryOnly) return page(r, `${frontHeader(r)}\n<main>\n${failuresSection(r, true)}\n${summaryOnlyNote()}\n</main>`);
  const apis = r.apis
    .map(
      (a) =>
        `<dt>${h(a.api)}</dt><dd>${h(targetOf(a))} · spec sha256 <code>${h(a.specSha256.slice(0, 16))}</code> · ${a.stats.requests} requests · ${a.stats.assertions} assertions · ${(a.stats.ms / 1000).toFixed(1)} s · created ${a.cleanup.created}, removed ${a.cleanup.removed}${a.cleanup.failed.length ? `, cleanup failed: ${h(a.cleanup.failed.join('; '))}` : ''}</dd>`,
    )
    .join('');
  const observed = r.requirements.filter((q) => q.observations.length && q.level === 'unspecified');
  return page(
    r,
    `${frontHeader(r)}
<main>
${failuresSection(r)}
${contents()}
${barsSection(r)}
<h2 id="requirements">Requirements</h2>
<div class="filters"><label>status <select id="f-status">${options(['passed', 'failed', 'error', 'skipped', 'untested'])}</select></label><label>level <select id="f-level">${options(r.requirements.map((q) => q.level))}</select></label><label>API <select id="f-api">${options(r.requirements.map((q) => q.api))}</select></label><label>group <select id="f-group">${options(r.requirements.map((q) => q.group))}</select></label><label>search <input id="f-text" type="search" placeholder="id, text…"></label><span id="shown"></span></div>
<p class="print-only muted">All ${r.requirements.length} requirements, in catalogue order (pass/fail counts assertions). Reproducers, requests and responses are printed for failed requirements; those of the other evidence are in the HTML and JSON reports.</p>
<table id="reqs"><colgroup><col style="width:20%"><col style="width:13%"><col style="width:11%"><col style="width:11%"><col><col style="width:8%"></colgroup><thead><tr><th>id</th><th>API / group</th><th>level</th><th>status</th><th>requirement</th><th>pass/ fail</th></tr></thead>
${r.requirements.map(requirementEntry).join('\n')}
</table>
<h2 id="observed">Observed behaviour where the document says "not shown"</h2>
<ul>${observed.map((q) => `<li><code>${h(q.id)}</code>: ${q.observations.map((o) => h(o.note)).join('; ')}</li>`).join('') || '<li>none recorded</li>'}</ul>
<h2 id="checks">Checks</h2>
${r.apis.map(checksSection).join('')}
${r.apis.map(crossCheckSection).join('')}
<h2 id="run">Run</h2><dl><dt>started</dt><dd>${h(r.run.startedAt)}</dd><dt>duration</dt><dd>${(r.run.durationMs / 1000).toFixed(2)} s</dd><dt>seed</dt><dd><code>${r.run.seed}</code> (replay with CONFORMANCE_SEED=${r.run.seed})</dd>${r.run.only?.length ? `<dt>only</dt><dd>${r.run.only.map((o) => `<code>${h(o)}</code>`).join(' ')}</dd>` : ''}<dt>property runs</dt><dd>${r.run.runs}</dd><dt>retries</dt><dd>${r.run.retries}</dd><dt>destructive checks</dt><dd>${r.apis.map((a) => `${h(a.api)}: ${a.allowDestructive ? (a.target.embedded && !r.run.allowDestructive ? 'allowed (embedded implementation)' : 'allowed') : 'not allowed'}`).join(' · ')}</dd><dt>run tag</dt><dd><code>${h(r.run.runTag)}</code></dd><dt>tool</dt><dd>${h(r.tool.name)} ${h(r.tool.version)} on node ${h(r.run.node)}</dd><dt>config</dt><dd><code>${h(JSON.stringify(r.run.config))}</code></dd>${apis}</dl>
</main><script>${SCRIPT}</script>`,
  );
}
