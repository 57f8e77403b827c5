import { expect } from 'vitest';
import type { ComplianceReport } from '../../core/report/model';
import type { ManifestBug } from './manifest';

/** What one documented bug must do to a run: fail these MUST requirements, and at most those besides. */
export interface Expected {
  named?: string[];
  /** MUST requirements the same fault also breaks; anything beyond named + collateral is a false alarm. */
  collateral?: string[];
  /** Bugs the document gives the suite no way to prove: their requirement must be untested, never passed. */
  untested?: string[];
  /** Bugs against a SHOULD: a warning (that requirement failed), never a failed gate. */
  should?: string[];
  /** Not a bug after all: a reading the document allows (why, in words). The run must fail no MUST. */
  reading?: string;
}

export const mustFailures = (r: ComplianceReport) =>
  r.requirements.filter((q) => q.level === 'MUST' && q.status === 'failed').map((q) => `${q.id}: ${q.evidence[0]?.message ?? q.reason}`);

/** Requirements a check of the suite failed on as a tool (status error): never right on any server. */
export const toolErrors = (r: ComplianceReport) => r.requirements.filter((q) => q.status === 'error').map((q) => `${q.id}: ${q.reason}`);

export function expectCaught(report: ComplianceReport, want: Expected, clause: string): void {
  expect(toolErrors(report), 'no check fails as a tool').toEqual([]);
  const failed = report.requirements.filter((q) => q.level === 'MUST' && q.status === 'failed').map((q) => q.id);
  for (const id of want.untested ?? []) expect(report.requirements.find((q) => q.id === id)?.status, `${id} (${clause})`).toBe('untested');
  for (const id of want.should ?? []) expect(report.requirements.find((q) => q.id === id)?.status, `${id} (${clause})`).toBe('failed');
  // What every run of the server fails (its transport) comes with any bug: it is no failure of the bug's.
  const beyondServer = failed.filter((id) => !(want.collateral ?? []).includes(id));
  if (want.should) expect(beyondServer, 'a SHOULD deviation fails no MUST').toEqual([]);
  if (want.reading) expect(beyondServer, `a reading the document allows: ${want.reading}`).toEqual([]);
  if (!want.named) return;
  expect(report.summary.gate, clause).toBe('fail');
  for (const id of want.named) expect(failed, `${id} must fail: ${clause}`).toContain(id);
  const allowed = new Set([...want.named, ...(want.collateral ?? [])]);
  expect(
    failed.filter((id) => !allowed.has(id)),
    'failures beyond the stated collateral',
  ).toEqual([]);
}

/**
 * What a bug of a manifest must do to a run of its server, whose every run fails `serverFailures` (its transport);
 * undefined when the manifest maps it to no requirement.
 */
export function expectedOf(bug: ManifestBug, serverFailures: string[]): Expected | undefined {
  if (!bug.breaks?.length && !bug.warns?.length && !bug.untested?.length && !bug.reading) return undefined;
  const collateral = [...(bug.collateral ?? []), ...serverFailures];
  return {
    ...(bug.breaks?.length ? { named: bug.breaks } : {}),
    ...(collateral.length ? { collateral } : {}),
    ...(bug.warns?.length ? { should: bug.warns } : {}),
    ...(bug.untested?.length ? { untested: bug.untested } : {}),
    ...(bug.reading ? { reading: bug.reading } : {}),
  };
}
