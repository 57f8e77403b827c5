// Content packs "present on disk". Object ids are stable so preview/install can detect installed objects.
import { stableId, kpi, healthKpi, rule, metric, thresholds, level } from './shapes.mjs';

const id = (pack, group, title) => stableId(`cp:${pack}:${group}:${title}`);

function webPack() {
  const P = 'DA-OPS-CP-webserver';
  const bs = id(P, 'kpi_base_searches', 'Web Server Activity');
  const bsStatus = id(P, 'kpi_base_searches', 'Web Server Status Codes');
  const svcWeb = id(P, 'services', 'Web Tier');
  const svcAvail = id(P, 'services', 'Web Server Availability');
  return {
    id: P,
    title: 'Content Pack for Web Server Monitoring',
    description: 'Services, KPI base searches and dashboards for monitoring nginx and Apache web servers.',
    overview: 'Monitor request rates, latency and HTTP error codes across your web tier. Includes a service topology and a glass table.',
    author: 'Ops Content Team',
    version: '1.3.0',
    icon: '/static/app/DA-OPS-CP-webserver/icon.png',
    help_links: [
      'https://docs.example.com/content-packs/webserver/1.3.0/install',
      'https://docs.example.com/content-packs/webserver/1.3.0/release-notes',
    ],
    screenshots: [
      {
        path: '/static/app/DA-OPS-CP-webserver/screenshots/overview.png',
        thumb: '/static/app/DA-OPS-CP-webserver/screenshots/overview_thumb.png',
      },
      {
        path: '/static/app/DA-OPS-CP-webserver/screenshots/analyzer.png',
        thumb: '/static/app/DA-OPS-CP-webserver/screenshots/analyzer_thumb.png',
      },
    ],
    main_screenshot: {
      path: '/static/app/DA-OPS-CP-webserver/screenshots/overview.png',
      thumb: '/static/app/DA-OPS-CP-webserver/screenshots/overview_thumb.png',
    },
    content: {
      kpi_base_searches: [
        {
          id: bs,
          title: 'Web Server Activity',
          description: 'Request volume and latency from web access logs',
          deps: [],
          object: {
            title: 'Web Server Activity',
            description: 'Request volume and latency from web access logs',
            base_search: 'index=web sourcetype IN ("nginx:plus:access","access_combined")',
            search_alert_earliest: '5',
            alert_period: '5',
            alert_lag: '30',
            entity_id_fields: 'host',
            entity_breakdown_id_fields: 'host',
            is_entity_breakdown: true,
            is_service_entity_filter: true,
            actions: '',
            metric_qualifier: '',
            enabled: 0,
            metrics: [
              metric(id(P, 'metric', 'req'), 'Request Count', 'count'),
              metric(id(P, 'metric', 'lat'), 'Average Latency', 'request_time', 'ms'),
            ],
          },
        },
        {
          id: bsStatus,
          title: 'Web Server Status Codes',
          description: 'HTTP status code breakdown',
          deps: [],
          object: {
            title: 'Web Server Status Codes',
            description: 'HTTP status code breakdown',
            base_search: 'index=web | eval is_4xx=if(status>=400 AND status<500,1,0), is_5xx=if(status>=500,1,0)',
            search_alert_earliest: '5',
            alert_period: '5',
            alert_lag: '30',
            entity_id_fields: 'host',
            entity_breakdown_id_fields: 'host',
            is_entity_breakdown: true,
            is_service_entity_filter: true,
            actions: '',
            metric_qualifier: '',
            enabled: 1,
            metrics: [metric(id(P, 'metric', '4xx'), '4xx Errors', 'is_4xx'), metric(id(P, 'metric', '5xx'), '5xx Errors', 'is_5xx')],
          },
        },
      ],
      services: [
        {
          id: svcWeb,
          title: 'Web Tier',
          description: 'All web servers serving customer traffic',
          deps: [bs, bsStatus],
          object: {
            title: 'Web Tier',
            description: 'All web servers serving customer traffic',
            enabled: 0,
            backfill_enabled: false,
            entity_rules: [rule('host', 'web-*,www*')],
            services_depends_on: [{ serviceid: svcAvail, kpis_depending_on: [`SHKPI-${svcAvail}`] }],
            service_tags: { tags: ['web', 'content-pack'] },
            kpis: [
              healthKpi(svcWeb, 'Web Tier'),
              kpi(id(P, 'kpi', 'web-req'), 'Request Rate', {
                base_search_id: bs,
                base_search_metric: id(P, 'metric', 'req'),
                threshold_field: 'count',
                unit: 'req/s',
              }),
              kpi(id(P, 'kpi', 'web-5xx'), '5xx Error Count', {
                base_search_id: bsStatus,
                base_search_metric: id(P, 'metric', '5xx'),
                threshold_field: 'is_5xx',
                aggregate_thresholds: thresholds('normal', [level('high', 10), level('critical', 50)], { metricField: 'is_5xx' }),
              }),
            ],
          },
        },
        {
          id: svcAvail,
          title: 'Web Server Availability',
          description: 'Up/down state of each web server',
          deps: [],
          object: {
            title: 'Web Server Availability',
            description: 'Up/down state of each web server',
            enabled: 0,
            backfill_enabled: false,
            entity_rules: [rule('host', 'web-*')],
            services_depends_on: [],
            service_tags: { tags: ['web'] },
            kpis: [
              healthKpi(svcAvail, 'Web Server Availability'),
              kpi(id(P, 'kpi', 'avail'), 'Hosts Responding', { threshold_field: 'up', urgency: '8' }),
            ],
          },
        },
      ],
      entity_types: [
        {
          id: id(P, 'entity_types', 'nginx'),
          title: 'Web Server (nginx)',
          description: 'nginx web server entities',
          deps: [],
          object: {
            title: 'Web Server (nginx)',
            description: 'nginx web server entities',
            dashboard_drilldowns: [],
            data_drilldowns: [],
            vital_metrics: [],
          },
        },
        {
          id: id(P, 'entity_types', 'apache'),
          title: 'Web Server (Apache)',
          description: 'Apache httpd entities',
          deps: [],
          object: {
            title: 'Web Server (Apache)',
            description: 'Apache httpd entities',
            dashboard_drilldowns: [],
            data_drilldowns: [],
            vital_metrics: [],
          },
        },
      ],
      glass_tables: [
        {
          id: id(P, 'glass_tables', 'overview'),
          title: 'Web Server Overview',
          description: 'Traffic and error overview of the web tier',
          deps: [svcWeb],
          object: {
            title: 'Web Server Overview',
            description: 'Traffic and error overview of the web tier',
            content: { layout: { type: 'absolute' }, dataSources: {}, visualizations: {} },
          },
        },
      ],
      service_analyzers: [
        {
          id: id(P, 'service_analyzers', 'web'),
          title: 'Web Tier Analyzer',
          description: 'Service analyzer scoped to the web tier',
          deps: [svcWeb],
          object: { title: 'Web Tier Analyzer', description: 'Service analyzer scoped to the web tier', filter: { services: [svcWeb] } },
        },
      ],
    },
    saved_searches: [
      {
        name: 'Web - Error Rate Alert',
        description: 'Alerts on high 5xx rate',
        disabled: 0,
        search: 'index=web status>=500 | stats count',
      },
      {
        name: 'Web - Latency Report',
        description: 'Daily latency report',
        disabled: 0,
        search: 'index=web | stats avg(request_time) by host',
      },
    ],
  };
}

function unixPack() {
  const P = 'DA-OPS-CP-unix';
  const bsCpu = id(P, 'kpi_base_searches', 'OS CPU Metrics');
  const bsMem = id(P, 'kpi_base_searches', 'OS Memory Metrics');
  const svc = id(P, 'services', 'Linux Hosts');
  const tpl = id(P, 'service_templates', 'Unix Host Template');
  const bs = (bid, title, desc, search, metrics) => ({
    id: bid,
    title,
    description: desc,
    deps: [],
    object: {
      title,
      description: desc,
      base_search: search,
      search_alert_earliest: '5',
      alert_period: '5',
      alert_lag: '30',
      entity_id_fields: 'host',
      entity_breakdown_id_fields: 'host',
      is_entity_breakdown: true,
      is_service_entity_filter: true,
      actions: '',
      metric_qualifier: '',
      enabled: 1,
      metrics,
    },
  });
  return {
    id: P,
    title: 'Content Pack for Unix and Linux Monitoring',
    description: 'Entity types, base searches and a service template for Unix and Linux hosts.',
    overview: 'Track CPU, memory and availability of Unix and Linux hosts with ready-made KPIs, a service template and an episode policy.',
    author: 'Ops Content Team',
    version: '2.0.1',
    icon: '/static/app/DA-OPS-CP-unix/icon.png',
    help_links: ['https://docs.example.com/content-packs/unix/2.0.1/overview'],
    screenshots: [
      { path: '/static/app/DA-OPS-CP-unix/screenshots/fleet.png', thumb: '/static/app/DA-OPS-CP-unix/screenshots/fleet_thumb.png' },
    ],
    main_screenshot: {
      path: '/static/app/DA-OPS-CP-unix/screenshots/fleet.png',
      thumb: '/static/app/DA-OPS-CP-unix/screenshots/fleet_thumb.png',
    },
    content: {
      kpi_base_searches: [
        bs(
          bsCpu,
          'OS CPU Metrics',
          'CPU utilisation per host',
          '| mstats avg(cpu.pct_used) AS cpu_load_percent WHERE index=os_metrics BY host',
          [metric(id(P, 'metric', 'cpu'), 'CPU Utilization %', 'cpu_load_percent', '%')],
        ),
        bs(
          bsMem,
          'OS Memory Metrics',
          'Memory utilisation per host',
          '| mstats avg(mem.pct_used) AS mem_used_percent WHERE index=os_metrics BY host',
          [metric(id(P, 'metric', 'mem'), 'Memory Used %', 'mem_used_percent', '%')],
        ),
      ],
      services: [
        {
          id: svc,
          title: 'Linux Hosts',
          description: 'All Linux hosts',
          deps: [bsCpu, bsMem],
          object: {
            title: 'Linux Hosts',
            description: 'All Linux hosts',
            enabled: 0,
            backfill_enabled: false,
            base_service_template_id: tpl,
            entity_rules: [rule('entity_type_ids', 'Unix/Linux host', 'entity_type')],
            services_depends_on: [],
            service_tags: { tags: ['os'] },
            kpis: [
              healthKpi(svc, 'Linux Hosts'),
              kpi(id(P, 'kpi', 'cpu'), 'CPU Utilization %', {
                base_search_id: bsCpu,
                base_search_metric: id(P, 'metric', 'cpu'),
                unit: '%',
              }),
              kpi(id(P, 'kpi', 'mem'), 'Memory Used %', {
                base_search_id: bsMem,
                base_search_metric: id(P, 'metric', 'mem'),
                threshold_field: 'mem_used_percent',
                unit: '%',
              }),
            ],
          },
        },
      ],
      service_templates: [
        {
          id: tpl,
          title: 'Unix Host Template',
          description: 'Template for Unix/Linux host services',
          deps: [bsCpu, bsMem],
          object: {
            title: 'Unix Host Template',
            description: 'Template for Unix/Linux host services',
            entity_rules: [rule('os', 'linux*,*nix', 'info')],
            kpis: [
              kpi(id(P, 'tkpi', 'cpu'), 'CPU Utilization %', {
                base_search_id: bsCpu,
                base_search_metric: id(P, 'metric', 'cpu'),
                unit: '%',
              }),
            ],
          },
        },
      ],
      entity_types: [
        {
          id: id(P, 'entity_types', 'unix'),
          title: 'Unix/Linux host',
          description: 'Hosts running a Unix-like operating system',
          deps: [],
          object: {
            title: 'Unix/Linux host',
            description: 'Hosts running a Unix-like operating system',
            dashboard_drilldowns: [],
            data_drilldowns: [],
            vital_metrics: [
              { metric_name: 'CPU Usage', search: '| mstats avg(cpu.pct_used) WHERE index=os_metrics', is_key: 1, unit: '%' },
            ],
          },
        },
      ],
      glass_tables: [
        {
          id: id(P, 'glass_tables', 'fleet'),
          title: 'Unix Fleet Overview',
          description: 'Health of the Unix/Linux fleet',
          deps: [svc],
          object: {
            title: 'Unix Fleet Overview',
            description: 'Health of the Unix/Linux fleet',
            content: { layout: { type: 'absolute' }, dataSources: {}, visualizations: {} },
          },
        },
      ],
      deep_dives: [
        {
          id: id(P, 'deep_dives', 'host'),
          title: 'Linux Host Deep Dive',
          description: 'CPU and memory lanes per host',
          deps: [svc],
          object: {
            title: 'Linux Host Deep Dive',
            description: 'CPU and memory lanes per host',
            lane_settings_collection: [],
            focus_id: '',
            is_named: true,
          },
        },
      ],
      correlation_searches: [
        {
          id: id(P, 'correlation_searches', 'down'),
          title: 'Unix host down',
          description: 'Raises a notable event when a host stops reporting',
          deps: [],
          object: {
            title: 'Unix host down',
            name: 'Unix host down',
            description: 'Raises a notable event when a host stops reporting',
            search: '| tstats latest(_time) AS last WHERE index=os BY host | where last < relative_time(now(), "-15m")',
            cron_schedule: '*/5 * * * *',
            severity: '5',
            enabled: 0,
            disabled: 1,
          },
        },
      ],
      notable_aggregation_policies: [
        {
          id: id(P, 'notable_aggregation_policies', 'byhost'),
          title: 'Unix episodes by host',
          description: 'Groups Unix notable events per host',
          deps: [],
          object: {
            title: 'Unix episodes by host',
            description: 'Groups Unix notable events per host',
            enabled: 0,
            split_by_field: 'host',
            filter_criteria: {
              condition: 'AND',
              items: [{ type: 'notable_event_field', config: { field: 'source', operator: '=', value: 'Unix host down' } }],
            },
            breaking_criteria: { condition: 'OR', items: [{ type: 'pause', config: { limit: 3600 } }] },
            rules: [],
          },
        },
      ],
    },
    saved_searches: [
      {
        name: 'Unix - Disk Space Report',
        description: 'Weekly disk report',
        disabled: 1,
        search: 'index=os sourcetype=df | stats max(UsePct) by host, Filesystem',
      },
      {
        name: 'Unix - Failed Logins',
        description: 'Failed ssh logins',
        disabled: 0,
        search: 'index=os sourcetype=linux_secure "Failed password"',
      },
    ],
  };
}

function cloudPack() {
  const P = 'DA-OPS-CP-cloud';
  return {
    id: P,
    title: 'Content Pack for Cloud Load Balancers',
    description: 'KPIs for cloud load balancers.',
    overview: 'Latency and healthy-host KPIs for managed load balancers.',
    author: 'Ops Content Team',
    version: '1.0.0',
    icon: '/static/app/DA-OPS-CP-cloud/icon.png',
    help_links: [],
    screenshots: [],
    main_screenshot: { path: '', thumb: '' },
    content: {
      entity_types: [
        {
          id: id(P, 'entity_types', 'lb'),
          title: 'Load Balancer',
          description: 'Managed load balancer',
          deps: [],
          object: {
            title: 'Load Balancer',
            description: 'Managed load balancer',
            dashboard_drilldowns: [],
            data_drilldowns: [],
            vital_metrics: [],
          },
        },
      ],
    },
    saved_searches: [],
  };
}

export function initialLibrary() {
  const local = new Map();
  for (const p of [webPack(), unixPack(), cloudPack()]) local.set(p.id, p);
  const broken = new Map([
    [
      'DA-OPS-CP-legacy',
      {
        id: 'DA-OPS-CP-legacy',
        version: '0.9.2',
        error_type: 'INVALID_MANIFEST',
        error_message: "Failed to load content pack: app.manifest is missing the required 'info.title' field",
      },
    ],
  ]);
  // ops_content_packs.conf: the cloud pack is on disk but not yet synchronised (see POST content_pack/refresh)
  const conf = ['DA-OPS-CP-webserver', 'DA-OPS-CP-unix', 'DA-OPS-CP-legacy'];
  return { local, broken, conf, installedVersions: new Map() };
}
