import type fc from 'fast-check';
import { codeOf, createStack, deletedByRun, sendDelete, stacksOf } from '../support';
import { limitOf, ownedBy, pick, violated, type StackModel, type StackReal } from './model';

type Command = fc.AsyncCommand<StackModel, StackReal>;

export const createCommand = (user: string): Command => ({
  check: () => true,
  async run(m, r) {
    const live = ownedBy(m, m.live, user);
    const pre = m.preexisting.get(user) ?? { active: 0, listed: 0 };
    const lingering = ownedBy(m, m.deleted, user);
    const limit = limitOf(m, user);
    const ex = await createStack(r.ctx, {}, user, { settle: false });
    m.exercised.add('STK-CREATE-202');
    if (ex.status === 202) {
      const id = ex.json!.id;
      if (m.owner.size) m.exercised.add('STK-ID-UNIQUE');
      if (m.owner.has(id))
        violated('STK-ID-UNIQUE', `create returned id ${id}, which an earlier stack of this sequence already had`, ex, {
          expected: `an id other than ${[...m.owner.keys()].join(', ')}`,
          actual: id,
        });
      r.created.push(ex);
      m.owner.set(id, user);
      m.live.add(id);
      m.ids.push(id);
      limit.atLeast = Math.max(limit.atLeast, live + pre.active + 1);
      if (Number.isFinite(limit.atMost)) m.exercised.add('STK-LIMIT-409');
      if (limit.atLeast > limit.atMost)
        violated(
          'STK-LIMIT-409',
          `create succeeded for ${user} holding ${live + pre.active} active stacks, but an earlier create was refused when at most ${limit.atMost} could count`,
          ex,
          {
            expected: `409 (an earlier create was refused when at most ${limit.atMost} stacks could count)`,
            actual: `202 with ${live + pre.active} active`,
          },
        );
    } else if (ex.status === 409) {
      m.exercised.add('STK-LIMIT-409');
      if (codeOf(ex) !== 'MaxStacksLimitReached')
        violated('STK-LIMIT-409', `create refused with 409 but code ${JSON.stringify(codeOf(ex))}`, ex, {
          expected: 'code MaxStacksLimitReached',
          actual: `code ${JSON.stringify(codeOf(ex))}`,
        });
      // Deleted stacks may count, listed or not, for a time not shown: every delete of the run too.
      const couldCount = live + pre.listed + lingering + deletedByRun(r.ctx, user);
      if (couldCount === 0)
        violated('STK-LIMIT-409', `create refused with 409 for ${user}, who holds no stack at all`, ex, {
          expected: '202 (no stack held)',
          actual: 409,
        });
      limit.atMost = Math.min(limit.atMost, couldCount);
      if (limit.atLeast > limit.atMost)
        violated(
          'STK-LIMIT-409',
          `create refused with 409 for ${user} when at most ${couldCount} stacks could count, but an earlier create succeeded with ${limit.atLeast - 1} active`,
          ex,
          {
            expected: `202 (an earlier create succeeded with ${limit.atLeast - 1} active)`,
            actual: `409 with at most ${couldCount} that could count`,
          },
        );
    } else violated('STK-CREATE-202', `create answered ${ex.status}`, ex, { expected: '202, or 409 at the limit', actual: ex.status });
  },
  toString: () => `create(${user})`,
});

export const listCommand = (user: string): Command => ({
  check: () => true,
  async run(m, r) {
    const ex = await r.ctx.http.send('listStacks', { as: user });
    if (ex.status !== 200) violated('STK-CREATE-VISIBLE', `list answered ${ex.status}`, ex, { expected: '200', actual: ex.status });
    const listed = new Map(stacksOf(ex).map((s) => [s.id, s]));
    for (const id of [...m.live, ...m.deleted]) {
      const mine = m.owner.get(id) === user;
      m.exercised.add(mine ? 'STK-CREATE-VISIBLE' : 'STK-OWNERSHIP');
      if (!mine && listed.has(id))
        violated('STK-OWNERSHIP', `${user}'s list shows stack ${id} of ${m.owner.get(id)}`, ex, {
          expected: `without ${id}`,
          actual: `with ${id}`,
        });
      if (mine && m.live.has(id) && !listed.has(id))
        violated('STK-CREATE-VISIBLE', `${user}'s live stack ${id} is missing from the list`, ex, {
          expected: `with ${id}`,
          actual: [...listed.keys()],
        });
    }
  },
  toString: () => `list(${user})`,
});

export const getCommand = (user: string, n: number): Command => ({
  check: () => true,
  async run(m, r) {
    const id = pick(m, n);
    const ex = await r.ctx.http.send('getStack', { as: user, params: { stackId: id } });
    const owner = m.owner.get(id);
    if (m.live.has(id) && owner === user) {
      m.exercised.add('STK-GET-200');
      if (ex.status !== 200 || ex.json!.id !== id)
        violated('STK-GET-200', `get of ${user}'s own stack ${id} answered ${ex.status}`, ex, {
          expected: `200 with id ${id}`,
          actual: `${ex.status}${ex.status === 200 ? ` with id ${String(ex.json?.id)}` : ''}`,
        });
    } else if (m.deleted.has(id) && owner === user) {
      // What a deleted stack reads as, and for how long, is not shown (the delete check observes it).
      return;
    } else {
      const requirement = owner ? 'STK-OWNERSHIP' : 'STK-GET-404';
      m.exercised.add(requirement);
      if (ex.status !== 404)
        violated(
          requirement,
          `get by ${user} of ${owner ? `${owner}'s` : 'a never-created'} stack ${id} answered ${ex.status}, expected 404`,
          ex,
          { expected: '404', actual: ex.status },
        );
    }
  },
  toString: () => `get(${user}, #${n})`,
});

export const deleteCommand = (user: string, n: number): Command => ({
  check: () => true,
  async run(m, r) {
    const id = pick(m, n);
    const ex = await sendDelete(r.ctx, id, user);
    const owner = m.owner.get(id);
    if (m.live.has(id) && owner === user) {
      m.exercised.add('STK-DELETE-204');
      if (ex.status !== 204)
        violated('STK-DELETE-204', `delete of ${user}'s own stack ${id} answered ${ex.status}`, ex, { expected: '204', actual: ex.status });
      m.live.delete(id);
      m.deleted.add(id);
    } else if (m.deleted.has(id) && owner === user) {
      // A stack still stopping may or may not "exist" for the caller: 204 and 404 are both consistent.
      if (ex.status !== 404 && ex.status !== 204)
        violated('STK-DELETE-404', `a repeated delete of ${id} answered ${ex.status}`, ex, { expected: '404 or 204', actual: ex.status });
    } else {
      const requirement = owner ? 'STK-OWNERSHIP' : 'STK-DELETE-404';
      m.exercised.add(requirement);
      if (ex.status !== 404)
        violated(
          requirement,
          `delete by ${user} of ${owner ? `${owner}'s` : 'a never-created'} stack ${id} answered ${ex.status}, expected 404`,
          ex,
          { expected: '404', actual: ex.status },
        );
    }
  },
  toString: () => `delete(${user}, #${n})`,
});
