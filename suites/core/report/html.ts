import type { ComplianceReport } from './model';

const h = (s: unknown) => String(s ?? '').replace(/[<>&"']/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&#39;' })[c]!);

const STYLE = `
body{font:14px/1.45 system-ui,sans-serif;margin:0;color:#1b1f24;background:#f6f8fa}
header{padding:16px 24px;background:#fff;border-bottom:1px solid #d0d7de}
main{padding:16px 24px}
h1{margin:0 0 4px;font-size:22px}.pass{color:#1a7f37}.fail{color:#cf222e}
.cards{display:flex;gap:12px;flex-wrap:wrap;margin:12px 0}.card{background:#fff;border:1px solid #d0d7de;border-radius:6px;padding:8px 14px}
.card b{display:block;font-size:20px}
table{border-collapse:collapse;width:100%;background:#fff}th,td{border:1px solid #d0d7de;padding:5px 8px;text-align:left;vertical-align:top}
th{background:#eaeef2;position:sticky;top:0}
.st-passed{color:#1a7f37}.st-failed{color:#cf222e;font-weight:600}.st-skipped,.st-untested{color:#9a6700}
.filters{display:flex;gap:8px;flex-wrap:wrap;margin:12px 0}select,input{font:inherit;padding:3px 6px}
pre{white-space:pre-wrap;word-break:break-all;background:#f6f8fa;border:1px solid #d0d7de;padding:6px;margin:4px 0;max-height:260px;overflow:auto}
details{margin:2px 0}blockquote{margin:4px 0;padding-left:8px;border-left:3px solid #d0d7de;color:#57606a}
dl{display:grid;grid-template-columns:max-content 1fr;gap:2px 12px}dt{font-weight:600}dd{margin:0}
`;

const SCRIPT = `
(function(){
  var rows=[].slice.call(document.querySelectorAll('#reqs tbody tr.req'));
  var f={status:document.getElementById('f-status'),level:document.getElementById('f-level'),api:document.getElementById('f-api'),group:document.getElementById('f-group'),text:document.getElementById('f-text')};
  function apply(){
    var shown=0,t=f.text.value.toLowerCase();
    rows.forEach(function(r){
      var ok=(!f.status.value||r.dataset.status===f.status.value)&&(!f.level.value||r.dataset.level===f.level.value)&&(!f.api.value||r.dataset.api===f.api.value)&&(!f.group.value||r.dataset.group===f.group.value)&&(!t||r.textContent.toLowerCase().indexOf(t)>=0);
      r.style.display=ok?'':'none';var d=r.nextElementSibling;if(d&&d.classList.contains('detail'))d.style.display=ok?'':'none';if(ok)shown++;
    });
    document.getElementById('shown').textContent=shown+' of '+rows.length+' requirements';
  }
  Object.keys(f).forEach(function(k){f[k].addEventListener(k==='text'?'input':'change',apply);});
  apply();
})();
`;

function checksSection(a: ComplianceReport['apis'][number]): string {
  const rows = a.checks
    .map((c) => `<tr><td><code>${h(c.id)}</code>${c.destructive ? ' <i>destructive</i>' : ''}</td><td>${h(c.outcome)}</td><td>${c.attempts}</td><td>${Math.round(c.ms)}</td><td>${c.requirements.map((q) => `<code>${h(q)}</code>`).join(' ')}</td></tr>`)
    .join('');
  return `<details><summary><b>Checks of ${h(a.api)}</b> (${a.checks.length}: ${a.checks.filter((c) => c.outcome === 'ran').length} ran)</summary><table><thead><tr><th>check</th><th>outcome</th><th>attempts</th><th>ms</th><th>requirements</th></tr></thead><tbody>${rows}</tbody></table></details>`;
}

function crossCheckSection(a: ComplianceReport['apis'][number]): string {
  const c = a.crossCheck;
  if (!c) return '';
  const items = [...c.prismOnly.map((d) => `<li>Prism only: ${h(d.request)} → ${d.status}: ${h(d.prism.join('; '))}</li>`), ...c.suiteOnly.map((d) => `<li>suite only: ${h(d.request)} → ${d.status}: ${h(d.suite.join('; '))}</li>`)];
  return `<h2>Prism proxy cross-check: ${h(a.api)}</h2><p>${c.agreed} of ${c.exchanges} answers judged alike by Prism and this suite.</p>${items.length ? `<ul>${items.join('')}</ul>` : ''}`;
}

function options(values: string[]): string {
  return ['<option value="">all</option>', ...[...new Set(values)].sort().map((v) => `<option>${h(v)}</option>`)].join('');
}

/** One self-contained page: no external assets, so it can be attached to a ticket or opened offline. */
export function renderHtml(r: ComplianceReport): string {
  const s = r.summary;
  const reqRows = r.requirements
    .map((q) => {
      const evidence = q.evidence
        .map((e) => `<div><b>${h(e.outcome)}</b> ${h(e.message)}${e.intermittent ? ' <i>(intermittent: passed on re-run)</i>' : ''}<div>check <code>${h(e.check)}</code></div>${e.evidence?.curl ? `<pre>${h(e.evidence.curl)}</pre>` : ''}${e.evidence?.request ? `<details><summary>request</summary><pre>${h(e.evidence.request)}</pre></details>` : ''}${e.evidence?.response ? `<details><summary>response</summary><pre>${h(e.evidence.response)}</pre></details>` : ''}${e.evidence?.details ? `<details><summary>details</summary><pre>${h(JSON.stringify(e.evidence.details, null, 2))}</pre></details>` : ''}</div>`)
        .join('');
      const obs = q.observations.map((o) => `<li>${h(o.note)}</li>`).join('');
      return `<tr class="req" data-status="${q.status}" data-level="${h(q.level)}" data-api="${h(q.api)}" data-group="${h(q.group)}"><td><code>${h(q.id)}</code></td><td>${h(q.api)}</td><td>${h(q.group)}</td><td>${h(q.level)}</td><td class="st-${q.status}">${q.status}${q.intermittent ? ' (intermittent)' : ''}</td><td>${h(q.summary)}</td><td>${q.passed}/${q.failed}</td></tr>
<tr class="detail"><td colspan="7"><details${q.status === 'failed' ? ' open' : ''}><summary>clause, checks, evidence</summary><blockquote>${h(q.clause)}</blockquote><div>§ ${h(q.section)} · checks: ${q.checks.map((c) => `<code>${h(c)}</code>`).join(', ') || '—'}</div>${q.tolerance ? `<div><b>Tolerance:</b> ${h(q.tolerance)}</div>` : ''}${q.reason ? `<div><b>Reason:</b> ${h(q.reason)}</div>` : ''}${obs ? `<div><b>Observed:</b><ul>${obs}</ul></div>` : ''}${evidence}</details></td></tr>`;
    })
    .join('\n');
  const apis = r.apis
    .map((a) => `<dt>${h(a.api)}</dt><dd>${h(a.target.embedded ? `embedded reference implementation (${a.target.baseUrl})` : a.target.baseUrl)} · spec sha256 <code>${h(a.specSha256.slice(0, 16))}</code> · ${a.stats.requests} requests · ${a.stats.assertions} assertions · ${(a.stats.ms / 1000).toFixed(1)} s · created ${a.cleanup.created}, removed ${a.cleanup.removed}${a.cleanup.failed.length ? `, cleanup failed: ${h(a.cleanup.failed.join('; '))}` : ''}</dd>`)
    .join('');
  const observed = r.requirements.filter((q) => q.observations.length && q.level === 'unspecified');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>Conformance report: ${s.gate.toUpperCase()}</title><style>${STYLE}</style></head>
<body><header><h1>Conformance report: <span class="${s.gate}">${s.gate === 'pass' ? 'PASS' : 'FAIL'}</span></h1>
<div>${h(r.apis.map((a) => a.title).join(' · '))}</div>
<div class="cards"><div class="card"><b>${s.passed}</b>passed</div><div class="card"><b class="fail">${s.failed}</b>failed (${s.byLevel.MUST.failed} MUST, ${s.warnings} SHOULD warnings)</div><div class="card"><b>${s.untested}</b>untested</div><div class="card"><b>${s.skipped}</b>skipped</div><div class="card"><b>${s.total}</b>requirements</div><div class="card"><b>${s.intermittent}</b>intermittent</div></div></header>
<main>
<h2>Run</h2><dl><dt>started</dt><dd>${h(r.run.startedAt)}</dd><dt>duration</dt><dd>${(r.run.durationMs / 1000).toFixed(2)} s</dd><dt>seed</dt><dd><code>${r.run.seed}</code> (replay with CONFORMANCE_SEED=${r.run.seed})</dd><dt>property runs</dt><dd>${r.run.runs}</dd><dt>retries</dt><dd>${r.run.retries}</dd><dt>destructive checks</dt><dd>${r.apis.map((a) => `${h(a.api)}: ${a.allowDestructive ? (a.target.embedded && !r.run.allowDestructive ? 'allowed (embedded implementation)' : 'allowed') : 'not allowed'}`).join(' · ')}</dd><dt>run tag</dt><dd><code>${h(r.run.runTag)}</code></dd><dt>tool</dt><dd>${h(r.tool.name)} ${h(r.tool.version)} on node ${h(r.run.node)}</dd><dt>config</dt><dd><code>${h(JSON.stringify(r.run.config))}</code></dd>${apis}</dl>
<h2>Requirements</h2>
<div class="filters"><label>status <select id="f-status">${options(['passed', 'failed', 'skipped', 'untested'])}</select></label><label>level <select id="f-level">${options(r.requirements.map((q) => q.level))}</select></label><label>API <select id="f-api">${options(r.requirements.map((q) => q.api))}</select></label><label>group <select id="f-group">${options(r.requirements.map((q) => q.group))}</select></label><label>search <input id="f-text" type="search" placeholder="id, text…"></label><span id="shown"></span></div>
<table id="reqs"><thead><tr><th>id</th><th>API</th><th>group</th><th>level</th><th>status</th><th>requirement</th><th>pass/fail</th></tr></thead><tbody>
${reqRows}
</tbody></table>
${r.apis.map(checksSection).join('')}
${r.apis.map(crossCheckSection).join('')}
<h2>Observed behaviour where the document says "not shown"</h2>
<ul>${observed.map((q) => `<li><code>${h(q.id)}</code>: ${q.observations.map((o) => h(o.note)).join('; ')}</li>`).join('') || '<li>none recorded</li>'}</ul>
</main><script>${SCRIPT}</script></body></html>
`;
}
