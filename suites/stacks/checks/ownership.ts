import type { Check } from '../../core/check';
import { createdAsDocumented, createStack, expectError, type Summary } from '../support';

export const othersStacksAreInvisible: Check = {
  id: 'stacks.ownership.isolation',
  title: "List, get and delete MUST act only on the caller's own stacks: another user's stack is never listed, read or deleted",
  requirements: ['STK-OWNERSHIP', 'STK-LIST-OWN', 'STK-GET-404', 'STK-DELETE-404'],
  // Every stack it creates counts against the caller's limit, which other creating checks need free.
  shares: ['stack-quota'],
  needs: ['second'],
  async run(ctx) {
    const theirs = await createStack(ctx, {}, 'second');
    if (!createdAsDocumented(ctx, ['STK-OWNERSHIP'], theirs)) return;
    const id = (theirs.json as Summary).id;
    const mine = await createStack(ctx, {}, 'primary');

    const list = await ctx.http.send('listStacks');
    const ids = ((list.json as { stacks?: Summary[] })?.stacks ?? []).map((s) => s.id);
    ctx.assert('STK-LIST-OWN', !ids.includes(id), ids.includes(id) ? `the first user's list shows the second user's stack ${id}` : "list hides the other user's stack", list);
    ctx.assert('STK-OWNERSHIP', !ids.includes(id), ids.includes(id) ? `list reveals stack ${id} of another user` : "list does not reveal another user's stack", list);
    if (mine.status === 202) ctx.assert('STK-LIST-OWN', ids.includes((mine.json as Summary).id), "the caller's own stack is listed", list);

    const get = await ctx.http.send('getStack', { params: { stackId: id } });
    expectError(ctx, 'STK-GET-404', get, 404, 'NotFound', "get of another user's stack");
    ctx.assert('STK-OWNERSHIP', get.status !== 200, get.status === 200 ? "get revealed another user's stack" : "get does not reveal another user's stack", get);

    const del = await ctx.http.send('deleteStack', { params: { stackId: id } });
    expectError(ctx, 'STK-DELETE-404', del, 404, 'NotFound', "delete of another user's stack");
    const still = await ctx.http.send('getStack', { as: 'second', params: { stackId: id } });
    ctx.assert('STK-OWNERSHIP', still.status === 200, still.status === 200 ? "the other user's stack survives the foreign delete" : `after the foreign delete the owner's get answers ${still.status}`, still);
  },
};
