// Custom content pack authoring (itoa_interface/content_pack_authorship/content_pack).
import { bug } from './bugs.mjs';
import { countRows, createOne, deleteOne, getOne, isPartial, output, selectRows, updateOne } from './crud.mjs';
import { isPlainObject, notAllowed, notFound } from './http.mjs';
import { coreKind } from './kinds.mjs';
import { pageRows, parseFields, project, sortRows } from './query.mjs';
import { collection } from './store.mjs';

const PLATFORM_KEYS = ['dashboards', 'lookups', 'macros', 'props', 'savedsearches', 'transforms'];

function titleOf(type, id) {
  const kind = coreKind(type);
  const row = kind ? kind.coll.get(id) : collection('em', type).get(id);
  return row && typeof row.title === 'string' ? row.title : id;
}

function idsOf(v) {
  if (Array.isArray(v)) return v.map((x) => (isPlainObject(x) ? String(x.id ?? x._key) : String(x)));
  if (isPlainObject(v)) return Object.keys(v);
  return [];
}

function listForm(ops) {
  const out = {};
  for (const [type, v] of Object.entries(isPlainObject(ops) ? ops : {})) out[type] = idsOf(v);
  return out;
}

function singleForm(ops) {
  const out = {};
  for (const [type, v] of Object.entries(isPlainObject(ops) ? ops : {})) {
    out[type] = {};
    if (isPlainObject(v))
      for (const [id, title] of Object.entries(v)) out[type][id] = typeof title === 'string' ? title : titleOf(type, id);
    else for (const id of idsOf(v)) out[type][id] = titleOf(type, id);
  }
  return out;
}

const kind = {
  type: 'content_pack',
  coll: collection('itoa', 'content_pack'),
  schema: 'content_pack',
  team: () => null,
  prepare: (row, user, old) => {
    if (row.status === undefined || row.status === null) row.status = old?.status ?? 'Draft';
    if (!isPlainObject(row.metadata)) row.metadata = { icon: null, main_screenshot: {}, screenshots: [] };
    if (row.ops_objects === undefined) row.ops_objects = {};
    if (!isPlainObject(row.platform_objects)) row.platform_objects = {};
    for (const k of PLATFORM_KEYS) if (row.platform_objects[k] === undefined) row.platform_objects[k] = [];
    if (!isPlainObject(row.user_selected_objects)) row.user_selected_objects = { ops_objects: {}, platform_objects: {} };
    if (row._owner === undefined) row._owner = user.name;
  },
  decorate: (out) => {
    out.ops_objects = singleForm(out.ops_objects);
    return out;
  },
};

function listEntry(user, row, fields) {
  const out = output({ ...kind, decorate: null }, user, row);
  out.ops_objects = listForm(out.ops_objects);
  const extras = {
    icon: isPlainObject(out.metadata) ? (out.metadata.icon ?? null) : null,
    ops_objects_counts: Object.fromEntries(Object.entries(out.ops_objects).map(([t, ids]) => [t, ids.length])),
    platform_objects_counts: Object.fromEntries(
      Object.entries(isPlainObject(out.platform_objects) ? out.platform_objects : {}).map(([t, v]) => [t, Array.isArray(v) ? v.length : 0]),
    ),
  };
  if (!fields) return Object.assign(out, extras);
  const projected = project(out, fields);
  return bug('cp-list-fields-keeps-counts') ? Object.assign(projected, extras) : projected;
}

function list(user, q) {
  let rows = selectRows(kind, user, q, { onBad: bug('bad-filter-rejected') ? 'reject' : 'all' });
  const status = q.get('status');
  if (status) rows = rows.filter((r) => typeof r.status === 'string' && r.status.toLowerCase() === status.toLowerCase());
  const search = q.get('search');
  if (search) {
    const s = search.toLowerCase();
    rows = rows.filter(
      (r) =>
        typeof r.title === 'string' &&
        (bug('cp-search-prefix-only') ? r.title.toLowerCase().startsWith(s) : r.title.toLowerCase().includes(s)),
    );
  }
  const sorted = sortRows(rows, q.get('sort_key'), q.get('sort_dir'));
  const page = pageRows(sorted, q.get('count') ?? q.get('limit'), q.get('offset'), { countParam: true });
  const fields = parseFields(q.getAll('fields'));
  return page.map((r) => listEntry(user, r, fields));
}

export function handleAuthoring(ctx, rest) {
  const { method, q, body, user } = ctx;
  if (rest[0] !== 'content_pack') throw notFound(`path content_pack_authorship/${rest.join('/')}`);
  const tail = rest.slice(1);
  if (tail.length === 0) {
    if (method === 'GET') return { status: 200, body: list(user, q) };
    if (method === 'POST') {
      const r = createOne(kind, user, body);
      return { status: r.created ? 201 : 200, body: { _key: r.key } };
    }
    throw notAllowed();
  }
  if (tail.length === 1) {
    const [key] = tail;
    if (key === 'count' && method === 'GET') {
      const r = countRows(kind, user, q);
      return { status: 200, body: r };
    }
    if (method === 'GET') return { status: 200, body: getOne(kind, user, key) };
    if (method === 'POST') return { status: 200, body: { _key: updateOne(kind, user, key, body, isPartial(q)) } };
    if (method === 'DELETE') {
      const details = getOne(kind, user, key);
      deleteOne(kind, user, key);
      return { status: 200, body: details };
    }
    throw notAllowed();
  }
  throw notFound(`path content_pack_authorship/${rest.join('/')}`);
}
