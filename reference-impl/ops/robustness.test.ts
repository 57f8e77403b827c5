import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BACKUP_PATH, EVENTS_PATH, ICONS_PATH, ITOA_PATH, MAINTENANCE_PATH, opsClient } from './test-client';

const PATHS = [
  `${ITOA_PATH}/entity`,
  `${ITOA_PATH}/entity/ent_web_01`,
  `${ITOA_PATH}/service/bulk_update`,
  `${ITOA_PATH}/entity/retire`,
  `${ITOA_PATH}/entity/restore`,
  `${ITOA_PATH}/service/svc_web_store/base_service_template`,
  `${ITOA_PATH}/service/svc_web_store/templatize`,
  `${ITOA_PATH}/content_pack`,
  `${ITOA_PATH}/content_pack/refresh`,
  `${ITOA_PATH}/content_pack/DA-OPS-CP-unix/2.0.1/install`,
  `${ITOA_PATH}/content_pack_authorship/content_pack`,
  `${ITOA_PATH}/content_pack_authorship/content_pack/ccp_storefront`,
  `${ITOA_PATH}/custom_threshold_windows/ctw_black_friday/associate_service_kpi`,
  `${ITOA_PATH}/custom_threshold_windows/linked_kpis`,
  `${EVENTS_PATH}/notable_event_comment`,
  `${EVENTS_PATH}/notable_event_aggregation_policy`,
  `${EVENTS_PATH}/notable_event_aggregation_policy/nap_default`,
  `${EVENTS_PATH}/correlation_search/`,
  `${ITOA_PATH}/service/`,
  `${ITOA_PATH}/service/svc_web_store`,
  `${EVENTS_PATH}/notable_event_group/ep_web_latency`,
  `${EVENTS_PATH}/notable_event_actions/email`,
  `${EVENTS_PATH}/ticketing`,
  `${EVENTS_PATH}/ticketing/ep_web_latency`,
  `${MAINTENANCE_PATH}/maintenance_calendar`,
  `${BACKUP_PATH}/backup_restore/bk_pre_upgrade`,
  ICONS_PATH,
  `${ITOA_PATH}/%E0%A4%A/x`,
  `${ITOA_PATH}/__proto__/constructor`,
];

const QUERY_NAMES = [
  'filter',
  'filter_data',
  'sort_key',
  'sort_dir',
  'limit',
  'offset',
  'skip',
  'count',
  'fields',
  'is_partial_data',
  'category',
  'ctw_id',
  'status',
];

describe('robustness', () => {
  it('never answers 5xx nor throws, whatever the body and parameters', async () => {
    const call = opsClient();
    const body = fc.oneof(
      fc.jsonValue(),
      fc.constant({ __proto__: { polluted: 1 }, title: 'x' }),
      fc.constant(JSON.parse('{"__proto__": {"title": 1}, "_key": "k", "title": "t", "data": ["__proto__"]}')),
      fc.constant([{ _key: 'ent_web_01', title: 1e308 }]),
      fc.constant(
        JSON.parse('{"content": {"__proto__": ["x"], "constructor": ["y"]}, "services": [{"_key": "__proto__", "kpi_ids": []}]}'),
      ),
      fc.constant(JSON.parse('{"ops_objects": {"__proto__": ["x"]}, "title": "t", "metadata": {"__proto__": {}}}')),
    );
    const query = fc.dictionary(fc.constantFrom(...QUERY_NAMES), fc.oneof(fc.string(), fc.constant('{"$where":"x"}'), fc.constant('-1')), {
      maxKeys: 4,
    });
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...PATHS),
        fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH'),
        body,
        query,
        async (path, method, b, q) => {
          const res = await call(method, path, { body: b, query: q });
          expect(res.status).toBeLessThan(500);
          JSON.stringify(res.body);
        },
      ),
      { numRuns: 600 },
    );
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
