import type { Evidence, Exchange, Principal } from './types';

const EXCERPT = 2000;
const excerpt = (s: string) => (s.length > EXCERPT ? `${s.slice(0, EXCERPT)}… (${s.length} chars)` : s);
const shellQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** A ready-to-run curl command; credentials appear only as environment variable references. */
function curlOf(ex: Exchange, principal: Principal | undefined): string {
  const parts = ['curl', '-sS', '-i'];
  if (ex.request.url.startsWith('https:')) parts.push('-k');
  parts.push('-X', ex.request.method, shellQuote(ex.request.url));
  for (const [k, v] of Object.entries(ex.request.headers)) {
    if (k.toLowerCase() === 'authorization') continue;
    parts.push('-H', shellQuote(`${k}: ${v}`));
  }
  if (principal?.authorization && ex.request.headers.authorization !== undefined)
    parts.push(principal.curlAuth ?? "-H 'Authorization: ***'");
  else if (ex.request.headers.authorization !== undefined)
    parts.push('-H', shellQuote(`Authorization: ${ex.request.headers.authorization}`));
  if (ex.request.body !== undefined) parts.push('--data-raw', shellQuote(ex.request.body));
  return parts.join(' ');
}

export function evidenceOf(ex: Exchange | undefined, principal: Principal | undefined, details?: unknown): Evidence {
  if (!ex) return details === undefined ? {} : { details };
  const reqHeaders = Object.entries(ex.request.headers)
    .map(([k, v]) => `${k}: ${k.toLowerCase() === 'authorization' ? '***' : v}`)
    .join('\n');
  const resHeaders = ['content-type', 'location', 'allow']
    .filter((h) => ex.headers[h] !== undefined)
    .map((h) => `${h}: ${ex.headers[h]}`)
    .join('\n');
  return {
    curl: curlOf(ex, principal),
    request: excerpt(
      `${ex.request.method} ${ex.request.url}\n${reqHeaders}${ex.request.body !== undefined ? `\n\n${ex.request.body}` : ''}`,
    ),
    response: excerpt(`HTTP ${ex.status}${resHeaders ? `\n${resHeaders}` : ''}\n\n${ex.text}`),
    ...(details === undefined ? {} : { details }),
  };
}
