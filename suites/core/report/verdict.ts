import type { ComplianceReport } from './model';

/** What every report says of an interrupted run. */
const INTERRUPTED = 'The run was interrupted before every check had run: what did not run was not checked, so this report is not a pass.';

type Summary = Pick<ComplianceReport['summary'], 'gate' | 'error'> & { incomplete?: string };

/** The headline of an incomplete report: why it is not a pass (interrupted unless the summary says otherwise). */
export const incompleteText = (s: Summary) => s.incomplete ?? INTERRUPTED;

/**
 * The verdict as every output names it. An interrupted run is INCOMPLETE whatever it found so far: what did not run
 * was not checked, so it can never read as a pass. A tool error comes next: its requirements have no verdict.
 */
export function verdictWord(s: Summary): 'INCOMPLETE' | 'TOOL ERROR' | 'PASS' | 'FAIL' {
  if (s.gate === 'incomplete') return 'INCOMPLETE';
  if (s.error) return 'TOOL ERROR';
  return s.gate === 'pass' ? 'PASS' : 'FAIL';
}

/**
 * The exit code of a run with this summary: 130 interrupted, 2 incomplete for another reason (a merge without every
 * shard, a target that went away) or a tool error, 1 a failed gate, 0 a pass.
 */
export function exitCodeOf(s: Summary): 0 | 1 | 2 | 130 {
  if (s.gate === 'incomplete') return s.incomplete ? 2 : 130;
  if (s.error) return 2;
  return s.gate === 'pass' ? 0 : 1;
}

/** The verdict as a report's title shows it: a run that judged only part of the requirements says so beside it. */
export const verdictTitle = (s: Summary & { partial?: string }) => `${verdictWord(s)}${s.partial ? ' (partial)' : ''}`;
