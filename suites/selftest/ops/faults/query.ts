import type { ApiRequest } from '../../../../reference-impl/http/types';
import { badRequest } from '../../../../reference-impl/ops/errors';
import { mapRequest } from '../../fault';
import type { OpsFault } from '../fault';

type Node = Record<string, unknown>;

const ONLY_FILTER = ['ops.filter.matches-document-store'];
const ONLY_PAGING = ['ops.query.sort-and-page'];
const ONLY_BULK_COMBINED = ['ops.query.bulk-delete-combined'];
const CRUD_INTERFACE =
  /^\/servicesNS\/[^/]+\/[^/]+\/(?:itoa_interface|maintenance_services_interface|backup_restore_interface)(?:\/vLatest)?\/[^/]+(\/count)?$/;

const isNode = (v: unknown): v is Node => typeof v === 'object' && v !== null && !Array.isArray(v);
const isScalar = (v: unknown) => v === null || ['string', 'number', 'boolean'].includes(typeof v);
const isCollectionRead = (r: ApiRequest) => r.method === 'GET' && CRUD_INTERFACE.test(r.path);
const isListRead = (r: ApiRequest) => isCollectionRead(r) && !r.path.endsWith('/count');
const isBulkDelete = (r: ApiRequest) => r.method === 'DELETE' && CRUD_INTERFACE.test(r.path) && !r.path.endsWith('/count');

function withQuery(req: ApiRequest, change: (q: URLSearchParams) => void): ApiRequest {
  const query = new URLSearchParams(req.query);
  change(query);
  return { ...req, query };
}

const parses = (raw: string) => {
  try {
    JSON.parse(raw);
    return true;
  } catch {
    return false;
  }
};

/** Rewrites every object node of a filter, bottom-up; an unparsable filter is passed on untouched. */
function rewriteFilter(raw: string, visit: (node: Node) => unknown): string {
  const walk = (n: unknown): unknown => {
    if (Array.isArray(n)) return n.map(walk);
    if (!isNode(n)) return n;
    return visit(Object.fromEntries(Object.entries(n).map(([k, v]) => [k, walk(v)])));
  };
  try {
    return JSON.stringify(walk(JSON.parse(raw)));
  } catch {
    return raw;
  }
}

/** A fault in how the server reads the `filter` parameter, on every collection read and bulk delete. */
const filterFault = (visit: (node: Node) => unknown) =>
  mapRequest(
    (r) => (isCollectionRead(r) || isBulkDelete(r)) && r.query.get('filter') !== null,
    (r) => withQuery(r, (q) => q.set('filter', rewriteFilter(q.get('filter')!, visit))),
  );

const paramFault = (when: (r: ApiRequest) => boolean, change: (q: URLSearchParams) => void) =>
  mapRequest(when, (r) => withQuery(r, change));

export const queryFaults: OpsFault[] = [
  {
    id: 'mw-list-fields-first-only',
    description: 'the maintenance list keeps only the first field fields= names',
    breaks: ['OPS-QUERY-FIELDS'],
    only: ['ops.query.fields'],
    wrap: mapRequest(
      (req) => isListRead(req) && req.path.includes('/maintenance_services_interface/') && (req.query.get('fields') ?? '').includes(','),
      (req) => withQuery(req, (q) => q.set('fields', q.get('fields')!.split(',')[0]!)),
    ),
  },
  {
    id: 'filter-ne-as-equality',
    description: '{field: {$ne: v}} is evaluated as {field: v}',
    breaks: ['OPS-FILTER-NE'],
    only: ONLY_FILTER,
    wrap: filterFault((n) => (Object.keys(n).length === 1 && '$ne' in n ? n.$ne : n)),
  },
  {
    id: 'filter-regex-anchored',
    description: '$regex must match the whole value instead of any part of it',
    breaks: ['OPS-FILTER-REGEX'],
    // The fixed example that puts $regex and $ne in one node is a combined filter.
    collateral: ['OPS-QUERY-FILTER'],
    only: ONLY_FILTER,
    wrap: filterFault((n) => (typeof n.$regex === 'string' ? { ...n, $regex: `^(?:${n.$regex})$` } : n)),
  },
  {
    id: 'filter-regex-case-folded',
    description: '$regex ignores case',
    breaks: ['OPS-FILTER-REGEX'],
    only: ONLY_FILTER,
    wrap: filterFault((n) => (typeof n.$regex === 'string' ? { ...n, $options: 'i' } : n)),
  },
  {
    id: 'filter-dotted-paths-ignored',
    description: 'conditions on dotted field paths are dropped, so they match every row',
    breaks: ['OPS-FILTER-EQUALITY'],
    collateral: ['OPS-FILTER-REGEX', 'OPS-FILTER-NE'],
    only: ONLY_FILTER,
    wrap: filterFault((n) => Object.fromEntries(Object.entries(n).filter(([k]) => !k.includes('.')))),
  },
  {
    id: 'filter-array-elements-not-matched',
    // A reading the document allows (it shows the shapes, not what they do to arrays): a warning, never a failure.
    description: 'equality compares an array field as a whole, so {field: v} never matches an array holding v',
    breaks: ['OPS-FILTER-STORE-SEMANTICS'],
    only: ONLY_FILTER,
    wrap: filterFault((n) =>
      Object.fromEntries(
        Object.entries(n).map(([k, v]) => [k, !k.startsWith('$') && isScalar(v) ? { $eq: v, $not: { $type: 'array' } } : v]),
      ),
    ),
  },
  {
    id: 'filter-or-as-and',
    description: '$or is evaluated as $and',
    breaks: ['OPS-QUERY-FILTER'],
    only: ONLY_FILTER,
    wrap: filterFault((n) => ('$or' in n ? Object.fromEntries(Object.entries(n).map(([k, v]) => [k === '$or' ? '$and' : k, v])) : n)),
  },
  {
    id: 'filter-invalid-get-400',
    description: 'a GET with a filter that is not JSON answers 400 instead of all rows',
    breaks: ['OPS-FILTER-INVALID-GET'],
    only: ['ops.filter.invalid-get-returns-all'],
    wrap: (inner) => (req) => {
      const raw = req.query.get('filter');
      return isCollectionRead(req) && raw !== null && raw.trim() !== '' && !parses(raw)
        ? badRequest('filter is not valid JSON')
        : inner(req);
    },
  },
  {
    id: 'filter-invalid-get-empty',
    description: 'a GET with a filter that is not JSON selects no row (an empty list, count 0)',
    breaks: ['OPS-FILTER-INVALID-GET'],
    only: ['ops.filter.invalid-get-returns-all'],
    wrap: (inner) => (req) => {
      const raw = req.query.get('filter');
      if (!(isCollectionRead(req) && raw !== null && raw.trim() !== '' && !parses(raw))) return inner(req);
      return { status: 200, body: isListRead(req) ? [] : { count: 0 } };
    },
  },
  {
    id: 'filter-invalid-delete-deletes-nothing',
    description: 'a DELETE with a filter that is not JSON deletes nothing',
    breaks: ['OPS-FILTER-INVALID-DELETE'],
    only: ['ops.filter.invalid-delete-deletes-all'],
    wrap: (inner) => (req) => {
      const raw = req.query.get('filter');
      return isBulkDelete(req) && raw !== null && !parses(raw) ? { status: 204 } : inner(req);
    },
  },
  {
    id: 'bulk-delete-ignores-filter',
    description: 'DELETE <object_type> drops the filter and deletes every row of the type',
    breaks: ['OPS-CORE-BULK-DELETE', 'OPS-MW-BULK-DELETE', 'OPS-BR-BULK-DELETE', 'OPS-QUERY-FILTER'],
    only: ['ops.query.bulk-delete-by-filter'],
    wrap: paramFault(isBulkDelete, (q) => q.delete('filter')),
  },
  {
    id: 'list-filter-ignored-off-core',
    description: 'maintenance and backup lists ignore filter and answer every row',
    breaks: ['OPS-QUERY-FILTER'],
    only: ONLY_PAGING,
    wrap: paramFault(
      (r) => isListRead(r) && !r.path.includes('/itoa_interface/'),
      (q) => q.delete('filter'),
    ),
  },
  {
    id: 'sort-dir-inverted',
    description: 'sort_dir=1 sorts descending and 0 ascending',
    breaks: ['OPS-QUERY-SORT-DIR'],
    only: ONLY_PAGING,
    wrap: paramFault(
      (r) => isListRead(r) && r.query.has('sort_dir'),
      (q) => q.set('sort_dir', q.get('sort_dir') === '1' ? '0' : '1'),
    ),
  },
  {
    id: 'sort-key-ignored',
    description: 'sort_key is ignored: rows come in store order',
    breaks: ['OPS-QUERY-SORT-KEY'],
    only: ONLY_PAGING,
    wrap: paramFault(isListRead, (q) => q.delete('sort_key')),
  },
  {
    id: 'offset-off-by-one',
    description: 'offset skips one entry more than asked',
    breaks: ['OPS-QUERY-OFFSET'],
    only: ONLY_PAGING,
    wrap: paramFault(
      (r) => isListRead(r) && r.query.has('offset'),
      (q) => q.set('offset', String(Number(q.get('offset')) + 1)),
    ),
  },
  {
    id: 'offset-needs-limit',
    description: 'offset is applied only together with limit',
    breaks: ['OPS-QUERY-OFFSET'],
    only: ONLY_PAGING,
    wrap: paramFault(
      (r) => isListRead(r) && r.query.has('offset') && !r.query.has('limit'),
      (q) => q.delete('offset'),
    ),
  },
  {
    id: 'limit-off-by-one',
    description: 'limit returns one entry more than asked',
    breaks: ['OPS-QUERY-LIMIT'],
    only: ONLY_PAGING,
    wrap: paramFault(
      (r) => isListRead(r) && Number(r.query.get('limit')) > 0,
      (q) => q.set('limit', String(Number(q.get('limit')) + 1)),
    ),
  },
  {
    id: 'limit-unset-default-page',
    description: 'a list without limit returns a default page of 10 entries',
    breaks: ['OPS-LIMITS-UNSET'],
    only: ['ops.query.limit-unset-returns-all'],
    wrap: paramFault(
      (r) => isListRead(r) && !r.query.has('limit'),
      (q) => q.set('limit', '10'),
    ),
  },
  {
    id: 'fields-ignored',
    description: 'fields is ignored: every row comes back whole',
    breaks: ['OPS-QUERY-FIELDS'],
    only: ['ops.query.fields'],
    wrap: paramFault(isListRead, (q) => q.delete('fields')),
  },
  {
    id: 'fields-drops-last-name',
    description: 'the last name of the fields list is lost',
    breaks: ['OPS-QUERY-FIELDS'],
    only: ['ops.query.fields'],
    wrap: paramFault(
      (r) => isListRead(r) && r.query.has('fields'),
      (q) => q.set('fields', q.get('fields')!.split(',').slice(0, -1).join(',') || '_key'),
    ),
  },
  {
    id: 'bulk-delete-ignores-limit',
    description: 'DELETE <object_type> ignores limit: every row the filter selects after offset goes',
    breaks: ['OPS-QUERY-LIMIT'],
    only: ONLY_BULK_COMBINED,
    wrap: paramFault(isBulkDelete, (q) => q.delete('limit')),
  },
  {
    id: 'bulk-delete-ignores-offset',
    description: 'DELETE <object_type> ignores offset: the first rows of the selection go',
    breaks: ['OPS-QUERY-OFFSET'],
    only: ONLY_BULK_COMBINED,
    wrap: paramFault(isBulkDelete, (q) => q.delete('offset')),
  },
  {
    id: 'bulk-delete-ignores-sort',
    description: 'DELETE <object_type> pages the selection in store order, ignoring sort_key and sort_dir',
    breaks: ['OPS-QUERY-SORT-KEY'],
    only: ONLY_BULK_COMBINED,
    wrap: paramFault(isBulkDelete, (q) => {
      q.delete('sort_key');
      q.delete('sort_dir');
    }),
  },
  {
    id: 'bulk-delete-sort-dir-inverted',
    description: 'DELETE <object_type> reads sort_dir=1 as descending and 0 as ascending',
    breaks: ['OPS-QUERY-SORT-DIR'],
    only: ONLY_BULK_COMBINED,
    wrap: paramFault(
      (r) => isBulkDelete(r) && r.query.has('sort_dir'),
      (q) => q.set('sort_dir', q.get('sort_dir') === '1' ? '0' : '1'),
    ),
  },
  {
    id: 'bulk-delete-vlatest-noop',
    description: 'DELETE <object_type> under vLatest answers success and deletes nothing',
    breaks: ['OPS-VERSION-PATH'],
    only: ONLY_BULK_COMBINED,
    wrap: (inner) => (req) => (isBulkDelete(req) && req.path.includes('/vLatest/') ? Promise.resolve({ status: 204 }) : inner(req)),
  },
  {
    id: 'list-pages-before-sort',
    description: 'a sorted list with limit or offset pages the rows in store order first, then sorts the page',
    breaks: ['OPS-QUERY-OFFSET'],
    only: ONLY_PAGING,
    wrap: (inner) => async (req) => {
      const q = req.query;
      if (!isListRead(req) || !q.has('sort_key') || !(q.has('limit') || q.has('offset'))) return inner(req);
      const res = await inner(
        withQuery(req, (w) => {
          for (const k of ['sort_key', 'sort_dir', 'limit', 'offset']) w.delete(k);
        }),
      );
      if (res.status >= 300 || !Array.isArray(res.body)) return res;
      const offset = Number(q.get('offset') ?? 0);
      const page = (res.body as Node[]).slice(offset, q.has('limit') ? offset + Number(q.get('limit')) : undefined);
      const key = q.get('sort_key')!;
      const dir = q.get('sort_dir') === '0' ? -1 : 1;
      const cmp = (a: unknown, b: unknown) =>
        typeof a === 'number' && typeof b === 'number' ? a - b : String(a) < String(b) ? -1 : String(a) > String(b) ? 1 : 0;
      return { ...res, body: [...page].sort((a, b) => dir * cmp(a[key], b[key])) };
    },
  },
  {
    id: 'list-paged-filter-first-field-only',
    description: 'a list with limit applies only the first field of a filter node, dropping the others',
    breaks: ['OPS-FILTER-EQUALITY'],
    only: ONLY_PAGING,
    wrap: paramFault(
      (r) => isListRead(r) && r.query.has('limit') && r.query.get('filter') !== null,
      (q) =>
        q.set(
          'filter',
          rewriteFilter(q.get('filter')!, (n) => Object.fromEntries(Object.entries(n).slice(0, 1))),
        ),
    ),
  },
];
