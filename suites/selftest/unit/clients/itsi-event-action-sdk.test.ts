import { describe, expect, it } from 'vitest';
import { EVENTS, kept, type Row, rows, session } from './runner';

/*
 * Client: the ITSI Event Management SDK 1.0.0, splunk/itsi-event-action-sdk, itsi_event_management_sdk/eventing.py
 * and eventing_base.py. Client.request wraps every body as {"data": <body>} (json.dumps({'data': data})), sends
 * content-type application/json and raises on a non-2xx.
 * - EventGroup.add_drilldown / update_drilldown / delete_drilldown: get(group_id) (GET notable_event_group/<id>),
 *   change the drilldown list, then PUT notable_event_group {drilldown, event_id: <id>, _key: <id>}.
 * - Event.create_comment: POST notable_event_comment {event_id, comment}, answered {_key}; get_all_comments:
 *   GET notable_event_comment/<event_id>?is_event_id=True.
 * - Event.create_tag: POST notable_event_tag {event_id, tag_name}; update_tag: PUT notable_event_tag
 *   {_key, event_id, tag_name}; get_all_tags: GET notable_event_tag/<event_id>?is_event_id=True;
 *   delete_tag: DELETE notable_event_tag/<tag_id>.
 * - Event.update_ticket_info: PUT ticketing/<event_id> {ticket_system, ticket_id, ticket_url}.
 */

const CLIENT = 'itsi-event-action-sdk 1.0.0';
const GROUP = `${EVENTS}/notable_event_group`;
const wrap = (data: unknown) => ({ data });

describe(CLIENT, () => {
  it('adds, updates and deletes drilldowns with PUT on the collection, losing nothing else', async () => {
    const { ok } = session(CLIENT);
    const id = 'ep_db_errors';
    const before = (await ok('GET', `${GROUP}/${id}`)) as Row;
    const put = async (drilldown: Row[]) => ok('PUT', GROUP, { body: wrap({ drilldown, event_id: id, _key: id }) });

    const added = [...(before.drilldown as Row[]), { name: 'Dashboard', link: 'https://dash.example.test/db' }];
    expect(await put(added)).toEqual([id]);
    const updated = added.map((d) => (d.name === 'Dashboard' ? { ...d, link: 'https://dash.example.test/db2' } : d));
    expect(await put(updated)).toEqual([id]);
    expect(await ok('GET', `${GROUP}/${id}`)).toMatchObject({ ...kept(before), drilldown: updated });

    const removed = updated.filter((d) => d.name !== 'Dashboard');
    await put(removed);
    expect(await ok('GET', `${GROUP}/${id}`)).toMatchObject({ ...kept(before), drilldown: before.drilldown });
  });

  it('creates a comment and finds it among the episode comments', async () => {
    const { ok } = session(CLIENT);
    const id = 'ep_web_latency';
    const created = (await ok('POST', `${EVENTS}/notable_event_comment`, { body: wrap({ event_id: id, comment: 'from the SDK' }) })) as Row;
    const all = rows(await ok('GET', `${EVENTS}/notable_event_comment/${id}`, { query: { is_event_id: 'True' } }));
    expect(all.find((c) => c._key === created._key)).toMatchObject({ comment: 'from the SDK', event_id: id });
  });

  it('creates, updates, lists and deletes a tag', async () => {
    const { ok, send } = session(CLIENT);
    const id = 'ep_web_latency';
    const tags = `${EVENTS}/notable_event_tag`;
    const created = (await ok('POST', tags, { body: wrap({ event_id: id, tag_name: 'sdk' }) })) as Row;
    const key = created._key as string;
    expect(await ok('PUT', tags, { body: wrap({ _key: key, event_id: id, tag_name: 'sdk-renamed' }) })).toEqual([key]);
    const mine = rows(await ok('GET', `${tags}/${id}`, { query: { is_event_id: 'True' } })).filter((t) => t._key === key);
    expect(mine).toMatchObject([{ tag_name: 'sdk-renamed', event_id: id }]);
    await ok('DELETE', `${tags}/${key}`);
    expect((await send('GET', `${tags}/${key}`)).status).toBe(404);
  });

  it('links a ticket with PUT ticketing/<event_id>', async () => {
    const { ok } = session(CLIENT);
    const id = 'ep_core_flap';
    const link = (await ok('PUT', `${EVENTS}/ticketing/${id}`, {
      body: wrap({ ticket_system: 'jira', ticket_id: 'OPS-7', ticket_url: 'https://jira.example.test/OPS-7' }),
    })) as unknown[];
    expect(link).toHaveLength(1);
    const links = rows(await ok('GET', `${EVENTS}/ticketing/${id}`));
    expect(links.flatMap((l) => l.tickets as Row[])).toContainEqual({
      ticket_system: 'jira',
      ticket_id: 'OPS-7',
      ticket_url: 'https://jira.example.test/OPS-7',
    });
  });
});
