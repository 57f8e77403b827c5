import { createdAsDocumented, createStack, expectNotFound, type StacksCheck } from '../support';

export const othersStacksAreInvisible: StacksCheck = {
  id: 'stacks.ownership.isolation',
  title: "List, get and delete MUST act only on the caller's own stacks: another user's stack is never listed, read or deleted",
  requirements: ['STK-OWNERSHIP', 'STK-LIST-OWN', 'STK-GET-404', 'STK-DELETE-404'],
  // Its stacks count against the caller's limit; it looks only at its own, so it runs beside others that do.
  uses: ['stack-quota'],
  needs: ['second'],
  async run(ctx) {
    const theirs = await createStack(ctx, {}, 'second');
    if (!createdAsDocumented(ctx, ['STK-OWNERSHIP'], theirs)) return;
    const id = theirs.json!.id;
    const mine = await createStack(ctx, {}, 'primary');

    const list = await ctx.http.send('listStacks');
    const ids = (list.json?.stacks ?? []).map((s) => s.id);
    ctx.expect.absent('STK-LIST-OWN', "ids the first user's list shows, against the second user's stack", ids, id, list);
    ctx.expect.absent('STK-OWNERSHIP', "ids the first user's list shows, against another user's stack", ids, id, list);
    if (mine.status === 202)
      ctx.expect.contains('STK-LIST-OWN', "ids the caller's list shows, against its own stack", ids, mine.json!.id, list);

    const get = await ctx.http.send('getStack', { params: { stackId: id } });
    expectNotFound(ctx, 'STK-GET-404', get, "get of another user's stack");
    ctx.expect.that(
      'STK-OWNERSHIP',
      "get of another user's stack",
      get.status !== 200,
      { expected: 'anything but 200', actual: get.status },
      get,
    );

    const del = await ctx.http.send('deleteStack', { params: { stackId: id } });
    expectNotFound(ctx, 'STK-DELETE-404', del, "delete of another user's stack");
    const still = await ctx.http.send('getStack', { as: 'second', params: { stackId: id } });
    ctx.expect.status('STK-OWNERSHIP', "the owner's get after another user's delete of its stack", still, 200);
  },
};
