import { describe, expect, it } from 'vitest';
import { ITOA_PATH, opsClient } from './test-client';

type Row = Record<string, unknown>;

describe('entity retirement', () => {
  it('retires listed entities, unlinking them, and restores the links', async () => {
    const call = opsClient();
    const retired = await call('POST', `${ITOA_PATH}/entity/retire`, { body: { data: ['ent_web_01'] } });
    expect(retired).toMatchObject({ status: 200, body: ['ent_web_01'] });
    const after = (await call('GET', `${ITOA_PATH}/entity/ent_web_01`)).body as Row;
    expect(after).toMatchObject({ retired: 1, services: [] });
    const restored = await call('POST', `${ITOA_PATH}/entity/restore`, { body: { data: ['ent_web_01'] } });
    expect(restored.body).toEqual(['ent_web_01']);
    const back = (await call('GET', `${ITOA_PATH}/entity/ent_web_01`)).body as Row;
    expect(back.retired).toBeUndefined();
    expect(back.services).toEqual([{ _key: 'svc_web_store', title: 'Web Store' }]);
  });

  it('rejects bad bodies and unknown keys', async () => {
    const call = opsClient();
    expect((await call('POST', `${ITOA_PATH}/entity/retire`, { body: { data: 'x' } })).status).toBe(400);
    expect((await call('POST', `${ITOA_PATH}/entity/retire`, { body: { data: ['nope'] } })).status).toBe(404);
    expect((await call('GET', `${ITOA_PATH}/entity/retire`)).status).toBe(405);
  });

  it('lists retirable entities with permissions and retires exactly those', async () => {
    const call = opsClient();
    const list = (await call('GET', `${ITOA_PATH}/entity/count_retirable`)).body as Row[];
    expect(list.map((e) => e._key).sort()).toEqual(['ent_db_legacy', 'ent_web_old']);
    expect(list[0]).toMatchObject({
      object_type: 'entity',
      retirable: 1,
      sec_grp: 'default_ops_security_group',
      permissions: { user: 'admin', group: { read: true, write: true, delete: true }, read: true, write: true, delete: true },
    });
    const analystView = (await call('GET', `${ITOA_PATH}/entity/count_retirable`, { as: 'analyst' })).body as Row[];
    expect(analystView[0]!.permissions).toMatchObject({ read: true, write: false, delete: false });
    const done = (await call('POST', `${ITOA_PATH}/entity/retire_retirable`)).body as string[];
    expect(done.sort()).toEqual(['ent_db_legacy', 'ent_web_old']);
    expect((await call('GET', `${ITOA_PATH}/entity/count_retirable`)).body).toEqual([]);
    expect((await call('POST', `${ITOA_PATH}/entity/retire_retirable`)).body).toEqual([]);
  });
});
