// Objects present on a fresh server: two teams, services with entity rules, entities (one team
// the read-only user cannot read), KPI searches, a template, a threshold window, episodes, icons.

import { SPECS } from './ops-core.js';
import { seedEvents } from './ops-events.js';
import type { Ctx, Doc } from './ops-http.js';
import { seedIcons } from './ops-icons.js';
import { seedMaintenanceAndBackup } from './ops-maintenance.js';
import { buildWrite, commit } from './ops-objects.js';
import { seedAuthoring } from './ops-packs.js';
import { thresholdLevel, thresholds, timeVariateSpec } from './ops-data.js';
import { DEFAULT_GROUP } from './ops-store.js';

/** Key of the team whose objects the read-only user cannot read. */
const RESTRICTED_GROUP = 'ops_payments_team';

function hostRule(pattern: string): Doc[] {
  return [{ rule_condition: 'AND', rule_items: [{ field: 'host', field_type: 'alias', rule_type: 'matches', value: pattern }] }];
}

function kpi(title: string, baseSearch: string, metric: string): Doc {
  return {
    title,
    search_type: 'shared_base',
    base_search_id: baseSearch,
    base_search_metric: metric,
    threshold_field: 'count',
    aggregate_statop: 'avg',
    entity_statop: 'avg',
    urgency: '5',
    unit: 'ms',
    aggregate_thresholds: thresholds('normal', [thresholdLevel('high', 800), thresholdLevel('critical', 1500)]),
    entity_thresholds: thresholds('normal'),
    time_variate_thresholds: false,
    time_variate_thresholds_specification: timeVariateSpec(),
  };
}

export function seedAll(ctx: Ctx): void {
  const put = (type: string, body: Doc, key = ctx.store.newKey()): string => {
    const spec = SPECS.get(type)!;
    commit(ctx, spec, [buildWrite(ctx, spec, key, body, undefined, 'create')]);
    return key;
  };
  const get = (type: string, key: string) => ctx.store.coll(`itoa:${type}`).get(key)!.doc;

  put('team', { title: 'Global', description: 'Default team. Every role can read its objects.' }, DEFAULT_GROUP);
  put('team', { title: 'Payments Team', description: 'Objects of the payments platform' }, RESTRICTED_GROUP);

  const kbs = put('kpi_base_search', {
    title: 'Web Access Logs',
    description: 'Shared base search over web access logs',
    base_search: 'index=web sourcetype=access_combined',
    search_alert_earliest: '5',
    alert_period: '5',
    alert_lag: '30',
    entity_id_fields: 'host',
    is_entity_breakdown: true,
    metrics: [
      {
        _key: 'web_latency_metric',
        title: 'Latency',
        threshold_field: 'response_time',
        aggregate_statop: 'avg',
        entity_statop: 'avg',
        unit: 'ms',
      },
      {
        _key: 'web_errors_metric',
        title: 'Errors',
        threshold_field: 'status_5xx',
        aggregate_statop: 'sum',
        entity_statop: 'sum',
        unit: '',
      },
    ],
  });
  put('kpi_threshold_template', {
    title: 'Business hours, static',
    description: 'Tighter thresholds during business hours',
    adaptive_thresholds_is_enabled: false,
    adaptive_thresholding_training_window: '-7d',
    time_variate_thresholds: true,
    time_variate_thresholds_specification: timeVariateSpec(),
  });

  const web = put('service', {
    title: 'Web Storefront',
    description: 'Customer-facing web tier',
    entity_rules: hostRule('web-*'),
    kpis: [kpi('Request Latency', kbs, 'web_latency_metric'), kpi('Server Errors', kbs, 'web_errors_metric')],
  });
  const db = put('service', { title: 'Database Tier', description: 'Primary databases', entity_rules: hostRule('db-*') });
  get('service', web).services_depends_on = [{ serviceid: db, kpis_depending_on: [`SHKPI-${db}`] }];
  const payments = put('service', {
    title: 'Payments API',
    description: 'Card payments',
    sec_grp: RESTRICTED_GROUP,
    entity_rules: hostRule('pay-*'),
  });

  const entity = (title: string, retirable = 0, secGrp = DEFAULT_GROUP) =>
    put('entity', {
      title,
      description: `${title} host`,
      sec_grp: secGrp,
      identifier: { fields: ['host'], values: [title] },
      informational: { fields: ['os'], values: ['linux'] },
      host: [title],
      os: ['linux'],
      retirable,
    });
  entity('web-01');
  entity('web-02');
  entity('db-01', 1);
  entity('lb-01', 1);
  entity('pay-01', 0, RESTRICTED_GROUP);

  put('base_service_template', {
    title: 'Linux Host Template',
    description: 'Operating-system KPIs of Linux hosts',
    entity_rules: [{ rule_condition: 'AND', rule_items: [{ field: 'os', field_type: 'info', rule_type: 'matches', value: 'linux' }] }],
    kpis: [kpi('CPU Utilization', kbs, 'web_latency_metric')],
  });
  put('entity_type', {
    title: 'Linux host',
    description: 'Hosts running Linux',
    vital_metrics: [],
    data_drilldowns: [],
    dashboard_drilldowns: [],
  });
  put('glass_table', { title: 'Storefront Overview', description: 'Top-level view of the storefront', svg_content: '', layout: {} });
  put('deep_dive', { title: 'Storefront Deep Dive', focus_id: web, lane_settings_collection: [] });
  put('home_view', { title: 'Service Analyzer', filter: {}, layout: 'tile' });

  const webKpis = (get('service', web).kpis as Doc[]).filter((k) => k.type !== 'service_health').map((k) => String(k._key));
  const now = Math.floor(Date.now() / 1000);
  put('custom_threshold_windows', {
    title: 'Holiday traffic',
    description: 'Raise thresholds during the holiday peak',
    window_type: 'percentage',
    window_config_percentage: 20,
    start_time: now + 7 * 86400,
    end_time: now + 9 * 86400,
    linked_services: [{ service_id: web, linked_kpi_ids: webKpis.slice(0, 1) }],
  });

  seedAuthoring(ctx, [web, db], [kbs]);
  seedEvents(ctx, [web, payments]);
  seedMaintenanceAndBackup(ctx, RESTRICTED_GROUP, [web]);
  seedIcons(ctx);
}
