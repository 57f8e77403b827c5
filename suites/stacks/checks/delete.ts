import { sleep } from '../../core/sleep';
import {
  READY_TIMEOUT,
  createdAsDocumented,
  createStack,
  deleteStack,
  expectNotFound,
  GONE_STATES,
  pollStack,
  runningStack,
  sendDelete,
  stateOf,
  stacksOf,
  type StacksCheck,
  type StacksContext,
} from '../support';

/**
 * What a deleted stack reads as afterwards. How long teardown takes, and the effect of delete on the state, are not
 * shown: that it stops reading as live within the ready timeout is a SHOULD. What the document does link is list and
 * get: the list holds the caller's "active stacks", and a stack get answers 404 for "does not exist for the caller",
 * so once get has answered 404 the list MUST NOT show it, in any state. A stack STOPPING that get still reads may be
 * listed or not. Nothing the client wrote moved the stack out of get (teardown did), so the settled attempt cannot
 * hold the list back for it: a list that still shows it is read once more the settle bound after that 404.
 */
async function expectGone(ctx: StacksContext, id: string, from: string): Promise<void> {
  const { ex, reached: ok } = await pollStack(
    ctx,
    id,
    (e) => e.status === 404 || (e.status === 200 && GONE_STATES.includes(String(stateOf(e)))),
  );
  const state = ex.status === 200 ? String(stateOf(ex)) : `HTTP ${ex.status}`;
  ctx.expect.that(
    'STK-DELETE-EFFECT',
    `get of a deleted ${from} stack, within ${ctx.options.readyTimeoutS} s`,
    ok,
    { expected: `HTTP 404, or state ${GONE_STATES.join(' or ')}`, actual: state },
    ex,
  );
  ctx.observe('STK-TRANSITIONS', `after delete of a ${from} stack, get answers ${state}`);
  // A stack STOPPING may still exist for the caller: the list is held to get only once get answers 404.
  const missing = ex.status === 404 ? ex : (await pollStack(ctx, id, (e) => e.status === 404)).ex;
  if (missing.status !== 404)
    return ctx.untested(
      'STK-LIST-GET-AGREE',
      `get of the deleted stack did not answer 404 within ${ctx.options.readyTimeoutS} s (${READY_TIMEOUT})`,
      missing,
      READY_TIMEOUT,
    );
  expectNotFound(ctx, 'STK-GET-404', missing, `get of a deleted ${from} stack`);
  const missingAt = Date.now();
  const entryOf = async () => {
    const list = await ctx.http.send('listStacks');
    return { list, entry: stacksOf(list).find((s) => s.id === id) };
  };
  let seen = await entryOf();
  if (seen.entry && ctx.options.settleS > 0) {
    await sleep(Math.max(0, missingAt + ctx.options.settleS * 1000 - Date.now()));
    seen = await entryOf();
  }
  ctx.expect.that(
    'STK-LIST-GET-AGREE',
    `the list after get answered 404 for a deleted ${from} stack`,
    seen.list.status === 200 && !seen.entry,
    { expected: 'a list without it', actual: seen.entry ? `listed as ${seen.entry.state}` : `list answered ${seen.list.status}` },
    seen.list,
  );
  ctx.observe(
    'STK-TRANSITIONS',
    `after delete of a ${from} stack, list ${seen.entry ? `shows it as ${seen.entry.state}` : 'no longer shows it'} once get answers 404`,
  );
}

export const deleteRemovesStack: StacksCheck = {
  id: 'stacks.delete.removes-stack',
  title: 'Delete MUST answer 204 with an empty body; once get reports the stack missing (404 NotFound) the list MUST NOT show it',
  requirements: ['STK-DELETE-204', 'STK-DELETE-EFFECT', 'STK-LIST-GET-AGREE', 'STK-TRANSITIONS', 'STK-DELETE-404', 'STK-GET-404'],
  // Its stacks count against the caller's limit; it looks only at its own, so it runs beside others that do.
  uses: ['stack-quota'],
  async run(ctx) {
    const fresh = await createStack(ctx, {});
    if (!createdAsDocumented(ctx, ['STK-DELETE-204'], fresh)) return;
    const freshId = fresh.json!.id;
    const ex = await deleteStack(ctx, fresh);
    if (ctx.expect.status('STK-DELETE-204', 'delete of a new stack', ex, 204)) {
      ctx.expect.equal('STK-DELETE-204', 'the body of the 204', ex.text, '', ex);
      await expectGone(ctx, freshId, String(stateOf(fresh)));
      const again = await sendDelete(ctx, freshId);
      ctx.observe('STK-TRANSITIONS', `a second delete of the same stack answers ${again.status}`);
      const gone = (await ctx.http.send('getStack', { params: { stackId: freshId } })).status === 404;
      if (gone) expectNotFound(ctx, 'STK-DELETE-404', again, 'a second delete of a stack that get reports missing');
    }

    const { created: running } = await runningStack(ctx, 'STK-TRANSITIONS');
    const id = running.json!.id;
    const del = await deleteStack(ctx, running);
    if (ctx.expect.status('STK-DELETE-204', 'delete of a RUNNING stack', del, 204)) await expectGone(ctx, id, 'RUNNING');
  },
};
