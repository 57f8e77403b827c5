import type { Exchange } from './types';

/** Where Prism and the suite's own validator judged the same answers differently (--via-prism-proxy). */
export interface CrossCheck {
  exchanges: number;
  agreed: number;
  prismOnly: { request: string; status: number; prism: string[] }[];
  suiteOnly: { request: string; status: number; suite: string[] }[];
}

const MAX_DISAGREEMENTS = 50;

/** Prism reports response violations in the `sl-violations` header; the two validators should agree on each answer. */
export function compareWithPrism(cc: CrossCheck, ex: Exchange, suite: string[]): void {
  let prism: string[] = [];
  try {
    const all = JSON.parse(ex.headers['sl-violations'] ?? '[]') as { location?: string[]; message?: string }[];
    prism = all.filter((v) => v.location?.[0] === 'response').map((v) => `${(v.location ?? []).join('.')}: ${v.message ?? ''}`);
  } catch {
    prism = [`unreadable sl-violations header: ${ex.headers['sl-violations']}`];
  }
  cc.exchanges++;
  const request = `${ex.request.method} ${new URL(ex.request.url).pathname}`;
  if (Boolean(prism.length) === Boolean(suite.length)) cc.agreed++;
  else if (prism.length && cc.prismOnly.length < MAX_DISAGREEMENTS) cc.prismOnly.push({ request, status: ex.status, prism });
  else if (suite.length && cc.suiteOnly.length < MAX_DISAGREEMENTS) cc.suiteOnly.push({ request, status: ex.status, suite });
}
