// itoa_interface/content_pack_authorship/content_pack: custom content pack authoring.
import { GLOBAL_TEAM, SCHEMA_VERSION, HttpError, bad, notFound, forbidden, isObj, clone, isoTs, modTime, hex, KEY_RE } from './util.mjs';
import * as db from './store.mjs';
import { canWriteTeam, requireWriter } from './auth.mjs';
import { parseListParams, selectRows, project, parseFilter, lastParam } from './query.mjs';

const SCOPE = 'cp:content_pack';
export const CP_STATUSES = ['Draft', 'Queued', 'Generating', 'Generated', 'Failed', 'Incomplete'];
const PLATFORM_KINDS = ['dashboards', 'lookups', 'macros', 'props', 'savedsearches', 'transforms'];
const mna = (allow) => new HttpError(405, `Method not allowed; use ${allow.join(', ')}`, { Allow: allow.join(', ') });

function idMap(v, what) {
  if (v === undefined || v === null) return {};
  if (!isObj(v)) throw bad(`${what} must be an object mapping names to arrays of identifiers`);
  const out = {};
  for (const [k, ids] of Object.entries(v)) {
    if (!Array.isArray(ids) || ids.some((x) => typeof x !== 'string')) throw bad(`${what}.${k} must be an array of identifiers`);
    out[k] = [...ids];
  }
  return out;
}

function build(ctx, body, prev, key) {
  if (!isObj(body)) throw bad('Payload must be a content pack object');
  if (!('title' in body)) throw bad('Missing required field "title"');
  if (typeof body.title !== 'string') throw bad('title must be a string');
  const o = {};
  o._key = key;
  o.title = body.title;
  o.description = typeof body.description === 'string' ? body.description : '';
  o.overview = typeof body.overview === 'string' ? body.overview : '';
  o.cp_version = body.cp_version === undefined ? '1.0.0' : body.cp_version;
  if (typeof o.cp_version !== 'string') throw bad('cp_version must be a string');
  const md = body.metadata === undefined ? {} : body.metadata;
  if (!isObj(md)) throw bad('metadata must be an object');
  o.metadata = {
    ...clone(md),
    icon: md.icon === undefined ? null : md.icon,
    main_screenshot: isObj(md.main_screenshot) ? clone(md.main_screenshot) : {},
    screenshots: Array.isArray(md.screenshots) ? clone(md.screenshots) : [],
  };
  if (o.metadata.icon !== null && typeof o.metadata.icon !== 'string') throw bad('metadata.icon must be a string or null');
  o.ops_objects = idMap(body.ops_objects, 'ops_objects');
  const po = idMap(body.platform_objects, 'platform_objects');
  for (const k of PLATFORM_KINDS) if (!po[k]) po[k] = [];
  o.platform_objects = po;
  const uso = body.user_selected_objects === undefined ? {} : body.user_selected_objects;
  if (!isObj(uso)) throw bad('user_selected_objects must be an object');
  o.user_selected_objects = {
    ops_objects: idMap(uso.ops_objects, 'user_selected_objects.ops_objects'),
    platform_objects: idMap(uso.platform_objects, 'user_selected_objects.platform_objects'),
  };
  if (prev) {
    if (body.status !== undefined) {
      if (!CP_STATUSES.includes(body.status)) throw bad(`status must be one of ${CP_STATUSES.join(', ')}`);
      o.status = body.status;
    } else o.status = prev.status;
  } else o.status = 'Draft';
  o.object_type = 'content_pack';
  o.sec_grp = GLOBAL_TEAM;
  o.identifying_name = o.title.toLowerCase();
  o._version = SCHEMA_VERSION;
  o._user = ctx.pathUser;
  o.mod_source = 'REST';
  o.mod_timestamp = isoTs();
  o.mod_time = modTime();
  return o;
}

function lookupTitle(type, id) {
  for (const iface of ['core', 'event']) {
    const o = db.get(`${iface}:${type}`, id);
    if (o) return typeof o.title === 'string' ? o.title : '';
  }
  return '';
}

// Single read: each object type maps to {id: title} entries.
function singleView(o) {
  const out = clone(o);
  out.ops_objects = Object.fromEntries(
    Object.entries(o.ops_objects || {}).map(([t, ids]) => [t, ids.map((id) => ({ [id]: lookupTitle(t, id) }))]),
  );
  return out;
}
function listView(o) {
  const out = clone(o);
  out.icon = o.metadata ? o.metadata.icon : null;
  out.ops_objects_counts = Object.fromEntries(Object.entries(o.ops_objects || {}).map(([t, ids]) => [t, ids.length]));
  out.platform_objects_counts = Object.fromEntries(Object.entries(o.platform_objects || {}).map(([t, ids]) => [t, ids.length]));
  return out;
}

function requireCpWrite(ctx) {
  requireWriter(ctx.user);
  if (!canWriteTeam(ctx.user, GLOBAL_TEAM)) throw forbidden('Content pack authoring requires write access to the Global team');
}

export function seedAuthored(o) {
  db.put(SCOPE, o);
}

export function handleAuthorship(ctx, method, rest, q) {
  if (rest[0] !== 'content_pack') throw notFound('Unknown path under content_pack_authorship');
  const r = rest.slice(1).filter((s, i, a) => !(s === '' && i === a.length - 1));
  if (r.length === 0) {
    if (method === 'GET') {
      const p = parseListParams(q, { limitName: 'count', dirMode: 'asc-des', fieldsMode: 'array', zeroMeansAll: true });
      const status = lastParam(q, 'status');
      if (status !== undefined && status !== '' && !CP_STATUSES.includes(status))
        throw bad(`status must be one of ${CP_STATUSES.join(', ')}`);
      const search = lastParam(q, 'search');
      let rows = db.readableStrict(ctx.user, SCOPE);
      if (status) rows = rows.filter((o) => o.status === status);
      if (search) rows = rows.filter((o) => typeof o.title === 'string' && o.title.includes(search));
      const noFields = p.fields === undefined;
      rows = rows.map((o) => (noFields ? listView(o) : clone(o)));
      let out = selectRows(rows, p);
      if (!noFields)
        out = out.map((o) =>
          project(
            o,
            p.fields.filter((f) => !['icon', 'ops_objects_counts', 'platform_objects_counts'].includes(f)),
          ),
        );
      return { status: 200, json: out };
    }
    if (method === 'POST') {
      requireCpWrite(ctx);
      const body = ctx.json();
      const key = `cp_${hex(16)}`;
      db.put(SCOPE, build(ctx, body, null, key));
      return { status: 201, json: { _key: key } };
    }
    throw mna(['GET', 'POST']);
  }
  if (r.length === 1 && r[0] === 'count') {
    if (method !== 'GET') throw mna(['GET']);
    const f = parseFilter(lastParam(q, 'filter'));
    return { status: 200, json: { count: db.readableStrict(ctx.user, SCOPE).filter((o) => f.predicate(o)).length } };
  }
  if (r.length === 1) {
    const key = r[0];
    const o = db.get(SCOPE, key);
    const visible = o && db.canRead(ctx.user, SCOPE, o);
    if (method === 'GET') {
      if (!visible) throw notFound(`Content pack ${key} not found`);
      return { status: 200, json: singleView(o) };
    }
    if (method === 'POST') {
      requireCpWrite(ctx);
      if (!visible) throw notFound(`Content pack ${key} not found`);
      if (!KEY_RE.test(key)) throw bad('bad key');
      db.put(SCOPE, build(ctx, ctx.json(), o, key));
      return { status: 200, json: { _key: key } };
    }
    if (method === 'DELETE') {
      requireCpWrite(ctx);
      if (!visible) throw notFound(`Content pack ${key} not found`);
      db.remove(SCOPE, key);
      return {
        status: 200,
        json: {
          _key: o._key,
          title: o.title,
          cp_version: o.cp_version,
          status: o.status,
          object_type: 'content_pack',
          deleted: true,
          deleted_by: ctx.user.name,
        },
      };
    }
    throw mna(['GET', 'POST', 'DELETE']);
  }
  throw notFound('Unknown content pack authoring path');
}
