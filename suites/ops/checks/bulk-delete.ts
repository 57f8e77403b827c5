import { QUERYABLE } from '../collections';
import { createIn, emptyBody, guardedBulkDelete, keys, listIn, ok, ownFilter, rows, type OpsCheck } from '../support';

export const bulkDeleteByFilter: OpsCheck = {
  id: 'ops.query.bulk-delete-by-filter',
  title: 'DELETE <object_type> with a filter MUST delete exactly the rows the filter selects',
  requirements: ['OPS-CORE-BULK-DELETE', 'OPS-MW-BULK-DELETE', 'OPS-BR-BULK-DELETE', 'OPS-QUERY-FILTER'],
  destructive: true,
  async run(ctx) {
    // The collections are independent of each other: each is checked at the same time.
    await Promise.all(
      QUERYABLE.map(async (c) => {
        // Rows on both sides of the filter: the run's own rows it does not select must survive as well as others'.
        const made = await Promise.all(
          ['x', 'y', 'z', 'keep'].map((n) => createIn(ctx, c, `bulk ${n === 'keep' ? 'keep' : `delete ${n}`}`)),
        );
        const mine = made
          .slice(0, 3)
          .map((m) => m.key)
          .filter((k): k is string => Boolean(k));
        const kept = made[3].key;
        const requirement = c.requirements.bulkDelete;
        if (mine.length < 3 || !kept) {
          ctx.untested(requirement, `could not create ${c.type} objects`);
          return;
        }
        const others = keys(rows(await listIn(ctx, c))).filter((k) => !mine.includes(k));
        const ex = await guardedBulkDelete(ctx, c, ownFilter(ctx, 'bulk delete '));
        if (!ex) {
          ctx.untested(requirement, `the filter selected objects the run did not create in ${c.type}; no delete was sent`);
          return;
        }
        const left = keys(rows(await listIn(ctx, c)));
        const lost = others.filter((k) => !left.includes(k));
        const remaining = mine.filter((k) => left.includes(k));
        ctx.expect.equal(
          requirement,
          `DELETE ${c.type}?filter=<three of the run's rows>: success, selected rows left, unselected rows deleted (the run's own is ${kept})`,
          { success: ok(ex), remaining, lost },
          { success: true, remaining: [], lost: [] },
          ex,
        );
        // A delete that went through but took other rows, or left selected ones, misread its filter ("a bulk delete
        // MUST delete only those" it matches): the filter's rule too.
        if (ok(ex))
          ctx.expect.equal(
            'OPS-QUERY-FILTER',
            `rows DELETE ${c.type}?filter=<three of the run's rows> left of those it selects, and rows it took that it does not select`,
            { remaining, lost },
            { remaining: [], lost: [] },
            ex,
          );
        ctx.expect.that(
          requirement,
          `the body of DELETE ${c.type}?filter=...`,
          emptyBody(ex),
          { expected: 'empty', actual: ex.text.trim() },
          ex,
        );
      }),
    );
  },
};
