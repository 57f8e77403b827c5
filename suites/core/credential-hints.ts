import type { Check } from './check';
import type { RequirementResult } from './status';

/**
 * A credential the probe found suspect (a key meant to be refused that the server did not refuse as documented)
 * does not end the run: the checks that use its role run and fail. Their failed requirements carry the probe's hint,
 * so the report says the key may be wrong rather than leaving the server blamed alone.
 */
export function attachCredentialHints(
  requirements: RequirementResult[],
  checks: readonly Check[],
  hints: Record<string, string> = {},
): RequirementResult[] {
  if (!Object.keys(hints).length) return requirements;
  const rolesOf = new Map(checks.map((c) => [c.id, c.needs ?? []]));
  return requirements.map((q) => {
    if (q.status !== 'failed') return q;
    const roles = new Set(q.evidence.filter((e) => e.outcome === 'fail').flatMap((e) => rolesOf.get(e.check) ?? []));
    const hint = [...roles].flatMap((r) => (hints[r] ? [hints[r]] : [])).join('; ');
    return hint ? { ...q, hint } : q;
  });
}
