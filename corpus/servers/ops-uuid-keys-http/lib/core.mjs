// Core interface (itoa_interface): object CRUD, entity lifecycle, service templates,
// templatize, custom threshold windows.
import { coll } from './store.mjs';
import { canReadTeam } from './auth.mjs';
import {
  bad,
  notFound,
  forbidden,
  conflict,
  clone,
  isObj,
  isStrArray,
  newKey,
  byMethod,
  parseNonNegInt,
  GLOBAL_TEAM,
  CURRENT_VERSION,
  isoTs,
  modTimeStr,
  epochSec,
} from './util.mjs';
import {
  handleList,
  handleCount,
  handleCreate,
  handleUpdate,
  handleBulkUpdate,
  handleGet,
  handleDeleteOne,
  handleBulkDelete,
  register,
  getReadable,
  getWritable,
  readable,
  writable,
  requireWriter,
  viewOf,
  teamExists,
} from './crud.mjs';
import { handleLibrary, handleAuthorship } from './contentpacks.mjs';
import { bugs } from './bugs.mjs';

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

// ------------------------------------------------------------------ helpers
export function touch(doc, ctx) {
  const now = new Date();
  doc.mod_by = ctx.user.name;
  doc.mod_source = 'REST';
  doc.mod_time = modTimeStr(now);
  doc.mod_timestamp = isoTs(now);
  doc._version = CURRENT_VERSION;
}

function checkIdInfo(doc, name) {
  if (doc[name] === undefined || doc[name] === null) doc[name] = { fields: [], values: [] };
  const v = doc[name];
  if (!isObj(v)) throw bad(`Field '${name}' must be an object {fields: [string], values: [string]}`);
  if (v.fields === undefined) v.fields = [];
  if (v.values === undefined) v.values = [];
  if (!isStrArray(v.fields) || !isStrArray(v.values)) throw bad(`Field '${name}' must be {fields: [string], values: [string]}`);
}

function globToRe(p) {
  return new RegExp(
    '^' +
      p
        .split('*')
        .map((s) => s.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
        .join('.*') +
      '$',
    'i',
  );
}
function ruleItemMatches(item, ent) {
  if (!isObj(item)) return false;
  const pats = String(item.value ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map(globToRe);
  let vals = [];
  const field = item.field;
  if (item.field_type === 'title') vals = [ent.title];
  else if (item.field_type === 'alias' || item.field_type === 'info') {
    const holder = item.field_type === 'alias' ? ent.identifier : ent.informational;
    if (holder && Array.isArray(holder.fields) && holder.fields.includes(field)) {
      vals = Array.isArray(ent[field]) ? ent[field] : ent[field] !== undefined ? [ent[field]] : holder.values || [];
    }
  } else if (item.field_type === 'entity_type') {
    vals = Array.isArray(ent.entity_type_ids) ? ent.entity_type_ids : ent.entity_type_ids ? [ent.entity_type_ids] : [];
  }
  const hit = vals.some((v) => pats.some((re) => re.test(String(v))));
  return item.rule_type === 'not' ? !hit : hit;
}
export function serviceMatchesEntity(svc, ent) {
  if (ent.retired === 1 && !bugs.has('retire-keeps-links')) return false;
  const rules = Array.isArray(svc.entity_rules) ? svc.entity_rules : [];
  return rules.some((g) => {
    if (!isObj(g) || !Array.isArray(g.rule_items) || g.rule_items.length === 0) return false;
    return g.rule_condition === 'OR'
      ? g.rule_items.some((i) => ruleItemMatches(i, ent))
      : g.rule_items.every((i) => ruleItemMatches(i, ent));
  });
}

function validateEntityRules(rules, where) {
  if (!Array.isArray(rules)) throw bad(`Field 'entity_rules' of ${where} must be an array`);
  rules.forEach((g, i) => {
    if (!isObj(g)) throw bad(`entity_rules[${i}] must be an object`);
    if (g.rule_condition !== undefined && !['AND', 'OR'].includes(g.rule_condition))
      throw bad(`entity_rules[${i}].rule_condition must be 'AND' or 'OR'`);
    if (g.rule_items !== undefined && !Array.isArray(g.rule_items)) throw bad(`entity_rules[${i}].rule_items must be an array`);
    (g.rule_items || []).forEach((it, j) => {
      if (!isObj(it)) throw bad(`entity_rules[${i}].rule_items[${j}] must be an object`);
      for (const f of ['field', 'field_type', 'rule_type'])
        if (it[f] !== undefined && typeof it[f] !== 'string') throw bad(`entity_rules[${i}].rule_items[${j}].${f} must be a string`);
      if (it.value !== undefined && typeof it.value !== 'string') throw bad(`entity_rules[${i}].rule_items[${j}].value must be a string`);
    });
  });
}

function normEnabled(doc, dflt = 1) {
  if (doc.enabled === undefined || doc.enabled === null) doc.enabled = dflt;
  if (doc.enabled === true || doc.enabled === '1') doc.enabled = 1;
  if (doc.enabled === false || doc.enabled === '0') doc.enabled = 0;
  if (doc.enabled !== 0 && doc.enabled !== 1) throw bad(`Field 'enabled' must be 1 or 0`);
}

function validateKpis(doc, where) {
  if (doc.kpis === undefined || doc.kpis === null) doc.kpis = [];
  if (!Array.isArray(doc.kpis)) throw bad(`Field 'kpis' of ${where} must be an array`);
  const keys = new Set();
  doc.kpis.forEach((k, i) => {
    if (!isObj(k)) throw bad(`kpis[${i}] must be an object`);
    if (typeof k.title !== 'string' || !k.title) throw bad(`kpis[${i}].title is required and must be a string`);
    if (k._key === undefined) k._key = newKey();
    if (typeof k._key !== 'string' || !k._key) throw bad(`kpis[${i}]._key must be a string`);
    if (keys.has(k._key)) throw bad(`KPI _key '${k._key}' appears twice`);
    keys.add(k._key);
    if (k.urgency !== undefined && typeof k.urgency !== 'number' && typeof k.urgency !== 'string')
      throw bad(`kpis[${i}].urgency must be a number or a string`);
  });
}

// ------------------------------------------------------------------ type definitions
const generic = (name, extra = {}) => ({ name, teamMode: 'sec_grp', required: ['title'], ...extra });

export const DEFS = {};

DEFS.team = generic('team', {
  teamsOf: (d) => [d._key],
  permissions: true,
  canDelete(doc) {
    if (doc._key === GLOBAL_TEAM) throw conflict('The Global team cannot be deleted');
    if (teamInUse(doc._key)) throw conflict(`Team '${doc._key}' still owns objects; move or delete them first`);
  },
  normalize(doc) {
    if (doc.acl !== undefined && !isObj(doc.acl)) throw bad(`Field 'acl' must be an object`);
    delete doc.sec_grp;
  },
});

DEFS.entity = generic('entity', {
  serverOwned: ['services', 'retired', 'retired_time'],
  normalize(doc, _ctx, old) {
    doc._type = 'entity';
    checkIdInfo(doc, 'identifier');
    checkIdInfo(doc, 'informational');
    for (const which of ['identifier', 'informational']) {
      const h = doc[which];
      if (h.fields.length === 1 && doc[h.fields[0]] === undefined && h.values.length) doc[h.fields[0]] = [...h.values];
      for (const f of h.fields) {
        if (doc[f] === undefined) continue;
        if (typeof doc[f] === 'string') doc[f] = [doc[f]];
        if (!isStrArray(doc[f])) throw bad(`Alias/informational field '${f}' must be an array of strings`);
      }
      if (h.values.length === 0) h.values = [...new Set(h.fields.flatMap((f) => doc[f] || []))];
    }
    if (doc.retirable !== undefined && doc.retirable !== 0 && doc.retirable !== 1)
      throw bad(`Field 'retirable' must be the integer 1 (flagged) or 0`);
    doc.retired = old?.retired ?? 0;
    if (old?.retired_time !== undefined) doc.retired_time = old.retired_time;
  },
  view(v, ctx) {
    v.services = coll('service')
      .docs()
      .filter((s) => readable(DEFS.service, s, ctx.user) && serviceMatchesEntity(s, v))
      .map((s) => ({ _key: s._key, title: s.title }));
    return v;
  },
});

DEFS.service = generic('service', {
  serverOwned: ['base_service_template_id'],
  normalize(doc) {
    validateKpis(doc, 'the service');
    if (doc.entity_rules === undefined || doc.entity_rules === null) doc.entity_rules = [];
    validateEntityRules(doc.entity_rules, 'the service');
    normEnabled(doc);
    if (doc.services_depends_on === undefined) doc.services_depends_on = [];
    if (!Array.isArray(doc.services_depends_on)) throw bad(`Field 'services_depends_on' must be an array`);
    if (doc.service_tags !== undefined && doc.service_tags !== null && !isObj(doc.service_tags))
      throw bad(`Field 'service_tags' must be an object {tags: [string]}`);
  },
  afterWrite(doc) {
    for (const k of doc.kpis) {
      k.service_id = doc._key;
      k.service_title = doc.title;
      if (k.sec_grp === undefined) k.sec_grp = doc.sec_grp;
    }
  },
  afterDelete(doc) {
    for (const w of coll('custom_threshold_windows').docs()) {
      if (Array.isArray(w.linked_services)) w.linked_services = w.linked_services.filter((l) => l.service_id !== doc._key);
    }
  },
});

DEFS.base_service_template = generic('base_service_template', {
  serverOwned: ['linked_services', 'total_linked_services'],
  normalize(doc) {
    validateKpis(doc, 'the service template');
    if (doc.entity_rules === undefined || doc.entity_rules === null) doc.entity_rules = [];
    validateEntityRules(doc.entity_rules, 'the service template');
  },
  view(v, ctx) {
    const linked = coll('service')
      .docs()
      .filter((s) => s.base_service_template_id === v._key);
    v.linked_services = linked.filter((s) => readable(DEFS.service, s, ctx.user)).map((s) => s._key);
    v.total_linked_services = linked.length;
    return v;
  },
});

DEFS.kpi_base_search = generic('kpi_base_search', {
  normalize(doc) {
    if (doc.metrics === undefined || doc.metrics === null) doc.metrics = [];
    if (!Array.isArray(doc.metrics)) throw bad(`Field 'metrics' must be an array`);
    doc.metrics.forEach((m, i) => {
      if (!isObj(m)) throw bad(`metrics[${i}] must be an object`);
      if (m._key === undefined) m._key = newKey();
      if (typeof m._key !== 'string') throw bad(`metrics[${i}]._key must be a string`);
    });
    if (doc.base_search !== undefined && typeof doc.base_search !== 'string') throw bad(`Field 'base_search' must be a string`);
  },
});

DEFS.kpi_threshold_template = generic('kpi_threshold_template', {
  normalize(doc) {
    const s = doc.time_variate_thresholds_specification;
    if (s !== undefined && s !== null) {
      if (!isObj(s)) throw bad(`Field 'time_variate_thresholds_specification' must be an object {policies, time_blocks}`);
      if (s.policies !== undefined && !isObj(s.policies)) throw bad(`time_variate_thresholds_specification.policies must be an object`);
      if (s.time_blocks !== undefined && !Array.isArray(s.time_blocks))
        throw bad(`time_variate_thresholds_specification.time_blocks must be an array`);
    }
  },
});

for (const t of [
  'deep_dive',
  'glass_table',
  'home_view',
  'kpi_template',
  'event_management_state',
  'entity_filter_rule',
  'entity_type',
  'entity_relationship_rule',
])
  DEFS[t] = generic(t);
DEFS.entity_relationship = generic('entity_relationship', { required: ['subject_identifier', 'predicate', 'object_identifier'] });

const CTW_STATUSES = ['active', 'stopped'];
DEFS.custom_threshold_windows = generic('custom_threshold_windows', {
  teamMode: 'sec_grp_list',
  serverOwned: ['last_stopped_time', 'is_overlapping', 'overlapping_kpis', 'can_view', 'can_link', 'can_edit', 'can_transition'],
  normalize(doc, _ctx, old) {
    if (doc.status === undefined || doc.status === null) doc.status = old?.status ?? 'active';
    if (typeof doc.status !== 'string' || !CTW_STATUSES.includes(doc.status.toLowerCase()))
      throw bad(`Field 'status' must be one of Active, Stopped`);
    doc.status = doc.status.toLowerCase();
    if (old && doc.status !== old.status)
      throw conflict(`Status moves only through POST .../${old._key}/stop (current status '${old.status}')`);
    if (old?.last_stopped_time !== undefined) doc.last_stopped_time = old.last_stopped_time;
    if (doc.window_type === undefined) doc.window_type = 'percentage';
    if (!['percentage', 'static'].includes(doc.window_type)) throw bad(`Field 'window_type' must be 'percentage' or 'static'`);
    for (const f of ['window_config_percentage', 'start_time', 'end_time', 'duration'])
      if (doc[f] !== undefined && doc[f] !== null && (typeof doc[f] !== 'number' || !Number.isFinite(doc[f])))
        throw bad(`Field '${f}' must be a number`);
    if (typeof doc.start_time === 'number' && typeof doc.end_time === 'number' && doc.end_time < doc.start_time)
      throw bad(`Field 'end_time' must not be before 'start_time'`);
    if (doc.window_config_static !== undefined && doc.window_config_static !== null && !isObj(doc.window_config_static))
      throw bad(`Field 'window_config_static' must be an object`);
    if (doc.recurrence !== undefined && typeof doc.recurrence !== 'boolean') throw bad(`Field 'recurrence' must be a Boolean`);
    for (const f of ['pause_description', 'cron_schedule', 'next_scheduled_time'])
      if (doc[f] !== undefined && doc[f] !== null && typeof doc[f] !== 'string') throw bad(`Field '${f}' must be a string`);
    if (doc.linked_services === undefined || doc.linked_services === null) doc.linked_services = [];
    if (
      !Array.isArray(doc.linked_services) ||
      !doc.linked_services.every((l) => isObj(l) && typeof l.service_id === 'string' && isStrArray(l.linked_kpi_ids ?? []))
    )
      throw bad(`Field 'linked_services' must be an array of {service_id, linked_kpi_ids: [string]}`);
    doc.linked_services.forEach((l) => {
      if (l.linked_kpi_ids === undefined) l.linked_kpi_ids = [];
    });
    if (doc.sec_grp_list === undefined || doc.sec_grp_list === null) doc.sec_grp_list = old?.sec_grp_list ?? [doc.sec_grp];
    validateTeamList(doc.sec_grp_list);
  },
  view(v, ctx, raw) {
    const ov = overlappingKpis(raw);
    v.is_overlapping = ov.length > 0;
    v.overlapping_kpis = ov;
    const w = writable(DEFS.custom_threshold_windows, raw, ctx.user);
    v.can_view = true;
    v.can_edit = w;
    v.can_link = w;
    v.can_transition = w && raw.status === 'active';
    return v;
  },
});

for (const d of Object.values(DEFS)) register(d);

export function validateTeamList(list) {
  if (!isStrArray(list) || list.length === 0) throw bad(`Field 'sec_grp_list' must be a non-empty array of team keys`);
  for (const t of list) if (!teamExists(t)) throw bad(`Field 'sec_grp_list' names team '${t}', which does not exist`);
}

function overlappingKpis(win) {
  if (win.status !== 'active') return [];
  const mine = new Set((win.linked_services || []).flatMap((l) => l.linked_kpi_ids));
  const out = new Set();
  for (const o of coll('custom_threshold_windows').docs()) {
    if (o._key === win._key || o.status !== 'active') continue;
    const overlapTime =
      !(typeof win.end_time === 'number' && typeof o.start_time === 'number' && win.end_time < o.start_time) &&
      !(typeof o.end_time === 'number' && typeof win.start_time === 'number' && o.end_time < win.start_time);
    if (!overlapTime) continue;
    for (const l of o.linked_services || []) for (const k of l.linked_kpi_ids) if (mine.has(k)) out.add(k);
  }
  return [...out];
}

const teamUsageCheckers = [];
export function registerTeamUsage(fn) {
  teamUsageCheckers.push(fn);
}
function teamInUse(team) {
  for (const t of SUPPORTED_TYPES) {
    if (t === 'team') continue;
    for (const d of coll(t).docs()) {
      if (d.sec_grp === team || (Array.isArray(d.sec_grp_list) && d.sec_grp_list.includes(team))) return true;
    }
  }
  return teamUsageCheckers.some((f) => f(team));
}

// ------------------------------------------------------------------ special endpoints
function aliasList(ctx) {
  const id = new Set(),
    info = new Set();
  for (const e of coll('entity').docs()) {
    if (!readable(DEFS.entity, e, ctx.user)) continue;
    for (const f of e.identifier?.fields || []) id.add(f);
    for (const f of e.informational?.fields || []) info.add(f);
  }
  return { identifier: [...id].sort(), informational: [...info].sort() };
}

async function entityKeysPayload(ctx) {
  const body = await ctx.json(true);
  if (!isObj(body) || !isStrArray(body.data) || body.data.length === 0)
    throw bad(`The payload must be {"data": [<entity key>, ...]} with at least one key`);
  return [...new Set(body.data)].map((k) => getWritable(DEFS.entity, k, ctx));
}

function retireEntities(ents, ctx) {
  const out = [];
  for (const e of ents) {
    if (e.retired === 1) continue;
    e.retired = 1;
    e.retired_time = epochSec();
    e.retirable = 0;
    touch(e, ctx);
    out.push(e._key);
  }
  return out;
}

function retirableSummary(e, ctx) {
  const v = viewOf(DEFS.entity, e, ctx);
  return { object_type: 'entity', title: v.title, retirable: v.retirable, sec_grp: v.sec_grp, _key: v._key, permissions: v.permissions };
}

async function entitySpecial(ctx, action) {
  switch (action) {
    case 'count_retirable':
      return byMethod(ctx, {
        GET: () =>
          coll('entity')
            .rows()
            .sort((a, b) => b.seq - a.seq)
            .map((r) => r.doc)
            .filter((e) => e.retirable === 1 && e.retired !== 1 && readable(DEFS.entity, e, ctx.user))
            .map((e) => retirableSummary(e, ctx)),
      });
    case 'retire':
      return byMethod(ctx, {
        POST: async () => {
          requireWriter(ctx);
          return retireEntities(await entityKeysPayload(ctx), ctx);
        },
      });
    case 'restore':
      return byMethod(ctx, {
        POST: async () => {
          requireWriter(ctx);
          const ents = await entityKeysPayload(ctx);
          const out = [];
          for (const e of ents) {
            if (e.retired !== 1) continue;
            e.retired = 0;
            delete e.retired_time;
            touch(e, ctx);
            out.push(e._key);
          }
          return out;
        },
      });
    case 'retire_retirable':
      return byMethod(ctx, {
        POST: () => {
          requireWriter(ctx);
          const ents = coll('entity')
            .docs()
            .filter((e) => e.retirable === 1 && e.retired !== 1 && writable(DEFS.entity, e, ctx.user));
          return retireEntities(ents, ctx);
        },
      });
  }
  return null;
}

// --- templatize
const DEFAULT_THRESHOLDS = {
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
function normThresholds(t) {
  const src = isObj(t) ? t : {};
  const out = { ...clone(src) };
  for (const [k, d] of Object.entries(DEFAULT_THRESHOLDS)) {
    if (typeof d === 'boolean') out[k] = typeof src[k] === 'boolean' ? src[k] : d;
    else if (typeof d === 'number')
      out[k] =
        typeof src[k] === 'number' ? src[k] : Number.isFinite(Number(src[k])) && src[k] !== '' && src[k] != null ? Number(src[k]) : d;
    else if (typeof d === 'string') out[k] = typeof src[k] === 'string' ? src[k] : d;
    else
      out[k] = Array.isArray(src[k])
        ? clone(src[k])
            .filter(isObj)
            .map((l) => ({
              severityValue: Number(l.severityValue ?? 0),
              thresholdValue: Number(l.thresholdValue ?? 0),
              severityLabel: String(l.severityLabel ?? ''),
              severityColor: String(l.severityColor ?? ''),
              severityColorLight: String(l.severityColorLight ?? ''),
              ...(l.dynamicParam !== undefined ? { dynamicParam: l.dynamicParam } : {}),
            }))
        : [];
  }
  return out;
}
const str = (v, d = '') => (v === undefined || v === null ? d : String(v));
function templKpi(k, svc) {
  const spec = isObj(k.time_variate_thresholds_specification) ? k.time_variate_thresholds_specification : {};
  const policies = {};
  for (const [pk, p] of Object.entries(isObj(spec.policies) ? spec.policies : {})) {
    const pol = isObj(p) ? p : {};
    policies[pk] = {
      title: str(pol.title, pk),
      aggregate_thresholds: normThresholds(pol.aggregate_thresholds),
      entity_thresholds: normThresholds(pol.entity_thresholds),
      policy_type: str(pol.policy_type, 'static'),
    };
  }
  if (!Object.keys(policies).length)
    policies.default_policy = {
      title: 'Default',
      aggregate_thresholds: normThresholds(k.aggregate_thresholds),
      entity_thresholds: normThresholds(k.entity_thresholds),
      policy_type: 'static',
    };
  const blocks = Array.isArray(spec.time_blocks)
    ? spec.time_blocks.filter(isObj).map((b) => ({ policy_key: str(b.policy_key), time_block_key: str(b.time_block_key) }))
    : [];
  const dm = isObj(k.datamodel) ? k.datamodel : {};
  return {
    title: str(k.title),
    service_id: svc._key,
    type: str(k.type, 'kpis_primary'),
    urgency: str(k.urgency, '5'),
    target: str(k.target ?? k.target_field),
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
    datamodel: { object: str(dm.object), datamodel: str(dm.datamodel), field: str(dm.field), owner_field: str(dm.owner_field) },
    entity_thresholds: normThresholds(k.entity_thresholds),
    time_variate_thresholds_specification: { policies, time_blocks: blocks },
  };
}
function templatize(type, doc) {
  if (type === 'service') {
    const tid = doc.base_service_template_id || '';
    return {
      title: doc.title,
      description: doc.description ?? '',
      service_template_id: tid,
      sec_grp: doc.sec_grp,
      object_type: 'base_service_template',
      _version: CURRENT_VERSION,
      enabled: doc.enabled === 0 ? 0 : 1,
      services_depends_on: clone(doc.services_depends_on || []),
      tags: clone(Array.isArray(doc.service_tags?.tags) ? doc.service_tags.tags : []),
      serviceTemplateId: tid ? [tid] : [],
      entity_rules: clone(doc.entity_rules || []),
      kpis: (doc.kpis || []).filter((k) => k.type !== 'service_health').map((k) => templKpi(k, doc)),
    };
  }
  const out = clone(doc);
  for (const f of [
    '_key',
    '_user',
    '_owner',
    'mod_time',
    'mod_timestamp',
    'mod_source',
    'mod_by',
    'create_time',
    'create_by',
    'create_source',
    'identifying_name',
    'permissions',
  ])
    delete out[f];
  out.object_type = 'kpi_base_search';
  out._version = CURRENT_VERSION;
  out.metrics = (out.metrics || []).map((m) => {
    const c = { ...m };
    delete c._key;
    return c;
  });
  return out;
}

// --- custom threshold windows
const CTW = () => DEFS.custom_threshold_windows;
function windowKeys(ctx, pathId, extra = []) {
  const ids = [pathId];
  for (const v of ctx.params.getAll('ctw_id'))
    ids.push(
      ...v
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    );
  ids.push(...extra);
  return [...new Set(ids)];
}
async function associate(ctx, pathId) {
  requireWriter(ctx);
  const body = await ctx.json(true);
  let items,
    extra = [];
  if (Array.isArray(body)) items = body;
  else if (isObj(body) && Array.isArray(body.services)) {
    items = body.services;
    for (const f of ['ctw_ids', 'keys']) {
      if (body[f] === undefined) continue;
      if (!isStrArray(body[f])) throw bad(`Field '${f}' must be an array of window keys`);
      extra.push(...body[f]);
    }
  } else throw bad(`The payload must be {"services": [{"_key": <service key>, "kpi_ids": [<kpi key>, ...]}]}`);
  items.forEach((it, i) => {
    if (!isObj(it) || typeof (it._key ?? it.service_id) !== 'string') throw bad(`services[${i}] must be an object with a string _key`);
    const ids = it.kpi_ids ?? it.linked_kpi_ids;
    if (ids !== undefined && !isStrArray(ids)) throw bad(`services[${i}].kpi_ids must be an array of strings`);
  });
  const wins = windowKeys(ctx, pathId, extra).map((k) => getWritable(CTW(), k, ctx));
  const linked = [];
  for (const it of items) {
    const skey = it._key ?? it.service_id;
    const svc = coll('service').get(skey);
    if (!svc || !writable(DEFS.service, svc, ctx.user)) continue;
    const svcKpis = (svc.kpis || []).map((k) => k._key);
    const wanted = it.kpi_ids ?? it.linked_kpi_ids;
    const ok = wanted?.length ? [...new Set(wanted.filter((k) => svcKpis.includes(k)))] : svcKpis;
    if (!ok.length) continue;
    for (const w of wins) {
      let entry = w.linked_services.find((l) => l.service_id === skey);
      if (!entry) {
        entry = { service_id: skey, linked_kpi_ids: [] };
        w.linked_services.push(entry);
      }
      for (const k of ok) if (!entry.linked_kpi_ids.includes(k)) entry.linked_kpi_ids.push(k);
    }
    linked.push({ _key: skey, kpi_ids: ok });
  }
  for (const w of wins) touch(w, ctx);
  return { services: linked };
}
function disconnect(ctx, pathId) {
  requireWriter(ctx);
  const wins = windowKeys(ctx, pathId).map((k) => getWritable(CTW(), k, ctx));
  const out = [];
  for (const w of wins) {
    for (const l of w.linked_services || []) out.push({ service_id: l.service_id, linked_kpi_ids: [...l.linked_kpi_ids] });
    w.linked_services = [];
    touch(w, ctx);
  }
  return { service_kpis_dict: out };
}
function linkedKpis(ctx) {
  const id = ctx.params.get('ctw_id') || ctx.params.get('custom_threshold_window_id');
  if (!id) throw bad(`Parameter 'ctw_id' (or 'custom_threshold_window_id') is required`);
  const limit = parseNonNegInt(ctx.params.get('limit'), 'limit');
  const w = getReadable(CTW(), id, ctx);
  const items = [];
  for (const l of w.linked_services || []) {
    const svc = coll('service').get(l.service_id);
    if (!svc || !readable(DEFS.service, svc, ctx.user)) continue;
    for (const kid of l.linked_kpi_ids) {
      const k = (svc.kpis || []).find((x) => x._key === kid);
      if (!k) continue;
      items.push({ kpi_key: kid, kpi_title: k.title, service_title: svc.title, service_key: svc._key });
    }
  }
  const all = bugs.has('linked-kpis-limit-zero') ? limit === undefined : !limit;
  return { linked_kpis: all ? items : items.slice(0, limit), count: items.length };
}
function stopWindow(ctx, id) {
  const w = getWritable(CTW(), id, ctx);
  if (w.status !== 'active') throw conflict(`Window '${id}' is '${w.status}'; only an active window can be stopped`);
  w.status = 'stopped';
  w.last_stopped_time = epochSec();
  touch(w, ctx);
  return viewOf(CTW(), w, ctx);
}

// ------------------------------------------------------------------ router
export async function handleCore(ctx, segs) {
  const [a, b, c, ..._rest] = segs;
  if (!a) throw notFound('Specify an object type, for example itoa_interface/service');
  if (a === 'get_alias_list' && segs.length === 1) return byMethod(ctx, { GET: () => aliasList(ctx) });
  if (a === 'get_supported_object_types' && segs.length === 1) return byMethod(ctx, { GET: () => [...SUPPORTED_TYPES] });
  if (a === 'content_pack') return handleLibrary(ctx, segs.slice(1));
  if (a === 'content_pack_authorship') {
    if (b !== 'content_pack') throw notFound(`Unknown path under content_pack_authorship; use content_pack_authorship/content_pack`);
    return handleAuthorship(ctx, segs.slice(2));
  }
  const def = Object.hasOwn(DEFS, a) ? DEFS[a] : null;
  if (!def) throw notFound(`Unknown object type '${a}'. See get_supported_object_types`);

  if (a === 'custom_threshold_windows') {
    if (b === 'linked_kpis' && segs.length === 2) return byMethod(ctx, { GET: () => linkedKpis(ctx) });
    if (segs.length === 3 && c === 'associate_service_kpi') return byMethod(ctx, { POST: () => associate(ctx, b) });
    if (segs.length === 3 && c === 'disconnect_kpis') return byMethod(ctx, { POST: () => disconnect(ctx, b) });
    if (segs.length === 3 && c === 'stop') return byMethod(ctx, { POST: () => stopWindow(ctx, b) });
  }
  if (a === 'entity' && segs.length === 2 && ['count_retirable', 'retire', 'restore', 'retire_retirable'].includes(b))
    return entitySpecial(ctx, b);

  if (segs.length === 1)
    return byMethod(ctx, {
      GET: () => handleList(def, ctx),
      POST: () => handleCreate(def, ctx),
      DELETE: () => handleBulkDelete(def, ctx),
    });
  if (segs.length === 2 && b === 'count') return byMethod(ctx, { GET: () => handleCount(def, ctx) });
  if (segs.length === 2 && b === 'bulk_update') return byMethod(ctx, { POST: () => handleBulkUpdate(def, ctx) });
  if (segs.length === 2)
    return byMethod(ctx, {
      GET: () => handleGet(def, ctx, b),
      POST: () => handleUpdate(def, ctx, b),
      DELETE: () => handleDeleteOne(def, ctx, b),
    });
  if (segs.length === 3 && c === 'templatize')
    return byMethod(ctx, {
      GET: () => {
        const doc = getReadable(def, b, ctx);
        if (a !== 'service' && a !== 'kpi_base_search')
          throw notFound(`templatize is supported only for service and kpi_base_search, not '${a}'`);
        return templatize(a, doc);
      },
    });
  if (segs.length === 3 && a === 'service' && c === 'base_service_template')
    return byMethod(ctx, {
      GET: () => ({ _key: getReadable(def, b, ctx).base_service_template_id || null }),
      POST: async () => {
        const svc = getWritable(def, b, ctx);
        if (!canReadTeam(ctx.user, GLOBAL_TEAM))
          throw forbidden('Linking a service to a service template requires read access to the Global team');
        const body = await ctx.json(true);
        if (!isObj(body) || typeof body._key !== 'string' || !body._key) throw bad(`The payload must be {"_key": <service template key>}`);
        const tpl = getReadable(DEFS.base_service_template, body._key, ctx);
        svc.entity_rules = bugs.has('template-link-replaces-rules')
          ? clone(tpl.entity_rules || [])
          : [...(svc.entity_rules || []), ...clone(tpl.entity_rules || [])];
        svc.base_service_template_id = tpl._key;
        touch(svc, ctx);
        return { _key: svc._key };
      },
    });
  throw notFound(`No such endpoint: itoa_interface/${segs.join('/')}`);
}
