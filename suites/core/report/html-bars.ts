import type { Status } from '../types';
import { countOf, type ComplianceReport, type Counts } from './model';
import { h } from './html-text';

/** Bar order and legend: what needs attention comes right after what passed. */
const BAR_STATUSES: Status[] = ['passed', 'failed', 'error', 'untested', 'skipped'];

/**
 * One stacked bar as inline SVG (fills print without "background graphics", unlike CSS backgrounds), stretched to
 * the width of its cell. Every segment carries a tooltip; the counts are also written out next to the bar.
 */
function bar(c: Counts, label: string): string {
  const W = 1000;
  let x = 0;
  const rects = BAR_STATUSES.filter((s) => c[s] > 0)
    .map((s) => {
      const w = (c[s] / c.total) * W;
      const rect = `<rect class="seg-${s}" data-status="${s}" x="${x.toFixed(2)}" y="0" width="${w.toFixed(2)}" height="10"><title>${h(label)}: ${c[s]} ${s}</title></rect>`;
      x += w;
      return rect;
    })
    .join('');
  const empty = c.total ? '' : `<rect class="seg-empty" x="0" y="0" width="${W}" height="10"></rect>`;
  return `<svg class="bar" viewBox="0 0 ${W} 10" preserveAspectRatio="none" role="img" aria-label="${h(`${label}: ${BAR_STATUSES.map((s) => `${c[s]} ${s}`).join(', ')}`)}">${empty}${rects}</svg>`;
}

function counts(c: Counts): string {
  // Tool errors are rare: their count is shown only where there are some, to keep the row short.
  return BAR_STATUSES.filter((s) => s !== 'error' || c.error > 0)
    .map((s) => `<span class="n n-${s}${c[s] ? '' : ' zero'}" data-status="${s}"><b>${c[s]}</b> ${s}</span>`)
    .join(' ');
}

function row(kind: 'api' | 'group', api: string, group: string | undefined, label: string, c: Counts): string {
  const data = `data-api="${h(api)}"${group === undefined ? '' : ` data-group="${h(group)}"`} ${BAR_STATUSES.map((s) => `data-${s}="${c[s]}"`).join(' ')} data-total="${c.total}"`;
  return `<div class="bar-row bar-${kind}" ${data}><a class="bar-label" href="#requirements" title="show these requirements in the table">${h(label)}</a><span class="bar-total">${c.total}</span>${bar(c, kind === 'api' ? api : `${api} · ${group}`)}<span class="bar-counts">${counts(c)}</span></div>`;
}

/** Passed / failed / untested / skipped per API, then per group of that API (groups in catalogue order). */
export function barsSection(r: ComplianceReport): string {
  const apis = r.apis.map((a) => a.api);
  for (const q of r.requirements) if (!apis.includes(q.api)) apis.push(q.api);
  const blocks = apis.map((api) => {
    const reqs = r.requirements.filter((q) => q.api === api);
    const groups = [...new Set(reqs.map((q) => q.group))];
    const title = r.apis.find((a) => a.api === api)?.title;
    return `<section class="bars-api" data-api="${h(api)}"><h3>${h(api)}${title ? ` <span class="muted">${h(title)}</span>` : ''}</h3>${row('api', api, undefined, `all ${api}`, countOf(reqs))}<div class="bars-groups">${groups.map((g) => row('group', api, g, g, countOf(reqs.filter((q) => q.group === g)))).join('')}</div></section>`;
  });
  const legend = BAR_STATUSES.map(
    (s) =>
      `<span class="key"><svg viewBox="0 0 10 10" width="10" height="10" aria-hidden="true"><rect class="seg-${s}" width="10" height="10"></rect></svg> ${s}</span>`,
  ).join('');
  return `<section id="bars"><h2>Results by API and group</h2><div class="legend">${legend}<span class="muted">requirements of every level<span class="noprint">; a label filters the table</span></span></div>${blocks.join('')}</section>`;
}
