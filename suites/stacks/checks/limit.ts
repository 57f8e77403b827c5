import type { Check } from '../../core/check';
import type { Exchange } from '../../core/types';
import { appeared, codeOf, createStack, deleteStack, expectError, listedIds, type Summary } from '../support';

/** Creates the check will attempt before concluding the limit is out of reach. */
const PROBE_MAX = Number(process.env.STACKS_LIMIT_PROBE_MAX ?? 12);

export const limitIs409: Check = {
  id: 'stacks.limit.max-stacks-409',
  title: 'Create beyond the per-user maximum MUST answer 409 MaxStacksLimitReached, create nothing, and not affect other users',
  requirements: ['STK-LIMIT-409', 'STK-LIMIT-VALUE', 'STK-CREATE-REFUSED-NO-STACK'],
  async run(ctx) {
    const listed = async (as = 'primary') => (await listedIds(ctx, as)).size;
    const before = await listedIds(ctx);
    const existing = before.size;
    const created: Exchange[] = [];
    let refused: Exchange | undefined;
    for (let i = 0; i < PROBE_MAX; i++) {
      const ex = await createStack(ctx, {});
      if (ex.status === 202) created.push(ex);
      else {
        refused = ex;
        break;
      }
    }
    if (!refused) {
      ctx.observe('STK-LIMIT-VALUE', `no limit reached after ${PROBE_MAX} creates (plus ${existing} existing stacks)`);
      return ctx.untested('STK-LIMIT-409', `no 409 within ${PROBE_MAX} creates; raise STACKS_LIMIT_PROBE_MAX to probe further`);
    }
    ctx.observe('STK-LIMIT-VALUE', `limit reached at ${existing + created.length} active stacks`);
    ctx.assert('STK-LIMIT-VALUE', existing + created.length >= 1, `the limit allows ${existing + created.length} stacks`, refused);
    if (!expectError(ctx, 'STK-LIMIT-409', refused, 409, 'MaxStacksLimitReached', `create number ${created.length + 1}`)) return;
    const extra = appeared(before, await listedIds(ctx), created.map((c) => (c.json as Summary).id));
    ctx.assert('STK-CREATE-REFUSED-NO-STACK', extra.length === 0, extra.length ? `the create refused at the limit left stack(s) ${extra.join(', ')}` : 'the create refused at the limit added no stack');

    // Still refused: the limit is a state, not a one-off answer.
    const again = await createStack(ctx, {});
    expectError(ctx, 'STK-LIMIT-409', again, 409, 'MaxStacksLimitReached', 'a second create at the limit');

    if (ctx.has('second')) {
      const other = await createStack(ctx, {}, 'second');
      const before = other.status === 202 ? 'created' : `refused with ${other.status} ${String(codeOf(other) ?? '')}`;
      const limit = existing + created.length;
      const ok = other.status === 202 || (other.status === 409 && (await listed('second')) >= limit);
      ctx.assert('STK-LIMIT-409', ok, ok ? `the limit is per user: a second user is not held to the first user's count (${before})` : `the second user, below the limit, was ${before} while the first user was at the limit`, other);
    }

    if (created.length) {
      const freed = await deleteStack(ctx, created.pop()!);
      if (freed.status === 204) {
        const after = await createStack(ctx, {});
        ctx.observe('STK-LIMIT-VALUE', `right after deleting one stack at the limit, create answers ${after.status}`);
      }
    }
  },
};
