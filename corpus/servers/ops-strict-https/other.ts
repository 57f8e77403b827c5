import {
  type Doc,
  HttpError,
  bad,
  notFound,
  forbidden,
  conflict,
  newKey,
  isObj,
  isStrArray,
  clone,
  isoNow,
  modTime,
  plainTime,
  epochNow,
  sharedOpts,
  applyList,
  compileFilter,
  bool01,
  intParam,
  reqStr,
  optStr,
  optNum,
  optArr,
  optStrArr,
  optObj,
  sortDocs,
  fieldsParam,
  project,
  truthy,
} from './lib.js';
import {
  type User,
  type Coll,
  GLOBAL_TEAM,
  VERSION,
  EM_TYPES,
  coll,
  em,
  tickets,
  maint,
  backups,
  icons,
  authored,
  library,
  libraryFailures,
  localApps,
  GROUP_TYPES,
  mkVirtualizationPack,
  ACTIONS,
  actionConfig,
  canReadGroups,
  canWriteGroups,
  canReadJob,
  canWriteTeam,
  common,
  defaultTeam,
} from './state.js';
import { type Ctx, type Res, ok, noContent, objBody, optObjBody } from './ctx.js';
import { methodNotAllowed } from './core.js';

function needWrite(u: User): void {
  if (u.readOnly) throw forbidden(`User "${u.name}" does not have write access to this resource.`);
}
const KEY_RE = /^[A-Za-z0-9][A-Za-z0-9_\-.:]{0,127}$/;

// =================== content pack library ===================
function libPack(name: string, version: string): ReturnType<typeof library.get> & object {
  const p = library.get(name);
  if (!p) throw notFound(`Content pack "${name}" was not found.`);
  if (p.pack.version !== version)
    throw notFound(`Content pack "${name}" has no version "${version}" (available: ${String(p.pack.version)}).`);
  return p;
}
function findInstalled(group: string, id: string): Doc | undefined {
  const g = GROUP_TYPES[group];
  if (!g) return undefined;
  return g.store === 'core' ? coll(g.type).get(id) : em.get(g.type)?.get(id);
}

export function libraryHandler(ctx: Ctx, rest: string[]): Res {
  const u = ctx.user;
  const m = ctx.method;
  if (rest.length === 0) {
    if (m !== 'GET') throw methodNotAllowed(['GET']);
    const sd = ctx.q.get('sort_dir');
    if (sd !== null && sd !== '' && sd !== 'asc' && sd !== 'desc') throw bad('Parameter "sort_dir" must be "asc" or "desc".');
    const count = intParam(ctx.q, 'count');
    const offset = intParam(ctx.q, 'offset') ?? 0;
    const sk = ctx.q.get('sort_key') || undefined;
    const packs = [...library.values()].map((p) => clone(p.pack));
    const sorted = sortDocs(
      packs.map((p) => ({ ...p, _key: p.id })),
      sk,
      sd !== 'desc',
    ).map((p) => {
      delete p._key;
      return p;
    });
    const page = sorted.slice(offset, count && count > 0 ? offset + count : undefined);
    return ok({ success: page, failure: clone(libraryFailures) });
  }
  if (rest.length === 1 && rest[0] === 'refresh') {
    if (m !== 'POST') throw methodNotAllowed(['POST']);
    needWrite(u);
    const b = optObjBody(ctx);
    optStrArr(b, 'apps_added');
    optStrArr(b, 'apps_removed');
    const res = {
      success: { apps_added: [] as string[], apps_removed: [] as string[] },
      failed: { apps_added: [] as string[], apps_removed: [] as string[] },
    };
    for (const a of (b.apps_added as string[] | undefined) ?? [...localApps]) {
      if (localApps.has(a) && !library.has(a)) {
        if (a === 'DA-ops-CP-virtualization') mkVirtualizationPack();
        localApps.delete(a);
        res.success.apps_added.push(a);
      } else res.failed.apps_added.push(a);
    }
    for (const a of (b.apps_removed as string[] | undefined) ?? []) {
      const p = library.get(a);
      if (p && (p.pack.installed_versions as unknown[]).length === 0) {
        library.delete(a);
        localApps.add(a);
        res.success.apps_removed.push(a);
      } else res.failed.apps_removed.push(a);
    }
    return ok(res);
  }
  if (rest.length === 2) {
    if (m !== 'GET') throw methodNotAllowed(['GET']);
    return ok(clone(libPack(rest[0], rest[1]).pack));
  }
  if (rest.length === 3 && rest[2] === 'preview') {
    if (m !== 'GET') throw methodNotAllowed(['GET']);
    const p = libPack(rest[0], rest[1]);
    const out: Doc = {};
    for (const [g, items] of Object.entries(p.contents)) {
      out[g] = items.map((it) => ({
        ...clone(it),
        entitlement_status: true,
        installed: !!findInstalled(g, String(it.id)),
        has_dependency: g === 'services' || g === 'service_templates',
      }));
    }
    const ss = p.savedSearches;
    out.saved_searches = { has_saved_searches: ss.length > 0, has_consistent_status: !ss.some((s) => s.error) };
    return ok(out);
  }
  if (rest.length === 3 && rest[2] === 'install') {
    if (m !== 'POST') throw methodNotAllowed(['POST']);
    needWrite(u);
    const p = libPack(rest[0], rest[1]);
    const b = optObjBody(ctx);
    if (!canWriteTeam(u, GLOBAL_TEAM)) throw forbidden('Installing a content pack requires write access to the Global team.');
    let resolution: string | undefined;
    if (b.resolution !== undefined) {
      if (b.resolution !== 'overwrite' && b.resolution !== 'skip') throw bad('Field "resolution" must be "overwrite" or "skip".');
      resolution = b.resolution;
    }
    const boolField = (f: string, d: boolean): boolean => {
      const v = b[f];
      if (v === undefined || v === null) return d;
      if (v === true || v === 1 || v === '1' || v === 'true') return true;
      if (v === false || v === 0 || v === '0' || v === 'false') return false;
      throw bad(`Field "${f}" must be a Boolean (1 or 0).`);
    };
    const enabled = boolField('enabled', false);
    const backfill = boolField('backfill', true);
    optStr(b, 'prefix');
    const prefix = typeof b.prefix === 'string' ? b.prefix : '';
    let selection: Record<string, string[]> | undefined;
    if (b.content !== undefined && b.content !== null) {
      if (!isObj(b.content)) throw bad('Field "content" must be an object mapping object-type name to an array of identifiers.');
      selection = {};
      for (const [g, ids] of Object.entries(b.content)) {
        if (!isStrArray(ids)) throw bad(`Field "content.${g}" must be an array of identifiers.`);
        const items = p.contents[g];
        if (!items) throw bad(`Content pack "${rest[0]}" has no objects of type "${g}".`);
        const unknown = ids.filter((id) => !items.some((it) => it.id === id));
        if (unknown.length) throw bad(`Content pack "${rest[0]}" has no ${g} with identifier(s) ${unknown.join(', ')}.`);
        selection[g] = ids;
      }
      if (Object.keys(selection).length === 0) selection = undefined;
    }
    const success: Doc[] = [];
    const failure: Doc[] = [];
    for (const [g, items] of Object.entries(p.contents)) {
      const chosen = items.filter((it) => !selection || (selection[g] ?? []).includes(String(it.id)));
      const done: Doc[] = [];
      const gt = GROUP_TYPES[g];
      for (const it of chosen) {
        const id = String(it.id);
        const title = prefix + String(it.title);
        if (findInstalled(g, id)) {
          if (resolution === 'skip') continue;
          if (resolution !== 'overwrite') {
            failure.push({ content_type: g, id, title, type: 'OBJECT_ALREADY_EXISTS' });
            continue;
          }
        }
        const d: Doc = {
          ...common(gt.type, title),
          _key: id,
          description: it.description,
          source_content_pack: p.pack.id,
          mod_source: 'content_pack',
        };
        if (['service', 'correlation_search', 'notable_aggregation_policy'].includes(gt.type)) {
          if (gt.type === 'service') {
            d.enabled = enabled ? 1 : 0;
            d.kpis = [];
            d.entity_rules = [];
            d.services_depends_on = [];
            d.backfill_enabled = backfill;
            d.base_service_template_id = '';
          } else d.disabled = enabled ? 0 : 1;
        }
        if (gt.type === 'base_service_template') {
          d.kpis = [];
          d.entity_rules = [];
          d.linked_services = [];
        }
        if (gt.store === 'core') coll(gt.type).set(id, d);
        else em.get(gt.type)?.set(id, d);
        done.push({ id, title });
      }
      if (done.length) success.push({ [g]: done });
    }
    const ssOut = { action_performed: 'enable', success: [] as string[], failure: [] as Doc[] };
    for (const s of p.savedSearches) {
      if (s.error) ssOut.failure.push({ name: s.name, error_message: s.error });
      else ssOut.success.push(s.name);
    }
    const iv = p.pack.installed_versions as string[];
    if (success.length && !iv.includes(String(p.pack.version))) iv.push(String(p.pack.version));
    return ok({ success, failure, saved_searches: ssOut });
  }
  throw notFound(`Unknown content pack endpoint "${rest.join('/')}".`);
}

// =================== content pack authoring ===================
const CP_STATUSES = ['Draft', 'Queued', 'Generating', 'Generated', 'Failed', 'Incomplete'];
const OPS_OBJ_TYPES = [
  'base_service_template',
  'correlation_search',
  'deep_dive',
  'entity_type',
  'event_management_state',
  'glass_table',
  'home_view',
  'kpi_base_search',
  'kpi_threshold_template',
  'notable_aggregation_policy',
  'service',
  'team',
];
const PLATFORM_TYPES = ['dashboards', 'lookups', 'macros', 'props', 'savedsearches', 'transforms'];

function normOps(v: unknown, where: string): Record<string, string[]> {
  if (v === undefined || v === null) return {};
  if (!isObj(v)) throw bad(`Field "${where}" must be an object mapping object-type name to identifiers.`);
  const out: Record<string, string[]> = {};
  for (const [t, ids] of Object.entries(v)) {
    if (!OPS_OBJ_TYPES.includes(t)) throw bad(`Field "${where}": unsupported object type "${t}". Supported: ${OPS_OBJ_TYPES.join(', ')}.`);
    if (isStrArray(ids)) out[t] = [...new Set(ids)];
    else if (isObj(ids) && Object.values(ids).every((x) => typeof x === 'string')) out[t] = Object.keys(ids);
    else throw bad(`Field "${where}.${t}" must be an array of identifiers or an object {id: title}.`);
  }
  return out;
}
function normPlatform(v: unknown, where: string): Record<string, string[]> {
  const out: Record<string, string[]> = Object.fromEntries(PLATFORM_TYPES.map((t) => [t, [] as string[]]));
  if (v === undefined || v === null) return out;
  if (!isObj(v)) throw bad(`Field "${where}" must be an object with arrays ${PLATFORM_TYPES.join(', ')}.`);
  for (const [t, ids] of Object.entries(v)) {
    if (!PLATFORM_TYPES.includes(t))
      throw bad(`Field "${where}": unsupported platform object type "${t}". Supported: ${PLATFORM_TYPES.join(', ')}.`);
    if (!isStrArray(ids)) throw bad(`Field "${where}.${t}" must be an array of strings.`);
    out[t] = ids;
  }
  return out;
}
function titleOf(t: string, id: string): string {
  const d = EM_TYPES.includes(t)
    ? em.get(t)?.get(id)
    : (() => {
        try {
          return coll(t).get(id);
        } catch {
          return undefined;
        }
      })();
  return d && typeof d.title === 'string' ? d.title : id;
}
function cpValidate(b: Doc, existing: Doc | undefined): Doc {
  const title = reqStr(b, 'title');
  for (const f of ['description', 'overview', 'cp_version']) optStr(b, f);
  if (typeof b.cp_version === 'string' && b.cp_version !== '' && !/^\d+(\.\d+){0,3}$/.test(b.cp_version)) {
    throw bad('Field "cp_version" must be a dotted version number such as "1.0.0".');
  }
  optObj(b, 'metadata');
  const md = isObj(b.metadata) ? b.metadata : {};
  if (md.icon !== undefined && md.icon !== null && typeof md.icon !== 'string')
    throw bad('Field "metadata.icon" must be a string or null.');
  if (md.main_screenshot !== undefined && !isObj(md.main_screenshot)) throw bad('Field "metadata.main_screenshot" must be an object.');
  if (md.screenshots !== undefined && !Array.isArray(md.screenshots)) throw bad('Field "metadata.screenshots" must be an array.');
  if (b.status !== undefined && (typeof b.status !== 'string' || !CP_STATUSES.includes(b.status)))
    throw bad(`Field "status" must be one of ${CP_STATUSES.join(', ')}.`);
  optObj(b, 'user_selected_objects');
  const uso = isObj(b.user_selected_objects) ? b.user_selected_objects : {};
  const dup = authored.all().find((c) => c._key !== existing?._key && String(c.title).toLowerCase() === title.toLowerCase());
  if (dup) throw conflict(`A content pack titled "${title}" already exists.`);
  return {
    title,
    description: b.description ?? '',
    overview: b.overview ?? '',
    cp_version: b.cp_version ?? '1.0.0',
    metadata: { icon: md.icon ?? null, main_screenshot: md.main_screenshot ?? {}, screenshots: md.screenshots ?? [] },
    ops_objects: normOps(b.ops_objects, 'ops_objects'),
    platform_objects: normPlatform(b.platform_objects, 'platform_objects'),
    user_selected_objects: {
      ops_objects: normOps(uso.ops_objects, 'user_selected_objects.ops_objects'),
      platform_objects: normPlatform(uso.platform_objects, 'user_selected_objects.platform_objects'),
    },
    status: b.status ?? existing?.status ?? 'Draft',
  };
}
function cpSingle(d: Doc): Doc {
  const out = clone(d);
  const ops = out.ops_objects as Record<string, string[]>;
  out.ops_objects = Object.fromEntries(
    Object.entries(ops).map(([t, ids]) => [t, Object.fromEntries(ids.map((id) => [id, titleOf(t, id)]))]),
  );
  return out;
}
function counts(o: unknown): Doc {
  return isObj(o) ? Object.fromEntries(Object.entries(o).map(([k, v]) => [k, Array.isArray(v) ? v.length : 0])) : {};
}

export function authoringHandler(ctx: Ctx, rest: string[]): Res {
  const u = ctx.user;
  const m = ctx.method;
  if (rest[0] !== 'content_pack') throw notFound(`Unknown authoring endpoint "${rest.join('/')}".`);
  const r = rest.slice(1).filter((s, i, a) => !(s === '' && i === a.length - 1));
  const om = ctx.q.get('output_mode');
  if (om !== null && om !== '' && om !== 'json') throw bad('Parameter "output_mode" supports only "json".');
  if (r.length === 0) {
    if (m === 'GET') {
      const sd = ctx.q.get('sort_dir');
      if (sd !== null && sd !== '' && !['asc', 'des', 'desc'].includes(sd)) throw bad('Parameter "sort_dir" must be "asc" or "des".');
      const st = ctx.q.get('status');
      if (st !== null && st !== '' && !CP_STATUSES.includes(st)) throw bad(`Parameter "status" must be one of ${CP_STATUSES.join(', ')}.`);
      const count = intParam(ctx.q, 'count');
      const offset = intParam(ctx.q, 'offset') ?? 0;
      const fields = fieldsParam(ctx.q);
      const search = (ctx.q.get('search') ?? '').toLowerCase();
      const f = compileFilter(ctx.q.get('filter'));
      let rows = authored
        .all()
        .filter(f)
        .filter((d) => (!st || d.status === st) && (!search || String(d.title).toLowerCase().includes(search)));
      rows = sortDocs(rows, ctx.q.get('sort_key') || undefined, !(sd === 'des' || sd === 'desc'));
      rows = rows.slice(offset, count && count > 0 ? offset + count : undefined);
      return ok(
        rows.map((d) => {
          if (fields?.length) return project(d, fields);
          const md = isObj(d.metadata) ? d.metadata : {};
          return {
            ...clone(d),
            icon: md.icon ?? null,
            ops_objects_counts: counts(d.ops_objects),
            platform_objects_counts: counts(d.platform_objects),
          };
        }),
      );
    }
    if (m === 'POST') {
      needWrite(u);
      const b = objBody(ctx);
      if (b._key !== undefined) throw bad('Field "_key" cannot be set on create; use POST content_pack/<key> to update.');
      const v = cpValidate(b, undefined);
      const key = newKey();
      authored.set(key, {
        ...v,
        _key: key,
        object_type: 'content_pack',
        _version: VERSION,
        _user: 'nobody',
        mod_source: 'REST',
        mod_time: modTime(),
        mod_timestamp: isoNow(),
        identifying_name: String(v.title).toLowerCase(),
      });
      return ok({ _key: key }, 201);
    }
    throw methodNotAllowed(['GET', 'POST']);
  }
  if (r.length === 1 && r[0] === 'count') {
    if (m !== 'GET') throw methodNotAllowed(['GET']);
    return ok({ count: authored.all().filter(compileFilter(ctx.q.get('filter'))).length });
  }
  if (r.length === 1) {
    const key = r[0];
    const d = authored.get(key);
    if (!d) throw notFound(`Content pack "${key}" was not found.`);
    if (m === 'GET') return ok(cpSingle(d));
    if (m === 'POST') {
      needWrite(u);
      const b = objBody(ctx);
      if (b._key !== undefined && b._key !== key) throw bad('The "_key" in the payload does not match the key in the URL.');
      const v = cpValidate(b, d);
      authored.set(key, {
        ...v,
        _key: key,
        object_type: 'content_pack',
        _version: VERSION,
        _user: 'nobody',
        mod_source: 'REST',
        mod_time: modTime(),
        mod_timestamp: isoNow(),
        identifying_name: String(v.title).toLowerCase(),
      });
      return ok({ _key: key });
    }
    if (m === 'DELETE') {
      needWrite(u);
      authored.del(key);
      return ok(cpSingle(d));
    }
    throw methodNotAllowed(['GET', 'POST', 'DELETE']);
  }
  throw notFound(`Unknown authoring endpoint "${rest.join('/')}".`);
}

// =================== event management ===================
function emColl(t: string): Coll {
  const c = em.get(t);
  if (!c) throw bad(`Unsupported event management object type "${t}". Supported: ${EM_TYPES.join(', ')}.`);
  return c;
}
function splitIds(v: unknown, name: string): string[] {
  if (typeof v === 'string')
    return v
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
  if (isStrArray(v)) return v.map((s) => s.trim()).filter(Boolean);
  throw bad(`Field "${name}" must be a string.`);
}
function linkTicket(u: User, eventId: string, system: string, tid: string, url: string): string {
  let obj = tickets.all().find((t) => t.event_id === eventId && t.ticket_system === system);
  if (!obj) {
    const k = newKey();
    obj = { ticket_system: system, _user: u.name, event_id: eventId, _key: k, tickets: [], object_type: 'external_ticket' };
    tickets.set(k, obj);
  }
  const list = obj.tickets as Doc[];
  const ex = list.find((t) => t.ticket_id === tid);
  if (ex) ex.ticket_url = url;
  else list.push({ ticket_system: system, ticket_url: url, ticket_id: tid });
  return String(obj._key);
}
function ticketFields(src: Doc, needId: boolean): { ids: string[]; system: string; tid: string; url: string } {
  const w = (f: string): string => {
    const v = src[f];
    if (typeof v !== 'string' || v.trim() === '') throw bad(`Field "${f}" is required and must be a non-empty string.`);
    return v.trim();
  };
  const ids = needId ? splitIds(w('id'), 'id') : src.ids !== undefined ? splitIds(src.ids, 'ids') : [];
  const url = w('ticket_url');
  if (!/^[a-z][a-z0-9+.-]*:\/\/\S+$/i.test(url)) throw bad('Field "ticket_url" must be an absolute URL.');
  return { ids, system: w('ticket_system'), tid: w('ticket_id'), url };
}

export function emHandler(ctx: Ctx, seg: string[]): Res {
  const u = ctx.user;
  const m = ctx.method;
  if (seg.length === 0) throw notFound('No object type given.');
  const t = seg[0];
  if (t === 'notable_event_actions') {
    if (seg.length === 1) {
      if (m !== 'GET') throw methodNotAllowed(['GET']);
      return ok(clone(ACTIONS));
    }
    if (seg.length !== 2) throw notFound('Unknown episode action endpoint.');
    const a = ACTIONS.find((x) => x.action_name === seg[1]);
    if (!a) throw notFound(`Episode action "${seg[1]}" was not found.`);
    if (m === 'GET') return ok(actionConfig(a));
    if (m !== 'POST') throw methodNotAllowed(['GET', 'POST']);
    needWrite(u);
    const b = objBody(ctx);
    if (!isStrArray(b.ids) || b.ids.length === 0)
      throw bad('Field "ids" is required and must be a non-empty array of episode identifiers.');
    if (b.params !== undefined && !isObj(b.params)) throw bad('Field "params" must be an object.');
    const params = isObj(b.params) ? b.params : {};
    if (!truthy(a.is_bulk_compatible) && b.ids.length > 1)
      throw bad(`Action "${seg[1]}" is not bulk compatible; send one episode identifier.`);
    if (a.action_name === 'ops_event_action_link_ticket') {
      const f = ticketFields({ ...params, id: b.ids.join(',') }, true);
      for (const id of f.ids) linkTicket(u, id, f.system, f.tid, f.url);
    }
    const sid = `ops_act_${epochNow()}_${newKey().slice(0, 8)}`;
    return ok([{ action_name: a.action_name, ids: [...b.ids], sid }]);
  }
  if (t === 'ticketing') {
    if (seg.length === 1) {
      if (m !== 'POST') throw methodNotAllowed(['POST']);
      needWrite(u);
      const f = ticketFields(objBody(ctx), true);
      const keys = f.ids.map((id) => linkTicket(u, id, f.system, f.tid, f.url));
      return ok({ _key: keys.length === 1 ? keys[0] : keys.join(',') }, 201);
    }
    if (seg.length === 2) {
      const ev = seg[1];
      if (m === 'GET') {
        const ids = new Set([ev, ...(ctx.q.get('ids') ? splitIds(ctx.q.get('ids'), 'ids') : [])]);
        const sys = ctx.q.get('ticket_system');
        const tid = ctx.q.get('ticket_id');
        const url = ctx.q.get('ticket_url');
        const rows = tickets
          .all()
          .filter((x) => ids.has(String(x.event_id)) && (!sys || x.ticket_system === sys))
          .map((x) => {
            const c = clone(x);
            c.tickets = (c.tickets as Doc[]).filter((tk) => (!tid || tk.ticket_id === tid) && (!url || tk.ticket_url === url));
            return c;
          })
          .filter((x) => (x.tickets as Doc[]).length > 0);
        return ok(rows);
      }
      if (m === 'POST') {
        needWrite(u);
        const src: Doc = Object.fromEntries(ctx.q.entries());
        if (ctx.hasBody) {
          if (!isObj(ctx.body)) throw bad('The request body must be a JSON object.');
          Object.assign(src, ctx.body);
        }
        const f = ticketFields(src, false);
        const ids = [...new Set([ev, ...f.ids])];
        return ok(
          ids.map((id) => linkTicket(u, id, f.system, f.tid, f.url)),
          201,
        );
      }
      throw methodNotAllowed(['GET', 'POST']);
    }
    if (seg.length === 4) {
      if (m !== 'DELETE') throw methodNotAllowed(['DELETE']);
      needWrite(u);
      const [, ev, sys, tid] = seg;
      const obj = tickets
        .all()
        .find((x) => x.event_id === ev && x.ticket_system === sys && (x.tickets as Doc[]).some((tk) => tk.ticket_id === tid));
      if (!obj) throw notFound(`No ticket "${tid}" of system "${sys}" is linked to episode "${ev}".`);
      obj.tickets = (obj.tickets as Doc[]).filter((tk) => tk.ticket_id !== tid);
      if ((obj.tickets as Doc[]).length === 0) tickets.del(String(obj._key));
      return noContent();
    }
    throw notFound('Unknown ticketing endpoint.');
  }
  const c = emColl(t);
  if (seg.length === 1) {
    if (m === 'GET') {
      bool01(ctx.q, 'is_partial_data', false);
      const o = sharedOpts(ctx.q, { offset: 'skip', filter: 'filter_data' });
      return ok(applyList(c.all(), o));
    }
    if (m === 'POST') {
      needWrite(u);
      const b = objBody(ctx);
      if (t === 'notable_event_comment') {
        reqStr(b, 'comment');
        reqStr(b, 'event_id');
      } else reqStr(b, 'title');
      if (b._key !== undefined && (typeof b._key !== 'string' || !KEY_RE.test(b._key) || c.get(b._key)))
        throw bad('Field "_key" is invalid or already in use.');
      const k = typeof b._key === 'string' ? b._key : newKey();
      const d: Doc = {
        ...clone(b),
        _key: k,
        object_type: t,
        _version: VERSION,
        _user: u.name,
        mod_source: 'REST',
        mod_timestamp: isoNow(),
        mod_time: modTime(),
      };
      if (typeof b.title === 'string') d.identifying_name = b.title.toLowerCase();
      if (t === 'notable_event_comment') d.create_time = epochNow();
      c.set(k, d);
      return ok({ _key: k }, 201);
    }
    if (m === 'DELETE') {
      if (t === 'notable_event_comment') throw methodNotAllowed(['GET', 'POST']);
      needWrite(u);
      const o = sharedOpts(ctx.q, { offset: 'skip', filter: 'filter_data' });
      for (const d of applyList(c.all(), { ...o, fields: undefined })) c.del(String(d._key));
      return noContent();
    }
    throw methodNotAllowed(t === 'notable_event_comment' ? ['GET', 'POST'] : ['GET', 'POST', 'DELETE']);
  }
  if (seg.length === 2) {
    const d = c.get(seg[1]);
    if (!d) throw notFound(`Object of type "${t}" with key "${seg[1]}" was not found.`);
    if (m === 'GET') return ok(d);
    if (t === 'notable_event_comment') {
      throw new HttpError(405, 'Episode comments are append-only: update and delete are not supported.', { Allow: 'GET' });
    }
    if (m === 'POST') {
      needWrite(u);
      const b = objBody(ctx);
      const partial = bool01(ctx.q, 'is_partial_data', false);
      if (b._key !== undefined && b._key !== seg[1]) throw bad('The "_key" in the payload does not match the key in the URL.');
      const merged: Doc = partial ? { ...clone(d), ...clone(b) } : clone(b);
      reqStr(merged, 'title');
      Object.assign(merged, {
        _key: seg[1],
        object_type: t,
        _version: VERSION,
        mod_source: 'REST',
        mod_timestamp: isoNow(),
        mod_time: modTime(),
        identifying_name: String(merged.title).toLowerCase(),
      });
      c.set(seg[1], merged);
      return ok({ _key: seg[1] });
    }
    if (m === 'DELETE') {
      needWrite(u);
      c.del(seg[1]);
      return noContent();
    }
    throw methodNotAllowed(['GET', 'POST', 'DELETE']);
  }
  throw notFound(`Unknown endpoint "${seg.join('/')}".`);
}

// =================== maintenance & backup (generic job-like collections) ===================
interface SimpleKind {
  type: string;
  c: Coll;
  canRead: (u: User, d: Doc) => boolean;
  canWrite: (u: User, d: Doc) => boolean;
  prepare: (u: User, d: Doc, existing: Doc | undefined) => void;
  protectedKey?: (d: Doc) => boolean;
}

const MW_KIND: SimpleKind = {
  type: 'maintenance_calendar',
  c: maint,
  canRead: (u, d) => canReadGroups(u, d.sec_grp_list),
  canWrite: (u, d) => canWriteGroups(u, d.sec_grp_list),
  prepare: (u, d, ex) => {
    reqStr(d, 'title');
    for (const f of ['start_time', 'end_time']) {
      if (typeof d[f] !== 'number' || !Number.isFinite(d[f] as number) || (d[f] as number) < 0)
        throw bad(`Field "${f}" is required and must be a number of epoch seconds.`);
    }
    if ((d.end_time as number) <= (d.start_time as number)) throw bad('Field "end_time" must be later than "start_time".');
    if (d.objects === undefined) d.objects = [];
    if (!Array.isArray(d.objects)) throw bad('Field "objects" must be an array of {object_type, _key}.');
    (d.objects as unknown[]).forEach((o, i) => {
      if (!isObj(o) || (o.object_type !== 'service' && o.object_type !== 'entity') || typeof o._key !== 'string' || !o._key) {
        throw bad(`objects[${i}] must be {object_type: "service" or "entity", _key: string}.`);
      }
    });
    optStrArr(d, 'sec_grp_list');
    if (d.sec_grp_list === undefined || (d.sec_grp_list as string[]).length === 0) d.sec_grp_list = ex?.sec_grp_list ?? [defaultTeam(u)];
    for (const t of d.sec_grp_list as string[]) if (!coll('team').get(t)) throw bad(`Field "sec_grp_list": team "${t}" does not exist.`);
    if (!canWriteGroups(u, d.sec_grp_list)) throw forbidden(`User "${u.name}" cannot write maintenance windows in the given teams.`);
    d.sec_grp = (d.sec_grp_list as string[])[0];
    d._owner = ex?._owner ?? u.name;
  },
};

const JOB_TYPES = ['Backup', 'Restore'];
const JOB_STATUSES = ['Not Started', 'Queued', 'In Progress', 'Completed', 'Failed'];
const BK_KIND: SimpleKind = {
  type: 'backup_restore',
  c: backups,
  canRead: (u, d) => canReadJob(u, d),
  canWrite: (u, d) => !u.readOnly && (u.admin || d._owner === u.name),
  protectedKey: (d) => truthy(d.is_default),
  prepare: (u, d, ex) => {
    reqStr(d, 'title');
    if (d.job_type === undefined) d.job_type = ex?.job_type ?? 'Backup';
    if (typeof d.job_type !== 'string' || !JOB_TYPES.includes(d.job_type))
      throw bad(`Field "job_type" must be one of ${JOB_TYPES.join(', ')}.`);
    if (d.status === undefined) d.status = ex?.status ?? 'Not Started';
    if (typeof d.status !== 'string' || !JOB_STATUSES.includes(d.status))
      throw bad(`Field "status" must be one of ${JOB_STATUSES.join(', ')}.`);
    for (const f of ['start_time', 'end_time', 'last_queued_time']) optNum(d, f);
    for (const f of ['path', 'search_head_id', 'platform_server', 'last_error']) optStr(d, f);
    optArr(d, 'rules');
    if (ex?.is_default) {
      d.is_default = 1;
      d.scheduled = 1;
    } else if (d.is_default !== undefined) delete d.is_default;
    if (d.job_type === 'Restore' && !ex && (typeof d.path !== 'string' || !d.path)) {
      // restore needs a backup to restore from
      throw bad('Field "path" is required for a Restore job.');
    }
    const now = epochNow();
    d.create_time = ex?.create_time ?? plainTime();
    if (d.status === 'Queued' && ex?.status !== 'Queued') d.last_queued_time = now;
    for (const [f, v] of [
      ['start_time', 0],
      ['end_time', 0],
      ['last_queued_time', 0],
      ['path', ''],
      ['search_head_id', 'SH-7F3A2C'],
      ['platform_server', 'localhost'],
      ['rules', []],
      ['last_error', ''],
    ] as Array<[string, unknown]>) {
      if (d[f] === undefined) d[f] = ex?.[f] ?? v;
    }
    d._owner = ex?._owner ?? u.name;
    d.sec_grp = GLOBAL_TEAM;
  },
};

function simpleHandler(ctx: Ctx, k: SimpleKind, seg: string[], supported: string[]): Res {
  const u = ctx.user;
  const m = ctx.method;
  if (seg.length === 1 && seg[0] === 'get_supported_object_types') {
    if (m !== 'GET') throw methodNotAllowed(['GET']);
    return ok(supported);
  }
  if (seg.length === 0) throw notFound('No object type given.');
  if (seg[0] !== k.type) throw bad(`Unsupported object type "${seg[0]}". Supported object types: ${supported.join(', ')}.`);
  const vis = (): Doc[] => k.c.all().filter((d) => k.canRead(u, d));
  const write = (key: string | undefined, body: Doc, partial: boolean): { key: string; created: boolean } => {
    if (body._key !== undefined && (typeof body._key !== 'string' || !KEY_RE.test(body._key))) throw bad('Field "_key" is invalid.');
    if (key !== undefined && body._key !== undefined && body._key !== key)
      throw bad('The "_key" in the payload does not match the key in the URL.');
    const fk = key ?? (typeof body._key === 'string' ? body._key : undefined);
    const ex = fk ? k.c.get(fk) : undefined;
    if (ex && !k.canRead(u, ex)) throw notFound(`Object "${fk}" was not found.`);
    if (ex && !k.canWrite(u, ex)) throw forbidden(`User "${u.name}" cannot modify this ${k.type}.`);
    if (!ex && partial) throw notFound(`Object "${fk}" was not found; a partial update needs an existing object.`);
    const d: Doc = partial && ex ? { ...clone(ex), ...clone(body) } : clone(body);
    k.prepare(u, d, ex);
    const key2 = fk ?? newKey();
    Object.assign(d, {
      _key: key2,
      object_type: k.type,
      _version: VERSION,
      _user: 'nobody',
      mod_source: 'REST',
      mod_timestamp: isoNow(),
      identifying_name: String(d.title).toLowerCase(),
    });
    k.c.set(key2, d);
    return { key: key2, created: !ex };
  };
  if (seg.length === 1) {
    if (m === 'GET') return ok(applyList(vis(), sharedOpts(ctx.q)));
    if (m === 'POST') {
      needWrite(u);
      const r = write(undefined, objBody(ctx), false);
      return ok({ _key: r.key }, r.created ? 201 : 200);
    }
    if (m === 'DELETE') {
      needWrite(u);
      for (const d of applyList(vis(), { ...sharedOpts(ctx.q), fields: undefined })) {
        const full = k.c.get(String(d._key));
        if (!full || k.protectedKey?.(full) || !k.canWrite(u, full)) continue;
        k.c.del(String(d._key));
      }
      return noContent();
    }
    throw methodNotAllowed(['GET', 'POST', 'DELETE']);
  }
  if (seg.length === 2 && seg[1] === 'count') {
    if (m !== 'GET') throw methodNotAllowed(['GET']);
    return ok({ count: vis().filter(compileFilter(ctx.q.get('filter'))).length });
  }
  if (seg.length === 2) {
    const key = seg[1];
    if (m === 'GET') {
      const d = k.c.get(key);
      if (!d || !k.canRead(u, d)) throw notFound(`Object "${key}" was not found.`);
      return ok(d);
    }
    if (m === 'POST') {
      needWrite(u);
      const partial = bool01(ctx.q, 'is_partial_data', false);
      const r = write(key, objBody(ctx), partial);
      return ok({ _key: r.key }, r.created ? 201 : 200);
    }
    if (m === 'DELETE') {
      needWrite(u);
      const d = k.c.get(key);
      if (!d || !k.canRead(u, d)) throw notFound(`Object "${key}" was not found.`);
      if (k.protectedKey?.(d)) throw forbidden('The default scheduled backup cannot be deleted.');
      if (!k.canWrite(u, d)) throw forbidden(`User "${u.name}" cannot delete this ${k.type}.`);
      k.c.del(key);
      return noContent();
    }
    throw methodNotAllowed(['GET', 'POST', 'DELETE']);
  }
  throw notFound(`Unknown endpoint "${seg.join('/')}".`);
}
export const maintHandler = (ctx: Ctx, seg: string[]): Res => simpleHandler(ctx, MW_KIND, seg, ['maintenance_calendar']);
export const backupHandler = (ctx: Ctx, seg: string[]): Res => {
  if (seg.length === 1 && seg[0] === 'get_supported_object_types') throw notFound('Unknown endpoint "get_supported_object_types".');
  return simpleHandler(ctx, BK_KIND, seg, ['backup_restore']);
};

// =================== icons ===================
const IMMUTABLE_CATEGORIES = ['Server', 'Network', 'Storage'];
function sizeOk(v: unknown): boolean {
  return (
    (typeof v === 'number' && Number.isFinite(v) && v > 0) || (typeof v === 'string' && /^\d+(\.\d+)?$/.test(v.trim()) && Number(v) > 0)
  );
}
export function iconHandler(ctx: Ctx, seg: string[]): Res {
  const u = ctx.user;
  const m = ctx.method;
  if (seg.length === 0) {
    if (m === 'GET') {
      if (bool01(ctx.q, 'list_categories', false)) {
        const names = new Set<string>([...IMMUTABLE_CATEGORIES, ...icons.all().map((i) => String(i.category))]);
        return ok(
          [...names]
            .sort((a, b) => a.localeCompare(b))
            .map((n) => (IMMUTABLE_CATEGORIES.includes(n) ? { name: n, immutable: true } : { name: n })),
        );
      }
      const cat = ctx.q.get('category');
      const o = sharedOpts(ctx.q);
      const rows = icons
        .all()
        .filter((i) => !cat || i.category === cat)
        .filter(o.filter);
      return ok({ total: rows.length, result: applyList(rows, { ...o, filter: () => true }) });
    }
    if (m === 'POST' || m === 'PUT') {
      needWrite(u);
      if (!ctx.hasBody) throw bad('The request body must be a JSON array of icon objects.');
      const arr = Array.isArray(ctx.body) ? ctx.body : isObj(ctx.body) ? [ctx.body] : null;
      if (!arr || arr.length === 0) throw bad('The request body must be a non-empty JSON array of icon objects.');
      const prepared = arr.map((it, i) => {
        const w = `Icon ${i}: `;
        if (!isObj(it)) throw bad(`${w}must be an object.`);
        reqStr(it, 'title', w);
        reqStr(it, 'svg_path', w);
        reqStr(it, 'category', w);
        for (const f of ['default_width', 'default_height'])
          if (!sizeOk(it[f])) throw bad(`${w}Field "${f}" is required and must be a positive number (or numeric string).`);
        if (it._key !== undefined && (typeof it._key !== 'string' || !KEY_RE.test(it._key))) throw bad(`${w}Field "_key" is invalid.`);
        const k = typeof it._key === 'string' ? it._key : newKey();
        return {
          _key: k,
          title: it.title,
          svg_path: it.svg_path,
          default_width: String(it.default_width).trim(),
          default_height: String(it.default_height).trim(),
          category: String(it.category).trim(),
        } as Doc;
      });
      for (const p of prepared) icons.set(String(p._key), p);
      return ok(
        prepared.map((p) => p._key),
        201,
      );
    }
    if (m === 'DELETE') {
      needWrite(u);
      const cat = ctx.q.get('category');
      if (cat === null || cat === '') throw bad('Parameter "category" is required; use "*" to delete all icons.');
      for (const i of icons.all()) if (cat === '*' || i.category === cat) icons.del(String(i._key));
      return ok({ Deleted: 'True' });
    }
    throw methodNotAllowed(['GET', 'POST', 'PUT', 'DELETE']);
  }
  if (seg.length === 1) {
    const d = icons.get(seg[0]);
    if (!d) throw notFound(`Icon "${seg[0]}" was not found.`);
    if (m === 'GET') return ok(d);
    if (m === 'DELETE') {
      needWrite(u);
      icons.del(seg[0]);
      return ok({ Deleted: 'True' });
    }
    throw methodNotAllowed(['GET', 'DELETE']);
  }
  throw notFound('Unknown icon endpoint.');
}
