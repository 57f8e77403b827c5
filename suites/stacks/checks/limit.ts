import type { Check } from '../../core/check';
import type { Exchange } from '../../core/types';
import { appeared, codeOf, createdAsDocumented, createStack, deleteStack, expectError, listedIds, waitGone, type Summary } from '../support';

/** Creates the check will attempt before concluding the limit is out of reach (read when the check runs: the CLI sets it). */
const probeMax = () => Number(process.env.STACKS_LIMIT_PROBE_MAX ?? 12);
const REQUIREMENTS = ['STK-LIMIT-409', 'STK-LIMIT-VALUE', 'STK-CREATE-REFUSED-NO-STACK'];

export const limitIs409: Check = {
  id: 'stacks.limit.max-stacks-409',
  title: "Create beyond the per-user maximum MUST answer 409 MaxStacksLimitReached, create nothing, not affect other users, and count only the caller's active stacks",
  requirements: REQUIREMENTS,
  // Every stack it creates counts against the caller's limit, which other creating checks need free.
  shares: ['stack-quota'],
  async run(ctx) {
    const before = await listedIds(ctx);
    const existing = before.size;
    const PROBE_MAX = probeMax();
    const created: Exchange[] = [];
    let refused: Exchange | undefined;
    for (let i = 0; i < PROBE_MAX && !refused; i++) {
      const ex = await createStack(ctx, {}, 'primary', { settle: false });
      if (ex.status === 202) created.push(ex);
      else if (ex.status >= 200 && ex.status < 300) return void createdAsDocumented(ctx, REQUIREMENTS, ex);
      else refused = ex;
    }
    if (!refused) {
      ctx.observe('STK-LIMIT-VALUE', `no limit reached after ${PROBE_MAX} creates (plus ${existing} existing stacks)`);
      return ctx.untested('STK-LIMIT-409', `no 409 within ${PROBE_MAX} creates; raise STACKS_LIMIT_PROBE_MAX to probe further`);
    }
    // A caller whose creates never succeeded has not reached any limit: create itself is at fault, and judged elsewhere.
    if (!created.length && refused.status !== 409) return void createdAsDocumented(ctx, REQUIREMENTS, refused);
    ctx.observe('STK-LIMIT-VALUE', `limit reached at ${existing + created.length} listed stacks`);
    if (!expectError(ctx, 'STK-LIMIT-409', refused, 409, 'MaxStacksLimitReached', `create number ${created.length + 1}`)) return;
    // "Create beyond" a maximum: a caller holding no stack at all is beyond no maximum.
    ctx.assert('STK-LIMIT-409', existing + created.length > 0, `the first create of a caller with no stacks was refused: ${refused.status} ${String(codeOf(refused))}`, refused);
    const extra = appeared(before, await listedIds(ctx), created.map((c) => (c.json as Summary).id));
    ctx.assert('STK-CREATE-REFUSED-NO-STACK', extra.length === 0, extra.length ? `the create refused at the limit left stack(s) ${extra.join(', ')}` : 'the create refused at the limit added no stack');

    // Still refused: the limit is a state, not a one-off answer.
    const again = await createStack(ctx, {}, 'primary', { settle: false });
    expectError(ctx, 'STK-LIMIT-409', again, 409, 'MaxStacksLimitReached', 'a second create at the limit');

    if (ctx.has('second')) {
      const other = await createStack(ctx, {}, 'second', { settle: false });
      const what = other.status === 202 ? 'created' : `refused with ${other.status} ${String(codeOf(other) ?? '')}`;
      const ok = other.status === 202 || (other.status === 409 && (await listedIds(ctx, 'second')).size >= existing + created.length);
      ctx.assert('STK-LIMIT-409', ok, ok ? `the limit is per user: a second user is not held to the first user's count (${what})` : `the second user, below the limit, was ${what} while the first user was at the limit`, other);
      if (other.status === 202) await deleteStack(ctx, other, 'second');
    }

    // The limit is on active stacks: once the caller's stacks are deleted and gone, create succeeds again.
    if (!created.length) return;
    const ids = created.map((c) => (c.json as Summary).id);
    for (const c of created) await deleteStack(ctx, c);
    if (!(await waitGone(ctx, ids))) return ctx.untested('STK-LIMIT-409', `the deleted stacks were not gone (get 404, not listed) within ${ctx.options.readyTimeoutS} s, so whether the limit frees up stays open`);
    const after = await createStack(ctx, {}, 'primary', { settle: false });
    ctx.assert('STK-LIMIT-409', after.status === 202, `after the caller's ${ids.length} stack(s) were deleted and gone, create answered ${after.status} ${String(codeOf(after) ?? '')}`.trim(), after);
  },
};
