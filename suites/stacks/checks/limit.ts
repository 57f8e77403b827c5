import { STACKS_OPTIONS } from '../target';
import { settingName } from '../../core/enabler';
import { poll } from '../../core/poll';
import {
  appeared,
  codeOf,
  createdAsDocumented,
  createStack,
  deleteStack,
  expectError,
  listedIds,
  deletedByRun,
  waitGone,
  type Created,
  type StacksCheck,
  type StacksRequirementId,
} from '../support';

/** Creates the check will attempt before concluding the limit is out of reach (STACKS_LIMIT_PROBE_MAX, in the run's options). */
const probeMax = (options: { apiOptions?: Record<string, unknown> }) =>
  Number(options.apiOptions?.limitProbeMax ?? STACKS_OPTIONS.limitProbeMax.default);
const REQUIREMENTS: StacksRequirementId[] = ['STK-LIMIT-409', 'STK-LIMIT-VALUE', 'STK-CREATE-REFUSED-NO-STACK'];

export const limitIs409: StacksCheck = {
  id: 'stacks.limit.max-stacks-409',
  title:
    "Create beyond the per-user maximum MUST answer 409 MaxStacksLimitReached, create nothing, not affect other users, and count only the caller's active stacks",
  requirements: REQUIREMENTS,
  // Every stack it creates counts against the caller's limit, which other creating checks need free.
  shares: ['stack-quota'],
  async run(ctx) {
    const before = await listedIds(ctx);
    const existing = before.size;
    const PROBE_MAX = probeMax(ctx.options);
    const created: Created[] = [];
    let refused: Created | undefined;
    for (let i = 0; i < PROBE_MAX && !refused; i++) {
      const ex = await createStack(ctx, {}, 'primary', { settle: false });
      if (ex.status === 202) created.push(ex);
      else if (ex.status >= 200 && ex.status < 300) return void createdAsDocumented(ctx, REQUIREMENTS, ex);
      else refused = ex;
    }
    if (!refused) {
      ctx.observe('STK-LIMIT-VALUE', `no limit reached after ${PROBE_MAX} creates (plus ${existing} existing stacks)`);
      return ctx.untested(
        'STK-LIMIT-409',
        `no 409 within ${PROBE_MAX} creates; raise ${settingName(STACKS_OPTIONS.limitProbeMax)} to probe further`,
        undefined,
        settingName(STACKS_OPTIONS.limitProbeMax),
      );
    }
    // A caller whose creates never succeeded has not reached any limit: create itself is at fault, and judged elsewhere;
    // unless the refusal names the limit, which is then judged here, status and all.
    const atLimit = refused.status === 409 || codeOf(refused) === 'MaxStacksLimitReached';
    if (!created.length && !atLimit) return void createdAsDocumented(ctx, REQUIREMENTS, refused);
    ctx.observe('STK-LIMIT-VALUE', `limit reached at ${existing + created.length} listed stacks`);
    if (!expectError(ctx, 'STK-LIMIT-409', refused, 409, 'MaxStacksLimitReached', `create number ${created.length + 1}`)) return;
    // "Create beyond" a maximum: a caller holding no stack at all is beyond no maximum. Stacks the run deleted
    // may still count (for how long is not shown), listed or not.
    const held = existing + created.length + deletedByRun(ctx);
    ctx.expect.that(
      'STK-LIMIT-409',
      'stacks the caller held (or the run deleted) when its create was refused at the limit',
      held > 0,
      { expected: 'at least 1', actual: held },
      refused,
    );
    ctx.expect.equal(
      'STK-CREATE-REFUSED-NO-STACK',
      'stacks that appeared with the create refused at the limit',
      await appeared(
        ctx,
        before,
        created.map((c) => c.json!.id),
      ),
      [],
    );

    // Still refused: the limit is a state, not a one-off answer.
    const again = await createStack(ctx, {}, 'primary', { settle: false });
    expectError(ctx, 'STK-LIMIT-409', again, 409, 'MaxStacksLimitReached', 'a second create at the limit');

    if (ctx.has('second')) {
      const other = await createStack(ctx, {}, 'second', { settle: false });
      const what = other.status === 202 ? 'created' : `refused with ${other.status} ${String(codeOf(other) ?? '')}`;
      const ok =
        other.status === 202 ||
        (other.status === 409 && (await listedIds(ctx, 'second')).size + deletedByRun(ctx, 'second') >= existing + created.length);
      // The limit is per user: a second user is not held to the first user's count.
      ctx.expect.that(
        'STK-LIMIT-409',
        "a second user's create while the first is at the limit",
        ok,
        { expected: `created, or refused with 409 while holding at least ${existing + created.length} stacks`, actual: what },
        other,
      );
      if (other.status === 202) await deleteStack(ctx, other, 'second');
    }

    // The limit is on active stacks: once the caller's stacks are deleted and gone, create succeeds again.
    if (!created.length) return;
    const ids = created.map((c) => c.json!.id);
    for (const c of created) await deleteStack(ctx, c);
    if (!(await waitGone(ctx, ids)))
      return ctx.untested(
        'STK-LIMIT-409',
        `the deleted stacks were not gone (get 404, not listed) within ${ctx.options.readyTimeoutS} s, so whether the limit frees up stays open`,
      );
    // Gone from list and get, a deleted stack may still count for a while (how long is not shown): a 409 is sent
    // again until the ready timeout.
    const { value: after } = await poll(
      ctx.options.readyTimeoutS,
      () => createStack(ctx, {}, 'primary', { settle: false }),
      (ex) => ex.status !== 409,
    );
    // How long a deleted stack counts is not shown: still refused at the limit after the wait is no verdict.
    if (after.status === 409)
      return ctx.untested(
        'STK-LIMIT-409',
        `create still refused at the limit ${ctx.options.readyTimeoutS} s after the caller's stacks were deleted and gone`,
        after,
      );
    ctx.expect.status('STK-LIMIT-409', `create after the caller's ${ids.length} stack(s) were deleted and gone`, after, 202);
  },
};
