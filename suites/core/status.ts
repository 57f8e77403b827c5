import { isResponseCheck } from './check';
import type { AssertionRecord, NotRunCause, Observation, Reach, Requirement, Status } from './types';

export interface RequirementResult extends Requirement {
  status: Status;
  /** Why it is skipped or untested. */
  reason?: string;
  passed: number;
  failed: number;
  /** For a requirement untested or skipped for want of input: the variables or flags that would have it checked. */
  enabledBy?: string;
  /** Why the failure may be the run's input rather than the server (a credential the probe found suspect). */
  hint?: string;
  /** Every failure disappeared on a re-run. */
  intermittent?: boolean;
  evidence: AssertionRecord[];
  observations: Observation[];
  /** What its passing and failing assertions reached (operations, query parameters, path forms). */
  reached?: Reach[];
  /** Why the checks that left it skipped or untested did not run, each once (absent when every one ran). */
  causes?: NotRunCause[];
}

/** A requirement passes only when at least one of its assertions ran and none failed. */
export function requirementResult(
  req: Requirement,
  records: AssertionRecord[],
  passCount: number,
  observations: Observation[],
  reached: Reach[] = [],
): RequirementResult {
  const failures = records.filter((r) => r.outcome === 'fail');
  const errors = records.filter((r) => r.outcome === 'error');
  const skipped = records.filter((r) => r.outcome === 'skipped');
  const untested = records.filter((r) => r.outcome === 'untested');
  let status: Status;
  let reason: string | undefined;
  /** The records the reason is taken from: its causes, and what would have them checked, are theirs too. */
  let why: AssertionRecord[] = [];
  if (failures.length) status = 'failed';
  else if (errors.length) {
    status = 'error';
    reason = [...new Set(errors.map((r) => r.message))].join('; ');
  } else if (passCount > 0) status = 'passed';
  // A check that ran and could not establish it says why (a missing key, say): that outranks another check of the
  // same requirement left to another shard or skipped as destructive, so a merge and --require-all still see it.
  else if (skipped.length && !untested.length) {
    status = 'skipped';
    reason = [...new Set(skipped.map((r) => r.message))].join('; ');
    why = skipped;
  } else {
    status = 'untested';
    why = untested;
    reason = untested.length
      ? [...new Set(untested.map((r) => r.message))].join('; ')
      : req.level === 'unspecified' && observations.length
        ? `the document leaves this open: ${observations.length} observation(s) recorded, nothing judged`
        : req.checks.length > 0 && req.checks.every(isResponseCheck)
          ? 'no answer of the run held the part of a schema this requirement governs (x-requirement in the spec)'
          : 'no assertion of this requirement ran';
  }
  return {
    id: req.id,
    level: req.level,
    group: req.group,
    section: req.section,
    clause: req.clause,
    summary: req.summary,
    tolerance: req.tolerance,
    destructive: req.destructive,
    governs: req.governs,
    checks: req.checks,
    status,
    reason,
    ...enablerOf(why),
    passed: passCount,
    failed: failures.length,
    intermittent: failures.length > 0 && failures.every((f) => f.intermittent) ? true : undefined,
    evidence:
      status === 'failed'
        ? failures
        : status === 'error'
          ? errors
          : status === 'passed'
            ? records.filter((r) => r.outcome === 'pass').slice(0, 3)
            : [...untested, ...skipped].slice(0, 3),
    observations,
    ...(reached.length ? { reached } : {}),
    ...causesOf(status, why),
  };
}

/** The causes of the records that left a requirement skipped or untested, for a front end to count without reading text. */
function causesOf(status: Status, open: AssertionRecord[]): { causes?: NotRunCause[] } {
  if (status !== 'skipped' && status !== 'untested') return {};
  const causes = [...new Set(open.flatMap((r) => (r.cause ? [r.cause] : [])))];
  return causes.length ? { causes } : {};
}

/** What would have the records a reason comes from checked, each setting once, when any record names one. */
function enablerOf(records: AssertionRecord[]): { enabledBy?: string } {
  const names = [...new Set(records.flatMap((r) => (r.enabledBy ? [r.enabledBy] : [])))];
  return names.length ? { enabledBy: names.join(', ') } : {};
}
