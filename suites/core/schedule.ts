import type { Check } from './check';

/** Two checks may run side by side unless they declare a piece of shared state in common; `*` is all of it. */
export function conflict(a: Check, b: Check): boolean {
  const x = a.shares ?? [];
  const y = b.shares ?? [];
  return x.includes('*') || y.includes('*') || x.some((s) => y.includes(s));
}

/**
 * Runs `checks` with at most `width` in flight, in their order, starting a check only when nothing running shares
 * state with it. Destructive checks come last and one at a time: they may change rows any other check reads.
 */
export async function schedule(checks: Check[], width: number, run: (c: Check) => Promise<void>): Promise<void> {
  const pending = [...checks.filter((c) => !c.destructive)];
  const running = new Map<Check, Promise<void>>();
  while (pending.length) {
    const next = running.size < width ? pending.findIndex((c) => ![...running.keys()].some((r) => conflict(c, r))) : -1;
    if (next >= 0) {
      const [check] = pending.splice(next, 1);
      running.set(check, run(check).finally(() => running.delete(check)));
      continue;
    }
    await Promise.race(running.values());
  }
  await Promise.all(running.values());
  for (const check of checks.filter((c) => c.destructive)) await run(check);
}
