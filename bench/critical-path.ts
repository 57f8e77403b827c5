import type { Check } from '../suites/core/check';
import { alone, unbounded } from '../suites/core/schedule';

const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

/**
 * The shortest a run can take at `width` checks in flight, given how long each check takes on its own (`seconds`,
 * measured one check at a time: its chain of requests, its waits for provisioning) and what the checks declare they
 * share (suites/core/schedule.ts): the checks that need the target alone one after another, then the longest of the
 * chains of checks that share a piece of state (users of it side by side, sharers one after another and never beside
 * them), the longest single check, or the whole work spread over `width`; then the destructive checks that declare
 * nothing, one after another.
 */
export function criticalPathSeconds(checks: Check[], seconds: Map<string, number>, width: number): number {
  const d = (c: Check) => seconds.get(c.id) ?? 0;
  const rest = checks.filter((c) => !unbounded(c) && !alone(c));
  const states = new Set(rest.flatMap((c) => [...(c.shares ?? []), ...(c.uses ?? [])]));
  let phase = Math.max(0, ...rest.map(d), sum(rest.map(d)) / width);
  for (const s of states) {
    const sharers = rest.filter((c) => (c.shares ?? []).includes(s)).map(d);
    const users = rest.filter((c) => (c.uses ?? []).includes(s)).map(d);
    const together = users.length ? Math.max(...users, sum(users) / width) : 0;
    phase = Math.max(phase, sum(sharers) + together);
  }
  return sum(checks.filter(alone).map(d)) + phase + sum(checks.filter(unbounded).map(d));
}
