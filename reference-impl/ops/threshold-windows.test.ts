import { describe, expect, it } from 'vitest';
import { ITOA_PATH, opsClient } from './test-client';

type Row = Record<string, unknown>;
const CTW = `${ITOA_PATH}/custom_threshold_windows`;

describe('custom threshold windows', () => {
  it('stores the status in lower case through core CRUD', async () => {
    const call = opsClient();
    const { _key } = (await call('POST', CTW, { body: { title: 'Sale', status: 'Active' } })).body as Row;
    expect(((await call('GET', `${CTW}/${_key as string}`)).body as Row).status).toBe('active');
  });

  it('associates KPIs, lists them with count and limit, and disconnects them', async () => {
    const call = opsClient();
    const res = await call('POST', `${CTW}/ctw_nightly_batch/associate_service_kpi`, {
      body: {
        services: [
          { _key: 'svc_database', kpi_ids: ['kpi_db_query_time'] },
          { _key: 'svc_web_store', kpi_ids: ['kpi_web_latency', 'kpi_web_errors'] },
        ],
      },
    });
    expect(res.body).toEqual({
      services: [
        { _key: 'svc_database', kpi_ids: ['kpi_db_query_time'] },
        { _key: 'svc_web_store', kpi_ids: ['kpi_web_latency', 'kpi_web_errors'] },
      ],
    });
    const linked = (await call('GET', `${CTW}/linked_kpis`, { query: { ctw_id: 'ctw_nightly_batch', limit: '2' } })).body as Row;
    expect(linked.count).toBe(3);
    expect(linked.linked_kpis).toHaveLength(2);
    expect((linked.linked_kpis as Row[])[0]).toEqual({
      kpi_key: 'kpi_db_query_time',
      kpi_title: 'Query Time',
      service_title: 'Database Tier',
      service_key: 'svc_database',
    });
    const all = (await call('GET', `${CTW}/linked_kpis`, { query: { custom_threshold_window_id: 'ctw_nightly_batch', limit: '0' } }))
      .body as Row;
    expect(all.linked_kpis).toHaveLength(3);
    const gone = (await call('POST', `${CTW}/ctw_nightly_batch/disconnect_kpis`)).body as Row;
    expect(gone.service_kpis_dict).toHaveLength(2);
    expect(((await call('GET', `${CTW}/linked_kpis`, { query: { ctw_id: 'ctw_nightly_batch' } })).body as Row).count).toBe(0);
  });

  it('rejects bad association bodies and unknown windows', async () => {
    const call = opsClient();
    expect((await call('POST', `${CTW}/ctw_nightly_batch/associate_service_kpi`, { body: { services: 'x' } })).status).toBe(400);
    expect(
      (
        await call('POST', `${CTW}/ctw_nightly_batch/associate_service_kpi`, {
          body: { services: [{ _key: 'svc_database', kpi_ids: ['nope'] }] },
        })
      ).status,
    ).toBe(400);
    expect((await call('POST', `${CTW}/missing/stop`)).status).toBe(404);
    expect((await call('GET', `${CTW}/linked_kpis`)).status).toBe(400);
  });

  it('stops an active window', async () => {
    const call = opsClient();
    const res = await call('POST', `${CTW}/ctw_black_friday/stop`);
    const w = res.body as Row;
    expect(w).toMatchObject({ _key: 'ctw_black_friday', status: 'stopped' });
    expect(typeof w.last_stopped_time).toBe('number');
    expect(Math.abs((w.last_stopped_time as number) - Date.now() / 1000)).toBeLessThan(5);
  });
});
