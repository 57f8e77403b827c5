import { route, type Route } from '../http/router';
import type { ApiResponse } from '../http/types';
import { newKey } from './clock';
import type { Doc } from './config';
import type { OpsCtx, OpsRouteFn } from './context';
import { badRequest, notFound } from './errors';
import { isPlainObject, optionalObjectBody } from './input';
import { TICKET_TYPE } from './object-types';
import { type TypeRules, readableObjects, writeObject } from './objects';
import { EVENTS } from './paths';

const BASE = `${EVENTS}/ticketing`;
const RULES: TypeRules = { type: TICKET_TYPE, required: [], flavor: 'event' };

interface Ticket {
  ticket_system: string;
  ticket_id: string;
  ticket_url: string;
}

/** Episode ids of an `id`/`ids` value: one id or a comma-separated list. */
function episodeIds(value: string): string[] {
  return [
    ...new Set(
      value
        .split(',')
        .map((s) => s.trim())
        .filter((s) => s !== ''),
    ),
  ];
}

/**
 * Most episodes one call links a ticket to. The document leaves the number open; a bound keeps one request from
 * writing an unbounded number of links (a 1 MB id list holds over 100,000 ids).
 */
const MAX_EPISODES_PER_LINK = 1000;

function ticketsOf(link: Doc): Doc[] {
  return Array.isArray(link.tickets) ? link.tickets.filter(isPlainObject) : [];
}

/**
 * Adds (or refreshes) the ticket on each episode's link for that ticket system; answers the links' keys in the order
 * of `eventIds`. The stored links are read once, so the work grows with the ids, not with ids times links.
 */
function linkTicket(ctx: OpsCtx, eventIds: string[], ticket: Ticket): string[] {
  const existingByEvent = new Map<unknown, Doc>();
  for (const l of readableObjects(ctx, TICKET_TYPE)) {
    if (l.ticket_system === ticket.ticket_system && !existingByEvent.has(l.event_id)) existingByEvent.set(l.event_id, l);
  }
  return eventIds.map((eventId) => {
    const existing = existingByEvent.get(eventId);
    const tickets = existing === undefined ? [] : ticketsOf(existing).filter((t) => t.ticket_id !== ticket.ticket_id);
    tickets.push({ ...ticket });
    const content: Doc = {
      ...(existing ?? {}),
      _key: existing?._key ?? newKey(),
      event_id: eventId,
      ticket_system: ticket.ticket_system,
      tickets,
    };
    const written = writeObject(ctx, RULES, content, existing);
    return (typeof written === 'string' ? content._key : written._key) as string;
  });
}

function tooManyEpisodes(ids: string[]): ApiResponse | undefined {
  return ids.length > MAX_EPISODES_PER_LINK
    ? badRequest(`At most ${MAX_EPISODES_PER_LINK} episode identifiers per call, got ${ids.length}`)
    : undefined;
}

/** The four documented strings, from the body first and the query string second. */
function ticketFields(ctx: OpsCtx, body: Doc, idNames: string[]): { ids: string; ticket: Ticket } | string {
  const pick = (name: string): unknown => body[name] ?? ctx.req.query.get(name) ?? undefined;
  const values: Record<string, string> = {};
  for (const name of ['ticket_system', 'ticket_id', 'ticket_url']) {
    const v = pick(name);
    if (typeof v !== 'string' || v.trim() === '') return `${name} is required and must be a non-empty string`;
    values[name] = v;
  }
  const ids = idsOf(pick, idNames);
  return typeof ids === 'string' ? ids : { ids: ids.join(','), ticket: values as unknown as Ticket };
}

/**
 * The episode ids under each of `idNames` (`id` and `ids` name the same thing: the document gives `id` for
 * `POST ticketing` and `ids` for `ticketing/<key>`, and the SOAR connector sends `ids` to both), each a string of
 * comma-separated ids or an array of id strings. All of them are linked; a string is the 400 message.
 */
function idsOf(pick: (name: string) => unknown, idNames: string[]): string[] | string {
  const ids: string[] = [];
  for (const name of idNames) {
    const v = pick(name);
    if (v === undefined || v === null) continue;
    if (typeof v === 'string') ids.push(v);
    else if (Array.isArray(v) && v.every((x) => typeof x === 'string')) ids.push(...v);
    else return `${name} must be a string of episode identifiers (or an array of them)`;
  }
  return ids;
}

function create(ctx: OpsCtx): ApiResponse {
  const body = optionalObjectBody(ctx.req);
  if (!body.ok) return body.error;
  const fields = ticketFields(ctx, body.value, ['id', 'ids']);
  if (typeof fields === 'string') return badRequest(fields);
  const ids = episodeIds(fields.ids);
  if (ids.length === 0) return badRequest('id (or ids) is required and must hold the episode identifier(s)');
  const refusal = tooManyEpisodes(ids);
  if (refusal !== undefined) return refusal;
  const keys = linkTicket(ctx, ids, fields.ticket);
  return { status: 200, body: { _key: keys[0] } };
}

function linkForEvent(ctx: OpsCtx): ApiResponse {
  const body = optionalObjectBody(ctx.req);
  if (!body.ok) return body.error;
  const fields = ticketFields(ctx, body.value, ['ids', 'id']);
  if (typeof fields === 'string') return badRequest(fields);
  const ids = episodeIds([ctx.params.eventKey!, fields.ids].join(','));
  const refusal = tooManyEpisodes(ids);
  if (refusal !== undefined) return refusal;
  return { status: 200, body: linkTicket(ctx, ids, fields.ticket) };
}

function listForEvent(ctx: OpsCtx): ApiResponse {
  const q = ctx.req.query;
  const ids = new Set(episodeIds([ctx.params.eventKey!, q.get('ids') ?? ''].join(',')));
  const wanted = (name: string) => q.get(name) || undefined;
  const system = wanted('ticket_system');
  const ticketId = wanted('ticket_id');
  const url = wanted('ticket_url');
  const links = readableObjects(ctx, TICKET_TYPE).filter(
    (l) =>
      typeof l.event_id === 'string' &&
      ids.has(l.event_id) &&
      (system === undefined || l.ticket_system === system) &&
      (ticketId === undefined || ticketsOf(l).some((t) => t.ticket_id === ticketId)) &&
      (url === undefined || ticketsOf(l).some((t) => t.ticket_url === url)),
  );
  return { status: 200, body: links };
}

function unlink(ctx: OpsCtx): ApiResponse {
  const { eventKey, system, ticketId } = ctx.params;
  const link = readableObjects(ctx, TICKET_TYPE).find(
    (l) => l.event_id === eventKey && l.ticket_system === system && ticketsOf(l).some((t) => t.ticket_id === ticketId),
  );
  if (link === undefined) return notFound(`Episode "${eventKey}" has no ${system} ticket "${ticketId}"`);
  const tickets = ticketsOf(link).filter((t) => t.ticket_id !== ticketId);
  if (tickets.length === 0) ctx.state.store.delete(TICKET_TYPE, link._key as string);
  else writeObject(ctx, RULES, { ...link, tickets }, link);
  return { status: 204 };
}

export const ticketingRoutes: Route<OpsRouteFn>[] = [
  route('POST', BASE, create),
  route('GET', `${BASE}/:eventKey`, listForEvent),
  route('POST', `${BASE}/:eventKey`, linkForEvent),
  route('PUT', `${BASE}/:eventKey`, linkForEvent),
  route('DELETE', `${BASE}/:eventKey/:system/:ticketId`, unlink),
];
