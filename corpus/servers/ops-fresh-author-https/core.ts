// Core interface: generic object CRUD, entity retirement, templates, custom threshold windows.
import {
  bug,
  fail,
  canRead,
  needWrite,
  checkGroups,
  sharedList,
  applyFilter,
  boolParam,
  intParam,
  newKey,
  isoOff,
  modTime,
  GLOBAL,
  VERSION,
  type User,
} from './store.js';
import { CORE, CORE_TYPES, EXTRA_TYPES, RETIRED_LINKS } from './seed.js';

export type Res = { s: number; b?: any };
const ok = (b: any, s = 200): Res => ({ s, b });
const methodNotAllowed = (m: string): never => fail(405, 'method_not_allowed', `method ${m} is not supported on this path`);

function storeOf(type: string) {
  const st = CORE[type];
  if (!st) fail(400, 'unknown_object_type', `object type '${type}' is not supported`);
  return st;
}
function readable(u: User, type: string, key: string, skipAccess = false): any {
  const o = storeOf(type).get(key);
  if (!o || (!skipAccess && !canRead(u, o))) fail(404, 'not_found', `${type} '${key}' was not found`);
  return o;
}
function isObj(b: any): boolean {
  return b !== null && typeof b === 'object' && !Array.isArray(b);
}
function requireTitle(b: any, type: string) {
  if (typeof b.title !== 'string' || !b.title.trim()) fail(400, 'missing_required_field', `field 'title' is required for ${type}`);
}

// Fill system fields on a stored object.
export function finalize(type: string, key: string, obj: any, prev: any, u: User): any {
  const d = new Date();
  obj._key = key;
  obj.object_type = type;
  obj._version = VERSION;
  obj._user = 'nobody';
  obj.mod_source = 'REST';
  obj.mod_timestamp = isoOff(d);
  if (typeof obj.title === 'string') obj.identifying_name = obj.title.toLowerCase();
  if (type === 'entity') {
    obj.mod_time = modTime(d);
    obj.mod_by = u.name;
    obj.create_by = prev?.create_by ?? obj.create_by ?? u.name;
    obj.create_time = prev?.create_time ?? isoOff(d);
    obj.create_source = prev?.create_source ?? obj.create_source ?? 'REST';
    obj._type = 'entity';
    if (!Array.isArray(obj.services)) obj.services = [];
    for (const k of ['identifier', 'informational']) {
      if (!isObj(obj[k])) obj[k] = { fields: [], values: [] };
      if (!Array.isArray(obj[k].fields)) obj[k].fields = [];
      if (!Array.isArray(obj[k].values)) obj[k].values = [];
    }
    if (obj.retired === undefined) obj.retired = 0;
  }
  if (type === 'service') {
    if (!Array.isArray(obj.kpis)) obj.kpis = [];
    obj.kpis = obj.kpis.filter(isObj).map((k: any) => ({ ...k, _key: k._key || newKey(), service_id: key }));
    if (obj.enabled === undefined) obj.enabled = 1;
    if (!Array.isArray(obj.entity_rules)) obj.entity_rules = [];
  }
  if (type === 'custom_threshold_windows') {
    obj.status = String(obj.status ?? 'active').toLowerCase();
    if (!Array.isArray(obj.linked_services)) obj.linked_services = [];
    if (!Array.isArray(obj.sec_grp_list) || !obj.sec_grp_list.length) obj.sec_grp_list = [obj.sec_grp || GLOBAL];
  }
  if (!obj.sec_grp) obj.sec_grp = GLOBAL;
  return obj;
}

function createOrReplace(type: string, body: any, u: User): Res {
  if (!isObj(body)) fail(400, 'bad_payload', 'payload must be a JSON object following the schema of the object type');
  const st = storeOf(type);
  const key = body._key !== undefined && body._key !== null && body._key !== '' ? String(body._key) : null;
  const prev = key ? st.get(key) : null;
  if (prev && !canRead(u, prev)) fail(409, 'key_in_use', `key '${key}' is already in use`);
  requireTitle(body, type);
  const obj = { ...body };
  if (!prev && type === 'custom_threshold_windows') checkGroups(u, obj, true);
  else checkGroups(u, obj);
  const k = key || newKey();
  st.put(k, finalize(type, k, obj, prev, u));
  return ok({ _key: k }, prev ? 200 : 201);
}

function updateOne(type: string, key: string, body: any, partial: boolean, u: User, upsert = false): string {
  if (!isObj(body)) fail(400, 'bad_payload', 'payload must be a JSON object');
  const st = storeOf(type);
  let prev = st.get(key);
  if (prev && !canRead(u, prev)) {
    if (upsert) fail(409, 'key_in_use', `key '${key}' is already in use`);
    prev = null;
  }
  if (!prev && !upsert) fail(404, 'not_found', `${type} '${key}' was not found`);
  let obj: any;
  if (partial && prev) {
    obj = { ...prev, ...body };
    if (bug('partial-update-drops-kpis') && type === 'service' && body.kpis === undefined) obj.kpis = [];
  } else {
    if (!(bug('full-update-no-title') && type === 'service')) requireTitle(body, type);
    obj = { ...body };
    if (prev && type === 'entity') {
      obj.create_time = prev.create_time;
      obj.create_by = prev.create_by;
    }
  }
  delete obj._key;
  checkGroups(u, obj, type === 'custom_threshold_windows' && !obj.sec_grp);
  st.put(key, finalize(type, key, obj, prev, u));
  return key;
}

function deleteOne(type: string, o: any) {
  if (type === 'team' && o._key === GLOBAL) return false;
  storeOf(type).del(o._key);
  if (type === 'service') {
    for (const e of CORE.entity.list()) {
      if (Array.isArray(e.services) && e.services.some((s: any) => s && s._key === o._key)) {
        e.services = e.services.filter((s: any) => !(s && s._key === o._key));
        CORE.entity.put(e._key, e);
      }
    }
  }
  return true;
}

export function handleCore(method: string, segs: string[], q: URLSearchParams, body: any, u: User): Res {
  const [a, b, c] = segs;
  if (!a) fail(404, 'not_found', 'no resource named');
  if (segs.length === 1 && a === 'get_alias_list') {
    if (method !== 'GET') methodNotAllowed(method);
    const ident = new Set<string>(),
      info = new Set<string>();
    for (const e of CORE.entity.list().filter((e) => canRead(u, e))) {
      for (const f of e.identifier?.fields || []) ident.add(String(f));
      for (const f of e.informational?.fields || []) info.add(String(f));
    }
    return ok({ identifier: [...ident].sort(), informational: [...info].sort() });
  }
  if (segs.length === 1 && a === 'get_supported_object_types') {
    if (method !== 'GET') methodNotAllowed(method);
    const extra = bug('supported-types-missing-rule') ? ['entity_relationship'] : EXTRA_TYPES;
    return ok([...CORE_TYPES, ...extra]);
  }
  if (a === 'custom_threshold_windows' && segs.length >= 2) {
    const r = handleCtw(method, segs.slice(1), q, body, u);
    if (r) return r;
  }
  if (a === 'entity' && segs.length === 2 && ['count_retirable', 'retire', 'restore', 'retire_retirable'].includes(b))
    return handleRetire(method, b, body, u);
  const type = a;
  const st = storeOf(type);
  if (segs.length === 1) {
    if (method === 'GET')
      return ok(
        sharedList(
          st.list().filter((o) => canRead(u, o)),
          q,
          { offsetDroppedWithLimit: bug('list-offset-with-limit') },
        ),
      );
    if (method === 'POST') {
      needWrite(u);
      return createOrReplace(type, body, u);
    }
    if (method === 'DELETE') {
      needWrite(u);
      const rows = sharedList(
        st.list().filter((o) => canRead(u, o)),
        q,
      );
      for (const r of rows) {
        const o = st.get(r._key);
        if (o) deleteOne(type, o);
      }
      return { s: 204 };
    }
    return methodNotAllowed(method);
  }
  if (segs.length === 2 && b === 'count') {
    if (method !== 'GET') methodNotAllowed(method);
    let rows = st.list().filter((o) => canRead(u, o));
    if (!(bug('entity-count-ignores-filter') && type === 'entity')) rows = applyFilter(rows, q.get('filter'));
    return ok({ count: rows.length });
  }
  if (segs.length === 2 && b === 'bulk_update') {
    if (method !== 'POST') methodNotAllowed(method);
    needWrite(u);
    const partial = boolParam(q, 'is_partial_data', false);
    if (!Array.isArray(body) || !body.length) fail(400, 'bad_payload', 'payload must be a non-empty array of objects, each with _key');
    for (const it of body)
      if (!isObj(it) || typeof it._key !== 'string' || !it._key) fail(400, 'bad_payload', 'every object of a bulk update needs a _key');
    const items = bug('bulk-update-first-only') ? body.slice(0, 1) : body;
    const keys = items.map((it: any) => updateOne(type, it._key, it, partial, u, true));
    return ok({ _key: keys });
  }
  if (segs.length === 2) {
    if (method === 'GET') return ok(readable(u, type, b, bug('teamer-single-read-global')));
    if (method === 'POST') {
      needWrite(u);
      const partial = boolParam(q, 'is_partial_data', false);
      return ok({ _key: updateOne(type, b, body, partial, u) });
    }
    if (method === 'DELETE') {
      needWrite(u);
      const o = readable(u, type, b);
      if (!deleteOne(type, o)) fail(403, 'forbidden', 'the Global team cannot be deleted');
      return { s: 204 };
    }
    return methodNotAllowed(method);
  }
  if (segs.length === 3 && c === 'templatize') {
    if (method !== 'GET') methodNotAllowed(method);
    if (type !== 'service' && type !== 'kpi_base_search' && !bug('templatize-any-type'))
      fail(400, 'not_supported', `templatize is supported only for service and kpi_base_search, not ${type}`);
    return ok(templatize(type, readable(u, type, b)));
  }
  if (segs.length === 3 && c === 'base_service_template' && type === 'service') {
    if (method === 'GET') {
      const s = readable(u, 'service', b);
      return ok({ _key: s.base_service_template_id || '' });
    }
    if (method === 'POST') return linkTemplate(b, body, u);
    return methodNotAllowed(method);
  }
  return fail(404, 'not_found', `no route for ${segs.join('/')}`);
}

function templatize(type: string, o: any): any {
  const strip = (x: any) => {
    const y = { ...x };
    for (const k of ['_key', 'mod_timestamp', 'mod_source', '_user', 'identifying_name']) delete y[k];
    return y;
  };
  if (type !== 'service') return { ...strip(o), object_type: type, _version: VERSION };
  return {
    title: o.title,
    description: o.description ?? '',
    service_template_id: o.base_service_template_id || '',
    sec_grp: o.sec_grp || GLOBAL,
    object_type: 'base_service_template',
    _version: VERSION,
    enabled: Number(o.enabled) ? 1 : 0,
    services_depends_on: Array.isArray(o.services_depends_on) ? o.services_depends_on : [],
    tags: Array.isArray(o.tags) ? o.tags : [],
    serviceTemplateId: o.base_service_template_id ? [o.base_service_template_id] : [],
    entity_rules: Array.isArray(o.entity_rules) ? o.entity_rules : [],
    kpis: (o.kpis || []).map((k: any) => {
      const y = { ...k };
      delete y._key;
      return y;
    }),
  };
}

function linkTemplate(svcKey: string, body: any, u: User): Res {
  needWrite(u);
  if (!u.all && !bug('template-link-teamer-allowed'))
    fail(403, 'forbidden', 'linking a service to a template requires read access to the Global team');
  if (!isObj(body) || typeof body._key !== 'string' || !body._key) fail(400, 'bad_payload', 'payload must be {_key: <template key>}');
  const svc = readable(u, 'service', svcKey);
  const tpl = readable(u, 'base_service_template', body._key, true);
  const tplRules = Array.isArray(tpl.entity_rules) ? tpl.entity_rules : [];
  svc.entity_rules = bug('template-link-replaces-rules') ? [...tplRules] : [...(svc.entity_rules || []), ...tplRules];
  const old = svc.base_service_template_id;
  svc.base_service_template_id = tpl._key;
  svc.serviceTemplateId = tpl._key;
  CORE.service.put(svcKey, finalize('service', svcKey, svc, svc, u));
  if (old && old !== tpl._key) {
    const ot = CORE.base_service_template.get(old);
    if (ot) {
      ot.linked_services = (ot.linked_services || []).filter((k: string) => k !== svcKey);
      ot.total_linked_services = ot.linked_services.length;
      CORE.base_service_template.put(old, ot);
    }
  }
  const ls = Array.isArray(tpl.linked_services) ? tpl.linked_services : [];
  if (!ls.includes(svcKey)) ls.push(svcKey);
  tpl.linked_services = ls;
  tpl.total_linked_services = ls.length;
  CORE.base_service_template.put(tpl._key, tpl);
  return ok({ _key: svcKey });
}

// ---------- entity retirement ----------
function dataKeys(body: any): string[] {
  if (!isObj(body) || !Array.isArray(body.data) || !body.data.every((k: any) => typeof k === 'string'))
    fail(400, 'bad_payload', 'payload must be {data: [<entity key>, ...]}');
  return [...new Set<string>(body.data)];
}
function retire(e: any, u: User) {
  if (!bug('retire-keeps-links')) {
    RETIRED_LINKS.put(e._key, { services: e.services || [] });
    e.services = [];
  }
  e.retired = 1;
  delete e.retirable;
  CORE.entity.put(e._key, finalize('entity', e._key, e, e, u));
}
function handleRetire(method: string, op: string, body: any, u: User): Res {
  const visible = () => CORE.entity.list().filter((e) => canRead(u, e));
  if (op === 'count_retirable') {
    if (method !== 'GET') methodNotAllowed(method);
    const rows = visible().filter((e) => Number(e.retirable) === 1 && Number(e.retired) !== 1);
    return ok(
      rows.map((e) => ({
        object_type: 'entity',
        title: e.title,
        retirable: 1,
        sec_grp: e.sec_grp || GLOBAL,
        _key: e._key,
        permissions: { user: u.name, group: { read: true, write: u.write, delete: u.write }, read: true, write: u.write, delete: u.write },
      })),
    );
  }
  if (method !== 'POST') methodNotAllowed(method);
  needWrite(u);
  if (op === 'retire_retirable') {
    const rows = visible().filter((e) => Number(e.retirable) === 1 && Number(e.retired) !== 1);
    for (const e of rows) retire(e, u);
    return ok(rows.map((e) => e._key));
  }
  const keys = dataKeys(body);
  const out: string[] = [];
  if (op === 'retire') {
    for (const k of keys) {
      const e = CORE.entity.get(k);
      if (!e || !canRead(u, e) || Number(e.retired) === 1) continue;
      retire(e, u);
      out.push(k);
    }
    return ok(out);
  }
  const todo = bug('restore-first-only') ? keys.slice(0, 1) : keys;
  for (const k of todo) {
    const e = CORE.entity.get(k);
    if (!e || !canRead(u, e) || Number(e.retired) !== 1) continue;
    const links = RETIRED_LINKS.get(k);
    const svcs = links && Array.isArray(links.services) ? links.services : [];
    const have = new Set((e.services || []).map((s: any) => s?._key));
    e.services = [...(e.services || []), ...svcs.filter((s: any) => CORE.service.get(s._key) && !have.has(s._key))];
    e.retired = 0;
    RETIRED_LINKS.del(k);
    CORE.entity.put(k, finalize('entity', k, e, e, u));
    out.push(k);
  }
  return ok(out);
}

// ---------- custom threshold windows ----------
function windowKeys(body: any): { keys: string[]; links: any[] | null } {
  const keys: string[] = [];
  let links: any[] | null = null;
  const normLinks = (arr: any[]) =>
    arr.filter(isObj).map((s: any) => ({
      service_id: String(s._key ?? s.service_id ?? ''),
      kpi_ids: (Array.isArray(s.kpi_ids) ? s.kpi_ids : Array.isArray(s.linked_kpi_ids) ? s.linked_kpi_ids : []).map(String),
    }));
  if (typeof body === 'string')
    keys.push(
      ...body
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    );
  else if (Array.isArray(body)) {
    if (body.every((x) => typeof x === 'string')) keys.push(...body);
    else links = normLinks(body);
  } else if (isObj(body)) {
    for (const f of ['ctw_id', '_key', 'keys', 'ids', 'ctw_ids']) {
      const v = body[f];
      if (typeof v === 'string')
        keys.push(
          ...v
            .split(',')
            .map((s) => s.trim())
            .filter(Boolean),
        );
      else if (Array.isArray(v)) keys.push(...v.filter((x: any) => typeof x === 'string'));
    }
    const l = body.services ?? body.linked_services ?? body.service_kpis;
    if (Array.isArray(l)) links = normLinks(l);
  }
  return { keys, links };
}
function handleCtw(method: string, segs: string[], q: URLSearchParams, body: any, u: User): Res | null {
  if (segs.length === 1 && segs[0] === 'linked_kpis') {
    if (method !== 'GET') methodNotAllowed(method);
    const id = q.get('ctw_id') || q.get('custom_threshold_window_id');
    if (!id) fail(400, 'missing_parameter', "parameter 'ctw_id' is required");
    const w = readable(u, 'custom_threshold_windows', id!);
    const all: any[] = [];
    for (const ls of w.linked_services || []) {
      const svc = CORE.service.get(ls.service_id);
      for (const kid of ls.linked_kpi_ids || []) {
        const kpi = (svc?.kpis || []).find((k: any) => k._key === kid);
        all.push({ kpi_key: kid, kpi_title: kpi?.title ?? '', service_title: svc?.title ?? '', service_key: ls.service_id });
      }
    }
    const limit = intParam(q, 'limit') ?? 0;
    const rows = limit > 0 ? all.slice(0, limit) : bug('linked-kpis-limit-zero') && q.get('limit') !== null ? [] : all;
    return ok({ linked_kpis: rows, count: all.length });
  }
  if (segs.length !== 2 || !['associate_service_kpi', 'disconnect_kpis', 'stop'].includes(segs[1])) return null;
  if (method !== 'POST') methodNotAllowed(method);
  needWrite(u);
  const [id, op] = segs;
  const st = CORE.custom_threshold_windows;
  const w = readable(u, 'custom_threshold_windows', id);
  if (op === 'stop') {
    if (w.status !== 'active') fail(409, 'invalid_transition', `window '${id}' is ${w.status}; only an active window can be stopped`);
    w.status = 'stopped';
    w.last_stopped_time = Math.floor(Date.now() / 1000);
    const saved = finalize('custom_threshold_windows', id, w, w, u);
    st.put(id, saved);
    const out = { ...saved };
    if (bug('stop-status-capitalized')) out.status = 'Stopped';
    return ok(out);
  }
  if (op === 'disconnect_kpis') {
    const prev = Array.isArray(w.linked_services) ? w.linked_services : [];
    w.linked_services = [];
    st.put(id, finalize('custom_threshold_windows', id, w, w, u));
    return ok({ service_kpis_dict: prev.map((l: any) => ({ service_id: l.service_id, linked_kpi_ids: l.linked_kpi_ids || [] })) });
  }
  // associate_service_kpi
  const { keys, links } = windowKeys(body);
  const targets = [id, ...(q.get('ctw_id') || '').split(','), ...keys].map((s) => s.trim()).filter(Boolean);
  const windows = [...new Set(targets)].map((k) => readable(u, 'custom_threshold_windows', k));
  const linked: any[] = [];
  if (links) {
    for (const l of links) {
      const svc = CORE.service.get(l.service_id);
      if (!svc || !canRead(u, svc)) continue;
      const valid = l.kpi_ids.filter((k: string) => (svc.kpis || []).some((x: any) => x._key === k));
      if (valid.length) linked.push({ _key: svc._key, kpi_ids: [...new Set(valid)] });
    }
    for (const win of windows) {
      const ls: any[] = Array.isArray(win.linked_services) ? win.linked_services : [];
      for (const l of linked) {
        const cur = ls.find((x) => x.service_id === l._key);
        if (cur) cur.linked_kpi_ids = [...new Set([...(cur.linked_kpi_ids || []), ...l.kpi_ids])];
        else ls.push({ service_id: l._key, linked_kpi_ids: [...l.kpi_ids] });
      }
      win.linked_services = ls;
      st.put(win._key, finalize('custom_threshold_windows', win._key, win, win, u));
    }
    return ok({ services: linked });
  }
  for (const l of w.linked_services || []) linked.push({ _key: l.service_id, kpi_ids: l.linked_kpi_ids || [] });
  return ok({ services: linked });
}
