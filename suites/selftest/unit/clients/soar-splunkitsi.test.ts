import { describe, expect, it } from 'vitest';
import { EVENTS, ITOA, MAINTENANCE, kept, type Row, rows, session } from './runner';

/*
 * Client: the Splunk SOAR connector for ITSI, splunk-soar-connectors/splunkitsi 2.0.4, splunkitsi_connector.py.
 * Requests are sent with requests.<method>(url, json=payload); the connector fails an action on any non-2xx.
 * - test connectivity: GET itoa_interface/get_supported_object_types/
 * - get episode / update episode / close episode: GET notable_event_group/<id>, then
 *   PUT notable_event_group/<id>?is_partial_data=1 with {status, severity, owner} (close sends status 5).
 * - break episode: GET notable_event_group/<id>, POST notable_event_group?break_group_policy_id=<policy> with
 *   {_key: <id>, status, title, description, severity, owner}.
 * - add episode comment: GET notable_event_group/<id>, POST notable_event_comment {event_id, comment}, then reads
 *   response["comment_id"] (a missing one fails the action, after the comment was stored).
 * - add episode ticket: POST ticketing {ids: [<id>], ticket_system, ticket_id, ticket_url};
 *   get episode tickets: GET ticketing/<id>, counting each link's tickets.
 * - get service / update service status: GET itoa_interface/service/<id>, PUT service/<id>?is_partial_data=1
 *   {enabled}.
 * - add maintenance window: POST maintenance_calendar?is_partial_data=1 {title, start_time, end_time, objects,
 *   comment}; update: GET it, PUT maintenance_calendar/<id>?is_partial_data=1 with the changed fields; end: POST
 *   maintenance_calendar/<id>?is_partial_data=1 {end_time: now + 1, comment}.
 */

const CLIENT = 'splunk-soar-connectors/splunkitsi 2.0.4';
const GROUP = `${EVENTS}/notable_event_group`;
const PARTIAL = { is_partial_data: '1' };

describe(CLIENT, () => {
  it('test connectivity, get episode, update and close it', async () => {
    const { ok } = session(CLIENT);
    await ok('GET', `${ITOA}/get_supported_object_types/`);
    const id = 'ep_db_errors';
    const before = (await ok('GET', `${GROUP}/${id}`)) as Row;
    await ok('PUT', `${GROUP}/${id}`, { query: PARTIAL, body: { severity: '5', owner: 'admin' } });
    await ok('PUT', `${GROUP}/${id}`, { query: PARTIAL, body: { status: '5' } });
    expect(await ok('GET', `${GROUP}/${id}`)).toMatchObject({ ...kept(before), severity: '5', owner: 'admin', status: '5' });
  });

  it('break episode is refused and leaves the episode as it was', async () => {
    const { ok, send } = session(CLIENT);
    const id = 'ep_web_latency';
    const before = await ok('GET', `${GROUP}/${id}`);
    const payload = { _key: id, status: '2', title: 'broken', description: 'broken off', severity: '4', owner: 'admin' };
    const res = await send('POST', GROUP, { query: { break_group_policy_id: 'nap_default' }, body: payload });
    expect(res.status).toBe(400);
    expect(await ok('GET', `${GROUP}/${id}`)).toEqual(before);
  });

  it('add episode comment answers the comment_id the connector reads, and stores one comment', async () => {
    const { ok } = session(CLIENT);
    const id = 'ep_web_latency';
    await ok('GET', `${GROUP}/${id}`);
    const comments = async () => rows(await ok('GET', `${EVENTS}/notable_event_comment/${id}`, { query: { is_event_id: '1' } }));
    const count = (await comments()).length;
    const response = (await ok('POST', `${EVENTS}/notable_event_comment`, {
      body: { event_id: id, comment: 'Escalated from SOAR' },
    })) as Row;
    expect(response.comment_id).toEqual(expect.any(String));
    const after = await comments();
    expect(after).toHaveLength(count + 1);
    expect(after.find((c) => c._key === response.comment_id)).toMatchObject({ comment: 'Escalated from SOAR', event_id: id });
  });

  it('add episode ticket with ids, then get episode tickets', async () => {
    const { ok } = session(CLIENT);
    const id = 'ep_db_errors';
    await ok('GET', `${GROUP}/${id}`);
    const ticket = { ids: [id], ticket_system: 'ServiceNow', ticket_id: 'INC0012345', ticket_url: 'https://snow.example.test/INC0012345' };
    await ok('POST', `${EVENTS}/ticketing`, { body: ticket });
    const links = rows(await ok('GET', `${EVENTS}/ticketing/${id}`));
    const tickets = links.flatMap((l) => (Array.isArray(l.tickets) ? (l.tickets as Row[]) : []));
    expect(tickets).toContainEqual({ ticket_system: 'ServiceNow', ticket_id: 'INC0012345', ticket_url: ticket.ticket_url });
  });

  it('update service status keeps the rest of the service', async () => {
    const { ok } = session(CLIENT);
    const at = `${ITOA}/service/svc_database`;
    const before = (await ok('GET', at)) as Row;
    await ok('PUT', at, { query: PARTIAL, body: { enabled: 0 } });
    expect(await ok('GET', at)).toMatchObject({ ...kept(before), enabled: 0 });
  });

  it('add, update and end a maintenance window', async () => {
    const { ok } = session(CLIENT);
    const url = `${MAINTENANCE}/maintenance_calendar`;
    const now = Math.floor(Date.now() / 1000);
    const window = {
      title: 'SOAR patching',
      start_time: now - 60,
      end_time: now + 3600,
      objects: [{ _key: 'svc_database', object_type: 'service' }],
      comment: 'opened from SOAR',
    };
    const created = (await ok('POST', url, { query: PARTIAL, body: window })) as Row;
    const at = `${url}/${created._key as string}`;
    await ok('GET', at);
    await ok('PUT', at, { query: PARTIAL, body: { title: 'SOAR patching (extended)', end_time: now + 7200 } });
    const end = now + 1;
    await ok('POST', at, { query: PARTIAL, body: { end_time: end, comment: 'closed from SOAR' } });
    expect(await ok('GET', at)).toMatchObject({ ...window, title: 'SOAR patching (extended)', end_time: end, comment: 'closed from SOAR' });
  });
});
