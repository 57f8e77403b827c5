import type { Exchange } from '../../core/types';
import { compact } from '../../core/expect';
import { BACKUP, BASE_SERVICE_TEMPLATE, type Collection, ENTITY, MAINTENANCE, SERVICE, statesOf, TEAM } from '../collections';
import {
  assertWholeCount,
  countIn,
  countOf,
  type Created,
  createIn,
  createNeeded,
  deleteIn,
  type Doc,
  getIn,
  keys,
  listIn,
  ok,
  type OpsCheck,
  type OpsContext,
  ownFilter,
  rows,
  tagged,
  updateIn,
  type OpsRequirementId,
} from '../support';

export const basicAuthRequired: OpsCheck = {
  id: 'ops.auth.basic',
  title: 'Requests with a valid username and password MUST be served; requests without valid credentials MUST NOT read or change anything',
  requirements: ['OPS-AUTH-BASIC', 'OPS-AUTH-ACCESS-CHECKS', 'OPS-ERR-STATUS-NOT-SHOWN'],
  async run(ctx) {
    const served = await ctx.http.send('coreGetSupportedObjectTypes');
    ctx.expect.status('OPS-AUTH-BASIC', 'a read with basic credentials', served, '2xx');
    // The same read, which names no object and no user, without credentials: the capability each endpoint needs is not
    // shown, so a server may serve this list to anyone. Recorded only.
    const open = await ctx.http.send('coreGetSupportedObjectTypes', { as: null });
    ctx.observe('OPS-ERR-STATUS-NOT-SHOWN', `the list of supported object types without credentials answered ${open.status}`);
    // A service of the run's own, so a list that ignores the credentials has a row to show.
    await createIn(ctx, SERVICE, 'visible to the administrator');
    const wrong = `Basic ${Buffer.from(`conformance-${ctx.options.runTag}:wrong`).toString('base64')}`;
    const near = nearMiss(ctx.target.principals.primary?.authorization);
    const attempts: [string, Record<string, string>][] = [
      ['no credentials', {}],
      ['an unknown user', { authorization: wrong }],
    ];
    if (near) attempts.push(['the configured user and a wrong password of the same length', { authorization: near }]);
    for (const [what, headers] of attempts) {
      // Status codes are not shown: a refusal, or a success that shows no row (the caller can read nothing), both hold.
      const read = await ctx.http.send('coreList', { as: null, headers, params: { object_type: 'service' } });
      const shownRows = ok(read) ? rows(read).length : 0;
      ctx.expect.that(
        'OPS-AUTH-ACCESS-CHECKS',
        `a list with ${what}`,
        shownRows === 0,
        { expected: 'no rows', actual: `${read.status} with ${shownRows} rows` },
        read,
      );
      ctx.observe('OPS-ERR-STATUS-NOT-SHOWN', `${what}: ${read.status} ${read.text.slice(0, 100).replace(/\s+/g, ' ')}`);
      const title = tagged(ctx, `must not exist (${what})`);
      const write = await ctx.http.send('coreCreate', { as: null, headers, params: { object_type: 'service' }, body: { title } });
      const made = countOf(await countIn(ctx, SERVICE, { filter: JSON.stringify({ title }) }));
      ctx.expect.equal(
        'OPS-AUTH-ACCESS-CHECKS',
        `services titled as a create with ${what} sent (it answered ${write.status})`,
        made,
        0,
        write,
      );
      ctx.observe('OPS-ERR-STATUS-NOT-SHOWN', `a create with ${what} answered ${write.status}`);
    }
  },
};

/**
 * The primary user's basic credentials with the password's last character changed: a server comparing only lengths,
 * or only user names, lets it in. One such attempt per run, far below the lockout thresholds of deployments.
 */
function nearMiss(authorization: string | undefined): string | undefined {
  const pair = authorization?.startsWith('Basic ') ? Buffer.from(authorization.slice(6), 'base64').toString('utf8') : '';
  const colon = pair.indexOf(':');
  if (colon < 0 || colon === pair.length - 1) return undefined;
  const last = pair.at(-1) === 'x' ? 'y' : 'x';
  return `Basic ${Buffer.from(`${pair.slice(0, -1)}${last}`).toString('base64')}`;
}

export const readOnlyCannotWrite: OpsCheck = {
  id: 'ops.auth.read-only-user',
  title: 'A caller without write access MUST NOT create, update or delete objects',
  requirements: ['OPS-AUTH-ACCESS-CHECKS'],
  needs: ['readonly'],
  async run(ctx) {
    const { key } = await createNeeded(ctx, SERVICE, 'Read Only Target', { cf_note: 'original' });
    // Judged by the effect, as the rule is: what a refused write answers is not shown, and is recorded.
    const title = tagged(ctx, 'by reader');
    const create = await ctx.http.send('coreCreate', { as: 'readonly', params: { object_type: 'service' }, body: { title } });
    const written = keys(rows(await listIn(ctx, SERVICE, { filter: JSON.stringify({ title }) })));
    for (const k of written) await deleteIn(ctx, SERVICE, k);
    ctx.expect.equal('OPS-AUTH-ACCESS-CHECKS', `services a read-only create made (it answered ${create.status})`, written, [], create);
    const upd = await updateIn(ctx, SERVICE, key, { cf_note: 'changed by reader' }, 1, { as: 'readonly' });
    const del = await deleteIn(ctx, SERVICE, key, { as: 'readonly' });
    const after = await getIn(ctx, SERVICE, key);
    ctx.expect.equal(
      'OPS-AUTH-ACCESS-CHECKS',
      `cf_note after a read-only update (it answered ${upd.status})`,
      after.json?.cf_note,
      'original',
      upd,
    );
    ctx.expect.equal(
      'OPS-AUTH-ACCESS-CHECKS',
      `whether the object still reads after a read-only delete (it answered ${del.status})`,
      ok(after),
      true,
      del,
    );
  },
};

export const resultsRestrictedToReadable: OpsCheck = {
  id: 'ops.auth.results-readable',
  title:
    'Lists and counts MUST contain only objects the caller can read: an object the read-only caller cannot read is in neither its list nor its count',
  requirements: ['OPS-AUTH-RESULTS-READABLE', 'OPS-AUTH-COUNTS'],
  needs: ['readonly'],
  uses: statesOf([MAINTENANCE, BACKUP]),
  async run(ctx) {
    // An object the reader cannot read: one in a team of the run's own, which nobody has granted the reader.
    const team = await createNeeded(ctx, TEAM, 'unreadable team');
    const filter = ownFilter(ctx);
    const teamKey = team.key;
    /** Whether lists and counts of `c` leave out an object of it in the run's team, for every reader given. */
    const judge = async (c: Collection, extra: Doc = {}): Promise<string | undefined> => {
      const req = c === SERVICE ? 'OPS-AUTH-RESULTS-READABLE' : 'OPS-AUTH-COUNTS';
      const hidden = await createIn(ctx, c, 'unreadable', { sec_grp: teamKey, ...extra });
      if (!hidden.key) return void ctx.untested(req, `could not create a ${c.type} in the run's team (${hidden.ex.status})`, hidden.ex);
      // The read-only caller, and the team-restricted writer where one is given: whichever cannot read the object
      // shows whether lists and counts leave it out (a read-only role may read every team). One after the other: each
      // adds a readable object of the run's to the collection whose list and count the other compares.
      for (const as of ['readonly', 'restricted'].filter((r) => ctx.has(r))) await judgeReader(ctx, c, hidden, filter, req, as);
      return hidden.key;
    };
    // Each collection's objects are the run's own, so the collections are judged side by side; a window is as
    // readable as the objects it names, so the unreadable window names the unreadable service.
    const services = judge(SERVICE).then((hiddenService) =>
      judge(MAINTENANCE, { sec_grp_list: [teamKey], objects: hiddenService ? [{ object_type: 'service', _key: hiddenService }] : [] }),
    );
    await Promise.all([services, judge(BACKUP), judgeRetirable(ctx, teamKey)]);
  },
};

/** Lists beyond the core interface's object lists too: count_retirable leaves out a retirable entity it cannot read. */
async function judgeRetirable(ctx: OpsContext, team: string): Promise<void> {
  const retirable = await createIn(ctx, ENTITY, 'unreadable retirable', { sec_grp: team, retirable: 1 });
  if (!retirable.key || ok(await getIn(ctx, ENTITY, retirable.key, { as: 'readonly' }))) return;
  const listed = await ctx.http.send('entityCountRetirable', { as: 'readonly' });
  ctx.expect.absent(
    'OPS-AUTH-RESULTS-READABLE',
    `keys count_retirable lists to the read-only caller, against the retirable ${retirable.key} it cannot read`,
    keys(rows(listed)),
    retirable.key,
    listed,
  );
}

/** Whether `as`, reading the run's `hidden` object of `c` or not, finds in its list and count only what it can read. */
async function judgeReader(
  ctx: OpsContext,
  c: Collection,
  hidden: Created,
  filter: string,
  req: OpsRequirementId,
  as: string,
): Promise<void> {
  if (!hidden.key) return;
  const [probe, adminList, list] = await Promise.all([
    getIn(ctx, c, hidden.key, { as }),
    listIn(ctx, c, { filter }),
    listIn(ctx, c, { filter }, { as }),
  ]);
  const admin = new Set(keys(rows(adminList)));
  const mine = keys(rows(list));
  if (ok(probe)) {
    // Readable by key yet left out of the list: one of the two breaks the rule, whichever the caller's rights are.
    // Either the object is readable and missing from the list, or it is not and the read returned it.
    if (!mine.includes(hidden.key))
      ctx.expect.contains(
        'OPS-AUTH-RESULTS-READABLE',
        `the ${as} list, against ${c.type}/${hidden.key} it reads by key (${probe.status})`,
        mine,
        hidden.key,
        probe,
      );
    else
      ctx.untested(
        req,
        `the ${as} caller can read a ${c.type} in a team the run created (its role reads every team): there is no unreadable object to look for`,
        probe,
      );
  } else {
    // A list refused as a whole shows nothing it may not: the capability each endpoint needs is not shown.
    const extra = mine.filter((k) => k === hidden.key || !admin.has(k));
    if (ok(list))
      ctx.expect.equal(
        'OPS-AUTH-RESULTS-READABLE',
        `the ${as} list of ${c.type}, refused ${hidden.key} (${probe.status}): rows it cannot read or the administrator does not list`,
        extra,
        [],
        list,
      );
  }
  const count = await countIn(ctx, c, { filter }, { as });
  if (!ok(list) || !ok(count))
    ctx.untested(
      req,
      `the ${as} ${c.type} ${ok(list) ? 'count' : 'list'} was refused (${ok(list) ? count.status : list.status}): no count to hold against a list`,
      ok(list) ? count : list,
    );
  else if (c === SERVICE) {
    // "Results are restricted to objects the caller can read. Counts of maintenance windows and jobs reflect the
    // caller's access": whether the other counts are results is not said, so a core count may count every object.
    const n = countOf(count);
    ctx.expect.that(
      req,
      `${c.type}: the ${as} count of the run's objects, against the rows of its list or the administrator's`,
      n === mine.length || n === admin.size,
      { expected: `${mine.length} (its list) or ${admin.size} (the administrator's)`, actual: compact(n) },
      count,
    );
    if (n !== mine.length)
      ctx.observe(req, `the ${as} count of services counts objects the caller cannot read (${n}, its list ${mine.length})`);
  } else
    ctx.expect.equal(
      req,
      `${c.type}: the ${as} count of the run's objects, against the rows of its list (${admin.size} for the administrator)`,
      countOf(count),
      mine.length,
      count,
    );
  // Without a filter too, while an object it cannot read is there: the caller's count is the length of its list.
  if (c !== SERVICE && !ok(probe) && ok(list) && ok(count)) await assertWholeCount(ctx, c, req, `rows of the ${as} list`, { as });
  // And the other way: an object of the run's in the default group that the caller reads by key is in its list.
  const open = await createIn(ctx, c, 'readable', c === MAINTENANCE ? { objects: [] } : {});
  if (open.key && ok(await getIn(ctx, c, open.key, { as })))
    ctx.expect.contains(
      'OPS-AUTH-RESULTS-READABLE',
      `the ${as} list of ${c.type} filtered by its title, against ${open.key} it reads by key`,
      keys(rows(await listIn(ctx, c, { filter: JSON.stringify({ title: open.body.title }) }, { as }))),
      open.key,
    );
}

/** The Global team's key as the document gives it (the default security group). */
const GLOBAL_TEAM = 'default_ops_security_group';

export const teamRestrictedWriter: OpsCheck = {
  id: 'ops.auth.team-restricted-writer',
  title:
    'A caller with write access who cannot read the Global team MUST NOT link a service to a template; what its writes do to an object it cannot read is observed (the capabilities each endpoint needs are not shown)',
  requirements: ['OPS-AUTH-TEMPLATE-LINK', 'OPS-AUTH-ACCESS-CHECKS'],
  needs: ['restricted'],
  async run(ctx) {
    const as = 'restricted';
    const global = await getIn(ctx, TEAM, GLOBAL_TEAM, { as });
    if (ok(global))
      return ctx.untested(
        'OPS-AUTH-TEMPLATE-LINK',
        `the restricted user reads the Global team (${GLOBAL_TEAM}), so it is not restricted as the rule needs`,
        global,
      );
    // A team the user reads holds a service it may write.
    // The template is in that team too, so that only the Global rule stands between the user and the link.
    const team = rows(await listIn(ctx, TEAM, {}, { as })).find((t) => typeof t._key === 'string' && t._key !== GLOBAL_TEAM);
    const tpl = await createIn(ctx, BASE_SERVICE_TEMPLATE, 'restricted template', {
      entity_rules: [],
      ...(team ? { sec_grp: team._key } : {}),
    });
    const svc = team ? await createIn(ctx, SERVICE, 'restricted linked service', { sec_grp: team._key }, { as }) : undefined;
    if (!svc?.key || !tpl.key)
      ctx.untested(
        'OPS-AUTH-TEMPLATE-LINK',
        `the restricted user ${team ? 'could not create a service in its team' : 'reads no team but Global'}, or no template could be made`,
      );
    else {
      const link = await ctx.http.send('serviceLinkBaseServiceTemplate', { as, params: { _key: svc.key }, body: { _key: tpl.key } });
      const after = await ctx.http.send('serviceGetBaseServiceTemplate', { params: { _key: svc.key } });
      const linked = ok(after) && after.json?._key === tpl.key;
      // The effect is the rule; what the refusal answers is not shown.
      ctx.expect.equal(
        'OPS-AUTH-TEMPLATE-LINK',
        `whether the service is linked after a link by a caller who cannot read the Global team (it answered ${link.status})`,
        linked,
        false,
        link,
      );
    }

    // An object in a team of the run's, which nobody granted the restricted user.
    const hiddenTeam = await createNeeded(ctx, TEAM, 'restricted hidden team');
    const { key } = await createNeeded(ctx, SERVICE, 'restricted hidden service', { sec_grp: hiddenTeam.key, cf_note: 'original' });
    if (ok(await getIn(ctx, SERVICE, key, { as })))
      return ctx.untested('OPS-AUTH-ACCESS-CHECKS', `the restricted user reads ${key}, a service in a team nobody granted it`);
    const writes: [string, () => Promise<Exchange>][] = [
      [
        'POST service with its _key',
        () =>
          ctx.http.send('coreCreate', {
            as,
            params: { object_type: 'service' },
            body: { _key: key, title: tagged(ctx, 'restricted overwrite'), cf_note: 'overwritten' },
          }),
      ],
      [
        'bulk_update of it',
        () =>
          ctx.http.send('coreBulkUpdate', {
            as,
            params: { object_type: 'service' },
            query: { is_partial_data: 1 },
            body: [{ _key: key, title: tagged(ctx, 'restricted bulk'), cf_note: 'bulk updated' }],
          }),
      ],
      ['DELETE of it by key', () => deleteIn(ctx, SERVICE, key, { as })],
    ];
    // The document restricts what a caller reads, not what a writer may change: "the capability names required per
    // endpoint: not shown". Whether a writer may change an object it cannot read is observed, never judged.
    for (const [what, send] of writes) {
      const ex = await send();
      const now = await getIn(ctx, SERVICE, key);
      ctx.observe(
        'OPS-AUTH-ACCESS-CHECKS',
        `${what}, by a writer who cannot read the service (it answered ${ex.status}): afterwards the service ${ok(now) ? `reads cf_note ${compact(now.json?.cf_note)}` : `is gone (${now.status})`}`,
      );
    }
  },
};
