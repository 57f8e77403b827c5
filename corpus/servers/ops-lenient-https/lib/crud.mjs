// Generic list, count, read, create, update and delete over one collection ("kind").
import { canReadTeam, requireTeamWrite, requireWriter } from './auth.mjs';
import { bug } from './bugs.mjs';
import { badRequest, clone, forbidden, invalid, isPlainObject, notFound, truthy } from './http.mjs';
import { pageRows, parseFields, parseFilter, project, sortRows } from './query.mjs';
import { keepSchemaFields, requiredFields } from './schema.mjs';
import { newKey, readCopy, SCHEMA_VERSION, SERVER_FIELDS } from './store.mjs';
import { epoch, isoStamp, modTime } from './time.mjs';

/**
 * A kind: { type, coll, schema (type name or null to keep every field), team(row) -> team or null (open),
 *   readable(user,row)?, prepare(row,user,old)?, decorate(out,user,row)?, protect(row)? -> message, createTime()? }
 */
function teamOf(kind, row) {
  return kind.team ? kind.team(row) : null;
}

export function readable(kind, user, row) {
  if (kind.readable) return kind.readable(user, row);
  const t = teamOf(kind, row);
  return t === null || canReadTeam(user, t);
}

export function checkWrite(kind, user, row) {
  if (kind.writable) {
    requireWriter(user);
    if (!kind.writable(user, row)) throw forbidden(`user ${user.name} cannot change ${kind.type} ${row._key}`);
    return;
  }
  const t = teamOf(kind, row);
  if (t === null) requireWriter(user);
  else requireTeamWrite(user, t);
}

export function output(kind, user, row) {
  const out = readCopy(row);
  return kind.decorate ? kind.decorate(out, user, row) : out;
}

function visibleRows(kind, user) {
  const rows = kind.coll.all();
  if (bug('list-ignores-access')) return rows;
  return rows.filter((r) => readable(kind, user, r));
}

function filterFrom(q, names = ['filter']) {
  for (const n of names) if (q.has(n)) return q.get(n);
  return undefined;
}

/** Rows selected by filter (an incorrect filter selects every row). */
export function selectRows(kind, user, q, { filterNames = ['filter'], onBad = 'all' } = {}) {
  const f = parseFilter(filterFrom(q, filterNames));
  if (!f.ok && onBad === 'reject') throw badRequest('invalid filter: must be a valid JSON rules expression');
  if (!f.ok && onBad === 'none') return [];
  return visibleRows(kind, user).filter((r) => f.match(r));
}

export function listRows(kind, user, q, opts = {}) {
  const { filterNames = ['filter'], offsetNames = ['offset'], limitNames = ['limit', 'count'], skipBug = 'offset-ignored' } = opts;
  const rows = selectRows(kind, user, q, { filterNames, onBad: bug('bad-filter-rejected') ? 'reject' : 'all' }).filter(
    opts.where || (() => true),
  );
  const sorted = sortRows(rows, q.get('sort_key'), q.get('sort_dir'));
  const pick = (names) => names.map((n) => q.get(n)).find((v) => v !== null && v !== undefined);
  const page = pageRows(sorted, pick(limitNames), pick(offsetNames), { skipBug });
  const fields = parseFields(q.getAll('fields'));
  return page.map((r) => project(output(kind, user, r), fields));
}

export function countRows(kind, user, q, { ignoreAccessBug, filterNames = ['filter'] } = {}) {
  const useFilter = !bug('count-filter-ignored');
  const f = parseFilter(useFilter ? filterFrom(q, filterNames) : undefined);
  const all = ignoreAccessBug && bug(ignoreAccessBug) ? kind.coll.all() : visibleRows(kind, user);
  return { count: all.filter((r) => f.match(r)).length };
}

export function findReadable(kind, user, key) {
  const row = kind.coll.get(key);
  if (!row || !readable(kind, user, row)) throw notFound(`${kind.type} ${key}`);
  return row;
}

export function getOne(kind, user, key) {
  return output(kind, user, findReadable(kind, user, key));
}

function stripServerFields(body) {
  const out = {};
  for (const [k, v] of Object.entries(body)) if (!SERVER_FIELDS.includes(k)) out[k] = v;
  return out;
}

function stamp(kind, row, user) {
  row.object_type = kind.objectType || kind.type;
  if (typeof row.title === 'string') row.identifying_name = row.title.toLowerCase();
  row._version = SCHEMA_VERSION;
  row.mod_timestamp = isoStamp();
  row.mod_time = kind.epochTimes ? epoch() : modTime();
  row.mod_by = user.name;
  if (!row.mod_source || row.mod_source === 'unknown') row.mod_source = 'REST';
  if (row._user === undefined) row._user = 'nobody';
}

function keepFields(kind, body, context) {
  return kind.schema ? keepSchemaFields(kind.schema, body, context) : { ...body };
}

function mergeDeep(base, patch) {
  const out = { ...base };
  for (const [k, v] of Object.entries(patch)) {
    out[k] = isPlainObject(v) && isPlainObject(base[k]) ? mergeDeep(base[k], v) : v;
  }
  return out;
}

function requireBody(body) {
  if (!isPlainObject(body)) throw invalid('the payload must be a JSON object');
  return body;
}

/** POST <type>: creates, or replaces the object whose _key the body names. */
export function createOne(kind, user, rawBody) {
  const body = clone(requireBody(rawBody));
  const key = body._key === undefined || body._key === null || body._key === '' ? undefined : String(body._key);
  const old = key === undefined ? undefined : kind.coll.get(key);
  if (old) {
    if (!readable(kind, user, old)) throw forbidden(`user ${user.name} cannot change ${kind.type} ${key}`);
    checkWrite(kind, user, old);
  } else requireWriter(user);
  let row = keepFields(kind, stripServerFields(body), body);
  if (old) row = carryServerFields(old, row);
  else {
    row.create_time = kind.createTime ? kind.createTime() : isoStamp();
    row.create_by = user.name;
    row.create_source = 'REST';
  }
  row._key = key ?? newKey();
  if (kind.prepare) kind.prepare(row, user, old);
  checkWrite(kind, user, row);
  stamp(kind, row, user);
  kind.coll.put(row);
  if (kind.afterWrite) kind.afterWrite(row, old);
  return { created: !old, key: row._key };
}

function carryServerFields(old, row) {
  for (const f of [...SERVER_FIELDS, '_owner', '_user'])
    if (old[f] !== undefined && !['mod_timestamp', 'mod_time', 'mod_by'].includes(f)) row[f] = old[f];
  return row;
}

/** POST <type>/<key>: partial (merge) or full (replace) update; a missing key is created. */
export function updateOne(kind, user, key, rawBody, partial) {
  const body = clone(requireBody(rawBody));
  const old = kind.coll.get(key);
  if (old && !readable(kind, user, old)) throw notFound(`${kind.type} ${key}`);
  if (old) checkWrite(kind, user, old);
  else requireWriter(user);
  const clean = stripServerFields(body);
  let row;
  if (partial) {
    const kept = keepFields(kind, clean, mergeDeep(old || {}, clean));
    row = bug('partial-update-overwrites') || !old ? kept : mergeDeep(old, kept);
  } else {
    if (!bug('full-update-no-required')) {
      const missing = requiredFields(kind.schema || '').filter((f) => body[f] === undefined || body[f] === null || body[f] === '');
      if (missing.length) throw invalid(`is_partial_data=0 needs the whole object; missing required field(s): ${missing.join(', ')}`);
    }
    row = bug('full-update-drops-custom-fields') ? keepFields(kind, clean, clean) : clean;
  }
  row = clone(row);
  if (old) carryServerFields(old, row);
  else {
    row.create_time = kind.createTime ? kind.createTime() : isoStamp();
    row.create_by = user.name;
    row.create_source = 'REST';
  }
  row._key = String(key);
  if (kind.prepare) kind.prepare(row, user, old);
  checkWrite(kind, user, row);
  stamp(kind, row, user);
  kind.coll.put(row);
  if (kind.afterWrite) kind.afterWrite(row, old);
  return row._key;
}

export function isPartial(q) {
  return truthy(q.get('is_partial_data'));
}

/** POST <type>/bulk_update: every object names its _key; the answer's _key lists them comma-separated. */
export function bulkUpdate(kind, user, q, body) {
  requireWriter(user);
  const items = Array.isArray(body) ? body : isPlainObject(body) ? [body] : null;
  if (!items) throw invalid('bulk_update takes an array of objects');
  const partial = isPartial(q);
  if (!partial && !bug('full-update-no-required')) {
    items.forEach((it, i) => {
      if (!isPlainObject(it)) throw invalid(`item ${i} is not an object`);
      const missing = requiredFields(kind.schema || '').filter((f) => it[f] === undefined || it[f] === null || it[f] === '');
      if (missing.length) throw invalid(`item ${i}: is_partial_data=0 needs the whole object; missing ${missing.join(', ')}`);
    });
  }
  const keys = [];
  for (const it of items) {
    if (!isPlainObject(it)) throw invalid('bulk_update takes an array of objects');
    if (it._key === undefined || it._key === null || it._key === '') keys.push(createOne(kind, user, it).key);
    else keys.push(updateOne(kind, user, String(it._key), it, partial));
  }
  return { _key: keys.join(',') };
}

export function deleteOne(kind, user, key) {
  const row = findReadable(kind, user, key);
  checkWrite(kind, user, row);
  const why = kind.protect ? kind.protect(row, 'single') : null;
  if (why) throw forbidden(why);
  kind.coll.remove(row._key);
  if (kind.afterDelete) kind.afterDelete(row);
}

/** DELETE <type>: rows matching filter (incorrect filter: every row), sorted and paged; protected rows stay. */
export function deleteMany(kind, user, q, opts = {}) {
  requireWriter(user);
  const onBad = bug('bad-filter-deletes-nothing') ? 'none' : 'all';
  const rows = selectRows(kind, user, q, { filterNames: opts.filterNames || ['filter'], onBad });
  const sorted = sortRows(rows, q.get('sort_key'), q.get('sort_dir'));
  const page = pageRows(sorted, q.get('limit') ?? q.get('count'), q.get('offset'));
  const removed = [];
  for (const row of page) {
    try {
      checkWrite(kind, user, row);
    } catch {
      continue;
    }
    if (kind.protect?.(row, 'bulk')) continue;
    kind.coll.remove(row._key);
    if (kind.afterDelete) kind.afterDelete(row);
    removed.push(row._key);
  }
  return removed;
}
