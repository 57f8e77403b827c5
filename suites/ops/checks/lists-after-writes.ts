import { escapeRegex } from '../arbitraries/filters';
import { SERVICE } from '../collections';
import { need } from '../../core/precondition';
import {
  countIn,
  countOf,
  createIn,
  keys,
  listIn,
  ok,
  removeIn,
  rows,
  tagged,
  updateIn,
  type Doc,
  type Made,
  type OpsCheck,
  type OpsContext,
} from '../support';

/**
 * Services: no other check deletes them by filter while the run goes on, so the rows here stay as this check leaves
 * them (and it deletes its own by key, never by filter, for the same reason).
 */
const C = SERVICE;
/** Rows of the check's own besides the ranked ones, so that an equality on one title picks one row of many. */
const FILLERS = 9;

interface Row {
  made: Made;
  title: string;
  rank?: number;
}

const sortedKeys = (ks: string[]) => [...ks].sort();

/** A service of the check's own, with the title and rank it was created with; undefined when the create was refused. */
async function createRow(ctx: OpsContext, name: string, extra: Doc): Promise<Row | undefined> {
  const made = await createIn(ctx, C, name, extra);
  return made.key
    ? {
        made: { ...made, key: made.key },
        title: tagged(ctx, name),
        rank: typeof extra.cf_rank === 'number' ? extra.cf_rank : undefined,
      }
    : undefined;
}

/**
 * An equality filter lists exactly `want`, and where asked counts them. `free` rows may be listed or not: r4 holds
 * the value inside an array, and whether equality looks inside arrays only one store's semantics decides.
 */
async function selects(ctx: OpsContext, filter: Doc, want: string[], what: string, counted = false, free: string[] = []) {
  const q = { filter: JSON.stringify(filter) };
  const list = await listIn(ctx, C, q);
  const got = keys(rows(list));
  const listed = sortedKeys(got.filter((k) => !free.includes(k)));
  ctx.expect.equal(
    'OPS-FILTER-EQUALITY',
    `${what}: success and the keys listed by ${q.filter}${free.length ? ` (besides ${free.join(', ')}, which holds it inside an array)` : ''}`,
    { success: ok(list), keys: listed },
    { success: true, keys: sortedKeys(want) },
    list,
  );
  if (!counted) return;
  const count = await countIn(ctx, C, q);
  ctx.expect.equal('OPS-CORE-COUNT', `${what}: count with ${q.filter}`, countOf(count), want.length, count);
}

/** The ranked rows sorted by cf_rank: exactly the current ones (`live`), in order. */
async function inOrder(ctx: OpsContext, live: Map<string, Row>, rankedFilter: string, what: string, dir: 0 | 1) {
  const asc = [...live.values()].sort((a, b) => a.rank! - b.rank!).map((x) => x.made.key);
  const ex = await listIn(ctx, C, { filter: rankedFilter, sort_key: 'cf_rank', sort_dir: dir });
  const want = dir === 1 ? asc : [...asc].reverse();
  const got = keys(rows(ex));
  const reversed = ok(ex) && got.length > 1 && JSON.stringify([...got].reverse()) === JSON.stringify(want);
  ctx.expect.equal(
    reversed ? 'OPS-QUERY-SORT-DIR' : 'OPS-QUERY-SORT-KEY',
    `${what}: the ranked rows sorted by cf_rank with sort_dir=${dir}`,
    { success: ok(ex), keys: got },
    { success: true, keys: want },
    ex,
  );
}

/** Sorts and writes of the ranked rows once a row the filter leaves out holds an array at the sort key. */
async function arrayAtSortKey(ctx: OpsContext, live: Map<string, Row>, rankedFilter: string, [r2, r3]: [Row, Row], pair: string) {
  // A row the filter leaves out holds an array at the sort key; the ranked rows still sort, and writes still work.
  const odd = await createRow(ctx, 'lw odd', { cf_rank: [1, 2] });
  if (odd) {
    await inOrder(ctx, live, rankedFilter, 'with an array at cf_rank in a row the filter leaves out', 1);
    const rerank = await updateIn(ctx, C, r2.made.key, { title: r2.title, cf_rank: 5, cf_note: pair }, 0);
    if (ctx.expect.status('OPS-CORE-UPDATE', 'update after a sorted list of a collection with an array at the sort key', rerank, '2xx'))
      live.set(r2.made.key, { ...r2, rank: 5 });
    const del = await removeIn(ctx, C, r3.made);
    if (ctx.expect.status('OPS-CORE-DELETE', 'delete after a sorted list of a collection with an array at the sort key', del!, '2xx'))
      live.delete(r3.made.key);
    await inOrder(ctx, live, rankedFilter, 'after writes to a collection with an array at the sort key', 0);
  }
}

/**
 * Lists and counts read after writes, once the collection has already answered filters and sorts: a server that
 * keeps what it read before (a cache, an index) must keep it in step with every create, update and delete.
 */
export const listsAfterWrites: OpsCheck = {
  id: 'ops.query.lists-after-writes',
  title:
    'Equality filters, counts and lists sorted by sort_key MUST show exactly the current rows after creates, renames, re-ranks and deletes, on a collection of fifteen rows and more, also once a row the filter leaves out holds an array at the sort key',
  requirements: [
    'OPS-FILTER-EQUALITY',
    'OPS-CORE-COUNT',
    'OPS-QUERY-SORT-KEY',
    'OPS-QUERY-SORT-DIR',
    'OPS-CORE-CREATE',
    'OPS-CORE-UPDATE',
    'OPS-CORE-DELETE',
  ],
  async run(ctx) {
    const pair = `${ctx.options.runTag}-pair`;
    const ranked = (name: string) => `lw r ${name}`;
    // Ranks out of insertion order; r4 holds the shared note inside an array, the others as a scalar.
    const specs: [string, number, unknown][] = [
      ['0', 30, pair],
      ['1', 10, undefined],
      ['2', 50, pair],
      ['3', 20, `${ctx.options.runTag}-solo`],
      ['4', 40, [pair, 'other']],
    ];
    const create = (name: string, extra: Doc) => createRow(ctx, name, extra);
    const made = await Promise.all([
      ...specs.map(([n, rank, note]) => create(ranked(n), note === undefined ? { cf_rank: rank } : { cf_rank: rank, cf_note: note })),
      ...Array.from({ length: FILLERS }, (_, i) => create(`lw filler ${i}`, {})),
    ]);
    need(made.every(Boolean), `could not create the ${made.length} services to list: ${made.filter((m) => !m).length} refused`);
    const r = made.slice(0, specs.length).filter((x): x is Row => x !== undefined);
    const [r0, r1, r2, r3, r4] = r;
    const live = new Map<string, Row>(r.map((x) => [x.made.key, x]));
    const withPair = new Set([r0, r2, r4].map((x) => x.made.key));
    const rankedFilter = JSON.stringify({ title: { $regex: `^${escapeRegex(tagged(ctx, 'lw r '))}` } });

    // The collection answers equality filters, counts and sorts before any write.
    await selects(ctx, { title: r3.title }, [r3.made.key], 'before the writes');
    await selects(ctx, { title: tagged(ctx, 'lw no such title') }, [], 'before the writes');
    await selects(
      ctx,
      { cf_note: pair },
      [...withPair].filter((k) => k !== r4.made.key),
      'before the writes',
      false,
      [r4.made.key],
    );
    await inOrder(ctx, live, rankedFilter, 'before the writes', 1);
    await inOrder(ctx, live, rankedFilter, 'before the writes', 0);

    // A create, a rename with a new rank, and deletes of a row holding the shared note as a scalar and of the one
    // holding it inside an array.
    const r5 = await create(ranked('5'), { cf_rank: 35, cf_note: pair });
    if (
      !ctx.expect.that('OPS-CORE-CREATE', 'create of one more ranked service', !!r5, {
        expected: 'a success with a _key',
        actual: r5 ? 'one' : 'none',
      })
    )
      return;
    live.set(r5!.made.key, r5!);
    withPair.add(r5!.made.key);
    const renamed = `${r1.title} renamed`;
    // Every update sends all the fields the check set, as a full update: the document says a full update writes fields
    // outside the schema, while a partial one may leave them out (OPS-PARTIAL-NEW-FIELDS).
    const upd = await updateIn(ctx, C, r1.made.key, { title: renamed, cf_rank: 45 }, 0);
    if (!ctx.expect.status('OPS-CORE-UPDATE', 'rename and re-rank of a ranked service', upd, '2xx')) return;
    const oldTitle = r1.title;
    live.set(r1.made.key, { ...r1, title: renamed, rank: 45 });
    for (const gone of [r0, r4]) {
      const del = await removeIn(ctx, C, gone.made);
      if (!ctx.expect.status('OPS-CORE-DELETE', 'delete of a service holding the shared note', del!, '2xx')) return;
      live.delete(gone.made.key);
      withPair.delete(gone.made.key);
    }

    await selects(ctx, { cf_note: pair }, [...withPair], 'after the writes', true);
    await selects(ctx, { title: oldTitle }, [], 'after a rename, by the old title', true);
    await selects(ctx, { title: renamed }, [r1.made.key], 'after a rename, by the new title');
    await selects(ctx, { title: r5!.title }, [r5!.made.key], 'after a create');
    await inOrder(ctx, live, rankedFilter, 'after the writes', 1);
    await inOrder(ctx, live, rankedFilter, 'after the writes', 0);

    await arrayAtSortKey(ctx, live, rankedFilter, [r2, r3], pair);
  },
};
