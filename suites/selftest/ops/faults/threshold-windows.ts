import type { ApiHandler, ApiRequest, ApiResponse } from '../../../../reference-impl/http/types';
import { mapRequest, mapResponse } from '../../fault';
import { opsPath, type OpsFault } from '../fault';
import type { Doc } from '../../../core/json';

const ONLY = ['ops.ctw.*'];
const TYPE = 'custom_threshold_windows';

/** Path segments after `custom_threshold_windows/`, or undefined for any other path. */
const ctw = (req: ApiRequest): string[] | undefined => {
  const s = opsPath(req.path, 'itoa_interface');
  return s?.[0] === TYPE ? s.slice(1) : undefined;
};
const isAction = (name: string) => (req: ApiRequest) => req.method === 'POST' && ctw(req)?.length === 2 && ctw(req)?.[1] === name;
const isLinkedKpis = (req: ApiRequest) => req.method === 'GET' && ctw(req)?.length === 1 && ctw(req)?.[0] === 'linked_kpis';
const isWindowRead = (req: ApiRequest) =>
  req.method === 'GET' &&
  (ctw(req)?.length === 0 || (ctw(req)?.length === 1 && ctw(req)?.[0] !== 'linked_kpis' && ctw(req)?.[0] !== 'count'));
const ok = (res: ApiResponse) => res.status < 300;
const windows = (res: ApiResponse): Doc[] =>
  Array.isArray(res.body) ? (res.body as Doc[]) : res.body && typeof res.body === 'object' ? [res.body as Doc] : [];

/** A request to the same server as `like`, under the same credentials. */
async function call(
  inner: ApiHandler,
  like: ApiRequest,
  method: string,
  rest: string,
  query: Record<string, string> = {},
  body?: unknown,
): Promise<ApiResponse> {
  const base = like.path.replace(/(\/itoa_interface)(\/vLatest)?\/.*$/, '$1');
  return inner({
    method,
    path: `${base}/${rest}`,
    query: new URLSearchParams(query),
    headers: like.headers,
    rawBody: body === undefined ? '' : JSON.stringify(body),
    body,
  });
}
const readWindow = (inner: ApiHandler, like: ApiRequest, key: string) => call(inner, like, 'GET', `${TYPE}/${encodeURIComponent(key)}`);
const allWindows = async (inner: ApiHandler, like: ApiRequest) => windows(await call(inner, like, 'GET', TYPE));

/** Runs the action, then puts the window's links back as they were: the answer is right, nothing is kept. */
const linksNotSaved =
  (name: string) =>
  (inner: ApiHandler): ApiHandler =>
  async (req) => {
    if (!isAction(name)(req)) return inner(req);
    const key = ctw(req)![0];
    const before = await readWindow(inner, req, key);
    const res = await inner(req);
    if (ok(res) && ok(before))
      await call(
        inner,
        req,
        'POST',
        `${TYPE}/${encodeURIComponent(key)}`,
        { is_partial_data: '1' },
        { linked_services: (before.body as Doc).linked_services },
      );
    return res;
  };

export const thresholdWindowsFaults: OpsFault[] = [
  {
    id: 'ctw-stop-not-persisted',
    description: 'stop answers the window as stopped but never stores the change',
    breaks: ['OPS-CTW-STOP'],
    only: ONLY,
    wrap: (inner) => async (req) => {
      if (!isAction('stop')(req)) return inner(req);
      const got = await readWindow(inner, req, ctw(req)![0]);
      return ok(got)
        ? { status: 200, body: { ...(got.body as Doc), status: 'stopped', last_stopped_time: Math.floor(Date.now() / 1000) } }
        : got;
    },
  },
  {
    id: 'ctw-stop-ignored',
    description: 'stop answers the window as it is: still active, with no last_stopped_time',
    breaks: ['OPS-CTW-STOP'],
    only: ONLY,
    wrap: (inner) => async (req) => (isAction('stop')(req) ? readWindow(inner, req, ctw(req)![0]) : inner(req)),
  },
  {
    id: 'ctw-stop-status-capitalised',
    description: 'stop answers status "Stopped", as the state table spells it',
    breaks: ['OPS-CTW-STATUS-LOWERCASE'],
    collateral: ['OPS-CTW-STOP'],
    only: ONLY,
    wrap: mapResponse(
      (req, res) => isAction('stop')(req) && ok(res),
      (res) => ({ ...res, body: { ...(res.body as Doc), status: 'Stopped' } }),
    ),
  },
  {
    id: 'ctw-stop-without-last-stopped-time',
    description: 'the window that stop answers carries no last_stopped_time',
    breaks: ['OPS-CTW-STOP'],
    only: ONLY,
    wrap: mapResponse(
      (req, res) => isAction('stop')(req) && ok(res),
      (res) => {
        const { last_stopped_time: _dropped, ...rest } = res.body as Doc;
        return { ...res, body: rest };
      },
    ),
  },
  {
    id: 'ctw-stop-stops-every-window',
    description: 'stopping one window stops every active window',
    breaks: ['OPS-CTW-STOP'],
    only: ONLY,
    wrap: (inner) => async (req) => {
      const res = await inner(req);
      if (!isAction('stop')(req) || !ok(res)) return res;
      for (const w of await allWindows(inner, req))
        if (w.status === 'active') await call(inner, req, 'POST', `${TYPE}/${encodeURIComponent(String(w._key))}/stop`);
      return res;
    },
  },
  {
    id: 'ctw-status-capitalised-on-read',
    description: 'window reads give the status capitalised ("Active")',
    breaks: ['OPS-CTW-STATUS-LOWERCASE'],
    only: ONLY,
    wrap: mapResponse(
      (req, res) => isWindowRead(req) && ok(res),
      (res) => {
        for (const w of windows(res)) if (typeof w.status === 'string') w.status = w.status.charAt(0).toUpperCase() + w.status.slice(1);
        return res;
      },
    ),
  },
  {
    id: 'ctw-object-type-singular',
    description: 'windows are read with object_type custom_threshold_window',
    breaks: ['OPS-CTW-OBJECT-TYPE'],
    only: ONLY,
    wrap: mapResponse(
      (req, res) => isWindowRead(req) && ok(res),
      (res) => {
        for (const w of windows(res)) w.object_type = 'custom_threshold_window';
        return res;
      },
    ),
  },
  {
    id: 'ctw-linked-kpis-limit-zero-empty',
    description: 'linked_kpis with limit=0 returns no KPIs instead of all of them',
    breaks: ['OPS-LIMITS-LINKED-KPIS-ZERO'],
    only: ONLY,
    wrap: mapResponse(
      (req, res) => isLinkedKpis(req) && ok(res) && req.query.get('limit') === '0',
      (res) => ({ ...res, body: { ...(res.body as Doc), linked_kpis: [] } }),
    ),
  },
  {
    id: 'ctw-linked-kpis-limit-zero-one',
    description: 'linked_kpis reads limit=0 as limit=1, so it returns one KPI instead of all of them',
    breaks: ['OPS-LIMITS-LINKED-KPIS-ZERO'],
    only: ONLY,
    wrap: mapRequest(
      (req) => isLinkedKpis(req) && req.query.get('limit') === '0',
      (req) => {
        const query = new URLSearchParams(req.query);
        query.set('limit', '1');
        return { ...req, query };
      },
    ),
  },
  {
    id: 'ctw-linked-kpis-limit-plus-one',
    description: 'linked_kpis returns one entry more than limit',
    breaks: ['OPS-CTW-LINKED-KPIS'],
    only: ONLY,
    wrap: mapRequest(
      (req) => isLinkedKpis(req) && Number(req.query.get('limit')) > 0,
      (req) => {
        const query = new URLSearchParams(req.query);
        query.set('limit', String(Number(req.query.get('limit')) + 1));
        return { ...req, query };
      },
    ),
  },
  {
    id: 'ctw-linked-kpis-every-window',
    description: 'linked_kpis ignores the window parameter and lists the KPIs of every window',
    breaks: ['OPS-CTW-LINKED-KPIS'],
    collateral: ['OPS-LIMITS-LINKED-KPIS-ZERO'],
    only: ONLY,
    wrap: (inner) => async (req) => {
      if (!isLinkedKpis(req)) return inner(req);
      const rows: unknown[] = [];
      for (const w of await allWindows(inner, req)) {
        const res = await call(inner, req, 'GET', `${TYPE}/linked_kpis`, { ctw_id: String(w._key) });
        if (ok(res)) rows.push(...((res.body as Doc).linked_kpis as unknown[]));
      }
      return { status: 200, body: { linked_kpis: rows, count: rows.length } };
    },
  },
  {
    id: 'ctw-linked-kpis-titles-swapped',
    description: 'linked_kpis gives the service title as kpi_title and the KPI title as service_title',
    breaks: ['OPS-CTW-LINKED-KPIS'],
    only: ONLY,
    wrap: mapResponse(
      (req, res) => isLinkedKpis(req) && ok(res),
      (res) => {
        for (const r of ((res.body as Doc).linked_kpis as Doc[]) ?? []) [r.kpi_title, r.service_title] = [r.service_title, r.kpi_title];
        return res;
      },
    ),
  },
  {
    id: 'ctw-associate-not-saved',
    description: 'associate_service_kpi answers the KPIs linked but does not keep the link: the window is left without links',
    breaks: ['OPS-CTW-ASSOCIATE'],
    collateral: ['OPS-CTW-LINKED-KPIS', 'OPS-LIMITS-LINKED-KPIS-ZERO'],
    only: ONLY,
    wrap: (inner) => async (req) => {
      const res = await inner(req);
      if (isAction('associate_service_kpi')(req) && ok(res))
        await call(inner, req, 'POST', `${TYPE}/${encodeURIComponent(ctw(req)![0])}`, { is_partial_data: '1' }, { linked_services: [] });
      return res;
    },
  },
  {
    // An empty answer is one reading of "(those linked)" when the window named its KPIs since its create.
    id: 'ctw-associate-answers-unlinked',
    description: 'associate_service_kpi answers, besides the KPIs it linked, one the window does not name',
    breaks: ['OPS-CTW-ASSOCIATE'],
    only: ONLY,
    wrap: mapResponse(
      (req, res) => isAction('associate_service_kpi')(req) && ok(res),
      (res) => {
        const services = (res.body as { services?: unknown[] }).services ?? [];
        return { ...res, body: { services: [...services, { _key: 'no-such-service', kpi_ids: ['no-such-kpi'] }] } };
      },
    ),
  },
  {
    id: 'ctw-disconnect-not-saved',
    description: 'disconnect_kpis answers the KPIs it unlinked but keeps them linked',
    breaks: ['OPS-CTW-DISCONNECT'],
    only: ONLY,
    wrap: linksNotSaved('disconnect_kpis'),
  },
  {
    id: 'ctw-disconnect-every-window',
    description: 'disconnect_kpis unlinks the KPIs of every window, not only of the one named',
    breaks: ['OPS-CTW-DISCONNECT'],
    only: ONLY,
    wrap: (inner) => async (req) => {
      const res = await inner(req);
      if (!isAction('disconnect_kpis')(req) || !ok(res)) return res;
      for (const w of await allWindows(inner, req))
        await call(inner, req, 'POST', `${TYPE}/${encodeURIComponent(String(w._key))}/disconnect_kpis`);
      return res;
    },
  },
  {
    id: 'ctw-times-as-strings',
    description: 'window reads give start_time and end_time as strings of epoch seconds',
    breaks: ['OPS-CTW-FIELDS'],
    only: ONLY,
    wrap: mapResponse(
      (req, res) => isWindowRead(req) && ok(res),
      (res) => {
        for (const w of windows(res)) for (const f of ['start_time', 'end_time']) if (typeof w[f] === 'number') w[f] = String(w[f]);
        return res;
      },
    ),
  },
];
