import type { ApiHandler, ApiRequest } from '../../../../reference-impl/http/types';
import { mapRequest, mapResponse, withBody } from '../../fault';
import type { OpsFault } from '../fault';
import type { Doc } from '../../../core/json';

/** Each fault runs only the check that must catch it, to keep the self-test fast. */
const only = (check: string) => [`ops.icons.${check}`];
const ICONS = '/services/SA-ITOA/v1/icon_collection';
const atCollection = (method: string) => (req: ApiRequest) => req.method === method && req.path.replace(/\/+$/, '') === ICONS;
const atKey = (method: string) => (req: ApiRequest) =>
  req.method === method && req.path.startsWith(`${ICONS}/`) && req.path.length > ICONS.length + 1;
const listsCategories = (req: ApiRequest) => ['1', 'true'].includes(req.query.get('list_categories') ?? '');
const isIconList = (req: ApiRequest) => atCollection('GET')(req) && !listsCategories(req);
const withQuery = (req: ApiRequest, change: (q: URLSearchParams) => void): ApiRequest => {
  const query = new URLSearchParams(req.query);
  change(query);
  return { ...req, query };
};

/** Every icon the caller can see, read through the implementation itself. */
async function everyIcon(inner: ApiHandler, req: ApiRequest): Promise<Doc[]> {
  const res = await inner({ ...req, method: 'GET', query: new URLSearchParams(), rawBody: '', body: undefined });
  return ((res.body as { result?: Doc[] } | undefined)?.result ?? []) as Doc[];
}

export const iconsFaults: OpsFault[] = [
  {
    id: 'icon-create-first-only',
    description: 'POST icon_collection saves only the first icon of the array, and answers its key alone',
    breaks: ['OPS-ICON-CREATE'],
    only: only('create-and-list'),
    wrap: mapRequest(
      (req) => atCollection('POST')(req) && Array.isArray(req.body) && req.body.length > 1,
      (req) => withBody(req, (req.body as unknown[]).slice(0, 1)),
    ),
  },
  {
    id: 'icon-list-without-total',
    description: 'the icon list answers {result} without total',
    breaks: ['OPS-ICON-LIST'],
    only: only('create-and-list'),
    wrap: (inner) =>
      mapResponse(
        (req, res) => isIconList(req) && res.status === 200,
        (res) => ({ ...res, body: { result: (res.body as Doc).result } }),
      )(inner),
  },
  {
    id: 'icon-category-filter-ignored',
    description: 'GET icon_collection ignores the category parameter and lists every icon',
    breaks: ['OPS-ICON-CATEGORY-FILTER'],
    only: only('create-and-list'),
    wrap: (inner) => mapRequest(isIconList, (req) => withQuery(req, (q) => q.delete('category')))(inner),
  },
  {
    id: 'icon-offset-ignored',
    description: 'the icon list ignores offset, so every page starts at the first icon',
    breaks: ['OPS-QUERY-OFFSET'],
    only: only('list-parameters'),
    wrap: (inner) => mapRequest(isIconList, (req) => withQuery(req, (q) => q.delete('offset')))(inner),
  },
  {
    id: 'icon-sort-key-ignored',
    description: 'the icon list ignores sort_key and keeps its own order',
    breaks: ['OPS-QUERY-SORT-KEY'],
    only: only('list-parameters'),
    wrap: (inner) => mapRequest(isIconList, (req) => withQuery(req, (q) => q.delete('sort_key')))(inner),
  },
  {
    id: 'icon-sort-dir-inverted',
    description: 'the icon list reads sort_dir=1 as descending and 0 as ascending',
    breaks: ['OPS-QUERY-SORT-DIR'],
    only: only('list-parameters'),
    wrap: (inner) =>
      mapRequest(
        (req) => isIconList(req) && ['0', '1'].includes(req.query.get('sort_dir') ?? ''),
        (req) => withQuery(req, (q) => q.set('sort_dir', q.get('sort_dir') === '1' ? '0' : '1')),
      )(inner),
  },
  {
    id: 'icon-limit-ignored',
    description: 'the icon list ignores limit and answers every icon from the offset on',
    breaks: ['OPS-QUERY-LIMIT'],
    only: only('list-parameters'),
    wrap: (inner) => mapRequest(isIconList, (req) => withQuery(req, (q) => q.delete('limit')))(inner),
  },
  {
    id: 'icon-fields-ignored',
    description: 'the icon list ignores fields and answers whole icons',
    breaks: ['OPS-QUERY-FIELDS'],
    only: only('list-parameters'),
    wrap: (inner) => mapRequest(isIconList, (req) => withQuery(req, (q) => q.delete('fields')))(inner),
  },
  {
    id: 'icon-filter-ignored',
    description: 'the icon list ignores filter and answers every icon of the category',
    breaks: ['OPS-QUERY-FILTER'],
    only: only('list-parameters'),
    wrap: (inner) => mapRequest(isIconList, (req) => withQuery(req, (q) => q.delete('filter')))(inner),
  },
  {
    id: 'icon-create-first-key-only',
    description: 'POST icon_collection saves every icon of the array but answers only the first key',
    breaks: ['OPS-ICON-CREATE'],
    only: only('create-and-list'),
    wrap: (inner) =>
      mapResponse(
        (req, res) => atCollection('POST')(req) && Array.isArray(res.body),
        (res) => ({ ...res, body: (res.body as string[]).slice(0, 1) }),
      )(inner),
  },
  {
    id: 'icon-numeric-sizes-refused',
    description: 'icon creation refuses default_width and default_height sent as numbers',
    breaks: ['OPS-ICON-CREATE-SIZES'],
    only: only('size-forms'),
    wrap: (inner) => async (req) => {
      const numeric =
        Array.isArray(req.body) && req.body.some((i: Doc) => typeof i?.default_width === 'number' || typeof i?.default_height === 'number');
      return (atCollection('POST')(req) || atCollection('PUT')(req)) && numeric
        ? { status: 400, body: { message: 'default_width must be a string' } }
        : inner(req);
    },
  },
  {
    id: 'icon-put-not-allowed',
    description: "PUT icon_collection (the sample's form) answers 405",
    breaks: ['OPS-ICON-CREATE-PUT'],
    only: only('put-form'),
    wrap: (inner) => async (req) =>
      atCollection('PUT')(req)
        ? { status: 405, headers: { allow: 'GET, POST, DELETE' }, body: { message: 'Method not allowed' } }
        : inner(req),
  },
  {
    id: 'icon-delete-category-prefix',
    description: 'DELETE icon_collection?category=<name> deletes every category whose name starts with <name>',
    breaks: ['OPS-ICON-DELETE-CATEGORY'],
    only: only('delete-category'),
    wrap: (inner) => async (req) => {
      const name = req.query.get('category');
      if (!atCollection('DELETE')(req) || !name || name === '*') return inner(req);
      const names = new Set((await everyIcon(inner, req)).map((i) => String(i.category)).filter((c) => c.startsWith(name)));
      let last = await inner(req);
      for (const c of names) last = await inner(withQuery(req, (q) => q.set('category', c)));
      return last;
    },
  },
  {
    id: 'icon-delete-all-literal',
    description: 'category=* is taken as the literal category name "*", so nothing is deleted',
    breaks: ['OPS-ICON-DELETE-ALL'],
    only: only('delete-all'),
    wrap: (inner) => async (req) =>
      atCollection('DELETE')(req) && req.query.get('category') === '*' ? { status: 200, body: { Deleted: 'True' } } : inner(req),
  },
  {
    id: 'icon-delete-key-empty-answer',
    description: "DELETE icon_collection/<_key> answers 204 without the {Deleted: 'True'} body",
    breaks: ['OPS-ICON-DELETE-ANSWER'],
    only: only('delete-by-key'),
    wrap: (inner) =>
      mapResponse(
        (req, res) => atKey('DELETE')(req) && res.status === 200,
        () => ({ status: 204 }),
      )(inner),
  },
  {
    id: 'icon-categories-only-configured',
    description: 'list_categories=1 answers only the configured categories, not those that icons introduced',
    breaks: ['OPS-ICON-LIST-CATEGORIES'],
    only: only('list-categories'),
    wrap: (inner, config) => {
      const configured = new Set(config.seed.iconCategories.map((c) => c.name));
      return mapResponse(
        (req, res) => atCollection('GET')(req) && listsCategories(req) && Array.isArray(res.body),
        (res) => ({ ...res, body: (res.body as Doc[]).filter((c) => configured.has(String(c.name))) }),
      )(inner);
    },
  },
  {
    id: 'icon-every-category-immutable',
    description: 'every category entry is marked immutable, also the categories icons introduced, which can be modified',
    breaks: ['OPS-ICON-CATEGORY'],
    only: only('list-categories'),
    wrap: (inner) =>
      mapResponse(
        (req, res) => atCollection('GET')(req) && listsCategories(req) && Array.isArray(res.body),
        (res) => ({ ...res, body: (res.body as Doc[]).map((c) => ({ ...c, immutable: true })) }),
      )(inner),
  },
  {
    id: 'icon-delete-category-deletes-every-icon',
    description: 'DELETE icon_collection?category=<name> deletes the icons of every category, as if category were *',
    breaks: ['OPS-ICON-DELETE-CATEGORY'],
    only: only('delete-category'),
    wrap: mapRequest(
      (req) => atCollection('DELETE')(req) && !!req.query.get('category'),
      (req) => withQuery(req, (q) => q.set('category', '*')),
    ),
  },
  {
    id: 'icon-immutable-category-deletable',
    description: 'DELETE icon_collection?category=<immutable category> deletes its icons regardless',
    breaks: ['OPS-ICON-CATEGORY-IMMUTABLE'],
    only: only('immutable-categories'),
    wrap: (inner) => {
      const gone = new Set<string>();
      return async (req) => {
        const name = req.query.get('category');
        if (atCollection('DELETE')(req) && name && name !== '*') {
          const res = await inner(req);
          if (res.status === 400) gone.add(name);
          return res.status === 400 ? { status: 200, body: { Deleted: 'True' } } : res;
        }
        const res = await inner(req);
        if (!isIconList(req) || gone.size === 0 || res.status !== 200) return res;
        const body = res.body as { total: number; result: Doc[] };
        const result = body.result.filter((i) => !gone.has(String(i.category)));
        return { ...res, body: { total: result.length, result } };
      };
    },
  },
];
