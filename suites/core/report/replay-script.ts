import type { SentRequest } from '../sequence';
import type { ComplianceReport } from './model';

type Req = ComplianceReport['requirements'][number];

const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** The check whose case failed: a response validated under the response check names the check that sent it. */
const caseOf = (e: Req['evidence'][number]) => e.seenIn ?? e.check;

/** The checks whose cases failed the requirement, in the order the report lists their failures. */
export const failingChecks = (q: Req) => [...new Set(q.evidence.filter((e) => e.outcome === 'fail' || e.outcome === 'error').map(caseOf))];

/** The variables a credential argument reads: `-u "$OPS_USERNAME:$OPS_PASSWORD"` reads both. */
const variablesOf = (auth: string | undefined) => [...(auth ?? '').matchAll(/\$([A-Z][A-Z0-9_]*)/g)].map((m) => m[1]);

/** One request as a curl command, the target's address left to $BASE so the script can be pointed elsewhere. */
function curlLine(s: SentRequest, base: string, n: number): string[] {
  const notes = [`# ${n}. ${s.role ? `as ${s.role}${s.auth ? ` (${variablesOf(s.auth).join(', ')})` : ''}` : 'without credentials'}`];
  if (s.bodyBytes !== undefined) notes.push(`#    its body (${s.bodyBytes} bytes) was too large to keep: it is sent without one`);
  if (s.otherCredential) notes.push('#    it carried a credential under another scheme, which is not kept: add it to replay exactly');
  const url = s.url.startsWith(base) ? `"$BASE"${quote(s.url.slice(base.length))}` : quote(s.url);
  const parts = ['curl', '-sS', '-i', ...(s.url.startsWith('https:') ? ['-k'] : []), '-X', s.method, url];
  for (const [k, v] of Object.entries(s.headers)) parts.push('-H', quote(`${k}: ${v}`));
  if (s.auth) parts.push(s.auth);
  if (s.body !== undefined) parts.push('--data-raw', quote(s.body));
  return [...notes, parts.join(' '), 'echo'];
}

/**
 * Every request the failing case of a requirement sent, in order and with the role that sent each, as a shell
 * script of curl commands. Credentials are read from the environment, as the run read them; nothing secret is in it.
 */
export function replayScript(r: ComplianceReport, q: Req): string {
  const api = r.apis.find((a) => a.api === q.api);
  const base = api?.target.baseUrl ?? '';
  const checks = failingChecks(q).map((id) => ({ id, sequence: api?.checks.find((c) => c.id === id)?.sequence }));
  const requests = checks.flatMap((c) => c.sequence ?? []);
  const variables = [...new Set(requests.flatMap((s) => variablesOf(s.auth)))];
  const first = q.evidence.find((e) => e.outcome === 'fail' || e.outcome === 'error');
  const lines = [
    '#!/bin/sh',
    `# Replays ${q.id} [${q.level}] of the ${q.api} API: every request its failing case sent in the run of ${r.run.startedAt} (seed ${r.run.seed}), in order.`,
    `# It failed: ${(first?.message ?? '').replace(/\n/g, ' ')}`,
    ...checks.map(
      (c) =>
        `# check ${c.id}: ${c.sequence ? `${c.sequence.length} requests` : 'no requests recorded (the report predates replay sequences, or the check sent none)'}`,
    ),
    `# Credentials come from the environment, as in the run${variables.length ? `: ${variables.join(', ')}` : ''}. BASE points the requests elsewhere.`,
    ...(api?.target.embedded
      ? ['# The run checked its embedded implementation, which is gone: set BASE to a running one (npm run ref:<api>).']
      : []),
    'set -u',
    ...variables.map((v) => `: "\${${v}:?set ${v}}"`),
    `BASE="\${BASE:-${base}}"`,
    '',
    ...requests.flatMap((s, i) => curlLine(s, base, i + 1)),
  ];
  return `${lines.join('\n')}\n`;
}
