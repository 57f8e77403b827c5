import { describe, expect, it } from 'vitest';
import { ICONS_PATH, opsClient } from './test-client';

type Row = Record<string, unknown>;

describe('glass table icons', () => {
  it('lists icons with total and categories', async () => {
    const call = opsClient();
    const res = (await call('GET', ICONS_PATH, { query: { category: 'Cloud', limit: '1' } })).body as Row;
    expect(res.total).toBe(2);
    expect(res.result).toHaveLength(1);
    const cats = (await call('GET', ICONS_PATH, { query: { list_categories: '1' } })).body as Row[];
    expect(cats).toEqual([{ name: 'Infrastructure', immutable: true }, { name: 'Cloud' }, { name: 'Custom' }]);
  });

  it('saves icons by POST or PUT with numeric or string sizes', async () => {
    const call = opsClient();
    const icons = [
      { title: 'Queue', svg_path: 'M0 0h1v1z', default_width: 32, default_height: '32', category: 'Custom' },
      { title: 'Topic', svg_path: 'M0 0h2v2z', default_width: '16', default_height: 16, category: 'Messaging' },
    ];
    const put = await call('PUT', ICONS_PATH, { body: icons });
    expect(put.status).toBe(200);
    expect(put.body).toHaveLength(2);
    const post = await call('POST', ICONS_PATH, { body: [icons[0]] });
    expect(post.body).toHaveLength(1);
    expect((await call('POST', ICONS_PATH, { body: [{ title: 'x' }] })).status).toBe(400);
    expect((await call('POST', ICONS_PATH, { body: [{ ...icons[0], category: 'Infrastructure' }] })).status).toBe(400);
    const cats = (await call('GET', ICONS_PATH, { query: { list_categories: '1' } })).body as Row[];
    expect(cats.map((c) => c.name)).toContain('Messaging');
  });

  it('deletes by category, by key, and all but immutable ones with *', async () => {
    const call = opsClient();
    expect((await call('DELETE', ICONS_PATH, { query: { category: 'Infrastructure' } })).status).toBe(400);
    expect((await call('DELETE', `${ICONS_PATH}/icon_server`)).status).toBe(400);
    expect((await call('DELETE', ICONS_PATH)).status).toBe(400);
    expect((await call('DELETE', ICONS_PATH, { query: { category: 'Cloud' } })).body).toEqual({ Deleted: 'True' });
    expect(((await call('GET', ICONS_PATH, { query: { category: 'Cloud' } })).body as Row).total).toBe(0);
    expect((await call('DELETE', `${ICONS_PATH}/icon_storefront`)).body).toEqual({ Deleted: 'True' });
    expect((await call('DELETE', `${ICONS_PATH}/icon_storefront`)).status).toBe(404);
    await call('POST', ICONS_PATH, { body: [{ title: 'a', svg_path: 'M0', default_width: 1, default_height: 1, category: 'Custom' }] });
    expect((await call('DELETE', ICONS_PATH, { query: { category: '*' } })).body).toEqual({ Deleted: 'True' });
    const left = (await call('GET', ICONS_PATH)).body as { result: Row[] };
    expect(left.result.map((i) => i.category)).toEqual(['Infrastructure', 'Infrastructure']);
  });
});
