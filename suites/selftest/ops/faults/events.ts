import type { ApiHandler, ApiRequest, ApiResponse } from '../../../../reference-impl/http/types';
import { mapRequest, mapResponse } from '../../fault';
import { opsPath, type OpsFault } from '../fault';
import type { Doc } from '../../../core/json';

const ONLY = ['ops.events.*'];
const ACTIONS = 'notable_event_actions';
const COMMENT = 'notable_event_comment';
const FLAGS = ['is_group_compatible', 'execute_once_per_group', 'execute_in_sync', 'is_bulk_compatible'];

const em = (req: ApiRequest) => opsPath(req.path, 'event_management_interface');
/** GET <object_type>: the generic list, not the action list or the ticketing paths. */
const isList = (req: ApiRequest) =>
  req.method === 'GET' && em(req)?.length === 1 && em(req)?.[0] !== ACTIONS && em(req)?.[0] !== 'ticketing';
const isActionList = (req: ApiRequest) => req.method === 'GET' && em(req)?.length === 1 && em(req)?.[0] === ACTIONS;
const isActionGet = (req: ApiRequest) => req.method === 'GET' && em(req)?.length === 2 && em(req)?.[0] === ACTIONS;
const isExecute = (req: ApiRequest) => req.method === 'POST' && em(req)?.length === 2 && em(req)?.[0] === ACTIONS;
const isCommentItem = (method: string) => (req: ApiRequest) =>
  req.method === method && em(req)?.length === 2 && em(req)?.[0] === COMMENT && em(req)?.[1] !== 'bulk_update';
const ok = (res: ApiResponse) => res.status < 300;
const list = (res: ApiResponse): Doc[] => (Array.isArray(res.body) ? (res.body as Doc[]) : []);

const withQuery = (req: ApiRequest, change: (q: URLSearchParams) => void): ApiRequest => {
  const query = new URLSearchParams(req.query);
  change(query);
  return { ...req, query };
};

async function call(inner: ApiHandler, like: ApiRequest, method: string, rest: string, body?: unknown): Promise<ApiResponse> {
  const base = like.path.replace(/(\/event_management_interface)(\/vLatest)?\/.*$/, '$1');
  return inner({
    method,
    path: `${base}/${rest}`,
    query: new URLSearchParams(),
    headers: like.headers,
    rawBody: body === undefined ? '' : JSON.stringify(body),
    body,
  });
}

/** Comments the fault pretends to have deleted: every handler instance keeps its own. */
function deletableComments(inner: ApiHandler): ApiHandler {
  const deleted = new Set<string>();
  return async (req) => {
    if (isCommentItem('DELETE')(req)) {
      const key = em(req)![1];
      const got = await call(inner, req, 'GET', `${COMMENT}/${encodeURIComponent(key)}`);
      if (!ok(got) || deleted.has(key)) return { status: 404, body: { message: 'no such comment' } };
      deleted.add(key);
      return { status: 204 };
    }
    if (isCommentItem('GET')(req) && deleted.has(em(req)![1])) return { status: 404, body: { message: 'no such comment' } };
    const res = await inner(req);
    if (isList(req) && em(req)![0] === COMMENT && ok(res)) return { ...res, body: list(res).filter((c) => !deleted.has(String(c._key))) };
    return res;
  };
}

/** Updates of a comment by key are served: the comment then reads as updated, in its read and in lists. */
function editableComments(inner: ApiHandler): ApiHandler {
  const edits = new Map<string, Doc>();
  const edited = (c: Doc) => edits.get(String(c._key)) ?? c;
  return async (req) => {
    if (isCommentItem('POST')(req) || isCommentItem('PUT')(req)) {
      const key = em(req)![1];
      const got = await call(inner, req, 'GET', `${COMMENT}/${encodeURIComponent(key)}`);
      if (!ok(got)) return got;
      edits.set(key, { ...edited(got.body as Doc), ...(req.body as Doc), _key: key });
      return { status: 200, body: { _key: key } };
    }
    const res = await inner(req);
    if (!ok(res)) return res;
    if (isCommentItem('GET')(req)) return { ...res, body: edited(res.body as Doc) };
    if (isList(req) && em(req)![0] === COMMENT) return { ...res, body: list(res).map(edited) };
    return res;
  };
}

export const eventsFaults: OpsFault[] = [
  {
    id: 'em-list-skip-ignored',
    description: 'event-management lists ignore skip',
    breaks: ['OPS-EM-LIST-PARAMS'],
    only: ONLY,
    wrap: mapRequest(isList, (req) => withQuery(req, (q) => q.delete('skip'))),
  },
  {
    id: 'em-list-sort-dir-swapped',
    description: 'event-management lists read sort_dir 0 as ascending and 1 as descending',
    breaks: ['OPS-EM-LIST-PARAMS'],
    only: ONLY,
    wrap: mapRequest(
      (req) => isList(req) && req.query.has('sort_dir'),
      (req) => withQuery(req, (q) => q.set('sort_dir', req.query.get('sort_dir') === '1' ? '0' : '1')),
    ),
  },
  {
    id: 'em-list-filter-data-ignored',
    description: 'event-management lists read the filter from `filter`, as the core interface does, and ignore filter_data',
    breaks: ['OPS-EM-LIST-PARAMS'],
    only: ONLY,
    wrap: mapRequest(isList, (req) => withQuery(req, (q) => q.delete('filter_data'))),
  },
  {
    id: 'em-list-fields-ignored',
    description: 'event-management lists return whole objects whatever fields asks',
    breaks: ['OPS-EM-LIST-PARAMS'],
    only: ONLY,
    wrap: mapRequest(isList, (req) => withQuery(req, (q) => q.delete('fields'))),
  },
  {
    id: 'em-list-limit-counts-skipped-rows',
    description: 'event-management lists count the skipped rows against limit (rows skip..limit instead of skip..skip+limit)',
    breaks: ['OPS-EM-LIST-PARAMS'],
    only: ONLY,
    wrap: (inner) => async (req) => {
      if (!isList(req) || !req.query.has('skip') || !req.query.has('limit')) return inner(req);
      const res = await inner(withQuery(req, (q) => (q.delete('skip'), q.delete('limit'))));
      return ok(res) ? { ...res, body: list(res).slice(Number(req.query.get('skip')), Number(req.query.get('limit'))) } : res;
    },
  },
  {
    id: 'em-action-type-names-integration',
    description: 'ticketing actions carry the integration name as type instead of external_ticket',
    breaks: ['OPS-EM-ACTION-TYPE'],
    only: ONLY,
    wrap: mapResponse(
      (req, res) => isActionList(req) && ok(res),
      (res) => {
        for (const a of list(res)) if (a.type === 'external_ticket') a.type = String(a.action_name);
        return res;
      },
    ),
  },
  {
    id: 'em-action-flags-boolean',
    description: 'action flags are answered as booleans',
    breaks: ['OPS-EM-ACTION-VALUES'],
    only: ONLY,
    wrap: mapResponse(
      (req, res) => isActionList(req) && ok(res),
      (res) => {
        for (const a of list(res)) for (const f of FLAGS) a[f] = String(a[f]) === '1';
        return res;
      },
    ),
  },
  {
    id: 'em-action-config-of-first-action',
    description: 'every action name answers the configuration of the first listed action',
    breaks: ['OPS-EM-ACTION-GET'],
    only: ONLY,
    wrap: (inner) => async (req) => {
      if (!isActionGet(req)) return inner(req);
      const first = list(await call(inner, req, 'GET', ACTIONS))[0];
      return inner({ ...req, path: req.path.replace(/[^/]+$/, encodeURIComponent(String(first?.action_name))) });
    },
  },
  {
    id: 'em-action-names-with-dashes',
    description: 'the configuration lookup expects dashes where the listed action_name has underscores',
    breaks: ['OPS-EM-ACTION-NAME-SOURCE'],
    only: ONLY,
    wrap: mapRequest(isActionGet, (req) => ({ ...req, path: req.path.replace(/[^/]+$/, (name) => name.replace(/_/g, '-')) })),
  },
  {
    id: 'em-execute-answers-no-ids',
    description: 'running an action answers an empty ids list',
    breaks: ['OPS-EM-ACTION-EXECUTE'],
    only: ONLY,
    wrap: mapResponse(
      (req, res) => isExecute(req) && ok(res),
      (res) => {
        for (const r of list(res)) r.ids = [];
        return res;
      },
    ),
  },
  {
    id: 'em-comment-update-through-upsert',
    description: 'an update of a comment by key is written like a create with that _key',
    breaks: ['OPS-EM-COMMENTS-APPEND-ONLY'],
    only: ONLY,
    wrap: editableComments,
  },
  {
    id: 'em-comment-delete-allowed',
    description: 'deleting a comment by key succeeds and hides it',
    breaks: ['OPS-EM-COMMENTS-APPEND-ONLY'],
    only: ONLY,
    wrap: deletableComments,
  },
  {
    id: 'em-list-wrapped',
    description: 'event-management lists answer {items: [...]} instead of an array',
    breaks: ['OPS-EM-LIST'],
    only: ONLY,
    wrap: mapResponse(
      (req, res) => isList(req) && ok(res),
      (res) => ({ ...res, body: { items: res.body } }),
    ),
  },
  {
    id: 'em-list-rows-without-object-type',
    description: 'event-management list rows leave out object_type (every object has one)',
    breaks: ['OPS-COMMON-KEY-OBJECT-TYPE'],
    only: ONLY,
    wrap: mapResponse(
      (req, res) => isList(req) && ok(res),
      (res) => {
        for (const r of list(res)) delete r.object_type;
        return res;
      },
    ),
  },
  {
    id: 'em-actions-keyed-by-name',
    description: 'the action list answers an object keyed by action name instead of an array',
    breaks: ['OPS-EM-ACTIONS-LIST'],
    only: ONLY,
    wrap: mapResponse(
      (req, res) => isActionList(req) && ok(res),
      (res) => ({ ...res, body: Object.fromEntries(list(res).map((a) => [String(a.action_name), a])) }),
    ),
  },
  {
    id: 'em-action-entries-without-label',
    description: 'action list entries carry no label',
    breaks: ['OPS-EM-ACTION-ENTRY'],
    only: ONLY,
    wrap: mapResponse(
      (req, res) => isActionList(req) && ok(res),
      (res) => {
        for (const a of list(res)) delete a.label;
        return res;
      },
    ),
  },
  {
    id: 'em-action-list-hides-sample-actions',
    description: 'the action list leaves out the sample ping action',
    breaks: ['OPS-EM-ACTION-NAMES'],
    only: ONLY,
    wrap: mapResponse(
      (req, res) => isActionList(req) && ok(res),
      (res) => ({ ...res, body: list(res).filter((a) => a.action_name !== 'ops_sample_event_action_ping') }),
    ),
  },
  {
    id: 'em-action-config-without-acl',
    description: 'action configurations leave out the eai:* entries',
    breaks: ['OPS-EM-ACTION-CONFIG'],
    only: ONLY,
    wrap: mapResponse(
      (req, res) => isActionGet(req) && ok(res),
      (res) => ({ ...res, body: Object.fromEntries(Object.entries(res.body as Doc).filter(([k]) => !k.startsWith('eai:'))) }),
    ),
  },
];
