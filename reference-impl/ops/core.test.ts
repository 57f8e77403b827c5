import { describe, expect, it } from 'vitest';
import { ITOA_PATH, opsApp, opsClient } from './test-client';

type Row = Record<string, unknown>;

describe('authentication and access', () => {
  it('answers 401 with the platform body without or with wrong credentials, on any path', async () => {
    const call = opsClient();
    for (const path of [`${ITOA_PATH}/entity`, '/nowhere']) {
      const res = await call('GET', path, { as: null });
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ messages: [{ type: 'WARN', text: 'call not properly authenticated' }] });
    }
    const res = await opsApp().get(`${ITOA_PATH}/entity`).auth('admin', 'wrong');
    expect(res.status).toBe(401);
  });

  it('forbids writes to a read-only user and hides other teams from reads and counts', async () => {
    const call = opsClient();
    const denied = await call('POST', `${ITOA_PATH}/team`, { as: 'analyst', body: { title: 'x' } });
    expect(denied.status).toBe(403);
    expect(denied.body).toHaveProperty('message');
    const all = (await call('GET', `${ITOA_PATH}/entity`)).body as Row[];
    const visible = (await call('GET', `${ITOA_PATH}/entity`, { as: 'analyst' })).body as Row[];
    expect(visible.length).toBeLessThan(all.length);
    expect(visible.every((e) => e.sec_grp === 'default_ops_security_group')).toBe(true);
    const count = await call('GET', `${ITOA_PATH}/entity/count`, { as: 'analyst' });
    expect(count.body).toEqual({ count: visible.length });
    const hidden = await call('GET', `${ITOA_PATH}/entity/ent_core_sw_01`, { as: 'analyst' });
    expect(hidden.status).toBe(404);
  });
});

describe('core CRUD', () => {
  it('creates with server fields, reads, updates partially and fully, deletes', async () => {
    const call = opsClient();
    const created = await call('POST', `${ITOA_PATH}/service`, { body: { title: 'Checkout API', extra: 1 } });
    expect(created.status).toBe(200);
    const key = (created.body as Row)._key as string;
    expect(key).toMatch(/^[0-9a-f]{24}$/);
    const read = (await call('GET', `${ITOA_PATH}/service/${key}`)).body as Row;
    expect(read).toMatchObject({
      _key: key,
      title: 'Checkout API',
      identifying_name: 'checkout api',
      object_type: 'service',
      _user: 'nobody',
      mod_source: 'REST',
      sec_grp: 'default_ops_security_group',
      _version: '4.19.0',
      extra: 1,
    });
    expect(read.mod_timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}\+00:00$/);

    const partial = await call('POST', `${ITOA_PATH}/service/${key}`, {
      query: { is_partial_data: '1' },
      body: { description: 'payments' },
    });
    expect(partial.body).toEqual({ _key: key });
    const afterPartial = (await call('GET', `${ITOA_PATH}/service/${key}`)).body as Row;
    expect(afterPartial).toMatchObject({ title: 'Checkout API', description: 'payments', extra: 1 });
    expect(String(afterPartial.mod_timestamp) > String(read.mod_timestamp)).toBe(true);

    const noTitle = await call('POST', `${ITOA_PATH}/service/${key}`, { body: { description: 'x' } });
    expect(noTitle.status).toBe(400);
    await call('POST', `${ITOA_PATH}/service/${key}`, { query: { is_partial_data: '0' }, body: { title: 'Checkout' } });
    const replaced = (await call('GET', `${ITOA_PATH}/service/${key}`)).body as Row;
    expect(replaced.description).toBeUndefined();
    expect(replaced.identifying_name).toBe('checkout');

    const del = await call('DELETE', `${ITOA_PATH}/service/${key}`);
    expect(del.status).toBe(204);
    expect(del.text).toBe('');
    expect((await call('GET', `${ITOA_PATH}/service/${key}`)).status).toBe(404);
  });

  it('treats a create carrying an existing _key as an update', async () => {
    const call = opsClient();
    const res = await call('POST', `${ITOA_PATH}/glass_table`, { body: { _key: 'gt_storefront', title: 'Renamed' } });
    expect(res.body).toEqual({ _key: 'gt_storefront' });
    const list = (await call('GET', `${ITOA_PATH}/glass_table`)).body as Row[];
    expect(list.filter((g) => g._key === 'gt_storefront')).toHaveLength(1);
    expect(list.find((g) => g._key === 'gt_storefront')!.title).toBe('Renamed');
  });

  it('answers 400 for malformed bodies, 404 for unknown types and keys, 405 for unsupported methods', async () => {
    const call = opsClient();
    expect((await call('POST', `${ITOA_PATH}/service`, { raw: '{nope' })).status).toBe(400);
    expect((await call('POST', `${ITOA_PATH}/service`, { body: [1] })).status).toBe(400);
    expect((await call('POST', `${ITOA_PATH}/service`, { body: { description: 'no title' } })).status).toBe(400);
    expect((await call('GET', `${ITOA_PATH}/nonsense`)).status).toBe(404);
    expect((await call('GET', `${ITOA_PATH}/service/missing`)).status).toBe(404);
    const wrong = await call('PATCH', `${ITOA_PATH}/service/bulk_update`);
    expect(wrong.status).toBe(405);
    expect(wrong.headers?.allow).toContain('POST');
  });

  it('bulk_update checks every entry before writing and answers the keys', async () => {
    const call = opsClient();
    const bad = await call('POST', `${ITOA_PATH}/entity/bulk_update`, {
      query: { is_partial_data: '1' },
      body: [{ _key: 'ent_web_01', description: 'a' }, { description: 'no key' }],
    });
    expect(bad.status).toBe(400);
    expect(((await call('GET', `${ITOA_PATH}/entity/ent_web_01`)).body as Row).description).toBe('Storefront web server');
    const good = await call('POST', `${ITOA_PATH}/entity/bulk_update`, {
      query: { is_partial_data: '1' },
      body: [
        { _key: 'ent_web_01', description: 'a' },
        { _key: 'ent_web_02', description: 'b' },
      ],
    });
    expect(good.body).toEqual({ _key: ['ent_web_01', 'ent_web_02'] });
    const e = (await call('GET', `${ITOA_PATH}/entity/ent_web_01`)).body as Row;
    expect(e).toMatchObject({ description: 'a', title: 'web-01', create_by: 'admin', mod_by: 'admin' });
    expect(e.mod_time).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{6}$/);
  });

  it('lists with filter, sort, paging and fields; an incorrect filter returns every row', async () => {
    const call = opsClient();
    const all = (await call('GET', `${ITOA_PATH}/entity`)).body as Row[];
    const byService = (
      await call('GET', `${ITOA_PATH}/entity`, {
        query: { filter: JSON.stringify({ 'services._key': 'svc_web_store' }) },
      })
    ).body as Row[];
    expect(byService.map((e) => e._key).sort()).toEqual(['ent_web_01', 'ent_web_02', 'ent_web_old']);
    const ne = (
      await call('GET', `${ITOA_PATH}/entity`, {
        query: { filter: JSON.stringify({ title: { $ne: 'web-01' } }) },
      })
    ).body as Row[];
    expect(ne).toHaveLength(all.length - 1);
    const regex = (
      await call('GET', `${ITOA_PATH}/entity`, {
        query: { filter: JSON.stringify({ title: { $regex: '^DB-', $options: 'i' } }) },
      })
    ).body as Row[];
    expect(regex.map((e) => e.title).sort()).toEqual(['db-01', 'db-legacy']);
    for (const filter of ['{not json', '[1,2]', '{"title":{"$bogus":1}}', '{"$where":"1"}']) {
      const rows = (await call('GET', `${ITOA_PATH}/entity`, { query: { filter } })).body as Row[];
      expect(rows).toHaveLength(all.length);
    }
    const page = (
      await call('GET', `${ITOA_PATH}/entity`, {
        query: { sort_key: 'title', sort_dir: '0', offset: '1', limit: '2', fields: 'title' },
      })
    ).body as Row[];
    const titles = all
      .map((e) => e.title as string)
      .sort()
      .reverse();
    expect(page).toEqual([
      { _key: all.find((e) => e.title === titles[1])!._key, object_type: 'entity', title: titles[1] },
      { _key: all.find((e) => e.title === titles[2])!._key, object_type: 'entity', title: titles[2] },
    ]);
    expect((await call('GET', `${ITOA_PATH}/entity`, { query: { limit: 'ten' } })).status).toBe(400);
    expect((await call('GET', `${ITOA_PATH}/entity`, { query: { limit: '0' } })).body).toHaveLength(all.length);
  });

  it('bulk delete removes the matching rows only, and every row for an incorrect filter', async () => {
    const call = opsClient();
    await call('DELETE', `${ITOA_PATH}/entity`, { query: { filter: JSON.stringify({ title: 'web-01' }) } });
    const left = (await call('GET', `${ITOA_PATH}/entity`)).body as Row[];
    expect(left.some((e) => e.title === 'web-01')).toBe(false);
    expect(left.length).toBeGreaterThan(0);
    const res = await call('DELETE', `${ITOA_PATH}/deep_dive`, { query: { filter: '{oops' } });
    expect(res.status).toBe(204);
    expect((await call('GET', `${ITOA_PATH}/deep_dive/count`)).body).toEqual({ count: 0 });
  });

  it('accepts the vLatest segment and lists the supported types and aliases', async () => {
    const call = opsClient();
    const types = (await call('GET', '/servicesNS/nobody/SA-ITOA/itoa_interface/vLatest/get_supported_object_types')).body as string[];
    expect(types).toHaveLength(16);
    expect(types).toContain('entity_relationship_rule');
    const aliases = (await call('GET', `${ITOA_PATH}/get_alias_list`)).body as Row;
    expect(aliases.identifier).toEqual(expect.arrayContaining(['host', 'ip']));
    expect(aliases.informational).toEqual(expect.arrayContaining(['os', 'role']));
  });

  it('keeps handler instances independent', async () => {
    const a = opsClient();
    const b = opsClient();
    await a('DELETE', `${ITOA_PATH}/service/svc_database`);
    expect((await a('GET', `${ITOA_PATH}/service/svc_database`)).status).toBe(404);
    expect((await b('GET', `${ITOA_PATH}/service/svc_database`)).status).toBe(200);
  });
});

describe('regex safety', () => {
  it('answers a catastrophic pattern against a 50k-character value quickly', async () => {
    const call = opsClient();
    const created = await call('POST', `${ITOA_PATH}/team`, { body: { title: `${'a'.repeat(50_000)}!` } });
    expect(created.status).toBe(200);
    const started = Date.now();
    const res = await call('GET', `${ITOA_PATH}/team`, {
      query: { filter: JSON.stringify({ title: { $regex: '(a+)+$' } }) },
    });
    expect(Date.now() - started).toBeLessThan(1000);
    expect(res.status).toBe(200);
    expect(res.body).toEqual([]);
    const nested = await call('GET', `${ITOA_PATH}/team`, {
      query: { filter: JSON.stringify({ $or: [{ title: { $not: { $regex: '(a|aa)+$' } } }] }) },
    });
    expect(Date.now() - started).toBeLessThan(1000);
    expect((nested.body as Row[]).length).toBeGreaterThan(0);
  });

  it('supports $options i, m, s and x, and treats a bad pattern as an incorrect filter', async () => {
    const call = opsClient();
    const all = (await call('GET', `${ITOA_PATH}/entity`)).body as Row[];
    const x = (
      await call('GET', `${ITOA_PATH}/entity`, {
        query: { filter: JSON.stringify({ title: { $regex: '^ web - 0 1  # a comment', $options: 'x' } }) },
      })
    ).body as Row[];
    expect(x.map((e) => e.title)).toEqual(['web-01']);
    const bad = (
      await call('GET', `${ITOA_PATH}/entity`, {
        query: { filter: JSON.stringify({ title: { $regex: '(' } }) },
      })
    ).body as Row[];
    expect(bad).toHaveLength(all.length);
    const badFlag = (
      await call('GET', `${ITOA_PATH}/entity`, {
        query: { filter: JSON.stringify({ title: { $regex: 'web', $options: 'q' } }) },
      })
    ).body as Row[];
    expect(badFlag).toHaveLength(all.length);
  });
});
