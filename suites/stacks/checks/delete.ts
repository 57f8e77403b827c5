import { createdAsDocumented, createStack, deleteStack, GONE_STATES, pollStack, stateOf, type StacksCheck, type StacksContext } from '../support';

async function expectGone(ctx: StacksContext, id: string, from: string): Promise<void> {
  // How long teardown takes is not shown: a deleted stack may read as live for up to the ready timeout.
  const { ex, reached: ok } = await pollStack(ctx, id, (e) => e.status === 404 || (e.status === 200 && GONE_STATES.includes(String(stateOf(e)))));
  const state = ex.status === 200 ? String(stateOf(ex)) : `HTTP ${ex.status}`;
  ctx.expect.that('STK-DELETE-EFFECT', `get of a deleted ${from} stack, within ${ctx.options.readyTimeoutS} s`, ok, { expected: `HTTP 404, or state ${GONE_STATES.join(' or ')}`, actual: state }, ex);
  ctx.observe('STK-TRANSITIONS', `after delete of a ${from} stack, get answers ${state}`);
  const list = await ctx.http.send('listStacks');
  const entry = (list.json?.stacks ?? []).find((s) => s.id === id);
  const listedOk = !entry || GONE_STATES.includes(entry.state);
  ctx.expect.that(
    'STK-DELETE-EFFECT',
    `the list after delete of a ${from} stack`,
    listedOk,
    { expected: `not listed, or listed as ${GONE_STATES.join(' or ')}`, actual: entry ? `listed as ${entry.state}` : 'not listed' },
    list,
  );
  ctx.observe('STK-TRANSITIONS', `after delete of a ${from} stack, list ${entry ? `shows it as ${entry.state}` : 'no longer shows it'}`);
}

export const deleteRemovesStack: StacksCheck = {
  id: 'stacks.delete.removes-stack',
  title: 'Delete MUST answer 204 with an empty body, and the stack MUST NOT stay CREATING or RUNNING afterwards',
  requirements: ['STK-DELETE-204', 'STK-DELETE-EFFECT', 'STK-TRANSITIONS', 'STK-DELETE-404'],
  // Every stack it creates counts against the caller's limit, which other creating checks need free.
  shares: ['stack-quota'],
  async run(ctx) {
    const fresh = await createStack(ctx, {});
    if (!createdAsDocumented(ctx, ['STK-DELETE-204'], fresh)) return;
    const freshId = fresh.json!.id;
    const ex = await deleteStack(ctx, fresh);
    if (ctx.expect.status('STK-DELETE-204', ex, 204, 'delete of a new stack')) {
      ctx.expect.equal('STK-DELETE-204', 'the body of the 204', ex.text, '', ex);
      await expectGone(ctx, freshId, String(stateOf(fresh)));
      const again = await ctx.http.send('deleteStack', { params: { stackId: freshId } });
      ctx.observe('STK-TRANSITIONS', `a second delete of the same stack answers ${again.status}`);
      const gone = (await ctx.http.send('getStack', { params: { stackId: freshId } })).status === 404;
      if (gone) ctx.expect.status('STK-DELETE-404', again, 404, 'a second delete of a stack that get reports missing');
    }

    const running = await createStack(ctx, {});
    if (running.status !== 202) return;
    const id = running.json!.id;
    const { ex: last, reached } = await pollStack(ctx, id, (e) => stateOf(e) === 'RUNNING');
    if (!reached) return ctx.untested('STK-DELETE-EFFECT', `stack did not become RUNNING within ${ctx.options.readyTimeoutS} s (STACKS_READY_TIMEOUT_S); last state ${String(stateOf(last))}`, last);
    const del = await deleteStack(ctx, running);
    if (ctx.expect.status('STK-DELETE-204', del, 204, 'delete of a RUNNING stack')) await expectGone(ctx, id, 'RUNNING');
  },
};
