// itoa_interface: core objects, entity retirement, templatize and service-template linking.
import { GLOBAL_TEAM, HttpError, bad, notFound, forbidden, isObj, clone, isoTs, modTime, nowPrecise } from './util.mjs';
import * as db from './store.mjs';
import { canReadTeam, requireWriter } from './auth.mjs';
import { parseListParams, selectRows, project, parseFilter, lastParam } from './query.mjs';
import {
  CORE_TYPES,
  UNUSED_CORE_TYPES,
  createOrUpdate,
  updateByKey,
  bulkUpdate,
  deleteOne,
  deleteRows,
  present,
  parsePartialFlag,
} from './objects.mjs';
import { templatizeService, templatizeBaseSearch } from './templatize.mjs';
import { bug } from './bugs.mjs';
import { handleContentPackLibrary } from './contentpacks.mjs';
import { handleAuthorship } from './authorship.mjs';
import { handleCtw, isCtwSpecial } from './ctw.mjs';

const ALL_CORE = new Set([...CORE_TYPES, ...UNUSED_CORE_TYPES]);

export const methodNotAllowed = (allow) => new HttpError(405, `Method not allowed; use ${allow.join(', ')}`, { Allow: allow.join(', ') });
const ok = (json, status = 200) => ({ status, json });
const empty = (status = 200) => ({ status, empty: true });

export function touch(ctx, obj) {
  const now = nowPrecise();
  obj.mod_timestamp = isoTs(now);
  obj.mod_time = modTime(now);
  obj.mod_source = 'REST';
  obj.mod_by = ctx.user.name;
  obj._user = ctx.pathUser;
}

// ---------- generic listing helpers (also used by other interfaces) ----------
export function listObjects(ctx, scope, q, opts = {}) {
  const p = parseListParams(q, opts);
  const base = opts.forList ? db.readable(ctx.user, scope) : db.readableStrict(ctx.user, scope);
  const rows = base.map((o) => present(ctx, scope, o));
  return selectRows(rows, p).map((o) => project(o, p.fields));
}
export function countObjects(ctx, scope, q, filterName = 'filter') {
  const f = parseFilter(lastParam(q, filterName));
  const rows = db.readableStrict(ctx.user, scope).map((o) => present(ctx, scope, o));
  return { count: rows.filter((r) => f.predicate(r)).length };
}
export function bulkDelete(ctx, scope, q, opts = {}) {
  requireWriter(ctx.user);
  const p = parseListParams(q, opts);
  const rows = db.readableStrict(ctx.user, scope).map((o) => present(ctx, scope, o));
  const chosen = selectRows(rows, p);
  deleteRows(ctx, scope, chosen.map((o) => db.get(scope, o._key)).filter(Boolean));
}
export function getOne(ctx, scope, key) {
  const o = db.get(scope, key);
  if (!o || !db.canRead(ctx.user, scope, o)) throw notFound(`Object ${key} of type ${scope.split(':')[1]} not found`);
  return present(ctx, scope, o);
}

// Generic collection routes shared by core, maintenance and backup interfaces.
export function genericRoutes(ctx, scope, method, rest, q, opts = {}) {
  if (rest.length === 0) {
    if (method === 'GET') return ok(listObjects(ctx, scope, q, opts));
    if (method === 'POST') {
      const [st, key] = createOrUpdate(ctx, scope, ctx.json());
      return ok({ _key: key }, st);
    }
    if (method === 'DELETE') {
      bulkDelete(ctx, scope, q, opts);
      return empty();
    }
    throw methodNotAllowed(['GET', 'POST', 'DELETE']);
  }
  if (rest.length === 1 && rest[0] === 'count') {
    if (method !== 'GET') throw methodNotAllowed(['GET']);
    return ok(countObjects(ctx, scope, q));
  }
  if (rest.length === 1 && rest[0] === 'bulk_update') {
    if (method !== 'POST') throw methodNotAllowed(['POST']);
    const partial = parsePartialFlag(q);
    return ok({ _key: bulkUpdate(ctx, scope, ctx.json(), partial) });
  }
  if (rest.length === 1) {
    const key = rest[0];
    if (method === 'GET') return ok(getOne(ctx, scope, key));
    if (method === 'POST') {
      const partial = parsePartialFlag(q);
      const [st, k] = updateByKey(ctx, scope, key, ctx.json(), partial);
      return ok({ _key: k }, st);
    }
    if (method === 'DELETE') {
      deleteOne(ctx, scope, key);
      return empty();
    }
    throw methodNotAllowed(['GET', 'POST', 'DELETE']);
  }
  return null;
}

// ---------- entity retirement ----------
function parseKeyList(body) {
  if (!isObj(body) || !Array.isArray(body.data) || body.data.some((k) => typeof k !== 'string')) {
    throw bad('Payload must be {"data": [<entity key>, ...]}');
  }
  return [...new Set(body.data)];
}
function retireEntity(ctx, e) {
  const h = db.hidden('core:entity', e._key);
  if (h.retired) return;
  h.retired = true;
  h.savedServices = clone(e.services || []);
  if (!bug('retire_keeps_links')) e.services = [];
  touch(ctx, e);
}
function restoreEntity(ctx, e) {
  const h = db.hidden('core:entity', e._key);
  if (!h.retired) return false;
  h.retired = false;
  const have = new Set((e.services || []).map((s) => s._key));
  const back = [...(e.services || [])];
  for (const s of h.savedServices || []) {
    const svc = db.get('core:service', s._key);
    if (svc && !have.has(s._key)) {
      back.push({ _key: s._key, title: svc.title });
      have.add(s._key);
    }
  }
  e.services = back;
  delete h.savedServices;
  touch(ctx, e);
  return true;
}
const writableEntity = (ctx, k) => {
  const e = db.get('core:entity', k);
  return e && db.canRead(ctx.user, 'core:entity', e) && db.canWrite(ctx.user, 'core:entity', e) ? e : null;
};

function entityRoutes(ctx, method, rest) {
  const op = rest[0];
  if (op === 'count_retirable') {
    if (method !== 'GET') throw methodNotAllowed(['GET']);
    return ok(
      db
        .readableStrict(ctx.user, 'core:entity')
        .filter((e) => e.retirable === 1 && !db.hidden('core:entity', e._key).retired)
        .map((e) => {
          const w = db.canWrite(ctx.user, 'core:entity', e);
          return {
            _key: e._key,
            title: e.title,
            object_type: 'entity',
            retirable: 1,
            sec_grp: e.sec_grp,
            identifying_name: e.identifying_name,
            mod_timestamp: e.mod_timestamp,
            permissions: { user: ctx.user.name, group: { read: true, write: w, delete: w }, read: true, write: w, delete: w },
          };
        }),
    );
  }
  if (op === 'retire') {
    if (method !== 'POST') throw methodNotAllowed(['POST']);
    requireWriter(ctx.user);
    const keys = parseKeyList(ctx.json());
    const out = [];
    for (const k of keys) {
      const e = writableEntity(ctx, k);
      if (!e) continue;
      retireEntity(ctx, e);
      out.push(k);
    }
    return ok(out);
  }
  if (op === 'restore') {
    if (method !== 'POST') throw methodNotAllowed(['POST']);
    requireWriter(ctx.user);
    const keys = parseKeyList(ctx.json());
    const out = [];
    for (const k of keys) {
      const e = writableEntity(ctx, k);
      if (e && restoreEntity(ctx, e)) out.push(k);
    }
    return ok(out.length === 1 ? out[0] : out);
  }
  if (op === 'retire_retirable') {
    if (method !== 'POST') throw methodNotAllowed(['POST']);
    requireWriter(ctx.user);
    const out = [];
    for (const e of db.all('core:entity')) {
      if (e.retirable !== 1) continue;
      if (!db.canRead(ctx.user, 'core:entity', e) || !db.canWrite(ctx.user, 'core:entity', e)) continue;
      retireEntity(ctx, e);
      out.push(e._key);
    }
    return ok(out);
  }
  return null;
}

// ---------- service template link ----------
function serviceTemplateLink(ctx, method, key) {
  const scope = 'core:service';
  if (method === 'GET') {
    const svc = db.get(scope, key);
    if (!svc || !db.canRead(ctx.user, scope, svc)) throw notFound(`Service ${key} not found`);
    return ok({ _key: db.hidden(scope, key).template || '' });
  }
  if (method !== 'POST') throw methodNotAllowed(['GET', 'POST']);
  requireWriter(ctx.user);
  if (!canReadTeam(ctx.user, GLOBAL_TEAM)) {
    throw forbidden('Linking a service to a template requires read access to the Global team');
  }
  const svc = db.get(scope, key);
  if (!svc || !db.canRead(ctx.user, scope, svc)) throw notFound(`Service ${key} not found`);
  if (!db.canWrite(ctx.user, scope, svc)) throw forbidden(`User ${ctx.user.name} cannot write service ${key}`);
  const body = ctx.json();
  if (!isObj(body) || typeof body._key !== 'string' || !body._key) throw bad('Payload must be {"_key": <template key>}');
  const t = db.get('core:base_service_template', body._key);
  if (!t || !db.canRead(ctx.user, 'core:base_service_template', t)) throw notFound(`Service template ${body._key} not found`);
  // write access is needed to every service that is (or will be) linked to the template
  for (const sk of t.linked_services || []) {
    const other = db.get(scope, sk);
    if (other && !db.canWrite(ctx.user, scope, other)) throw forbidden(`User ${ctx.user.name} cannot write linked service ${sk}`);
  }
  const h = db.hidden(scope, key);
  if (h.template && h.template !== t._key) {
    const old = db.get('core:base_service_template', h.template);
    if (old) {
      old.linked_services = (old.linked_services || []).filter((x) => x !== key);
      old.total_linked_services = old.linked_services.length;
    }
  }
  h.template = t._key;
  const rules = clone(Array.isArray(t.entity_rules) ? t.entity_rules : []);
  if (bug('link_replaces_rules')) svc.entity_rules = rules;
  else svc.entity_rules = [...(Array.isArray(svc.entity_rules) ? svc.entity_rules : []), ...rules];
  touch(ctx, svc);
  if (!(t.linked_services || []).includes(key)) {
    t.linked_services = [...(t.linked_services || []), key];
    t.total_linked_services = t.linked_services.length;
  }
  return ok({ _key: t._key });
}

// ---------- entry ----------
export function handleCore(ctx, method, segs, q) {
  if (segs.length === 0) throw notFound('No object type given');
  const [head, ...rest] = segs;
  if (head === 'get_alias_list' && rest.length === 0) {
    if (method !== 'GET') throw methodNotAllowed(['GET']);
    const identifier = [];
    const informational = [];
    for (const e of db.readableStrict(ctx.user, 'core:entity').slice().reverse()) {
      for (const f of e.identifier?.fields || []) if (typeof f === 'string' && !identifier.includes(f)) identifier.push(f);
      for (const f of e.informational?.fields || []) if (typeof f === 'string' && !informational.includes(f)) informational.push(f);
    }
    return ok({ identifier, informational });
  }
  if (head === 'get_supported_object_types' && rest.length === 0) {
    if (method !== 'GET') throw methodNotAllowed(['GET']);
    return ok([...ALL_CORE].sort());
  }
  if (head === 'content_pack') return handleContentPackLibrary(ctx, method, rest, q);
  if (head === 'content_pack_authorship') return handleAuthorship(ctx, method, rest, q);
  if (head === 'custom_threshold_windows' && isCtwSpecial(rest)) return handleCtw(ctx, method, rest, q);
  if (!ALL_CORE.has(head)) throw notFound(`Unknown object type "${head}"`);
  const scope = `core:${head}`;
  if (head === 'entity' && rest.length === 1) {
    const r = entityRoutes(ctx, method, rest);
    if (r) return r;
  }
  if (rest.length === 2 && rest[1] === 'templatize') {
    if (method !== 'GET') throw methodNotAllowed(['GET']);
    const supported = bug('templatize_kbs_rejected') ? ['service'] : ['service', 'kpi_base_search'];
    if (!supported.includes(head)) throw bad(`templatize is supported only for ${supported.join(' and ')}, not ${head}`);
    const o = db.get(scope, rest[0]);
    if (!o || !db.canRead(ctx.user, scope, o)) throw notFound(`Object ${rest[0]} not found`);
    return ok(head === 'service' ? templatizeService(o, db.hidden(scope, o._key).template) : templatizeBaseSearch(o));
  }
  if (head === 'service' && rest.length === 2 && rest[1] === 'base_service_template') {
    return serviceTemplateLink(ctx, method, rest[0]);
  }
  const r = genericRoutes(ctx, scope, method, rest, q, { forList: true });
  if (r) return r;
  throw notFound(`Unknown path under ${head}`);
}
