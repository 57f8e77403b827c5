import type { Check } from './check';

const touched = (c: Check) => [...(c.shares ?? []), ...(c.uses ?? [])];

/**
 * Two checks may run side by side unless one `shares` a piece of state the other shares or uses (checks that only
 * use it go together, like readers under a lock); `*` is all of it.
 */
function conflict(a: Check, b: Check): boolean {
  const x = a.shares ?? [];
  const y = b.shares ?? [];
  return x.includes('*') || y.includes('*') || x.some((s) => touched(b).includes(s)) || y.some((s) => touched(a).includes(s));
}

/** A destructive check that declares nothing it touches: it runs after all the others, alone. */
export const unbounded = (c: Check) => Boolean(c.destructive && !c.shares && !c.uses);
/**
 * Checks that need the whole target to themselves go first: started later, each would wait for every check in flight
 * to drain and hold up the chains of checks that share state.
 */
export const alone = (c: Check) => !unbounded(c) && (c.shares ?? []).includes('*');

/**
 * How long a check is expected to take, in any unit: the seconds it took alone against the reference at a distance
 * (`suites/<api>/durations.gen.ts`). Unknown checks count as the median, so a new check is neither first nor last.
 */
export type Cost = (c: Check) => number;

/** The cost of each check from a table of seconds by check id; a check missing from it costs the median. */
export function costFrom(seconds: Readonly<Record<string, number>>): Cost {
  const known = Object.values(seconds).sort((a, b) => a - b);
  const median = known.length ? known[Math.floor(known.length / 2)]! : 1;
  return (c) => seconds[c.id] ?? median;
}

/**
 * Runs `checks` with at most `width` in flight, the longest chains first, starting a check only when nothing running
 * shares state with it. A destructive check that declares what it touches runs like the others; one that does not (a delete
 * of every row, say) comes after all of them, alone. At width 1 the order is the same.
 */
export async function schedule(checks: Check[], width: number, run: (c: Check) => Promise<void>, cost: Cost = () => 1): Promise<void> {
  for (const check of checks.filter(alone)) await run(check);
  await phase(
    checks.filter((c) => !unbounded(c) && !alone(c)),
    width,
    run,
    cost,
  );
  for (const check of checks.filter(unbounded)) await run(check);
}

async function phase(checks: Check[], width: number, run: (c: Check) => Promise<void>, cost: Cost): Promise<void> {
  // Checks that share state form chains that run one after another; the run lasts at least as long as its longest
  // chain or its longest check, so those start first and the short checks fill the places left (longest processing
  // time first). At width 1 the registry's order stands.
  const chains = new Map<string, number>();
  for (const c of checks) for (const s of touched(c)) chains.set(s, (chains.get(s) ?? 0) + cost(c));
  const length = (c: Check) => Math.max(cost(c), ...touched(c).map((s) => chains.get(s) ?? 0));
  const pending = width === 1 ? [...checks] : [...checks].sort((a, b) => length(b) - length(a));
  const running = new Map<Check, Promise<void>>();
  while (pending.length) {
    const next = running.size < width ? pending.findIndex((c) => ![...running.keys()].some((r) => conflict(c, r))) : -1;
    if (next >= 0) {
      const [check] = pending.splice(next, 1);
      running.set(
        check,
        run(check).finally(() => running.delete(check)),
      );
      continue;
    }
    await Promise.race(running.values());
  }
  await Promise.all(running.values());
}
