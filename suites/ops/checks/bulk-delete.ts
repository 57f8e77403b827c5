import type { Check } from '../../core/check';
import { QUERYABLE } from '../collections';
import { createIn, emptyBody, guardedBulkDelete, keys, listIn, ok, rows } from '../support';

export const bulkDeleteByFilter: Check = {
  id: 'ops.query.bulk-delete-by-filter',
  title: 'DELETE <object_type> with a filter MUST delete exactly the rows the filter selects',
  requirements: ['OPS-CORE-BULK-DELETE', 'OPS-MW-BULK-DELETE', 'OPS-BR-BULK-DELETE'],
  destructive: true,
  async run(ctx) {
    // The collections are independent of each other: each is checked at the same time.
    await Promise.all(
      QUERYABLE.map(async (c) => {
        // Rows on both sides of the filter: the run's own rows it does not select must survive as well as others'.
        const made = await Promise.all(['x', 'y', 'z', 'keep'].map((n) => createIn(ctx, c, `bulk ${n === 'keep' ? 'keep' : `delete ${n}`}`)));
        const mine = made.slice(0, 3).map((m) => m.key).filter((k): k is string => Boolean(k));
        const kept = made[3].key;
        const requirement = c.requirements.bulkDelete;
        if (mine.length < 3 || !kept) {
          ctx.untested(requirement, `could not create ${c.type} objects`);
          return;
        }
        const others = keys(rows(await listIn(ctx, c))).filter((k) => !mine.includes(k));
        const ex = await guardedBulkDelete(ctx, c, JSON.stringify({ title: { $regex: `^${ctx.options.runTag} bulk delete ` } }));
        if (!ex) {
          ctx.untested(requirement, `the filter selected objects the run did not create in ${c.type}; no delete was sent`);
          return;
        }
        const left = keys(rows(await listIn(ctx, c)));
        const ownGone = mine.every((k) => !left.includes(k));
        const lost = others.filter((k) => !left.includes(k));
        ctx.assert(requirement, ok(ex) && ownGone && lost.length === 0, `DELETE ${c.type}?filter=<three of the run's rows> answered ${ex.status}; ${ownGone ? 'the selected rows are gone' : 'selected rows remain'}; ${lost.length ? `${lost.length} unselected rows were deleted${lost.includes(kept) ? ", the run's own unselected row among them" : ''}` : 'every other row is kept'}`, ex);
        ctx.assert(requirement, emptyBody(ex), `DELETE ${c.type}?filter=... answered ${emptyBody(ex) ? 'an empty body' : `a body: ${ex.text.trim().slice(0, 80)}`}`, ex);
      }),
    );
  },
};
