import fc from 'fast-check';
import { checkProperty, Violation } from '../../core/property';
import { QUERYABLE, type Collection } from '../collections';
import type { OpsRequirementId } from '../requirements.gen';
import {
  allNeeded,
  createIn,
  guardedBulkDelete,
  keys,
  listIn,
  ok,
  ownFilter,
  rows,
  vLatest,
  type OpsCheck,
  type OpsContext,
  SHARED_QUERY,
} from '../support';

const ROWS = 5;

/** The shared query parameters of a bulk delete besides `filter`, drawn together: sort, page and projection. */
const deleteQuery = fc.record({
  sort_dir: fc.constantFrom(0, 1),
  limit: fc.integer({ min: 1, max: ROWS - 1 }),
  offset: fc.integer({ min: 0, max: ROWS - 1 }),
  fields: fc.constantFrom(undefined, 'title', '_key,title'),
});
type DeleteQuery = typeof deleteQuery extends fc.Arbitrary<infer T> ? T : never;

/** What the rows a delete took tell of which parameter it misread: the rule of that parameter is the one broken. */
function misread(deleted: string[], want: string[], order: string[], natural: string[], q: DeleteQuery): string {
  const same = (a: string[], b: string[]) => JSON.stringify([...a].sort()) === JSON.stringify([...b].sort());
  if (deleted.length !== want.length) return 'OPS-QUERY-LIMIT';
  if (same(deleted, [...order].reverse().slice(q.offset, q.offset + q.limit))) return 'OPS-QUERY-SORT-DIR';
  if (same(deleted, natural.slice(q.offset, q.offset + q.limit))) return 'OPS-QUERY-SORT-KEY';
  return 'OPS-QUERY-OFFSET';
}

// A DELETE answers no rows, so fields has nothing to act on; rows the filter does not select are the endpoint's own
// bulk-delete failure here (ops.query.bulk-delete-by-filter judges the filter rule on bulk deletes).
const REQUIREMENTS: OpsRequirementId[] = SHARED_QUERY.filter((r) => r !== 'OPS-QUERY-FIELDS' && r !== 'OPS-QUERY-FILTER');

/**
 * DELETE `<object_type>` takes the shared query parameters ("list and bulk-delete endpoints"): the rows it deletes
 * are the rows a list with the same filter, sort_key, sort_dir, limit and offset gives, the `limit` first of the
 * sorted selection after `offset` ("maximum entries", "entries to skip"); `fields` names what is returned, which
 * changes nothing a delete selects. Ranks are distinct integers, so the order has one right answer. A delete that
 * takes rows outside the filter, or is refused, breaks the endpoint's own rule.
 */
async function combinedIn(ctx: OpsContext, c: Collection, counter: { n: number }): Promise<void> {
  const requirement = c.requirements.bulkDelete;
  // The cases find their rows by a filter on their titles: where it does not select them, which rows a delete took
  // cannot be told (the filter rules are judged on their own).
  const probe = allNeeded([await createIn(ctx, c, 'bulk probe')], `a ${c.type} row`)[0]!;
  const found = keys(rows(await listIn(ctx, c, { filter: ownFilter(ctx, 'bulk probe') })));
  if (found.length !== 1 || found[0] !== probe.key) {
    for (const r of [requirement, ...REQUIREMENTS])
      ctx.untested(
        r,
        `a list of ${c.type} filtered on the title of one row of the run's answered ${found.length} rows: the cases could not find their rows`,
      );
    return;
  }
  const ranks = fc.uniqueArray(fc.integer({ min: -99, max: 99 }), { minLength: ROWS, maxLength: ROWS });
  const property = fc.asyncProperty(deleteQuery, ranks, async (q, rankOf) => {
    const name = `bulk combo ${counter.n++} `;
    const made = allNeeded(
      await Promise.all(rankOf.map((rank, i) => createIn(ctx, c, `${name}${i}`, { cf_rank: rank }))),
      `${ROWS} ${c.type} rows to delete`,
    );
    const created = made.map((m) => m.key);
    const filter = ownFilter(ctx, name);
    const order = created
      .map((key, i) => ({ key, rank: rankOf[i]! }))
      .sort((a, b) => (q.sort_dir === 1 ? a.rank - b.rank : b.rank - a.rank))
      .map((r) => r.key);
    const want = order.slice(q.offset, q.offset + q.limit);
    const query = {
      sort_key: 'cf_rank',
      sort_dir: q.sort_dir,
      limit: q.limit,
      offset: q.offset,
      ...(q.fields ? { fields: q.fields } : {}),
    };
    // The whole collection around the delete: this check runs alone, so rows outside the filter that go are its doing.
    const whole = async () => keys(rows(await listIn(ctx, c, { fields: '_key' })));
    const before = await whole();
    // The order the rows are listed in without sort_key: a delete that pages them so has not sorted.
    const natural = keys(rows(await listIn(ctx, c, { filter })));
    const ex = await guardedBulkDelete(ctx, c, filter, query);
    if (!ex) throw new Violation(`the filter ${filter} selected rows the run did not create; no delete was sent`, requirement);
    const after = new Set(await whole());
    const deleted = created.filter((k) => !after.has(k));
    const outside = before.filter((k) => !after.has(k) && !created.includes(k));
    const sent = new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)]));
    const facts = {
      expected: `a success deleting ${want.join(', ')}${outside.length ? ' and no row outside the filter' : ''}`,
      actual: `${ex.status}, deleted ${deleted.join(', ') || '(none)'}${outside.length ? ` and ${outside.length} rows outside the filter` : ''}`,
    };
    const wrong =
      !ok(ex) || outside.length
        ? requirement
        : [...deleted].sort().join() !== [...want].sort().join()
          ? misread(deleted, want, order, natural, q)
          : undefined;
    if (wrong)
      throw new Violation(
        `DELETE ${c.type}?filter=<${ROWS} rows ranked ${rankOf.join(',')}>&${sent} answered ${ex.status}`,
        wrong,
        ex,
        facts,
      );
  });
  await checkProperty(ctx, [requirement, ...REQUIREMENTS], `${c.type} bulk delete with filter, sort, limit, offset and fields`, property, {
    runs: Math.max(2, Math.ceil(ctx.options.runs / 4)),
    examples: [[{ sort_dir: 0, limit: 2, offset: 1, fields: 'title' }, [5, -3, 40, 0, 12]]],
  });
}

/**
 * A bulk delete under `vLatest` (the document's second path form) deletes what the same delete without it does: the
 * plain delete goes first, and only where it kept to its filter is the vLatest one held to keeping to its own.
 */
async function underVLatest(ctx: OpsContext, c: Collection): Promise<void> {
  const [plain, latest] = ['bulk plain ', 'bulk vlatest '];
  const made = allNeeded(
    await Promise.all([`${plain}a`, `${plain}b`, `${latest}a`, `${latest}b`, 'bulk kept by both'].map((t) => createIn(ctx, c, t))),
    `five ${c.type} rows`,
  );
  const [p, v, kept] = [made.slice(0, 2), made.slice(2, 4), made.slice(4)].map((ms) => ms.map((m) => m.key));
  const left = async () => keys(rows(await listIn(ctx, c, { filter: ownFilter(ctx, 'bulk ') })));
  const first = await guardedBulkDelete(ctx, c, ownFilter(ctx, plain));
  const afterPlain = await left();
  if (!first || !ok(first) || p.some((k) => afterPlain.includes(k)) || [...v, ...kept].some((k) => !afterPlain.includes(k)))
    return ctx.untested(
      'OPS-VERSION-PATH',
      `DELETE ${c.type}?filter=... without vLatest did not delete exactly its rows: nothing to compare`,
    );
  const ex = await guardedBulkDelete(ctx, c, ownFilter(ctx, latest), {}, { path: vLatest });
  if (!ex) return ctx.untested('OPS-VERSION-PATH', `the list of the run's ${c.type} rows to delete under vLatest was refused`);
  const afterLatest = await left();
  ctx.expect.equal(
    'OPS-VERSION-PATH',
    `DELETE .../vLatest/${c.type}?filter=<two of the run's rows>, against the same delete without vLatest: success, selected rows left, the unselected row kept`,
    { success: ok(ex), remaining: v.filter((k) => afterLatest.includes(k)), kept: afterLatest.includes(kept[0]!) },
    { success: true, remaining: [], kept: true },
    ex,
  );
}

export const bulkDeleteCombined: OpsCheck = {
  id: 'ops.query.bulk-delete-combined',
  title:
    'DELETE <object_type> with filter, sort_key, sort_dir, limit, offset and fields together MUST delete exactly the rows a list with them gives, also under vLatest',
  requirements: ['OPS-CORE-BULK-DELETE', 'OPS-MW-BULK-DELETE', 'OPS-BR-BULK-DELETE', ...REQUIREMENTS, 'OPS-VERSION-PATH'],
  destructive: true,
  async run(ctx) {
    // The collections are independent of each other: each is checked at the same time.
    await Promise.all(
      QUERYABLE.map(async (c) => {
        await combinedIn(ctx, c, { n: 0 });
        await underVLatest(ctx, c);
      }),
    );
  },
};
