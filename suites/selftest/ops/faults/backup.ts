import type { ApiHandler, ApiRequest } from '../../../../reference-impl/http/types';
import { mapRequest, mapResponse } from '../../fault';
import { opsPath, type OpsFault } from '../fault';
import type { Doc } from '../../../core/json';

const only = ['ops.backup.*'];
const segs = (req: ApiRequest) => opsPath(req.path, 'backup_restore_interface');
const isRead = (req: ApiRequest) => req.method === 'GET' && segs(req)?.[0] === 'backup_restore' && segs(req)?.[1] !== 'count';

const eachJob = (change: (j: Doc) => void) =>
  mapResponse(
    (req, res) => isRead(req) && res.status === 200,
    (res) => {
      for (const j of Array.isArray(res.body) ? res.body : [res.body]) if (j && typeof j === 'object') change(j as Doc);
      return res;
    },
  );

/**
 * A server that has lost some jobs: reads no longer show the keys in `gone`, though the reference still holds them.
 * This is how a deletion the reference refuses is made visible.
 */
function losing(inner: ApiHandler, gone: Set<string>, lose: (req: ApiRequest) => Promise<void>): ApiHandler {
  return async (req) => {
    await lose(req);
    const s = segs(req);
    if (req.method !== 'GET' || s?.[0] !== 'backup_restore' || gone.size === 0) return inner(req);
    if (s.length === 2 && s[1] !== 'count' && gone.has(s[1]))
      return { status: 404, body: { message: `No backup_restore object with _key "${s[1]}"` } };
    if (s.length === 2 && s[1] === 'count') {
      const list = await inner({ ...req, path: req.path.replace(/\/count$/, '') });
      return Array.isArray(list.body)
        ? { status: 200, body: { count: list.body.filter((j: Doc) => !gone.has(String(j._key))).length } }
        : list;
    }
    const res = await inner(req);
    return s.length === 1 && Array.isArray(res.body) ? { ...res, body: res.body.filter((j: Doc) => !gone.has(String(j._key))) } : res;
  };
}

export const backupFaults: OpsFault[] = [
  {
    id: 'br-default-deleted-by-key',
    description: 'DELETE backup_restore/<_key> deletes the default scheduled backup like any other job',
    breaks: ['OPS-BR-DEFAULT-SURVIVES-SINGLE'],
    only,
    wrap: (inner, config) => {
      const gone = new Set<string>();
      const handler = losing(inner, gone, async () => undefined);
      return async (req) => {
        const s = segs(req);
        if (req.method === 'DELETE' && s?.length === 2 && s[1] === config.defaultBackupKey) {
          gone.add(s[1]);
          return { status: 204 };
        }
        return handler(req);
      };
    },
  },
  {
    id: 'br-default-deleted-by-bulk',
    description: 'a bulk DELETE of backup_restore removes the default scheduled backup when its filter selects it',
    breaks: ['OPS-BR-DEFAULT-SURVIVES-BULK'],
    only,
    wrap: (inner, config) => {
      const gone = new Set<string>();
      return losing(inner, gone, async (req) => {
        if (req.method !== 'DELETE' || segs(req)?.length !== 1) return;
        const selected = await inner({ ...req, method: 'GET' });
        if (Array.isArray(selected.body) && selected.body.some((j: Doc) => j._key === config.defaultBackupKey))
          gone.add(config.defaultBackupKey);
      });
    },
  },
  {
    id: 'br-object-type-renamed',
    description: 'backup jobs are answered with object_type "backup"',
    breaks: ['OPS-BR-OBJECT-TYPE'],
    only,
    wrap: (inner) => eachJob((j) => (j.object_type = 'backup'))(inner),
  },
  {
    id: 'br-create-time-iso',
    description: 'create_time of a job is answered in ISO-8601 form (2024-01-01T00:00:00Z) instead of YYYY-MM-DD HH:MM:SS',
    breaks: ['OPS-BR-FIELD-TYPES'],
    only,
    wrap: (inner) =>
      eachJob((j) => {
        if (typeof j.create_time === 'string') j.create_time = `${j.create_time.replace(' ', 'T')}Z`;
      })(inner),
  },
  {
    id: 'br-status-as-object',
    description: 'the status of a job is answered as {name: "Queued"} instead of a string',
    breaks: ['OPS-BR-FIELD-TYPES'],
    only,
    wrap: (inner) =>
      eachJob((j) => {
        if (typeof j.status === 'string') j.status = { name: j.status };
      })(inner),
  },
  {
    id: 'br-update-not-persisted',
    description: 'POST backup_restore/<_key> answers {_key} without storing the change',
    breaks: ['OPS-BR-UPDATE'],
    only,
    wrap: (inner) => async (req) => {
      const s = segs(req);
      return req.method === 'POST' && s?.length === 2 && s[1] !== 'bulk_update' ? { status: 200, body: { _key: s[1] } } : inner(req);
    },
  },
  {
    id: 'br-count-skips-scheduled',
    description: 'backup_restore/count leaves the default scheduled backup out, so it is one below the list',
    breaks: ['OPS-BR-COUNT'],
    only,
    wrap: (inner, config) =>
      mapRequest(
        (req) => req.method === 'GET' && segs(req)?.[1] === 'count' && !req.query.get('filter'),
        (req) => {
          const query = new URLSearchParams(req.query);
          query.set('filter', JSON.stringify({ _key: { $ne: config.defaultBackupKey } }));
          return { ...req, query };
        },
      )(inner),
  },
  {
    id: 'br-job-list-empty-for-type',
    description: 'the backup interface does not know backup_restore: GET backup_restore answers 404',
    breaks: ['OPS-BR-LIST', 'OPS-BR-OBJECT-TYPE'],
    collateral: ['OPS-BR-DELETE', 'OPS-BR-COUNT', 'OPS-AUTH-COUNTS'],
    only,
    wrap: (inner) => async (req) =>
      req.method === 'GET' && segs(req)?.length === 1
        ? { status: 404, body: { message: 'Unknown object type "backup_restore"' } }
        : inner(req),
  },
];
