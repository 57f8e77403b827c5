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

/**
 * Runs `checks` with at most `width` in flight, in their order, starting a check only when nothing running shares
 * state with it. A destructive check that declares what it touches runs like the others; one that does not (a delete
 * of every row, say) comes after all of them, alone. At width 1 the order is the same.
 */
/** A destructive check that declares nothing it touches: it runs after all the others, alone. */
export const unbounded = (c: Check) => Boolean(c.destructive && !c.shares && !c.uses);
/**
 * Checks that need the whole target to themselves go first: started later, each would wait for every check in flight
 * to drain and hold up the chains of checks that share state.
 */
export const alone = (c: Check) => !unbounded(c) && (c.shares ?? []).includes('*');

export async function schedule(checks: Check[], width: number, run: (c: Check) => Promise<void>): Promise<void> {
  for (const check of checks.filter(alone)) await run(check);
  await phase(
    checks.filter((c) => !unbounded(c) && !alone(c)),
    width,
    run,
  );
  for (const check of checks.filter(unbounded)) await run(check);
}

async function phase(checks: Check[], width: number, run: (c: Check) => Promise<void>): Promise<void> {
  // Checks that share state form chains that run one after another: the longest chains start first, and checks
  // that share nothing fill the places left (at width 1 the registry's order stands).
  const members = new Map<string, number>();
  for (const c of checks) for (const s of touched(c)) members.set(s, (members.get(s) ?? 0) + 1);
  const chain = (c: Check) => Math.max(0, ...touched(c).map((s) => members.get(s) ?? 0));
  const pending = width === 1 ? [...checks] : [...checks].sort((a, b) => chain(b) - chain(a));
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
