import { describe, expect, it } from 'vitest';
import { dryRunPlan, rehearsal } from '../../cli/dry-run';
import type { Target } from '../../core/types';
import { opsApi } from '../../ops/index';
import { embeddedOpsTarget } from '../../ops/target';
import { runAgainst, selftestSettings } from '../harness';

const skippedAsDestructive = (r: Awaited<ReturnType<typeof runAgainst>>) =>
  r.requirements.filter((q) => q.status === 'skipped' && q.reason?.startsWith('destructive check'));

// The dry run once counted the requirements only destructive checks declare (11 for ops); the run skipped 23,
// since a requirement another check declares but only a destructive check judges is skipped too.
describe('--dry-run names the number of requirements the real run skips', () => {
  // Ops has the destructive checks (stacks has none); a read-only user left out changes which checks run at all.
  for (const [def, start, roles] of [
    [opsApi, embeddedOpsTarget, ['primary']],
    [opsApi, embeddedOpsTarget, ['primary', 'readonly', 'restricted']],
  ] as const) {
    it(`${def.id}: the whole registry against a named server, without --allow-destructive, given only ${roles.join(' and ')}`, async () => {
      const live = await start();
      // A deployment the user names, holding only the roles given: the dry run must count for exactly that.
      const principals = Object.fromEntries(
        Object.entries(live.principals).filter(([role]) => (roles as readonly string[]).includes(role)),
      );
      const named: Target = { ...live, principals, embedded: false, close: undefined };
      try {
        const real = await runAgainst(def, named, { allowDestructive: false });
        const settings = selftestSettings(def.id, { allowDestructive: false });
        const runs = await rehearsal({ settings, origins: {}, apis: [def], targets: { [def.id]: named } });
        const plan = dryRunPlan(runs, [def], { [def.id]: named }, false);
        const skipped = skippedAsDestructive(real);
        const must = skipped.filter((q) => q.level === 'MUST').length;
        expect(skipped.length).toBeGreaterThan(0);
        expect(plan.text).toContain(`${skipped.length} requirements (${must} MUST) will be skipped`);
        expect((plan.json[def.id] as { skippedAsDestructive: number }).skippedAsDestructive).toBe(skipped.length);
        // Every requirement the real run left skipped, the rehearsal left skipped too: the same ids, not just as many.
        expect(runs[0].requirements.filter((q) => q.status === 'skipped').map((q) => q.id)).toEqual(
          real.requirements.filter((q) => q.status === 'skipped').map((q) => q.id),
        );
        // The destructive requests are still listed, as not sent.
        expect((plan.json[def.id] as { destructive: unknown[] }).destructive.length).toBeGreaterThan(0);
      } finally {
        await live.close?.();
      }
    }, 120_000);
  }
});
