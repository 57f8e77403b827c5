import type { ApiHandler, ApiRequest, ApiResponse } from '../../../../reference-impl/http/types';
import { mapRequest, mapResponse, withBody } from '../../fault';
import { opsPath, type OpsFault } from '../fault';
import type { Doc } from '../../../core/json';

const ONLY = ['ops.ticketing.*'];

/** Segments after `ticketing`, or undefined for any other path. */
const ticketing = (req: ApiRequest) => {
  const s = opsPath(req.path, 'event_management_interface');
  return s?.[0] === 'ticketing' ? s.slice(1) : undefined;
};
const isCreate = (req: ApiRequest) => req.method === 'POST' && ticketing(req)?.length === 0;
const isRead = (req: ApiRequest) => req.method === 'GET' && ticketing(req)?.length === 1;
const isLink = (req: ApiRequest) => req.method === 'POST' && ticketing(req)?.length === 1;
const isDelete = (req: ApiRequest) => req.method === 'DELETE' && ticketing(req)?.length === 3;
const ok = (res: ApiResponse) => res.status < 300;
const links = (res: ApiResponse): Doc[] => (Array.isArray(res.body) ? (res.body as Doc[]) : []);
const body = (req: ApiRequest): Doc => (req.body && typeof req.body === 'object' ? (req.body as Doc) : {});

async function call(
  inner: ApiHandler,
  like: ApiRequest,
  method: string,
  segments: string[],
  query: Record<string, string> = {},
): Promise<ApiResponse> {
  const base = like.path.replace(/(\/event_management_interface)(\/vLatest)?\/.*$/, '$1');
  return inner({
    method,
    path: `${base}/ticketing/${segments.map(encodeURIComponent).join('/')}`,
    query: new URLSearchParams(query),
    headers: like.headers,
    rawBody: '',
    body: undefined,
  });
}

export const ticketingFaults: OpsFault[] = [
  {
    id: 'ticket-create-url-optional',
    description: 'a create without ticket_url is accepted, with a placeholder URL',
    breaks: ['OPS-TICKET-CREATE-REQUIRED'],
    only: ONLY,
    wrap: mapRequest(
      (req) => isCreate(req) && body(req).ticket_url === undefined,
      (req) => withBody(req, { ...body(req), ticket_url: 'about:blank' }),
    ),
  },
  {
    id: 'ticket-create-system-defaulted',
    description: 'a create without ticket_system links the ticket under a default system',
    breaks: ['OPS-TICKET-CREATE-REQUIRED'],
    only: ONLY,
    wrap: mapRequest(
      (req) => isCreate(req) && body(req).ticket_system === undefined,
      (req) => withBody(req, { ...body(req), ticket_system: 'default' }),
    ),
  },
  {
    id: 'ticket-create-url-missing-written-then-500',
    description: 'a create without ticket_url writes the link with a placeholder URL, then answers 500',
    breaks: ['OPS-TICKET-CREATE-REQUIRED'],
    only: ONLY,
    wrap: (inner) => async (req) => {
      if (!isCreate(req) || body(req).ticket_url !== undefined) return inner(req);
      await inner(withBody(req, { ...body(req), ticket_url: 'about:blank' }));
      return { status: 500, body: { message: "KeyError: 'ticket_url'" } };
    },
  },
  {
    id: 'ticket-create-answers-other-key',
    description: 'create answers a fresh key that no stored link carries',
    breaks: ['OPS-TICKET-CREATE'],
    only: ONLY,
    wrap: mapResponse(
      (req, res) => isCreate(req) && ok(res),
      (res) => ({ ...res, body: { _key: `${String((res.body as Doc)._key)}-0` } }),
    ),
  },
  {
    id: 'ticket-read-needs-ids',
    description: 'GET ticketing/<episode> looks only at the ids parameter, so without it the episode has no links',
    breaks: ['OPS-TICKET-GET'],
    collateral: ['OPS-TICKET-CREATE', 'OPS-TICKET-LINK'],
    only: ONLY,
    wrap: mapResponse(
      (req, res) => isRead(req) && ok(res) && !req.query.get('ids'),
      (res) => ({ ...res, body: [] }),
    ),
  },
  {
    id: 'ticket-read-adds-other-episode',
    description: 'GET ticketing/<episode> also returns the links of a stale default episode',
    breaks: ['OPS-TICKET-GET'],
    only: ONLY,
    wrap: mapRequest(isRead, (req) => {
      const query = new URLSearchParams(req.query);
      query.set('ids', [req.query.get('ids'), 'ep_web_latency'].filter(Boolean).join(','));
      return { ...req, query };
    }),
  },
  {
    id: 'ticket-object-type-wrong',
    description: 'ticket links are read with object_type ticket',
    breaks: ['OPS-TICKET-OBJECT-TYPE'],
    only: ONLY,
    wrap: mapResponse(
      (req, res) => isRead(req) && ok(res),
      (res) => {
        for (const l of links(res)) l.object_type = 'ticket';
        return res;
      },
    ),
  },
  {
    id: 'ticket-link-ignores-path',
    description: 'POST ticketing/<episode> links only the episodes named in ids; without ids it links nothing yet answers a key',
    breaks: ['OPS-TICKET-LINK'],
    only: ONLY,
    wrap: (inner) => async (req) =>
      isLink(req) && !body(req).ids && !req.query.get('ids') ? { status: 200, body: ['0123456789abcdef01234567'] } : inner(req),
  },
  {
    id: 'ticket-link-answers-ticket-id',
    description: 'POST ticketing/<episode> answers the ticket id instead of the identifier of the link',
    breaks: ['OPS-TICKET-LINK'],
    only: ONLY,
    wrap: mapResponse(
      (req, res) => isLink(req) && ok(res),
      (res, req) => ({ ...res, body: [String(body(req).ticket_id ?? req.query.get('ticket_id'))] }),
    ),
  },
  {
    id: 'ticket-delete-whole-system',
    description: 'deleting one ticket removes every ticket of that system from the episode',
    breaks: ['OPS-TICKET-DELETE'],
    only: ONLY,
    wrap: (inner) => async (req) => {
      if (!isDelete(req)) return inner(req);
      const [episode, system] = ticketing(req)!;
      const res = await inner(req);
      if (!ok(res)) return res;
      for (const l of links(await call(inner, req, 'GET', [episode]))) {
        if (l.ticket_system !== system) continue;
        for (const t of (l.tickets as Doc[]) ?? []) await call(inner, req, 'DELETE', [episode, system, String(t.ticket_id)]);
      }
      return res;
    },
  },
  {
    id: 'ticket-delete-first-of-system',
    description: 'delete removes the first ticket of the system, whichever ticket id the path names',
    breaks: ['OPS-TICKET-DELETE'],
    only: ONLY,
    wrap: (inner) => async (req) => {
      if (!isDelete(req)) return inner(req);
      const [episode, system] = ticketing(req)!;
      const first = links(await call(inner, req, 'GET', [episode])).find((l) => l.ticket_system === system);
      const id = ((first?.tickets as Doc[] | undefined) ?? [])[0]?.ticket_id;
      return id === undefined ? inner(req) : call(inner, req, 'DELETE', [episode, system, String(id)]);
    },
  },
  {
    id: 'ticket-links-without-user',
    description: 'ticket links are read without _user',
    breaks: ['OPS-TICKET-LINK-FIELDS'],
    only: ONLY,
    wrap: mapResponse(
      (req, res) => isRead(req) && ok(res),
      (res) => {
        for (const l of links(res)) delete l._user;
        return res;
      },
    ),
  },
];
