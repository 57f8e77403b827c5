import { BACKUP, MAINTENANCE, SERVICE, statesOf } from '../collections';
import { compact } from '../../core/expect';
import { asDoc } from '../../core/json';
import type { Exchange } from '../../core/types';
import { changing, countOf, createIn, keys, ownFilter, rows, same, sameBut, vLatest, type OpsCheck } from '../support';

const VERSIONED = [SERVICE, MAINTENANCE, BACKUP];

export const vLatestPathsAnswerTheSame: OpsCheck = {
  id: 'ops.versioning.vlatest-path',
  title: 'Every interface MUST answer the same with /vLatest after the interface segment as without it',
  requirements: ['OPS-VERSION-PATH', 'OPS-VERSION-LATEST-ONLY'],
  uses: statesOf(VERSIONED),
  async run(ctx) {
    for (const c of VERSIONED) {
      const { key } = await createIn(ctx, c, `vLatest ${c.type}`);
      if (!key) {
        ctx.untested('OPS-VERSION-PATH', `could not create a ${c.type}`);
        continue;
      }
      const params = { object_type: c.type, _key: key };
      // The list and the count select this check's own object: other checks add to the collection meanwhile.
      const filter = ownFilter(ctx, `vLatest ${c.type}`);
      for (const [op, query] of [
        [c.ops.get, undefined],
        [c.ops.list, { filter }],
        [c.ops.count, { filter }],
      ] as const) {
        // Where the vLatest answer differs from the plain one before it, the plain request is read again after it: a row
        // another client changed in between is not a difference between the two paths.
        const again = () => ctx.http.send(op, { params, query });
        const before = await again();
        const latest = await ctx.http.send(op, { params, query, path: vLatest });
        // Fields that change from one read to the next are the server's own bookkeeping: learned from a second read of
        // the object, and left out of the comparison.
        const after = op === c.ops.get ? await again() : undefined;
        const skip = after ? changing(before.json, after.json) : new Set<string>();
        // Two error answers agree on their status: an error's wording may name the path it was sent to.
        const agrees = (plain: Exchange) =>
          plain.status === latest.status &&
          (plain.status >= 400 ||
            (op === c.ops.list
              ? same(keys(rows(plain)).sort(), keys(rows(latest)).sort())
              : op === c.ops.count
                ? countOf(plain) === countOf(latest)
                : sameBut(plain.json, latest.json, skip)));
        const equal = agrees(before) || agrees(after ?? (await again()));
        const seen = (ex: Exchange) => `${ex.status} ${compact(op === c.ops.list ? keys(rows(ex)) : ex.json)}`;
        ctx.expect.that(
          'OPS-VERSION-PATH',
          `${op} under vLatest, against the same request without it`,
          equal,
          { expected: seen(before), actual: seen(latest) },
          latest,
        );
      }
    }
    // The event-management interface takes vLatest too: its list of episode actions is the same under both paths.
    // A list without sort_key has no order: the actions are compared by name.
    const byName = (ex: Exchange) =>
      Array.isArray(ex.json)
        ? [...ex.json].sort((a, b) => String(asDoc(a).action_name).localeCompare(String(asDoc(b).action_name)))
        : ex.json;
    const actions = await ctx.http.send('emActionList');
    const actionsLatest = await ctx.http.send('emActionList', { path: vLatest });
    const skip = changing(byName(actions), byName(await ctx.http.send('emActionList')));
    const seenActions = (ex: typeof actions) => `${ex.status} ${compact(ex.json)}`;
    ctx.expect.that(
      'OPS-VERSION-PATH',
      'emActionList under vLatest, against the same request without it',
      actions.status === actionsLatest.status && sameBut(byName(actions), byName(actionsLatest), skip),
      { expected: seenActions(actions), actual: seenActions(actionsLatest) },
      actionsLatest,
    );
    const types = await ctx.http.send('coreGetSupportedObjectTypes', { path: vLatest });
    ctx.expect.status('OPS-VERSION-LATEST-ONLY', 'get_supported_object_types under vLatest', types, '2xx');
  },
};
