// The content-pack library: packs, their versions and what each version holds.

const shot = (name) => ({
  path: `/static/app/SA-ITOA/content_packs/${name}/screenshot.png`,
  thumb: `/static/app/SA-ITOA/content_packs/${name}/thumb.png`,
});

function svc(id, title, dependsOn = [], kpis = ['CPU Utilization']) {
  return { id, title, description: `${title} monitored by the pack`, depends_on: dependsOn, kpis };
}

const unix = {
  id: 'DA-OPS-CP-unix-dashboards',
  title: 'Monitoring Unix and Linux',
  description: 'Dashboards and services for Unix and Linux hosts.',
  overview: 'Monitor the operating systems of your hosts with ready-made services, KPIs and glass tables.',
  author: 'Operations Content Team',
  icon: '/static/app/SA-ITOA/content_packs/unix/icon.png',
  help_links: ['https://docs.example.com/ops/cp/unix'],
  versions: {
    '1.1.0': {
      services: [svc('cp_unix_cpu', 'OS Hosts CPU'), svc('cp_unix_memory', 'OS Hosts Memory', [], ['Memory Used'])],
      kpi_base_searches: [
        { id: 'cp_unix_bs_os', title: 'OS Performance Base Search', description: 'Shared base search for OS metrics', enabled: 1 },
      ],
      entity_types: [{ id: 'cp_unix_et_nix', title: 'Unix and Linux host', description: 'Entity type for *nix hosts' }],
      glass_tables: [{ id: 'cp_unix_gt_overview', title: 'Unix Overview', description: 'Overview glass table' }],
    },
    '1.2.0': {
      services: [
        svc('cp_unix_cpu', 'OS Hosts CPU'),
        svc('cp_unix_memory', 'OS Hosts Memory', [], ['Memory Used']),
        svc('cp_unix_disk', 'OS Hosts Disk', [], ['Disk Used']),
        svc('cp_unix_os_hosts', 'OS Hosts', ['cp_unix_cpu', 'cp_unix_memory', 'cp_unix_disk'], []),
      ],
      kpi_base_searches: [
        { id: 'cp_unix_bs_os', title: 'OS Performance Base Search', description: 'Shared base search for OS metrics', enabled: 1 },
      ],
      entity_types: [{ id: 'cp_unix_et_nix', title: 'Unix and Linux host', description: 'Entity type for *nix hosts' }],
      glass_tables: [{ id: 'cp_unix_gt_overview', title: 'Unix Overview', description: 'Overview glass table' }],
      service_analyzers: [{ id: 'cp_unix_sa_hosts', title: 'OS Hosts Analyzer', description: 'Service analyzer for OS hosts' }],
      saved_searches: [{ id: 'cp_unix_ss_collect', title: 'Unix - collect inventory', description: 'Inventory search', enabled: 0 }],
    },
  },
};

const aws = {
  id: 'DA-OPS-CP-aws-dashboards',
  title: 'Monitoring Cloud Compute',
  description: 'Services and dashboards for cloud compute accounts.',
  overview: 'Track instances, load balancers and storage of cloud accounts.',
  author: 'Operations Content Team',
  icon: '/static/app/SA-ITOA/content_packs/aws/icon.png',
  help_links: ['https://docs.example.com/ops/cp/cloud', 'https://docs.example.com/ops/cp/cloud/setup'],
  versions: {
    '2.0.0': {
      services: [svc('cp_aws_ec2', 'Cloud Instances'), svc('cp_aws_elb', 'Cloud Load Balancers', [], ['Latency'])],
      entity_types: [{ id: 'cp_aws_et_instance', title: 'Cloud instance', description: 'Entity type for instances' }],
    },
    '2.1.0': {
      services: [
        svc('cp_aws_ec2', 'Cloud Instances'),
        svc('cp_aws_elb', 'Cloud Load Balancers', [], ['Latency']),
        svc('cp_aws_account', 'Cloud Account', ['cp_aws_ec2', 'cp_aws_elb'], []),
      ],
      entity_types: [{ id: 'cp_aws_et_instance', title: 'Cloud instance', description: 'Entity type for instances' }],
      correlation_searches: [
        {
          id: 'cp_aws_cs_instance_down',
          title: 'Cloud instance down',
          description: 'Raises a notable event when an instance stops reporting',
        },
      ],
      aggregation_policies: [
        { id: 'cp_aws_np_default', title: 'Cloud episodes by account', description: 'Groups cloud events per account' },
      ],
    },
    '2.2.0': {
      services: [
        svc('cp_aws_ec2', 'Cloud Instances'),
        svc('cp_aws_elb', 'Cloud Load Balancers', [], ['Latency']),
        svc('cp_aws_account', 'Cloud Account', ['cp_aws_ec2', 'cp_aws_elb'], []),
      ],
      entity_types: [{ id: 'cp_aws_et_instance', title: 'Cloud instance', description: 'Entity type for instances' }],
      correlation_searches: [
        {
          id: 'cp_aws_cs_instance_down',
          title: 'Cloud instance down',
          description: 'Raises a notable event when an instance stops reporting',
        },
      ],
      aggregation_policies: [
        { id: 'cp_aws_np_default', title: 'Cloud episodes by account', description: 'Groups cloud events per account' },
      ],
      deep_dives: [{ id: 'cp_aws_dd_instances', title: 'Cloud instances deep dive', description: 'Lanes for instance KPIs' }],
      saved_searches: [{ id: 'cp_aws_ss_inventory', title: 'Cloud - inventory', description: 'Inventory search', enabled: 1 }],
    },
  },
};

const k8s = {
  id: 'DA-OPS-CP-monitoring-kubernetes',
  title: 'Monitoring Container Clusters',
  description: 'Cluster, node and workload services.',
  overview: 'Services for clusters, nodes and pods with KPI thresholds tuned for containers.',
  author: 'Platform Observability Group',
  icon: null,
  help_links: [],
  versions: {
    '1.0.0': {
      services: [
        svc('cp_k8s_nodes', 'Cluster Nodes'),
        svc('cp_k8s_pods', 'Cluster Pods', [], ['Pod Restarts']),
        svc('cp_k8s_cluster', 'Cluster', ['cp_k8s_nodes', 'cp_k8s_pods'], []),
      ],
      service_templates: [{ id: 'cp_k8s_tpl_node', title: 'Cluster node template', description: 'Template for node services' }],
      kpi_threshold_templates: [{ id: 'cp_k8s_tt_restarts', title: 'Restart thresholds', description: 'Thresholds for restart counts' }],
    },
  },
};

const webapp = {
  id: 'DA-OPS-CP-web-application',
  title: 'Web Application Monitoring',
  description: 'Front end and back end services of a web application.',
  overview: 'Measures request rates, error rates and latency of web tiers.',
  author: 'Operations Content Team',
  icon: '/static/app/SA-ITOA/content_packs/webapp/icon.png',
  help_links: ['https://docs.example.com/ops/cp/web'],
  versions: {
    '3.0.1': {
      services: [
        svc('cp_web_frontend', 'Web Front End', [], ['Request Rate', 'Error Rate']),
        svc('cp_web_backend', 'Web Back End', [], ['Latency']),
        svc('cp_web_app', 'Web Application', ['cp_web_frontend', 'cp_web_backend'], []),
      ],
      glass_tables: [{ id: 'cp_web_gt_topology', title: 'Web topology', description: 'Topology glass table' }],
    },
  },
};

export const SEED_PACKS = [unix, aws, k8s, webapp].map((p) => ({
  ...p,
  screenshots: [shot(p.id), shot(`${p.id}-2`)],
  main_screenshot: shot(p.id),
}));

export const SEED_FAILURES = [
  {
    id: 'DA-OPS-CP-legacy-storage',
    version: '0.9.0',
    message: 'failed to load content pack: manifest.json is missing from the pack directory',
  },
];

/** Where each preview group installs to. */
export const GROUP_TARGETS = {
  services: { space: 'itoa', type: 'service' },
  service_templates: { space: 'itoa', type: 'base_service_template' },
  kpi_base_searches: { space: 'itoa', type: 'kpi_base_search' },
  kpi_threshold_templates: { space: 'itoa', type: 'kpi_threshold_template' },
  entity_types: { space: 'itoa', type: 'entity_type' },
  glass_tables: { space: 'itoa', type: 'glass_table' },
  deep_dives: { space: 'itoa', type: 'deep_dive' },
  service_analyzers: { space: 'itoa', type: 'home_view' },
  correlation_searches: { space: 'em', type: 'correlation_search' },
  aggregation_policies: { space: 'em', type: 'notable_aggregation_policy' },
  saved_searches: { space: 'platform', type: 'saved_search' },
};

/** Object-type names a client may use instead of group names in `content`. */
export const TYPE_TO_GROUP = {
  service: 'services',
  base_service_template: 'service_templates',
  kpi_base_search: 'kpi_base_searches',
  kpi_threshold_template: 'kpi_threshold_templates',
  entity_type: 'entity_types',
  glass_table: 'glass_tables',
  deep_dive: 'deep_dives',
  home_view: 'service_analyzers',
  correlation_search: 'correlation_searches',
  notable_aggregation_policy: 'aggregation_policies',
  saved_search: 'saved_searches',
  savedsearches: 'saved_searches',
};
