import fc from 'fast-check';
import { orderings } from '../collation';
import { checkProperty, Violation } from '../../core/property';
import type { Exchange } from '../../core/types';
import { word } from '../arbitraries/values';
import { compact } from '../../core/expect';
import { asDoc, isDoc } from '../../core/json';
import { need, Unmet } from '../../core/precondition';
import { ok, same, SHARED_QUERY, tagged, type Doc, type OpsCheck, type OpsContext, type OpsRequirementId } from '../support';

const ICON_FIELDS = ['_key', 'title', 'svg_path', 'default_width', 'default_height', 'category'];
const SIZES = ['default_width', 'default_height'];
/** The documented answer of every icon delete, `{Deleted: 'True'}` (a server may add fields); judged at SHOULD, as deletes answered 204 with no body are seen in the field. */
const saysDeleted = (ex: Exchange) => asDoc(ex.json).Deleted === 'True';
const deleteAnswer = (ex: Exchange) => ({ expected: "{Deleted: 'True'}", actual: `${ex.status} ${ex.text.slice(0, 80) || '(no body)'}` });

const iconShape = fc.record({ name: word, width: fc.integer({ min: 1, max: 512 }), height: fc.integer({ min: 1, max: 512 }) });
type Shape = { name: string; width: number; height: number };

const iconOf = (ctx: OpsContext, category: string, s: Shape, i: number | string, numeric = false): Doc => ({
  title: tagged(ctx, `icon ${i} ${s.name}`),
  svg_path: `M0 0h${s.width}v${s.height}z`,
  default_width: numeric ? s.width : String(s.width),
  default_height: numeric ? s.height : String(s.height),
  category,
});

/** Sizes are compared by value: the document types them as strings while its sample sends numbers. */
const sameIcon = (read: Doc, sent: Doc) =>
  ['title', 'svg_path', 'category'].every((f) => read[f] === sent[f]) && SIZES.every((f) => String(read[f]) === String(sent[f]));

const keysAnswer = (ex: Exchange): string[] | undefined => {
  const keys = ex.json;
  return ok(ex) && Array.isArray(keys) && keys.every((k) => typeof k === 'string' && k !== '') ? keys : undefined;
};
const listAnswer = (ex: Exchange): { total: unknown; result: Doc[] } | undefined => {
  const b = ex.json;
  return ok(ex) && isDoc(b) && Array.isArray(b.result) ? { total: b.total, result: b.result } : undefined;
};
const keysOf = (icons: Doc[]) => icons.map((i) => String(i._key));
const sorted = (ks: string[]) => [...ks].sort();

/**
 * Deletes a category only after a GET of the same category shows nothing but that category's icons: a server that
 * ignored the parameter would otherwise delete every icon. Answers undefined when the delete was not sent.
 */
async function guardedCategoryDelete(ctx: OpsContext, name: string): Promise<Exchange | undefined> {
  const preview = listAnswer(await listIcons(ctx, { category: name }));
  if (!preview || preview.result.some((i) => i.category !== name)) return undefined;
  return ctx.http.send('iconDeleteByCategory', { query: { category: name } });
}

/**
 * Cleanup of a category: the icons it lists, one by one by key. A delete by category would take one request, but a
 * server that deletes beyond the category would then take the icons of the checks running beside this one.
 */
async function emptyCategory(ctx: OpsContext, name: string): Promise<Exchange | undefined> {
  const list = await listIcons(ctx, { category: name });
  const listed = listAnswer(list)?.result;
  if (!listed) return list;
  const own = listed.filter((i) => i.category === name && typeof i._key === 'string');
  const answers = await Promise.all(own.map((i) => ctx.http.send('iconDelete', { params: { _key: String(i._key) } })));
  return answers.find((a) => !ok(a) && a.status !== 404);
}

/**
 * A category named with the run tag, emptied when the check ends (or when it drops it): it only ever holds the
 * check's own icons. What the answer lists as failed (undefined: nothing) stays on the ledger.
 */
function ownCategory(ctx: OpsContext, label: string) {
  const name = tagged(ctx, label);
  const entries = [ctx.ledger.add(`icon category ${name}`, () => emptyCategory(ctx, name))];
  const drop = async () => {
    if (!(await emptyCategory(ctx, name))) for (const t of entries.splice(0)) ctx.ledger.forget(t);
  };
  return { name, entries, drop };
}
type OwnCategory = ReturnType<typeof ownCategory>;

/** Saves icons, each in the ledger; the entries go with `owner` when given, so dropping that category settles them. */
async function saveIcons(ctx: OpsContext, icons: Doc[], opts: { put?: boolean; owner?: Pick<OwnCategory, 'entries'>; as?: string } = {}) {
  const as = opts.as;
  const ex = opts.put
    ? await ctx.http.send('iconCreatePut', { rawBody: JSON.stringify(icons, null, 2), as })
    : await ctx.http.send('iconCreate', { body: icons, as });
  const saved = keysAnswer(ex);
  for (const k of saved ?? []) {
    opts.owner?.entries.push(ctx.ledger.add(`icon ${k}`, () => ctx.http.send('iconDelete', { params: { _key: k } })));
  }
  return { ex, keys: saved };
}

/** Icons the check cannot go on without: their keys, one per icon, or Unmet with the save's answer. */
async function saveNeeded(ctx: OpsContext, icons: Doc[]): Promise<string[]> {
  const { ex, keys } = await saveIcons(ctx, icons);
  if (keys?.length !== icons.length)
    throw new Unmet(`could not save ${icons.length} icon(s): the save answered ${ex.status} with ${keys?.length ?? 'no'} keys`, ex);
  return keys;
}

const listIcons = (ctx: OpsContext, query: Record<string, string | number | undefined> = {}) => ctx.http.send('iconList', { query });
const allIcons = async (ctx: OpsContext) => listAnswer(await listIcons(ctx))?.result ?? [];

async function categories(ctx: OpsContext) {
  const ex = await listIcons(ctx, { list_categories: 1 });
  const list: Doc[] | undefined = Array.isArray(ex.json) ? ex.json : undefined;
  return { ex, list };
}
const isImmutable = (c: Doc) => c !== null && typeof c === 'object' && 'immutable' in c && c.immutable !== false;

const createAndList: OpsCheck = {
  id: 'ops.icons.create-and-list',
  title:
    'POST icon_collection with an array of icons MUST answer one key per icon; GET ?category= MUST answer {total, result} with exactly those icons as written',
  requirements: ['OPS-ICON-CREATE', 'OPS-ICON-LIST', 'OPS-ICON-CATEGORY-FILTER', 'OPS-ICON-FIELDS'],
  uses: ['icons'],
  async run(ctx) {
    let n = 0;
    const property = fc.asyncProperty(fc.array(iconShape, { minLength: 1, maxLength: 4 }), async (shapes) => {
      const cat = ownCategory(ctx, `icons ${n++}`);
      const icons = shapes.map((s, i) => iconOf(ctx, cat.name, s, i));
      try {
        const { ex, keys } = await saveIcons(ctx, icons, { owner: cat });
        if (!keys || keys.length !== icons.length || new Set(keys).size !== keys.length)
          throw new Violation(
            `POST of ${icons.length} icons answered ${ex.status} ${ex.text.slice(0, 120)}, not ${icons.length} distinct keys`,
            'OPS-ICON-CREATE',
            ex,
            {
              expected: `${icons.length} distinct keys`,
              actual: `${ex.status} ${ex.text.slice(0, 120)}`,
            },
          );
        const list = await listIcons(ctx, { category: cat.name });
        const body = listAnswer(list);
        if (!body || !Number.isInteger(body.total))
          throw new Violation(`GET icon_collection?category= answered ${list.status} ${list.text.slice(0, 120)}`, 'OPS-ICON-LIST', list, {
            expected: 'a success with {total, result}',
            actual: `${list.status} ${list.text.slice(0, 120)}`,
          });
        const foreign = body.result.filter((r) => r.category !== cat.name);
        if (foreign.length)
          throw new Violation(
            `?category=${cat.name} also lists ${foreign.length} icons of ${[...new Set(foreign.map((r) => JSON.stringify(r.category)))].slice(0, 3).join(', ')}`,
            'OPS-ICON-CATEGORY-FILTER',
            list,
            { expected: `only icons of ${cat.name}`, actual: `also ${foreign.length} of other categories` },
          );
        if (!same(sorted(keysOf(body.result)), sorted(keys)))
          throw new Violation(
            `the category lists ${JSON.stringify(keysOf(body.result))}, the POST answered ${JSON.stringify(keys)}`,
            'OPS-ICON-CREATE',
            list,
            {
              expected: compact(sorted(keys)),
              actual: compact(sorted(keysOf(body.result))),
            },
          );
        // What `total` counts is not said (the category's icons, or the whole collection): never fewer than listed.
        if (!Number.isInteger(body.total) || (body.total as number) < icons.length)
          throw new Violation(
            `total is ${body.total} for a category of ${icons.length} icons listed without paging`,
            'OPS-ICON-LIST',
            list,
            {
              expected: `an integer total of at least ${icons.length}`,
              actual: `total ${compact(body.total)}`,
            },
          );
        for (const row of body.result) {
          const missing = ICON_FIELDS.filter((f) => typeof row[f] !== 'string');
          if (missing.length)
            throw new Violation(`icon ${row._key} lacks string ${missing.join(', ')}: ${JSON.stringify(row)}`, 'OPS-ICON-FIELDS', list, {
              expected: `string ${ICON_FIELDS.join(', ')}`,
              actual: compact(row),
            });
          const sent = icons.find((i) => i.title === row.title);
          if (!sent || !sameIcon(row, sent))
            throw new Violation(
              `icon ${row._key} reads ${JSON.stringify(row)}, written ${JSON.stringify(sent ?? 'with another title')}`,
              'OPS-ICON-CREATE',
              list,
              {
                expected: compact(sent ?? 'an icon with its title'),
                actual: compact(row),
              },
            );
        }
      } finally {
        await cat.drop();
      }
    });
    await checkProperty(
      ctx,
      ['OPS-ICON-CREATE', 'OPS-ICON-LIST', 'OPS-ICON-CATEGORY-FILTER', 'OPS-ICON-FIELDS'],
      'icon save and list',
      property,
      {
        runs: Math.min(ctx.options.runs, 8),
        // The payload is "array of icon objects": a case of several always runs, whatever the seed draws.
        examples: [
          [
            [
              { name: 'alpha', width: 16, height: 24 },
              { name: 'beta', width: 32, height: 8 },
              { name: 'gamma', width: 64, height: 64 },
            ],
          ],
        ],
      },
    );
  },
};

const sizeForms: OpsCheck = {
  id: 'ops.icons.size-forms',
  title:
    'Icon creation SHOULD accept default_width and default_height both as strings (as documented) and as numbers (as the sample sends), keeping their values',
  requirements: ['OPS-ICON-CREATE-SIZES'],
  uses: ['icons'],
  async run(ctx) {
    const cat = ownCategory(ctx, 'icon sizes');
    for (const numeric of [false, true]) {
      const icon = iconOf(
        ctx,
        cat.name,
        { name: numeric ? 'numbers' : 'strings', width: numeric ? 48 : 32, height: numeric ? 24 : 16 },
        0,
        numeric,
      );
      const { ex, keys } = await saveIcons(ctx, [icon]);
      const form = numeric ? 'numbers' : 'strings';
      if (
        !ctx.expect.that(
          'OPS-ICON-CREATE-SIZES',
          `saving an icon with sizes as ${form}`,
          keys?.length === 1,
          { expected: 'one key', actual: `${ex.status} ${ex.text.slice(0, 100)}` },
          ex,
        )
      )
        continue;
      const list = await listIcons(ctx, { category: cat.name });
      const row = listAnswer(list)?.result.find((r) => r._key === keys![0]);
      const sizes = (d: Doc | undefined) => compact(d && { default_width: d.default_width, default_height: d.default_height });
      ctx.expect.that(
        'OPS-ICON-CREATE-SIZES',
        `the icon saved with sizes as ${form}, read back (sizes by value)`,
        !!row && sameIcon(row, icon),
        { expected: sizes(icon), actual: sizes(row) },
        list,
      );
    }
  },
};

const putForm: OpsCheck = {
  id: 'ops.icons.put-form',
  title: "PUT icon_collection with the icon array as a raw body (the sample's form) SHOULD save the icons like POST and answer their keys",
  requirements: ['OPS-ICON-CREATE-PUT'],
  uses: ['icons'],
  async run(ctx) {
    const cat = ownCategory(ctx, 'icon put');
    const icons = [
      iconOf(ctx, cat.name, { name: 'put', width: 64, height: 64 }, 0),
      iconOf(ctx, cat.name, { name: 'put', width: 32, height: 16 }, 1),
    ];
    const { ex, keys } = await saveIcons(ctx, icons, { put: true });
    if (
      !ctx.expect.that(
        'OPS-ICON-CREATE-PUT',
        'PUT of two icons as raw data',
        keys?.length === 2,
        { expected: 'two keys', actual: `${ex.status} ${ex.text.slice(0, 100)}` },
        ex,
      )
    )
      return;
    const listed = listAnswer(await listIcons(ctx, { category: cat.name }))?.result ?? [];
    const good = keys!.every((k) => listed.some((r) => r._key === k && icons.some((i) => sameIcon(r, i))));
    ctx.expect.that('OPS-ICON-CREATE-PUT', 'the category after the PUT', good, {
      expected: `icons ${keys!.join(', ')}, each as sent`,
      actual: compact(listed.map((r) => ({ _key: r._key, title: r.title }))),
    });
  },
};

const readOnlyPut: OpsCheck = {
  id: 'ops.icons.read-only-put',
  title:
    "A caller without write access MUST NOT save icons, in the sample's PUT form as with POST (judged by the icons saved; the answer is recorded)",
  requirements: ['OPS-AUTH-ACCESS-CHECKS'],
  needs: ['readonly'],
  uses: ['icons'],
  async run(ctx) {
    const cat = ownCategory(ctx, 'icon read-only');
    for (const put of [true, false]) {
      const how = put ? 'PUT' : 'POST';
      const { ex } = await saveIcons(ctx, [iconOf(ctx, cat.name, { name: 'reader', width: 16, height: 16 }, how)], {
        put,
        owner: cat,
        as: 'readonly',
      });
      const held = listAnswer(await listIcons(ctx, { category: cat.name }))?.result ?? [];
      // Judged by the effect: what a refused save answers is not shown.
      ctx.expect.equal(
        'OPS-AUTH-ACCESS-CHECKS',
        `icons of its category after a read-only ${how} icon_collection (it answered ${ex.status})`,
        held.length,
        0,
        ex,
      );
    }
  },
};

/** The shared query parameters one icon list case sends besides its category. */
interface IconQuery {
  sortKey: 'title' | 'default_width';
  dir: 0 | 1;
  limit: number | undefined;
  offset: number | undefined;
  fields: string[] | undefined;
  only: number | undefined;
  listCategories: 0 | undefined;
}

/**
 * Which shared parameter a wrong page of the run's icons misread: the rows it lists tell. A page of the other
 * direction is sort_dir's; the right rows in another order, sort_key's; a page that starts elsewhere in the right
 * order, offset's; one of another length, limit's (offset's where no limit was sent).
 */
function misreadPage(got: string[], orders: string[][], p: IconQuery): OpsRequirementId {
  const start = p.offset ?? 0;
  const end = (s: number) => (p.limit === undefined ? undefined : s + p.limit);
  const reversed = orders.map((o) => [...o].reverse());
  if (reversed.some((o) => same(got, o.slice(start, end(start))))) return 'OPS-QUERY-SORT-DIR';
  const want = orders[0]!.slice(start, end(start));
  if (got.length === want.length && same(sorted(got), sorted(want))) return 'OPS-QUERY-SORT-KEY';
  if (orders.some((o) => o.some((_, s) => s !== start && same(got, o.slice(s, end(s)))))) return 'OPS-QUERY-OFFSET';
  if (got.length !== want.length) return p.limit === undefined ? 'OPS-QUERY-OFFSET' : 'OPS-QUERY-LIMIT';
  return 'OPS-QUERY-SORT-KEY';
}

const LIST_PARAMETERS: OpsRequirementId[] = ['OPS-ICON-LIST', 'OPS-ICON-CATEGORY-FILTER', ...SHARED_QUERY];

/** The rules a case could have broken: those of the parameters it sent (an offset of 0 skips nothing). */
const sentRules = (p: IconQuery): OpsRequirementId[] => [
  'OPS-ICON-LIST',
  'OPS-ICON-CATEGORY-FILTER',
  'OPS-QUERY-SORT-KEY',
  'OPS-QUERY-SORT-DIR',
  ...(p.limit !== undefined ? (['OPS-QUERY-LIMIT'] as const) : []),
  ...(p.offset ? (['OPS-QUERY-OFFSET'] as const) : []),
  ...(p.fields ? (['OPS-QUERY-FIELDS'] as const) : []),
  ...(p.only !== undefined ? (['OPS-QUERY-FILTER'] as const) : []),
];

/** Icons of the run's in a category of its own, named and sized so that title and width orders differ; one in another category. */
async function pagingIcons(ctx: OpsContext, size: number): Promise<{ category: string; icons: Doc[] }> {
  const words = fc.sample(fc.uniqueArray(word, { minLength: size, maxLength: size }), { seed: ctx.options.seed, numRuns: 1 })[0];
  // Widths in an order of their own (two digits, so a string and a numeric collation agree): sorting by the
  // width is told apart from sorting by the title.
  const widths = fc.sample(fc.shuffledSubarray([10, 11, 12, 13, 14, 15], { minLength: size, maxLength: size }), {
    seed: ctx.options.seed + 1,
    numRuns: 1,
  })[0];
  const main = ownCategory(ctx, 'icon paging');
  const other = ownCategory(ctx, 'icon paging other');
  const icons: Doc[] = words.map((w, i) => ({
    ...iconOf(ctx, main.name, { name: w, width: widths[i]!, height: 20 + i }, ''),
    title: tagged(ctx, w),
  }));
  await saveNeeded(ctx, icons);
  await saveNeeded(ctx, [iconOf(ctx, other.name, { name: 'aaa', width: 1, height: 1 }, 0)]);
  return { category: main.name, icons };
}

/** One icon list case as sent: its parameters, the query they made, and the run's icons it should list from. */
interface IconCase {
  p: IconQuery;
  query: Record<string, string | number | undefined>;
  filter: string | undefined;
  category: string;
  icons: Doc[];
  selected: Doc[];
}

/** The titles listed are those of the category, the filter and the page asked, in an order the document allows. */
function judgeIconPage(ex: Exchange, got: string[], c: IconCase): void {
  const { p, query, filter, category, icons, selected } = c;
  const start = p.offset ?? 0;
  // The orders under the collations the document allows (it names none), the one the answer follows first.
  const orders = orderings(
    selected,
    (i) => String(i[p.sortKey]),
    p.dir === 1 ? 1 : -1,
    (i) => String(i.title),
  );
  const pages = orders.map((o) => o.slice(start, p.limit === undefined ? undefined : start + p.limit));
  const match = pages.findIndex((w) => same(got, w));
  const want = pages[Math.max(match, 0)]!;
  const strays = got.filter((t) => !icons.some((i) => i.title === t));
  if (strays.length)
    throw new Violation(`?category=${category} also lists ${strays.slice(0, 3).join(', ')}`, 'OPS-ICON-CATEGORY-FILTER', ex, {
      expected: `only icons of ${category}`,
      actual: `also ${strays.join(', ')}`,
    });
  const unselected = got.filter((t) => !selected.some((i) => i.title === t));
  if (unselected.length)
    throw new Violation(`${filter} also lists ${unselected.slice(0, 3).join(', ')}`, 'OPS-QUERY-FILTER', ex, {
      expected: `only ${selected.map((i) => i.title).join(', ')}`,
      actual: compact(got),
    });
  if (p.limit !== undefined && got.length > p.limit)
    throw new Violation(`${JSON.stringify(query)} listed ${got.length} icons`, 'OPS-QUERY-LIMIT', ex, {
      expected: `at most ${p.limit} icons`,
      actual: compact(got),
    });
  if (match < 0)
    throw new Violation(
      `${JSON.stringify(query)} listed ${JSON.stringify(got)}, expected ${JSON.stringify(want)}`,
      misreadPage(got, orders, p),
      ex,
      { expected: compact(want), actual: compact(got) },
    );
}

/** With `fields`, each row carries only the fields asked (and _key), with the values saved. */
function judgeIconFields(ex: Exchange, result: Doc[], fields: string[] | undefined, icons: Doc[]): void {
  for (const row of fields ? result : []) {
    const stored = icons.find((i) => i.title === row.title)!;
    const extra = ICON_FIELDS.filter((f) => f !== '_key' && row[f] !== undefined && !fields!.includes(f));
    const wrong = fields!.filter((f) => String(row[f]) !== String(stored[f]));
    if (extra.length || wrong.length)
      throw new Violation(
        `fields=${fields!.join(',')}: ${row.title} ${extra.length ? `also carries ${extra.join(', ')}` : `has ${wrong.map((f) => `${f}=${JSON.stringify(row[f])}`).join(', ')}`}`,
        'OPS-QUERY-FIELDS',
        ex,
        { expected: `only ${fields!.join(', ')} (and _key), as saved`, actual: compact(row) },
      );
  }
}

const listParameters: OpsCheck = {
  id: 'ops.icons.list-parameters',
  title:
    'GET icon_collection MUST honour category with the shared query parameters (sort_key, sort_dir, limit, offset, fields, filter): the result is the sorted, filtered, paged icons of that category',
  requirements: LIST_PARAMETERS,
  // Only the run's own icons, in a category of its own, are compared: icons other checks save elsewhere change nothing.
  uses: ['icons'],
  async run(ctx) {
    const size = 6;
    const { category, icons } = await pagingIcons(ctx, size);
    const totals = new Set<string>();
    const exercised = new Set<string>();
    const params: fc.Arbitrary<IconQuery> = fc.record({
      sortKey: fc.constantFrom('title' as const, 'default_width' as const),
      dir: fc.constantFrom(0 as const, 1 as const),
      limit: fc.option(fc.integer({ min: 1, max: size + 1 }), { nil: undefined }),
      offset: fc.option(fc.integer({ min: 0, max: size }), { nil: undefined }),
      fields: fc.option(fc.subarray(['svg_path', 'default_width', 'default_height', 'category']), { nil: undefined }),
      only: fc.option(fc.integer({ min: 0, max: size - 1 }), { nil: undefined }),
      listCategories: fc.constantFrom(undefined, 0 as const),
    });
    const property = fc.asyncProperty(params, async (p) => {
      for (const r of sentRules(p)) exercised.add(r);
      const filter = p.only === undefined ? undefined : JSON.stringify({ title: icons[p.only].title });
      // title is always asked for: it names each row even when the projection leaves _key out.
      const fields = p.fields ? ['title', ...p.fields] : undefined;
      const query = {
        category,
        sort_key: p.sortKey,
        sort_dir: p.dir,
        limit: p.limit,
        offset: p.offset,
        fields: fields?.join(','),
        filter,
        list_categories: p.listCategories,
      };
      const ex = await listIcons(ctx, query);
      const body = listAnswer(ex);
      if (!body || !Number.isInteger(body.total))
        throw new Violation(
          `GET icon_collection ${JSON.stringify(query)} answered ${ex.status} ${ex.text.slice(0, 120)}`,
          'OPS-ICON-LIST',
          ex,
          {
            expected: 'a success with {total, result}',
            actual: `${ex.status} ${ex.text.slice(0, 120)}`,
          },
        );
      const selected = icons.filter((i) => p.only === undefined || i.title === icons[p.only].title);
      const got = body.result.map((r) => String(r.title));
      judgeIconPage(ex, got, { p, query, filter, category, icons, selected });
      if (!Number.isInteger(body.total) || (body.total as number) < got.length)
        throw new Violation(`total is ${body.total}, fewer than the ${got.length} icons returned`, 'OPS-ICON-LIST', ex, {
          expected: `an integer total of at least ${got.length} (the document does not say what it counts)`,
          actual: `total ${compact(body.total)}`,
        });
      totals.add(
        body.total === selected.length
          ? 'the number of matching icons before paging'
          : body.total === got.length
            ? 'the number of icons returned'
            : 'more than the matching icons (the collection)',
      );
      judgeIconFields(ex, body.result, fields, icons);
    });
    // Every parameter once whatever the seed draws: sorted by width with a page inside the list and a projection,
    // then a filter on one title.
    const examples: [IconQuery][] = [
      [{ sortKey: 'default_width', dir: 1, limit: 2, offset: 1, fields: ['svg_path'], only: undefined, listCategories: undefined }],
      [{ sortKey: 'default_width', dir: 0, limit: undefined, offset: undefined, fields: undefined, only: undefined, listCategories: 0 }],
      [{ sortKey: 'title', dir: 0, limit: 3, offset: 2, fields: undefined, only: undefined, listCategories: undefined }],
      [{ sortKey: 'title', dir: 1, limit: undefined, offset: undefined, fields: undefined, only: 2, listCategories: undefined }],
    ];
    await checkProperty(ctx, LIST_PARAMETERS, 'icon list parameters', property, {
      runs: Math.min(ctx.options.runs, 20),
      examples,
      concurrent: true,
      exercised,
    });
    if (totals.size) ctx.observe('OPS-ICON-LIST', `total is ${[...totals].join(' or ')}`);
  },
};

const listCategories: OpsCheck = {
  id: 'ops.icons.list-categories',
  title:
    'GET icon_collection?list_categories=1 MUST answer every category as {name}, never marking a category the run made (which can be modified) immutable; list_categories=0 answers the icons',
  requirements: ['OPS-ICON-LIST-CATEGORIES', 'OPS-ICON-CATEGORY', 'OPS-ICON-LIST'],
  shares: ['icons'],
  async run(ctx) {
    const cat = ownCategory(ctx, 'icon category');
    await saveNeeded(ctx, [iconOf(ctx, cat.name, { name: 'category', width: 8, height: 8 }, 0)]);
    const { ex, list } = await categories(ctx);
    if (
      !ctx.expect.that(
        'OPS-ICON-LIST-CATEGORIES',
        'list_categories=1',
        ok(ex) && !!list,
        { expected: 'a success with an array', actual: `${ex.status} ${ex.text.slice(0, 100)}` },
        ex,
      )
    )
      return;
    const malformed = list!.filter((c) => !c || typeof c !== 'object' || typeof c.name !== 'string');
    ctx.expect.equal('OPS-ICON-CATEGORY', `category entries without a string name (of ${list!.length})`, malformed, [], ex);
    const mine = list!.find((c) => c?.name === cat.name);
    ctx.expect.contains(
      'OPS-ICON-LIST-CATEGORIES',
      'names list_categories=1 lists, against the category of the new icon',
      list!.map((c) => c?.name),
      cat.name,
      ex,
    );
    // "Present when the category cannot be modified": required on immutable ones; `immutable: false` elsewhere is no claim.
    if (mine)
      ctx.expect.that(
        'OPS-ICON-CATEGORY',
        "the entry of the run's own category, which can be modified",
        !isImmutable(mine),
        { expected: 'not marked immutable', actual: compact(mine) },
        ex,
      );
    // A category either can be modified or cannot: one name listed both with and without the mark says both.
    const marked = new Set(list!.filter(isImmutable).map((c) => c.name));
    const both = [...new Set(list!.filter((c) => c && marked.has(c.name) && !isImmutable(c)).map((c) => c.name))];
    ctx.expect.equal('OPS-ICON-CATEGORY', 'categories listed both as immutable and as modifiable', both, [], ex);
    const names = new Set(list!.map((c) => c?.name));
    const unlisted = [...new Set((await allIcons(ctx)).map((i) => i.category))].filter((c) => typeof c === 'string' && !names.has(c));
    ctx.expect.equal('OPS-ICON-LIST-CATEGORIES', 'categories of listed icons that list_categories=1 leaves out', unlisted, [], ex);
    ctx.observe(
      'OPS-ICON-CATEGORY',
      `immutable categories: ${
        list!
          .filter(isImmutable)
          .map((c) => `${c.name} (immutable=${JSON.stringify(c.immutable)})`)
          .join(', ') || 'none'
      }`,
    );
    const icons = await listIcons(ctx, { list_categories: 0, category: cat.name });
    ctx.expect.that(
      'OPS-ICON-LIST',
      'list_categories=0',
      !!listAnswer(icons),
      { expected: 'a success with {total, result}', actual: `${icons.status} ${icons.text.slice(0, 80)}` },
      icons,
    );
  },
};

const deleteCategory: OpsCheck = {
  id: 'ops.icons.delete-category',
  title:
    "DELETE icon_collection?category=<name> MUST delete the icons of that category only, whatever other categories hold; the answer SHOULD be {Deleted: 'True'}",
  requirements: ['OPS-ICON-DELETE-CATEGORY', 'OPS-ICON-CREATE', 'OPS-ICON-CATEGORY-FILTER', 'OPS-ICON-DELETE-ANSWER'],
  shares: ['icons'],
  async run(ctx) {
    let n = 0;
    const answers = new Set<string>();
    const placed = fc.array(fc.integer({ min: 0, max: 2 }), { minLength: 1, maxLength: 6 });
    const property = fc.asyncProperty(placed, fc.nat(), async (spread, pick) => {
      // Names that are prefixes of each other: a delete by prefix or substring shows at once.
      const base = `del${n++}`;
      const cats = [ownCategory(ctx, base), ownCategory(ctx, `${base}x`), ownCategory(ctx, `x${base}`)];
      const icons = spread.map((c, i) => iconOf(ctx, cats[c].name, { name: 'del', width: 8 + i, height: 8 }, i));
      const target = cats[spread[pick % spread.length]].name;
      const held = { entries: [] as string[] };
      try {
        const saved = await saveIcons(ctx, icons, { owner: held });
        if (!saved.keys)
          throw new Violation(`POST of ${icons.length} icons answered ${saved.ex.status}`, 'OPS-ICON-CREATE', saved.ex, {
            expected: `${icons.length} keys`,
            actual: `${saved.ex.status} ${saved.ex.text.slice(0, 120)}`,
          });
        const before = await allIcons(ctx);
        const missing = saved.keys.filter((k) => !before.some((i) => i._key === k));
        if (missing.length)
          throw new Violation(`saved icons ${missing.join(', ')} are not listed`, 'OPS-ICON-CREATE', undefined, {
            expected: `listed: ${saved.keys.join(', ')}`,
            actual: `not listed: ${missing.join(', ')}`,
          });
        const del = await guardedCategoryDelete(ctx, target);
        if (!del)
          throw new Violation(
            `GET ?category=${target} listed icons of other categories, so the delete was not sent`,
            'OPS-ICON-CATEGORY-FILTER',
          );
        if (!ok(del))
          throw new Violation(
            `DELETE ?category=${target} answered ${del.status} ${del.text.slice(0, 100)}`,
            'OPS-ICON-DELETE-CATEGORY',
            del,
            {
              expected: 'a success',
              actual: `${del.status} ${del.text.slice(0, 100)}`,
            },
          );
        if (!saysDeleted(del)) answers.add(`${del.status} ${del.text.slice(0, 80)}`);
        const after = new Set(keysOf(await allIcons(ctx)));
        const kept = before.filter((i) => i.category === target && after.has(String(i._key)));
        if (kept.length)
          throw new Violation(`after DELETE ?category=${target}, ${kept.length} of its icons remain`, 'OPS-ICON-DELETE-CATEGORY', del, {
            expected: `no icon of ${target}`,
            actual: compact(keysOf(kept)),
          });
        const lost = before.filter((i) => i.category !== target && !after.has(String(i._key)));
        if (lost.length)
          throw new Violation(
            `DELETE ?category=${target} also deleted ${lost.length} icons of ${[...new Set(lost.map((i) => JSON.stringify(i.category)))].slice(0, 3).join(', ')}`,
            'OPS-ICON-DELETE-CATEGORY',
            del,
            { expected: 'icons of other categories kept', actual: `${lost.length} deleted: ${keysOf(lost).join(', ')}` },
          );
      } finally {
        for (const c of cats) await c.drop();
        if (cats.every((c) => c.entries.length === 0)) for (const t of held.entries) ctx.ledger.forget(t);
      }
    });
    // One icon in each of the three categories, deleting the shortest name: a prefix or substring match shows.
    const held = await checkProperty(
      ctx,
      ['OPS-ICON-DELETE-CATEGORY', 'OPS-ICON-CREATE', 'OPS-ICON-CATEGORY-FILTER'],
      'icon delete by category',
      property,
      {
        runs: Math.min(ctx.options.runs, 5),
        examples: [[[0, 1, 2], 0]],
      },
    );
    if (held) ctx.expect.equal('OPS-ICON-DELETE-ANSWER', "answers of DELETE ?category= other than {Deleted: 'True'}", [...answers], []);
  },
};

const deleteByKey: OpsCheck = {
  id: 'ops.icons.delete-by-key',
  title: "DELETE icon_collection/<_key> MUST delete that icon only; the answer SHOULD be {Deleted: 'True'}",
  requirements: ['OPS-ICON-DELETE', 'OPS-ICON-DELETE-ANSWER'],
  uses: ['icons'],
  async run(ctx) {
    const cat = ownCategory(ctx, 'icon delete key');
    const keys = await saveNeeded(
      ctx,
      [0, 1].map((i) => iconOf(ctx, cat.name, { name: 'key', width: 4, height: 4 }, i)),
    );
    const del = await ctx.http.send('iconDelete', { params: { _key: keys[0] } });
    ctx.expect.status('OPS-ICON-DELETE', `DELETE icon_collection/${keys[0]}`, del, '2xx');
    if (ok(del))
      ctx.expect.that(
        'OPS-ICON-DELETE-ANSWER',
        `the answer of DELETE icon_collection/${keys[0]}`,
        saysDeleted(del),
        deleteAnswer(del),
        del,
      );
    const left = keysOf(listAnswer(await listIcons(ctx, { category: cat.name }))?.result ?? []);
    ctx.expect.equal('OPS-ICON-DELETE', `icons of the category after deleting ${keys[0]}`, left, [keys[1]]);
    const again = await ctx.http.send('iconDelete', { params: { _key: keys[0] } });
    ctx.observe('OPS-ICON-DELETE', `deleting the same icon again answered ${again.status} ${again.text.slice(0, 80)}`);
  },
};

const immutableCategories: OpsCheck = {
  id: 'ops.icons.immutable-categories',
  title:
    'A category listed as immutable SHOULD not change (whatever the server answers): its icons survive a DELETE of the category and a DELETE by key, an icon of it saved over by key stays as it was, and no new icon is saved into it',
  requirements: ['OPS-ICON-CATEGORY-IMMUTABLE'],
  shares: ['icons'],
  destructive: true,
  async run(ctx) {
    const { list } = await categories(ctx);
    const all = await allIcons(ctx);
    const cat = need(
      (list ?? [])
        .filter(isImmutable)
        .map((c) => String(c.name))
        .find((name) => all.some((i) => i.category === name)),
      'no category listed as immutable holds an icon',
    );
    const held = keysOf(all.filter((i) => i.category === cat));
    // What the refusal answers is not shown: only the effect is judged.
    const byCategory = await ctx.http.send('iconDeleteByCategory', { query: { category: cat } });
    const after = new Set(keysOf(await allIcons(ctx)));
    const lost = held.filter((k) => !after.has(k));
    ctx.expect.equal(
      'OPS-ICON-CATEGORY-IMMUTABLE',
      `icons of the immutable ${cat} gone after DELETE ?category=${cat} (${byCategory.status}), of ${held.length}`,
      lost,
      [],
      byCategory,
    );
    ctx.observe(
      'OPS-ICON-CATEGORY-IMMUTABLE',
      `DELETE ?category of immutable ${cat} answered ${byCategory.status} ${byCategory.text.slice(0, 80)}`,
    );

    // Changes of single icons are modifications of the category too: a new icon in it, an icon of it saved over by
    // key (into a category of the run's), one of its icons deleted by key. Only the effect is judged; an icon such
    // a change moved or removed is put back as it was read (best effort: a server that let it go may take it back).
    const [first] = all.filter((i) => i.category === cat && typeof i._key === 'string');
    if (!first) return;
    const key = String(first._key);
    const added = await saveIcons(ctx, [iconOf(ctx, cat, { name: 'immutable', width: 16, height: 16 }, 'added')]);
    for (const k of added.keys ?? []) ctx.ledger.add(`icon ${k}`, () => ctx.http.send('iconDelete', { params: { _key: k } }));
    const elsewhere = ownCategory(ctx, 'moved here');
    const over = await saveIcons(ctx, [{ ...iconOf(ctx, elsewhere.name, { name: 'over', width: 16, height: 16 }, 'over'), _key: key }], {
      owner: elsewhere,
    });
    const byKey = await ctx.http.send('iconDelete', { params: { _key: key } });
    const now = await allIcons(ctx);
    const still = now.find((i) => i._key === key);
    if (!still || still.category !== cat || still.title !== first.title) await saveIcons(ctx, [first]);
    const newOnes = now.filter((i) => i.category === cat && !held.includes(String(i._key)));
    ctx.expect.equal(
      'OPS-ICON-CATEGORY-IMMUTABLE',
      `the immutable ${cat} after a new icon was saved into it (${added.ex.status}), icon ${key} was saved over into ${elsewhere.name} (${over.ex.status}) and deleted by key (${byKey.status})`,
      { newIcons: keysOf(newOnes), [key]: still ? { category: still.category, title: still.title } : 'gone' },
      { newIcons: [], [key]: { category: cat, title: first.title } },
      byKey,
    );
  },
};

const deleteAll: OpsCheck = {
  id: 'ops.icons.delete-all',
  title:
    "DELETE icon_collection?category=* MUST delete all icons (icons of immutable categories excepted); the answer SHOULD be {Deleted: 'True'}",
  requirements: ['OPS-ICON-DELETE-ALL', 'OPS-ICON-DELETE-ANSWER'],
  shares: ['icons'],
  destructive: true,
  async run(ctx) {
    const cat = ownCategory(ctx, 'icon delete all');
    const keys = await saveNeeded(
      ctx,
      [0, 1].map((i) => iconOf(ctx, cat.name, { name: 'all', width: 4, height: 4 }, i)),
    );
    const immutable = new Set(((await categories(ctx)).list ?? []).filter(isImmutable).map((c) => c.name));
    const del = await ctx.http.send('iconDeleteByCategory', { query: { category: '*' } });
    ctx.expect.status('OPS-ICON-DELETE-ALL', 'DELETE ?category=*', del, '2xx');
    if (ok(del)) ctx.expect.that('OPS-ICON-DELETE-ANSWER', 'the answer of DELETE ?category=*', saysDeleted(del), deleteAnswer(del), del);
    const left = await allIcons(ctx);
    const wrong = left.filter((i) => !immutable.has(i.category));
    ctx.expect.equal(
      'OPS-ICON-DELETE-ALL',
      `icons left outside immutable categories (the run's were ${keys.join(', ')})`,
      keysOf(wrong),
      [],
      del,
    );
    ctx.observe('OPS-ICON-DELETE-ALL', `${left.length} icons of immutable categories remain after category=*`);
  },
};

export const iconsChecks: OpsCheck[] = [
  createAndList,
  sizeForms,
  putForm,
  readOnlyPut,
  listParameters,
  listCategories,
  deleteCategory,
  deleteByKey,
  immutableCategories,
  deleteAll,
];
