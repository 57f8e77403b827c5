import type { ApiRequest, ApiResponse } from '../../../../reference-impl/http/types';
import { mapRequest, mapResponse } from '../../fault';
import { opsPath, type OpsFault } from '../fault';
import { isDoc, type Doc } from '../../../core/json';

/** Path segments after `content_pack_authorship/content_pack`; undefined for any other path. */
function authoring(r: ApiRequest): string[] | undefined {
  const s = opsPath(r.path, 'itoa_interface');
  return s?.[0] === 'content_pack_authorship' && s[1] === 'content_pack' ? s.slice(2) : undefined;
}
const isList = (r: ApiRequest) => r.method === 'GET' && authoring(r)?.length === 0;
const isCount = (r: ApiRequest) => r.method === 'GET' && authoring(r)?.[0] === 'count' && authoring(r)?.length === 1;
const isOne = (r: ApiRequest, method: string) => r.method === method && authoring(r)?.length === 1 && authoring(r)![0] !== 'count';
const okAnswer = (res: ApiResponse) => res.status >= 200 && res.status < 300;

function withQuery(req: ApiRequest, change: (q: URLSearchParams) => void): ApiRequest {
  const query = new URLSearchParams(req.query);
  change(query);
  return { ...req, query };
}
const query = (when: (r: ApiRequest) => boolean, change: (q: URLSearchParams) => void) => mapRequest(when, (r) => withQuery(r, change));
/** Rewrites every pack of a list or single-read answer. */
const eachPack = (when: (r: ApiRequest) => boolean, change: (p: Doc, r: ApiRequest) => void) =>
  mapResponse(
    (r, res) => when(r) && okAnswer(res),
    (res, r) => {
      for (const p of Array.isArray(res.body) ? res.body : [res.body]) if (isDoc(p)) change(p, r);
      return res;
    },
  );
const readOrList = (r: ApiRequest) => isList(r) || isOne(r, 'GET');

const EXTRA = ['icon', 'ops_objects_counts', 'platform_objects_counts'];
const ONLY_PAGING = ['ops.authoring.list-paging'];
const ONLY_FIELDS = ['ops.authoring.list-fields'];
const ONLY_CRUD = ['ops.authoring.crud'];
const ONLY_FORMS = ['ops.authoring.fields'];

export const authoringFaults: OpsFault[] = [
  {
    id: 'cpa-sort-des-as-asc',
    description: 'the authoring list only understands sort_dir=desc, so the documented des sorts ascending',
    breaks: ['OPS-CPA-LIST'],
    only: ONLY_PAGING,
    wrap: query(isList, (q) => q.get('sort_dir') === 'des' && q.delete('sort_dir')),
  },
  {
    id: 'cpa-count-off-by-one',
    description: 'the authoring list returns one pack more than count',
    breaks: ['OPS-CPA-LIST'],
    only: ONLY_PAGING,
    wrap: query(isList, (q) => q.get('count') !== null && q.set('count', String(Number(q.get('count')) + 1))),
  },
  {
    id: 'cpa-offset-ignored',
    description: 'the authoring list always starts at the first pack',
    breaks: ['OPS-CPA-LIST'],
    only: ONLY_PAGING,
    wrap: query(isList, (q) => q.delete('offset')),
  },
  {
    id: 'cpa-filter-ignored',
    description: 'the authoring list ignores filter',
    breaks: ['OPS-CPA-LIST'],
    only: ONLY_PAGING,
    wrap: query(isList, (q) => q.delete('filter')),
  },
  {
    id: 'cpa-status-ignored',
    description: 'the authoring list ignores status',
    breaks: ['OPS-CPA-LIST-STATUS'],
    only: ['ops.authoring.list-status-search'],
    wrap: query(isList, (q) => q.delete('status')),
  },
  {
    id: 'cpa-search-prefix-only',
    description: 'search matches only titles that start with it',
    breaks: ['OPS-CPA-LIST-SEARCH'],
    only: ['ops.authoring.list-status-search'],
    wrap: mapResponse(
      (r, res) => isList(r) && okAnswer(res) && !!r.query.get('search'),
      (res, r) => ({
        ...res,
        body: (res.body as Doc[]).filter((p) => String(p.title).toLowerCase().startsWith(r.query.get('search')!.toLowerCase())),
      }),
    ),
  },
  {
    id: 'cpa-extra-fields-with-fields',
    description: 'icon and the object counts are added to every row even when fields is given',
    breaks: ['OPS-CPA-LIST-EXTRA-FIELDS'],
    only: ONLY_FIELDS,
    wrap: eachPack(
      (r) => isList(r) && r.query.has('fields'),
      (p) => Object.assign(p, { icon: null, ops_objects_counts: {}, platform_objects_counts: {} }),
    ),
  },
  {
    id: 'cpa-extra-fields-never',
    description: 'the authoring list never returns icon and the object counts, not even without fields',
    breaks: ['OPS-CPA-LIST-EXTRA-FIELDS-DEFAULT'],
    only: ONLY_FIELDS,
    wrap: eachPack(isList, (p) =>
      EXTRA.forEach((f) => {
        delete p[f];
      }),
    ),
  },
  {
    id: 'cpa-fields-ignored',
    description: 'the authoring list returns whole packs whatever fields asks',
    breaks: ['OPS-CPA-LIST-EXTRA-FIELDS'],
    only: ONLY_FIELDS,
    wrap: query(isList, (q) => q.delete('fields')),
  },
  {
    id: 'cpa-single-read-list-form',
    description: 'a single read gives ops_objects as identifier arrays instead of {id: title} entries',
    breaks: ['OPS-CPA-OPS-OBJECTS'],
    only: ONLY_FORMS,
    wrap: eachPack(
      (r) => isOne(r, 'GET'),
      (p) => {
        const ops = p.ops_objects as Record<string, Doc[]>;
        p.ops_objects = Object.fromEntries(Object.entries(ops).map(([t, es]) => [t, es.map((e) => Object.keys(e)[0])]));
      },
    ),
  },
  {
    id: 'cpa-single-read-first-type-only',
    description: 'a single read gives ops_objects of the first object type the pack names only',
    breaks: ['OPS-CPA-OPS-OBJECTS'],
    only: ONLY_FORMS,
    wrap: eachPack(
      (r) => isOne(r, 'GET'),
      (p) => {
        if (isDoc(p.ops_objects)) p.ops_objects = Object.fromEntries(Object.entries(p.ops_objects).slice(0, 1));
      },
    ),
  },
  {
    id: 'cpa-single-read-titles-of-services-only',
    description: 'a single read titles service entries; entries of other types carry their identifier as title',
    breaks: ['OPS-CPA-OPS-OBJECTS'],
    only: ONLY_FORMS,
    wrap: eachPack(
      (r) => isOne(r, 'GET'),
      (p) => {
        const ops = p.ops_objects as Record<string, Doc[]>;
        for (const [t, es] of Object.entries(ops))
          if (t !== 'service') ops[t] = es.map((e) => Object.fromEntries(Object.keys(e).map((k) => [k, k])));
      },
    ),
  },
  {
    id: 'cpa-list-titled-entries',
    description: 'the list gives ops_objects as {id: id} entries instead of identifier arrays',
    breaks: ['OPS-CPA-OPS-OBJECTS'],
    only: ONLY_FORMS,
    wrap: eachPack(isList, (p) => {
      if (!isDoc(p.ops_objects)) return;
      const ops = p.ops_objects as Record<string, unknown[]>;
      p.ops_objects = Object.fromEntries(Object.entries(ops).map(([t, ids]) => [t, ids.map((k) => ({ [String(k)]: String(k) }))]));
    }),
  },
  {
    id: 'cpa-screenshots-as-object',
    description: 'metadata.screenshots of a pack is answered as an object keyed by position instead of an array',
    breaks: ['OPS-CPA-FIELD-TYPES'],
    only: ONLY_FORMS,
    wrap: eachPack(readOrList, (p) => {
      const m = p.metadata as Doc | undefined;
      if (isDoc(m) && Array.isArray(m.screenshots)) m.screenshots = { ...m.screenshots };
    }),
  },
  {
    id: 'cpa-selected-ids-titled',
    description: 'user_selected_objects.ops_objects of a single read is answered as {id: id} entries instead of identifier arrays',
    breaks: ['OPS-CPA-FIELD-TYPES'],
    only: ONLY_FORMS,
    wrap: eachPack(
      (r) => isOne(r, 'GET'),
      (p) => {
        const u = p.user_selected_objects as Doc | undefined;
        if (!isDoc(u) || !isDoc(u.ops_objects)) return;
        const ops = u.ops_objects as Record<string, unknown[]>;
        u.ops_objects = Object.fromEntries(Object.entries(ops).map(([t, ids]) => [t, ids.map((k) => ({ [String(k)]: String(k) }))]));
      },
    ),
  },
  {
    id: 'cpa-version-as-number',
    description: 'cp_version of a pack is answered as a number (1.1) instead of a string',
    breaks: ['OPS-CPA-FIELD-TYPES'],
    only: ONLY_FORMS,
    wrap: eachPack(readOrList, (p) => {
      if (typeof p.cp_version === 'string') p.cp_version = Number.parseFloat(p.cp_version);
    }),
  },
  {
    id: 'cpa-object-type-renamed',
    description: 'custom content packs read as object_type custom_content_pack',
    breaks: ['OPS-CPA-OBJECT-TYPE'],
    only: ONLY_CRUD,
    wrap: eachPack(readOrList, (p) => (p.object_type = 'custom_content_pack')),
  },
  {
    id: 'cpa-status-lower-case',
    description: 'statuses read in lower case (draft, generated...)',
    breaks: ['OPS-CPA-STATUS'],
    only: ONLY_CRUD,
    wrap: eachPack(readOrList, (p) => (p.status = String(p.status).toLowerCase())),
  },
  {
    id: 'cpa-update-not-persisted',
    description: 'a full update answers {_key} but stores nothing',
    breaks: ['OPS-CPA-UPDATE'],
    only: ['ops.authoring.update-round-trip'],
    wrap: (inner) => (req) => (isOne(req, 'POST') ? { status: 200, body: { _key: authoring(req)![0] } } : inner(req)),
  },
  {
    id: 'cpa-delete-not-persisted',
    description: 'delete answers the details of the pack but keeps it',
    breaks: ['OPS-CPA-DELETE'],
    only: ONLY_CRUD,
    wrap: (inner) => (req) => (isOne(req, 'DELETE') ? inner({ ...req, method: 'GET' }) : inner(req)),
  },
  {
    id: 'cpa-delete-answers-nothing',
    description: 'delete answers an empty body instead of the details of the deleted pack',
    breaks: ['OPS-CPA-DELETE-DETAILS'],
    only: ONLY_CRUD,
    wrap: mapResponse(
      (r, res) => isOne(r, 'DELETE') && okAnswer(res),
      () => ({ status: 200 }),
    ),
  },
  {
    id: 'cpa-count-ignores-filter',
    description: 'count counts every pack whatever filter says',
    breaks: ['OPS-CPA-COUNT'],
    only: ['ops.authoring.count'],
    wrap: query(isCount, (q) => q.delete('filter')),
  },
];
