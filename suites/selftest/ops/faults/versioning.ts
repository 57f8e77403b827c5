import type { ApiRequest, ApiResponse } from '../../../../reference-impl/http/types';
import type { OpsFault } from '../fault';

/** `<interface>/vLatest/<rest>`: the rest of a path sent under vLatest, split into segments. */
const underVLatest = (r: ApiRequest) => r.path.match(/_interface\/vLatest\/(.*)$/)?.[1]?.split('/');
const ACTIONS = new Set(['bulk_update', 'count', 'retire', 'restore', 'retire_retirable', 'count_retirable']);

/**
 * Writes under vLatest that answer as if done and do nothing: each kind of write alone, so that each assertion of
 * ops.versioning.vlatest-writes is shown to fail on its own.
 */
const ignored = (id: string, description: string, when: (r: ApiRequest, rest: string[]) => boolean, answer: ApiResponse): OpsFault => ({
  id,
  description,
  breaks: ['OPS-VERSION-PATH'],
  only: ['ops.versioning.vlatest-writes'],
  wrap: (inner) => (req) => {
    const rest = underVLatest(req);
    return rest && when(req, rest) ? Promise.resolve(structuredClone(answer)) : inner(req);
  },
});

const isTicketing = (rest: string[]) => rest[0] === 'ticketing';

export const versioningFaults: OpsFault[] = [
  ignored(
    'vlatest-create-not-stored',
    'POST <object_type> under vLatest answers a key but stores nothing',
    (r, rest) => r.method === 'POST' && rest.length === 1 && !isTicketing(rest),
    { status: 200, body: { _key: 'vlatest-not-stored' } },
  ),
  ignored(
    'vlatest-update-ignored',
    'POST <object_type>/<_key> under vLatest answers the key and changes nothing',
    (r, rest) => r.method === 'POST' && rest.length === 2 && !ACTIONS.has(rest[1]!) && !isTicketing(rest),
    { status: 200, body: { _key: 'ignored' } },
  ),
  ignored(
    'vlatest-bulk-update-ignored',
    'POST <object_type>/bulk_update under vLatest answers success and changes nothing',
    (r, rest) => r.method === 'POST' && rest[1] === 'bulk_update',
    { status: 200, body: { _key: [] } },
  ),
  ignored(
    'vlatest-delete-ignored',
    'DELETE <object_type>/<_key> under vLatest answers success and deletes nothing',
    (r, rest) => r.method === 'DELETE' && rest.length === 2 && !isTicketing(rest),
    { status: 204 },
  ),
  ignored(
    'vlatest-ticket-create-ignored',
    'POST ticketing under vLatest answers a key and links nothing',
    (r, rest) => r.method === 'POST' && isTicketing(rest) && rest.length === 1,
    { status: 200, body: { _key: 'ignored' } },
  ),
  ignored(
    'vlatest-ticket-delete-ignored',
    'DELETE ticketing/<episode>/<system>/<ticket> under vLatest answers success and unlinks nothing',
    (r, rest) => r.method === 'DELETE' && isTicketing(rest),
    { status: 204 },
  ),
  {
    id: 'vlatest-em-list-empty',
    description: 'GET event_management_interface/vLatest/<object_type> answers an empty list',
    breaks: ['OPS-VERSION-PATH'],
    only: ['ops.versioning.vlatest-path'],
    wrap: (inner) => (req) =>
      req.method === 'GET' && /event_management_interface\/vLatest\/[^/]+$/.test(req.path) && !req.path.endsWith('notable_event_actions')
        ? Promise.resolve({ status: 200, body: [] })
        : inner(req),
  },
];
