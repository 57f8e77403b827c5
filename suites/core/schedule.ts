import type { Check } from './check';

/** Two checks may run side by side unless they declare a piece of shared state in common; `*` is all of it. */
export function conflict(a: Check, b: Check): boolean {
  const x = a.shares ?? [];
  const y = b.shares ?? [];
  return x.includes('*') || y.includes('*') || x.some((s) => y.includes(s));
}

/**
 * Runs `checks` with at most `width` in flight, in their order, starting a check only when nothing running shares
 * state with it. Destructive checks come after all others (they may change rows any other check reads); among
 * themselves they run side by side only where they declare what they touch, otherwise alone.
 */
export async function schedule(checks: Check[], width: number, run: (c: Check) => Promise<void>): Promise<void> {
  await phase(checks.filter((c) => !c.destructive), width, run);
  await phase(checks.filter((c) => c.destructive).map((c) => (c.shares ? c : { ...c, shares: ['*'] })), width, run, checks);
}

async function phase(checks: Check[], width: number, run: (c: Check) => Promise<void>, originals?: Check[]): Promise<void> {
  const pending = [...checks];
  const running = new Map<Check, Promise<void>>();
  // The scheduling copy may carry an implied `*`; the runner is handed the registered check itself.
  const original = (c: Check) => originals?.find((o) => o.id === c.id) ?? c;
  while (pending.length) {
    const next = running.size < width ? pending.findIndex((c) => ![...running.keys()].some((r) => conflict(c, r))) : -1;
    if (next >= 0) {
      const [check] = pending.splice(next, 1);
      running.set(check, run(original(check)).finally(() => running.delete(check)));
      continue;
    }
    await Promise.race(running.values());
  }
  await Promise.all(running.values());
}
