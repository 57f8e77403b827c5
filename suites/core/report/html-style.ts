/**
 * Style and behaviour of the HTML report, inlined into the page (no external assets). The page is laid out to read
 * at 800 px without scrolling sideways, and prints to PDF complete: no filter controls, every requirement shown
 * whatever the filters, collapsed sections expanded, rows kept whole, colours kept.
 */
export const STYLE = `
*,*::before,*::after{box-sizing:border-box}
:root{--pass:#1a7f37;--fail:#cf222e;--untested:#9a6700;--skipped:#57606a;--border:#d0d7de;--muted:#57606a;--link:#0969da}
html{-webkit-print-color-adjust:exact;print-color-adjust:exact}
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;margin:0;color:#1b1f24;background:#f6f8fa;overflow-wrap:break-word}
header{padding:16px 24px;background:#fff;border-bottom:1px solid var(--border)}
main{padding:4px 24px 24px;max-width:1400px}
h1{margin:0 0 4px;font-size:22px}h2{font-size:18px;margin:22px 0 8px}h3{font-size:15px;margin:0 0 6px}
a{color:var(--link)}.muted{color:var(--muted);font-weight:normal}
.pass{color:var(--pass)}.fail{color:var(--fail)}.partial{color:var(--untested)}
.run-line{color:var(--muted);font-size:.93em}
.cards{display:flex;gap:10px;flex-wrap:wrap;margin:12px 0 0}.card{background:#fff;border:1px solid var(--border);border-radius:6px;padding:6px 12px;min-width:88px}
.card b{display:block;font-size:20px}
.label{font-size:1.1em;font-weight:600;margin:2px 0 6px}
dl.front{margin:8px 0 0;font-size:.93em}dl.front dd>div+div{margin-top:3px}.sha code{font-size:.82em}
nav#contents{background:#fff;border:1px solid var(--border);border-radius:6px;padding:6px 16px;margin:16px 0}nav#contents h2{margin:0 0 4px;font-size:15px}nav#contents ol{margin:0;padding-left:22px}
.fm-hint{font-size:.93em;color:#9a6700}
code,pre{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,"DejaVu Sans Mono",monospace}
code{font-size:.9em;overflow-wrap:anywhere}
pre{font-size:.86em;line-height:1.4;white-space:pre-wrap;overflow-wrap:anywhere;background:#f6f8fa;border:1px solid var(--border);border-radius:4px;padding:6px 8px;margin:4px 0;max-height:260px;overflow:auto}
pre.curl{background:#fff8c5;border-color:#d4a72c}
.lbl{font-size:.86em;color:var(--muted);margin-top:4px}
blockquote{margin:4px 0;padding-left:8px;border-left:3px solid var(--border);color:var(--muted)}
.facts{margin:4px 0;font-size:.93em}
dl{display:grid;grid-template-columns:max-content minmax(0,1fr);gap:2px 12px}dt{font-weight:600}dd{margin:0;overflow-wrap:anywhere}
.tag{display:inline-block;font-size:.8em;border:1px solid currentColor;border-radius:10px;padding:0 6px;color:#9a6700}

/* what failed, first */
.attention{background:#fff;border:1px solid var(--border);border-left:6px solid var(--fail);border-radius:6px;padding:10px 16px;margin:16px 0}
.attention.none{border-left-color:var(--pass)}
.attention h2{margin:0 0 4px}.attention p{margin:0 0 6px}
.attention ol{margin:0;padding-left:24px}.attention li{margin:8px 0}
.fm-msg{font-size:.93em;color:var(--muted)}
.warnings h3{margin:12px 0 0;font-size:1em}

/* bars */
.legend{display:flex;gap:6px 14px;flex-wrap:wrap;align-items:center;font-size:.86em;margin-bottom:6px}.key svg{vertical-align:-1px}
.bars-api{background:#fff;border:1px solid var(--border);border-radius:6px;padding:8px 12px;margin:8px 0}
.bars-groups{display:grid;grid-template-columns:repeat(auto-fill,minmax(560px,1fr));gap:0 28px}
.bar-row{display:grid;grid-template-columns:minmax(0,10em) 2.4em minmax(60px,1fr) 24em;gap:8px;align-items:center;padding:1px 0;font-size:.93em}
.bar-row.bar-api{font-weight:600;padding-bottom:6px;margin-bottom:4px;border-bottom:1px solid #eaeef2}
.bar-label{color:inherit;text-decoration:none;overflow:hidden;text-overflow:ellipsis;white-space:nowrap}.bar-label:hover{text-decoration:underline;color:var(--link)}
.bar-total{text-align:right;color:var(--muted);font-variant-numeric:tabular-nums}
svg.bar{display:block;width:100%;height:12px;border-radius:3px}
.bar-counts{font-size:.92em;white-space:nowrap;font-weight:normal;font-variant-numeric:tabular-nums}.bar-counts .n{display:inline-block;margin-left:4px}.n-passed{min-width:6.3em}.n-failed{min-width:4.8em}.n-untested{min-width:6.6em}.n-skipped{min-width:6.3em}.bar-counts .zero{color:#8c959f}
.n-passed:not(.zero) b{color:var(--pass)}.n-failed:not(.zero) b{color:var(--fail)}.n-untested:not(.zero) b{color:var(--untested)}.n-error:not(.zero) b{color:#8250df}
.seg-passed{fill:#2da44e}.seg-failed{fill:#cf222e}.seg-untested{fill:#d4a72c}.seg-skipped{fill:#8c959f}.seg-error{fill:#8250df}.seg-empty{fill:#eaeef2}

/* requirement table */
table{border-collapse:collapse;width:100%;background:#fff;table-layout:fixed}
th,td{border:1px solid var(--border);padding:5px 8px;text-align:left;vertical-align:top}
th{background:#eaeef2;position:sticky;top:0;z-index:1;box-shadow:inset 0 -1px 0 var(--border)}
.checks table{font-size:.93em}
.sub{color:var(--muted);font-size:.86em}
.lv-MUST{font-weight:600}
.st-passed{color:var(--pass)}.st-failed{color:var(--fail);font-weight:600}.st-untested{color:var(--untested)}.st-skipped{color:var(--skipped)}.st-error{color:#8250df;font-weight:600}
tbody.req-item:has(.st-failed) tr.req{background:#ffebe9}
tr.detail>td{background:#fbfcfd;padding:3px 10px 6px}
details{margin:2px 0}summary{cursor:pointer;color:var(--muted)}
.evidence{scroll-margin-top:64px}.evidence:target{outline:2px solid var(--link);outline-offset:3px;border-radius:2px}
.ev{border-left:3px solid var(--border);padding:2px 0 2px 8px;margin:8px 0}.ev-fail{border-left-color:var(--fail)}.ev-pass{border-left-color:#2da44e}
.ev-fail>.ev-head b{color:var(--fail)}
.back{font-size:.86em}
.filters{display:flex;gap:8px 12px;flex-wrap:wrap;align-items:center;margin:8px 0}select,input{font:inherit;padding:3px 6px;max-width:100%}
#shown{color:var(--muted)}
.print-only{display:none}

@media print{
  @page{margin:12mm 10mm}
  body{background:#fff}
  header{padding:0 0 8px}main{padding:0;max-width:none}
  .filters,#shown,.back,.noprint{display:none!important}
  .print-only{display:block}
  /* the printout is the whole report, whatever the filters on screen */
  #reqs tbody.req-item{display:table-row-group!important}
  th{position:static}thead{display:table-header-group}
  /* collapsed sections print expanded (Chromium; the beforeprint handler opens them in other browsers) */
  details::details-content{content-visibility:visible;display:block}
  details>summary{list-style:none;cursor:auto}details>summary::-webkit-details-marker{display:none}
  tr.detail>td>details>summary{display:none}
  details details>summary{font-size:.9em;font-weight:600}
  pre{max-height:none;overflow:visible}
  /* exchanges in full for failures only: the printout stays a document to hand on, not a traffic dump */
  .ev:not(.ev-fail) details.rr,.ev:not(.ev-fail) .lbl,.ev:not(.ev-fail) pre.curl{display:none}
  body{font-size:10.5px}h1{font-size:19px}h2{font-size:15px;margin:14px 0 6px}th,td{padding:3px 6px}.ev{margin:4px 0}blockquote{margin:2px 0}
  tbody.req-item,tr,.ev,.ev-head,.attention li,.bar-row,.bars-api,.card,dt,dd{break-inside:avoid}
  tr.req{break-after:avoid}
  h2,h3,.legend,.lbl,.ev-head,summary,.print-only{break-after:avoid}
  a{color:inherit;text-decoration:none}
  .attention a{text-decoration:underline}
  .bars-groups{grid-template-columns:1fr}
}
`;

export const SCRIPT = `
(function(){
  var items=[].slice.call(document.querySelectorAll('#reqs tbody.req-item'));
  var f={status:document.getElementById('f-status'),level:document.getElementById('f-level'),api:document.getElementById('f-api'),group:document.getElementById('f-group'),text:document.getElementById('f-text')};
  function apply(){
    var shown=0,t=f.text.value.toLowerCase();
    items.forEach(function(b){
      var r=b.querySelector('tr.req');
      var ok=(!f.status.value||r.dataset.status===f.status.value)&&(!f.level.value||r.dataset.level===f.level.value)&&(!f.api.value||r.dataset.api===f.api.value)&&(!f.group.value||r.dataset.group===f.group.value)&&(!t||r.textContent.toLowerCase().indexOf(t)>=0);
      b.style.display=ok?'':'none';if(ok)shown++;
    });
    document.getElementById('shown').textContent=shown+' of '+items.length+' requirements';
  }
  function reset(){Object.keys(f).forEach(function(k){f[k].value='';});apply();}
  /* a link to evidence works whatever the filters and whichever sections were collapsed */
  function reveal(id){
    var el=id&&document.getElementById(id);if(!el)return null;
    var item=el.closest('tbody.req-item');
    if(item&&item.style.display==='none')reset();
    for(var d=el;d;d=d.parentElement)if(d.tagName==='DETAILS')d.open=true;
    return el;
  }
  Object.keys(f).forEach(function(k){f[k].addEventListener(k==='text'?'input':'change',apply);});
  document.addEventListener('click',function(e){
    var a=e.target.closest&&e.target.closest('a[href^="#"]');if(!a)return;
    var row=a.closest('.bar-row');
    if(row){f.status.value='';f.level.value='';f.text.value='';f.api.value=row.dataset.api||'';f.group.value=row.dataset.group||'';apply();return;}
    reveal(decodeURIComponent(a.getAttribute('href').slice(1)));
  });
  window.addEventListener('hashchange',function(){reveal(decodeURIComponent(location.hash.slice(1)));});
  var closed=[];
  window.addEventListener('beforeprint',function(){closed=[].filter.call(document.querySelectorAll('details'),function(d){return !d.open;});closed.forEach(function(d){d.open=true;});});
  window.addEventListener('afterprint',function(){closed.forEach(function(d){d.open=false;});closed=[];});
  apply();
  if(location.hash){var el=reveal(decodeURIComponent(location.hash.slice(1)));if(el)el.scrollIntoView();}
})();
`;
