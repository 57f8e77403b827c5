import { route, type Route } from '../http/router';
import type { ApiResponse } from '../http/types';
import { canReadGroup } from './access';
import type { Doc } from './config';
import type { OpsCtx, OpsRouteFn } from './context';
import { coreRules } from './core';
import { badRequest, forbidden, notFound } from './errors';
import { isPlainObject, objectBody } from './input';
import { noSuchObject, readableObject, writeObject } from './objects';
import { ITOA } from './paths';

function defaultThresholds(): Doc {
  return {
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
}

/** The KPI fields a template carries, each with the value a KPI that lacks it gets. */
function kpiDefaults(): Doc {
  return {
    title: '',
    service_id: '',
    type: 'kpis_primary',
    urgency: '5',
    target: '',
    search_type: 'adhoc',
    threshold_field: '',
    kpi_base_search: '',
    alert_on: 'both',
    alert_lag: '30',
    search_alert_earliest: '5',
    entity_statop: 'avg',
    entity_id_fields: '',
    tz_offset: null,
    entity_alias_filtering_fields: null,
    backfill_earliest_time: '-7d',
    adaptive_thresholding_training_window: '-7d',
    anomaly_detection_training_window: '-7d',
    gap_severity_color: '#CCCCCC',
    gap_severity_color_light: '#EEEEEE',
    time_variate_thresholds: false,
    is_entity_breakdown: false,
    datamodel_filter: [],
    datamodel: { object: '', datamodel: '', field: '', owner_field: '' },
    entity_thresholds: defaultThresholds(),
    time_variate_thresholds_specification: { policies: {}, time_blocks: [] },
  };
}

function templateKpi(kpi: Doc): Doc {
  const out: Doc = { ...kpiDefaults(), ...kpi };
  // Absent or of the wrong type in the stored KPI: the template still carries the field in its documented type.
  for (const [field, fallback] of Object.entries(kpiDefaults())) {
    const value = out[field];
    const wanted = fallback === null ? null : Array.isArray(fallback) ? 'array' : typeof fallback;
    const actual = value === null ? null : Array.isArray(value) ? 'array' : typeof value;
    if (wanted !== null && actual !== wanted) out[field] = fallback;
  }
  return out;
}

function serviceTemplate(ctx: OpsCtx, service: Doc): Doc {
  const kpis = Array.isArray(service.kpis) ? service.kpis.filter(isPlainObject) : [];
  return {
    title: service.title,
    description: typeof service.description === 'string' ? service.description : '',
    service_template_id: typeof service.base_service_template_id === 'string' ? service.base_service_template_id : '',
    sec_grp: service.sec_grp,
    object_type: 'base_service_template',
    _version: ctx.state.config.schemaVersion,
    enabled: service.enabled === 1 || service.enabled === true || service.enabled === '1' ? 1 : 0,
    services_depends_on: Array.isArray(service.services_depends_on) ? service.services_depends_on : [],
    tags: Array.isArray(service.tags) ? service.tags : [],
    serviceTemplateId: typeof service.base_service_template_id === 'string' ? [service.base_service_template_id] : [],
    entity_rules: Array.isArray(service.entity_rules) ? service.entity_rules : [],
    // The health score KPI belongs to each service; a template never carries it.
    kpis: kpis.filter((k) => k.type !== 'service_health').map(templateKpi),
  };
}

const SERVER_FIELDS = ['_key', '_user', '_owner', 'mod_source', 'mod_timestamp', 'identifying_name', 'permissions'];

function searchTemplate(ctx: OpsCtx, search: Doc): Doc {
  const out: Doc = { ...search, object_type: 'kpi_base_search', _version: ctx.state.config.schemaVersion };
  for (const f of SERVER_FIELDS) delete out[f];
  return out;
}

function templatize(ctx: OpsCtx): ApiResponse {
  const type = ctx.params.objectType!;
  const key = ctx.params.key!;
  if (coreRules(type) === undefined) return notFound(`Unknown object type "${type}"`);
  if (type !== 'service' && type !== 'kpi_base_search') {
    return badRequest(`templatize is supported only for service and kpi_base_search, not ${type}`);
  }
  const doc = readableObject(ctx, type, key);
  if (doc === undefined) return noSuchObject(type, key);
  return { status: 200, body: type === 'service' ? serviceTemplate(ctx, doc) : searchTemplate(ctx, doc) };
}

function linkedTemplate(ctx: OpsCtx): ApiResponse {
  const key = ctx.params.key!;
  const service = readableObject(ctx, 'service', key);
  if (service === undefined) return noSuchObject('service', key);
  const templateKey = service.base_service_template_id;
  if (typeof templateKey !== 'string' || templateKey === '') {
    return notFound(`Service "${key}" is not linked to a service template`);
  }
  return { status: 200, body: { _key: templateKey } };
}

/** Links a service to a template; over the API the template's entity rules are always appended. */
function linkTemplate(ctx: OpsCtx): ApiResponse {
  const global = ctx.state.config.defaultSecurityGroup;
  if (!canReadGroup(ctx.user, global)) return forbidden('Linking a service template needs read access to the Global team');
  const key = ctx.params.key!;
  const body = objectBody(ctx.req);
  if (!body.ok) return body.error;
  const templateKey = body.value._key;
  if (typeof templateKey !== 'string' || templateKey === '') return badRequest('_key of a service template is required');
  const service = readableObject(ctx, 'service', key);
  if (service === undefined) return noSuchObject('service', key);
  const template = readableObject(ctx, 'base_service_template', templateKey);
  if (template === undefined) return noSuchObject('base_service_template', templateKey);

  const serviceRules = Array.isArray(service.entity_rules) ? service.entity_rules : [];
  const templateRules = Array.isArray(template.entity_rules) ? template.entity_rules : [];
  const written = writeObject(
    ctx,
    coreRules('service')!,
    { ...service, base_service_template_id: templateKey, entity_rules: [...serviceRules, ...structuredClone(templateRules)] },
    service,
  );
  if (typeof written === 'string') return badRequest(written);

  const previousKey = service.base_service_template_id;
  const previous =
    typeof previousKey === 'string' && previousKey !== templateKey ? readableObject(ctx, 'base_service_template', previousKey) : undefined;
  if (previous !== undefined && Array.isArray(previous.linked_services)) {
    const services = previous.linked_services.filter((s) => s !== key);
    writeObject(
      ctx,
      coreRules('base_service_template')!,
      { ...previous, linked_services: services, total_linked_services: services.length },
      previous,
    );
  }
  const linked = Array.isArray(template.linked_services) ? template.linked_services : [];
  if (!linked.includes(key)) {
    const services = [...linked, key];
    writeObject(
      ctx,
      coreRules('base_service_template')!,
      { ...template, linked_services: services, total_linked_services: services.length },
      template,
    );
  }
  return { status: 200, body: { _key: key } };
}

export const templateRoutes: Route<OpsRouteFn>[] = [
  route('GET', `${ITOA}/:objectType/:key/templatize`, templatize),
  route('GET', `${ITOA}/service/:key/base_service_template`, linkedTemplate),
  route('POST', `${ITOA}/service/:key/base_service_template`, linkTemplate),
];
