import { describe, expect, it } from 'vitest';
import { ITOA, MAINTENANCE, type Row, rows, session } from './runner';

/*
 * Client: itsi_maintenance.py of mike-mcgrail/splunk-itsi-api (created 2020-01-16, commit 021badc6), a toolbox
 * script that opens and removes maintenance windows with requests.
 * - get_key(entity): GET itoa_interface/entity/?fields=title,_key&filter={"title":"<title>"}, res.json()[0]['_key'].
 * - create: POST maintenance_calendar/ with data=json.dumps(body) (no content type), body
 *   {title, comment, start_time: "0", end_time: "2147385600", objects: [{object_type: "entity", _key}]}: the
 *   times as strings. Anything but 200 is logged as a failure.
 * - remove: get_key(maintenance): GET maintenance_calendar/?fields=title,_key&filter={"title":"<title>"}, then
 *   DELETE maintenance_calendar/<key>/ (trailing slash), expecting 204.
 */

const CLIENT = 'splunk-itsi-api itsi_maintenance.py (021badc6)';
const URL = `${MAINTENANCE}/maintenance_calendar`;

async function getKey(ok: ReturnType<typeof session>['ok'], url: string, title: string): Promise<string> {
  const found = rows(await ok('GET', `${url}/`, { query: { fields: 'title,_key', filter: JSON.stringify({ title }) } }));
  expect(found.length, `${CLIENT}: no ${title}`).toBeGreaterThan(0);
  return found[0]!._key as string;
}

describe(CLIENT, () => {
  it('creates an indefinite window for an entity and removes it again', async () => {
    const { ok, send } = session(CLIENT);
    const entityKey = await getKey(ok, `${ITOA}/entity`, 'web-01');
    const title = 'Indefinite web-01 maintenance';
    const body = {
      title,
      comment: 'Created by admin',
      start_time: '0',
      end_time: '2147385600',
      objects: [{ object_type: 'entity', _key: entityKey }],
    };
    const created = await send('POST', `${URL}/`, { raw: JSON.stringify(body) });
    expect(created.status, created.text).toBe(200);
    const key = await getKey(ok, URL, title);
    expect(await ok('GET', `${URL}/${key}`)).toMatchObject({ title, start_time: 0, end_time: 2147385600, objects: body.objects });

    const removed = await send('DELETE', `${URL}/${key}/`);
    expect(removed.status, removed.text).toBe(204);
    expect((await send('GET', `${URL}/${key}`)).status).toBe(404);
    const left = rows(await ok('GET', URL)) as Row[];
    expect(left.some((w) => w.title === title)).toBe(false);
  });
});
