import { expect } from 'vitest';
import type { ApiDefinition } from '../../core/api';
import type { ComplianceReport } from '../../core/report/model';
import { runAgainst } from '../harness';

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

export const mustFailures = (r: ComplianceReport) => r.requirements.filter((q) => q.level === 'MUST' && q.status === 'failed').map((q) => `${q.id}: ${q.evidence[0]?.message ?? q.reason}`);

export function expectCaught(report: ComplianceReport, want: Expected, clause: string): void {
  const failed = report.requirements.filter((q) => q.level === 'MUST' && q.status === 'failed').map((q) => q.id);
  for (const id of want.untested ?? []) expect(report.requirements.find((q) => q.id === id)?.status, `${id} (${clause})`).toBe('untested');
  for (const id of want.should ?? []) expect(report.requirements.find((q) => q.id === id)?.status, `${id} (${clause})`).toBe('failed');
  if (want.should) expect(failed, 'a SHOULD deviation fails no MUST').toEqual([]);
  if (want.reading) expect(failed, `a reading the document allows: ${want.reading}`).toEqual([]);
  if (!want.named) return;
  expect(report.summary.gate, clause).toBe('fail');
  for (const id of want.named) expect(failed, `${id} must fail: ${clause}`).toContain(id);
  const allowed = new Set([...want.named, ...(want.collateral ?? [])]);
  expect(
    failed.filter((id) => !allowed.has(id)),
    'failures beyond the stated collateral',
  ).toEqual([]);
}

/** Starts an independent server and runs `api` against it the way a user does: through the variables it prints. */
export async function runOnServer<O>(api: ApiDefinition, start: (opts: O) => Promise<{ env: Record<string, string>; close(): Promise<void> }>, opts: O): Promise<ComplianceReport> {
  const server = await start(opts);
  try {
    return await runAgainst(api, api.targetFromEnv(server.env)!, { readyTimeoutS: 5 });
  } finally {
    await server.close();
  }
}
