// Core interface (itoa_interface): object types, generic CRUD and the entity/service extras.
import {
  GLOBAL_TEAM,
  bad,
  notFound,
  forbidden,
  notAllowed,
  clone,
  isObj,
  isStr,
  isStrArray,
  newKey,
  boolParam,
  SCHEMA_VERSION,
} from './util.mjs';
import { Collection, db, publicCopy } from './store.mjs';
import { canRead, canWrite, requireWriter, requireReadTeam } from './auth.mjs';
import { EMPTY } from './http.mjs';
import { ctwRoutes } from './ctw.mjs';
import { libraryRoutes, authoringRoutes } from './contentpacks.mjs';

export const CORE_TYPES = [
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
export const SUPPORTED_TYPES = [...CORE_TYPES, 'entity_relationship', 'entity_relationship_rule'];

// ---- validation helpers ----------------------------------------------------------------------
function checkFieldsValues(v, name) {
  if (v === undefined) return;
  if (!isObj(v) || !isStrArray(v.fields ?? []) || !isStrArray(v.values ?? [])) {
    throw bad(`Field "${name}" must be an object {fields: [string], values: [string]}`);
  }
}
function checkTimeBlocks(spec, where) {
  if (spec === undefined || spec === null) return;
  if (!isObj(spec)) throw bad(`${where}: time_variate_thresholds_specification must be an object`);
  if (spec.policies !== undefined && !isObj(spec.policies)) throw bad(`${where}: policies must be an object`);
  if (spec.time_blocks !== undefined) {
    if (!Array.isArray(spec.time_blocks)) throw bad(`${where}: time_blocks must be an array`);
    for (const tb of spec.time_blocks) {
      if (!isObj(tb) || typeof tb.time_block_key !== 'string' || !/^\d\d-\d\d$/.test(tb.time_block_key)) {
        throw bad(`${where}: time_block_key must have the shape <two digits>-<two digits>`);
      }
    }
  }
  for (const [pk, p] of Object.entries(spec.policies || {})) {
    if (!isObj(p)) throw bad(`${where}: policy ${pk} must be an object`);
    if (Array.isArray(p.time_blocks))
      checkTimeBlocks({ time_blocks: p.time_blocks.filter((x) => isObj(x) && 'time_block_key' in x) }, where);
  }
}
const intFlag = (v, name) => {
  if (v === undefined) return undefined;
  if (v === true || v === 1 || v === '1') return 1;
  if (v === false || v === 0 || v === '0') return 0;
  throw bad(`Field "${name}" must be 1 or 0`);
};

function validateKpis(kpis, where) {
  if (kpis === undefined) return;
  if (!Array.isArray(kpis)) throw bad(`${where}: "kpis" must be an array`);
  kpis.forEach((k, i) => {
    if (!isObj(k)) throw bad(`${where}: KPI ${i} must be an object`);
    if (k.title !== undefined && typeof k.title !== 'string') throw bad(`${where}: KPI ${i} title must be a string`);
    if (k._key !== undefined && (typeof k._key !== 'string' || !k._key)) throw bad(`${where}: KPI ${i} _key must be a string`);
    checkTimeBlocks(k.time_variate_thresholds_specification, `${where}: KPI ${i}`);
  });
}

function normalizeKpis(obj) {
  const kpis = Array.isArray(obj.kpis) ? obj.kpis : [];
  const health = `SHKPI-${obj._key}`;
  for (const k of kpis) {
    if (!k._key) k._key = newKey();
    k.service_id = obj._key;
    k.service_title = obj.title;
    if (k.title === undefined) k.title = k._key;
  }
  if (!kpis.some((k) => k._key === health)) {
    kpis.unshift({
      _key: health,
      title: 'ServiceHealthScore',
      type: 'service_health',
      urgency: '11',
      search_type: 'adhoc',
      threshold_field: 'aggregate',
      service_id: obj._key,
      service_title: obj.title,
      unit: '',
      enabled: 1,
    });
  }
  obj.kpis = kpis;
}

// ---- collections ---------------------------------------------------------------------------------
new Collection({
  name: 'team',
  schemaFields: ['acl', 'roles', 'parents', 'children'],
  teamsOf: (o) => [o._key],
  writeTeamsOf: () => [GLOBAL_TEAM],
  undeletable: (o) => (o._key === GLOBAL_TEAM ? 'The Global team cannot be deleted' : null),
});

const entities = new Collection({
  name: 'entity',
  createTime: 'iso',
  modTime: 'space',
  creatorFields: true,
  extraServer: ['retired', '_type'],
  schemaFields: ['identifier', 'informational', 'services', 'retirable', 'entity_type_ids', 'entity_rules'],
  dynamicSchema: (old, body) => [
    ...(old.identifier?.fields || []),
    ...(old.informational?.fields || []),
    ...((isObj(body.identifier) && isStrArray(body.identifier.fields) && body.identifier.fields) || []),
    ...((isObj(body.informational) && isStrArray(body.informational.fields) && body.informational.fields) || []),
  ],
  validate(o) {
    checkFieldsValues(o.identifier, 'identifier');
    checkFieldsValues(o.informational, 'informational');
    for (const f of [...(o.identifier?.fields || []), ...(o.informational?.fields || [])]) {
      if (Object.hasOwn(o, f) && !isStrArray(o[f])) throw bad(`Alias/informational field "${f}" must be an array of strings`);
    }
    if (o.services !== undefined) {
      if (!Array.isArray(o.services)) throw bad('Field "services" must be an array of {_key, title}');
      for (const s of o.services) {
        const k = isObj(s) ? s._key : s;
        if (typeof k !== 'string' || !db.service.map.has(k))
          throw bad(`Unknown service "${typeof k === 'string' ? k : JSON.stringify(k)}" in services`);
      }
    }
    if (o.retirable !== undefined && o.retirable !== 0 && o.retirable !== 1) throw bad('Field "retirable" must be the integer 1 (or 0)');
  },
  normalize(o, _ctx, old) {
    if (Array.isArray(o.services)) {
      const seen = new Set();
      o.services = o.services
        .map((s) => (isObj(s) ? s._key : s))
        .filter((k) => !seen.has(k) && seen.add(k))
        .map((k) => ({ _key: k, title: db.service.map.get(k).title }));
    } else o.services = [];
    if (o.retirable === 0) delete o.retirable;
    if (old && old.retired === 1) o.retired = 1; // retirement changes only through retire/restore
  },
  stamp(o) {
    o._type = 'entity';
  },
});

const services = new Collection({
  name: 'service',
  extraServer: ['base_service_template_id'],
  schemaFields: [
    'kpis',
    'entity_rules',
    'enabled',
    'services_depends_on',
    'service_tags',
    'is_healthscore_calculate_by_entity_enabled',
    'backfill_enabled',
    'algorithms',
    'tags',
    'isFirstTimeSaveDone',
    'serviceTemplateId',
  ],
  validate(o) {
    validateKpis(o.kpis, 'service');
    if (o.entity_rules !== undefined && !Array.isArray(o.entity_rules)) throw bad('Field "entity_rules" must be an array');
    if (o.services_depends_on !== undefined && !Array.isArray(o.services_depends_on))
      throw bad('Field "services_depends_on" must be an array');
    intFlag(o.enabled, 'enabled');
  },
  normalize(o, _ctx, old) {
    if (!o._key) o._key = newKey();
    if (old && old.base_service_template_id !== undefined) o.base_service_template_id = old.base_service_template_id;
    const e = intFlag(o.enabled, 'enabled');
    o.enabled = e === undefined ? 0 : e;
    if (!Array.isArray(o.entity_rules)) o.entity_rules = [];
    if (!Array.isArray(o.services_depends_on)) o.services_depends_on = [];
    normalizeKpis(o);
  },
  afterWrite(o) {
    for (const e of db.entity.all()) {
      for (const s of e.services || []) if (s._key === o._key) s.title = o.title;
      for (const s of e.__retired_services || []) if (s._key === o._key) s.title = o.title;
    }
  },
  afterDelete(o) {
    for (const e of db.entity.all()) {
      if (Array.isArray(e.services)) e.services = e.services.filter((s) => s._key !== o._key);
      if (Array.isArray(e.__retired_services)) e.__retired_services = e.__retired_services.filter((s) => s._key !== o._key);
    }
    for (const t of db.base_service_template.all()) {
      if (Array.isArray(t.linked_services)) t.linked_services = t.linked_services.filter((k) => k !== o._key);
    }
  },
});

new Collection({
  name: 'base_service_template',
  extraServer: ['linked_services'],
  schemaFields: ['kpis', 'entity_rules', 'service_template_id', 'tags', 'serviceTemplateId'],
  validate(o) {
    validateKpis(o.kpis, 'base_service_template');
    if (o.entity_rules !== undefined && !Array.isArray(o.entity_rules)) throw bad('Field "entity_rules" must be an array');
  },
  normalize(o, _ctx, old) {
    if (!Array.isArray(o.entity_rules)) o.entity_rules = [];
    if (!Array.isArray(o.kpis)) o.kpis = [];
    if (old && Array.isArray(old.linked_services)) o.linked_services = [...old.linked_services];
    if (!Array.isArray(o.linked_services)) o.linked_services = [];
    for (const k of o.kpis) if (!k._key) k._key = newKey();
  },
});

new Collection({
  name: 'kpi_base_search',
  schemaFields: [
    'base_search',
    'metrics',
    'entity_id_fields',
    'entity_breakdown_id_fields',
    'is_entity_breakdown',
    'alert_period',
    'alert_lag',
    'search_alert_earliest',
    'is_service_entity_filter',
    'entity_alias_filtering_fields',
    'metric_qualifier',
    'actions',
    'objectType',
    'source_itsi_da',
  ],
  validate(o) {
    if (o.metrics !== undefined && (!Array.isArray(o.metrics) || !o.metrics.every(isObj)))
      throw bad('Field "metrics" must be an array of objects');
    if (o.base_search !== undefined && !isStr(o.base_search)) throw bad('Field "base_search" must be a string');
  },
  normalize(o) {
    if (!Array.isArray(o.metrics)) o.metrics = [];
    for (const m of o.metrics) if (!m._key) m._key = newKey();
  },
});

new Collection({
  name: 'kpi_threshold_template',
  schemaFields: [
    'adaptive_thresholding_training_window',
    'adaptive_thresholds_is_enabled',
    'time_variate_thresholds',
    'time_variate_thresholds_specification',
    'objectType',
  ],
  validate(o) {
    checkTimeBlocks(o.time_variate_thresholds_specification, 'kpi_threshold_template');
  },
});

for (const [name, fields] of Object.entries({
  deep_dive: ['lane_settings_collection', 'focus_id', 'is_named', 'earliest_time', 'latest_time'],
  glass_table: ['content', 'svg_content', 'layout', 'latest', 'earliest', 'gt_version'],
  home_view: ['service_kpi_pairs', 'layout', 'is_default'],
  kpi_template: ['kpis'],
  event_management_state: ['viewingOption', 'columnsToDisplay', 'filter', 'view_type'],
  entity_filter_rule: ['entity_rules'],
  entity_type: ['dashboard_drilldowns', 'data_drilldowns', 'vital_metrics'],
  entity_relationship: ['subject_identifier', 'object_identifier', 'predicate'],
  entity_relationship_rule: ['subject_type', 'object_type_name', 'predicate', 'rule_search'],
})) {
  new Collection({ name, schemaFields: fields });
}

// ---- extras ------------------------------------------------------------------------------------
function aliasList(ctx) {
  const id = new Set(),
    info = new Set();
  for (const e of entities.all()) {
    if (!entities.readable(ctx, e)) continue;
    for (const f of e.identifier?.fields || []) id.add(f);
    for (const f of e.informational?.fields || []) info.add(f);
  }
  const byteSort = (a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b));
  return { identifier: [...id].sort(byteSort), informational: [...info].sort(byteSort) };
}

function permissionsFor(ctx, team) {
  const r = canRead(ctx.user, team),
    w = canWrite(ctx.user, team);
  return { user: ctx.user.name, group: { read: r, write: w, delete: w }, read: r, write: w, delete: w };
}

function entityKeysPayload(body) {
  if (!isObj(body) || !Array.isArray(body.data) || !body.data.every((k) => typeof k === 'string')) {
    throw bad('Payload must be {"data": [<entity key>, ...]}');
  }
  return [...new Set(body.data)];
}

function retireOne(ctx, e) {
  const cand = clone(e);
  cand.__retired_services = clone(e.services || []);
  if (!ctx.bug('retire_keeps_links')) cand.services = [];
  delete cand.retirable;
  cand.retired = 1;
  entities.stamp(ctx, cand, e);
  entities.map.set(cand._key, cand);
}

function retire(ctx, body) {
  requireWriter(ctx.user);
  const keys = entityKeysPayload(body);
  const targets = [];
  for (const k of keys) {
    const e = entities.raw(k);
    if (!e) continue; // unknown keys are skipped
    if (!entities.readable(ctx, e)) throw forbidden(`User ${ctx.user.name} cannot read entity "${k}"`);
    entities.assertWritable(ctx, e);
    if (e.retired === 1) continue;
    targets.push(e);
  }
  for (const e of targets) retireOne(ctx, e);
  return targets.map((e) => e._key);
}

function restore(ctx, body) {
  requireWriter(ctx.user);
  const keys = entityKeysPayload(body);
  const targets = [];
  for (const k of keys) {
    const e = entities.raw(k);
    if (!e) continue;
    if (!entities.readable(ctx, e)) throw forbidden(`User ${ctx.user.name} cannot read entity "${k}"`);
    entities.assertWritable(ctx, e);
    if (e.retired !== 1) continue;
    targets.push(e);
  }
  for (const e of targets) {
    const cand = clone(e);
    const links = (e.__retired_services || [])
      .filter((s) => services.map.has(s._key))
      .map((s) => ({ _key: s._key, title: services.map.get(s._key).title }));
    const have = new Set((cand.services || []).map((s) => s._key));
    cand.services = [...(cand.services || []), ...links.filter((s) => !have.has(s._key))];
    delete cand.__retired_services;
    delete cand.retired;
    entities.stamp(ctx, cand, e);
    delete cand.__retired_services;
    entities.map.set(cand._key, cand);
  }
  return targets.map((e) => e._key);
}

function retireRetirable(ctx) {
  requireWriter(ctx.user);
  const targets = entities
    .all()
    .filter((e) => e.retirable === 1 && e.retired !== 1 && entities.readable(ctx, e) && entities.writable(ctx, e));
  for (const e of targets) retireOne(ctx, e);
  return targets.map((e) => e._key);
}

function countRetirable(ctx) {
  return entities
    .all()
    .filter((e) => e.retirable === 1 && e.retired !== 1 && entities.readable(ctx, e))
    .sort((a, b) => Buffer.compare(Buffer.from(a._key), Buffer.from(b._key)))
    .map((e) => ({
      object_type: 'entity',
      title: e.title,
      retirable: 1,
      sec_grp: e.sec_grp,
      _key: e._key,
      permissions: permissionsFor(ctx, e.sec_grp),
    }));
}

function kpiTemplate(k) {
  const thr = (t) =>
    isObj(t)
      ? clone(t)
      : {
          isMinStatic: false,
          isMaxStatic: false,
          gaugeMin: 0,
          gaugeMax: 100,
          renderBoundaryMin: 0,
          renderBoundaryMax: 100,
          baseSeverityValue: 2,
          metricField: '',
          search: '',
          baseSeverityLabel: 'normal',
          baseSeverityColor: '#99D18B',
          baseSeverityColorLight: '#DCEFD7',
          thresholdLevels: [],
        };
  const str = (v, d = '') => (v === undefined || v === null ? d : String(v));
  return {
    title: str(k.title),
    service_id: '',
    type: str(k.type, 'kpis_primary'),
    urgency: str(k.urgency, '5'),
    target: str(k.target),
    search_type: str(k.search_type, 'adhoc'),
    threshold_field: str(k.threshold_field),
    kpi_base_search: str(k.base_search_id ?? k.kpi_base_search),
    alert_on: str(k.alert_on, 'both'),
    alert_lag: str(k.alert_lag, '30'),
    search_alert_earliest: str(k.search_alert_earliest, '5'),
    entity_statop: str(k.entity_statop, 'avg'),
    entity_id_fields: str(k.entity_id_fields),
    tz_offset: k.tz_offset ?? null,
    entity_alias_filtering_fields: k.entity_alias_filtering_fields ?? null,
    backfill_earliest_time: str(k.backfill_earliest_time, '-7d'),
    adaptive_thresholding_training_window: str(k.adaptive_thresholding_training_window, '-7d'),
    anomaly_detection_training_window: str(k.anomaly_detection_training_window, '-7d'),
    gap_severity_color: str(k.gap_severity_color, '#CCCCCC'),
    gap_severity_color_light: str(k.gap_severity_color_light, '#EEEEEE'),
    time_variate_thresholds: Boolean(k.time_variate_thresholds),
    is_entity_breakdown: Boolean(k.is_entity_breakdown),
    datamodel_filter: Array.isArray(k.datamodel_filter) ? clone(k.datamodel_filter) : [],
    datamodel: isObj(k.datamodel) ? clone(k.datamodel) : { object: '', datamodel: '', field: '', owner_field: '' },
    entity_thresholds: thr(k.entity_thresholds),
    aggregate_thresholds: thr(k.aggregate_thresholds),
    time_variate_thresholds_specification: isObj(k.time_variate_thresholds_specification)
      ? clone(k.time_variate_thresholds_specification)
      : { policies: {}, time_blocks: [] },
  };
}

function templatize(ctx, type, key) {
  if (type !== 'service' && type !== 'kpi_base_search') throw bad('templatize is supported only for service and kpi_base_search');
  const o = db[type].get(ctx, key);
  if (type === 'service') {
    return {
      title: o.title,
      description: o.description || '',
      service_template_id: '',
      sec_grp: o.sec_grp,
      object_type: 'base_service_template',
      _version: SCHEMA_VERSION,
      enabled: o.enabled ? 1 : 0,
      services_depends_on: clone(o.services_depends_on || []),
      tags: clone(o.service_tags?.tags || o.tags || []),
      serviceTemplateId: [],
      entity_rules: clone(o.entity_rules || []),
      kpis: (o.kpis || []).filter((k) => !String(k._key).startsWith('SHKPI-')).map(kpiTemplate),
    };
  }
  const { _key, _etag, _owner, _user, mod_time, mod_timestamp, mod_source, create_time, identifying_name, ...rest } = publicCopy(o);
  rest._version = SCHEMA_VERSION;
  rest.metrics = (rest.metrics || []).map(({ _key: mk, ...m }) => m);
  return rest;
}

function templateLinkGet(ctx, key) {
  const s = services.get(ctx, key);
  return { _key: s.base_service_template_id ?? null };
}

function templateLinkPost(ctx, key, body) {
  requireWriter(ctx.user);
  if (!isObj(body) || typeof body._key !== 'string' || !body._key) throw bad('Payload must be {"_key": <template key>}');
  const s = services.get(ctx, key);
  services.assertWritable(ctx, s);
  requireReadTeam(ctx.user, GLOBAL_TEAM);
  const tpl = db.base_service_template.get(ctx, body._key);
  const cand = clone(s);
  const rules = clone(tpl.entity_rules || []);
  cand.entity_rules = ctx.bug('template_link_replace') ? rules : [...(cand.entity_rules || []), ...rules];
  const previous = s.base_service_template_id;
  cand.base_service_template_id = tpl._key;
  services.stamp(ctx, cand, s);
  services.map.set(cand._key, cand);
  if (previous && previous !== tpl._key && db.base_service_template.map.has(previous)) {
    const p = db.base_service_template.map.get(previous);
    p.linked_services = (p.linked_services || []).filter((k) => k !== s._key);
  }
  if (!tpl.linked_services.includes(s._key)) tpl.linked_services.push(s._key);
  return { _key: cand._key };
}

const RESERVED = {
  count: ['GET'],
  bulk_update: ['POST'],
};

// segs: path segments after "itoa_interface" (and optional vLatest)
export function coreRoutes(ctx, method, segs, q) {
  const [a, b, c, ..._rest] = segs;
  if (a === 'get_alias_list' && segs.length === 1) {
    if (method !== 'GET') throw notAllowed(['GET']);
    return aliasList(ctx);
  }
  if (a === 'get_supported_object_types' && segs.length === 1) {
    if (method !== 'GET') throw notAllowed(['GET']);
    return [...SUPPORTED_TYPES];
  }
  if (a === 'content_pack') return libraryRoutes(ctx, method, segs.slice(1), q);
  if (a === 'content_pack_authorship') {
    if (b !== 'content_pack') throw notFound(`Unknown path content_pack_authorship/${b || ''}`);
    return authoringRoutes(ctx, method, segs.slice(2), q);
  }
  if (!SUPPORTED_TYPES.includes(a)) throw notFound(`Unknown object type "${a || ''}"`);
  const coll = db[a];
  if (a === 'custom_threshold_windows') {
    const r = ctwRoutes(ctx, method, segs.slice(1), q);
    if (r !== undefined) return r;
  }
  if (a === 'entity' && segs.length === 2 && ['count_retirable', 'retire', 'restore', 'retire_retirable'].includes(b)) {
    if (b === 'count_retirable') {
      if (method !== 'GET') throw notAllowed(['GET']);
      return countRetirable(ctx);
    }
    if (method !== 'POST') throw notAllowed(['POST']);
    if (b === 'retire') return retire(ctx, ctx.json());
    if (b === 'restore') return restore(ctx, ctx.json());
    return retireRetirable(ctx);
  }
  if (segs.length === 1) {
    if (method === 'GET') return coll.list(ctx, q);
    if (method === 'POST') return coll.create(ctx, ctx.json());
    if (method === 'DELETE') {
      coll.bulkRemove(ctx, q);
      return EMPTY;
    }
    throw notAllowed(['GET', 'POST', 'DELETE']);
  }
  if (segs.length === 2 && Object.hasOwn(RESERVED, b)) {
    if (!RESERVED[b].includes(method)) throw notAllowed(RESERVED[b]);
    if (b === 'count') return coll.count(ctx, q);
    return coll.bulkUpdate(ctx, ctx.json(), boolParam(q, 'is_partial_data', false));
  }
  if (segs.length === 2) {
    if (method === 'GET') return coll.out(ctx, coll.get(ctx, b));
    if (method === 'POST') return coll.update(ctx, b, ctx.json(), boolParam(q, 'is_partial_data', false));
    if (method === 'DELETE') {
      coll.remove(ctx, b);
      return EMPTY;
    }
    throw notAllowed(['GET', 'POST', 'DELETE']);
  }
  if (segs.length === 3 && c === 'templatize') {
    if (method !== 'GET') throw notAllowed(['GET']);
    return templatize(ctx, a, b);
  }
  if (segs.length === 3 && a === 'service' && c === 'base_service_template') {
    if (method === 'GET') return templateLinkGet(ctx, b);
    if (method === 'POST') return templateLinkPost(ctx, b, ctx.json());
    throw notAllowed(['GET', 'POST']);
  }
  throw notFound(`Unknown path ${segs.join('/')}`);
}
