import type { ApiRequest } from '../../../reference-impl/http/types';
import type { OpsConfig, OpsUser } from '../../../reference-impl/ops/config';
import { mapRequest, withHeader } from '../fault';
import type { OpsFault } from './fault';
const basic = (u: OpsUser) => `Basic ${Buffer.from(`${u.name}:${u.password}`).toString('base64')}`;
const admin = (c: OpsConfig) => c.users.find((u) => !u.readOnly)!;
const isReader = (c: OpsConfig) => (r: ApiRequest) => c.users.some((u) => u.readOnly && r.headers.authorization === basic(u));
export const probes: OpsFault[] = [
  { id: 'p-reader-sees-all', description: '', breaks: ['OPS-AUTH-RESULTS-READABLE'], only: ['ops.auth.*'],
    wrap: (inner, c) => (req) => inner(isReader(c)(req) && req.method === 'GET' ? withHeader(req, 'authorization', basic(admin(c))) : req) },
  { id: 'p-password-unchecked', description: '', breaks: ['OPS-AUTH-ACCESS-CHECKS'], only: ['ops.auth.*'],
    wrap: (inner, c) => (req) => {
      const given = Buffer.from(String(req.headers.authorization ?? '').replace(/^Basic /, ''), 'base64').toString('utf8').split(':')[0];
      const u = c.users.find((x) => x.name === given);
      return inner(u ? withHeader(req, 'authorization', basic(u)) : req);
    } },
  { id: 'p-offset-needs-limit', description: '', breaks: ['OPS-QUERY-OFFSET'], only: ['ops.query.*'],
    wrap: mapRequest((r) => r.method === 'GET' && !r.query.has('limit') && r.query.has('offset'), (r) => { const q = new URLSearchParams(r.query); q.delete('offset'); return { ...r, query: q }; }) },
  { id: 'p-bulk-default-one', description: '', breaks: ['OPS-CORE-BULK-UPDATE'], only: ['ops.core.bulk-update', 'ops.partial.*'],
    wrap: mapRequest((r) => r.path.endsWith('/bulk_update') && !r.query.has('is_partial_data'), (r) => { const q = new URLSearchParams(r.query); q.set('is_partial_data', '1'); return { ...r, query: q }; }) },
];
