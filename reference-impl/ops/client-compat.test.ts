import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BACKUP_PATH, EVENTS_PATH, ICONS_PATH, ITOA_PATH, MAINTENANCE_PATH, opsClient } from './test-client';

/** What real clients send where the document is silent and real servers accept it. */

type Row = Record<string, unknown>;
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
const keysOf = (rows: unknown) => (rows as Row[]).map((r) => r._key).sort();

describe('PUT on an object path updates like POST', () => {
  const cases = [
    { path: `${ITOA_PATH}/service`, body: { title: 'Checkout' } },
    { path: `${ITOA_PATH}/kpi_base_search`, body: { title: 'Base' } },
    {
      path: `${MAINTENANCE_PATH}/maintenance_calendar`,
      body: { title: 'Patch', start_time: 1700000000, end_time: 1700003600 },
      upsert: true,
    },
    { path: `${BACKUP_PATH}/backup_restore`, body: { title: 'Nightly', job_type: 'Backup', status: 'Queued' } },
    { path: `${ITOA_PATH}/content_pack_authorship/content_pack`, body: { title: 'My pack' } },
  ];

  it.each(cases)('$path: partial and full updates', async ({ path, body, upsert }) => {
    const call = opsClient();
    const key = ((await call('POST', path, { body: { ...body, description: 'first', extra: 1 } })).body as Row)._key as string;

    const partial = await call('PUT', `${path}/${key}`, { query: { is_partial_data: '1' }, body: { description: 'second' } });
    expect(partial.status).toBe(200);
    expect(partial.body).toEqual({ _key: key });
    expect((await call('GET', `${path}/${key}`)).body).toMatchObject({ ...body, description: 'second', extra: 1 });

    // Without is_partial_data the body replaces the object, required fields and all, exactly as POST does.
    expect((await call('PUT', `${path}/${key}`, { body: { description: 'no title' } })).status).toBe(400);
    expect((await call('PUT', `${path}/${key}`, { body: { ...body, description: 'third' } })).status).toBe(200);
    const replaced = (await call('GET', `${path}/${key}`)).body as Row;
    expect(replaced).toMatchObject({ ...body, description: 'third' });
    expect(replaced.extra).toBeUndefined();

    // An unknown key is a 404, except where the type upserts (maintenance windows): then it is created there.
    expect((await call('PUT', `${path}/no_such_key`, { body })).status).toBe(upsert ? 200 : 404);
    expect((await call('GET', `${path}/no_such_key`)).status).toBe(upsert ? 200 : 404);
    // A read-only user is still refused.
    expect((await call('PUT', `${path}/${key}`, { as: 'analyst', body })).status).toBe(403);
  });

  it('PUT on icon_collection saves like POST', async () => {
    const call = opsClient();
    const icon = { title: 'db', svg_path: 'M0 0', default_width: 10, default_height: 10, category: 'mine' };
    const put = await call('PUT', ICONS_PATH, { body: [icon] });
    expect(put.status).toBe(200);
    const [key] = put.body as string[];
    expect((await call('GET', `${ICONS_PATH}/${key}`)).body).toMatchObject({ title: 'db', default_width: '10' });
  });

  it('PUT on a collection path is still 405 (there is no key to update)', async () => {
    const call = opsClient();
    const res = await call('PUT', `${ITOA_PATH}/service`, { body: { title: 'x' } });
    expect(res.status).toBe(405);
  });
});

describe('bodies wrapped in data', () => {
  it('unwraps {"data": {...}} on create and update, and {"data": [...]} on bulk_update', async () => {
    const call = opsClient();
    const created = await call('POST', `${ITOA_PATH}/service`, { body: { data: { title: 'Wrapped' } } });
    expect(created.status).toBe(200);
    const key = (created.body as Row)._key as string;
    expect((await call('GET', `${ITOA_PATH}/service/${key}`)).body).toMatchObject({ title: 'Wrapped' });
    expect((await call('GET', `${ITOA_PATH}/service/${key}`)).body).not.toHaveProperty('data');

    await call('POST', `${ITOA_PATH}/service/${key}`, { query: { is_partial_data: '1' }, body: { data: { description: 'd' } } });
    expect((await call('GET', `${ITOA_PATH}/service/${key}`)).body).toMatchObject({ title: 'Wrapped', description: 'd' });

    const bulk = await call('POST', `${ITOA_PATH}/service/bulk_update`, {
      query: { is_partial_data: '1' },
      body: { data: [{ _key: key, description: 'bulk' }] },
    });
    expect(bulk.body).toEqual({ _key: [key] });
    expect((await call('GET', `${ITOA_PATH}/service/${key}`)).body).toMatchObject({ description: 'bulk' });
  });

  it('keeps a data member that sits beside other members', async () => {
    const call = opsClient();
    const key = ((await call('POST', `${ITOA_PATH}/service`, { body: { title: 'T', data: { a: 1 } } })).body as Row)._key as string;
    expect((await call('GET', `${ITOA_PATH}/service/${key}`)).body).toMatchObject({ title: 'T', data: { a: 1 } });
  });

  it('takes form-encoded data=<json>, with the other form fields as parameters', async () => {
    const call = opsClient();
    const created = await call('POST', `${ITOA_PATH}/service`, {
      headers: FORM,
      raw: form({ data: JSON.stringify({ title: 'From form' }) }),
    });
    expect(created.status).toBe(200);
    const key = (created.body as Row)._key as string;
    expect((await call('GET', `${ITOA_PATH}/service/${key}`)).body).toMatchObject({ title: 'From form' });

    const partial = await call('PUT', `${ITOA_PATH}/service/${key}`, {
      headers: FORM,
      raw: form({ data: JSON.stringify({ description: 'via form' }), is_partial_data: '1' }),
    });
    expect(partial.status).toBe(200);
    expect((await call('GET', `${ITOA_PATH}/service/${key}`)).body).toMatchObject({ title: 'From form', description: 'via form' });

    // Wrapped and form-encoded at once; without a content type, a body starting with data= is a form too.
    const both = await call('POST', `${MAINTENANCE_PATH}/maintenance_calendar`, {
      raw: form({ data: JSON.stringify({ data: { title: 'Both' } }) }),
    });
    expect(both.status).toBe(200);
    const bulk = await call('POST', `${ITOA_PATH}/service/bulk_update`, {
      headers: FORM,
      raw: form({ data: JSON.stringify([{ _key: key, title: 'Renamed' }]) }),
    });
    expect(bulk.status).toBe(200);
    expect((await call('GET', `${ITOA_PATH}/service/${key}`)).body).toMatchObject({ title: 'Renamed' });
  });

  it('keeps a JSON body sent with a form content type as JSON', async () => {
    const call = opsClient();
    const res = await call('POST', `${ITOA_PATH}/service`, { headers: FORM, body: { title: 'curl -d' } });
    expect(res.status).toBe(200);
  });

  it('takes icons wrapped or form-encoded', async () => {
    const call = opsClient();
    const icon = { title: 'db', svg_path: 'M0 0', default_width: '10', default_height: '10', category: 'mine' };
    expect((await call('PUT', ICONS_PATH, { body: { data: [icon] } })).status).toBe(200);
    expect((await call('POST', ICONS_PATH, { headers: FORM, raw: form({ data: JSON.stringify([icon]) }) })).status).toBe(200);
    const listed = (await call('GET', ICONS_PATH, { query: { category: 'mine' } })).body as { total: number };
    expect(listed.total).toBe(2);
  });

  it('keeps entity/retire and entity/restore working with their documented {data: [keys]} body, and form-encoded', async () => {
    const call = opsClient();
    const retired = await call('POST', `${ITOA_PATH}/entity/retire`, { body: { data: ['ent_web_01'] } });
    expect(retired.status).toBe(200);
    expect(retired.body).toEqual(['ent_web_01']);
    expect(((await call('GET', `${ITOA_PATH}/entity/ent_web_01`)).body as Row).retired).toBe(1);
    const restored = await call('POST', `${ITOA_PATH}/entity/restore`, {
      headers: FORM,
      raw: form({ data: JSON.stringify(['ent_web_01']) }),
    });
    expect(restored.body).toEqual(['ent_web_01']);
    expect(((await call('GET', `${ITOA_PATH}/entity/ent_web_01`)).body as Row).retired).toBeUndefined();
    const formWrapped = await call('POST', `${ITOA_PATH}/entity/retire`, {
      headers: FORM,
      raw: form({ data: JSON.stringify({ data: ['ent_web_01'] }) }),
    });
    expect(formWrapped.body).toEqual(['ent_web_01']);
    expect((await call('POST', `${ITOA_PATH}/entity/retire`, { body: { data: 'ent_web_01' } })).status).toBe(400);
  });

  it('answers 400 (never 5xx) to malformed form bodies and changes nothing', async () => {
    const call = opsClient();
    const before = (await call('GET', `${ITOA_PATH}/service/count`)).body;
    for (const raw of ['data=not json', 'data={"title":', 'title=x', 'data=1&data=2', 'data=%E0%A4%A', '=&&=', 'data', '%%%']) {
      for (const path of [`${ITOA_PATH}/service`, `${ITOA_PATH}/service/svc_web_store`, `${ITOA_PATH}/entity/retire`, ICONS_PATH]) {
        const res = await call('POST', path, { headers: FORM, raw });
        expect(res.status, `${path} ${raw}`).toBe(400);
      }
    }
    // data= with nothing in it is an empty body: required bodies are missing.
    expect((await call('POST', `${ITOA_PATH}/service`, { headers: FORM, raw: 'data=' })).status).toBe(400);
    expect((await call('GET', `${ITOA_PATH}/service/count`)).body).toEqual(before);
  });

  it('never answers 5xx to any form body on any write', async () => {
    const call = opsClient();
    const paths = [
      `${ITOA_PATH}/service`,
      `${ITOA_PATH}/service/svc_web_store`,
      `${ITOA_PATH}/service/bulk_update`,
      `${ITOA_PATH}/entity/retire`,
      `${EVENTS_PATH}/notable_event_aggregation_policy`,
      `${EVENTS_PATH}/notable_event_group`,
      `${EVENTS_PATH}/correlation_search/Web+latency+breach`,
      `${EVENTS_PATH}/notable_event_comment`,
      `${EVENTS_PATH}/notable_event_actions/email`,
      `${EVENTS_PATH}/ticketing`,
      `${ITOA_PATH}/content_pack/DA-OPS-CP-unix/2.0.1/install`,
      ICONS_PATH,
    ];
    const field = fc.oneof(fc.string(), fc.json(), fc.constantFrom('{"data":{"title":"x"}}', '[{"_key":"k"}]', '{"__proto__":{"x":1}}'));
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...paths),
        fc.constantFrom('POST', 'PUT'),
        fc.dictionary(fc.constantFrom('data', 'is_partial_data', 'filter', 'x'), field, { maxKeys: 3 }),
        fc.boolean(),
        async (path, method, fields, declared) => {
          const res = await call(method, path, {
            headers: declared ? FORM : {},
            raw: `data=${encodeURIComponent(fields.data ?? '')}&${form(fields)}`,
          });
          expect(res.status).toBeLessThan(500);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('aggregation policies under event management', () => {
  const NAP = `${EVENTS_PATH}/notable_event_aggregation_policy`;

  it('lists, reads, creates, updates and deletes them, over the same store as notable_aggregation_policy', async () => {
    const call = opsClient();
    const seeded = (await call('GET', NAP)).body as Row[];
    expect(seeded.map((p) => p._key)).toContain('nap_default');
    expect(keysOf(seeded)).toEqual(keysOf((await call('GET', `${EVENTS_PATH}/notable_aggregation_policy`)).body));
    expect((await call('GET', `${NAP}/nap_default`)).body).toMatchObject({
      _key: 'nap_default',
      object_type: 'notable_aggregation_policy',
    });

    const created = await call('POST', NAP, { body: { title: 'Group by host', split_by_field: 'host' } });
    expect(created.status).toBe(200);
    const key = (created.body as Row)._key as string;
    expect((await call('GET', `${NAP}/${key}`)).body).toMatchObject({ title: 'Group by host', object_type: 'notable_aggregation_policy' });
    expect((await call('GET', `${NAP}/count`)).body).toEqual({ count: seeded.length + 1 });
    const filtered = (await call('GET', NAP, { query: { filter_data: JSON.stringify({ split_by_field: 'host' }), fields: 'title' } }))
      .body as Row[];
    expect(filtered).toContainEqual({ _key: key, object_type: 'notable_aggregation_policy', title: 'Group by host' });

    expect((await call('POST', `${NAP}/${key}`, { query: { is_partial_data: '1' }, body: { disabled: 1 } })).status).toBe(200);
    expect((await call('PUT', `${NAP}/${key}`, { query: { is_partial_data: '1' }, body: { priority: 5 } })).status).toBe(200);
    expect((await call('GET', `${NAP}/${key}`)).body).toMatchObject({ title: 'Group by host', disabled: 1, priority: 5 });

    // POST with the _key of an existing policy replaces it.
    expect((await call('POST', NAP, { body: { _key: key, title: 'Replaced' } })).status).toBe(200);
    expect(((await call('GET', `${NAP}/${key}`)).body as Row).split_by_field).toBeUndefined();

    expect((await call('DELETE', `${NAP}/${key}`)).status).toBe(204);
    expect((await call('GET', `${NAP}/${key}`)).status).toBe(404);
    expect((await call('DELETE', `${NAP}/${key}`)).status).toBe(404);
    expect(keysOf((await call('GET', NAP)).body)).toEqual(keysOf(seeded));
  });

  it('hides other teams from a restricted reader and refuses its writes', async () => {
    const call = opsClient();
    const key = ((await call('POST', NAP, { body: { title: 'Secret', sec_grp: 'team_network' } })).body as Row)._key as string;
    expect(((await call('GET', NAP, { as: 'analyst' })).body as Row[]).map((p) => p._key)).not.toContain(key);
    expect((await call('POST', NAP, { as: 'analyst', body: { title: 'x' } })).status).toBe(403);
  });
});

describe('DELETE with an empty key segment deletes nothing', () => {
  const collections = [
    `${EVENTS_PATH}/correlation_search`,
    `${EVENTS_PATH}/notable_event_aggregation_policy`,
    `${EVENTS_PATH}/notable_event_group`,
    `${ITOA_PATH}/service`,
    `${ITOA_PATH}/entity`,
    `${ITOA_PATH}/vLatest/service`,
    `${MAINTENANCE_PATH}/maintenance_calendar`,
    `${BACKUP_PATH}/backup_restore`,
    `${ITOA_PATH}/content_pack_authorship/content_pack`,
    ICONS_PATH,
  ];

  it.each(collections)('%s/', async (collection) => {
    const call = opsClient();
    const rows = async () => {
      const body = (await call('GET', collection)).body;
      return (collection === ICONS_PATH ? (body as { result: Row[] }).result : body) as Row[];
    };
    const snapshot = async () => JSON.stringify(await rows());
    const before = await snapshot();
    expect(await rows()).not.toHaveLength(0);
    for (const suffix of ['/', '//', '/?filter=x']) {
      const [path, q] = suffix.split('?');
      const query = q === undefined ? {} : Object.fromEntries(new URLSearchParams(q));
      const res = await call('DELETE', `${collection}${path}`, { query: collection === ICONS_PATH ? { ...query, category: '*' } : query });
      // 405 where the collection has no DELETE at all (content-pack authoring).
      expect([400, 404, 405]).toContain(res.status);
      expect(res.body).toHaveProperty('message');
      expect(await snapshot()).toBe(before);
    }
  });

  it('ticketing and interface roots with a trailing slash delete nothing either', async () => {
    const call = opsClient();
    const tickets = JSON.stringify((await call('GET', `${EVENTS_PATH}/ticketing/ep_web_latency`)).body);
    for (const path of [
      `${EVENTS_PATH}/ticketing/ep_web_latency/`,
      `${EVENTS_PATH}/ticketing/ep_web_latency/snow/`,
      `${ITOA_PATH}/`,
      `${EVENTS_PATH}/`,
    ]) {
      const res = await call('DELETE', path);
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(res.status).toBeLessThan(500);
    }
    expect(JSON.stringify((await call('GET', `${EVENTS_PATH}/ticketing/ep_web_latency`)).body)).toBe(tickets);
  });

  it('a read-only user still gets 403 first; GET and POST with a trailing slash keep working', async () => {
    const call = opsClient();
    expect((await call('DELETE', `${ITOA_PATH}/service/`, { as: 'analyst' })).status).toBe(403);
    expect((await call('GET', `${ITOA_PATH}/service/`)).status).toBe(200);
    expect((await call('GET', `${ITOA_PATH}/content_pack_authorship/content_pack/`)).status).toBe(200);
    expect((await call('POST', `${ITOA_PATH}/service/`, { body: { title: 'slash' } })).status).toBe(200);
  });

  it('DELETE by key and by filter still work', async () => {
    const call = opsClient();
    const key = ((await call('POST', `${EVENTS_PATH}/correlation_search`, { body: { title: 'cs tmp' } })).body as Row)._key as string;
    expect((await call('DELETE', `${EVENTS_PATH}/correlation_search/${key}`)).status).toBe(204);
    await call('POST', `${EVENTS_PATH}/correlation_search`, { body: { title: 'cs tmp 2', cf: 'run1' } });
    const before = ((await call('GET', `${EVENTS_PATH}/correlation_search`)).body as Row[]).length;
    expect(
      (await call('DELETE', `${EVENTS_PATH}/correlation_search`, { query: { filter_data: JSON.stringify({ cf: 'run1' }) } })).status,
    ).toBe(204);
    expect(((await call('GET', `${EVENTS_PATH}/correlation_search`)).body as Row[]).length).toBe(before - 1);
  });
});
