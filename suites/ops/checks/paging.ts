import fc from 'fast-check';
import { need } from '../../core/precondition';
import { checkProperty, Violation } from '../../core/property';
import { escapeRegex } from '../arbitraries/filters';
import { word } from '../arbitraries/values';
import { DEEP_DIVE, QUERYABLE, statesOf, type Collection } from '../collections';
import { orderings } from '../collation';
import {
  allNeeded,
  createIn,
  entryOf,
  guardedBulkDelete,
  keys,
  listIn,
  ok,
  ownFilter,
  ownTitles,
  rows,
  type Created,
  type Doc,
  type OpsCheck,
  type OpsContext,
  SHARED_QUERY,
} from '../support';

const SIZE = 5;
/** Title prefix of the ranked rows. */
const RANKED = 'p-';

/** Identity fields a store may return with any projection. */
const ALWAYS_ALLOWED = new Set(['_key', 'title', 'object_type', '_type', '_user', '_owner']);

/** Objects with unique titles and ranks, so that every sort order is total and paging has one right answer. */
async function seedRanked(ctx: OpsContext, c: Collection): Promise<Doc[] | undefined> {
  const words = fc.sample(fc.uniqueArray(word, { minLength: SIZE, maxLength: SIZE }), { seed: ctx.options.seed, numRuns: 1 })[0];
  const ranks = fc.sample(fc.uniqueArray(fc.integer({ min: -500, max: 500 }), { minLength: SIZE, maxLength: SIZE }), {
    seed: ctx.options.seed + 1,
    numRuns: 1,
  })[0];
  const made = await Promise.all(
    words.map((w, i) => createIn(ctx, c, `${RANKED}${w}`, { cf_rank: ranks[i], cf_word: w, cf_group: i % 2 ? 'odd' : 'even' })),
  );
  if (made.some((m) => !m.key)) return undefined;
  return made.map((m) => ({ ...m.body, _key: m.key }));
}

/** A filter on the ranked rows besides their titles, with the rule it is judged by and its meaning on a row. */
interface SubFilter {
  node: Doc;
  requirement: string;
  holds: (d: Doc) => boolean;
}

/** A filter of one documented shape on the ranked rows' own fields, from the value the `n`th row holds. */
function shape(kind: 'equality' | 'ne' | 'regex', seeded: Doc[], n = 0): SubFilter {
  const d = seeded[n % seeded.length]!;
  if (kind === 'equality') {
    const g = d.cf_group;
    return { node: { cf_group: g }, requirement: 'OPS-FILTER-EQUALITY', holds: (r) => r.cf_group === g };
  }
  if (kind === 'ne') {
    const r0 = d.cf_rank;
    return { node: { cf_rank: { $ne: r0 } }, requirement: 'OPS-FILTER-NE', holds: (r) => r.cf_rank !== r0 };
  }
  const pattern = `^${escapeRegex(String(d.cf_word)[0]!)}`;
  return {
    node: { cf_word: { $regex: pattern } },
    requirement: 'OPS-FILTER-REGEX',
    holds: (r) => new RegExp(pattern).test(String(r.cf_word)),
  };
}

/** No further filter, or one of each documented shape on the ranked rows' own fields, built from values they hold. */
function subFilters(seeded: Doc[]): fc.Arbitrary<SubFilter | undefined> {
  return fc.oneof(
    fc.constant(undefined),
    fc
      .tuple(fc.constantFrom('equality' as const, 'ne' as const, 'regex' as const), fc.nat(seeded.length - 1))
      .map(([k, n]) => shape(k, seeded, n)),
  );
}

/** Projections the pages may be asked in: none, or the sort fields and title (which tells the rows apart). */
const PROJECTIONS = [undefined, 'title,cf_rank'];

export const sortAndPage: OpsCheck = {
  id: 'ops.query.sort-and-page',
  title:
    'Paging with limit and offset through a filtered list sorted by sort_key and sort_dir (1 ascending, 0 descending), with or without fields, MUST yield the sorted selection, without duplicates or gaps',
  requirements: [...SHARED_QUERY, 'OPS-FILTER-EQUALITY', 'OPS-FILTER-NE', 'OPS-FILTER-REGEX'],
  // Its rows of these collections would go with a DELETE by filter that ignores the filter (the cleanup of
  // ops.query.limit-unset-returns-all, ops.backup.default-survives-bulk-delete), so it never runs beside those.
  uses: statesOf(QUERYABLE),
  async run(ctx) {
    // Each collection holds its own rows: they are sorted and paged side by side.
    await Promise.all(QUERYABLE.map((c) => sortAndPageIn(ctx, c)));
  },
};

/** One filtered, sorted and paged case: the parameters of the shared table together, as a client sends them. */
interface Case {
  sortKey: string;
  dir: number;
  size: number;
  sub: SubFilter | undefined;
  fields: string | undefined;
}

async function sortAndPageIn(ctx: OpsContext, c: Collection): Promise<void> {
  const seeded = await seedRanked(ctx, c);
  if (!seeded) return ctx.untested('OPS-QUERY-SORT-KEY', `could not create ${c.type} objects to sort`);
  const keyOfTitle = new Map(seeded.map((d) => [String(d.title), String(d._key)]));
  // A row read through `fields` may come without its _key: its (unique) title names it.
  const keysOf = (docs: Doc[]) => docs.map((d) => (d._key !== undefined ? String(d._key) : (keyOfTitle.get(String(d.title)) ?? '?')));
  // Every case sends a filter (the ranked rows' titles, and a shape on their fields or not).
  const PAGING = ['OPS-QUERY-SORT-KEY', 'OPS-QUERY-SORT-DIR', 'OPS-QUERY-LIMIT', 'OPS-QUERY-OFFSET', 'OPS-QUERY-FILTER'];
  // The filter shapes and the projection pass only where a case sent them.
  const exercised = new Set(PAGING);
  const property = fc.asyncProperty(
    fc.record({
      sortKey: fc.constantFrom('title', 'cf_rank'),
      dir: fc.constantFrom(0, 1),
      size: fc.integer({ min: 2, max: SIZE + 1 }),
      sub: subFilters(seeded),
      fields: fc.constantFrom(...PROJECTIONS),
    }),
    (k) => {
      if (k.sub) exercised.add(k.sub.requirement);
      if (k.fields) exercised.add('OPS-QUERY-FIELDS');
      return pagesIn(ctx, c, seeded, keysOf, k);
    },
  );
  await checkProperty(
    ctx,
    [...PAGING, 'OPS-QUERY-FIELDS', 'OPS-FILTER-EQUALITY', 'OPS-FILTER-NE', 'OPS-FILTER-REGEX'],
    `${c.type} filter, sort and paging`,
    property,
    {
      runs: Math.max(2, Math.ceil(ctx.options.runs / 4)),
      // Each filter shape once with paging, whatever the seed draws: a small budget may miss some.
      examples: [
        [{ sortKey: 'cf_rank', dir: 0, size: 2, sub: undefined, fields: undefined }],
        [{ sortKey: 'cf_rank', dir: 1, size: 2, sub: shape('equality', seeded), fields: 'title,cf_rank' }],
        [{ sortKey: 'title', dir: 0, size: 2, sub: shape('ne', seeded), fields: undefined }],
        [{ sortKey: 'cf_rank', dir: 0, size: 3, sub: shape('regex', seeded), fields: 'title,cf_rank' }],
      ],
      concurrent: true,
      exercised,
    },
  );
}

/** The whole filtered, sorted list (no paging) against the model: the order the pages are then held to. */
async function sortedSelection(ctx: OpsContext, c: Collection, seeded: Doc[], k: Case, filter: string, asked: string): Promise<string[]> {
  const { sortKey, dir, sub } = k;
  const chosen = sub ? seeded.filter(sub.holds) : seeded;
  const whole = await listIn(ctx, c, { filter, sort_key: sortKey, sort_dir: dir });
  const all = keys(rows(whole));
  const wanted = chosen.map((d) => String(d._key)).sort();
  // Which rows a filter selects is judged before their order: a shape's own rule where one was sent, else the filter's.
  if (JSON.stringify([...all].sort()) !== JSON.stringify(wanted))
    throw new Violation(`${c.type} listed with ${asked} selected ${all.length} rows`, sub?.requirement ?? 'OPS-QUERY-FILTER', whole, {
      expected: wanted.join(',') || '(none)',
      actual: [...all].sort().join(',') || '(none)',
    });
  // The order under the collation the server's answer follows, where it follows one (the document names none).
  const orders = orderings(
    chosen,
    (d) => d[sortKey],
    dir === 1 ? 1 : -1,
    (d) => String(d._key),
    all,
  );
  const expected = orders[0]!;
  if (JSON.stringify(all) !== JSON.stringify(expected)) {
    const reversed = orders.some((o) => JSON.stringify([...all].reverse()) === JSON.stringify(o));
    throw new Violation(
      `${c.type} ${asked} came back ${reversed ? 'in the opposite order' : 'out of order'}: ${all.join(',')} instead of ${expected.join(',')}`,
      reversed ? 'OPS-QUERY-SORT-DIR' : 'OPS-QUERY-SORT-KEY',
      whole,
      { expected: expected.join(','), actual: all.join(',') },
    );
  }
  return expected;
}

/**
 * The whole sorted selection first (a filter that selects the wrong rows, or a wrong order, is told apart from
 * paging), then every page of `size` rows with filter, sort_key, sort_dir, limit, offset and fields together.
 */
async function pagesIn(ctx: OpsContext, c: Collection, seeded: Doc[], keysOf: (docs: Doc[]) => string[], k: Case): Promise<void> {
  const { sortKey, dir, size, sub, fields } = k;
  // Only the ranked rows: what the other collections' objects need (a maintenance window's service) may be listed too.
  const filter = JSON.stringify({ ...ownTitles(ctx, RANKED), ...(sub?.node ?? {}) });
  const asked = `${sub ? `filter ${JSON.stringify(sub.node)}, ` : ''}sorted by ${sortKey} with sort_dir=${dir}`;
  const expected = await sortedSelection(ctx, c, seeded, k, filter, asked);
  const seen: string[] = [];
  for (let offset = 0; offset < expected.length + size; offset += size) {
    const page = await listIn(ctx, c, { filter, sort_key: sortKey, sort_dir: dir, limit: size, offset, ...(fields ? { fields } : {}) });
    const got = keysOf(rows(page));
    const where = `${c.type}: page offset=${offset} limit=${size}${fields ? ` fields=${fields}` : ''}, ${asked}`;
    if (!ok(page) || got.length > size)
      throw new Violation(`${where} answered ${got.length} rows`, 'OPS-QUERY-LIMIT', page, {
        expected: `a success with at most ${size} rows`,
        actual: `${page.status} with ${got.length} rows`,
      });
    const want = expected.slice(offset, offset + size);
    // A page holding a ranked row the filter does not select has not kept to the filter, whatever it did to paging.
    const unselected = got.filter((key) => !expected.includes(key) && seeded.some((d) => d._key === key));
    if (sub && unselected.length)
      throw new Violation(`${where} holds ${unselected.join(',')}, which the filter does not select`, sub.requirement, page, {
        expected: want.join(',') || '(empty)',
        actual: got.join(',') || '(empty)',
      });
    if (JSON.stringify(got) !== JSON.stringify(want))
      throw new Violation(
        `${where} is ${got.join(',') || '(empty)'}, expected ${want.join(',') || '(empty)'}`,
        got.length === want.length ? 'OPS-QUERY-OFFSET' : 'OPS-QUERY-LIMIT',
        page,
        {
          expected: want.join(',') || '(empty)',
          actual: got.join(',') || '(empty)',
        },
      );
    // A projection holds on every page too: the ranked rows' other field is not returned.
    const unasked = rows(page).filter((r) => fields && r.cf_word !== undefined);
    if (unasked.length)
      throw new Violation(`${where}: ${unasked.length} rows also carry cf_word`, 'OPS-QUERY-FIELDS', page, {
        expected: `only ${fields} of the ranked rows' fields`,
        actual: `cf_word on ${unasked.length} rows`,
      });
    seen.push(...got);
  }
  if (JSON.stringify(seen) !== JSON.stringify(expected))
    throw new Violation(`${c.type}: the pages joined are ${seen.join(',')}`, 'OPS-QUERY-OFFSET', undefined, {
      expected: expected.join(','),
      actual: seen.join(','),
    });
  // Without limit, offset still skips: the rest of the list from there.
  const rest = await listIn(ctx, c, { filter, sort_key: sortKey, sort_dir: dir, offset: size });
  const tail = keys(rows(rest));
  if (JSON.stringify(tail) !== JSON.stringify(expected.slice(size)))
    throw new Violation(
      `${c.type}: offset=${size} without limit, ${asked}, is ${tail.join(',') || '(empty)'}, expected ${expected.slice(size).join(',') || '(empty)'}`,
      'OPS-QUERY-OFFSET',
      rest,
      { expected: expected.slice(size).join(',') || '(empty)', actual: tail.join(',') || '(empty)' },
    );
}

/** More rows than common default page sizes (100), so a server that pages by default is seen to. */
const UNSET_LIMIT_ROWS = 101;

export const limitUnsetReturnsAll: OpsCheck = {
  id: 'ops.query.limit-unset-returns-all',
  title: `A list without limit MUST return every entry, beyond any default page size (${UNSET_LIMIT_ROWS} rows)`,
  requirements: ['OPS-LIMITS-UNSET'],
  // Its cleanup deletes its deep dives by filter: where a server's DELETE ignores the filter, that takes every deep
  // dive, so no check holding deep dives runs beside it.
  shares: ['deep_dive'],
  async run(ctx) {
    const made: Created[] = [];
    for (let i = 0; i < UNSET_LIMIT_ROWS; i += 20)
      made.push(
        ...(await Promise.all(
          Array.from({ length: Math.min(20, UNSET_LIMIT_ROWS - i) }, (_, j) => createIn(ctx, DEEP_DIVE, `unset limit ${i + j}`)),
        )),
      );
    const mine = allNeeded(made, `${UNSET_LIMIT_ROWS} deep dives`).map((m) => m.key);
    const ex = await listIn(ctx, DEEP_DIVE, { filter: ownFilter(ctx) });
    const got = new Set(keys(rows(ex)));
    const missing = mine.filter((k) => !got.has(k));
    ctx.expect.equal(
      'OPS-LIMITS-UNSET',
      `of the run's ${mine.length} rows, those a list without limit leaves out (it returned ${got.size})`,
      missing,
      [],
      ex,
    );
    // Where deletes by filter are allowed, two requests remove what a hundred would one key at a time.
    if (ctx.options.allowDestructive && (await guardedBulkDelete(ctx, DEEP_DIVE, ownFilter(ctx)))) {
      const left = new Set(keys(rows(await listIn(ctx, DEEP_DIVE, { filter: ownFilter(ctx) }))));
      for (const m of made) if (m.key && !left.has(m.key)) ctx.ledger.forget(entryOf(DEEP_DIVE, m.key));
    }
  },
};

export const fieldsSelectsFields: OpsCheck = {
  id: 'ops.query.fields',
  title: 'fields=a,b MUST return the asked fields of every row, and not the fields that were not asked',
  requirements: ['OPS-QUERY-FIELDS'],
  // As sort-and-page: its rows must not go with another check's DELETE by a filter the server ignores.
  uses: statesOf(QUERYABLE),
  async run(ctx) {
    // The shared parameters hold on every list that takes them: each collection is projected side by side.
    await Promise.all(QUERYABLE.map((c) => fieldsIn(ctx, c)));
    await oddFieldName(ctx, QUERYABLE[0]!);
  },
};

async function fieldsIn(ctx: OpsContext, c: Collection): Promise<void> {
  const seeded = need(await seedRanked(ctx, c), `could not create the ${SIZE} ${c.type} objects to read`);
  const byKey = new Map(seeded.map((d) => [String(d._key), d]));
  const property = fc.asyncProperty(fc.subarray(['title', 'cf_rank', 'cf_word', 'description'], { minLength: 1 }), async (fields) => {
    const ex = await listIn(ctx, c, { filter: ownFilter(ctx, RANKED), fields: fields.join(',') });
    for (const row of rows(ex)) {
      const stored = byKey.get(String(row._key));
      if (!stored) continue;
      for (const f of fields)
        if (stored[f] !== undefined && JSON.stringify(row[f]) !== JSON.stringify(stored[f]))
          throw new Violation(
            `fields=${fields.join(',')}: row ${row._key} has ${f}=${JSON.stringify(row[f])}, stored ${JSON.stringify(stored[f])}`,
            'OPS-QUERY-FIELDS',
            ex,
            {
              expected: `${f}=${JSON.stringify(stored[f])}`,
              actual: `${f}=${JSON.stringify(row[f])}`,
            },
          );
      const unasked = Object.keys(row).filter((k) => stored[k] !== undefined && !ALWAYS_ALLOWED.has(k) && !fields.includes(k));
      if (unasked.length)
        throw new Violation(`fields=${fields.join(',')}: row ${row._key} also carries ${unasked.join(', ')}`, 'OPS-QUERY-FIELDS', ex, {
          expected: `only ${fields.join(', ')} of the listed fields`,
          actual: `also ${unasked.join(', ')}`,
        });
    }
    if (rows(ex).length !== seeded.length)
      throw new Violation(`fields=${fields.join(',')} returned ${rows(ex).length} rows, not ${seeded.length}`, 'OPS-QUERY-FIELDS', ex, {
        expected: `${seeded.length} rows`,
        actual: `${rows(ex).length} rows`,
      });
  });
  await checkProperty(ctx, 'OPS-QUERY-FIELDS', `${c.type} fields projection`, property, {
    runs: Math.min(ctx.options.runs, 10),
    concurrent: true,
    // Several fields at once always run: a server that keeps only the first named field is seen to.
    examples: [[['title', 'cf_rank', 'cf_word']]],
  });
}

async function oddFieldName(ctx: OpsContext, c: Collection): Promise<void> {
  // A field may have any name, "undefined" too: a projection walk that reads one part too many shows it unasked.
  const odd = await createIn(ctx, c, 'Field Named Undefined', { undefined: { cf: 'odd' } });
  if (!odd.key) return;
  const ex = await listIn(ctx, c, { filter: JSON.stringify({ title: odd.body.title }), fields: 'title' });
  const row = rows(ex).find((r) => r._key === odd.key);
  if (row)
    ctx.expect.absent(
      'OPS-QUERY-FIELDS',
      'members of a row listed with fields=title, against a field named "undefined"',
      Object.keys(row),
      'undefined',
      ex,
    );
}
