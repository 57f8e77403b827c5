import type { Exchange } from '../../core/types';
import { compact } from '../../core/expect';
import { GLOBAL_TEAM } from './access-readable';
import { BASE_SERVICE_TEMPLATE, SERVICE, TEAM } from '../collections';
import {
  countIn,
  countOf,
  createIn,
  createNeeded,
  deleteIn,
  getIn,
  keys,
  listIn,
  ok,
  type OpsCheck,
  rows,
  tagged,
  updateIn,
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
