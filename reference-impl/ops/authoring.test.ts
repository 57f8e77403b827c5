import { describe, expect, it } from 'vitest';
import { ITOA_PATH, opsClient } from './test-client';

type Row = Record<string, unknown>;
const AUTH = `${ITOA_PATH}/content_pack_authorship/content_pack`;

describe('content pack authoring', () => {
  it('creates with Draft status, reads ops_objects as id-title entries, and counts', async () => {
    const call = opsClient();
    const created = await call('POST', AUTH, {
      body: { title: 'My pack', description: 'd', overview: 'o', cp_version: '0.1.0', ops_objects: { service: ['svc_database'] } },
    });
    expect(created.status).toBe(200);
    const key = (created.body as Row)._key as string;
    const one = (await call('GET', `${AUTH}/${key}`)).body as Row;
    expect(one).toMatchObject({
      status: 'Draft',
      object_type: 'content_pack',
      ops_objects: { service: [{ svc_database: 'Database Tier' }] },
    });
    expect(one.platform_objects).toMatchObject({ dashboards: [], macros: [] });
    expect((await call('GET', `${AUTH}/count`)).body).toEqual({ count: 3 });
    expect((await call('POST', AUTH, { body: { title: 'x', status: 'Done' } })).status).toBe(400);
    expect((await call('POST', AUTH, { body: { description: 'no title' } })).status).toBe(400);
  });

  it('lists with counts only without fields, and with status, search and sort_dir des', async () => {
    const call = opsClient();
    const full = (await call('GET', `${AUTH}/`)).body as Row[];
    expect(full).toHaveLength(2);
    expect(full[0]).toHaveProperty('ops_objects_counts');
    expect(full[0]).toHaveProperty('platform_objects_counts');
    expect(full[0]).toHaveProperty('icon');
    expect(Array.isArray((full[0]!.ops_objects as Record<string, unknown>).service)).toBe(true);
    const slim = (await call('GET', AUTH, { query: { fields: 'title,status' } })).body as Row[];
    expect(slim[0]).not.toHaveProperty('ops_objects_counts');
    expect(Object.keys(slim[0]!).sort()).toEqual(['_key', 'object_type', 'status', 'title']);
    const generated = (await call('GET', AUTH, { query: { status: 'Generated' } })).body as Row[];
    expect(generated.map((p) => p._key)).toEqual(['ccp_database']);
    const searched = (await call('GET', AUTH, { query: { search: 'STOREFRONT' } })).body as Row[];
    expect(searched.map((p) => p._key)).toEqual(['ccp_storefront']);
    const des = (await call('GET', AUTH, { query: { sort_key: 'title', sort_dir: 'des' } })).body as Row[];
    expect(des.map((p) => p.title)).toEqual(['Storefront bundle', 'Database essentials']);
    expect((await call('GET', AUTH, { query: { status: 'Bogus' } })).status).toBe(400);
  });

  it('updates in full and answers details on delete', async () => {
    const call = opsClient();
    const upd = await call('POST', `${AUTH}/ccp_storefront`, { body: { title: 'Storefront v2', status: 'Queued' } });
    expect(upd.body).toEqual({ _key: 'ccp_storefront' });
    const del = await call('DELETE', `${AUTH}/ccp_storefront`);
    expect(del.status).toBe(200);
    expect(del.body).toMatchObject({ _key: 'ccp_storefront', title: 'Storefront v2', status: 'Queued' });
    expect((await call('GET', `${AUTH}/ccp_storefront`)).status).toBe(404);
  });
});
