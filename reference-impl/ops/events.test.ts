import { describe, expect, it } from 'vitest';
import { EVENTS_PATH, opsClient } from './test-client';

type Row = Record<string, unknown>;

describe('event management objects', () => {
  it('lists with skip, limit, sort and filter_data', async () => {
    const call = opsClient();
    const all = (await call('GET', `${EVENTS_PATH}/notable_event_group`)).body as Row[];
    expect(all.length).toBeGreaterThanOrEqual(2);
    const visible = (await call('GET', `${EVENTS_PATH}/notable_event_group`, { as: 'analyst' })).body as Row[];
    expect(visible.length).toBeLessThan(all.length);
    const page = (
      await call('GET', `${EVENTS_PATH}/notable_event_group`, {
        query: { sort_key: 'severity', sort_dir: '0', skip: '1', limit: '1', fields: 'title' },
      })
    ).body as Row[];
    expect(page).toEqual([{ _key: 'ep_core_flap', object_type: 'notable_event_group', title: 'Core link flapping' }]);
    const filtered = (
      await call('GET', `${EVENTS_PATH}/correlation_search`, {
        query: { filter_data: JSON.stringify({ enabled: 0 }) },
      })
    ).body as Row[];
    expect(filtered.map((c) => c._key)).toEqual(['cs_db_errors']);
    expect((await call('GET', `${EVENTS_PATH}/no_such_type`)).status).toBe(404);
  });

  it('keeps comments append-only', async () => {
    const call = opsClient();
    const created = await call('POST', `${EVENTS_PATH}/notable_event_comment`, {
      body: { event_id: 'ep_db_errors', comment: 'restarted the replica' },
    });
    expect(created.status).toBe(200);
    const key = (created.body as Row)._key as string;
    const comment = (await call('GET', `${EVENTS_PATH}/notable_event_comment/${key}`)).body as Row;
    expect(comment).toMatchObject({ comment: 'restarted the replica', user: 'admin', object_type: 'notable_event_comment' });
    expect(typeof comment.create_time).toBe('number');
    const byEvent = (await call('GET', `${EVENTS_PATH}/notable_event_comment/ep_db_errors`, { query: { is_event_id: 'True' } }))
      .body as Row[];
    expect(byEvent.map((c) => c._key)).toEqual([key]);
    expect((await call('POST', `${EVENTS_PATH}/notable_event_comment/${key}`, { body: { comment: 'x' } })).status).toBe(405);
    expect((await call('PUT', `${EVENTS_PATH}/notable_event_comment/${key}`, { body: { comment: 'x' } })).status).toBe(405);
    expect((await call('DELETE', `${EVENTS_PATH}/notable_event_comment/${key}`)).status).toBe(405);
    expect((await call('DELETE', `${EVENTS_PATH}/notable_event_comment`)).status).toBe(405);
    expect((await call('POST', `${EVENTS_PATH}/notable_event_comment`, { body: { event_id: 'ep_db_errors' } })).status).toBe(400);
  });

  it('updates other event objects', async () => {
    const call = opsClient();
    const res = await call('POST', `${EVENTS_PATH}/notable_event_group/ep_db_errors`, {
      query: { is_partial_data: '1' },
      body: { status: '5' },
    });
    expect(res.body).toEqual({ _key: 'ep_db_errors' });
    expect(((await call('GET', `${EVENTS_PATH}/notable_event_group/ep_db_errors`)).body as Row).status).toBe('5');
  });
});

describe('episode actions', () => {
  it('lists actions, reads a configuration, executes', async () => {
    const call = opsClient();
    const list = (await call('GET', `${EVENTS_PATH}/notable_event_actions`)).body as Row[];
    const names = list.map((a) => a.action_name);
    expect(names).toEqual(expect.arrayContaining(['email', 'script', 'ops_event_action_link_ticket', 'ops_sample_event_action_ping']));
    expect(list.find((a) => a.action_name === 'ops_event_action_link_ticket')!.type).toBe('external_ticket');
    const config = (await call('GET', `${EVENTS_PATH}/notable_event_actions/email`)).body as Row;
    for (const f of ['ttl', 'command', 'label', 'disabled', 'eai:acl', 'eai:appName']) expect(config).toHaveProperty(f);
    const run = await call('POST', `${EVENTS_PATH}/notable_event_actions/ops_sample_event_action_ping`, {
      body: { params: { host: 'web-01' }, ids: ['ep_web_latency'] },
    });
    expect(run.status).toBe(200);
    const [entry] = run.body as Row[];
    expect(entry).toMatchObject({ action_name: 'ops_sample_event_action_ping', ids: ['ep_web_latency'] });
    expect(typeof entry!.sid).toBe('string');
    expect((await call('POST', `${EVENTS_PATH}/notable_event_actions/nope`, { body: { ids: ['x'] } })).status).toBe(404);
    expect((await call('POST', `${EVENTS_PATH}/notable_event_actions/email`, { body: { ids: 'x' } })).status).toBe(400);
  });
});

describe('ticketing', () => {
  it('creates, reads, adds and removes ticket links', async () => {
    const call = opsClient();
    const ticket = { ticket_system: 'Pager', ticket_id: 'P-1', ticket_url: 'https://pager.example.test/P-1' };
    const created = await call('POST', `${EVENTS_PATH}/ticketing`, { body: { id: 'ep_db_errors', ...ticket } });
    expect(created.status).toBe(200);
    expect(typeof (created.body as Row)._key).toBe('string');
    expect((await call('POST', `${EVENTS_PATH}/ticketing`, { body: { id: 'ep_db_errors', ticket_system: 'Pager' } })).status).toBe(400);

    const more = await call('POST', `${EVENTS_PATH}/ticketing/ep_db_errors`, {
      query: { ticket_system: 'Pager', ticket_id: 'P-2', ticket_url: 'https://pager.example.test/P-2' },
    });
    expect(more.body).toEqual([(created.body as Row)._key]);
    const links = (await call('GET', `${EVENTS_PATH}/ticketing/ep_db_errors`)).body as Row[];
    expect(links).toHaveLength(1);
    expect(links[0]).toMatchObject({ object_type: 'external_ticket', event_id: 'ep_db_errors', ticket_system: 'Pager' });
    expect((links[0]!.tickets as Row[]).map((t) => t.ticket_id)).toEqual(['P-1', 'P-2']);

    expect((await call('DELETE', `${EVENTS_PATH}/ticketing/ep_db_errors/Pager/P-1`)).status).toBe(204);
    const after = (await call('GET', `${EVENTS_PATH}/ticketing/ep_db_errors`)).body as Row[];
    expect((after[0]!.tickets as Row[]).map((t) => t.ticket_id)).toEqual(['P-2']);
    expect((await call('DELETE', `${EVENTS_PATH}/ticketing/ep_db_errors/Pager/P-1`)).status).toBe(404);
  });
});
