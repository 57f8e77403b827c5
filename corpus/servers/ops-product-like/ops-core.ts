// Core objects interface (itoa_interface): object types, services with their service-health KPI,
// entities with service membership and retirement, service templates, templatize, alias list.

import { randomBytes } from 'node:crypto';
import { CTW_ACTIONS, ctwSpec, handleCtwAction } from './ops-ctw.js';
import { serviceHealthKpi, templateKpiDefaults } from './ops-data.js';
import {
  badRequest,
  byMethod,
  forbidden,
  isPlainObject,
  objectBody,
  ok,
  requireWrite,
  unknownPath,
  type Ctx,
  type Doc,
  type Reply,
} from './ops-http.js';
import {
  bulkUpdate,
  countObjects,
  createObject,
  deleteByFilter,
  deleteObject,
  findReadable,
  getObject,
  listObjects,
  updateObject,
  type KindSpec,
  type WriteMode,
} from './ops-objects.js';
import {
  canRead,
  clone,
  DEFAULT_GROUP,
  isoTimestamp,
  microDateTime,
  permissionsFor,
  plainDateTime,
  SCHEMA_VERSION,
  type Rec,
} from './ops-store.js';

const CORE_TYPES = [
  'team',
  'entity',
  'service',
  'base_service_template',
  'kpi_base_search',
  'deep_dive',
  'glass_table',
  'home_view',
  'kpi_template',
  'kpi_threshold_template',
  'event_management_state',
  'entity_filter_rule',
  'entity_type',
  'custom_threshold_windows',
];
/** Answered by get_supported_object_types besides CORE_TYPES; marked as not used. */
const UNUSED_TYPES = ['entity_relationship', 'entity_relationship_rule'];
const NO_TITLE_TYPES = new Set(['event_management_state', 'home_view', 'entity_relationship']);

export const coreColl = (type: string) => `itoa:${type}`;

// ---------- field helpers ----------

function arrayField(doc: Doc, name: string): unknown[] {
  const v = doc[name];
  if (v === undefined || v === null) doc[name] = [];
  else if (!Array.isArray(v)) throw badRequest(`Field "${name}" must be an array`);
  return doc[name] as unknown[];
}

function flagField(doc: Doc, name: string, dflt: number): void {
  const v = doc[name];
  if (v === undefined || v === null || v === '') doc[name] = dflt;
  else if (v === true || v === 1 || v === '1') doc[name] = 1;
  else if (v === false || v === 0 || v === '0') doc[name] = 0;
  else throw badRequest(`Field "${name}" must be 0 or 1`);
}

function stringList(v: unknown, what: string): string[] {
  if (!Array.isArray(v) || v.some((x) => typeof x !== 'string')) throw badRequest(`${what} must be an array of strings`);
  return v as string[];
}

const hex40 = () => randomBytes(20).toString('hex');

const corePresent = (ctx: Ctx, doc: Doc): Doc => {
  doc.permissions = permissionsFor(ctx.user);
  return doc;
};

// ---------- services ----------

function prepareService(doc: Doc, prev: Doc | undefined): void {
  const key = String(doc._key);
  const title = String(doc.title ?? prev?.title ?? '');
  for (const rule of arrayField(doc, 'entity_rules')) if (!isPlainObject(rule)) throw badRequest('Every entity rule must be an object');
  arrayField(doc, 'services_depends_on');
  flagField(doc, 'enabled', 1);
  flagField(doc, 'is_healthscore_calculate_by_entity_enabled', 1);
  if (!isPlainObject(doc.service_tags)) doc.service_tags = { tags: [] };
  if (typeof doc.base_service_template_id !== 'string') {
    doc.base_service_template_id = typeof prev?.base_service_template_id === 'string' ? prev.base_service_template_id : '';
  }
  const kpis = arrayField(doc, 'kpis');
  if (kpis.some((k) => !isPlainObject(k))) throw badRequest('Every KPI must be an object');
  const shKey = `SHKPI-${key}`;
  const prevSh = ((prev?.kpis as Doc[] | undefined) ?? []).find((k) => k._key === shKey);
  const givenSh = (kpis as Doc[]).find((k) => k._key === shKey);
  const common = { service_id: key, service_title: title, sec_grp: doc.sec_grp };
  const health: Doc = {
    ...(prevSh ?? serviceHealthKpi(key, title, String(doc.sec_grp))),
    ...(givenSh ?? {}),
    ...common,
    _key: shKey,
    type: 'service_health',
  };
  const others = (kpis as Doc[])
    .filter((k) => k._key !== shKey)
    .map((k) => ({
      ...k,
      ...common,
      _key: typeof k._key === 'string' && k._key !== '' ? k._key : hex40(),
      type: typeof k.type === 'string' ? k.type : 'kpis_primary',
    }));
  doc.kpis = [health, ...others];
  doc.mod_time = plainDateTime();
}

function afterServiceDelete(ctx: Ctx, docs: Doc[]): void {
  const gone = new Set(docs.map((d) => String(d._key)));
  for (const e of ctx.store.coll(coreColl('entity')).all()) {
    const links = (e.meta.links as Doc[] | undefined) ?? [];
    e.meta.links = links.filter((l) => !gone.has(String(l._key)));
  }
  for (const t of ctx.store.coll(coreColl('base_service_template')).all()) {
    const linked = ((t.doc.linked_services as string[] | undefined) ?? []).filter((k) => !gone.has(k));
    t.doc.linked_services = linked;
    t.doc.total_linked_services = linked.length;
  }
  relinkEntities(ctx);
}

// ---------- entities ----------

function prepareEntity(ctx: Ctx, doc: Doc, prev: Doc | undefined, meta: Doc, _mode: WriteMode, body: Doc): void {
  for (const part of ['identifier', 'informational']) {
    const v = doc[part];
    if (v === undefined || v === null) {
      doc[part] = { fields: [], values: [] };
      continue;
    }
    if (!isPlainObject(v)) throw badRequest(`Field "${part}" must be an object {fields, values}`);
    const fields = stringList(v.fields ?? [], `${part}.fields`);
    let values = stringList(v.values ?? [], `${part}.values`);
    for (const f of fields) if (typeof doc[f] === 'string') doc[f] = [doc[f]];
    if (fields.length === 1 && doc[fields[0]] === undefined && values.length) doc[fields[0]] = [...values];
    const collected = fields.flatMap((f) => (Array.isArray(doc[f]) ? (doc[f] as unknown[]).map(String) : []));
    if (collected.length) values = [...new Set(collected)];
    doc[part] = { fields: [...fields], values };
  }
  doc._type = 'entity';
  doc.create_time = prev?.create_time ?? isoTimestamp();
  doc.create_by = prev?.create_by ?? ctx.user.name;
  doc.create_source = prev?.create_source ?? 'REST';
  doc.mod_by = ctx.user.name;
  doc.mod_time = microDateTime();
  if (doc.description === undefined) doc.description = '';
  arrayField(doc, 'entity_type_ids');
  flagField(doc, 'retirable', typeof prev?.retirable === 'number' ? prev.retirable : 0);
  doc.retired = typeof prev?.retired === 'number' ? prev.retired : 0;
  if (body.services !== undefined) {
    if (!Array.isArray(body.services)) throw badRequest('Field "services" must be an array of {_key, title}');
    meta.links = body.services.map((s) => {
      if (!isPlainObject(s) || typeof s._key !== 'string')
        throw badRequest('Every entry of "services" must be an object with a string _key');
      return { _key: s._key, title: typeof s.title === 'string' ? s.title : '' };
    });
    meta.noRelink = false;
  }
  doc.services = prev?.services ?? [];
}

function wildcard(pattern: string): RegExp {
  const escaped = pattern.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*');
  return new RegExp(`^${escaped}$`, 'i');
}

function ruleItemMatches(item: Doc, entity: Doc): boolean {
  const field = String(item.field ?? '');
  const type = String(item.field_type ?? 'alias');
  let values: string[] = [];
  if (type === 'title') values = [String(entity.title ?? '')];
  else if (type === 'entity_type') values = ((entity.entity_type_ids as unknown[]) ?? []).map(String);
  else {
    const v = entity[field];
    values = Array.isArray(v) ? v.map(String) : typeof v === 'string' ? [v] : [];
  }
  const patterns = String(item.value ?? '')
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)
    .map(wildcard);
  const hit = values.some((v) => patterns.some((p) => p.test(v)));
  return item.rule_type === 'not' ? !hit : hit;
}

function rulesMatch(rules: unknown, entity: Doc): boolean {
  if (!Array.isArray(rules)) return false;
  return rules.some((group) => {
    if (!isPlainObject(group) || !Array.isArray(group.rule_items) || group.rule_items.length === 0) return false;
    const items = group.rule_items.filter(isPlainObject);
    return group.rule_condition === 'OR' ? items.some((i) => ruleItemMatches(i, entity)) : items.every((i) => ruleItemMatches(i, entity));
  });
}

function linksOf(rec: Rec, services: Rec[]): Doc[] {
  if (rec.meta.noRelink) return [];
  if (rec.doc.retired === 1 && !rec.meta.retiredWithLinks) return [];
  const byKey = new Map(services.map((s) => [String(s.doc._key), s.doc]));
  const out = new Map<string, Doc>();
  for (const l of (rec.meta.links as Doc[] | undefined) ?? []) {
    const k = String(l._key);
    out.set(k, { _key: k, title: String(byKey.get(k)?.title ?? l.title ?? '') });
  }
  for (const s of services) {
    const k = String(s.doc._key);
    if (!out.has(k) && rulesMatch(s.doc.entity_rules, rec.doc)) out.set(k, { _key: k, title: String(s.doc.title ?? '') });
  }
  return [...out.values()];
}

/** Recomputes the services of the given entities (all when keys is absent). */
function relinkEntities(ctx: Ctx, keys?: string[]): void {
  const services = ctx.store
    .coll(coreColl('service'))
    .all()
    .sort((a, b) => a.seq - b.seq);
  const ents = ctx.store.coll(coreColl('entity'));
  const recs = keys ? keys.map((k) => ents.get(k)).filter((r): r is Rec => r !== undefined) : ents.all();
  for (const r of recs) r.doc.services = linksOf(r, services);
}

function entityKeys(ctx: Ctx): string[] {
  const body = objectBody(ctx);
  if (!Array.isArray(body.data) || body.data.some((k) => typeof k !== 'string')) {
    throw badRequest('Payload must be {"data": [<entity key>, ...]}');
  }
  return body.data as string[];
}

function setRetired(ctx: Ctx, rec: Rec, retired: number): void {
  rec.doc.retired = retired;
  rec.doc.mod_timestamp = isoTimestamp();
  rec.doc.mod_time = microDateTime();
  if (retired === 1) {
    rec.doc.retired_time = Math.floor(Date.now() / 1000);
    rec.meta.retiredWithLinks = ctx.bug('retire-keeps-links');
    rec.meta.noRelink = false;
  } else {
    delete rec.doc.retired_time;
    rec.meta.retiredWithLinks = false;
    rec.meta.noRelink = ctx.bug('restore-no-relink');
  }
  relinkEntities(ctx, [String(rec.doc._key)]);
}

function retire(ctx: Ctx, keys: string[]): Reply {
  requireWrite(ctx);
  const coll = ctx.store.coll(coreColl('entity'));
  const done: string[] = [];
  for (const k of keys) {
    const rec = coll.get(k);
    if (!rec || !canRead(ctx.user, rec.doc) || rec.doc.retired === 1) continue;
    setRetired(ctx, rec, 1);
    done.push(k);
  }
  return ok(done);
}

function restore(ctx: Ctx): Reply {
  requireWrite(ctx);
  const coll = ctx.store.coll(coreColl('entity'));
  const done: string[] = [];
  for (const k of entityKeys(ctx)) {
    const rec = coll.get(k);
    if (!rec || !canRead(ctx.user, rec.doc) || rec.doc.retired !== 1) continue;
    setRetired(ctx, rec, 0);
    done.push(k);
  }
  return ok(done);
}

function retirableEntities(ctx: Ctx): Rec[] {
  return ctx.store
    .coll(coreColl('entity'))
    .all()
    .sort((a, b) => a.seq - b.seq)
    .filter((r) => canRead(ctx.user, r.doc) && r.doc.retired !== 1 && r.doc.retirable === 1);
}

function countRetirable(ctx: Ctx): Reply {
  return ok(
    retirableEntities(ctx).map((r) => ({
      object_type: 'entity',
      title: r.doc.title,
      retirable: r.doc.retirable,
      sec_grp: r.doc.sec_grp,
      _key: r.doc._key,
      permissions: permissionsFor(ctx.user),
    })),
  );
}

function retireRetirable(ctx: Ctx): Reply {
  requireWrite(ctx);
  const recs = ctx.bug('retire-retirable-all')
    ? ctx.store
        .coll(coreColl('entity'))
        .all()
        .filter((r) => r.doc.retired !== 1)
    : retirableEntities(ctx);
  return retire(
    ctx,
    recs.map((r) => String(r.doc._key)),
  );
}

function aliasList(ctx: Ctx): Reply {
  const identifier = new Set<string>();
  const informational = new Set<string>();
  for (const d of ctx.store.coll(coreColl('entity')).docs()) {
    if (!canRead(ctx.user, d)) continue;
    for (const f of ((d.identifier as Doc)?.fields as string[] | undefined) ?? []) identifier.add(f);
    for (const f of ((d.informational as Doc)?.fields as string[] | undefined) ?? []) informational.add(f);
  }
  return ok({ identifier: [...identifier].sort(), informational: [...informational].sort() });
}

// ---------- service templates and templatize ----------

function prepareTemplate(doc: Doc, prev: Doc | undefined): void {
  arrayField(doc, 'entity_rules');
  const kpis = arrayField(doc, 'kpis');
  doc.kpis = kpis.map((k) => {
    if (!isPlainObject(k)) throw badRequest('Every KPI must be an object');
    return { ...k, _key: typeof k._key === 'string' && k._key ? k._key : hex40() };
  });
  const linked = (prev?.linked_services as string[] | undefined) ?? [];
  doc.linked_services = [...linked];
  doc.total_linked_services = linked.length;
  if (doc.description === undefined) doc.description = '';
  doc.mod_time = plainDateTime();
}

function templateKpi(kpi: Doc): Doc {
  const out: Doc = { ...templateKpiDefaults(), ...clone(kpi) };
  delete out._key;
  delete out.service_title;
  delete out.sec_grp;
  return out;
}

function templatize(ctx: Ctx, spec: KindSpec, key: string): Reply {
  const supported = spec.type === 'service' || spec.type === 'kpi_base_search';
  if ((!supported && !ctx.bug('templatize-any-type')) || (spec.type === 'kpi_base_search' && ctx.bug('templatize-no-kpi-base-search'))) {
    throw badRequest(`templatize is supported only for service and kpi_base_search, not for ${spec.type}`);
  }
  const doc = findReadable(ctx, spec, key).doc;
  if (spec.type !== 'service') {
    const out = clone(doc);
    for (const f of ['_key', '_user', '_owner', 'mod_source', 'mod_timestamp', 'mod_time', 'identifying_name', 'permissions'])
      delete out[f];
    out._version = SCHEMA_VERSION;
    return ok(out);
  }
  return ok({
    title: doc.title,
    description: doc.description ?? '',
    service_template_id: doc.base_service_template_id ?? '',
    sec_grp: doc.sec_grp,
    object_type: 'base_service_template',
    _version: SCHEMA_VERSION,
    enabled: typeof doc.enabled === 'number' ? doc.enabled : 1,
    services_depends_on: clone(doc.services_depends_on ?? []),
    tags: clone((doc.service_tags as Doc | undefined)?.tags ?? []),
    serviceTemplateId: [],
    entity_rules: clone(doc.entity_rules ?? []),
    kpis: ((doc.kpis as Doc[]) ?? []).filter((k) => k.type !== 'service_health').map(templateKpi),
  });
}

function linkedTemplate(ctx: Ctx, serviceKey: string): Reply {
  const svc = findReadable(ctx, SPECS.get('service')!, serviceKey).doc;
  return ok({ _key: typeof svc.base_service_template_id === 'string' ? svc.base_service_template_id : '' });
}

function linkTemplate(ctx: Ctx, serviceKey: string): Reply {
  requireWrite(ctx);
  if (ctx.user.readGroups !== '*' && !ctx.user.readGroups.has(DEFAULT_GROUP)) {
    throw forbidden('Linking a service to a template requires read access to the Global team');
  }
  const body = objectBody(ctx);
  if (typeof body._key !== 'string' || body._key === '') throw badRequest('Payload must be {"_key": <service template key>}');
  const svcRec = findReadable(ctx, SPECS.get('service')!, serviceKey);
  const tplRec = findReadable(ctx, SPECS.get('base_service_template')!, body._key);
  const svc = svcRec.doc;
  const tpl = tplRec.doc;
  const tplKey = String(tpl._key);
  const prevTpl = typeof svc.base_service_template_id === 'string' ? svc.base_service_template_id : '';
  if (prevTpl && prevTpl !== tplKey) {
    const old = ctx.store.coll(coreColl('base_service_template')).get(prevTpl);
    if (old) {
      old.doc.linked_services = ((old.doc.linked_services as string[]) ?? []).filter((k) => k !== serviceKey);
      old.doc.total_linked_services = (old.doc.linked_services as string[]).length;
    }
  }
  const rules = clone((tpl.entity_rules as unknown[]) ?? []);
  svc.entity_rules = ctx.bug('template-link-replaces-rules') ? rules : [...((svc.entity_rules as unknown[]) ?? []), ...rules];
  const kpis = (svc.kpis as Doc[]) ?? [];
  for (const k of (tpl.kpis as Doc[]) ?? []) {
    if (kpis.some((x) => x.base_service_template_id === tplKey && x.kpi_template_kpi_id === k._key)) continue;
    kpis.push({
      ...clone(k),
      _key: hex40(),
      base_service_template_id: tplKey,
      kpi_template_kpi_id: k._key,
      service_id: serviceKey,
      service_title: svc.title,
      sec_grp: svc.sec_grp,
      type: typeof k.type === 'string' ? k.type : 'kpis_primary',
    });
  }
  svc.kpis = kpis;
  svc.base_service_template_id = tplKey;
  svc.mod_timestamp = isoTimestamp();
  svc.mod_time = plainDateTime();
  const linked = (tpl.linked_services as string[]) ?? [];
  if (!linked.includes(serviceKey)) linked.push(serviceKey);
  tpl.linked_services = linked;
  tpl.total_linked_services = linked.length;
  relinkEntities(ctx);
  return ok({ _key: serviceKey });
}

// ---------- type registry ----------

function genericSpec(type: string, extra: Partial<KindSpec> = {}): KindSpec {
  return {
    type,
    coll: coreColl(type),
    required: NO_TITLE_TYPES.has(type) ? [] : ['title'],
    present: corePresent,
    ...extra,
  };
}

export const SPECS = new Map<string, KindSpec>();
for (const t of [...CORE_TYPES, ...UNUSED_TYPES]) SPECS.set(t, genericSpec(t));
SPECS.set('custom_threshold_windows', ctwSpec);
SPECS.set(
  'service',
  genericSpec('service', {
    prepare: (_ctx, doc, prev) => prepareService(doc, prev),
    afterWrite: (ctx) => relinkEntities(ctx),
    afterDelete: afterServiceDelete,
  }),
);
SPECS.set(
  'entity',
  genericSpec('entity', {
    prepare: prepareEntity,
    afterWrite: (ctx, keys) => relinkEntities(ctx, keys),
  }),
);
SPECS.set('base_service_template', genericSpec('base_service_template', { prepare: (_ctx, doc, prev) => prepareTemplate(doc, prev) }));
SPECS.set(
  'kpi_base_search',
  genericSpec('kpi_base_search', {
    prepare: (_ctx, doc) => {
      doc.metrics = arrayField(doc, 'metrics').map((m) => {
        if (!isPlainObject(m)) throw badRequest('Every metric must be an object');
        return { ...m, _key: typeof m._key === 'string' && m._key ? m._key : hex40().slice(0, 24) };
      });
    },
  }),
);
SPECS.set(
  'team',
  genericSpec('team', {
    prepare: (_ctx, doc) => {
      if (doc.description === undefined) doc.description = '';
      doc.sec_grp = DEFAULT_GROUP;
    },
  }),
);

// ---------- router ----------

const ENTITY_ACTIONS = new Set(['count_retirable', 'retire', 'restore', 'retire_retirable']);

export function handleCore(ctx: Ctx, seg: string[]): Reply {
  const [a, b, c] = seg;
  if (a === undefined) throw unknownPath();
  if (a === 'get_alias_list' && seg.length === 1) return byMethod(ctx, { GET: () => aliasList(ctx) });
  if (a === 'get_supported_object_types' && seg.length === 1) {
    return byMethod(ctx, { GET: () => ok([...CORE_TYPES, ...UNUSED_TYPES].sort()) });
  }
  const spec = SPECS.get(a);
  if (!spec) throw unknownPath(`Unsupported object type "${a}"`);
  if (seg.length === 1) {
    return byMethod(ctx, {
      GET: () => listObjects(ctx, spec),
      POST: () => createObject(ctx, spec),
      DELETE: () => deleteByFilter(ctx, spec),
    });
  }
  if (seg.length === 2) {
    if (b === 'count') return byMethod(ctx, { GET: () => countObjects(ctx, spec) });
    if (b === 'bulk_update') return byMethod(ctx, { POST: () => bulkUpdate(ctx, spec) });
    if (a === 'entity' && ENTITY_ACTIONS.has(b)) {
      if (b === 'count_retirable') return byMethod(ctx, { GET: () => countRetirable(ctx) });
      if (b === 'retire') return byMethod(ctx, { POST: () => retire(ctx, entityKeys(ctx)) });
      if (b === 'restore') return byMethod(ctx, { POST: () => restore(ctx) });
      return byMethod(ctx, { POST: () => retireRetirable(ctx) });
    }
    if (a === 'custom_threshold_windows' && CTW_ACTIONS.has(b) && b !== 'stop') return handleCtwAction(ctx, undefined, b);
    return byMethod(ctx, {
      GET: () => getObject(ctx, spec, b),
      POST: () => updateObject(ctx, spec, b),
      DELETE: () => deleteObject(ctx, spec, b),
    });
  }
  if (seg.length === 3) {
    if (c === 'templatize') return byMethod(ctx, { GET: () => templatize(ctx, spec, b) });
    if (a === 'service' && c === 'base_service_template') {
      return byMethod(ctx, { GET: () => linkedTemplate(ctx, b), POST: () => linkTemplate(ctx, b) });
    }
    if (a === 'custom_threshold_windows' && CTW_ACTIONS.has(c)) return handleCtwAction(ctx, b, c);
  }
  throw unknownPath();
}
