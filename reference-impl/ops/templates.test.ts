import { describe, expect, it } from 'vitest';
import { ITOA_PATH, opsClient } from './test-client';

type Row = Record<string, unknown>;

describe('templatize', () => {
  it('exports a service as a service template without the health score KPI', async () => {
    const call = opsClient();
    const res = await call('GET', `${ITOA_PATH}/service/svc_web_store/templatize`);
    expect(res.status).toBe(200);
    const t = res.body as Row;
    expect(t).toMatchObject({ title: 'Web Store', object_type: 'base_service_template', enabled: 1, _version: '4.19.0' });
    expect(typeof t.service_template_id).toBe('string');
    for (const f of ['services_depends_on', 'tags', 'serviceTemplateId', 'kpis']) expect(Array.isArray(t[f])).toBe(true);
    const kpis = t.kpis as Row[];
    expect(kpis.map((k) => k.title)).toEqual(['Request Latency', 'Error Rate']);
    expect(kpis[0]).toMatchObject({ tz_offset: null, time_variate_thresholds: false, datamodel_filter: [] });
    expect(kpis[0]!.time_variate_thresholds_specification).toHaveProperty('time_blocks');
  });

  it('exports a KPI base search and refuses other types', async () => {
    const call = opsClient();
    const kbs = (await call('GET', `${ITOA_PATH}/kpi_base_search/kbs_web_access/templatize`)).body as Row;
    expect(kbs).toMatchObject({ title: 'Web Access Logs', object_type: 'kpi_base_search' });
    expect(kbs._key).toBeUndefined();
    expect((await call('GET', `${ITOA_PATH}/team/team_network/templatize`)).status).toBe(400);
    expect((await call('GET', `${ITOA_PATH}/service/missing/templatize`)).status).toBe(404);
  });
});

describe('base_service_template link', () => {
  it('answers the linked template, 404 when unlinked', async () => {
    const call = opsClient();
    expect((await call('GET', `${ITOA_PATH}/service/svc_web_store/base_service_template`)).body).toEqual({ _key: 'bst_web_tier' });
    expect((await call('GET', `${ITOA_PATH}/service/svc_database/base_service_template`)).status).toBe(404);
  });

  it('links and appends the template entity rules', async () => {
    const call = opsClient();
    const before = (await call('GET', `${ITOA_PATH}/service/svc_database`)).body as Row;
    const res = await call('POST', `${ITOA_PATH}/service/svc_database/base_service_template`, { body: { _key: 'bst_database' } });
    expect(res).toMatchObject({ status: 200, body: { _key: 'svc_database' } });
    const after = (await call('GET', `${ITOA_PATH}/service/svc_database`)).body as Row;
    const template = (await call('GET', `${ITOA_PATH}/base_service_template/bst_database`)).body as Row;
    expect(after.entity_rules).toEqual([...(before.entity_rules as unknown[]), ...(template.entity_rules as unknown[])]);
    expect(template.linked_services).toContain('svc_database');
    expect((await call('GET', `${ITOA_PATH}/service/svc_database/base_service_template`)).body).toEqual({ _key: 'bst_database' });
  });

  it('refuses read-only users, bad bodies and unknown templates', async () => {
    const call = opsClient();
    const path = `${ITOA_PATH}/service/svc_database/base_service_template`;
    expect((await call('POST', path, { as: 'analyst', body: { _key: 'bst_database' } })).status).toBe(403);
    expect((await call('POST', path, { body: {} })).status).toBe(400);
    expect((await call('POST', path, { body: { _key: 'nope' } })).status).toBe(404);
  });
});
