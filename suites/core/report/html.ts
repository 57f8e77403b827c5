import type { AssertionRecord } from '../types';
import type { ComplianceReport } from './model';
import { barsSection } from './html-bars';
import { SCRIPT, STYLE } from './html-style';
import { anchors, h } from './html-text';
import { INTERRUPTED, verdictWord } from './verdict';

type Req = ComplianceReport['requirements'][number];
type Api = ComplianceReport['apis'][number];

/** Expected and actual side by side, for records that carry them. */
const facts = (e: AssertionRecord) =>
  e.expected === undefined && e.actual === undefined
    ? ''
    : `<dl class="facts"><dt>expected</dt><dd><code>${h(e.expected ?? '')}</code></dd><dt>actual</dt><dd><code>${h(e.actual ?? '')}</code></dd></dl>`;

function evidenceItem(e: AssertionRecord, open: boolean): string {
  const ev = e.evidence;
  const part = (label: string, text: string | undefined) => (text ? `<details class="rr"${open ? ' open' : ''}><summary>${label}</summary><pre>${h(text)}</pre></details>` : '');
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

function failureItem(q: Req): string {
  const first = q.evidence.find((e) => e.outcome === 'fail') ?? q.evidence[0];
  return `<li class="fm" data-api="${h(q.api)}" data-id="${h(q.id)}"><a class="fm-link" href="#${anchors(q).evidence}"><code>${h(q.id)}</code></a> <span class="muted">${h(q.api)} · ${h(q.group)}${q.level === 'MUST' ? '' : ` · ${h(q.level)}`}</span>${q.intermittent ? ' <span class="tag">intermittent</span>' : ''}<div>${h(q.summary)}</div>${
    first ? `<div class="fm-msg">${h(first.message)}${q.failed > 1 ? ` (${q.failed} failed assertions)` : ''}</div>${facts(first)}` : ''
  }${q.hint ? `<div class="fm-hint"><b>Hint:</b> ${h(q.hint)}</div>` : ''}</li>`;
}

/** The first block of the page: every failed MUST requirement, linked to its evidence; then the non-gating failures. */
function failuresSection(r: ComplianceReport): string {
  const failed = r.requirements.filter((q) => q.status === 'failed');
  const must = failed.filter((q) => q.level === 'MUST');
  const other = failed.filter((q) => q.level !== 'MUST');
  const m = r.summary.byLevel.MUST;
  const notRun =
    m.untested + m.skipped ? `<p class="muted">${m.untested} MUST requirement${m.untested === 1 ? ' was' : 's were'} untested and ${m.skipped} skipped: not verified, see the table.</p>` : '';
  const warnings = other.length ? `<div class="warnings"><h3>Other failures, not gating (${other.length})</h3><ol>${other.map(failureItem).join('')}</ol></div>` : '';
  if (!must.length)
    return `<section id="failed-must" class="attention none"><h2>No MUST requirement failed</h2><p>${m.passed} of ${m.total} MUST requirements passed.</p>${notRun}${warnings}</section>`;
  return `<section id="failed-must" class="attention"><h2>Failed MUST requirements (${must.length})</h2><p class="muted">These fail the run. Each links to its evidence: curl reproducer, request and response.</p><ol>${must.map(failureItem).join('')}</ol>${notRun}${warnings}</section>`;
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

/**
 * One self-contained page: no external assets, so it can be attached to a ticket, opened offline or printed to PDF.
 * Failed MUST requirements come first, linked to their evidence; bars per API and group; the filterable table.
 */
export function renderHtml(r: ComplianceReport): string {
  const s = r.summary;
  const apis = r.apis
    .map(
      (a) =>
        `<dt>${h(a.api)}</dt><dd>${h(targetOf(a))} · spec sha256 <code>${h(a.specSha256.slice(0, 16))}</code> · ${a.stats.requests} requests · ${a.stats.assertions} assertions · ${(a.stats.ms / 1000).toFixed(1)} s · created ${a.cleanup.created}, removed ${a.cleanup.removed}${a.cleanup.failed.length ? `, cleanup failed: ${h(a.cleanup.failed.join('; '))}` : ''}</dd>`,
    )
    .join('');
  const observed = r.requirements.filter((q) => q.observations.length && q.level === 'unspecified');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>Conformance report: ${verdictWord(s)}</title><style>${STYLE}</style></head>
<body><header><h1>Conformance report: <span class="${verdictWord(s) === 'PASS' ? 'pass' : 'fail'}">${verdictWord(s)}</span></h1>${s.gate === 'incomplete' ? `<p class="fail"><b>${h(INTERRUPTED)}</b></p>` : ''}
<div>${h(r.apis.map((a) => a.title).join(' · '))}</div>
<div class="run-line">${r.apis.map((a) => `${h(a.api)}: ${h(targetOf(a))}`).join(' · ')} · started ${h(r.run.startedAt)} · seed <code>${r.run.seed}</code> · ${h(r.tool.name)} ${h(r.tool.version)}</div>
<div class="cards"><div class="card"><b>${s.passed}</b>passed</div><div class="card"><b${s.byLevel.MUST.failed ? ' class="fail"' : ''}>${s.byLevel.MUST.failed}</b>failed (MUST)</div><div class="card"><b>${s.warnings}</b>warnings (SHOULD)</div>${s.error ? `<div class="card"><b class="fail">${s.error}</b>tool errors (no verdict)</div>` : ''}<div class="card"><b>${s.untested}</b>untested</div><div class="card"><b>${s.skipped}</b>skipped</div><div class="card"><b>${s.total}</b>requirements</div><div class="card"><b>${s.intermittent}</b>intermittent</div></div></header>
<main>
${failuresSection(r)}
${barsSection(r)}
<h2 id="requirements">Requirements</h2>
<div class="filters"><label>status <select id="f-status">${options(['passed', 'failed', 'error', 'skipped', 'untested'])}</select></label><label>level <select id="f-level">${options(r.requirements.map((q) => q.level))}</select></label><label>API <select id="f-api">${options(r.requirements.map((q) => q.api))}</select></label><label>group <select id="f-group">${options(r.requirements.map((q) => q.group))}</select></label><label>search <input id="f-text" type="search" placeholder="id, text…"></label><span id="shown"></span></div>
<p class="print-only muted">All ${r.requirements.length} requirements, in catalogue order (pass/fail counts assertions). Reproducers, requests and responses are printed for failed requirements; those of the other evidence are in the HTML and JSON reports.</p>
<table id="reqs"><colgroup><col style="width:20%"><col style="width:13%"><col style="width:11%"><col style="width:11%"><col><col style="width:8%"></colgroup><thead><tr><th>id</th><th>API / group</th><th>level</th><th>status</th><th>requirement</th><th>pass/ fail</th></tr></thead>
${r.requirements.map(requirementEntry).join('\n')}
</table>
<h2>Observed behaviour where the document says "not shown"</h2>
<ul>${observed.map((q) => `<li><code>${h(q.id)}</code>: ${q.observations.map((o) => h(o.note)).join('; ')}</li>`).join('') || '<li>none recorded</li>'}</ul>
<h2>Checks</h2>
${r.apis.map(checksSection).join('')}
${r.apis.map(crossCheckSection).join('')}
<h2>Run</h2><dl><dt>started</dt><dd>${h(r.run.startedAt)}</dd><dt>duration</dt><dd>${(r.run.durationMs / 1000).toFixed(2)} s</dd><dt>seed</dt><dd><code>${r.run.seed}</code> (replay with CONFORMANCE_SEED=${r.run.seed})</dd>${r.run.only?.length ? `<dt>only</dt><dd>${r.run.only.map((o) => `<code>${h(o)}</code>`).join(' ')}</dd>` : ''}<dt>property runs</dt><dd>${r.run.runs}</dd><dt>retries</dt><dd>${r.run.retries}</dd><dt>destructive checks</dt><dd>${r.apis.map((a) => `${h(a.api)}: ${a.allowDestructive ? (a.target.embedded && !r.run.allowDestructive ? 'allowed (embedded implementation)' : 'allowed') : 'not allowed'}`).join(' · ')}</dd><dt>run tag</dt><dd><code>${h(r.run.runTag)}</code></dd><dt>tool</dt><dd>${h(r.tool.name)} ${h(r.tool.version)} on node ${h(r.run.node)}</dd><dt>config</dt><dd><code>${h(JSON.stringify(r.run.config))}</code></dd>${apis}</dl>
</main><script>${SCRIPT}</script></body></html>
`;
}
