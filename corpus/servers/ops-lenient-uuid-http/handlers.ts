import {
  type Doc,
  HttpError,
  isDoc,
  clone,
  newKey,
  epochNow,
  truthy,
  splitIds,
  parseIntParam,
  isDescending,
  sortDocs,
  page,
  parseFields,
  projectFields,
  applyFilter,
  listQuery,
} from './util.js';
import { GLOBAL_TEAM, type User, coll, creators, retiredLinks, library, iconCategories, type LibraryPack } from './store.js';
import { CORE_TYPES, EXTRA_SUPPORTED, canRead, createObject, stamp } from './objects.js';
import { type Ctx, type Reply, ok, requireWrite, bodyDoc, handleGeneric, type TypeOpts, getOne, createDoc, updateDoc } from './generic.js';

const notAllowed = (m: string) => new HttpError(405, `method ${m} not allowed`);
const notFound = (what = 'resource') => new HttpError(404, `${what} not found`);

function ctwPresent(d: Doc, user: User): Doc {
  if (typeof d.status === 'string') d.status = d.status.toLowerCase();
  if (d.can_view === undefined) d.can_view = true;
  if (d.can_link === undefined) d.can_link = user.canWrite;
  if (d.can_edit === undefined) d.can_edit = user.canWrite;
  if (d.can_transition === undefined) d.can_transition = user.canWrite;
  return d;
}

function coreOpts(type: string): TypeOpts {
  return {
    ns: 'core',
    type,
    scoped: true,
    required: type === 'service' ? ['title'] : [],
    present: type === 'custom_threshold_windows' ? ctwPresent : undefined,
  };
}

// ---------------------------------------------------------------- core interface

export function handleCore(ctx: Ctx, rest: string[]): Reply {
  const { method } = ctx;
  if (rest.length === 0) throw notFound('interface endpoint');
  const head = rest[0];
  if (head === 'get_alias_list' && rest.length === 1) {
    if (method !== 'GET') throw notAllowed(method);
    const identifier = new Set<string>();
    const informational = new Set<string>();
    for (const e of coll('core:entity').all()) {
      if (!canRead(ctx.user, e, 'entity')) continue;
      for (const [src, dst] of [
        [e.identifier, identifier],
        [e.informational, informational],
      ] as [unknown, Set<string>][]) {
        if (isDoc(src) && Array.isArray(src.fields)) for (const f of src.fields) if (typeof f === 'string') dst.add(f);
      }
    }
    return ok({ identifier: [...identifier], informational: [...informational] });
  }
  if (head === 'get_supported_object_types' && rest.length === 1) {
    if (method !== 'GET') throw notAllowed(method);
    return ok([...CORE_TYPES, ...EXTRA_SUPPORTED]);
  }
  if (head === 'content_pack') return handleLibrary(ctx, rest.slice(1));
  if (head === 'content_pack_authorship') return handleAuthorship(ctx, rest.slice(1));
  if (!CORE_TYPES.includes(head) && !EXTRA_SUPPORTED.includes(head)) throw notFound(`object type ${head}`);
  const type = head;
  const sub = rest.slice(1);
  if (type === 'entity' && sub.length === 1 && ['count_retirable', 'retire', 'restore', 'retire_retirable'].includes(sub[0])) {
    return handleRetire(ctx, sub[0]);
  }
  if (type === 'custom_threshold_windows') {
    if (sub.length === 1 && sub[0] === 'linked_kpis') return linkedKpis(ctx);
    if (sub.length === 2 && ['associate_service_kpi', 'disconnect_kpis', 'stop'].includes(sub[1])) return ctwAction(ctx, sub[0], sub[1]);
  }
  const o = coreOpts(type);
  const r = handleGeneric(o, ctx, sub);
  if (r) return r;
  if (sub.length === 2 && sub[1] === 'templatize') {
    if (method !== 'GET') throw notAllowed(method);
    if (type !== 'service' && type !== 'kpi_base_search')
      throw new HttpError(400, 'templatize is supported only for service and kpi_base_search');
    return ok(templatize(type, getOne(o, ctx, sub[0])));
  }
  if (sub.length === 2 && sub[1] === 'base_service_template' && type === 'service') {
    const svc = getOne(o, ctx, sub[0]);
    if (method === 'GET') return ok({ _key: typeof svc.base_service_template_id === 'string' ? svc.base_service_template_id : '' });
    if (method === 'POST' || method === 'PUT') {
      requireWrite(ctx);
      if (!ctx.user.readGlobal) throw new HttpError(403, 'linking a service to a template requires read access to the Global team');
      const body = bodyDoc(ctx);
      const tk = typeof body._key === 'string' ? body._key : body._key !== undefined && body._key !== null ? String(body._key) : '';
      if (tk === '') throw new HttpError(400, 'payload must hold the _key of the service template');
      const tmpl = coll('core:base_service_template').get(tk);
      if (!tmpl) throw notFound(`service template ${tk}`);
      const svcRules = Array.isArray(svc.entity_rules) ? svc.entity_rules : [];
      const tRules = Array.isArray(tmpl.entity_rules) ? clone(tmpl.entity_rules) : [];
      const updated: Doc = { ...svc, base_service_template_id: tk, entity_rules: [...svcRules, ...tRules] };
      stamp('core', 'service', updated, ctx.user, false);
      coll('core:service').set(String(svc._key), updated);
      const linked = Array.isArray(tmpl.linked_services) ? [...tmpl.linked_services] : [];
      if (!linked.includes(svc._key)) linked.push(svc._key);
      tmpl.linked_services = linked;
      return ok({ _key: svc._key });
    }
    throw notAllowed(method);
  }
  throw notFound('endpoint');
}

function templatize(type: string, d: Doc): Doc {
  const c = clone(d);
  if (type === 'kpi_base_search') {
    delete c._key;
    return c;
  }
  const kpis = Array.isArray(c.kpis) ? c.kpis : [];
  return {
    title: c.title ?? '',
    description: c.description ?? '',
    service_template_id: typeof c.base_service_template_id === 'string' ? c.base_service_template_id : '',
    sec_grp: c.sec_grp ?? GLOBAL_TEAM,
    object_type: 'base_service_template',
    _version: c._version,
    enabled: truthy(c.enabled ?? 1) ? 1 : 0,
    services_depends_on: Array.isArray(c.services_depends_on) ? c.services_depends_on : [],
    tags: Array.isArray(c.tags) ? c.tags : [],
    serviceTemplateId: [],
    entity_rules: Array.isArray(c.entity_rules) ? c.entity_rules : [],
    kpis: kpis.map((k) => (isDoc(k) ? { ...k, service_id: '' } : k)),
  };
}

// ---------------------------------------------------------------- entity retirement

function isRetirable(e: Doc): boolean {
  return truthy(e.retirable) && !truthy(e.retired);
}

function retireEntity(e: Doc, user: User): void {
  retiredLinks.set(String(e._key), e.services ?? []);
  e.retired = 1;
  e.services = [];
  stamp('core', 'entity', e, user, false);
}

function handleRetire(ctx: Ctx, action: string): Reply {
  const { method, user } = ctx;
  const ents = coll('core:entity');
  if (action === 'count_retirable') {
    if (method !== 'GET') throw notAllowed(method);
    const out = ents
      .all()
      .filter((e) => canRead(user, e, 'entity') && isRetirable(e))
      .map((e) => ({
        object_type: 'entity',
        title: e.title,
        retirable: e.retirable,
        sec_grp: e.sec_grp,
        _key: e._key,
        permissions: {
          user: user.name,
          group: { read: true, write: user.canWrite, delete: user.canWrite },
          read: true,
          write: user.canWrite,
          delete: user.canWrite,
        },
      }));
    return ok(out);
  }
  if (method !== 'POST' && method !== 'PUT') throw notAllowed(method);
  requireWrite(ctx);
  if (action === 'retire_retirable') {
    const keys: string[] = [];
    for (const e of ents.all()) {
      if (canRead(user, e, 'entity') && isRetirable(e)) {
        retireEntity(e, user);
        keys.push(String(e._key));
      }
    }
    return ok(keys);
  }
  const body = bodyDoc(ctx);
  const ids = splitIds(body.data ?? body.keys ?? body._keys);
  const keys: string[] = [];
  for (const k of ids) {
    const e = ents.get(k);
    if (!e || !canRead(user, e, 'entity')) continue;
    if (action === 'retire') {
      if (truthy(e.retired)) {
        keys.push(k);
        continue;
      }
      retireEntity(e, user);
      keys.push(k);
    } else {
      if (truthy(e.retired)) {
        e.retired = 0;
        const links = retiredLinks.get(k);
        if (links !== undefined) e.services = links;
        retiredLinks.delete(k);
        if (truthy(e.retirable)) e.retirable = 0;
        stamp('core', 'entity', e, user, false);
        keys.push(k);
      }
    }
  }
  return ok(keys);
}

// ---------------------------------------------------------------- custom threshold windows

function ctwGet(ctx: Ctx, id: string): Doc {
  return getOne(coreOpts('custom_threshold_windows'), ctx, id);
}

function kpiInfo(serviceKey: string, kpiKey: string): { kpi_title: string; service_title: string } {
  const svc = coll('core:service').get(serviceKey);
  let kt = '';
  if (svc && Array.isArray(svc.kpis)) {
    const k = svc.kpis.find((x) => isDoc(x) && x._key === kpiKey);
    if (isDoc(k) && typeof k.title === 'string') kt = k.title;
  }
  return { kpi_title: kt, service_title: svc && typeof svc.title === 'string' ? svc.title : '' };
}

function linkedList(w: Doc): { service_id: string; linked_kpi_ids: string[] }[] {
  const out: { service_id: string; linked_kpi_ids: string[] }[] = [];
  if (!Array.isArray(w.linked_services)) return out;
  for (const ls of w.linked_services) {
    if (!isDoc(ls)) continue;
    const sid = String(ls.service_id ?? ls._key ?? '');
    const kids = splitIds(ls.linked_kpi_ids ?? ls.kpi_ids);
    out.push({ service_id: sid, linked_kpi_ids: kids });
  }
  return out;
}

function linkedKpis(ctx: Ctx): Reply {
  if (ctx.method !== 'GET') throw notAllowed(ctx.method);
  const id = ctx.q.get('ctw_id') ?? ctx.q.get('custom_threshold_window_id');
  if (!id) throw new HttpError(400, 'ctw_id (or custom_threshold_window_id) is required');
  const w = ctwGet(ctx, id);
  const all: Doc[] = [];
  for (const ls of linkedList(w)) {
    for (const kk of ls.linked_kpi_ids) {
      const info = kpiInfo(ls.service_id, kk);
      all.push({ kpi_key: kk, kpi_title: info.kpi_title, service_title: info.service_title, service_key: ls.service_id });
    }
  }
  const limit = parseIntParam(ctx.q.get('limit') ?? ctx.q.get('count'));
  const offset = parseIntParam(ctx.q.get('offset') ?? ctx.q.get('skip'));
  return ok({ linked_kpis: page(all, offset, limit), count: all.length });
}

function parseServiceLinks(body: unknown): { _key: string; kpi_ids: string[] }[] {
  let src: unknown = body;
  if (isDoc(src)) src = src.services ?? src.linked_services ?? src.service_kpis_dict ?? src.data ?? [];
  if (typeof src === 'string') {
    try {
      src = JSON.parse(src);
    } catch {
      src = [];
    }
  }
  if (isDoc(src)) {
    // {service_key: [kpi ids]}
    return Object.entries(src).map(([k, v]) => ({ _key: k, kpi_ids: splitIds(v) }));
  }
  if (!Array.isArray(src)) return [];
  const out: { _key: string; kpi_ids: string[] }[] = [];
  for (const x of src) {
    if (!isDoc(x)) continue;
    const k = x._key ?? x.service_id ?? x.service_key;
    if (k === undefined || k === null) continue;
    out.push({ _key: String(k), kpi_ids: splitIds(x.kpi_ids ?? x.linked_kpi_ids ?? x.kpis) });
  }
  return out;
}

function ctwAction(ctx: Ctx, id: string, action: string): Reply {
  const { method, user } = ctx;
  if (method !== 'POST' && method !== 'PUT') throw notAllowed(method);
  requireWrite(ctx);
  const w = ctwGet(ctx, id);
  if (action === 'stop') {
    w.status = 'stopped';
    w.last_stopped_time = epochNow();
    stamp('core', 'custom_threshold_windows', w, user, false);
    return ok(ctwPresent(clone(w), user));
  }
  if (action === 'disconnect_kpis') {
    const removed = linkedList(w);
    w.linked_services = [];
    stamp('core', 'custom_threshold_windows', w, user, false);
    return ok({ service_kpis_dict: removed });
  }
  // associate_service_kpi
  const links = parseServiceLinks(ctx.hasBody ? ctx.body : undefined);
  const current = linkedList(w);
  for (const l of links) {
    const ex = current.find((c) => c.service_id === l._key);
    if (ex) {
      for (const k of l.kpi_ids) if (!ex.linked_kpi_ids.includes(k)) ex.linked_kpi_ids.push(k);
    } else current.push({ service_id: l._key, linked_kpi_ids: [...l.kpi_ids] });
  }
  w.linked_services = current;
  stamp('core', 'custom_threshold_windows', w, user, false);
  return ok({ services: links });
}

// ---------------------------------------------------------------- content pack library

const GROUP_TARGET: Record<string, [string, string]> = {
  entity_types: ['core', 'entity_type'],
  glass_tables: ['core', 'glass_table'],
  service_analyzers: ['core', 'home_view'],
  services: ['core', 'service'],
  kpi_base_searches: ['core', 'kpi_base_search'],
  service_templates: ['core', 'base_service_template'],
  deep_dives: ['core', 'deep_dive'],
  kpi_threshold_templates: ['core', 'kpi_threshold_template'],
  teams: ['core', 'team'],
  event_management_states: ['core', 'event_management_state'],
  correlation_searches: ['em', 'correlation_search'],
  notable_aggregation_policies: ['em', 'notable_aggregation_policy'],
};

function findPack(name: string, version: string): LibraryPack {
  const p = library.get(name);
  if (!p || String(p.pack.version) !== version) throw notFound(`content pack ${name} version ${version}`);
  return p;
}

function isInstalled(group: string, id: string): boolean {
  const t = GROUP_TARGET[group];
  return t ? coll(`${t[0]}:${t[1]}`).has(id) : false;
}

function toList(v: unknown): string[] {
  if (typeof v === 'string') {
    try {
      const p: unknown = JSON.parse(v);
      if (Array.isArray(p)) return p.map(String);
    } catch {
      /* ignore */
    }
    return splitIds(v);
  }
  return Array.isArray(v) ? v.map(String) : [];
}

function handleLibrary(ctx: Ctx, rest: string[]): Reply {
  const { method, q } = ctx;
  if (rest.length === 0) {
    if (method !== 'GET') throw notAllowed(method);
    let packs = [...library.values()].map((p) => clone(p.pack));
    packs = sortDocs(packs, q.get('sort_key'), isDescending(q.get('sort_dir')));
    packs = page(packs, parseIntParam(q.get('offset')), parseIntParam(q.get('count') ?? q.get('limit')));
    return ok({ success: packs, failure: [] });
  }
  if (rest.length === 1 && rest[0] === 'refresh') {
    if (method !== 'POST' && method !== 'PUT') throw notAllowed(method);
    requireWrite(ctx);
    const body = bodyDoc(ctx);
    const added = toList(body.apps_added ?? ctx.q.get('apps_added'));
    const removed = toList(body.apps_removed ?? ctx.q.get('apps_removed'));
    const res = {
      success: { apps_added: [] as string[], apps_removed: [] as string[] },
      failed: { apps_added: [] as string[], apps_removed: [] as string[] },
    };
    for (const a of added) {
      if (!library.has(a)) {
        library.set(a, {
          pack: {
            id: a,
            title: a,
            description: '',
            overview: '',
            author: '',
            version: '1.0.0',
            icon: '',
            help_links: [],
            installed_versions: [],
            screenshots: [],
            main_screenshot: { path: '', thumb: '' },
          },
          contents: {},
          savedSearches: [],
        });
      }
      res.success.apps_added.push(a);
    }
    for (const r of removed) {
      if (library.delete(r)) res.success.apps_removed.push(r);
      else res.failed.apps_removed.push(r);
    }
    return ok(res);
  }
  if (rest.length === 2) {
    if (method !== 'GET') throw notAllowed(method);
    return ok(clone(findPack(rest[0], rest[1]).pack));
  }
  if (rest.length === 3 && rest[2] === 'preview') {
    if (method !== 'GET') throw notAllowed(method);
    const p = findPack(rest[0], rest[1]);
    const out: Doc = {};
    for (const [group, items] of Object.entries(p.contents)) {
      out[group] = items.map((it) => ({
        id: it.id,
        title: it.title,
        description: it.description,
        entitlement_status: true,
        installed: isInstalled(group, it.id),
        has_dependency: false,
      }));
    }
    out.saved_searches = { has_saved_searches: p.savedSearches.length > 0, has_consistent_status: true };
    return ok(out);
  }
  if (rest.length === 3 && rest[2] === 'install') {
    if (method !== 'POST' && method !== 'PUT') throw notAllowed(method);
    requireWrite(ctx);
    const p = findPack(rest[0], rest[1]);
    return ok(install(ctx, p));
  }
  throw notFound('endpoint');
}

function install(ctx: Ctx, p: LibraryPack): Doc {
  const body = bodyDoc(ctx);
  let content: unknown = body.content;
  if (typeof content === 'string') {
    try {
      content = JSON.parse(content);
    } catch {
      content = splitIds(content);
    }
  }
  let selected: Set<string> | undefined;
  let wantSaved = true;
  if (isDoc(content)) {
    const s = new Set<string>();
    for (const [g, v] of Object.entries(content)) {
      if (g === 'saved_searches') continue;
      for (const id of splitIds(v)) s.add(id);
    }
    if (s.size > 0 || Object.keys(content).length > 0) {
      selected = s;
      wantSaved = 'saved_searches' in content && (content.saved_searches === true || splitIds(content.saved_searches).length > 0);
    }
  } else if (Array.isArray(content) && content.length > 0) {
    selected = new Set(splitIds(content));
    wantSaved = false;
  }
  if (selected && selected.size === 0 && !wantSaved) selected = undefined; // empty selection → everything
  if (!selected) wantSaved = true;
  const resolution = typeof body.resolution === 'string' ? body.resolution.toLowerCase() : '';
  const enabled = truthy(body.enabled);
  const prefix =
    typeof body.prefix === 'string' ? body.prefix : body.prefix === undefined || body.prefix === null ? '' : String(body.prefix);
  const backfill = body.backfill === undefined ? true : truthy(body.backfill);
  const success: Doc[] = [];
  const failure: Doc[] = [];
  for (const [group, items] of Object.entries(p.contents)) {
    const target = GROUP_TARGET[group] ?? ['core', group];
    const [ns, type] = target;
    const done: Doc[] = [];
    for (const it of items) {
      if (selected && !selected.has(it.id)) continue;
      const c = coll(`${ns}:${type}`);
      if (c.has(it.id) && resolution !== 'overwrite') {
        if (resolution === 'skip') continue;
        failure.push({ content_type: group, id: it.id, title: it.title, type: 'OBJECT_ALREADY_EXISTS' });
        continue;
      }
      const obj: Doc = {
        ...clone(it.object),
        title: prefix + it.title,
        description: it.description,
        source_content_pack: p.pack.id,
        source_content_pack_version: p.pack.version,
      };
      if (type === 'service') {
        obj.enabled = enabled ? 1 : 0;
        if (Array.isArray(obj.kpis)) obj.kpis = obj.kpis.map((k) => (isDoc(k) ? { ...k, backfill_enabled: backfill } : k));
        obj.backfill_enabled = backfill;
      }
      if (type === 'correlation_search' || type === 'notable_aggregation_policy') {
        obj.disabled = enabled ? 0 : 1;
      }
      c.delete(it.id);
      createObject(ns, type, obj, ctx.user, it.id);
      done.push({ id: it.id, title: obj.title });
    }
    if (done.length) success.push({ [group]: done });
  }
  const savedOk = wantSaved ? [...p.savedSearches] : [];
  const installedVersions = Array.isArray(p.pack.installed_versions) ? p.pack.installed_versions.map(String) : [];
  if (!installedVersions.includes(String(p.pack.version))) installedVersions.push(String(p.pack.version));
  p.pack.installed_versions = installedVersions;
  return {
    success,
    failure,
    saved_searches: { action_performed: enabled ? 'enable' : 'disable', success: savedOk, failure: [] },
  };
}

// ---------------------------------------------------------------- content pack authoring

const CPA: TypeOpts = { ns: 'cpa', type: 'content_pack', scoped: false };
const PLATFORM_KINDS = ['dashboards', 'lookups', 'macros', 'props', 'savedsearches', 'transforms'];

function opsIds(v: unknown): string[] {
  if (Array.isArray(v)) {
    return v.flatMap((x) => {
      if (isDoc(x)) {
        if (x.id !== undefined) return [String(x.id)];
        if (x._key !== undefined) return [String(x._key)];
        return Object.keys(x);
      }
      return [String(x)];
    });
  }
  if (isDoc(v)) return Object.keys(v);
  if (typeof v === 'string') return splitIds(v);
  return [];
}

function opsTitle(type: string, id: string): string {
  const ns = type === 'correlation_search' || type === 'notable_aggregation_policy' ? 'em' : 'core';
  const d = coll(`${ns}:${type}`).get(id);
  return d && typeof d.title === 'string' ? d.title : id;
}

function cpaList(d: Doc, withExtras: boolean): Doc {
  const c = clone(d);
  const counts: Doc = {};
  if (isDoc(c.ops_objects)) {
    const oo: Doc = {};
    for (const [t, v] of Object.entries(c.ops_objects)) {
      oo[t] = opsIds(v);
      counts[t] = (oo[t] as string[]).length;
    }
    c.ops_objects = oo;
  }
  if (withExtras) {
    c.icon = isDoc(c.metadata) && c.metadata.icon !== undefined ? c.metadata.icon : null;
    c.ops_objects_counts = counts;
    const pc: Doc = {};
    const po = isDoc(c.platform_objects) ? c.platform_objects : {};
    for (const k of new Set([...PLATFORM_KINDS, ...Object.keys(po)])) pc[k] = Array.isArray(po[k]) ? (po[k] as unknown[]).length : 0;
    c.platform_objects_counts = pc;
  }
  return c;
}

function cpaSingle(d: Doc): Doc {
  const c = clone(d);
  if (isDoc(c.ops_objects)) {
    const oo: Doc = {};
    for (const [t, v] of Object.entries(c.ops_objects)) {
      const m: Doc = {};
      if (isDoc(v) && !Array.isArray(v)) {
        for (const [id, title] of Object.entries(v)) m[id] = title;
      } else {
        for (const id of opsIds(v)) m[id] = opsTitle(t, id);
      }
      oo[t] = m;
    }
    c.ops_objects = oo;
  }
  return c;
}

function handleAuthorship(ctx: Ctx, rest: string[]): Reply {
  const { method, q } = ctx;
  if (rest.length === 0 || rest[0] !== 'content_pack') throw notFound('endpoint');
  const sub = rest.slice(1);
  const c = coll('cpa:content_pack');
  if (sub.length === 0) {
    if (method === 'GET') {
      let items = c.all();
      const status = q.get('status');
      if (status) items = items.filter((d) => String(d.status ?? '').toLowerCase() === status.toLowerCase());
      const search = q.get('search');
      if (search)
        items = items.filter((d) =>
          String(d.title ?? '')
            .toLowerCase()
            .includes(search.toLowerCase()),
        );
      items = listQuery(items, {
        filter: q.get('filter'),
        sortKey: q.get('sort_key'),
        desc: isDescending(q.get('sort_dir')),
        offset: parseIntParam(q.get('offset')),
        limit: parseIntParam(q.get('count') ?? q.get('limit')),
      });
      const fields = parseFields(q);
      return ok(items.map((d) => projectFields(cpaList(d, !fields), fields)));
    }
    if (method === 'POST' || method === 'PUT') {
      requireWrite(ctx);
      const body = bodyDoc(ctx);
      const k = typeof body._key === 'string' ? body._key : undefined;
      const ex = k ? c.get(k) : undefined;
      if (ex) {
        updateDoc(CPA, ex, body, truthy(q.get('is_partial_data')), ctx.user);
        return ok({ _key: k });
      }
      const d = createDoc(CPA, body, ctx.user);
      return ok({ _key: d._key });
    }
    throw notAllowed(method);
  }
  if (sub.length === 1 && sub[0] === 'count') {
    if (method !== 'GET') throw notAllowed(method);
    return ok({ count: applyFilter(c.all(), q.get('filter')).length });
  }
  if (sub.length === 1) {
    const key = sub[0];
    const d = c.get(key);
    if (!d) throw notFound(`content pack ${key}`);
    if (method === 'GET') return ok(cpaSingle(d));
    if (method === 'POST' || method === 'PUT') {
      requireWrite(ctx);
      updateDoc(CPA, d, bodyDoc(ctx), truthy(q.get('is_partial_data')), ctx.user);
      return ok({ _key: key });
    }
    if (method === 'DELETE') {
      requireWrite(ctx);
      c.delete(key);
      creators.delete(key);
      return ok(cpaSingle(d));
    }
    throw notAllowed(method);
  }
  throw notFound('endpoint');
}

// ---------------------------------------------------------------- event management

function ticketLinks() {
  return coll('em:external_ticket');
}

function addTicket(eventId: string, system: string, ticketId: string, url: string, user: User): string {
  const c = ticketLinks();
  let link = c.all().find((l) => l.event_id === eventId && l.ticket_system === system);
  if (!link) {
    link = createObject('em', 'external_ticket', { ticket_system: system, _user: user.name, event_id: eventId, tickets: [] }, user);
  }
  const tickets = Array.isArray(link.tickets) ? link.tickets.filter((t) => !(isDoc(t) && t.ticket_id === ticketId)) : [];
  tickets.push({ ticket_system: system, ticket_url: url, ticket_id: ticketId });
  link.tickets = tickets;
  stamp('em', 'external_ticket', link, user, false);
  return String(link._key);
}

function str(v: unknown): string {
  if (v === undefined || v === null) return '';
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return JSON.stringify(v);
}

export function handleEm(ctx: Ctx, rest: string[]): Reply {
  const { method, q, user } = ctx;
  if (rest.length === 0) throw notFound('interface endpoint');
  const head = rest[0];
  if (head === 'notable_event_actions') {
    const acts = coll('em_actions');
    if (rest.length === 1) {
      if (method !== 'GET') throw notAllowed(method);
      return ok(acts.all().map((a) => clone(a._summary)));
    }
    if (rest.length === 2) {
      const a = acts.get(rest[1]);
      if (!a) throw notFound(`episode action ${rest[1]}`);
      if (method === 'GET') return ok(clone(a.config));
      if (method === 'POST' || method === 'PUT') {
        requireWrite(ctx);
        const body = bodyDoc(ctx);
        const ids = splitIds(body.ids);
        const params = isDoc(body.params) ? body.params : {};
        if (rest[1] === 'ops_event_action_link_ticket' && params.ticket_system !== undefined && params.ticket_id !== undefined) {
          for (const id of ids) addTicket(id, str(params.ticket_system), str(params.ticket_id), str(params.ticket_url), user);
        }
        const sid = `scheduler__${user.name}__SA-ITOA__RMD5${newKey().replace(/-/g, '').slice(0, 16)}_at_${epochNow()}`;
        return ok([{ action_name: rest[1], ids, sid }]);
      }
      throw notAllowed(method);
    }
    throw notFound('endpoint');
  }
  if (head === 'ticketing') {
    const body = method === 'GET' || method === 'DELETE' ? {} : bodyDoc(ctx);
    const field = (name: string): unknown => (body[name] !== undefined ? body[name] : (q.get(name) ?? undefined));
    if (rest.length === 1) {
      if (method !== 'POST' && method !== 'PUT') throw notAllowed(method);
      requireWrite(ctx);
      const missing = ['id', 'ticket_system', 'ticket_id', 'ticket_url'].filter((f) => {
        const v = field(f);
        return v === undefined || v === null || v === '';
      });
      if (missing.length) throw new HttpError(400, `missing required field(s): ${missing.join(', ')}`);
      const ids = splitIds(field('id'));
      const keys = ids.map((id) => addTicket(id, str(field('ticket_system')), str(field('ticket_id')), str(field('ticket_url')), user));
      return ok({ _key: keys.length === 1 ? keys[0] : keys });
    }
    if (rest.length === 2) {
      const ev = rest[1];
      if (method === 'GET') {
        const events = new Set([ev, ...splitIds(q.get('ids'))]);
        const sys = q.get('ticket_system');
        const tid = q.get('ticket_id');
        const out = ticketLinks()
          .all()
          .filter((l) => events.has(String(l.event_id)) && (!sys || l.ticket_system === sys))
          .filter((l) => !tid || (Array.isArray(l.tickets) && l.tickets.some((t) => isDoc(t) && String(t.ticket_id) === tid)));
        return ok(out.map((l) => clone(l)));
      }
      if (method === 'POST' || method === 'PUT') {
        requireWrite(ctx);
        const events = [ev, ...splitIds(field('ids')).filter((x) => x !== ev)];
        const keys = events.map((e) => addTicket(e, str(field('ticket_system')), str(field('ticket_id')), str(field('ticket_url')), user));
        return ok(keys);
      }
      throw notAllowed(method);
    }
    if (rest.length === 4) {
      if (method !== 'DELETE') throw notAllowed(method);
      requireWrite(ctx);
      const [, ev, sys, tid] = rest;
      const link = ticketLinks()
        .all()
        .find(
          (l) =>
            String(l.event_id) === ev &&
            String(l.ticket_system) === sys &&
            Array.isArray(l.tickets) &&
            l.tickets.some((t) => isDoc(t) && String(t.ticket_id) === tid),
        );
      if (!link || !Array.isArray(link.tickets)) throw notFound(`ticket ${tid} of ${sys} linked to episode ${ev}`);
      link.tickets = link.tickets.filter((t) => !(isDoc(t) && String(t.ticket_id) === tid));
      if ((link.tickets as unknown[]).length === 0) ticketLinks().delete(String(link._key));
      return ok(undefined);
    }
    throw notFound('endpoint');
  }
  const o: TypeOpts = { ns: 'em', type: head, scoped: false, em: true, appendOnly: head === 'notable_event_comment' };
  const r = handleGeneric(o, ctx, rest.slice(1));
  if (r) return r;
  throw notFound('endpoint');
}

// ---------------------------------------------------------------- maintenance and backup

export function handleMaintenance(ctx: Ctx, rest: string[]): Reply {
  if (rest.length === 0) throw notFound('interface endpoint');
  if (rest[0] === 'get_supported_object_types' && rest.length === 1) {
    if (ctx.method !== 'GET') throw notAllowed(ctx.method);
    return ok(['maintenance_calendar']);
  }
  if (rest[0] !== 'maintenance_calendar') throw notFound(`object type ${rest[0]}`);
  const r = handleGeneric({ ns: 'mw', type: 'maintenance_calendar', scoped: true }, ctx, rest.slice(1));
  if (r) return r;
  throw notFound('endpoint');
}

export function handleBackup(ctx: Ctx, rest: string[]): Reply {
  if (rest.length === 0) throw notFound('interface endpoint');
  if (rest[0] === 'get_supported_object_types' && rest.length === 1) {
    if (ctx.method !== 'GET') throw notAllowed(ctx.method);
    return ok(['backup_restore']);
  }
  if (rest[0] !== 'backup_restore') throw notFound(`object type ${rest[0]}`);
  const r = handleGeneric({ ns: 'br', type: 'backup_restore', scoped: true }, ctx, rest.slice(1));
  if (r) return r;
  throw notFound('endpoint');
}

// ---------------------------------------------------------------- icons

function categoryList(): Doc[] {
  const names = new Map<string, boolean>();
  for (const c of iconCategories.values()) if (c.immutable) names.set(c.name, true);
  for (const i of coll('icons').all()) {
    if (typeof i.category === 'string' && !names.has(i.category)) names.set(i.category, iconCategories.get(i.category)?.immutable ?? false);
  }
  return [...names.entries()].map(([name, imm]) => (imm ? { name, immutable: true } : { name }));
}

function isImmutableCategory(cat: unknown): boolean {
  return typeof cat === 'string' && iconCategories.get(cat)?.immutable === true;
}

export function handleIcons(ctx: Ctx, rest: string[]): Reply {
  const { method, q } = ctx;
  const c = coll('icons');
  if (rest.length === 0) {
    if (method === 'GET') {
      if (truthy(q.get('list_categories'))) return ok(categoryList());
      let items = c.all();
      const cat = q.get('category');
      if (cat !== null && cat !== '' && cat !== '*') items = items.filter((i) => i.category === cat);
      const filtered = sortDocs(applyFilter(items, q.get('filter')), q.get('sort_key'), isDescending(q.get('sort_dir')));
      const paged = page(filtered, parseIntParam(q.get('offset') ?? q.get('skip')), parseIntParam(q.get('limit') ?? q.get('count')));
      const fields = parseFields(q);
      return ok({ total: filtered.length, result: paged.map((i) => projectFields(clone(i), fields)) });
    }
    if (method === 'POST' || method === 'PUT') {
      requireWrite(ctx);
      let body: unknown = ctx.hasBody ? ctx.body : [];
      if (body === undefined || body === null) body = [];
      if (isDoc(body)) body = Array.isArray(body.icons) ? body.icons : [body];
      if (!Array.isArray(body)) throw new HttpError(400, 'body must be an array of icon objects');
      const icons: Doc[] = body.map((x) => {
        if (!isDoc(x)) throw new HttpError(400, 'each icon must be an object');
        return x;
      });
      for (const i of icons) {
        if (isImmutableCategory(i.category)) throw new HttpError(403, `category ${String(i.category)} is immutable`);
        const k = typeof i._key === 'string' ? i._key : undefined;
        const ex = k ? c.get(k) : undefined;
        if (ex && isImmutableCategory(ex.category)) throw new HttpError(403, `icon ${k} belongs to an immutable category`);
      }
      const keys: string[] = [];
      for (const i of icons) {
        const k = typeof i._key === 'string' && i._key !== '' ? i._key : newKey();
        c.set(k, { ...i, _key: k });
        keys.push(k);
      }
      return ok(keys);
    }
    if (method === 'DELETE') {
      requireWrite(ctx);
      const cat = q.get('category');
      if (cat === null || cat === '') throw new HttpError(400, 'category parameter is required (use * for all icons)');
      if (cat !== '*' && isImmutableCategory(cat)) throw new HttpError(403, `category ${cat} is immutable`);
      for (const i of c.all()) {
        if (cat === '*' ? !isImmutableCategory(i.category) : i.category === cat) c.delete(String(i._key));
      }
      return ok({ Deleted: 'True' });
    }
    throw notAllowed(method);
  }
  if (rest.length === 1) {
    const k = rest[0];
    const i = c.get(k);
    if (!i) throw notFound(`icon ${k}`);
    if (method === 'GET') return ok(clone(i));
    if (method === 'DELETE') {
      requireWrite(ctx);
      if (isImmutableCategory(i.category)) throw new HttpError(403, `icon ${k} belongs to an immutable category`);
      c.delete(k);
      return ok({ Deleted: 'True' });
    }
    if (method === 'POST' || method === 'PUT') {
      requireWrite(ctx);
      const body = bodyDoc(ctx);
      if (isImmutableCategory(i.category) || isImmutableCategory(body.category)) throw new HttpError(403, 'immutable category');
      c.set(k, { ...i, ...body, _key: k });
      return ok({ _key: k });
    }
    throw notAllowed(method);
  }
  throw notFound('endpoint');
}
