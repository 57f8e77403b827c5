import { describe, expect, it } from 'vitest';
import { ITOA_PATH, opsClient } from './test-client';

type Row = Record<string, unknown>;
const CP = `${ITOA_PATH}/content_pack`;

describe('content pack library', () => {
  it('lists packs with success and failure, honouring count, offset and sort_dir', async () => {
    const call = opsClient();
    const res = (await call('GET', CP)).body as { success: Row[]; failure: Row[] };
    expect(res.success).toHaveLength(3);
    expect(res.failure).toHaveLength(1);
    expect(res.success[0]).not.toHaveProperty('objects');
    for (const f of ['id', 'title', 'version', 'installed_versions', 'screenshots', 'main_screenshot', 'help_links']) {
      expect(res.success[0]).toHaveProperty(f);
    }
    const page = (await call('GET', CP, { query: { sort_key: 'title', sort_dir: 'desc', count: '1', offset: '1' } })).body as {
      success: Row[];
    };
    expect(page.success.map((p) => p.title)).toEqual(['Unix and Linux Monitoring']);
    expect((await call('GET', CP, { query: { count: 'x' } })).status).toBe(400);
  });

  it('reads one pack by name and version', async () => {
    const call = opsClient();
    expect(((await call('GET', `${CP}/DA-OPS-CP-unix/2.0.1`)).body as Row).title).toBe('Unix and Linux Monitoring');
    expect((await call('GET', `${CP}/DA-OPS-CP-unix/9.9.9`)).status).toBe(404);
    expect((await call('GET', `${CP}/nope/1.0.0`)).status).toBe(404);
  });

  it('previews by group with installed flags and saved_searches', async () => {
    const call = opsClient();
    const p = (await call('GET', `${CP}/DA-OPS-CP-webserver/1.2.0/preview`)).body as Record<string, Row[] | Row>;
    expect(Object.keys(p)).toEqual(expect.arrayContaining(['services', 'glass_tables', 'saved_searches']));
    expect((p.services as Row[])[0]).toEqual({
      id: 'cp_web_frontend',
      title: 'Web Frontend',
      description: 'Web servers answering users',
      entitlement_status: true,
      installed: false,
      has_dependency: true,
    });
    expect(p.saved_searches).toEqual({ has_saved_searches: true, has_consistent_status: true });
  });

  it('installs with prefix and enabled, then reports conflicts, skips or overwrites', async () => {
    const call = opsClient();
    const path = `${CP}/DA-OPS-CP-webserver/1.2.0/install`;
    const first = (await call('POST', path, { body: { prefix: 'Acme ', enabled: 1 } })).body as Row;
    expect(first.failure).toEqual([]);
    expect(first.success).toEqual(
      expect.arrayContaining([
        {
          services: [
            { id: 'cp_web_frontend', title: 'Acme Web Frontend' },
            { id: 'cp_web_backend', title: 'Acme Web Backend' },
          ],
        },
      ]),
    );
    expect(first.saved_searches).toMatchObject({ action_performed: 'enable', success: ['Web - Hourly traffic summary'], failure: [] });
    const svc = (await call('GET', `${ITOA_PATH}/service/cp_web_frontend`)).body as Row;
    expect(svc).toMatchObject({ title: 'Acme Web Frontend', enabled: 1, identifying_name: 'acme web frontend' });
    const cs = (await call('GET', '/servicesNS/nobody/SA-ITOA/event_management_interface/correlation_search/cp_web_cs_5xx')).body as Row;
    expect(cs.enabled).toBe(1);
    const pack = (await call('GET', `${CP}/DA-OPS-CP-webserver/1.2.0`)).body as Row;
    expect(pack.installed_versions).toEqual(['1.2.0']);
    expect(((await call('GET', `${CP}/DA-OPS-CP-webserver/1.2.0/preview`)).body as Record<string, Row[]>).services![0]!.installed).toBe(
      true,
    );

    await call('POST', `${ITOA_PATH}/service/cp_web_frontend`, { query: { is_partial_data: '1' }, body: { title: 'Changed' } });
    const again = (await call('POST', path, { body: { content: { services: ['cp_web_frontend'] } } })).body as Row;
    expect(again.success).toEqual([]);
    expect(again.failure).toEqual([
      { content_type: 'services', id: 'cp_web_frontend', title: 'Web Frontend', type: 'OBJECT_ALREADY_EXISTS' },
    ]);
    const skipped = (await call('POST', path, { body: { content: { services: ['cp_web_frontend'] }, resolution: 'skip' } })).body as Row;
    expect(skipped).toMatchObject({ success: [], failure: [] });
    expect(((await call('GET', `${ITOA_PATH}/service/cp_web_frontend`)).body as Row).title).toBe('Changed');
    const over = (await call('POST', path, { body: { content: { services: ['cp_web_frontend'] }, resolution: 'overwrite' } })).body as Row;
    expect(over.success).toEqual([{ services: [{ id: 'cp_web_frontend', title: 'Web Frontend' }] }]);
    const replaced = (await call('GET', `${ITOA_PATH}/service/cp_web_frontend`)).body as Row;
    expect(replaced).toMatchObject({ title: 'Web Frontend', enabled: 0 });
  });

  it('rejects bad install options', async () => {
    const call = opsClient();
    const path = `${CP}/DA-OPS-CP-unix/2.0.1/install`;
    expect((await call('POST', path, { body: { resolution: 'merge' } })).status).toBe(400);
    expect((await call('POST', path, { body: { content: ['x'] } })).status).toBe(400);
    expect((await call('POST', path, { body: { prefix: 3 } })).status).toBe(400);
    expect((await call('POST', path, { as: 'analyst', body: {} })).status).toBe(403);
  });

  it('refreshes the app list', async () => {
    const call = opsClient();
    const res = (await call('POST', `${CP}/refresh`, { body: { apps_removed: ['DA-OPS-CP-cloud', 'unknown'] } })).body;
    expect(res).toEqual({
      success: { apps_added: [], apps_removed: ['DA-OPS-CP-cloud'] },
      failed: { apps_added: [], apps_removed: ['unknown'] },
    });
    expect(((await call('GET', CP)).body as { success: Row[] }).success).toHaveLength(2);
    await call('POST', `${CP}/refresh`, { body: { apps_added: ['DA-OPS-CP-cloud'] } });
    expect(((await call('GET', CP)).body as { success: Row[] }).success).toHaveLength(3);
    expect((await call('GET', `${CP}/refresh`)).status).toBe(405);
  });
});
