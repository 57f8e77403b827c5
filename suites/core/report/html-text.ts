import type { AssertionRecord } from '../types';

/** Escapes text for HTML element content and attribute values. */
export const h = (s: unknown) =>
  String(s ?? '').replace(/[<>&"']/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&#39;' })[c]!);

const slug = (s: string) => s.replace(/[^A-Za-z0-9_-]+/g, '_');

/** Element ids of one requirement: its table entry and its evidence (the target of the links in the failure summary). */
export const anchors = (q: { api: string; id: string }) => ({
  row: `req-${slug(q.api)}-${slug(q.id)}`,
  evidence: `ev-${slug(q.api)}-${slug(q.id)}`,
});

/** Expected and actual side by side, for records that carry them. */
export const facts = (e: AssertionRecord) =>
  e.expected === undefined && e.actual === undefined
    ? ''
    : `<dl class="facts"><dt>expected</dt><dd><code>${h(e.expected ?? '')}</code></dd><dt>actual</dt><dd><code>${h(e.actual ?? '')}</code></dd></dl>`;
