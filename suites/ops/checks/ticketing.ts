import fc from 'fast-check';
import { checkProperty, Violation } from '../../core/property';
import type { Exchange } from '../../core/types';
import { ok, rows, type Doc, type OpsCheck, type OpsContext } from '../support';

/**
 * Every ticket link the run makes is on an episode id it made up, carrying the run tag: linking and unlinking
 * tickets there touches no real episode.
 */
const episodeId = (ctx: OpsContext, name: string) => `${ctx.options.runTag}-${name}`;
const SYSTEMS = ['CfDesk', 'CfTracker'];
const TICKET_IDS = ['INC0001', 'INC0002', 'INC0003'];
const urlOf = (system: string, id: string) => `https://tickets.example.test/${system}/${id}`;
const FIELDS = ['id', 'ticket_system', 'ticket_id', 'ticket_url'] as const;

interface Ticket {
  episode: string;
  system: string;
  id: string;
}
const label = (t: Ticket) => `${t.episode}/${t.system}/${t.id}`;
const pair = (system: unknown, id: unknown) => `${String(system)}/${String(id)}`;

const remove = (ctx: OpsContext, t: Ticket) => ctx.http.send('ticketDelete', { params: { episode_id: t.episode, ticket_system: t.system, ticket_id: t.id } });

/** Ledger entries by ticket, so a ticket the check removes itself comes off the ledger. */
function tracker(ctx: OpsContext) {
  const tokens = new Map<string, number>();
  return {
    made(t: Ticket) {
      if (!tokens.has(label(t))) tokens.set(label(t), ctx.ledger.add(`ticket ${label(t)}`, () => remove(ctx, t)));
    },
    gone(t: Ticket) {
      const token = tokens.get(label(t));
      if (token !== undefined) ctx.ledger.forget(token);
      tokens.delete(label(t));
    },
  };
}

const create = (ctx: OpsContext, t: Ticket) => ctx.http.send('ticketCreate', { body: { id: t.episode, ticket_system: t.system, ticket_id: t.id, ticket_url: urlOf(t.system, t.id) } });

/** The fields go both in the body and on the query string: the document lists them as parameters and as payload. */
const link = (ctx: OpsContext, t: Ticket) => {
  const fields = { ticket_system: t.system, ticket_id: t.id, ticket_url: urlOf(t.system, t.id) };
  return ctx.http.send('ticketLink', { params: { event_key: t.episode }, query: fields, body: fields });
};

/** The key a create answered: `{_key}`, a bare string or a one-element array. */
const answeredKey = (ex: Exchange): string | undefined => {
  const j = ex.json as unknown;
  const k = typeof j === 'string' ? j : Array.isArray(j) ? j[0] : (j as Doc | undefined)?._key;
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

async function read(ctx: OpsContext, episode: string): Promise<Read> {
  const ex = await ctx.http.send('ticketGet', { params: { event_key: episode } });
  const links = rows(ex);
  const own = links.filter((l) => l.event_id === episode);
  const tickets = own.flatMap((l) => (Array.isArray(l.tickets) ? (l.tickets as Doc[]).map((t) => pair(t?.ticket_system ?? l.ticket_system, t?.ticket_id)) : []));
  return { ex, links, tickets: [...new Set(tickets)].sort(), foreign: links.filter((l) => l.event_id !== episode) };
}

const show = (xs: string[]) => (xs.length ? xs.join(', ') : '(none)');

const createReadDelete: OpsCheck = {
  id: 'ops.ticketing.create-read-delete',
  title: 'POST ticketing MUST create a ticket link and answer its key; GET ticketing/<episode> MUST list the episode\'s links; DELETE ticketing/<episode>/<system>/<ticket> MUST remove exactly that ticket',
  requirements: ['OPS-TICKET-CREATE', 'OPS-TICKET-GET', 'OPS-TICKET-OBJECT-TYPE', 'OPS-TICKET-LINK-FIELDS', 'OPS-TICKET-DELETE'],
  async run(ctx) {
    const ep = episodeId(ctx, 'tickets');
    const track = tracker(ctx);
    const made: Ticket[] = [
      { episode: ep, system: SYSTEMS[0], id: TICKET_IDS[0] },
      { episode: ep, system: SYSTEMS[0], id: TICKET_IDS[1] },
      { episode: ep, system: SYSTEMS[1], id: TICKET_IDS[0] },
    ];
    const keysAnswered: string[] = [];
    for (const t of made) {
      const ex = await create(ctx, t);
      if (ok(ex)) track.made(t);
      const key = answeredKey(ex);
      if (key) keysAnswered.push(key);
      if (!ctx.assert('OPS-TICKET-CREATE', ok(ex) && key !== undefined, `creating ticket ${label(t)} answered ${ex.status} ${ex.text.slice(0, 100)}`, ex)) return;
    }
    const got = await read(ctx, ep);
    const want = made.map((t) => pair(t.system, t.id)).sort();
    const readable = ok(got.ex) && JSON.stringify(got.tickets) === JSON.stringify(want);
    ctx.assert('OPS-TICKET-GET', readable && got.foreign.length === 0, `the episode's links answered ${got.ex.status} holding ${show(got.tickets)}${got.foreign.length ? ` and ${got.foreign.length} links of other episodes` : ''}; created ${show(want)}`, got.ex);
    if (!readable) {
      for (const r of ['OPS-TICKET-OBJECT-TYPE', 'OPS-TICKET-LINK-FIELDS', 'OPS-TICKET-DELETE']) ctx.untested(r, 'the episode\'s links do not read back as created', got.ex);
      return;
    }
    const linkKeys = got.links.map((l) => l._key);
    const unknown = keysAnswered.filter((k) => !linkKeys.includes(k));
    ctx.assert('OPS-TICKET-CREATE', unknown.length === 0, unknown.length ? `create answered keys ${unknown.join(', ')} that no link of the episode carries (links: ${linkKeys.join(', ')})` : 'every key create answered is the key of one of the episode\'s links', got.ex);
    const types = [...new Set(got.links.map((l) => l.object_type))];
    ctx.assert('OPS-TICKET-OBJECT-TYPE', types.every((t) => t === 'external_ticket'), `ticket links carry object_type ${JSON.stringify(types)}`, got.ex);
    const malformed = got.links.filter((l) => ['ticket_system', '_user', 'event_id', '_key'].some((f) => typeof l[f] !== 'string') || !Array.isArray(l.tickets) || (l.tickets as Doc[]).some((t) => ['ticket_system', 'ticket_url', 'ticket_id'].some((f) => typeof t?.[f] !== 'string')));
    ctx.assert('OPS-TICKET-LINK-FIELDS', malformed.length === 0, malformed.length ? `a link lacks a documented string field: ${JSON.stringify(malformed[0]).slice(0, 250)}` : `all ${got.links.length} links carry ticket_system, _user, event_id, _key and tickets of {ticket_system, ticket_url, ticket_id}`, got.ex);
    const narrowed = await ctx.http.send('ticketGet', { params: { event_key: ep }, query: { ticket_system: SYSTEMS[1] } });
    ctx.observe('OPS-TICKET-GET', `with ticket_system=${SYSTEMS[1]} the episode's links answered ${narrowed.status} with ${rows(narrowed).length} links (${got.links.length} without it)`);

    // The second ticket of its system: removing it must leave the first one of that system alone.
    const gone = made[1];
    const del = await remove(ctx, gone);
    if (ok(del)) track.gone(gone);
    // The document answers "empty"; 204 without a body and 200 with one are both seen in the field.
    ctx.assert('OPS-TICKET-DELETE', ok(del), `deleting ${label(gone)} answered ${del.status} with ${del.text.trim() ? `body ${del.text.slice(0, 80)}` : 'an empty body'}`, del);
    const after = await read(ctx, ep);
    const left = want.filter((p) => p !== pair(gone.system, gone.id));
    ctx.assert('OPS-TICKET-DELETE', ok(after.ex) && JSON.stringify(after.tickets) === JSON.stringify(left), `after the delete the episode holds ${show(after.tickets)}; expected ${show(left)}`, after.ex);
    const again = await remove(ctx, gone);
    ctx.observe('OPS-TICKET-DELETE', `deleting the same ticket again answered ${again.status}`);
  },
};

const linkToEpisode: OpsCheck = {
  id: 'ops.ticketing.link',
  title: 'POST ticketing/<episode> MUST link the ticket to that episode and answer an array with the identifier of the link',
  requirements: ['OPS-TICKET-LINK'],
  async run(ctx) {
    const t: Ticket = { episode: episodeId(ctx, 'link'), system: SYSTEMS[0], id: TICKET_IDS[2] };
    const track = tracker(ctx);
    const ex = await link(ctx, t);
    if (ok(ex)) track.made(t);
    const ids = Array.isArray(ex.json) ? (ex.json as unknown[]) : [];
    ctx.assert('OPS-TICKET-LINK', ok(ex) && ids.length > 0 && ids.every((i) => typeof i === 'string'), `linking ${label(t)} answered ${ex.status} ${ex.text.slice(0, 100)}`, ex);
    const got = await read(ctx, t.episode);
    ctx.assert('OPS-TICKET-LINK', ok(got.ex) && got.tickets.includes(pair(t.system, t.id)), `the episode then holds ${show(got.tickets)}`, got.ex);
    const holder = got.links.find((l) => Array.isArray(l.tickets) && (l.tickets as Doc[]).some((x) => x?.ticket_id === t.id));
    ctx.assert('OPS-TICKET-LINK', holder !== undefined && ids.includes(holder._key), `link answered ${JSON.stringify(ids)}; the link holding the ticket has _key ${JSON.stringify(holder?._key)}`, got.ex);
  },
};

/** Every non-empty set of left-out fields: fifteen cases, few enough to try them all. */
const OMISSIONS: (typeof FIELDS)[number][][] = Array.from({ length: 15 }, (_, i) => FIELDS.filter((_, b) => ((i + 1) >> b) & 1));

const createNeedsEveryField: OpsCheck = {
  id: 'ops.ticketing.create-required',
  title: 'POST ticketing without any one of id, ticket_system, ticket_id and ticket_url MUST be refused (any non-2xx) and MUST create nothing',
  requirements: ['OPS-TICKET-CREATE-REQUIRED'],
  async run(ctx) {
    const track = tracker(ctx);
    const wrong: string[] = [];
    for (const [n, missing] of OMISSIONS.entries()) {
      const t: Ticket = { episode: episodeId(ctx, `required-${n}`), system: SYSTEMS[1], id: TICKET_IDS[1] };
      const full: Record<string, string> = { id: t.episode, ticket_system: t.system, ticket_id: t.id, ticket_url: urlOf(t.system, t.id) };
      const body = Object.fromEntries(Object.entries(full).filter(([k]) => !missing.includes(k as (typeof FIELDS)[number])));
      const ex = await ctx.http.send('ticketCreate', { body });
      if (ok(ex) && !missing.some((f) => f === 'id' || f === 'ticket_system' || f === 'ticket_id')) track.made(t);
      if (ok(ex)) {
        ctx.assert('OPS-TICKET-CREATE-REQUIRED', false, `a create without ${missing.join(', ')} answered ${ex.status} ${ex.text.slice(0, 100)}`, ex);
        wrong.push(missing.join('+'));
        continue;
      }
      if (missing.includes('id')) continue;
      const got = await read(ctx, t.episode);
      if (got.tickets.length) {
        ctx.assert('OPS-TICKET-CREATE-REQUIRED', false, `a refused create without ${missing.join(', ')} still linked ${show(got.tickets)}`, got.ex);
        wrong.push(missing.join('+'));
      }
    }
    if (!wrong.length) ctx.assert('OPS-TICKET-CREATE-REQUIRED', true, `all ${OMISSIONS.length} creates leaving fields out were refused and linked nothing`);
  },
};

/** One step of the model run: the ticket is added when absent (by create or by link) and removed when present. */
const toggle = fc.record({ episode: fc.nat({ max: 1 }), system: fc.nat({ max: SYSTEMS.length - 1 }), id: fc.nat({ max: TICKET_IDS.length - 1 }), byLink: fc.boolean() });

const linksFollowModel: OpsCheck = {
  id: 'ops.ticketing.model',
  title: 'Ticket links added and removed in any order MUST leave each episode holding exactly the tickets added and not removed',
  requirements: ['OPS-TICKET-CREATE', 'OPS-TICKET-LINK', 'OPS-TICKET-DELETE', 'OPS-TICKET-GET'],
  async run(ctx) {
    const track = tracker(ctx);
    let run = 0;
    const property = fc.asyncProperty(fc.array(toggle, { minLength: 1, maxLength: 8 }), async (steps) => {
      const episodes = [0, 1].map((i) => episodeId(ctx, `model-${run}-e${i}`));
      run++;
      const model = new Map<string, Set<string>>(episodes.map((e) => [e, new Set()]));
      for (const s of steps) {
        const t: Ticket = { episode: episodes[s.episode], system: SYSTEMS[s.system], id: TICKET_IDS[s.id] };
        const held = model.get(t.episode)!;
        const p = pair(t.system, t.id);
        let requirement: string;
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
          const got = await read(ctx, e);
          const want = [...model.get(e)!].sort();
          // An episode without links may be answered as not found.
          if (!ok(got.ex) && want.length === 0) continue;
          if (!ok(got.ex) || got.foreign.length) throw new Violation(`the links of ${e} answered ${got.ex.status}${got.foreign.length ? ` with links of ${got.foreign.map((l) => String(l.event_id)).join(', ')}` : ''}`, 'OPS-TICKET-GET', got.ex);
          if (JSON.stringify(got.tickets) !== JSON.stringify(want)) throw new Violation(`after ${requirement === 'OPS-TICKET-DELETE' ? 'deleting' : 'adding'} ${label(t)}, ${e} holds ${show(got.tickets)}; the model holds ${show(want)}`, requirement, got.ex);
        }
      }
    });
    await checkProperty(ctx, ['OPS-TICKET-CREATE', 'OPS-TICKET-LINK', 'OPS-TICKET-DELETE', 'OPS-TICKET-GET'], 'ticket links against a model', property, { runs: Math.ceil(ctx.options.runs / 4) });
  },
};

export const ticketingChecks: OpsCheck[] = [createReadDelete, linkToEpisode, createNeedsEveryField, linksFollowModel];
