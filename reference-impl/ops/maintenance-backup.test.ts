import { describe, expect, it } from 'vitest';
import { BACKUP_PATH, MAINTENANCE_PATH, opsClient } from './test-client';

type Row = Record<string, unknown>;
const MW = `${MAINTENANCE_PATH}/maintenance_calendar`;
const BK = `${BACKUP_PATH}/backup_restore`;

describe('maintenance windows', () => {
  it('lists supported types and restricts list and count to readable windows', async () => {
    const call = opsClient();
    expect((await call('GET', `${MAINTENANCE_PATH}/get_supported_object_types`)).body).toEqual(['maintenance_calendar']);
    const all = (await call('GET', MW)).body as Row[];
    const mine = (await call('GET', MW, { as: 'analyst' })).body as Row[];
    expect(mine.length).toBe(all.length - 1);
    expect((await call('GET', `${MW}/count`, { as: 'analyst' })).body).toEqual({ count: mine.length });
  });

  it('creates, updates partially and deletes a window', async () => {
    const call = opsClient();
    const created = await call('POST', MW, {
      body: { title: 'Patch', start_time: 1700000000.5, end_time: 1700003600, objects: [{ object_type: 'service', _key: 'svc_database' }] },
    });
    const key = (created.body as Row)._key as string;
    expect(key).toMatch(/^[0-9a-f]{24}$/);
    await call('POST', `${MW}/${key}`, { query: { is_partial_data: '1' }, body: { end_time: 1700007200 } });
    const w = (await call('GET', `${MW}/${key}`)).body as Row;
    expect(w).toMatchObject({
      title: 'Patch',
      end_time: 1700007200,
      object_type: 'maintenance_calendar',
      sec_grp_list: ['default_ops_security_group'],
    });
    expect((await call('POST', MW, { body: { title: 'bad', objects: [{ object_type: 'team', _key: 'x' }] } })).status).toBe(400);
    expect((await call('DELETE', `${MW}/${key}`)).status).toBe(204);
    expect((await call('GET', `${MW}/${key}`)).status).toBe(404);
  });
});

describe('backup and restore jobs', () => {
  it('creates a job with defaults and never deletes the default scheduled backup', async () => {
    const call = opsClient();
    const created = await call('POST', BK, { body: { title: 'Nightly extra', job_type: 'Backup', status: 'Queued' } });
    const key = (created.body as Row)._key as string;
    const job = (await call('GET', `${BK}/${key}`)).body as Row;
    expect(job).toMatchObject({ title: 'Nightly extra', job_type: 'Backup', status: 'Queued', object_type: 'backup_restore' });
    expect(job.create_time).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);

    const single = await call('DELETE', `${BK}/default_scheduled_backup`);
    expect(single.status).toBe(400);
    expect(single.body).toHaveProperty('message');
    expect((await call('DELETE', BK)).status).toBe(204);
    const left = (await call('GET', BK)).body as Row[];
    expect(left.map((j) => j._key)).toEqual(['default_scheduled_backup']);
    expect((await call('GET', `${BK}/count`)).body).toEqual({ count: 1 });
  });
});
