import type { Check } from '../../core/check';
import { DEEP_DIVE, KPI_BASE_SEARCH, SERVICE, TEAM, type Collection } from '../collections';
import { assertWholeCount, countIn, countOf, createIn, deleteIn, emptyBody, getIn, keyOf, keys, listIn, ok, ownFilter, rows, sleep, updateIn, type Doc } from '../support';

const CREATED_TYPES: Collection[] = [SERVICE, KPI_BASE_SEARCH, DEEP_DIVE, TEAM];

export const createReturnsKey: Check = {
  id: 'ops.core.create-returns-key',
  title: 'POST <object_type> MUST answer {_key}, and the stored object MUST carry that _key and its object_type',
  requirements: ['OPS-CORE-CREATE', 'OPS-COMMON-KEY-OBJECT-TYPE', 'OPS-COMMON-POST-BODY'],
  async run(ctx) {
    for (const c of CREATED_TYPES) {
      const { ex, key } = await createIn(ctx, c, `Create ${c.type}`);
      // Only the service's required field is documented: other types may ask for fields the suite cannot know.
      if (c !== SERVICE && !ok(ex)) {
        ctx.observe('OPS-CORE-CREATE', `a minimal ${c.type} was refused with ${ex.status}`);
        ctx.untested('OPS-COMMON-KEY-OBJECT-TYPE', `the ${c.type} full schema is not shown and a minimal one was refused`, ex);
        continue;
      }
      ctx.assert('OPS-COMMON-POST-BODY', ok(ex), `a dictionary body for ${c.type} is accepted (${ex.status})`, ex);
      if (!ctx.assert('OPS-CORE-CREATE', ok(ex) && key !== undefined, key ? `create ${c.type} answered {_key: ${key}}` : `create ${c.type} answered ${ex.status} without a string _key`, ex)) continue;
      const got = await getIn(ctx, c, key!);
      const d = got.json as Doc;
      const good = ok(got) && d?._key === key && d?.object_type === c.type;
      ctx.assert('OPS-COMMON-KEY-OBJECT-TYPE', good, good ? `${c.type} ${key} carries _key and object_type` : `GET ${c.type}/${key} answered ${got.status} with _key ${JSON.stringify(d?._key)} and object_type ${JSON.stringify(d?.object_type)}`, got);
    }
  },
};

export const readAfterWrite: Check = {
  id: 'ops.core.read-after-write',
  title: 'GET <object_type>/<_key> MUST return the object as written, and POST <object_type>/<_key> MUST update it',
  requirements: ['OPS-CORE-GET', 'OPS-CORE-UPDATE'],
  async run(ctx) {
    const { key, body } = await createIn(ctx, SERVICE, 'Read After Write', { cf_note: 'first', cf_level: 3, cf_tags: ['a', 'b'] });
    if (!key) return ctx.untested('OPS-CORE-GET', 'create did not answer a key');
    const got = await getIn(ctx, SERVICE, key);
    const d = got.json as Doc;
    const same = ok(got) && d.title === body.title && d.cf_note === 'first' && d.cf_level === 3 && JSON.stringify(d.cf_tags) === '["a","b"]';
    ctx.assert('OPS-CORE-GET', same, same ? 'the object reads back as written' : `read back ${JSON.stringify({ title: d?.title, cf_note: d?.cf_note, cf_level: d?.cf_level, cf_tags: d?.cf_tags })}`, got);
    const upd = await updateIn(ctx, SERVICE, key, { cf_note: 'second' }, 1);
    ctx.assert('OPS-CORE-UPDATE', ok(upd) && keyOf(upd) === key, `update by key answered ${upd.status} with _key ${JSON.stringify(keyOf(upd))}`, upd);
    const again = await getIn(ctx, SERVICE, key);
    ctx.assert('OPS-CORE-UPDATE', (again.json as Doc)?.cf_note === 'second', `after the update cf_note reads ${JSON.stringify((again.json as Doc)?.cf_note)}`, again);
  },
};

export const deleteRemovesExactlyOne: Check = {
  id: 'ops.core.delete-by-key',
  title: 'DELETE <object_type>/<_key> MUST remove exactly that object, for good',
  requirements: ['OPS-CORE-DELETE', 'OPS-COMMON-IRREVERSIBLE'],
  async run(ctx) {
    const made = await Promise.all(['One', 'Two', 'Three'].map((n) => createIn(ctx, DEEP_DIVE, `Delete ${n}`)));
    const ks = made.map((m) => m.key).filter((k): k is string => Boolean(k));
    if (ks.length < 3) return ctx.untested('OPS-CORE-DELETE', 'could not create three objects');
    const before = await countIn(ctx, DEEP_DIVE, { filter: ownFilter(ctx) });
    const del = await deleteIn(ctx, DEEP_DIVE, ks[1]);
    if (!ctx.assert('OPS-CORE-DELETE', ok(del), `delete by key answered ${del.status}`, del)) return;
    ctx.assert('OPS-CORE-DELETE', emptyBody(del), `delete by key answered ${emptyBody(del) ? 'an empty body' : `a body: ${del.text.trim().slice(0, 80)}`}`, del);
    const gone = await getIn(ctx, DEEP_DIVE, ks[1]);
    ctx.assert('OPS-CORE-DELETE', !ok(gone), `GET of the deleted key answered ${gone.status}`, gone);
    const left = keys(rows(await listIn(ctx, DEEP_DIVE, { filter: ownFilter(ctx) })));
    const exact = left.includes(ks[0]) && left.includes(ks[2]) && !left.includes(ks[1]);
    ctx.assert('OPS-CORE-DELETE', exact, exact ? 'exactly the deleted object is gone' : `after deleting ${ks[1]} the run's objects are ${JSON.stringify(left)}`);
    const after = await countIn(ctx, DEEP_DIVE, { filter: ownFilter(ctx) });
    const b = countOf(before);
    const a = countOf(after);
    if (b !== undefined && a !== undefined) ctx.assert('OPS-CORE-DELETE', a === b - 1, `count went from ${b} to ${a}`, after);
    await sleep(50);
    const later = await getIn(ctx, DEEP_DIVE, ks[1]);
    ctx.assert('OPS-COMMON-IRREVERSIBLE', !ok(later), ok(later) ? 'a deleted object came back' : 'the deleted object stays deleted', later);
  },
};

export const identifyingNameIsLowerCasedTitle: Check = {
  id: 'ops.core.identifying-name',
  title: 'Where present, identifying_name MUST be the lower-cased title, after create and after a title change',
  requirements: ['OPS-COMMON-IDENTIFYING-NAME'],
  async run(ctx) {
    const { key, body } = await createIn(ctx, SERVICE, 'MiXeD Case Title');
    if (!key) return ctx.untested('OPS-COMMON-IDENTIFYING-NAME', 'create did not answer a key');
    const got = (await getIn(ctx, SERVICE, key)).json as Doc;
    // The document defines the value, not the presence ("commonly carry"): an object without it has nothing to judge.
    if (got?.identifying_name === undefined) return ctx.untested('OPS-COMMON-IDENTIFYING-NAME', 'the stored service carries no identifying_name');
    ctx.assert('OPS-COMMON-IDENTIFYING-NAME', got.identifying_name === String(body.title).toLowerCase(), `title ${JSON.stringify(body.title)} gives identifying_name ${JSON.stringify(got.identifying_name)}`);
    const title = `${body.title} RENAMED`;
    await updateIn(ctx, SERVICE, key, { title }, 1);
    const renamed = await getIn(ctx, SERVICE, key);
    ctx.assert('OPS-COMMON-IDENTIFYING-NAME', (renamed.json as Doc)?.identifying_name === title.toLowerCase(), `after renaming, identifying_name is ${JSON.stringify((renamed.json as Doc)?.identifying_name)}`, renamed);
  },
};

export const commonFieldsAreMaintained: Check = {
  id: 'ops.core.common-fields',
  title: 'Stored objects SHOULD carry the common fields; mod_timestamp MUST move forward on every write and _version MUST hold the schema version',
  requirements: ['OPS-COMMON-FIELDS', 'OPS-VERSION-OBJECT-VERSION', 'OPS-COMMON-SEC-GRP-DEFAULT'],
  async run(ctx) {
    const { key } = await createIn(ctx, SERVICE, 'Common Fields');
    if (!key) return ctx.untested('OPS-COMMON-FIELDS', 'create did not answer a key');
    const first = await getIn(ctx, SERVICE, key);
    const d = first.json as Doc;
    const missing = ['_version', '_user', 'mod_source', 'mod_timestamp', 'identifying_name', 'sec_grp', 'title'].filter((f) => d?.[f] === undefined);
    ctx.assert('OPS-COMMON-FIELDS', missing.length === 0, missing.length ? `the stored object lacks ${missing.join(', ')}` : 'the stored object carries every common field', first);
    ctx.assert('OPS-VERSION-OBJECT-VERSION', typeof d?._version === 'string' && d._version.length > 0, `_version is ${JSON.stringify(d?._version)}`, first);
    if (d?.sec_grp !== undefined) ctx.assert('OPS-COMMON-SEC-GRP-DEFAULT', d.sec_grp === 'default_ops_security_group', `an object created without sec_grp is in ${JSON.stringify(d.sec_grp)}`, first);
    else ctx.untested('OPS-COMMON-SEC-GRP-DEFAULT', 'the stored object has no sec_grp to compare', first);
    let last = String(d?.mod_timestamp ?? '');
    for (const note of ['one', 'two']) {
      // A deployment may keep mod_timestamp to the second: wait past one, so "moved forward" is a fair question.
      await sleep(ctx.target.embedded ? 5 : 1100);
      await updateIn(ctx, SERVICE, key, { cf_note: note }, 1);
      const next = await getIn(ctx, SERVICE, key);
      const ts = String((next.json as Doc)?.mod_timestamp ?? '');
      const moved = Date.parse(ts) > Date.parse(last);
      ctx.assert('OPS-COMMON-FIELDS', moved, moved ? 'mod_timestamp moved forward on write' : `mod_timestamp went from ${last} to ${ts} on a write`, next);
      last = ts;
    }
  },
};

export const countAgreesWithList: Check = {
  id: 'ops.core.count',
  title: 'GET <object_type>/count MUST answer {count} equal to the number of rows the list gives for the same filter; no filter counts all',
  requirements: ['OPS-CORE-COUNT'],
  async run(ctx) {
    await Promise.all(['Count A', 'Count B'].map((t) => createIn(ctx, SERVICE, t)));
    const own = { filter: ownFilter(ctx) };
    const [list, count] = [await listIn(ctx, SERVICE, own), await countIn(ctx, SERVICE, own)];
    ctx.assert('OPS-CORE-COUNT', countOf(count) === rows(list).length && rows(list).length === 2, `count with the run filter is ${countOf(count)}, the list has ${rows(list).length} rows (2 created)`, count);
    // Without a filter the whole collection counts, and other checks may be writing to it: compare it at rest.
    await assertWholeCount(ctx, SERVICE, 'OPS-CORE-COUNT', 'services');
  },
};

export const createWithKeyUpdates: Check = {
  id: 'ops.core.create-or-update',
  title: 'POST <object_type> with the _key of an existing object MUST NOT create a second object: it updates that object and answers its _key, or is refused and leaves the original intact',
  requirements: ['OPS-CORE-CREATE-UPSERT'],
  async run(ctx) {
    const { key, body } = await createIn(ctx, SERVICE, 'Upsert');
    if (!key) return ctx.untested('OPS-CORE-CREATE-UPSERT', 'create did not answer a key');
    const ex = await ctx.http.send('coreCreate', { params: { object_type: 'service' }, body: { ...body, _key: key, cf_note: 'updated through create' } });
    const answered = keyOf(ex);
    if (ok(ex) && answered && answered !== key) ctx.ledger.add(`service ${answered}`, () => deleteIn(ctx, SERVICE, answered));
    const mine = rows(await listIn(ctx, SERVICE, { filter: ownFilter(ctx) }));
    const copies = mine.filter((r) => r._key === key).length;
    ctx.assert('OPS-CORE-CREATE-UPSERT', copies === 1 && (!ok(ex) || answered === key), `POST with an existing _key answered ${ex.status} {_key: ${JSON.stringify(answered)}}; ${copies} object(s) now carry that key`, ex);
    const got = await getIn(ctx, SERVICE, key);
    const d = (got.json ?? {}) as Doc;
    if (ok(ex)) ctx.assert('OPS-CORE-CREATE-UPSERT', d.cf_note === 'updated through create', `the create was accepted as an update; the object now has cf_note ${JSON.stringify(d.cf_note)}`, got);
    else ctx.assert('OPS-CORE-CREATE-UPSERT', ok(got) && d.title === body.title && d.cf_note === undefined, `the create was refused (${ex.status}); the original reads ${got.status} with title ${JSON.stringify(d.title)} and cf_note ${JSON.stringify(d.cf_note)}`, got);
  },
};
