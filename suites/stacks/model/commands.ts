import type fc from 'fast-check';
import { createStack, GONE_STATES, stateOf, type Summary } from '../support';
import { liveCount, pick, settling, violated, type StackModel, type StackReal } from './model';

type Command = fc.AsyncCommand<StackModel, StackReal>;

export const createCommand = (user: string): Command => ({
  check: () => true,
  async run(m, r) {
    const count = liveCount(m, user);
    const ex = await createStack(r.ctx, {}, user);
    if (ex.status === 202) {
      const id = (ex.json as Summary).id;
      if (m.owner.has(id)) violated('STK-ID-UNIQUE', `create returned id ${id}, which an earlier stack of this sequence already had`, ex);
      if (m.limit !== undefined && count >= m.limit) violated('STK-LIMIT-409', `create succeeded for ${user} holding ${count} stacks, but an earlier create was refused at ${m.limit}`, ex);
      r.created.push(ex);
      m.owner.set(id, user);
      m.live.add(id);
      m.ids.push(id);
    } else if (ex.status === 409) {
      if ((ex.json as { code?: string })?.code !== 'MaxStacksLimitReached') violated('STK-LIMIT-409', `create refused with 409 but code ${JSON.stringify((ex.json as { code?: string })?.code)}`, ex);
      // A deleted stack may still be stopping and count for a while: only a refusal below that is wrong.
      const stopping = [...m.deleted].filter((id) => m.owner.get(id) === user).length;
      if (m.limit === undefined) m.limit = count;
      else if (count + stopping < m.limit) violated('STK-LIMIT-409', `create refused with 409 for ${user} holding ${count} stacks, below the limit ${m.limit} seen earlier`, ex);
    } else violated('STK-CREATE-202', `create answered ${ex.status}`, ex);
  },
  toString: () => `create(${user})`,
});

export const listCommand = (user: string): Command => ({
  check: () => true,
  async run(m, r) {
    const ex = await r.ctx.http.send('listStacks', { as: user });
    if (ex.status !== 200) violated('STK-LIST-OWN', `list answered ${ex.status}`, ex);
    const stacks = (ex.json as { stacks?: Summary[] }).stacks ?? [];
    const listed = new Map(stacks.map((s) => [s.id, s]));
    for (const id of m.live) {
      const mine = m.owner.get(id) === user;
      if (mine && !listed.has(id)) violated('STK-CREATE-VISIBLE', `${user}'s live stack ${id} is missing from the list`, ex);
      if (!mine && listed.has(id)) violated('STK-OWNERSHIP', `${user}'s list shows stack ${id} of ${m.owner.get(id)}`, ex);
    }
    for (const id of m.deleted) {
      const s = listed.get(id);
      if (s && m.owner.get(id) !== user) violated('STK-OWNERSHIP', `${user}'s list shows deleted stack ${id} of ${m.owner.get(id)}`, ex);
      if (s && !GONE_STATES.includes(s.state) && !settling(m, id)) violated('STK-DELETE-EFFECT', `deleted stack ${id} is still listed as ${s.state}`, ex);
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
      if (ex.status !== 200 || (ex.json as Summary).id !== id) violated('STK-GET-200', `get of ${user}'s own stack ${id} answered ${ex.status}`, ex);
    } else if (m.deleted.has(id) && owner === user) {
      if (!(ex.status === 404 || (ex.status === 200 && (GONE_STATES.includes(String(stateOf(ex))) || settling(m, id))))) violated('STK-DELETE-EFFECT', `get of deleted stack ${id} answered ${ex.status} ${String(stateOf(ex) ?? '')}`, ex);
    } else if (ex.status !== 404) violated(owner ? 'STK-OWNERSHIP' : 'STK-GET-404', `get by ${user} of ${owner ? `${owner}'s` : 'a never-created'} stack ${id} answered ${ex.status}, expected 404`, ex);
  },
  toString: () => `get(${user}, #${n})`,
});

export const deleteCommand = (user: string, n: number): Command => ({
  check: () => true,
  async run(m, r) {
    const id = pick(m, n);
    const ex = await r.ctx.http.send('deleteStack', { as: user, params: { stackId: id } });
    const owner = m.owner.get(id);
    if (m.live.has(id) && owner === user) {
      if (ex.status !== 204) violated('STK-DELETE-204', `delete of ${user}'s own stack ${id} answered ${ex.status}`, ex);
      m.live.delete(id);
      m.deleted.add(id);
      m.deletedAt.set(id, Date.now());
    } else if (m.deleted.has(id) && owner === user) {
      if (ex.status !== 404 && ex.status !== 204) violated('STK-DELETE-404', `a repeated delete of ${id} answered ${ex.status}`, ex);
    } else if (ex.status !== 404) violated(owner ? 'STK-OWNERSHIP' : 'STK-DELETE-404', `delete by ${user} of ${owner ? `${owner}'s` : 'a never-created'} stack ${id} answered ${ex.status}, expected 404`, ex);
  },
  toString: () => `delete(${user}, #${n})`,
});
