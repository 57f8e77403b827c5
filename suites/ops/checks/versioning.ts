import { BACKUP, MAINTENANCE, SERVICE, statesOf, type Collection } from '../collections';
import { compact } from '../../core/expect';
import { asDoc } from '../../core/json';
import type { Exchange } from '../../core/types';
import {
  changing,
  countOf,
  createIn,
  deleteIn,
  entryOf,
  getIn,
  keys,
  ok,
  ownFilter,
  rows,
  same,
  sameBut,
  tagged,
  updateIn,
  vLatest,
  type Doc,
  type OpsCheck,
  type OpsContext,
} from '../support';

const VERSIONED = [SERVICE, MAINTENANCE, BACKUP];

export const vLatestPathsAnswerTheSame: OpsCheck = {
  id: 'ops.versioning.vlatest-path',
  title: 'Every interface MUST answer the same with /vLatest after the interface segment as without it',
  requirements: ['OPS-VERSION-PATH', 'OPS-VERSION-LATEST-ONLY'],
  // Content-pack installs add correlation searches: the event-management list holds still meanwhile.
  uses: [...statesOf(VERSIONED), 'content-packs'],
  async run(ctx) {
    for (const c of VERSIONED) {
      const { key } = await createIn(ctx, c, `vLatest ${c.type}`);
      if (!key) {
        ctx.untested('OPS-VERSION-PATH', `could not create a ${c.type}`);
        continue;
      }
      const params = { object_type: c.type, _key: key };
      // The list and the count select this check's own object: other checks add to the collection meanwhile.
      const filter = ownFilter(ctx, `vLatest ${c.type}`);
      for (const [op, query] of [
        [c.ops.get, undefined],
        [c.ops.list, { filter }],
        [c.ops.count, { filter }],
      ] as const) {
        // Where the vLatest answer differs from the plain one before it, the plain request is read again after it: a row
        // another client changed in between is not a difference between the two paths.
        const again = () => ctx.http.send(op, { params, query });
        const before = await again();
        const latest = await ctx.http.send(op, { params, query, path: vLatest });
        // Fields that change from one read to the next are the server's own bookkeeping: learned from a second read of
        // the object, and left out of the comparison.
        const after = op === c.ops.get ? await again() : undefined;
        const skip = after ? changing(before.json, after.json) : new Set<string>();
        // Two error answers agree on their status: an error's wording may name the path it was sent to.
        const agrees = (plain: Exchange) =>
          plain.status === latest.status &&
          (plain.status >= 400 ||
            (op === c.ops.list
              ? same(keys(rows(plain)).sort(), keys(rows(latest)).sort())
              : op === c.ops.count
                ? countOf(plain) === countOf(latest)
                : sameBut(plain.json, latest.json, skip)));
        const equal = agrees(before) || agrees(after ?? (await again()));
        const seen = (ex: Exchange) => `${ex.status} ${compact(op === c.ops.list ? keys(rows(ex)) : ex.json)}`;
        ctx.expect.that(
          'OPS-VERSION-PATH',
          `${op} under vLatest, against the same request without it`,
          equal,
          { expected: seen(before), actual: seen(latest) },
          latest,
        );
      }
    }
    // The event-management interface takes vLatest too: its list of episode actions is the same under both paths.
    // A list without sort_key has no order: the actions are compared by name.
    const byName = (ex: Exchange) =>
      Array.isArray(ex.json)
        ? [...ex.json].sort((a, b) => String(asDoc(a).action_name).localeCompare(String(asDoc(b).action_name)))
        : ex.json;
    const actions = await ctx.http.send('emActionList');
    const actionsLatest = await ctx.http.send('emActionList', { path: vLatest });
    const skip = changing(byName(actions), byName(await ctx.http.send('emActionList')));
    const seenActions = (ex: typeof actions) => `${ex.status} ${compact(ex.json)}`;
    ctx.expect.that(
      'OPS-VERSION-PATH',
      'emActionList under vLatest, against the same request without it',
      actions.status === actionsLatest.status && sameBut(byName(actions), byName(actionsLatest), skip),
      { expected: seenActions(actions), actual: seenActions(actionsLatest) },
      actionsLatest,
    );
    await emListUnderVLatest(ctx);
    const types = await ctx.http.send('coreGetSupportedObjectTypes', { path: vLatest });
    ctx.expect.status('OPS-VERSION-LATEST-ONLY', 'get_supported_object_types under vLatest', types, '2xx');
  },
};

/**
 * The event-management lists take vLatest too: the correlation searches (which change only with content-pack
 * installs, unlike episodes) listed under both paths are the same rows. A list without sort_key has no order, so the
 * keys are compared as sets, and the plain list is read again after the vLatest one where they differ.
 */
async function emListUnderVLatest(ctx: OpsContext): Promise<void> {
  const send = (opts: { path?: typeof vLatest } = {}) =>
    ctx.http.send('emList', { ...opts, params: { object_type: 'correlation_search' } });
  const before = await send();
  const latest = await send({ path: vLatest });
  const agrees = (plain: Exchange) =>
    plain.status === latest.status && (plain.status >= 400 || same(keys(rows(plain)).sort(), keys(rows(latest)).sort()));
  const equal = agrees(before) || agrees(await send());
  const seen = (ex: Exchange) => `${ex.status} ${compact(keys(rows(ex)))}`;
  ctx.expect.that(
    'OPS-VERSION-PATH',
    'emList of correlation_search under vLatest, against the same request without it',
    equal,
    { expected: seen(before), actual: seen(latest) },
    latest,
  );
}

/** A check's own ticket on an episode id it made up: no real episode is touched. */
const ticketOf = (ctx: OpsContext, name: string) => ({
  id: `${ctx.options.runTag}-vlatest-${name}`,
  ticket_system: 'CfDesk',
  ticket_id: `${ctx.options.runTag}-VL-${name}`,
  ticket_url: `https://tickets.example.test/CfDesk/${ctx.options.runTag}-VL-${name}`,
});
type TicketBody = ReturnType<typeof ticketOf>;
const ticketParams = (t: TicketBody) => ({ episode_id: t.id, ticket_system: t.ticket_system, ticket_id: t.ticket_id });
/** Whether the episode's links, read without vLatest, hold the ticket. */
async function holdsTicket(ctx: OpsContext, t: TicketBody): Promise<boolean> {
  const ex = await ctx.http.send('ticketGet', { params: { event_key: t.id } });
  return rows(ex).some((l) => Array.isArray(l.tickets) && (l.tickets as Doc[]).some((x) => asDoc(x).ticket_id === t.ticket_id));
}

/** Create, update and delete by key under vLatest, each seen through the plain path: the same operation, the same effect. */
async function writesUnderVLatest(ctx: OpsContext, c: Collection): Promise<void> {
  const latest = { path: vLatest };
  // The same create without vLatest first: what a server does with a plain create is not this rule's to judge.
  const plain = await createIn(ctx, c, `vLatest write ${c.type} plain`);
  if (!plain.key)
    return ctx.untested(
      'OPS-VERSION-PATH',
      `a create of a ${c.type} without vLatest answered no key (${plain.ex.status}): nothing to compare`,
      plain.ex,
    );
  const made = await createIn(ctx, c, `vLatest write ${c.type}`, {}, latest);
  ctx.expect.that(
    'OPS-VERSION-PATH',
    `create under vLatest/${c.type}`,
    made.key !== undefined,
    { expected: 'a success with {_key}', actual: `${made.ex.status} ${made.ex.text.slice(0, 120)}` },
    made.ex,
  );
  if (!made.key) return;
  const created = await getIn(ctx, c, made.key);
  ctx.expect.equal(
    'OPS-VERSION-PATH',
    `GET ${c.type}/<key> without vLatest of the object created under it: success and title`,
    { success: ok(created), title: asDoc(created.json).title },
    { success: true, title: made.body.title },
    created,
  );
  const pair = { plain: plain.key, latest: made.key };
  const judge = (what: string, write: Write, effect: Effect) => sameEffect(ctx, c, pair, what, write, effect);
  const renamed = (key: string) => tagged(ctx, `vLatest write ${c.type} ${key} renamed`);
  const titled = (title: (key: string) => string) => async (key: string) => {
    const got = await getIn(ctx, c, key);
    return { done: ok(got) && asDoc(got.json).title === title(key), seen: `${got.status} title ${compact(asDoc(got.json).title)}` };
  };
  await judge('a partial update', (key, opts) => updateIn(ctx, c, key, { title: renamed(key) }, 1, opts), titled(renamed));
  const bulkUpdate = c.ops.bulkUpdate;
  const inBulk = (key: string) => `${renamed(key)} in bulk`;
  if (bulkUpdate)
    await judge(
      'bulk_update',
      (key, opts) =>
        ctx.http.send(bulkUpdate, {
          ...opts,
          params: { object_type: c.type },
          query: { is_partial_data: 1 },
          body: [{ _key: key, title: inBulk(key) }],
        }),
      titled(inBulk),
    );
  await judge(
    'DELETE by key',
    async (key, opts) => {
      const del = await deleteIn(ctx, c, key, opts);
      if (ok(del)) ctx.ledger.forget(entryOf(c, key));
      return del;
    },
    async (key) => {
      const got = await getIn(ctx, c, key);
      return { done: !ok(got), seen: `GET ${got.status}` };
    },
  );
}

type Write = (key: string, opts: { path?: (p: string) => string }) => Promise<Exchange>;
type Effect = (key: string) => Promise<{ done: boolean; seen: string }>;

/**
 * A write sent to one object without vLatest and to its twin with it: where the plain write had its effect (read
 * through the plain path), the one under vLatest has it too. What a server does with the plain write is other rules'.
 */
async function sameEffect(
  ctx: OpsContext,
  c: Collection,
  keys: { plain: string; latest: string },
  what: string,
  write: Write,
  effect: Effect,
) {
  const plainEx = await write(keys.plain, {});
  const plainEffect = await effect(keys.plain);
  if (!plainEffect.done)
    return ctx.untested(
      'OPS-VERSION-PATH',
      `${what} of a ${c.type} without vLatest did not take effect (${plainEx.status}, ${plainEffect.seen})`,
      plainEx,
    );
  const ex = await write(keys.latest, { path: vLatest });
  const latestEffect = await effect(keys.latest);
  ctx.expect.that(
    'OPS-VERSION-PATH',
    `${what} of a ${c.type} under vLatest, read without it, against the same write without vLatest`,
    latestEffect.done,
    { expected: plainEffect.seen, actual: `${ex.status}, then ${latestEffect.seen}` },
    ex,
  );
}

/**
 * Ticket links on the event-management interface, under vLatest: created there, seen without it; deleted there, gone
 * without it. A server that refuses a ticket on a made-up episode without vLatest too leaves the rule untested here.
 */
async function ticketsUnderVLatest(ctx: OpsContext): Promise<void> {
  const plain = ticketOf(ctx, 'plain');
  const first = await ctx.http.send('ticketCreate', { body: plain });
  if (ok(first)) ctx.ledger.add(`ticket ${plain.id}`, () => ctx.http.send('ticketDelete', { params: ticketParams(plain) }));
  if (!ok(first) || !(await holdsTicket(ctx, plain)))
    return ctx.untested('OPS-VERSION-PATH', `a ticket on a made-up episode is not linked without vLatest either (${first.status})`, first);
  const t = ticketOf(ctx, 'latest');
  const made = await ctx.http.send('ticketCreate', { body: t, path: vLatest });
  if (ok(made)) ctx.ledger.add(`ticket ${t.id}`, () => ctx.http.send('ticketDelete', { params: ticketParams(t) }));
  ctx.expect.that(
    'OPS-VERSION-PATH',
    "the episode's links without vLatest, after POST event_management_interface/vLatest/ticketing",
    ok(made) && (await holdsTicket(ctx, t)),
    { expected: `a success, and ${t.ticket_id} linked`, actual: `${made.status} ${made.text.slice(0, 120)}` },
    made,
  );
  const del = await ctx.http.send('ticketDelete', { params: ticketParams(plain), path: vLatest });
  ctx.expect.that(
    'OPS-VERSION-PATH',
    "the episode's links without vLatest, after DELETE event_management_interface/vLatest/ticketing/...",
    ok(del) && !(await holdsTicket(ctx, plain)),
    { expected: `a success, and ${plain.ticket_id} unlinked`, actual: `${del.status} ${del.text.slice(0, 120)}` },
    del,
  );
}

export const vLatestWrites: OpsCheck = {
  id: 'ops.versioning.vlatest-writes',
  title: 'Writes under /vLatest (create, update, bulk_update, delete, ticket links) MUST act as the same writes without it',
  requirements: ['OPS-VERSION-PATH'],
  uses: statesOf(VERSIONED),
  async run(ctx) {
    await Promise.all([...VERSIONED.map((c) => writesUnderVLatest(ctx, c)), ticketsUnderVLatest(ctx)]);
  },
};
