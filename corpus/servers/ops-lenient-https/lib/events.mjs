// event_management_interface: generic rows per object type, comments (append-only), configuration.
import { requireWriter } from './auth.mjs';
import { bug } from './bugs.mjs';
import { countRows, createOne, deleteMany, deleteOne, getOne, listRows, output, readable, updateOne } from './crud.mjs';
import { badRequest, isPlainObject, notAllowed, notFound, truthy } from './http.mjs';
import { EVENT_CONFIGURATION } from './seed-events.mjs';
import { collection } from './store.mjs';
import { bindEventKinds, handleActions, handleTicketing } from './ticketing.mjs';
import { epoch } from './time.mjs';

const kinds = new Map();

function emKind(type) {
  let k = kinds.get(type);
  if (!k) {
    k = {
      type,
      coll: collection('em', type),
      schema: null,
      epochTimes: true,
      createTime: () => epoch(),
      team: (row) => (typeof row.sec_grp === 'string' && row.sec_grp !== '' ? row.sec_grp : null),
      prepare: (row, user, old) => {
        if (!old && (type === 'notable_event_comment' || type === 'notable_event_tag')) {
          if (row.user === undefined) row.user = user.name;
          if (row.owner === undefined) row.owner = user.name;
          if (row._owner === undefined) row._owner = 'nobody';
        }
        if (type === 'notable_event_comment' && !old) row.comment_id = row._key;
        if ((type === 'notable_event' || type === 'notable_event_group') && row.event_id === undefined) row.event_id = row._key;
      },
    };
    kinds.set(type, k);
  }
  return k;
}

bindEventKinds(emKind);

const TYPE_NAME = /^[A-Za-z][A-Za-z0-9_]*$/;
const APPEND_ONLY = 'notable_event_comment';

function idsParam(q) {
  const raw = q.get('ids');
  if (!raw) return null;
  try {
    const v = JSON.parse(raw);
    return (Array.isArray(v) ? v : [v]).map(String);
  } catch {
    return raw.split(',').map((s) => s.trim());
  }
}

function list(kind, user, q) {
  const ids = idsParam(q);
  const where = ids ? (r) => ids.includes(r._key) || ids.includes(String(r.event_id)) : undefined;
  return listRows(kind, user, q, {
    filterNames: ['filter_data', 'filter'],
    offsetNames: ['skip', 'offset'],
    limitNames: ['limit', 'count'],
    skipBug: 'em-skip-ignored',
    where,
  });
}

function byEvent(kind, user, eventId) {
  return kind.coll
    .all()
    .filter((r) => readable(kind, user, r) && String(r.event_id) === String(eventId))
    .map((r) => output(kind, user, r));
}

/** PUT/POST <type> with {ids: [...], ...fields} or an array of objects: updates in place. */
function bulkWrite(kind, user, body) {
  if (Array.isArray(body)) {
    return body.map((it) => {
      if (!isPlainObject(it)) throw badRequest('each item is an object');
      if (it._key !== undefined && kind.coll.has(String(it._key)) && kind.type !== APPEND_ONLY)
        return updateOne(kind, user, String(it._key), it, true);
      return createOne(kind, user, it).key;
    });
  }
  const ids = Array.isArray(body.ids) ? body.ids : String(body.ids).split(',');
  const { ids: _ids, ...fields } = body;
  return ids.map((id) => updateOne(kind, user, String(id).trim(), fields, true));
}

export function handleEvents(ctx) {
  const { method, segs, q, body, user } = ctx;
  const [type, ...rest] = segs;
  if (type === undefined) throw notFound('event management object type');
  if (type === 'ticketing') return handleTicketing(ctx, rest);
  if (type === 'notable_event_actions') return handleActions(ctx, rest);
  if (type === 'notable_event_configuration' && method === 'GET' && rest.length <= 1) return { status: 200, body: EVENT_CONFIGURATION };
  if (!TYPE_NAME.test(type)) throw notFound(`object type ${type}`);
  const kind = emKind(type);
  if (method !== 'GET') requireWriter(user);
  const appendOnly = type === APPEND_ONLY && !bug('comment-editable');
  if (rest.length === 0) {
    if (method === 'GET') return { status: 200, body: list(kind, user, q) };
    if (method === 'POST') {
      if (Array.isArray(body) || (isPlainObject(body) && body.ids !== undefined && type !== APPEND_ONLY))
        return { status: 200, body: bulkWrite(kind, user, body) };
      if (appendOnly && isPlainObject(body) && body._key !== undefined && kind.coll.has(String(body._key)))
        throw notAllowed('episode comments are append-only: update is not supported');
      const r = createOne(kind, user, body);
      if (type === APPEND_ONLY) return { status: 201, body: getOne(kind, user, r.key) };
      return { status: r.created ? 201 : 200, body: { _key: r.key } };
    }
    if (method === 'DELETE') {
      if (appendOnly) throw notAllowed('episode comments are append-only: delete is not supported');
      deleteMany(kind, user, q, { filterNames: ['filter_data', 'filter'] });
      return { status: 204 };
    }
    throw notAllowed();
  }
  if (rest.length === 1) {
    const [key] = rest;
    if (key === 'count' && method === 'GET')
      return { status: 200, body: countRows(kind, user, q, { filterNames: ['filter_data', 'filter'] }) };
    if (method === 'GET') {
      if (truthy(q.get('is_event_id'))) return { status: 200, body: byEvent(kind, user, key) };
      return { status: 200, body: getOne(kind, user, key) };
    }
    if (appendOnly) throw notAllowed(`episode comments are append-only: ${method === 'DELETE' ? 'delete' : 'update'} is not supported`);
    if (method === 'POST') {
      const partial = q.get('is_partial_data') === null ? true : truthy(q.get('is_partial_data'));
      return { status: 200, body: { _key: updateOne(kind, user, key, body, partial) } };
    }
    if (method === 'DELETE') {
      deleteOne(kind, user, key);
      return { status: 204 };
    }
    throw notAllowed();
  }
  throw notFound(`path ${segs.join('/')}`);
}
