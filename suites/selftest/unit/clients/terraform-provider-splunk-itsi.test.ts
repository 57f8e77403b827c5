import { describe, expect, it } from 'vitest';
import { EVENTS, ITOA, type Row, rows, session } from './runner';

/*
 * Client: the Splunk ITSI Terraform provider, TiVo/terraform-provider-splunk-itsi, models/base.go at commit
 * 01449daf (the generic REST layer every resource uses) and provider/resource_neap.go.
 * - Dump (the importer's and data sources' iterator): GET <type>?sort_key=_key&sort_dir=asc&count=N&offset=M,
 *   offset += N until a page holds fewer than N rows.
 * - lookupRESTKey (import by title, and Find when only the title is known):
 *   GET <type>?limit=2&filter={"<tfid>":"<value>"}&fields=<tfid>,_key; more than one row is "TFID is not unique".
 * - Create: POST <type> with the object, the key read from the answer's rest_key_field (`_key`, or `name` for
 *   correlation_search). Update: PUT <type>/<key> with the whole object. Delete: DELETE <type>/<key>, 404 is fine.
 * - resourceNEAP Update and Delete call Find first (by key, else by title) and give up when it finds nothing.
 */

const CLIENT = 'terraform-provider-splunk-itsi (01449daf)';

/** Dump's loop: pages of `count` rows from offset 0 until a short page; answers every row met. */
async function dumpAll(ok: ReturnType<typeof session>['ok'], url: string, count: number): Promise<Row[]> {
  const all: Row[] = [];
  for (let offset = 0; ; offset += count) {
    const page = rows(await ok('GET', url, { query: { sort_key: '_key', sort_dir: 'asc', count: String(count), offset: String(offset) } }));
    all.push(...page);
    if (page.length < count) return all;
  }
}

/** lookupRESTKey: the key of the one object whose `field` is `value`; undefined when none, a failure when many. */
async function lookupKey(ok: ReturnType<typeof session>['ok'], url: string, field: string, value: string): Promise<string | undefined> {
  const query = { limit: '2', filter: JSON.stringify({ [field]: value }), fields: `${field},_key` };
  const found = rows(await ok('GET', url, { query }));
  expect(found.length, `${CLIENT}: TFID ${value} is not unique`).toBeLessThanOrEqual(1);
  return found[0]?._key as string | undefined;
}

describe(CLIENT, () => {
  it('dumps every service once, paging with count and offset', async () => {
    const { ok } = session(CLIENT);
    const all = rows(await ok('GET', `${ITOA}/service`));
    // A page smaller than the collection, so the iterator has to page (the provider's service page is 100).
    const dumped = await dumpAll(ok, `${ITOA}/service`, 2);
    expect(dumped.map((s) => s._key)).toEqual(all.map((s) => s._key as string).sort());
  });

  it('imports, updates and destroys an aggregation policy by title', async () => {
    const { ok, send } = session(CLIENT);
    const url = `${EVENTS}/notable_event_aggregation_policy`;
    const policy = { title: 'tf neap', description: 'managed by terraform', split_by_field: 'host', disabled: 0 };
    const created = (await ok('POST', url, { body: policy })) as Row;
    const key = created._key as string;
    // Import by title: exactly this policy, though the seed has others.
    expect(await lookupKey(ok, url, 'title', 'tf neap')).toBe(key);

    // Update: Find, then PUT the whole object; a read shows the change.
    expect(await lookupKey(ok, url, 'title', 'tf neap')).toBe(key);
    await ok('PUT', `${url}/${key}`, { body: { ...policy, description: 'changed' } });
    expect(await ok('GET', `${url}/${key}`)).toMatchObject({ ...policy, description: 'changed' });

    // Destroy: Find by key, DELETE; the next Find finds nothing, so the delete loop ends.
    await ok('DELETE', `${url}/${key}`);
    expect((await send('GET', `${url}/${key}`)).status).toBe(404);
    expect(await lookupKey(ok, url, 'title', 'tf neap')).toBeUndefined();
  });

  it('creates a correlation search and reads it back by the name the create answered', async () => {
    const { ok } = session(CLIENT);
    const url = `${EVENTS}/correlation_search`;
    const search = { name: 'tf_cs_disk_full', search: 'index=os disk_used_pct>95', cron_schedule: '*/5 * * * *', disabled: 0 };
    const created = (await ok('POST', url, { body: search })) as Row;
    // rest_key_field is `name` for correlation searches.
    const restKey = created.name as string;
    expect(restKey).toBe('tf_cs_disk_full');
    expect(await ok('GET', `${url}/${restKey}`)).toMatchObject(search);
    // Populate requires the key and id fields on every listed search, seeded ones included.
    for (const cs of await dumpAll(ok, url, 2)) expect(typeof cs.name, JSON.stringify(cs)).toBe('string');
    await ok('PUT', `${url}/${restKey}`, { body: { ...search, disabled: 1 } });
    expect(await ok('GET', `${url}/${restKey}`)).toMatchObject({ disabled: 1 });
    await ok('DELETE', `${url}/${restKey}`);
  });
});
