import type { Check } from '../../core/check';
import { QUERYABLE } from '../collections';
import { createIn, guardedBulkDelete, keys, listIn, ok, ownFilter, rows } from '../support';

export const bulkDeleteByFilter: Check = {
  id: 'ops.query.bulk-delete-by-filter',
  title: 'DELETE <object_type> with a filter MUST delete exactly the rows the filter selects',
  requirements: ['OPS-CORE-BULK-DELETE', 'OPS-MW-BULK-DELETE', 'OPS-BR-BULK-DELETE'],
  destructive: true,
  async run(ctx) {
    for (const c of QUERYABLE) {
      const made = await Promise.all(['x', 'y', 'z'].map((n) => createIn(ctx, c, `bulk delete ${n}`)));
      const mine = made.map((m) => m.key).filter((k): k is string => Boolean(k));
      const requirement = c.requirements.bulkDelete;
      if (mine.length < 3) {
        ctx.untested(requirement, `could not create ${c.type} objects`);
        continue;
      }
      const others = keys(rows(await listIn(ctx, c))).filter((k) => !mine.includes(k));
      const ex = await guardedBulkDelete(ctx, c, ownFilter(ctx));
      if (!ex) {
        ctx.untested(requirement, `the run filter selected objects the run did not create in ${c.type}; no delete was sent`);
        continue;
      }
      const left = keys(rows(await listIn(ctx, c)));
      const ownGone = mine.every((k) => !left.includes(k));
      const othersKept = others.every((k) => left.includes(k));
      ctx.assert(requirement, ok(ex) && ownGone && othersKept, `DELETE ${c.type}?filter=<run filter> answered ${ex.status}; ${ownGone ? 'the selected rows are gone' : 'selected rows remain'}; ${othersKept ? 'every other row is kept' : `${others.filter((k) => !left.includes(k)).length} unselected rows were deleted`}`, ex);
    }
  },
};
