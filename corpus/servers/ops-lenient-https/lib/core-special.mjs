// Special endpoints of the core interface: alias list, templatize, template links, entity retirement.
import { canReadTeam, GLOBAL_TEAM, permissionsFor, requireTeamWrite } from './auth.mjs';
import { bug } from './bugs.mjs';
import { checkWrite, findReadable, readable } from './crud.mjs';
import { badRequest, clone, forbidden, isPlainObject } from './http.mjs';
import { coreKind, isRetirable, retiredLinks } from './kinds.mjs';
import { readCopy, SCHEMA_VERSION } from './store.mjs';
import { isoStamp, modTime } from './time.mjs';

export function aliasList(user) {
  const kind = coreKind('entity');
  const identifier = new Set();
  const informational = new Set();
  for (const row of kind.coll.all()) {
    if (!readable(kind, user, row)) continue;
    for (const [part, set] of [
      ['identifier', identifier],
      ['informational', informational],
    ]) {
      const f = isPlainObject(row[part]) ? row[part].fields : undefined;
      if (Array.isArray(f)) for (const n of f) set.add(String(n));
    }
  }
  return { identifier: [...identifier].sort(), informational: [...informational].sort() };
}

const str = (v) => (v === undefined || v === null ? '' : String(v));
const nullable = (v) => (v === undefined || v === '' ? null : v);

function thresholds(t) {
  const src = isPlainObject(t) ? t : {};
  return {
    isMinStatic: Boolean(src.isMinStatic),
    isMaxStatic: Boolean(src.isMaxStatic),
    gaugeMin: Number(src.gaugeMin ?? 0),
    gaugeMax: Number(src.gaugeMax ?? 100),
    renderBoundaryMin: Number(src.renderBoundaryMin ?? 0),
    renderBoundaryMax: Number(src.renderBoundaryMax ?? 100),
    baseSeverityValue: Number(src.baseSeverityValue ?? 2),
    metricField: str(src.metricField),
    search: str(src.search),
    baseSeverityLabel: str(src.baseSeverityLabel ?? 'normal'),
    baseSeverityColor: str(src.baseSeverityColor ?? '#99D18B'),
    baseSeverityColorLight: str(src.baseSeverityColorLight ?? '#DCEFD7'),
    thresholdLevels: Array.isArray(src.thresholdLevels) ? clone(src.thresholdLevels) : [],
  };
}

function timeVariate(spec) {
  const src = isPlainObject(spec) ? spec : {};
  const policies = {};
  for (const [k, p] of Object.entries(isPlainObject(src.policies) ? src.policies : {})) {
    policies[k] = {
      title: str(p?.title ?? k),
      aggregate_thresholds: thresholds(p?.aggregate_thresholds),
      entity_thresholds: thresholds(p?.entity_thresholds),
      policy_type: str(p?.policy_type ?? 'static'),
    };
  }
  if (Object.keys(policies).length === 0) {
    policies.default_policy = {
      title: 'Default',
      aggregate_thresholds: thresholds(),
      entity_thresholds: thresholds(),
      policy_type: 'static',
    };
  }
  return { policies, time_blocks: Array.isArray(src.time_blocks) ? clone(src.time_blocks) : [] };
}

function templateKpi(kpi, serviceKey) {
  const datamodel = isPlainObject(kpi.datamodel) ? kpi.datamodel : {};
  return {
    title: str(kpi.title),
    service_id: str(kpi.service_id ?? serviceKey),
    type: str(kpi.type ?? 'kpis_primary'),
    urgency: str(kpi.urgency ?? 5),
    target: str(kpi.target ?? kpi.target_field),
    search_type: str(kpi.search_type ?? 'adhoc'),
    threshold_field: str(kpi.threshold_field),
    kpi_base_search: str(kpi.kpi_base_search ?? kpi.base_search_id),
    alert_on: str(kpi.alert_on ?? 'both'),
    alert_lag: str(kpi.alert_lag ?? 30),
    search_alert_earliest: str(kpi.search_alert_earliest ?? 5),
    entity_statop: str(kpi.entity_statop ?? 'avg'),
    entity_id_fields: str(kpi.entity_id_fields),
    tz_offset: nullable(kpi.tz_offset),
    entity_alias_filtering_fields: nullable(kpi.entity_alias_filtering_fields),
    backfill_earliest_time: str(kpi.backfill_earliest_time ?? '-7d'),
    adaptive_thresholding_training_window: str(kpi.adaptive_thresholding_training_window ?? '-7d'),
    anomaly_detection_training_window: str(kpi.anomaly_detection_training_window ?? '-7d'),
    gap_severity_color: str(kpi.gap_severity_color ?? '#CCCCCC'),
    gap_severity_color_light: str(kpi.gap_severity_color_light ?? '#EEEEEE'),
    time_variate_thresholds: Boolean(kpi.time_variate_thresholds),
    is_entity_breakdown: Boolean(kpi.is_entity_breakdown),
    datamodel_filter: Array.isArray(kpi.datamodel_filter) ? clone(kpi.datamodel_filter) : [],
    datamodel: {
      object: str(datamodel.object),
      datamodel: str(datamodel.datamodel),
      field: str(datamodel.field),
      owner_field: str(datamodel.owner_field),
    },
    entity_thresholds: thresholds(kpi.entity_thresholds),
    aggregate_thresholds: thresholds(kpi.aggregate_thresholds),
    time_variate_thresholds_specification: timeVariate(kpi.time_variate_thresholds_specification),
  };
}

export function templatize(user, type, key) {
  if (type !== 'service' && type !== 'kpi_base_search' && !bug('templatize-any-type')) {
    throw badRequest(`templatize is supported only for service and kpi_base_search, not ${type}`);
  }
  const kind = coreKind(type);
  const row = readCopy(findReadable(kind, user, key));
  if (type !== 'service') {
    const { _key, _revision, _read_at, permissions, mod_timestamp, mod_time, create_time, identifying_name, ...rest } = row;
    return {
      ...rest,
      object_type: type,
      _version: SCHEMA_VERSION,
      sec_grp: str(row.sec_grp || GLOBAL_TEAM),
      title: str(row.title),
      source_key: _key,
    };
  }
  return {
    title: str(row.title),
    description: str(row.description),
    service_template_id: str(row.base_service_template_id),
    sec_grp: str(row.sec_grp || GLOBAL_TEAM),
    object_type: 'base_service_template',
    _version: SCHEMA_VERSION,
    enabled: Number(row.enabled) ? 1 : 0,
    services_depends_on: Array.isArray(row.services_depends_on) ? clone(row.services_depends_on) : [],
    tags: Array.isArray(row.tags) ? clone(row.tags) : Array.isArray(row.service_tags?.tags) ? clone(row.service_tags.tags) : [],
    serviceTemplateId: row.base_service_template_id ? [String(row.base_service_template_id)] : [],
    entity_rules: Array.isArray(row.entity_rules) ? clone(row.entity_rules) : [],
    kpis: (Array.isArray(row.kpis) ? row.kpis : []).filter(isPlainObject).map((k) => templateKpi(k, row._key)),
  };
}

export function getServiceTemplate(user, key) {
  const svc = findReadable(coreKind('service'), user, key);
  return { _key: svc.base_service_template_id ? String(svc.base_service_template_id) : '' };
}

export function linkServiceTemplate(user, key, body) {
  const svcKind = coreKind('service');
  const svc = findReadable(svcKind, user, key);
  checkWrite(svcKind, user, svc);
  if (!canReadTeam(user, GLOBAL_TEAM) && !bug('template-link-no-global-check')) {
    throw forbidden('linking a service to a template requires read access to the Global team');
  }
  const tKey = isPlainObject(body) ? body._key : typeof body === 'string' ? body : undefined;
  if (tKey === undefined || tKey === null || tKey === '') throw badRequest('the payload names the template in _key');
  const tplKind = coreKind('base_service_template');
  const tpl = tplKind.coll.get(String(tKey));
  const rules = tpl && Array.isArray(tpl.entity_rules) ? clone(tpl.entity_rules) : [];
  const current = Array.isArray(svc.entity_rules) ? svc.entity_rules : [];
  svc.entity_rules = bug('template-link-replaces-rules') ? rules : [...current, ...rules];
  svc.base_service_template_id = String(tKey);
  svc.mod_timestamp = isoStamp();
  svc.mod_time = modTime();
  svc.mod_by = user.name;
  if (tpl) {
    const linked = new Set(Array.isArray(tpl.linked_services) ? tpl.linked_services : []);
    linked.add(svc._key);
    tpl.linked_services = [...linked];
    tpl.total_linked_services = tpl.linked_services.length;
  }
  return { _key: svc._key };
}

function keysFrom(body) {
  let data = isPlainObject(body) ? body.data : body;
  if (typeof data === 'string') data = data.split(',').map((s) => s.trim());
  if (!Array.isArray(data)) throw badRequest('the payload is {"data": [<entity key>, ...]}');
  return data.map(String);
}

function writableEntity(user, key) {
  const kind = coreKind('entity');
  const row = kind.coll.get(key);
  if (!row || !readable(kind, user, row)) return null;
  requireTeamWrite(user, row.sec_grp || GLOBAL_TEAM);
  return row;
}

function retire(row) {
  if (!row.retired) {
    retiredLinks.set(row._key, clone(Array.isArray(row.services) ? row.services : []));
    if (!bug('retire-keeps-links')) row.services = [];
    row.retired = 1;
    row.retirable = 0;
    row.mod_timestamp = isoStamp();
    row.mod_time = modTime();
  }
}

export function retireEntities(user, body) {
  const out = [];
  for (const key of keysFrom(body)) {
    const row = writableEntity(user, key);
    if (!row) continue;
    retire(row);
    out.push(row._key);
  }
  return out;
}

export function restoreEntities(user, body) {
  const out = [];
  for (const key of keysFrom(body)) {
    const row = writableEntity(user, key);
    if (!row?.retired) continue;
    row.retired = 0;
    if (!bug('restore-no-relink')) {
      const links = retiredLinks.get(row._key) || [];
      const have = new Set((row.services || []).map((s) => s?._key));
      row.services = [...(row.services || []), ...links.filter((s) => !have.has(s?._key))];
    }
    retiredLinks.delete(row._key);
    row.retirable = isRetirable(row);
    row.mod_timestamp = isoStamp();
    row.mod_time = modTime();
    out.push(row._key);
  }
  return out;
}

export function retirableList(user) {
  const kind = coreKind('entity');
  return kind.coll
    .all()
    .filter((r) => readable(kind, user, r) && isRetirable(r))
    .map((r) => {
      const c = readCopy(r);
      return {
        object_type: 'entity',
        title: c.title,
        retirable: 1,
        sec_grp: c.sec_grp || GLOBAL_TEAM,
        _key: c._key,
        permissions: permissionsFor(user, c.sec_grp),
      };
    });
}

export function retireRetirable(user) {
  const kind = coreKind('entity');
  const out = [];
  for (const row of kind.coll.all()) {
    if (!readable(kind, user, row) || !isRetirable(row)) continue;
    try {
      checkWrite(kind, user, row);
    } catch {
      continue;
    }
    retire(row);
    out.push(row._key);
  }
  return out;
}
