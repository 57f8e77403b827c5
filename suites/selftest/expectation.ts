import { expect } from 'vitest';
import type { ComplianceReport } from '../core/report/model';
import { mustFailed, shouldFailed } from './harness';

/**
 * What the suite must say about one server that is broken, or correct in its own way: one shape for the faults
 * wrapped around the reference implementation, its variants, the readings and the corpus manifests, as
 * JSON-Schema-Test-Suite gives every case one shape. An expectation with nothing but `warns` (or nothing at all) is
 * a correct server's: no MUST fails.
 */
export interface Expectation<Req extends string = string> {
  /** Requirements it must fail; a MUST among them fails the gate. */
  breaks?: Req[];
  /** MUST requirements the same fault may also fail; a MUST failed beyond breaks and collateral is a false alarm. */
  collateral?: Req[];
  /** SHOULD requirements it departs from: each fails, as a warning. */
  warns?: Req[];
  /** Requirements the run has no way to prove on it: each is untested, never passed. */
  untested?: Req[];
  /** Requirements the run must still establish on it (it tries again where the server makes it wait). */
  passes?: Req[];
  /** Not a bug after all: a reading the document allows (why, in words). No MUST fails. */
  reading?: string;
  /** Why the expectation is what it is, where it is not plain. */
  why?: string;
}

/** What every run of a server says whatever the case (its transport, its own warnings), and how strict warnings are. */
export interface Baseline {
  mustFailures?: readonly string[];
  warnings?: readonly string[];
  /** A warning beyond `warns` and the baseline's is a finding (a correct server or variant warns only where stated). */
  noOtherWarnings?: boolean;
}

const statusOf = (r: ComplianceReport, id: string) => r.requirements.find((q) => q.id === id)?.status;
const levelOf = (r: ComplianceReport, id: string) => r.requirements.find((q) => q.id === id)?.level;
const described = (r: ComplianceReport, ids: string[]) =>
  ids.map((id) => `${id}: ${r.requirements.find((q) => q.id === id)?.evidence[0]?.message ?? ''}`).join('\n');

/** Holds a run's report to `want`, naming `label` (the case, and the clause it breaks) in every assertion. */
export function expectVerdict(report: ComplianceReport, want: Expectation, label: string, base: Baseline = {}): void {
  const tools = report.requirements.filter((q) => q.status === 'error').map((q) => `${q.id}: ${q.reason}`);
  expect(tools, `${label}: no check fails as a tool`).toEqual([]);
  const breaks = want.breaks ?? [];
  for (const id of breaks) expect(statusOf(report, id), `${id} must fail: ${label}`).toBe('failed');
  for (const id of want.warns ?? [])
    expect([levelOf(report, id), statusOf(report, id)], `${id} warns: ${label}`).toEqual(['SHOULD', 'failed']);
  for (const id of want.untested ?? []) expect(statusOf(report, id), `${id} stays untested: ${label}`).toBe('untested');
  for (const id of want.passes ?? []) expect(statusOf(report, id), `${id} is established: ${label}`).toBe('passed');
  const allowed = new Set([...breaks, ...(want.collateral ?? []), ...(base.mustFailures ?? [])]);
  const beyond = mustFailed(report).filter((id) => !allowed.has(id));
  expect(beyond, `${label}: MUST failures beyond the stated ones\n${described(report, beyond)}`).toEqual([]);
  expect(report.summary.gate, `${label}: the gate`).toBe(mustFailed(report).length ? 'fail' : 'pass');
  if (!base.noOtherWarnings) return;
  const warned = new Set([...(want.warns ?? []), ...breaks, ...(base.warnings ?? [])]);
  const otherWarnings = shouldFailed(report).filter((id) => !warned.has(id));
  expect(otherWarnings, `${label}: warnings beyond the stated ones\n${described(report, otherWarnings)}`).toEqual([]);
}

/** Every requirement an expectation names: the ones a change must reach for its case to be worth running again. */
export const namedBy = (e: Expectation): string[] => [
  ...(e.breaks ?? []),
  ...(e.collateral ?? []),
  ...(e.warns ?? []),
  ...(e.untested ?? []),
  ...(e.passes ?? []),
];

/** An expectation maps its case to something the run can show (a bug with none names nothing to hold it to). */
export const mapsToRequirements = (e: Expectation) => Boolean(e.breaks?.length || e.warns?.length || e.untested?.length || e.reading);
