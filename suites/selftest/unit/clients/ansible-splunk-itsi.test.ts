import { describe, expect, it } from 'vitest';
import { EVENTS, kept, type Row, rows, session } from './runner';

/*
 * Client: the splunk.itsi Ansible collection 1.0.0 (github.com/ansible-collections/splunk.itsi, read at
 * shahargolshani/splunk.itsi), plugins/module_utils/itsi_request.py, correlation_search_utils.py,
 * modules/itsi_correlation_search.py, itsi_correlation_search_info.py, itsi_episode_details_info.py,
 * itsi_update_episode_details.py and itsi_add_episode_comments.py. Every call adds output_mode=json; a 404 is
 * "not found" (None), any other non-2xx fails the task.
 * - itsi_correlation_search present: GET correlation_search/<quote(name)>; when absent POST correlation_search
 *   {name, search, disabled, cron_schedule, description, actions, earliest_time, dispatch.earliest_time, ...},
 *   then GET it again for the result; when present POST correlation_search/<quote_plus(name)>?is_partial_data=1
 *   with {name, ...changed fields}.
 * - itsi_correlation_search absent: GET it, then DELETE correlation_search/<quote(name)>.
 * - itsi_correlation_search_info: GET correlation_search?fields=..&filter_data=..&count=N, or one search:
 *   GET correlation_search/<quote(name)>?fields=...
 * - itsi_episode_details_info: GET notable_event_group/?limit=N&skip=M..., GET notable_event_group/count.
 * - itsi_update_episode_details: GET notable_event_group/<id>, POST notable_event_group/<id>?is_partial_data=1.
 * - itsi_add_episode_comments: POST notable_event_comment {comment, event_id, is_group}.
 */

const CLIENT = 'ansible splunk.itsi 1.0.0';
const CS = `${EVENTS}/correlation_search`;
const JSON_OUT = { output_mode: 'json' };

describe(CLIENT, () => {
  it('itsi_correlation_search: present creates, reads back, updates idempotently; absent removes', async () => {
    const { ok, send } = session(CLIENT);
    const name = 'Disk almost full';
    const at = `${CS}/${encodeURIComponent(name)}`;
    expect((await send('GET', at, { query: JSON_OUT })).status).toBe(404);
    const desired = {
      name,
      search: 'index=os disk_used_pct>90',
      disabled: false,
      cron_schedule: '*/10 * * * *',
      actions: 'itsi_event_generator',
      earliest_time: '-15m',
      'dispatch.earliest_time': '-15m',
    };
    await ok('POST', CS, { query: JSON_OUT, body: desired });
    const after = (await ok('GET', at, { query: JSON_OUT })) as Row;
    expect(after).toMatchObject({ name, search: desired.search, cron_schedule: desired.cron_schedule });

    // A second run finds it and sends the changed field only, to the quote_plus form of the name.
    const plus = `${CS}/${name.replaceAll(' ', '+')}`;
    await ok('POST', plus, { query: { ...JSON_OUT, is_partial_data: '1' }, body: { name, cron_schedule: '*/5 * * * *' } });
    expect(await ok('GET', at, { query: JSON_OUT })).toMatchObject({ name, search: desired.search, cron_schedule: '*/5 * * * *' });

    // absent: found, deleted, and a second absent run finds nothing left.
    await ok('GET', at, { query: JSON_OUT });
    await ok('DELETE', at, { query: JSON_OUT });
    expect((await send('GET', at, { query: JSON_OUT })).status).toBe(404);
    expect(rows(await ok('GET', CS, { query: JSON_OUT })).some((c) => c.name === name)).toBe(false);
  });

  it('itsi_correlation_search addresses the seeded searches by their names too', async () => {
    const { ok } = session(CLIENT);
    const seeded = rows(await ok('GET', CS, { query: JSON_OUT }));
    for (const cs of seeded) {
      expect(typeof cs.name).toBe('string');
      expect(await ok('GET', `${CS}/${encodeURIComponent(cs.name as string)}`, { query: JSON_OUT })).toMatchObject({ _key: cs._key });
    }
  });

  it('itsi_correlation_search_info: count=1 answers one search, filter_data selects', async () => {
    const { ok } = session(CLIENT);
    const one = rows(await ok('GET', CS, { query: { ...JSON_OUT, count: '1' } }));
    expect(one).toHaveLength(1);
    const filtered = rows(
      await ok('GET', CS, { query: { ...JSON_OUT, fields: 'name,title', filter_data: JSON.stringify({ enabled: 0 }) } }),
    );
    expect(filtered.map((c) => c._key)).toEqual(['cs_db_errors']);
    // By name, with fields: GET correlation_search/<quote(name)>?output_mode=json&fields=...
    const byName = await ok('GET', `${CS}/${encodeURIComponent('Database error burst')}`, {
      query: { ...JSON_OUT, fields: 'name,search' },
    });
    expect(Object.keys(byName as Row).sort()).toEqual(['_key', 'name', 'object_type', 'search']);
  });

  it('episode details: pages the episodes, counts them, updates one and comments on it', async () => {
    const { ok } = session(CLIENT);
    const groups = `${EVENTS}/notable_event_group`;
    const all = rows(await ok('GET', `${groups}/`));
    const page = rows(await ok('GET', `${groups}/`, { query: { limit: '1', skip: '1', sort_key: '_key', sort_dir: '1' } }));
    expect(page.map((e) => e._key)).toEqual([all.map((e) => e._key as string).sort()[1]]);
    expect(await ok('GET', `${groups}/count`)).toEqual({ count: all.length });

    const id = 'ep_web_latency';
    const before = (await ok('GET', `${groups}/${id}`)) as Row;
    await ok('POST', `${groups}/${id}`, { query: { is_partial_data: '1' }, body: { status: '2', owner: 'admin' } });
    expect(await ok('GET', `${groups}/${id}`)).toMatchObject({ ...kept(before), status: '2', owner: 'admin' });

    const comment = (await ok('POST', `${EVENTS}/notable_event_comment`, {
      body: { comment: 'Investigating', event_id: id, is_group: true },
    })) as Row;
    expect(comment._key).toEqual(expect.any(String));
  });
});
