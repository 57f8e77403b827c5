import type { OpsConfig } from '../../../../reference-impl/ops/config';
import type { ApiRequest } from '../../../../reference-impl/http/types';
import { mapRequest, mapResponse, withBody, withHeader } from '../../fault';
import { opsPath, type OpsFault } from '../fault';
import type { Doc } from '../../../core/json';

const only = ['ops.maintenance.*'];
const IFACE = 'maintenance_services_interface';
const segs = (req: ApiRequest) => opsPath(req.path, IFACE);
const isRead = (req: ApiRequest) =>
  req.method === 'GET' && (segs(req)?.length ?? 0) >= 1 && segs(req)?.[0] === 'maintenance_calendar' && segs(req)?.[1] !== 'count';
const isByKey = (method: string) => (req: ApiRequest) => req.method === method && segs(req)?.length === 2 && segs(req)?.[1] !== 'count';
const isCount = (req: ApiRequest) => req.method === 'GET' && segs(req)?.[1] === 'count';

/** Applies `change` to every window a read answers, whether a list or one window. */
const eachWindow = (change: (w: Doc) => void) =>
  mapResponse(
    (req, res) => isRead(req) && res.status === 200,
    (res) => {
      for (const w of Array.isArray(res.body) ? res.body : [res.body]) if (w && typeof w === 'object') change(w as Doc);
      return res;
    },
  );

const floorTimes = (w: Doc) => {
  for (const f of ['start_time', 'end_time']) if (typeof w[f] === 'number') w[f] = Math.floor(w[f] as number);
};
/** Window writes `when` selects have their times cut to whole seconds before they are stored. */
const truncateTimes = (when: (req: ApiRequest) => boolean) =>
  mapRequest(
    (req) => when(req) && !!req.body && typeof req.body === 'object' && !Array.isArray(req.body),
    (req) => {
      const body = { ...(req.body as Doc) };
      floorTimes(body);
      return withBody(req, body);
    },
  );

const adminAuth = (config: OpsConfig) => {
  const admin = config.users.find((u) => !u.readOnly)!;
  return `Basic ${Buffer.from(`${admin.name}:${admin.password}`).toString('base64')}`;
};

export const maintenanceFaults: OpsFault[] = [
  {
    id: 'mw-supported-types-wrong-name',
    description: 'get_supported_object_types of the maintenance interface names the type "maintenance" instead of maintenance_calendar',
    breaks: ['OPS-MW-SUPPORTED-TYPES'],
    only,
    wrap: (inner) =>
      mapResponse(
        (req) => segs(req)?.[0] === 'get_supported_object_types',
        (res) => ({ ...res, body: ['maintenance'] }),
      )(inner),
  },
  {
    id: 'mw-object-type-renamed',
    description: 'maintenance windows are answered with object_type "maintenance_window"',
    breaks: ['OPS-MW-OBJECT-TYPE'],
    only,
    wrap: (inner) => eachWindow((w) => (w.object_type = 'maintenance_window'))(inner),
  },
  {
    id: 'mw-objects-field-renamed',
    description: "the entries of a window's objects are answered as {type, _key}, without object_type",
    breaks: ['OPS-MW-OBJECTS'],
    collateral: ['OPS-MW-UPDATE'],
    only,
    wrap: (inner) =>
      eachWindow((w) => {
        if (Array.isArray(w.objects)) w.objects = w.objects.map((o: Doc) => ({ type: o.object_type, _key: o._key }));
      })(inner),
  },
  {
    id: 'mw-times-truncated',
    description: 'start_time and end_time are stored as whole seconds, dropping the fraction, on create and update',
    breaks: ['OPS-MW-TIMES-FRACTION'],
    only,
    wrap: (inner) => truncateTimes((req) => req.method === 'POST' && segs(req)?.[0] === 'maintenance_calendar')(inner),
  },
  {
    id: 'mw-update-times-truncated',
    description: 'an update by key (partial or full) stores its times as whole seconds; a create keeps the fraction',
    breaks: ['OPS-MW-TIMES-FRACTION'],
    only,
    wrap: (inner) => truncateTimes(isByKey('POST'))(inner),
  },
  {
    id: 'mw-reads-whole-seconds',
    description: 'reads by key and lists answer window times in whole seconds, whatever was stored',
    breaks: ['OPS-MW-TIMES-FRACTION'],
    only,
    wrap: (inner) => eachWindow(floorTimes)(inner),
  },
  {
    id: 'mw-list-whole-seconds',
    description: 'the list answers window times in whole seconds; a read by key gives them as written',
    breaks: ['OPS-MW-TIMES-FRACTION'],
    only,
    wrap: (inner) =>
      mapResponse(
        (req, res) => isRead(req) && segs(req)?.length === 1 && res.status === 200 && Array.isArray(res.body),
        (res) => {
          for (const w of res.body as Doc[]) if (w && typeof w === 'object') floorTimes(w);
          return res;
        },
      )(inner),
  },
  {
    id: 'mw-sec-grp-list-joined',
    description: 'sec_grp_list of a window is answered as one comma-separated string instead of an array of strings',
    breaks: ['OPS-MW-FIELD-TYPES'],
    only,
    wrap: (inner) =>
      eachWindow((w) => {
        if (Array.isArray(w.sec_grp_list)) w.sec_grp_list = w.sec_grp_list.join(',');
      })(inner),
  },
  {
    id: 'mw-owner-as-object',
    description: '_owner of a window is answered as {name} instead of a string',
    breaks: ['OPS-MW-FIELD-TYPES'],
    only,
    wrap: (inner) =>
      eachWindow((w) => {
        w._owner = { name: w._owner ?? 'nobody' };
      })(inner),
  },
  {
    id: 'mw-partial-flag-ignored',
    description: 'is_partial_data=1 is ignored on maintenance windows: the fields sent replace the whole window',
    breaks: ['OPS-MW-UPDATE'],
    only,
    wrap: (inner) =>
      mapRequest(isByKey('POST'), (req) => {
        const query = new URLSearchParams(req.query);
        query.set('is_partial_data', '0');
        return { ...req, query };
      })(inner),
  },
  {
    id: 'mw-delete-not-persisted',
    description: 'DELETE maintenance_calendar/<_key> answers 204 but the window stays',
    breaks: ['OPS-MW-DELETE'],
    collateral: ['OPS-MW-COUNT'],
    only,
    wrap: (inner) => async (req) => (isByKey('DELETE')(req) ? { status: 204 } : inner(req)),
  },
  {
    id: 'mw-count-ignores-filter',
    description: 'maintenance_calendar/count ignores filter and counts every readable window',
    breaks: ['OPS-MW-COUNT'],
    collateral: ['OPS-AUTH-COUNTS'],
    only,
    wrap: (inner) =>
      mapRequest(isCount, (req) => {
        const query = new URLSearchParams(req.query);
        query.delete('filter');
        return { ...req, query };
      })(inner),
  },
  {
    id: 'mw-count-ignores-access',
    description: 'maintenance_calendar/count is computed with the service account, so it counts windows the caller cannot read',
    breaks: ['OPS-AUTH-COUNTS'],
    only,
    wrap: (inner, config) => mapRequest(isCount, (req) => withHeader(req, 'authorization', adminAuth(config)))(inner),
  },
];
