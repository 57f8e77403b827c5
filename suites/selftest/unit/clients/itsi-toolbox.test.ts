import { describe, expect, it } from 'vitest';
import { MAINTENANCE, type Row, rows, session } from './runner';

/*
 * Client: the ITSI Toolbox app 2.0.2 (am-napier/itsi_toolbox), bin/mwcal.py and bin/itsi_kvstore.py. The search
 * command `mwcal` talks to maintenance_services_interface/maintenance_calendar through splunklib's service.post,
 * which puts the other arguments in the query string and sends `body` as is, declared form-encoded.
 * - mode=upsert: write_object(key, payload, is_partial=True):
 *   POST maintenance_calendar/<key>?is_partial=1, body {start_time, end_time, title, objects[, _key]}; "if this
 *   doesn't exist it will be created".
 * - mode=delete: service.delete(maintenance_calendar, filter={"title": {"$regex": "<regex>"}}).
 */

const CLIENT = 'itsi_toolbox 2.0.2 (mwcal)';
const URL = `${MAINTENANCE}/maintenance_calendar`;
const SPLUNKLIB_BODY = { 'content-type': 'application/x-www-form-urlencoded' };

/** write_object: POST <key>?is_partial=1 with the JSON payload as the raw body. */
const writeObject = (payload: Row) => ({ query: { is_partial: '1' }, headers: SPLUNKLIB_BODY, raw: JSON.stringify(payload) });

describe(CLIENT, () => {
  it('upserts a window under a new key, then updates it in place', async () => {
    const { ok } = session(CLIENT);
    const key = 'mw-change-4711';
    const payload = {
      start_time: 1767225600,
      end_time: 1767229200,
      title: 'CHG4711 db patching',
      objects: [{ _key: 'svc_database', object_type: 'service' }],
      _key: key,
    };
    expect(await ok('POST', `${URL}/${key}`, writeObject(payload))).toEqual({ _key: key });
    expect(await ok('GET', `${URL}/${key}`)).toMatchObject(payload);

    // The same key again updates it (partial: fields not sent are kept).
    const later = { ...payload, end_time: 1767232800, title: 'CHG4711 db patching (extended)' };
    expect(await ok('POST', `${URL}/${key}`, writeObject(later))).toEqual({ _key: key });
    const windows = rows(await ok('GET', URL, { query: { filter: JSON.stringify({ _key: key }) } }));
    expect(windows).toHaveLength(1);
    expect(windows[0]).toMatchObject(later);
  });

  it('deletes the windows whose title matches a regex, and only those', async () => {
    const { ok } = session(CLIENT);
    const before = rows(await ok('GET', URL)).map((w) => w._key);
    for (const n of [1, 2]) {
      const key = `mw-bulk-${n}`;
      await ok(
        'POST',
        `${URL}/${key}`,
        writeObject({ start_time: 1767225600, end_time: 1767229200, title: `mwcal bulk ${n}`, objects: [] }),
      );
    }
    await ok('DELETE', URL, { query: { filter: JSON.stringify({ title: { $regex: '^mwcal bulk' } }) } });
    expect(rows(await ok('GET', URL)).map((w) => w._key)).toEqual(before);
  });
});
