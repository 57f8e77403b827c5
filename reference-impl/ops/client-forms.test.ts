import { describe, expect, it } from 'vitest';
import { EVENTS_PATH, ITOA_PATH, MAINTENANCE_PATH, opsClient } from './test-client';

/** The limits of what the client forms (aliases, names, collection PUT, comment answers) accept. */

type Row = Record<string, unknown>;
const CS = `${EVENTS_PATH}/correlation_search`;
const GROUP = `${EVENTS_PATH}/notable_event_group`;

describe('list parameter names', () => {
  it('reads count, skip and filter_data on every interface, and refuses two names that disagree', async () => {
    const call = opsClient();
    const all = (await call('GET', `${ITOA_PATH}/service`, { query: { sort_key: '_key' } })).body as Row[];
    const page = await call('GET', `${ITOA_PATH}/service`, { query: { sort_key: '_key', count: '1', skip: '1' } });
    expect(page.body).toEqual([all[1]]);
    const byFilterData = await call('GET', `${ITOA_PATH}/service`, { query: { filter_data: JSON.stringify({ _key: 'svc_database' }) } });
    expect((byFilterData.body as Row[]).map((s) => s._key)).toEqual(['svc_database']);
    expect((await call('GET', `${EVENTS_PATH}/correlation_search/count`, { query: { filter: '{"enabled":0}' } })).body).toEqual({
      count: 1,
    });
    // The same value under both names is one parameter; different values are refused, never one of them dropped.
    expect((await call('GET', `${ITOA_PATH}/service`, { query: { limit: '1', count: '1' } })).body).toHaveLength(1);
    const disagreeing: Record<string, string>[] = [
      { limit: '1', count: '2' },
      { offset: '0', skip: '1' },
      { filter: '{}', filter_data: '{"a":1}' },
    ];
    for (const query of disagreeing) {
      const res = await call('GET', GROUP, { query });
      expect(res.status, JSON.stringify(query)).toBe(400);
      expect((res.body as Row).message).toMatch(/same parameter/);
    }
  });

  it('refuses selection parameters it does not implement, and keeps harmless extras working', async () => {
    const call = opsClient();
    for (const name of ['search', 'sort_mode', 'f', 'summarize']) {
      expect((await call('GET', `${ITOA_PATH}/entity`, { query: { [name]: 'x' } })).status, name).toBe(400);
    }
    expect((await call('GET', `${ITOA_PATH}/entity`, { query: { output_mode: 'json' } })).status).toBe(200);
    // The authoring list documents search: it filters there.
    expect((await call('GET', `${ITOA_PATH}/content_pack_authorship/content_pack`, { query: { search: 'x' } })).status).toBe(200);
  });
});

describe('fields on single reads', () => {
  it('narrows a read by key or name, and an is_event_id read, to the fields asked', async () => {
    const call = opsClient();
    const byName = await call('GET', `${CS}/${encodeURIComponent('Web latency breach')}`, { query: { fields: 'name,search' } });
    expect(Object.keys(byName.body as Row).sort()).toEqual(['_key', 'name', 'object_type', 'search']);
    const comments = await call('GET', `${EVENTS_PATH}/notable_event_comment/ep_web_latency`, {
      query: { is_event_id: '1', fields: 'comment' },
    });
    expect(comments.body).toEqual([{ _key: 'cm_0001', object_type: 'notable_event_comment', comment: 'Looking into the load balancer' }]);
    expect(Object.keys((await call('GET', `${ITOA_PATH}/service/svc_database`)).body as Row).length).toBeGreaterThan(4);
  });
});

describe('correlation searches by name', () => {
  it('keeps names unique and refuses a name that is another search key', async () => {
    const call = opsClient();
    expect((await call('POST', CS, { body: { name: 'dup', search: 'a' } })).body).toEqual({ _key: 'dup', name: 'dup' });
    const clash = await call('POST', CS, { body: { _key: 'other', name: 'dup', search: 'b' } });
    expect(clash.status).toBe(400);
    expect((await call('POST', CS, { body: { name: 'cs_db_errors', search: 'c', _key: 'x' } })).status).toBe(400);
    expect((await call('POST', `${CS}/dup`, { query: { is_partial_data: '1' }, body: { name: 'Web latency breach' } })).status).toBe(400);
    // A search created without a name is named by its key.
    const unnamed = (await call('POST', CS, { body: { title: 'no name' } })).body as Row;
    expect(unnamed.name).toBe(unnamed._key);
    expect((await call('POST', CS, { body: { name: 42 } })).status).toBe(400);
  });

  it('reads, updates and deletes a seeded search through its name', async () => {
    const call = opsClient();
    const at = `${CS}/${encodeURIComponent('Database error burst')}`;
    expect(((await call('GET', at)).body as Row)._key).toBe('cs_db_errors');
    expect((await call('POST', at, { query: { is_partial_data: '1' }, body: { enabled: 1 } })).body).toEqual({ _key: 'cs_db_errors' });
    expect((await call('DELETE', `${CS}/Database+error+burst`)).status).toBe(204);
    expect((await call('GET', `${CS}/cs_db_errors`)).status).toBe(404);
  });
});

describe('PUT on an event-management collection', () => {
  it('changes nothing when one entry is wrong, and refuses a replacement, comments and read-only users', async () => {
    const call = opsClient();
    const before = JSON.stringify((await call('GET', GROUP)).body);
    const good = { _key: 'ep_web_latency', owner: 'admin' };
    for (const body of [[good, { _key: 'no_such_episode', owner: 'x' }], [good, { owner: 'no key' }], [good, good], [], [good, 'x']]) {
      const res = await call('PUT', GROUP, { body });
      expect(res.status, JSON.stringify(body)).toBeGreaterThanOrEqual(400);
      expect(res.status).toBeLessThan(500);
    }
    expect((await call('PUT', GROUP, { query: { is_partial_data: '0' }, body: [good] })).status).toBe(400);
    expect((await call('PUT', GROUP, { as: 'analyst', body: [good] })).status).toBe(403);
    expect((await call('PUT', `${EVENTS_PATH}/notable_event_comment`, { body: [{ _key: 'cm_0001', comment: 'x' }] })).status).toBe(405);
    expect(JSON.stringify((await call('GET', GROUP)).body)).toBe(before);
    expect((await call('PUT', GROUP, { body: [good, { _key: 'ep_db_errors', owner: 'admin' }] })).body).toEqual([
      'ep_web_latency',
      'ep_db_errors',
    ]);
  });
});

describe('episode comments stay append-only', () => {
  it('answers comment_id, takes the same comment again as a retry, and never replaces one', async () => {
    const call = opsClient();
    const comment = { event_id: 'ep_web_latency', comment: 'first' };
    const created = (await call('POST', `${EVENTS_PATH}/notable_event_comment`, { body: comment })).body as Row;
    expect(created.comment_id).toBe(created._key);
    const retry = await call('POST', `${EVENTS_PATH}/notable_event_comment`, { body: { ...comment, _key: created._key } });
    expect(retry.body).toEqual(created);
    const changed = await call('POST', `${EVENTS_PATH}/notable_event_comment`, { body: { ...comment, _key: 'cm_0001' } });
    expect(changed.status).toBe(400);
    expect(((await call('GET', `${EVENTS_PATH}/notable_event_comment/cm_0001`)).body as Row).comment).toBe(
      'Looking into the load balancer',
    );
  });
});

describe('maintenance windows', () => {
  it('upsert only with the whole window, and refuse times that are not numbers', async () => {
    const call = opsClient();
    const url = `${MAINTENANCE_PATH}/maintenance_calendar`;
    expect((await call('POST', `${url}/mw_new`, { query: { is_partial_data: '1' }, body: { end_time: 5 } })).status).toBe(400);
    expect((await call('GET', `${url}/mw_new`)).status).toBe(404);
    expect((await call('POST', url, { body: { title: 'w', start_time: '1e3', end_time: '2000' } })).status).toBe(400);
    expect((await call('POST', `${url}/mw_new`, { as: 'analyst', body: { title: 'w' } })).status).toBe(403);
  });
});
