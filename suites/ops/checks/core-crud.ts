import { DEEP_DIVE, KPI_BASE_SEARCH, SERVICE, statesOf, TEAM, type Collection } from '../collections';
import { compact } from '../../core/expect';
import { asDoc } from '../../core/json';
import { deleteOneOfThree } from '../delete-one';
import {
  allNeeded,
  assertWholeCount,
  countIn,
  countOf,
  createIn,
  createNeeded,
  deleteIn,
  emptyBody,
  getIn,
  keyOf,
  lackingFields,
  listIn,
  ok,
  ownFilter,
  removeIn,
  rows,
  sleep,
  updateIn,
  type OpsCheck,
} from '../support';

const CREATED_TYPES: Collection[] = [SERVICE, KPI_BASE_SEARCH, DEEP_DIVE, TEAM];

export const createReturnsKey: OpsCheck = {
  id: 'ops.core.create-returns-key',
  title: 'POST <object_type> MUST answer {_key}, and the stored object MUST carry that _key and its object_type',
  requirements: ['OPS-CORE-CREATE', 'OPS-COMMON-KEY-OBJECT-TYPE', 'OPS-COMMON-POST-BODY'],
  uses: statesOf(CREATED_TYPES),
  async run(ctx) {
    for (const c of CREATED_TYPES) {
      const { ex, key } = await createIn(ctx, c, `Create ${c.type}`);
      // Only the service's required field is documented: other types may ask for fields the suite cannot know.
      if (c !== SERVICE && !ok(ex)) {
        ctx.observe('OPS-CORE-CREATE', `a minimal ${c.type} was refused with ${ex.status}`);
        ctx.untested('OPS-COMMON-KEY-OBJECT-TYPE', `the ${c.type} full schema is not shown and a minimal one was refused`, ex);
        continue;
      }
      ctx.expect.status('OPS-COMMON-POST-BODY', `create of a ${c.type} with a dictionary body`, ex, '2xx');
      if (
        !ctx.expect.that(
          'OPS-CORE-CREATE',
          `create of a ${c.type}`,
          ok(ex) && key !== undefined,
          { expected: 'a success with a string _key', actual: `${ex.status} ${ex.text.slice(0, 120)}` },
          ex,
        )
      )
        continue;
      const got = await getIn(ctx, c, key!);
      const d = got.json;
      ctx.expect.equal(
        'OPS-COMMON-KEY-OBJECT-TYPE',
        `GET ${c.type}/${key}: success, _key and object_type`,
        { success: ok(got), _key: d?._key, object_type: d?.object_type },
        { success: true, _key: key, object_type: c.type },
        got,
      );
    }
  },
};

export const readAfterWrite: OpsCheck = {
  id: 'ops.core.read-after-write',
  title: 'GET <object_type>/<_key> MUST return the object as written, and POST <object_type>/<_key> MUST update it',
  requirements: ['OPS-CORE-GET', 'OPS-CORE-UPDATE', 'OPS-PARTIAL-NEW-FIELDS'],
  async run(ctx) {
    const { key, body } = await createNeeded(ctx, SERVICE, 'Read After Write', { cf_note: 'first', cf_level: 3, cf_tags: ['a', 'b'] });
    const got = await getIn(ctx, SERVICE, key);
    const d = got.json;
    const same =
      ok(got) && d!.title === body.title && d!.cf_note === 'first' && d!.cf_level === 3 && JSON.stringify(d!.cf_tags) === '["a","b"]';
    const written = { title: body.title, cf_note: 'first', cf_level: 3, cf_tags: ['a', 'b'] };
    ctx.expect.that(
      'OPS-CORE-GET',
      'the service read back after create',
      same,
      {
        expected: compact(written),
        actual: `${got.status} ${compact({ title: d?.title, cf_note: d?.cf_note, cf_level: d?.cf_level, cf_tags: d?.cf_tags })}`,
      },
      got,
    );
    // The title, a field of every schema: a partial update may leave the made-up cf_note out (OPS-PARTIAL-NEW-FIELDS).
    const renamed = `${body.title} renamed`;
    const upd = await updateIn(ctx, SERVICE, key, { title: renamed, cf_note: 'second' }, 1);
    ctx.expect.equal(
      'OPS-CORE-UPDATE',
      'update by key: success and _key',
      { success: ok(upd), _key: keyOf(upd) },
      { success: true, _key: key },
      upd,
    );
    const again = await getIn(ctx, SERVICE, key);
    ctx.expect.equal('OPS-CORE-UPDATE', 'title after the update', again.json?.title, renamed, again);
    ctx.observe(
      'OPS-PARTIAL-NEW-FIELDS',
      `a partial update sending cf_note "second" over "first" left cf_note ${compact(again.json?.cf_note)}`,
    );
    // sec_grp is written by the client as much as by the server: one set to a team of the run's reads back as sent.
    const team = await createIn(ctx, TEAM, 'Read After Write Team');
    if (!team.key) return;
    const placed = await createIn(ctx, SERVICE, 'Read After Write In Team', { sec_grp: team.key });
    if (!placed.key)
      return ctx.observe(
        'OPS-CORE-GET',
        `a service created with sec_grp ${team.key} (a team of the run's) was refused: ${placed.ex.status} ${placed.ex.text.slice(0, 100)}`,
      );
    const inTeam = await getIn(ctx, SERVICE, placed.key);
    ctx.expect.equal('OPS-CORE-GET', "sec_grp of a service created in a team of the run's", inTeam.json?.sec_grp, team.key, inTeam);
  },
};

export const deleteRemovesExactlyOne: OpsCheck = {
  id: 'ops.core.delete-by-key',
  title: 'DELETE <object_type>/<_key> MUST remove exactly that object, for good',
  requirements: ['OPS-CORE-DELETE', 'OPS-COMMON-IRREVERSIBLE'],
  uses: statesOf([DEEP_DIVE]),
  async run(ctx) {
    const made = allNeeded(
      await Promise.all(['One', 'Two', 'Three'].map((n) => createIn(ctx, DEEP_DIVE, `Delete ${n}`))),
      'three deep dives',
    );
    const ks = made.map((m) => m.key);
    const del = await deleteOneOfThree(ctx, DEEP_DIVE, ks);
    if (!del) return;
    ctx.expect.that('OPS-CORE-DELETE', 'the body of a delete by key', emptyBody(del), { expected: 'empty', actual: del.text.trim() }, del);
    await sleep(50);
    const later = await getIn(ctx, DEEP_DIVE, ks[1]);
    ctx.expect.status('OPS-COMMON-IRREVERSIBLE', 'GET of the deleted key, later', later, 'not 2xx');
    // Types with delete rules of their own (a team but the Global one may go) are held to the same plain delete.
    const team = await createNeeded(ctx, TEAM, 'Delete Team');
    const gone = (await removeIn(ctx, TEAM, team))!;
    if (ctx.expect.status('OPS-CORE-DELETE', `DELETE team/${team.key} (a team of the run's)`, gone, '2xx'))
      ctx.expect.status('OPS-CORE-DELETE', 'GET of the deleted team', await getIn(ctx, TEAM, team.key), 'not 2xx');
  },
};

export const identifyingNameIsLowerCasedTitle: OpsCheck = {
  id: 'ops.core.identifying-name',
  title: 'Where present, identifying_name MUST be the lower-cased title, after create and after a title change',
  requirements: ['OPS-COMMON-IDENTIFYING-NAME'],
  async run(ctx) {
    const { key, body } = await createNeeded(ctx, SERVICE, 'MiXeD Case Title');
    const got = (await getIn(ctx, SERVICE, key)).json;
    // The document defines the value, not the presence ("commonly carry"): an object without it has nothing to judge.
    if (got?.identifying_name === undefined)
      return ctx.untested('OPS-COMMON-IDENTIFYING-NAME', 'the stored service carries no identifying_name');
    ctx.expect.equal(
      'OPS-COMMON-IDENTIFYING-NAME',
      `identifying_name of a service titled ${JSON.stringify(body.title)}`,
      got.identifying_name,
      String(body.title).toLowerCase(),
    );
    const title = `${body.title} RENAMED`;
    await updateIn(ctx, SERVICE, key, { title }, 1);
    const renamed = await getIn(ctx, SERVICE, key);
    ctx.expect.equal(
      'OPS-COMMON-IDENTIFYING-NAME',
      `identifying_name after renaming to ${JSON.stringify(title)}`,
      renamed.json?.identifying_name,
      title.toLowerCase(),
      renamed,
    );
  },
};

export const commonFieldsAreMaintained: OpsCheck = {
  id: 'ops.core.common-fields',
  title:
    'Stored objects SHOULD carry the common fields and a mod_timestamp that moves forward on every write; _version MUST hold the schema version',
  requirements: ['OPS-COMMON-FIELDS', 'OPS-VERSION-OBJECT-VERSION', 'OPS-COMMON-SEC-GRP-DEFAULT'],
  async run(ctx) {
    const { key, body } = await createNeeded(ctx, SERVICE, 'Common Fields');
    const first = await getIn(ctx, SERVICE, key);
    const d = first.json;
    const missing = lackingFields(asDoc(d), ['_version', '_user', 'mod_source', 'mod_timestamp', 'identifying_name', 'sec_grp', 'title']);
    ctx.expect.equal('OPS-COMMON-FIELDS', 'common fields the stored object lacks', missing, [], first);
    ctx.expect.that(
      'OPS-VERSION-OBJECT-VERSION',
      '_version of the stored object',
      typeof d?._version === 'string' && d._version.length > 0,
      { expected: 'a non-empty string', actual: compact(d?._version) },
      first,
    );
    if (d?.sec_grp !== undefined)
      ctx.expect.equal(
        'OPS-COMMON-SEC-GRP-DEFAULT',
        'sec_grp of an object created without one',
        d.sec_grp,
        'default_ops_security_group',
        first,
      );
    else ctx.untested('OPS-COMMON-SEC-GRP-DEFAULT', 'the stored object has no sec_grp to compare', first);
    let last = String(d?.mod_timestamp ?? '');
    // Five writes where waiting is cheap: sub-second digits that do not grow are caught whatever their luck.
    for (const note of ctx.target.embedded ? ['one', 'two', 'three', 'four', 'five'] : ['one', 'two']) {
      // A deployment may keep mod_timestamp to the second: wait past one, so "moved forward" is a fair question.
      await sleep(ctx.target.embedded ? 5 : 1100);
      // A title: a write of a made-up field alone may be left out by a partial update (OPS-PARTIAL-NEW-FIELDS).
      await updateIn(ctx, SERVICE, key, { title: `${body.title} ${note}`, cf_note: note }, 1);
      const next = await getIn(ctx, SERVICE, key);
      const ts = String(next.json?.mod_timestamp ?? '');
      ctx.expect.that(
        'OPS-COMMON-FIELDS',
        'mod_timestamp after a write',
        Date.parse(ts) > Date.parse(last),
        { expected: `after ${last}`, actual: ts },
        next,
      );
      last = ts;
    }
  },
};

export const countAgreesWithList: OpsCheck = {
  id: 'ops.core.count',
  title: 'GET <object_type>/count MUST answer {count} equal to the number of rows the list gives for the same filter; no filter counts all',
  requirements: ['OPS-CORE-COUNT'],
  async run(ctx) {
    await Promise.all(['Count A', 'Count B'].map((t) => createIn(ctx, SERVICE, t)));
    const own = { filter: ownFilter(ctx) };
    const [list, count] = [await listIn(ctx, SERVICE, own), await countIn(ctx, SERVICE, own)];
    ctx.expect.equal(
      'OPS-CORE-COUNT',
      'count and list rows with the run filter (2 created)',
      { count: countOf(count), rows: rows(list).length },
      { count: 2, rows: 2 },
      count,
    );
    // Without a filter the whole collection counts, and other checks may be writing to it: compare it at rest.
    await assertWholeCount(ctx, SERVICE, 'OPS-CORE-COUNT', 'services');
  },
};

export const createWithKeyUpdates: OpsCheck = {
  id: 'ops.core.create-or-update',
  title:
    'POST <object_type> with the _key of an existing object MUST NOT create a second object under that key: it updates that object and answers its _key, creates another under a key of its own, or is refused, leaving the original intact',
  requirements: ['OPS-CORE-CREATE-UPSERT'],
  async run(ctx) {
    const { key, body } = await createNeeded(ctx, SERVICE, 'Upsert');
    // The title, a field of every schema: a create may drop made-up fields (only full updates are said to write them).
    const upserted = `${String(body.title)} upserted`;
    const ex = await ctx.http.send('coreCreate', { params: { object_type: 'service' }, body: { ...body, _key: key, title: upserted } });
    const answered = keyOf(ex);
    const elsewhere = ok(ex) && answered !== undefined && answered !== key;
    if (elsewhere) ctx.ledger.add(`service ${answered}`, () => deleteIn(ctx, SERVICE, answered));
    const mine = rows(await listIn(ctx, SERVICE, { filter: ownFilter(ctx) }));
    const copies = mine.filter((r) => r._key === key).length;
    ctx.expect.that(
      'OPS-CORE-CREATE-UPSERT',
      `POST with the existing _key ${key}`,
      copies === 1 && (!ok(ex) || answered !== undefined),
      {
        expected: `one object with that key, and a refusal or a {_key}`,
        actual: `${copies} object(s) with it; answered ${ex.status} {_key: ${compact(answered)}}`,
      },
      ex,
    );
    // "the created or updated object": which a POST naming an existing _key does is not shown.
    ctx.observe(
      'OPS-CORE-CREATE-UPSERT',
      ok(ex) ? (elsewhere ? `created another object (${answered}), leaving ${key}` : 'updated the object') : `refused (${ex.status})`,
    );
    const got = await getIn(ctx, SERVICE, key);
    const d = asDoc(got.json ?? {});
    const updated = ok(ex) && !elsewhere;
    ctx.expect.equal(
      'OPS-CORE-CREATE-UPSERT',
      updated
        ? 'title after the create was accepted as an update'
        : `the original after the create was ${elsewhere ? 'made another object' : `refused (${ex.status})`}: success and title`,
      { success: ok(got), title: d.title },
      { success: true, title: updated ? upserted : body.title },
      got,
    );
  },
};
