import type { ComplianceReport } from '../core/report/model';

/**
 * The MUST requirements the run did not check, each with its reason and what would have it checked ("needs
 * STACKS_API_KEY_2"): a pass says nothing about them, and a gate that must cover them runs with --require-all.
 * Requirements skipped by the destructive guard have their own line (one per API, with its flag).
 */
export function untestedLines(r: ComplianceReport): string[] {
  const open = r.requirements.filter((q) => q.level === 'MUST' && q.status === 'untested');
  if (!open.length) return [];
  const enabled = open.filter((q) => q.enabledBy).length;
  const head = `untested MUST requirements (${open.length}${enabled ? `; ${enabled} would be checked with the setting named` : ''}${r.run.requireAll ? ', which --require-all counts as failed' : ''}):`;
  return [
    head,
    ...open.map(
      (q) =>
        `  UNTESTED ${r.apis.length > 1 ? `${q.api} ` : ''}${q.id}: ${q.reason ?? ''} · ${q.enabledBy ? `needs ${q.enabledBy}` : 'no setting of the run can check it'}`,
    ),
  ];
}

/** What --require-all adds to a failed verdict. */
export function requireAllNote(r: ComplianceReport): string {
  const n = r.summary.unverified ?? 0;
  return r.run.requireAll && n
    ? ` (--require-all: ${n} MUST requirement${n === 1 ? ' was' : 's were'} not checked for want of a setting, listed above)`
    : '';
}
