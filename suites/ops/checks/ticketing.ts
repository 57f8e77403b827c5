import fc from 'fast-check';
import { checkProperty, Violation } from '../../core/property';
import { compact } from '../../core/expect';
import { asDoc } from '../../core/json';
import type { Exchange } from '../../core/types';
import { ok, rows, type Doc, type OpsCheck, type OpsContext, type OpsRequirementId } from '../support';

/**
 * Every ticket link the run makes is on an episode id it made up, carrying the run tag: linking and unlinking
 * tickets there touches no real episode. A server that holds ticket links only for the episodes it knows refuses
 * those: the checks then link to episodes it lists, with ticket ids carrying the check's tag, and read back only
 * the tickets of their own.
 */
const episodeId = (ctx: OpsContext, name: string) => `${ctx.options.runTag}-${name}`;
const SYSTEMS = ['CfDesk', 'CfTracker'];
/** Ticket ids of a check (of one model run with `scope`): `<tag><scope>-INC0001`, ... */
const ticketIds = (ctx: OpsContext, scope = '') => ['INC0001', 'INC0002', 'INC0003'].map((i) => `${ctx.options.runTag}${scope}-${i}`);
const urlOf = (system: string, id: string) => `https://tickets.example.test/${system}/${id}`;
const FIELDS = ['id', 'ticket_system', 'ticket_id', 'ticket_url'] as const;

interface Ticket {
  episode: string;
  system: string;
  id: string;
}
const label = (t: Ticket) => `${t.episode}/${t.system}/${t.id}`;
const pair = (system: unknown, id: unknown) => `${String(system)}/${String(id)}`;

const remove = (ctx: OpsContext, t: Ticket) =>
  ctx.http.send('ticketDelete', { params: { episode_id: t.episode, ticket_system: t.system, ticket_id: t.id } });

/** Ledger entries by ticket, so a ticket the check removes itself comes off the ledger. */
function tracker(ctx: OpsContext) {
  return {
    made: (t: Ticket) => ctx.ledger.add(`ticket ${label(t)}`, () => remove(ctx, t)),
    gone: (t: Ticket) => ctx.ledger.forget(`ticket ${label(t)}`),
  };
}

const create = (ctx: OpsContext, t: Ticket) =>
  ctx.http.send('ticketCreate', { body: { id: t.episode, ticket_system: t.system, ticket_id: t.id, ticket_url: urlOf(t.system, t.id) } });

/** The fields go both in the body and on the query string: the document lists them as parameters and as payload. */
const link = (ctx: OpsContext, t: Ticket) => {
  const fields = { ticket_system: t.system, ticket_id: t.id, ticket_url: urlOf(t.system, t.id) };
  return ctx.http.send('ticketLink', { params: { event_key: t.episode }, query: fields, body: fields });
};

/** The key a create answered: `{_key}`, a bare string or a one-element array. */
const answeredKey = (ex: Exchange): string | undefined => {
  const j = ex.json;
  const k = typeof j === 'string' ? j : Array.isArray(j) ? j[0] : asDoc(j)._key;
  return typeof k === 'string' && k !== '' ? k : undefined;
};

interface Read {
  ex: Exchange;
  links: Doc[];
  /** `system/ticket id` of every ticket the links of this episode hold. */
  tickets: string[];
  /** Links that name another episode. */
  foreign: Doc[];
}

async function read(ctx: OpsContext, episode: string, query?: Record<string, string>, scope = ''): Promise<Read> {
  const ex = await ctx.http.send('ticketGet', { params: { event_key: episode }, query });
  const mine = (t: Doc) => String(t?.ticket_id).startsWith(`${ctx.options.runTag}${scope}-`);
  // Links the episode held before the check (a real episode's) are not the check's to judge.
  const links = rows(ex).filter((l) => l.event_id !== episode || (Array.isArray(l.tickets) && (l.tickets as Doc[]).some(mine)));
  const own = links.filter((l) => l.event_id === episode);
  const tickets = own.flatMap((l) =>
    Array.isArray(l.tickets) ? (l.tickets as Doc[]).filter(mine).map((t) => pair(t?.ticket_system ?? l.ticket_system, t?.ticket_id)) : [],
  );
  return { ex, links, tickets: [...new Set(tickets)].sort(), foreign: links.filter((l) => l.event_id !== episode) };
}

/**
 * The episodes a check links tickets to, one per name: made-up ids, unless the server refuses a ticket on one (a
 * 4xx); then as many episodes as it lists, when it lists enough.
 */
async function episodesFor(ctx: OpsContext, names: string[], requirement: OpsRequirementId): Promise<string[]> {
  const madeUp = names.map((n) => episodeId(ctx, n));
  const probe: Ticket = { episode: madeUp[0], system: SYSTEMS[0], id: `${ctx.options.runTag}-probe` };
  const track = tracker(ctx);
  const ex = await create(ctx, probe);
  if (ok(ex)) {
    track.made(probe);
    if (ok(await remove(ctx, probe))) track.gone(probe);
    return madeUp;
  }
  if (ex.status < 400 || ex.status >= 500) return madeUp;
  const listed = rows(await ctx.http.send('emList', { params: { object_type: 'notable_event_group' }, query: { limit: 20 } }));
  const real = [...new Set(listed.map((d) => d._key).filter((k): k is string => typeof k === 'string' && k !== ''))];
  if (real.length < names.length) return madeUp;
  ctx.observe(
    requirement,
    `a ticket on an episode id the server does not hold was refused (${ex.status}): tickets with the check's ids were linked to ${names.length} of its episodes`,
  );
  return real.slice(0, names.length);
}

const show = (xs: string[]) => (xs.length ? xs.join(', ') : '(none)');

/** The links read back: each carries a key create answered, object_type external_ticket and the documented fields. */
function judgeLinkShape(ctx: OpsContext, got: Read, keysAnswered: string[]): void {
  const linkKeys = got.links.map((l) => l._key);
  ctx.expect.equal(
    'OPS-TICKET-CREATE',
    `keys create answered that no link of the episode carries (links: ${linkKeys.join(', ')})`,
    keysAnswered.filter((k) => !linkKeys.includes(k)),
    [],
    got.ex,
  );
  const types = [...new Set(got.links.map((l) => l.object_type))];
  ctx.expect.equal(
    'OPS-TICKET-OBJECT-TYPE',
    'object_type of ticket links other than external_ticket',
    types.filter((t) => t !== 'external_ticket'),
    [],
    got.ex,
  );
  const malformed = got.links.filter(
    (l) =>
      ['ticket_system', '_user', 'event_id', '_key'].some((f) => typeof l[f] !== 'string') ||
      !Array.isArray(l.tickets) ||
      (l.tickets as Doc[]).some((t) => ['ticket_system', 'ticket_url', 'ticket_id'].some((f) => typeof t?.[f] !== 'string')),
  );
  ctx.expect.equal(
    'OPS-TICKET-LINK-FIELDS',
    `links without string ticket_system, _user, event_id, _key and tickets of {ticket_system, ticket_url, ticket_id} (of ${got.links.length})`,
    malformed,
    [],
    got.ex,
  );
}

/** GET of the episode's links with each filter parameter leaves out no link holding a matching ticket (`want`: all of them). */
async function judgeFilters(ctx: OpsContext, ep: string, inc: string[], want: string[], got: Read): Promise<void> {
  // The filter parameters may be ignored, but a link holding a matching ticket must never be left out.
  const filters: [Record<string, string>, (p: string) => boolean][] = [
    [{ ticket_system: SYSTEMS[1] }, (p) => p.startsWith(`${SYSTEMS[1]}/`)],
    [{ ticket_id: inc[1] }, (p) => p.endsWith(`/${inc[1]}`)],
    [{ ticket_id: inc[0] }, (p) => p.endsWith(`/${inc[0]}`)],
    [{ ticket_url: urlOf(SYSTEMS[0], inc[1]) }, (p) => p === pair(SYSTEMS[0], inc[1])],
    [{ ticket_url: urlOf(SYSTEMS[1], inc[0]) }, (p) => p === pair(SYSTEMS[1], inc[0])],
  ];
  for (const [query, matches] of filters) {
    const narrowed = await read(ctx, ep, query);
    ctx.observe(
      'OPS-TICKET-GET',
      `with ${JSON.stringify(query)} the episode's links answered ${narrowed.ex.status} with ${narrowed.links.length} links (${got.links.length} without it)`,
    );
    if (ok(narrowed.ex))
      ctx.expect.equal(
        'OPS-TICKET-GET',
        `tickets matching ${JSON.stringify(query)} that the answer leaves out`,
        want.filter(matches).filter((p) => !narrowed.tickets.includes(p)),
        [],
        narrowed.ex,
      );
  }
}

/** Each delete removes exactly its ticket, on this episode only; `want`: the episode's tickets before, `elsewhere`: another's. */
async function judgeDeletes(
  ctx: OpsContext,
  track: ReturnType<typeof tracker>,
  { ep, made, want }: { ep: string; made: Ticket[]; want: string[] },
  elsewhere: Ticket,
): Promise<void> {
  // The second ticket of its system: removing it must leave the first one of that system alone.
  const gone = made[1];
  const del = await remove(ctx, gone);
  if (ok(del)) track.gone(gone);
  // The document answers "empty"; 204 without a body and 200 with one are both seen in the field.
  ctx.expect.status('OPS-TICKET-DELETE', `deleting ${label(gone)}`, del, '2xx');
  const after = await read(ctx, ep);
  const left = want.filter((p) => p !== pair(gone.system, gone.id));
  ctx.expect.equal(
    'OPS-TICKET-DELETE',
    `the episode's links after deleting ${label(gone)}: success and tickets`,
    { success: ok(after.ex), tickets: after.tickets },
    { success: true, tickets: left },
    after.ex,
  );
  const again = await remove(ctx, gone);
  ctx.observe('OPS-TICKET-DELETE', `deleting the same ticket again answered ${again.status}`);

  // The rest one by one, the last ticket of its system first: each delete takes exactly its ticket, here only.
  for (const t of [made[2], made[0]]) {
    const d = await remove(ctx, t);
    if (ok(d)) track.gone(t);
    left.splice(left.indexOf(pair(t.system, t.id)), 1);
    const now = await read(ctx, ep);
    const other = await read(ctx, elsewhere.episode);
    ctx.expect.equal(
      'OPS-TICKET-DELETE',
      `deleting ${label(t)}: success, this episode's tickets, and those of ${elsewhere.episode}`,
      { success: ok(d), tickets: now.tickets, elsewhere: other.tickets },
      { success: true, tickets: [...left], elsewhere: [pair(elsewhere.system, elsewhere.id)] },
      d,
    );
  }
}

const createReadDelete: OpsCheck = {
  id: 'ops.ticketing.create-read-delete',
  title:
    "POST ticketing MUST create a ticket link and answer its key; GET ticketing/<episode> MUST list the episode's links; DELETE ticketing/<episode>/<system>/<ticket> MUST remove exactly that ticket",
  requirements: ['OPS-TICKET-CREATE', 'OPS-TICKET-GET', 'OPS-TICKET-OBJECT-TYPE', 'OPS-TICKET-LINK-FIELDS', 'OPS-TICKET-DELETE'],
  async run(ctx) {
    const [ep, elsewhereEpisode] = await episodesFor(ctx, ['tickets', 'tickets elsewhere'], 'OPS-TICKET-CREATE');
    const inc = ticketIds(ctx);
    const track = tracker(ctx);
    const made: Ticket[] = [
      { episode: ep, system: SYSTEMS[0], id: inc[0] },
      { episode: ep, system: SYSTEMS[0], id: inc[1] },
      { episode: ep, system: SYSTEMS[1], id: inc[0] },
    ];
    // Another episode holds one of the same tickets, made first: deletes on this episode must leave it alone.
    const elsewhere: Ticket = { episode: elsewhereEpisode, system: SYSTEMS[0], id: inc[0] };
    if (ok(await create(ctx, elsewhere))) track.made(elsewhere);
    const keysAnswered: string[] = [];
    for (const t of made) {
      const ex = await create(ctx, t);
      if (ok(ex)) track.made(t);
      const key = answeredKey(ex);
      if (key) keysAnswered.push(key);
      if (
        !ctx.expect.that(
          'OPS-TICKET-CREATE',
          `creating ticket ${label(t)}`,
          ok(ex) && key !== undefined,
          { expected: 'a success with a key', actual: `${ex.status} ${ex.text.slice(0, 100)}` },
          ex,
        )
      )
        return;
    }
    const got = await read(ctx, ep);
    const want = made.map((t) => pair(t.system, t.id)).sort();
    const readable = ok(got.ex) && JSON.stringify(got.tickets) === JSON.stringify(want);
    ctx.expect.that(
      'OPS-TICKET-GET',
      "the episode's links",
      readable && got.foreign.length === 0,
      {
        expected: `a success holding ${show(want)}, no link of another episode`,
        actual: `${got.ex.status} holding ${show(got.tickets)}${got.foreign.length ? ` and ${got.foreign.length} links of other episodes` : ''}`,
      },
      got.ex,
    );
    if (!readable) {
      for (const r of ['OPS-TICKET-OBJECT-TYPE', 'OPS-TICKET-LINK-FIELDS', 'OPS-TICKET-DELETE'] as const)
        ctx.untested(r, "the episode's links do not read back as created", got.ex);
      return;
    }
    judgeLinkShape(ctx, got, keysAnswered);
    await judgeFilters(ctx, ep, inc, want, got);
    await judgeDeletes(ctx, track, { ep, made, want }, elsewhere);
  },
};

const linkToEpisode: OpsCheck = {
  id: 'ops.ticketing.link',
  title: 'POST ticketing/<episode> MUST link the ticket to that episode and answer an array with the identifier of the link',
  requirements: ['OPS-TICKET-LINK'],
  async run(ctx) {
    const [linked, other] = await episodesFor(ctx, ['link', 'link ids'], 'OPS-TICKET-LINK');
    const inc = ticketIds(ctx);
    const t: Ticket = { episode: linked, system: SYSTEMS[0], id: inc[2] };
    const track = tracker(ctx);
    const ex = await link(ctx, t);
    if (ok(ex)) track.made(t);
    const ids: unknown[] = Array.isArray(ex.json) ? ex.json : [];
    ctx.expect.that(
      'OPS-TICKET-LINK',
      `linking ${label(t)}`,
      ok(ex) && ids.length > 0 && ids.every((i) => typeof i === 'string'),
      { expected: 'a success with an array of identifiers', actual: `${ex.status} ${ex.text.slice(0, 100)}` },
      ex,
    );
    const got = await read(ctx, t.episode);
    ctx.expect.that(
      'OPS-TICKET-LINK',
      "the episode's tickets after linking",
      ok(got.ex) && got.tickets.includes(pair(t.system, t.id)),
      { expected: `a success holding ${pair(t.system, t.id)}`, actual: `${got.ex.status} holding ${show(got.tickets)}` },
      got.ex,
    );
    const holder = got.links.find((l) => Array.isArray(l.tickets) && (l.tickets as Doc[]).some((x) => x?.ticket_id === t.id));
    ctx.expect.that(
      'OPS-TICKET-LINK',
      'identifiers the link answered, against the _key of the link holding the ticket',
      holder !== undefined && ids.includes(holder._key),
      { expected: `holds ${compact(holder?._key)}`, actual: compact(ids) },
      got.ex,
    );
    // With ids the ticket goes to the path's episode or to the episodes ids names (the document does not say which),
    // never to neither.
    const u: Ticket = { episode: t.episode, system: SYSTEMS[1], id: inc[2] };
    const fields = { ticket_system: u.system, ticket_id: u.id, ticket_url: urlOf(u.system, u.id), ids: other };
    const withIds = await ctx.http.send('ticketLink', { params: { event_key: u.episode }, query: fields, body: fields });
    if (!ok(withIds)) return ctx.observe('OPS-TICKET-LINK', `linking with ids answered ${withIds.status} ${withIds.text.slice(0, 80)}`);
    for (const episode of [u.episode, other]) track.made({ ...u, episode });
    const holders = [];
    for (const episode of [u.episode, other]) if ((await read(ctx, episode)).tickets.includes(pair(u.system, u.id))) holders.push(episode);
    ctx.expect.that(
      'OPS-TICKET-LINK',
      `episodes holding ${pair(u.system, u.id)}, linked on ${u.episode} with ids=${other}`,
      holders.length > 0,
      { expected: `${u.episode} or ${other}`, actual: 'neither' },
      withIds,
    );
  },
};

/** Every non-empty set of left-out fields: fifteen cases, few enough to try them all. */
const OMISSIONS: (typeof FIELDS)[number][][] = Array.from({ length: 15 }, (_, i) => FIELDS.filter((_, b) => ((i + 1) >> b) & 1));

const createNeedsEveryField: OpsCheck = {
  id: 'ops.ticketing.create-required',
  title: 'POST ticketing without any one of id, ticket_system, ticket_id and ticket_url SHOULD be refused (any non-2xx) and create nothing',
  requirements: ['OPS-TICKET-CREATE-REQUIRED'],
  async run(ctx) {
    const track = tracker(ctx);
    const episodes = await episodesFor(
      ctx,
      OMISSIONS.map((_, n) => `required-${n}`),
      'OPS-TICKET-CREATE-REQUIRED',
    );
    const inc = ticketIds(ctx);
    for (const [n, missing] of OMISSIONS.entries()) {
      const t: Ticket = { episode: episodes[n], system: SYSTEMS[1], id: inc[1] };
      const full: Record<string, string> = { id: t.episode, ticket_system: t.system, ticket_id: t.id, ticket_url: urlOf(t.system, t.id) };
      const body = Object.fromEntries(Object.entries(full).filter(([k]) => !missing.includes(k as (typeof FIELDS)[number])));
      const ex = await ctx.http.send('ticketCreate', { body });
      if (ok(ex) && !missing.some((f) => f === 'id' || f === 'ticket_system' || f === 'ticket_id')) track.made(t);
      if (!ctx.expect.status('OPS-TICKET-CREATE-REQUIRED', `a create without ${missing.join(', ')}`, ex, 'not 2xx')) continue;
      if (missing.includes('id')) continue;
      const got = await read(ctx, t.episode);
      ctx.expect.equal(
        'OPS-TICKET-CREATE-REQUIRED',
        `tickets a refused create without ${missing.join(', ')} linked`,
        got.tickets,
        [],
        got.ex,
      );
    }
  },
};

/** One step of the model run: the ticket is added when absent (by create or by link) and removed when present. */
const toggle = fc.record({
  episode: fc.nat({ max: 1 }),
  system: fc.nat({ max: SYSTEMS.length - 1 }),
  id: fc.nat({ max: 2 }),
  byLink: fc.boolean(),
});

const linksFollowModel: OpsCheck = {
  id: 'ops.ticketing.model',
  title: 'Ticket links added and removed in any order MUST leave each episode holding exactly the tickets added and not removed',
  requirements: ['OPS-TICKET-CREATE', 'OPS-TICKET-LINK', 'OPS-TICKET-DELETE', 'OPS-TICKET-GET'],
  async run(ctx) {
    const track = tracker(ctx);
    let run = 0;
    const real = await episodesFor(ctx, ['model-e0', 'model-e1'], 'OPS-TICKET-CREATE');
    const property = fc.asyncProperty(fc.array(toggle, { minLength: 1, maxLength: 8 }), async (steps) => {
      // Made-up episodes are new for every run; real ones are the same, and each run's ticket ids are its own.
      const scope = `r${run}`;
      const episodes = real[0] === episodeId(ctx, 'model-e0') ? [0, 1].map((i) => episodeId(ctx, `model-${run}-e${i}`)) : real;
      const inc = ticketIds(ctx, scope);
      run++;
      const model = new Map<string, Set<string>>(episodes.map((e) => [e, new Set()]));
      for (const s of steps) {
        const t: Ticket = { episode: episodes[s.episode], system: SYSTEMS[s.system], id: inc[s.id] };
        const held = model.get(t.episode)!;
        const p = pair(t.system, t.id);
        let requirement: OpsRequirementId;
        if (held.has(p)) {
          requirement = 'OPS-TICKET-DELETE';
          const ex = await remove(ctx, t);
          if (!ok(ex)) throw new Violation(`deleting ${label(t)} answered ${ex.status}`, requirement, ex);
          track.gone(t);
          held.delete(p);
        } else {
          requirement = s.byLink ? 'OPS-TICKET-LINK' : 'OPS-TICKET-CREATE';
          const ex = s.byLink ? await link(ctx, t) : await create(ctx, t);
          if (!ok(ex)) throw new Violation(`${s.byLink ? 'linking' : 'creating'} ${label(t)} answered ${ex.status}`, requirement, ex);
          track.made(t);
          held.add(p);
        }
        for (const e of episodes) {
          const got = await read(ctx, e, undefined, scope);
          const want = [...model.get(e)!].sort();
          // An episode without links may be answered as not found.
          if (!ok(got.ex) && want.length === 0) continue;
          if (!ok(got.ex) || got.foreign.length)
            throw new Violation(
              `the links of ${e} answered ${got.ex.status}${got.foreign.length ? ` with links of ${got.foreign.map((l) => String(l.event_id)).join(', ')}` : ''}`,
              'OPS-TICKET-GET',
              got.ex,
            );
          if (JSON.stringify(got.tickets) !== JSON.stringify(want))
            throw new Violation(
              `after ${requirement === 'OPS-TICKET-DELETE' ? 'deleting' : 'adding'} ${label(t)}, ${e} holds ${show(got.tickets)}; the model holds ${show(want)}`,
              requirement,
              got.ex,
              { expected: show(want), actual: show(got.tickets) },
            );
        }
      }
    });
    await checkProperty(
      ctx,
      ['OPS-TICKET-CREATE', 'OPS-TICKET-LINK', 'OPS-TICKET-DELETE', 'OPS-TICKET-GET'],
      'ticket links against a model',
      property,
      { runs: Math.ceil(ctx.options.runs / 4) },
    );
  },
};

export const ticketingChecks: OpsCheck[] = [createReadDelete, linkToEpisode, createNeedsEveryField, linksFollowModel];
