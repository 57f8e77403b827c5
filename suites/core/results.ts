import { reachText } from './reach';
import type { AssertionRecord, Reach } from './types';

/** Where every assertion of a run lands. Passing assertions are counted, not stored one by one. */
export interface Results {
  record(r: AssertionRecord): void;
  /** Failures, untested and skipped records, plus one representative record per (requirement, check) pass. */
  records(): AssertionRecord[];
  passCount(requirement: string): number;
  /** What the requirement's passing and failing assertions reached, each once (suites/core/reach.ts). */
  reached(requirement: string): Reach[];
  /** Number of assertions evaluated, passing or failing. */
  assertions(): number;
}

const MAX_FAILURES_PER_KEY = 10;

export function createResults(): Results {
  const passes = new Map<string, AssertionRecord & { count: number }>();
  const others: AssertionRecord[] = [];
  const failuresPerKey = new Map<string, number>();
  const passByRequirement = new Map<string, number>();
  const reach = new Map<string, Map<string, Reach>>();
  let total = 0;

  return {
    record(r) {
      const key = `${r.requirement}\u0000${r.check}`;
      if (r.outcome === 'pass' || r.outcome === 'fail') {
        total++;
        if (r.reached?.length) {
          if (!reach.has(r.requirement)) reach.set(r.requirement, new Map());
          for (const x of r.reached) reach.get(r.requirement)!.set(reachText(x), x);
        }
      }
      if (r.outcome === 'pass') {
        passByRequirement.set(r.requirement, (passByRequirement.get(r.requirement) ?? 0) + 1);
        const known = passes.get(key);
        if (known) known.count++;
        else passes.set(key, { ...r, count: 1 });
        return;
      }
      if (r.outcome === 'fail') {
        const n = failuresPerKey.get(key) ?? 0;
        failuresPerKey.set(key, n + 1);
        // A broken target can fail the same schema rule on every response: keep the first few as evidence.
        if (n >= MAX_FAILURES_PER_KEY) return;
      }
      others.push(r);
    },
    records: () => [...others, ...passes.values()],
    passCount: (requirement) => passByRequirement.get(requirement) ?? 0,
    reached: (requirement) => [...(reach.get(requirement)?.values() ?? [])],
    assertions: () => total,
  };
}
