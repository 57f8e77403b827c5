// Glass table icons (/services/SA-ITOA/v1/icon_collection) and their categories.
import { requireWriter } from './auth.mjs';
import { bug } from './bugs.mjs';
import { badRequest, isPlainObject, notAllowed, notFound, truthy } from './http.mjs';
import { pageRows, parseFields, parseFilter, project, sortRows } from './query.mjs';
import { collection, newKey, readCopy } from './store.mjs';

const icons = collection('icons', 'icon');

const BUILTIN_CATEGORIES = ['Server', 'Network', 'Storage', 'Cloud', 'Security'];

const BUILTIN_ICONS = [
  ['Server', 'Rack server', 'M2 2h20v6H2z M2 10h20v6H2z'],
  ['Server', 'Blade server', 'M4 1h4v22H4z M10 1h4v22h-4z'],
  ['Network', 'Router', 'M12 2a10 10 0 1 0 0 20a10 10 0 1 0 0-20z'],
  ['Network', 'Switch', 'M1 8h22v8H1z'],
  ['Storage', 'Disk array', 'M3 3h18v4H3z M3 10h18v4H3z M3 17h18v4H3z'],
  ['Cloud', 'Cloud region', 'M6 18a5 5 0 0 1 0-10a7 7 0 0 1 13 2a4 4 0 0 1-1 8z'],
  ['Security', 'Firewall', 'M2 4h20v16H2z M2 10h20 M2 16h20'],
];

export function seedIcons() {
  for (const [category, title, svg_path] of BUILTIN_ICONS) {
    icons.put({
      _key: `builtin_${title.toLowerCase().replace(/\s+/g, '_')}`,
      title,
      svg_path,
      default_width: '64',
      default_height: '64',
      category,
      builtin: true,
    });
  }
}

function categories() {
  const names = new Set(BUILTIN_CATEGORIES);
  for (const r of icons.all()) if (typeof r.category === 'string' && r.category !== '') names.add(r.category);
  return [...names].map((name) => (BUILTIN_CATEGORIES.includes(name) ? { name, immutable: true } : { name }));
}

function list(q) {
  if (truthy(q.get('list_categories'))) return categories();
  const f = parseFilter(q.get('filter'));
  if (!f.ok && bug('bad-filter-rejected')) throw badRequest('invalid filter: must be a valid JSON rules expression');
  let rows = icons.all().filter((r) => f.match(r));
  const category = q.get('category');
  if (category && !bug('icon-category-ignored')) rows = rows.filter((r) => r.category === category);
  const sorted = sortRows(rows, q.get('sort_key'), q.get('sort_dir'));
  const page = pageRows(sorted, q.get('limit') ?? q.get('count'), q.get('offset'));
  const fields = parseFields(q.getAll('fields'));
  return { total: rows.length, result: page.map((r) => project(readCopy(r), fields)) };
}

function save(body) {
  const items = Array.isArray(body) ? body : isPlainObject(body) ? [body] : null;
  if (!items) throw badRequest('the payload is an array of icon objects');
  return items.map((it) => {
    if (!isPlainObject(it)) throw badRequest('each icon is an object');
    const old = it._key !== undefined ? icons.get(String(it._key)) : undefined;
    const row = { ...it, _key: it._key === undefined || it._key === null || it._key === '' ? newKey() : String(it._key) };
    delete row.builtin;
    if (old) {
      row._revision = old._revision;
      if (old.builtin) row.builtin = true;
    }
    icons.put(row);
    return row._key;
  });
}

export function handleIcons(ctx, rest) {
  const { method, q, body, user } = ctx;
  if (method !== 'GET') requireWriter(user);
  if (rest.length === 0) {
    if (method === 'GET') return { status: 200, body: list(q) };
    if (method === 'POST') return { status: 201, body: save(body) };
    if (method === 'DELETE') {
      const category = q.get('category');
      if (category === '*' && !bug('icon-star-literal')) {
        for (const r of icons.all()) icons.remove(r._key);
      } else if (category) {
        for (const r of icons.all()) if (r.category === category) icons.remove(r._key);
      }
      return { status: 200, body: { Deleted: 'True' } };
    }
    throw notAllowed();
  }
  if (rest.length === 1) {
    const [key] = rest;
    const row = icons.get(key);
    if (!row) throw notFound(`icon ${key}`);
    if (method === 'GET') return { status: 200, body: readCopy(row) };
    if (method === 'DELETE') {
      icons.remove(key);
      return { status: 200, body: { Deleted: 'True' } };
    }
    throw notAllowed();
  }
  throw notFound(`path icon_collection/${rest.join('/')}`);
}
