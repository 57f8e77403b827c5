// Core objects interface (itoa_interface).
import {
  bad,
  notFound,
  forbidden,
  methodNotAllowed,
  GLOBAL,
  isPlainObject,
  clone,
  newKpiKey,
  newUuid,
  nowMicros,
  isoWithOffset,
  toEpochNumber,
  truthyFlag,
  SCHEMA_VERSION,
  bool01Param,
} from './util.mjs';
import { canRead, canWrite, isAdmin, permissionsFor } from './access.mjs';
import { core, ALL_CORE_TYPES, stamp, metaOf } from './store.mjs';
import { hooksFor, listObjects, getObject, countObjects, createObject, updateObject, deleteOne, deleteMany, writeObject } from './kv.mjs';
import { bug } from './bugs.mjs';
import * as ctw from './ctw.mjs';

const ENTITY_SCHEMA = [
  'identifier',
  'informational',
  'services',
  'retirable',
  'entity_type_ids',
  'create_by',
  'mod_by',
  'create_source',
  'create_time',
  '_type',
];
const SERVICE_SCHEMA = [
  'enabled',
  'kpis',
  'entity_rules',
  'services_depends_on',
  'service_tags',
  'tags',
  'base_service_template_id',
  'backfill_enabled',
  'is_healthscore_calculate_by_entity_enabled',
  'algorithms',
  'isFirstTimeSaveDone',
  'permissions',
];

function aliasFieldNames(doc) {
  const out = [];
  for (const part of ['identifier', 'informational']) {
    const o = doc?.[part];
    if (isPlainObject(o) && Array.isArray(o.fields)) for (const f of o.fields) if (typeof f === 'string') out.push(f);
  }
  return out;
}
function checkFieldsValues(doc, part) {
  if (!(part in doc)) return;
  const o = doc[part];
  if (!isPlainObject(o)) throw bad(`Field '${part}' must be an object {fields: [string], values: [string]}`);
  for (const k of ['fields', 'values']) {
    if (o[k] === undefined) o[k] = [];
    if (!Array.isArray(o[k]) || !o[k].every((s) => typeof s === 'string')) {
      throw bad(`Field '${part}.${k}' must be an array of strings`);
    }
  }
}
const toStrArray = (v) =>
  (Array.isArray(v) ? v : [v])
    .filter((x) => x !== null && x !== undefined)
    .map((x) => (typeof x === 'string' ? x : typeof x === 'object' ? JSON.stringify(x) : String(x)));

export const coreHooks = {
  team: {
    schema: ['acl'],
    readable: (doc, u) => canRead(u, doc._key),
    writable: (_doc, u) => canWrite(u, GLOBAL),
    normalize(doc) {
      doc.sec_grp = GLOBAL;
    },
    uniqueTitle: true,
    beforeDelete(doc) {
      if (doc._key === GLOBAL) throw forbidden('The Global team cannot be deleted');
    },
  },
  entity: {
    schema: ENTITY_SCHEMA,
    dynamicSchema: (existing, incoming) => [...aliasFieldNames(existing), ...aliasFieldNames(incoming)],
    normalize(doc, ctx, existing) {
      checkFieldsValues(doc, 'identifier');
      checkFieldsValues(doc, 'informational');
      // alias and informational fields: one array of strings per field name
      for (const part of ['identifier', 'informational']) {
        if (!doc[part]) continue;
        const given = doc[part].values;
        const vals = new Set();
        for (const f of doc[part].fields) {
          if (f in doc && doc[f] !== null) doc[f] = toStrArray(doc[f]);
          else doc[f] = doc[part].fields.length === 1 ? [...given] : [];
          for (const v of doc[f]) vals.add(v);
        }
        doc[part].values = vals.size ? [...vals] : [...given];
      }
      if ('services' in doc) {
        if (!Array.isArray(doc.services)) throw bad("Field 'services' must be an array of {_key, title}");
        doc.services = doc.services.map((s) => {
          const k = typeof s === 'string' ? s : isPlainObject(s) ? s._key : undefined;
          if (typeof k !== 'string') throw bad("Each entry of 'services' needs a string _key");
          return { _key: k };
        });
      }
      if ('retirable' in doc) {
        if (truthyFlag(doc.retirable)) doc.retirable = 1;
        else delete doc.retirable;
      }
      if (existing && existing.retired === 1) {
        doc.retired = 1;
        doc.services = [];
      } else delete doc.retired;
      doc._type = 'entity';
      if (!existing) {
        doc.create_time = isoWithOffset(nowMicros());
        doc.create_by = ctx.user.name;
        doc.create_source = 'REST';
      }
      doc.mod_by = ctx.user.name;
    },
    view(doc) {
      const v = clone(doc);
      v.services = (doc.services || [])
        .filter((s) => core.service.has(s._key))
        .map((s) => ({ _key: s._key, title: core.service.get(s._key).title }));
      return v;
    },
    afterDelete(doc) {
      metaOf(doc._key).retiredLinks = undefined;
    },
  },
  service: {
    schema: SERVICE_SCHEMA,
    uniqueTitle: true,
    normalize(doc) {
      if ('enabled' in doc) {
        if (doc.enabled === true || doc.enabled === '1') doc.enabled = 1;
        else if (doc.enabled === false || doc.enabled === '0') doc.enabled = 0;
      }
      if ('kpis' in doc) {
        if (!Array.isArray(doc.kpis) || !doc.kpis.every(isPlainObject)) throw bad("Field 'kpis' must be an array of KPI objects");
        for (const k of doc.kpis) {
          if (typeof k._key !== 'string' || !k._key) k._key = newKpiKey();
          k.service_id = doc._key;
          if (typeof doc.title === 'string') k.service_title = doc.title;
        }
      }
      if ('entity_rules' in doc && !Array.isArray(doc.entity_rules)) throw bad("Field 'entity_rules' must be an array");
    },
    afterDelete(doc) {
      ctw.unlinkService(doc._key);
    },
  },
  base_service_template: { schema: ['kpis', 'entity_rules', 'linked_services', 'total_linked_services'] },
  kpi_base_search: {
    schema: [
      'base_search',
      'metrics',
      'alert_lag',
      'alert_period',
      'entity_id_fields',
      'entity_breakdown_id_fields',
      'entity_alias_filtering_fields',
      'is_entity_breakdown',
      'is_service_entity_filter',
      'metric_qualifier',
      'search_alert_earliest',
      'actions',
      'objectType',
    ],
  },
  kpi_threshold_template: {
    schema: [
      'adaptive_thresholding_training_window',
      'adaptive_thresholds_is_enabled',
      'time_variate_thresholds',
      'time_variate_thresholds_specification',
      'objectType',
    ],
  },
  custom_threshold_windows: ctw.hooks,
};

const hooks = (t) => hooksFor(coreHooks, t);

// ---- entity endpoints ----------------------------------------------------------------------------
function keysFromData(body) {
  if (!isPlainObject(body) || !('data' in body)) throw bad('Payload must be {data: [<entity key>, ...]}');
  const d = typeof body.data === 'string' ? [body.data] : body.data;
  if (!Array.isArray(d) || !d.every((k) => typeof k === 'string')) throw bad("'data' must be an array of entity keys");
  return [...new Set(d)];
}
function retireEntity(e, ctx) {
  const m = metaOf(e._key);
  if (e.retired !== 1) {
    if (!bug('retire_keeps_links')) {
      m.retiredLinks = (e.services || []).map((s) => ({ _key: s._key }));
      e.services = [];
    }
    e.retired = 1;
    stamp(e, ctx, { keepVersion: true });
    core.entity.put(e._key, e);
  }
}
function writableEntity(key, ctx) {
  const e = core.entity.get(key);
  if (!e || !canRead(ctx.user, e.sec_grp) || !canWrite(ctx.user, e.sec_grp)) return null;
  return e;
}
function retire(ctx, body) {
  const keys = keysFromData(body);
  const out = [];
  for (const k of keys) {
    const e = writableEntity(k, ctx);
    if (!e) continue;
    retireEntity(e, ctx);
    out.push(k);
  }
  return out;
}
function restore(ctx, body) {
  const keys = keysFromData(body);
  const out = [];
  for (const k of keys) {
    const e = writableEntity(k, ctx);
    if (!e) continue;
    if (e.retired === 1) {
      const m = metaOf(k);
      const links = (m.retiredLinks || []).filter((s) => core.service.has(s._key));
      const have = new Set((e.services || []).map((s) => s._key));
      e.services = [...(e.services || []), ...links.filter((s) => !have.has(s._key))];
      m.retiredLinks = undefined;
      delete e.retired;
      stamp(e, ctx, { keepVersion: true });
      core.entity.put(k, e);
    }
    out.push(k);
  }
  // key(s): a single key is answered as a bare string, several as an array
  return out.length === 1 ? out[0] : out;
}
function retirableEntities(ctx) {
  return core.entity.all().filter((e) => e.retirable === 1 && e.retired !== 1 && canRead(ctx.user, e.sec_grp));
}
function countRetirable(ctx) {
  return retirableEntities(ctx).map((e) => ({
    object_type: 'entity',
    title: e.title,
    retirable: 1,
    sec_grp: e.sec_grp,
    _key: e._key,
    permissions: permissionsFor(ctx.user, e.sec_grp),
  }));
}
function retireRetirable(ctx) {
  const out = [];
  for (const e of retirableEntities(ctx)) {
    if (!canWrite(ctx.user, e.sec_grp)) continue;
    retireEntity(e, ctx);
    out.push(e._key);
  }
  return out;
}

function aliasList(ctx) {
  const id = [],
    inf = [];
  for (const e of [...core.entity.all()].reverse()) {
    if (!canRead(ctx.user, e.sec_grp)) continue;
    for (const [part, arr] of [
      ['identifier', id],
      ['informational', inf],
    ]) {
      const o = e[part];
      if (isPlainObject(o) && Array.isArray(o.fields)) for (const f of o.fields) if (!arr.includes(f)) arr.push(f);
    }
  }
  return { identifier: id, informational: inf };
}

// ---- templatize ----------------------------------------------------------------------------------
const STR_KPI = [
  'title',
  'service_id',
  'type',
  'urgency',
  'target',
  'search_type',
  'threshold_field',
  'kpi_base_search',
  'alert_on',
  'alert_lag',
  'search_alert_earliest',
  'entity_statop',
  'entity_id_fields',
];
const NUM_TH = ['gaugeMin', 'gaugeMax', 'renderBoundaryMin', 'renderBoundaryMax', 'baseSeverityValue'];
const STR_TH = ['metricField', 'search', 'baseSeverityLabel', 'baseSeverityColor', 'baseSeverityColorLight'];
const SEV = { critical: 6, high: 5, medium: 4, low: 3, normal: 2, info: 1 };
const SEVCOL = {
  critical: ['#B50101', '#E5A6A6'],
  high: ['#F26A35', '#FBCBB9'],
  medium: ['#FCB64E', '#FEE6C1'],
  low: ['#FFE98C', '#FFF4C5'],
  normal: ['#99D18B', '#DCEFD7'],
  info: ['#AED3E5', '#E3F0F6'],
};
const numOr = (v, d) => (typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' && !Number.isNaN(Number(v)) ? Number(v) : d);
function thresholds(t) {
  const o = isPlainObject(t) ? clone(t) : {};
  o.isMinStatic = Boolean(o.isMinStatic);
  o.isMaxStatic = Boolean(o.isMaxStatic);
  const lbl = typeof o.baseSeverityLabel === 'string' && SEV[o.baseSeverityLabel] ? o.baseSeverityLabel : 'normal';
  o.baseSeverityLabel = lbl;
  for (const k of NUM_TH) o[k] = numOr(o[k], k === 'baseSeverityValue' ? SEV[lbl] : k.endsWith('Max') ? 100 : 0);
  if (typeof o.baseSeverityColor !== 'string') o.baseSeverityColor = SEVCOL[lbl][0];
  if (typeof o.baseSeverityColorLight !== 'string') o.baseSeverityColorLight = SEVCOL[lbl][1];
  for (const k of STR_TH) if (typeof o[k] !== 'string') o[k] = o[k] === undefined || o[k] === null ? '' : String(o[k]);
  o.thresholdLevels = (Array.isArray(o.thresholdLevels) ? o.thresholdLevels : []).filter(isPlainObject).map((l) => {
    const lab = SEV[l.severityLabel] ? l.severityLabel : 'normal';
    return {
      ...l,
      severityValue: numOr(l.severityValue, SEV[lab]),
      thresholdValue: numOr(l.thresholdValue, 0),
      severityLabel: lab,
      severityColor: typeof l.severityColor === 'string' ? l.severityColor : SEVCOL[lab][0],
      severityColorLight: typeof l.severityColorLight === 'string' ? l.severityColorLight : SEVCOL[lab][1],
    };
  });
  return o;
}
function templKpi(k, serviceId) {
  const o = clone(k);
  delete o._key;
  delete o._owner;
  delete o.sec_grp;
  delete o.service_title;
  o.service_id = serviceId;
  for (const f of STR_KPI) o[f] = o[f] === undefined || o[f] === null ? '' : typeof o[f] === 'string' ? o[f] : String(o[f]);
  o.tz_offset = o.tz_offset === undefined ? null : o.tz_offset;
  o.entity_alias_filtering_fields =
    o.entity_alias_filtering_fields === undefined || o.entity_alias_filtering_fields === '' ? null : o.entity_alias_filtering_fields;
  for (const f of ['backfill_earliest_time', 'adaptive_thresholding_training_window', 'anomaly_detection_training_window']) {
    if (typeof o[f] !== 'string' || !/^-\d+[smhdw]$/.test(o[f])) o[f] = '-7d';
  }
  if (typeof o.gap_severity_color !== 'string') o.gap_severity_color = '#CCCCCC';
  if (typeof o.gap_severity_color_light !== 'string') o.gap_severity_color_light = '#EEEEEE';
  o.time_variate_thresholds = truthyFlag(o.time_variate_thresholds);
  o.is_entity_breakdown = truthyFlag(o.is_entity_breakdown);
  o.datamodel_filter = Array.isArray(o.datamodel_filter) ? o.datamodel_filter : [];
  const dm = isPlainObject(o.datamodel) ? o.datamodel : {};
  o.datamodel = { object: dm.object ?? '', datamodel: dm.datamodel ?? '', field: dm.field ?? '', owner_field: dm.owner_field ?? '' };
  o.entity_thresholds = thresholds(o.entity_thresholds);
  if ('aggregate_thresholds' in o) o.aggregate_thresholds = thresholds(o.aggregate_thresholds);
  const tv = isPlainObject(o.time_variate_thresholds_specification) ? o.time_variate_thresholds_specification : {};
  const policies = {};
  for (const [pk, p] of Object.entries(isPlainObject(tv.policies) ? tv.policies : {})) {
    if (!isPlainObject(p)) continue;
    policies[pk] = {
      ...p,
      title: typeof p.title === 'string' ? p.title : pk,
      aggregate_thresholds: thresholds(p.aggregate_thresholds),
      entity_thresholds: thresholds(p.entity_thresholds),
      policy_type: typeof p.policy_type === 'string' ? p.policy_type : 'static',
    };
  }
  if (!Object.keys(policies).length) {
    policies.default_policy = {
      title: 'Default',
      aggregate_thresholds: thresholds({}),
      entity_thresholds: thresholds({}),
      policy_type: 'static',
    };
  }
  const blocks = (Array.isArray(tv.time_blocks) ? tv.time_blocks : []).filter(
    (b) =>
      isPlainObject(b) && typeof b.policy_key === 'string' && typeof b.time_block_key === 'string' && /^\d\d-\d\d$/.test(b.time_block_key),
  );
  o.time_variate_thresholds_specification = {
    policies,
    time_blocks: blocks.length
      ? blocks.map((b) => ({ policy_key: b.policy_key, time_block_key: b.time_block_key }))
      : [{ policy_key: Object.keys(policies)[0], time_block_key: '00-00' }],
  };
  return o;
}
function templatize(type, doc) {
  const base = {
    title: doc.title,
    service_template_id: '',
    sec_grp: doc.sec_grp || GLOBAL,
    object_type: 'base_service_template',
    _version: SCHEMA_VERSION,
    enabled: 0,
    services_depends_on: [],
    tags: [],
    serviceTemplateId: [],
    kpis: [],
  };
  if (type === 'service') {
    base.enabled = truthyFlag(doc.enabled) ? 1 : 0;
    base.services_depends_on = Array.isArray(doc.services_depends_on) ? clone(doc.services_depends_on) : [];
    base.tags = Array.isArray(doc.tags) ? clone(doc.tags) : Array.isArray(doc.service_tags?.tags) ? clone(doc.service_tags.tags) : [];
    base.description = typeof doc.description === 'string' ? doc.description : '';
    base.entity_rules = Array.isArray(doc.entity_rules) ? clone(doc.entity_rules) : [];
    base.kpis = (doc.kpis || []).map((k) => templKpi(k, doc._key));
  } else {
    base.kpis = (Array.isArray(doc.metrics) ? doc.metrics : []).filter(isPlainObject).map((m) =>
      templKpi(
        {
          ...m,
          title: m.title,
          type: 'kpis_primary',
          search_type: 'shared_base',
          kpi_base_search: doc._key,
          alert_lag: doc.alert_lag,
          search_alert_earliest: doc.search_alert_earliest,
          entity_id_fields: doc.entity_id_fields,
          is_entity_breakdown: doc.is_entity_breakdown,
          entity_alias_filtering_fields: doc.entity_alias_filtering_fields,
          urgency: '5',
          alert_on: 'both',
          target: m.threshold_field,
        },
        '',
      ),
    );
  }
  return base;
}

// ---- service template link -----------------------------------------------------------------------
function getTemplateLink(ctx, key) {
  const s = core.service.get(key);
  if (!s || !canRead(ctx.user, s.sec_grp)) throw notFound(`Service '${key}' not found`);
  return { _key: typeof s.base_service_template_id === 'string' ? s.base_service_template_id : '' };
}
function setTemplateLink(ctx, key, body) {
  const s = core.service.get(key);
  if (!s || !canRead(ctx.user, s.sec_grp)) throw notFound(`Service '${key}' not found`);
  if (!canWrite(ctx.user, s.sec_grp)) throw forbidden('Linking requires write access to the service');
  if (!canRead(ctx.user, GLOBAL)) throw forbidden('Linking requires read access to the Global team');
  if (!isPlainObject(body) || typeof body._key !== 'string' || body._key === '') throw bad('Payload must be {_key: <template key>}');
  const t = core.base_service_template.get(body._key);
  if (!t || !canRead(ctx.user, t.sec_grp)) throw notFound(`Service template '${body._key}' not found`);
  const rules = Array.isArray(t.entity_rules) ? clone(t.entity_rules) : [];
  s.entity_rules = [...(Array.isArray(s.entity_rules) ? s.entity_rules : []), ...rules]; // always appends
  s.base_service_template_id = t._key;
  stamp(s, ctx, { keepVersion: true });
  core.service.put(s._key, s);
  const linked = new Set(Array.isArray(t.linked_services) ? t.linked_services : []);
  linked.add(s._key);
  t.linked_services = [...linked];
  t.total_linked_services = t.linked_services.length;
  core.base_service_template.put(t._key, t);
  return { _key: t._key };
}

// ---- bulk update ---------------------------------------------------------------------------------
function bulkUpdate(type, ctx, body) {
  const partial = bool01Param(ctx.q, 'is_partial_data', 0) === 1;
  if (!Array.isArray(body)) throw bad('Payload must be an array of objects, each with _key');
  for (const o of body) {
    if (!isPlainObject(o) || typeof o._key !== 'string' || o._key === '') throw bad('Every object of a bulk update needs a string _key');
  }
  const h = hooks(type);
  const coll = core[type];
  // validate everything first (atomic): dry run on clones
  const saved = new Map();
  const keys = [];
  try {
    for (const o of body) {
      if (!saved.has(o._key)) saved.set(o._key, coll.has(o._key) ? clone(coll.get(o._key)) : null);
      const existing = coll.get(o._key);
      if (existing && !h.readable(existing, ctx.user)) throw forbidden(`No access to ${type} '${o._key}'`);
      writeObject(coll, type, h, ctx, o, existing, partial && Boolean(existing), o._key);
      keys.push(o._key);
    }
  } catch (e) {
    for (const [k, v] of saved) {
      if (v === null) coll.delete(k);
      else coll.put(k, v);
    }
    throw e;
  }
  return { _key: keys };
}

// ---- router --------------------------------------------------------------------------------------
export function supportedTypes() {
  return [...ALL_CORE_TYPES].sort();
}

export function handleCore(ctx, rest) {
  const m = ctx.method;
  const [a, b, c, _d] = rest;
  if (rest.length === 0) throw notFound('No object type given');
  if (a === 'get_alias_list' && rest.length === 1) {
    if (m !== 'GET') throw methodNotAllowed(['GET']);
    return aliasList(ctx);
  }
  if (a === 'get_supported_object_types' && rest.length === 1) {
    if (m !== 'GET') throw methodNotAllowed(['GET']);
    return supportedTypes();
  }
  if (a === 'custom_threshold_windows') {
    const r = ctw.route(ctx, rest.slice(1));
    if (r !== undefined) return r;
  }
  if (!ALL_CORE_TYPES.includes(a)) throw bad(`Unsupported object type '${a}'`);
  const coll = core[a];
  const h = hooks(a);
  if (rest.length === 1) {
    if (m === 'GET') return listObjects(coll, h, ctx);
    if (m === 'POST') return createObject(coll, a, h, ctx, ctx.body);
    if (m === 'DELETE') return deleteMany(coll, a, h, ctx);
    throw methodNotAllowed(['GET', 'POST', 'DELETE']);
  }
  if (rest.length === 2) {
    if (b === 'count') {
      if (m !== 'GET') throw methodNotAllowed(['GET']);
      return countObjects(coll, h, ctx, { accessRestricted: false });
    }
    if (b === 'bulk_update') {
      if (m !== 'POST') throw methodNotAllowed(['POST']);
      return bulkUpdate(a, ctx, ctx.body);
    }
    if (a === 'entity') {
      if (b === 'count_retirable') {
        if (m !== 'GET') throw methodNotAllowed(['GET']);
        return countRetirable(ctx);
      }
      if (b === 'retire') {
        if (m !== 'POST') throw methodNotAllowed(['POST']);
        return retire(ctx, ctx.body);
      }
      if (b === 'restore') {
        if (m !== 'POST') throw methodNotAllowed(['POST']);
        return restore(ctx, ctx.body);
      }
      if (b === 'retire_retirable') {
        if (m !== 'POST') throw methodNotAllowed(['POST']);
        return retireRetirable(ctx);
      }
    }
    if (m === 'GET') return getObject(coll, h, ctx, b);
    if (m === 'POST') return updateObject(coll, a, h, ctx, b, ctx.body);
    if (m === 'DELETE') return deleteOne(coll, a, h, ctx, b);
    throw methodNotAllowed(['GET', 'POST', 'DELETE']);
  }
  if (rest.length === 3 && c === 'templatize') {
    if (m !== 'GET') throw methodNotAllowed(['GET']);
    if (a !== 'service' && a !== 'kpi_base_search') throw bad(`templatize is supported only for service and kpi_base_search, not '${a}'`);
    const doc = coll.get(b);
    if (!doc || !h.readable(doc, ctx.user)) throw notFound(`Object '${b}' not found`);
    return templatize(a, doc);
  }
  if (rest.length === 3 && a === 'service' && c === 'base_service_template') {
    if (m === 'GET') return getTemplateLink(ctx, b);
    if (m === 'POST') return setTemplateLink(ctx, b, ctx.body);
    throw methodNotAllowed(['GET', 'POST']);
  }
  throw notFound('Unknown endpoint');
}

export { newUuid, toEpochNumber, isAdmin };
