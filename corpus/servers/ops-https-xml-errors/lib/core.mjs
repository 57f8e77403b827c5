// itoa_interface: core objects, entity lifecycle, templatize, template linking.
import {
  bad,
  notFound,
  isObj,
  isStr,
  isStrArray,
  clone,
  nowMicros,
  epochFloat,
  localMicroStr,
  CURRENT_VERSION,
  GLOBAL_TEAM,
  bug,
} from './util.mjs';
import { store, internal } from './store.mjs';
import { canRead, canWrite, assertRead, assertWrite, assertGlobalRead, permissionsFor } from './auth.mjs';
import { bool10Param } from './query.mjs';
import { CORE_SUPPORTED, decorate } from './types.mjs';
import { createObject, updateObject, deleteOne, listObjects, countObjects, bulkDelete, bulkUpdate, loadReadable, stamp } from './crud.mjs';
import { route, J, EMPTY } from './route.mjs';
import { handleLibrary, handleAuthoring } from './contentpacks.mjs';
import { handleCtwSpecial } from './ctw.mjs';

export function handleCore(ctx, segs) {
  const [a, b, c] = segs;
  if (a === undefined) throw notFound('Unknown endpoint');
  if (a === 'get_alias_list' && segs.length === 1) return route(ctx, { GET: () => J(aliasList(ctx)) });
  if (a === 'get_supported_object_types' && segs.length === 1) {
    return route(ctx, { GET: () => J([...CORE_SUPPORTED]) });
  }
  if (a === 'content_pack') return handleLibrary(ctx, segs.slice(1));
  if (a === 'content_pack_authorship') return handleAuthoring(ctx, segs.slice(1));
  if (a === 'custom_threshold_windows') {
    const r = handleCtwSpecial(ctx, segs.slice(1));
    if (r) return r;
  }
  if (!CORE_SUPPORTED.includes(a)) throw notFound(`Unknown object type: ${a}`);
  const type = a;

  if (segs.length === 1) {
    return route(ctx, {
      GET: () => J(listObjects(ctx, type)),
      POST: () => J({ _key: createObject(ctx, type, ctx.body())._key }),
      DELETE: () => {
        bulkDelete(ctx, type);
        return EMPTY;
      },
    });
  }
  if (segs.length === 2 && b === 'count') return route(ctx, { GET: () => J({ count: countObjects(ctx, type) }) });
  if (segs.length === 2 && b === 'bulk_update') {
    return route(ctx, {
      POST: () => {
        const partial = bool10Param(ctx.query, 'is_partial_data');
        return J({ _key: bulkUpdate(ctx, type, ctx.body(), partial === 1) });
      },
    });
  }
  if (type === 'entity' && segs.length === 2) {
    if (b === 'count_retirable') return route(ctx, { GET: () => J(countRetirable(ctx)) });
    if (b === 'retire') return route(ctx, { POST: () => J(retire(ctx, keysFromData(ctx))) });
    if (b === 'restore') return route(ctx, { POST: () => J(restore(ctx, keysFromData(ctx))) });
    if (b === 'retire_retirable') return route(ctx, { POST: () => J(retireRetirable(ctx)) });
  }
  if (segs.length === 2) {
    const key = b;
    return route(ctx, {
      GET: () => J(decorate(type, loadReadable(ctx, type, key), ctx)),
      POST: () => {
        const partial = bool10Param(ctx.query, 'is_partial_data');
        return J({ _key: updateObject(ctx, type, key, ctx.body(), partial === 1)._key });
      },
      DELETE: () => {
        deleteOne(ctx, type, key);
        return EMPTY;
      },
    });
  }
  if (segs.length === 3 && c === 'templatize') {
    return route(ctx, { GET: () => J(templatize(ctx, type, b)) });
  }
  if (segs.length === 3 && type === 'service' && c === 'base_service_template') {
    return route(ctx, {
      GET: () => {
        const svc = loadReadable(ctx, 'service', b);
        return J({ _key: isStr(svc.base_service_template_id) ? svc.base_service_template_id : '' });
      },
      POST: () => J(linkTemplate(ctx, b)),
    });
  }
  throw notFound('Unknown endpoint');
}

// ------------------------------------------------------------------ alias list
function aliasList(ctx) {
  const identifier = [],
    informational = [];
  const rows = store.rows('entity').sort((x, y) => x.seq - y.seq);
  for (const { obj } of rows) {
    if (!canRead(ctx.user, 'entity', obj)) continue;
    for (const f of obj.identifier?.fields || []) if (!identifier.includes(f)) identifier.push(f);
    for (const f of obj.informational?.fields || []) if (!informational.includes(f)) informational.push(f);
  }
  return { identifier, informational };
}

// ------------------------------------------------------------------ entity lifecycle
function keysFromData(ctx) {
  const body = ctx.body();
  if (!isObj(body) || !Array.isArray(body.data)) throw bad('The payload must be {"data": [<entity key>, ...]}');
  if (!isStrArray(body.data)) throw bad('Every element of data must be an entity key (string)');
  const keys = [...new Set(body.data)];
  for (const k of keys) {
    const e = store.get('entity', k);
    if (!e) throw notFound(`Entity not found: ${k}`);
    assertRead(ctx.user, 'entity', e);
    assertWrite(ctx.user, 'entity', e);
  }
  return keys;
}

function touchEntity(e, ctx) {
  const m = nowMicros();
  e.mod_by = ctx.user.name;
  e.mod_time = localMicroStr(m);
  const stamped = stamp('entity', e, e, ctx);
  store.put('entity', stamped);
  return stamped;
}

function retireOne(ctx, k) {
  const e = clone(store.get('entity', k));
  if (e.retired === 1) return false;
  internal.set(`retired:${k}`, clone(e.services || []));
  e.services = [];
  e.retired = 1;
  e.retired_time = epochFloat(nowMicros());
  delete e.retirable;
  touchEntity(e, ctx);
  return true;
}

function retire(ctx, keys) {
  return keys.filter((k) => retireOne(ctx, k));
}

function restore(ctx, keys) {
  const done = [];
  for (const k of keys) {
    const e = clone(store.get('entity', k));
    if (e.retired !== 1) continue;
    const saved = internal.get(`retired:${k}`) || [];
    internal.delete(`retired:${k}`);
    delete e.retired;
    delete e.retired_time;
    e.services = bug('restore_no_relink')
      ? []
      : saved.filter((s) => store.has('service', s._key)).map((s) => ({ _key: s._key, title: store.get('service', s._key).title }));
    touchEntity(e, ctx);
    done.push(k);
  }
  return done.length === 1 ? done[0] : done;
}

function retirableRows(ctx) {
  return store
    .rows('entity')
    .filter((r) => r.obj.retirable === 1 && r.obj.retired !== 1 && canRead(ctx.user, 'entity', r.obj))
    .sort((x, y) => y.seq - x.seq);
}

function countRetirable(ctx) {
  return retirableRows(ctx).map(({ obj }) => ({
    object_type: 'entity',
    title: obj.title,
    retirable: 1,
    sec_grp: obj.sec_grp,
    _key: obj._key,
    permissions: permissionsFor(ctx.user, 'entity', obj),
  }));
}

function retireRetirable(ctx) {
  const keys = retirableRows(ctx)
    .filter((r) => canWrite(ctx.user, 'entity', r.obj))
    .map((r) => r.obj._key);
  return retire(ctx, keys);
}

// ------------------------------------------------------------------ template linking
function linkTemplate(ctx, serviceKey) {
  const body = ctx.body();
  if (!isObj(body) || !isStr(body._key) || !body._key) throw bad('The payload must be {"_key": <template key>}');
  const svc = loadReadable(ctx, 'service', serviceKey);
  assertWrite(ctx.user, 'service', svc);
  assertGlobalRead(ctx.user);
  const tpl = store.get('base_service_template', body._key);
  if (!tpl) throw notFound(`Service template not found: ${body._key}`);
  assertRead(ctx.user, 'base_service_template', tpl);
  const next = clone(svc);
  const rules = clone(Array.isArray(tpl.entity_rules) ? tpl.entity_rules : []);
  next.entity_rules = bug('template_replaces_rules') ? rules : [...(next.entity_rules || []), ...rules];
  next.base_service_template_id = tpl._key;
  store.put('service', stamp('service', next, svc, ctx));
  const t2 = clone(tpl);
  t2.linked_services = [...new Set([...(Array.isArray(t2.linked_services) ? t2.linked_services : []), svc._key])];
  store.put('base_service_template', t2);
  return { _key: svc._key };
}

// ------------------------------------------------------------------ templatize
const S = (v, d = '') => {
  if (v === undefined || v === null) return d;
  if (typeof v === 'string') return v;
  if (typeof v === 'object') return JSON.stringify(v);
  return String(v);
};
const REL = /^[-+]?\d+[smhdwy]$/;
const rel = (v, d) => (typeof v === 'string' && REL.test(v) ? v : d);
const COLOR = /^#[0-9A-Fa-f]{3,8}$/;
const color = (v, d) => (typeof v === 'string' && COLOR.test(v) ? v : d);
const num = (v, d = 0) => {
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
  return Number.isFinite(n) ? n : d;
};
const boolish = (v) => v === true || v === 1 || v === '1' || v === 'true';

function normThresholds(t) {
  const o = isObj(t) ? t : {};
  return {
    isMinStatic: boolish(o.isMinStatic),
    isMaxStatic: boolish(o.isMaxStatic),
    gaugeMin: num(o.gaugeMin),
    gaugeMax: num(o.gaugeMax),
    renderBoundaryMin: num(o.renderBoundaryMin ?? o.renderBondaryMin),
    renderBoundaryMax: num(o.renderBoundaryMax ?? o.renderBondaryMax),
    baseSeverityValue: num(o.baseSeverityValue, 2),
    metricField: S(o.metricField),
    search: S(o.search),
    baseSeverityLabel: S(o.baseSeverityLabel, 'normal'),
    baseSeverityColor: S(o.baseSeverityColor, '#99D18B'),
    baseSeverityColorLight: S(o.baseSeverityColorLight, '#DCEFD7'),
    thresholdLevels: (Array.isArray(o.thresholdLevels) ? o.thresholdLevels : []).filter(isObj).map((l) => ({
      severityValue: num(l.severityValue),
      thresholdValue: num(l.thresholdValue),
      severityLabel: S(l.severityLabel),
      severityColor: S(l.severityColor),
      severityColorLight: S(l.severityColorLight),
    })),
  };
}

function normSpec(spec) {
  const s = isObj(spec) ? spec : {};
  const policies = {};
  const blocks = [];
  for (const [pk, p] of Object.entries(isObj(s.policies) ? s.policies : {})) {
    const pol = isObj(p) ? p : {};
    policies[pk] = {
      title: S(pol.title, pk),
      aggregate_thresholds: normThresholds(pol.aggregate_thresholds),
      entity_thresholds: normThresholds(pol.entity_thresholds),
      policy_type: S(pol.policy_type, 'static'),
    };
  }
  const rawBlocks = Array.isArray(s.time_blocks) ? s.time_blocks : [];
  for (const b of rawBlocks) {
    if (isObj(b) && isStr(b.policy_key) && isStr(b.time_block_key) && /^\d\d-\d\d$/.test(b.time_block_key)) {
      blocks.push({ policy_key: b.policy_key, time_block_key: b.time_block_key });
    }
  }
  return { policies, time_blocks: blocks };
}

function templatizeKpi(k) {
  const dm = isObj(k.datamodel) ? k.datamodel : {};
  return {
    title: S(k.title),
    description: S(k.description),
    service_id: S(k.service_id),
    type: S(k.type, 'kpis_primary'),
    urgency: S(k.urgency, '5'),
    target: S(k.target ?? k.target_field),
    search_type: S(k.search_type, 'adhoc'),
    threshold_field: S(k.threshold_field),
    kpi_base_search: S(k.kpi_base_search ?? k.base_search_id),
    base_search: S(k.base_search),
    aggregate_statop: S(k.aggregate_statop, 'avg'),
    alert_on: S(k.alert_on, 'both'),
    alert_period: S(k.alert_period, '5'),
    alert_lag: S(k.alert_lag, '30'),
    search_alert_earliest: S(k.search_alert_earliest, '5'),
    entity_statop: S(k.entity_statop, 'avg'),
    entity_id_fields: S(k.entity_id_fields),
    unit: S(k.unit),
    tz_offset: k.tz_offset ?? null,
    entity_alias_filtering_fields: k.entity_alias_filtering_fields ?? null,
    backfill_earliest_time: rel(k.backfill_earliest_time, '-7d'),
    adaptive_thresholding_training_window: rel(k.adaptive_thresholding_training_window, '-7d'),
    anomaly_detection_training_window: rel(k.anomaly_detection_training_window, '-14d'),
    gap_severity_color: color(k.gap_severity_color, '#CCCCCC'),
    gap_severity_color_light: color(k.gap_severity_color_light, '#EEEEEE'),
    time_variate_thresholds: boolish(k.time_variate_thresholds),
    is_entity_breakdown: boolish(k.is_entity_breakdown),
    datamodel_filter: Array.isArray(k.datamodel_filter) ? clone(k.datamodel_filter) : [],
    datamodel: {
      object: S(dm.object),
      datamodel: S(dm.datamodel),
      field: S(dm.field),
      owner_field: S(dm.owner_field),
    },
    aggregate_thresholds: normThresholds(k.aggregate_thresholds),
    entity_thresholds: normThresholds(k.entity_thresholds),
    time_variate_thresholds_specification: normSpec(k.time_variate_thresholds_specification),
  };
}

function templatize(ctx, type, key) {
  if (type !== 'service' && type !== 'kpi_base_search') {
    throw bad(`templatize is supported only for service and kpi_base_search, not ${type}`);
  }
  const obj = loadReadable(ctx, type, key);
  if (type === 'service') {
    const tplId = isStr(obj.base_service_template_id) ? obj.base_service_template_id : '';
    return {
      title: S(obj.title),
      description: S(obj.description),
      service_template_id: tplId,
      sec_grp: S(obj.sec_grp, GLOBAL_TEAM),
      object_type: 'base_service_template',
      _version: CURRENT_VERSION,
      enabled: obj.enabled === 0 ? 0 : 1,
      entity_rules: clone(Array.isArray(obj.entity_rules) ? obj.entity_rules : []),
      services_depends_on: clone(Array.isArray(obj.services_depends_on) ? obj.services_depends_on : []),
      tags: clone(Array.isArray(obj.service_tags?.tags) ? obj.service_tags.tags : Array.isArray(obj.tags) ? obj.tags : []),
      serviceTemplateId: tplId ? [tplId] : [],
      kpis: (obj.kpis || []).filter((k) => isObj(k) && !String(k._key).startsWith('SHKPI-')).map(templatizeKpi),
    };
  }
  const out = {};
  for (const [k, v] of Object.entries(obj)) {
    if (['_key', '_owner', '_user', 'acl', 'mod_source', 'mod_timestamp', 'identifying_name'].includes(k)) continue;
    out[k] = clone(v);
  }
  out.object_type = 'kpi_base_search';
  out._version = CURRENT_VERSION;
  out.metrics = (Array.isArray(out.metrics) ? out.metrics : []).map((m) => {
    const c = { ...m };
    delete c._key;
    return c;
  });
  return out;
}
