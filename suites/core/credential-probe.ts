import { STATUS_CODES } from 'node:http';
import type { ApiDefinition, ProbeAnswer } from './api';
import type { Target } from './types';

/** What one credential's probe answer means for the run. */
export type ProbeVerdict =
  | { kind: 'ok' }
  /** The run ends before any check (exit 2) with this line. */
  | { kind: 'refused'; line: string }
  /** The run goes on; the failures of the checks that use the role carry this hint. */
  | { kind: 'suspect'; hint: string }
  /** Nothing of the API answers at this address: no credential can be judged there (exit 2). */
  | { kind: 'no-api'; line: string };

export const named = (status: number) => `${status} ${STATUS_CODES[status] ?? ''}`.trimEnd();

/** Judges the status the probe GET got with one role's credential (and, where given, the rest of the answer). */
export function judgeProbe(def: ApiDefinition, target: Target, role: string, status: number, answer?: ProbeAnswer): ProbeVerdict {
  const probe = def.credentialProbe!;
  const who = def.roleHints[role] ?? role;
  const path = probe.path(target);
  // Refused the way another API refuses: a credential of this API cannot be judged at an address that holds another.
  const other = answer && probe.refusedWith(role).concat(401).includes(status) ? probe.otherApi?.(answer) : undefined;
  if (other)
    return {
      kind: 'no-api',
      line: `no ${def.id} API at ${target.baseUrl}: GET ${path} with ${who} answered ${named(status)} the way ${other}: check the address (${def.options.baseUrl.env})`,
    };
  // A 404 on a path every deployment serves is not a working credential: the address holds no API.
  if (status === 404)
    return {
      kind: 'no-api',
      line: `no ${def.id} API at ${target.baseUrl}: GET ${path} with ${who} answered 404 Not Found${probe.notFound ? ` (${probe.notFound(target)})` : ''}`,
    };
  if (probe.refusedWith(role).includes(status)) return { kind: 'refused', line: `${who} was refused: ${named(status)}` };
  const expected = probe.expectedFor?.(role);
  if (expected === undefined || status === expected) return { kind: 'ok' };
  const why =
    status === 401
      ? 'the key may be wrong: the server does not know it'
      : status >= 200 && status < 300
        ? 'the key may belong to a user the server accepts'
        : 'the key may not be what the role needs';
  return {
    kind: 'suspect',
    hint: `${why} (before the run, GET ${path} with ${who} was answered ${named(status)}, not ${named(expected)})`,
  };
}
