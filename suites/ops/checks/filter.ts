import fc from 'fast-check';
import { checkProperty, Violation } from '../../core/property';
import { factsOf } from '../../core/expect';
import { escapeRegex, filterFor, invalidFilter, pathsAndValues, type GeneratedFilter } from '../arbitraries/filters';
import { userObject } from '../arbitraries/values';
import { DEEP_DIVE, SERVICE, type Collection } from '../collections';
import { filterReadings } from '../model/filter-model';
import {
  allNeeded,
  bulkDeleteIn,
  countIn,
  countOf,
  createIn,
  keys,
  listIn,
  ok,
  ownTitles,
  rows,
  tagged,
  type Doc,
  type OpsCheck,
  type OpsContext,
  type OpsRequirementId,
} from '../support';
import { isDoc } from '../../core/json';
import { compact } from '../../core/expect';

const REQUIREMENT_OF = {
  equality: 'OPS-FILTER-EQUALITY',
  regex: 'OPS-FILTER-REGEX',
  ne: 'OPS-FILTER-NE',
  combined: 'OPS-QUERY-FILTER',
} as const;

/** One object with a field of every kind (scalar, array, sub-object), whatever the seed draws for the others. */
const EVERY_KIND = { cf_alpha: 'fixed', cf_beta: ['red', 'blue'], cf_gamma: { x: 'deep', y: 7 } };
/** Its twin but for letter case: equality is exact, so a store that folds case selects both. */
const CASE_TWIN = { cf_alpha: 'Fixed', cf_beta: ['Red'], cf_gamma: { x: 'Deep', y: 7 } };

/** Objects with varied user fields, the same for a given seed, so filters have something to tell apart. */
/** `n` objects to filter, of the shapes returned; Unmet when one is refused. */
async function seedObjects(ctx: OpsContext, c: Collection, n: number): Promise<Doc[]> {
  const shapes = [EVERY_KIND, CASE_TWIN, ...fc.sample(userObject, { seed: ctx.options.seed, numRuns: n - 2 })];
  allNeeded(await Promise.all(shapes.map((extra, i) => createIn(ctx, c, `filter ${i}`, extra))), `the ${n} ${c.type} objects to filter`);
  return shapes;
}

/**
 * Rows of their own for values the seeded rows rarely or never hold: booleans, a null next to rows without the field,
 * a value two rows hold as a scalar and a third inside an array, and an empty array. They are left out of the rows
 * the generated filters are built from, so the seed draws the same filters as without them.
 */
const EDGE_ROWS: Doc[] = [
  { cf_flag: true, cf_tag: 'red', cf_note: 'noted', cf_tags: ['alpha'] },
  { cf_flag: false, cf_tag: 'red', cf_note: null },
  { cf_tag: ['red', 'blue'], cf_tags: [] },
];
const EDGE = 'filter edge';

const sorted = (ks: string[]) => [...ks].sort();

/**
 * One filter of each documented shape on each kind of field the run's rows hold (scalar, array element, dotted
 * path), plus an unanchored and a case-sensitive $regex and an $or: the shapes a small random budget may miss.
 */
function shapeExamples(ours: Doc[]): GeneratedFilter[] {
  const pairs = pathsAndValues(ours);
  const holds = (r: Doc, p: string, v: unknown, inArray: boolean) =>
    inArray ? Array.isArray(r[p]) && (r[p] as unknown[]).includes(v) : r[p] === v;
  const first = (kind: 'scalar' | 'array' | 'dotted') =>
    pairs.find(([p, v]) => (kind === 'dotted' ? p.includes('.') : !p.includes('.') && ours.some((r) => holds(r, p, v, kind === 'array'))));
  const out: GeneratedFilter[] = [];
  for (const pair of [first('scalar'), first('array'), first('dotted')]) {
    if (!pair) continue;
    out.push({ kind: 'equality', filter: { [pair[0]]: pair[1] } }, { kind: 'ne', filter: { [pair[0]]: { $ne: pair[1] } } });
  }
  for (const [p, v] of [
    ['cf_alpha', 'fixed'],
    ['cf_alpha', 'Fixed'],
    ['cf_beta', 'red'],
    ['cf_gamma.x', 'Deep'],
  ])
    out.push({ kind: 'equality', filter: { [p]: v } });
  const titles = ours.map((r) => String(r.title));
  if (titles.length === 0) return out;
  const tail = titles[0].slice(titles[0].indexOf(' ') + 1);
  // Unanchored, anchored and case-sensitive patterns: a store that takes the pattern as a literal substring, a prefix
  // or an exact value gets one of them wrong.
  out.push(
    { kind: 'regex', filter: { title: { $regex: tail } } },
    { kind: 'regex', filter: { title: { $regex: tail.toUpperCase() } } },
    { kind: 'regex', filter: { title: { $regex: `^${escapeRegex(titles[0].slice(0, 8))}.*${escapeRegex(tail)}$` } } },
  );
  if (titles.length > 1) out.push({ kind: 'combined', filter: { $or: [{ title: titles[0] }, { title: titles[1] }] } });
  return out;
}

/** A fixed example; one that combines operators names its parts, by which a failure is attributed. */
type Example = GeneratedFilter & { parts?: GeneratedFilter[] };

/**
 * Equality on a boolean, on null (a document store matches null and a missing field alike; strictNull) and on a value some rows
 * hold inside an array; $regex over an empty array; a top-level equality next to a dotted one; $regex and $ne in one
 * node (both conditions hold, as in any document-store node with two operators).
 */
function edgeExamples(ctx: OpsContext, ours: Doc[]): Example[] {
  const out: Example[] = [
    { kind: 'equality', filter: { cf_flag: true } },
    { kind: 'equality', filter: { cf_flag: false } },
    { kind: 'equality', filter: { cf_note: null } },
    { kind: 'equality', filter: { cf_tag: 'red' } },
    { kind: 'regex', filter: { cf_tags: { $regex: 'a' } } },
  ];
  const deep = ours.find((r) => isDoc(r.cf_gamma) && r.cf_gamma.x === 'deep');
  if (deep) out.push({ kind: 'equality', filter: { title: deep.title, 'cf_gamma.x': 'deep' } });
  if (ours.length) {
    const [regex, ne] = [ownTitles(ctx, 'filter ').title, { $ne: ours[0].title }];
    out.push({
      kind: 'combined',
      filter: { title: { ...regex, ...ne } },
      parts: [
        { kind: 'regex', filter: { title: regex } },
        { kind: 'ne', filter: { title: ne } },
      ],
    });
  }
  return out;
}

export const filterMatchesModel: OpsCheck = {
  id: 'ops.filter.matches-document-store',
  title:
    'A filter of equality, $regex, $ne or a combination MUST select the rows every reading of document-store syntax selects and none that no reading selects, and count MUST agree; it SHOULD select exactly what a document store would',
  requirements: [
    'OPS-FILTER-EQUALITY',
    'OPS-FILTER-REGEX',
    'OPS-FILTER-NE',
    'OPS-QUERY-FILTER',
    'OPS-FILTER-JSON',
    'OPS-CORE-COUNT',
    'OPS-FILTER-STORE-SEMANTICS',
  ],
  shares: ['*'],
  async run(ctx) {
    const shapes = await seedObjects(ctx, SERVICE, 6);
    // A row the server refuses (a null, say) leaves its examples to the rows it holds: the model judges those.
    await Promise.all(EDGE_ROWS.map((extra, i) => createIn(ctx, SERVICE, `${EDGE} ${i}`, extra)));
    // Reads only from here on: the comparison is over the rows the server holds, whoever created them, read with
    // only the fields the run's rows hold (the ones the filters name), so a large deployment's rows stay small.
    const named = [...new Set(['_key', 'title', ...[...shapes, ...EDGE_ROWS].flatMap((r) => Object.keys(r))])];
    const snapshot = rows(await listIn(ctx, SERVICE, { fields: named.join(',') }));
    const ours = snapshot.filter(
      (r) => String(r.title ?? '').startsWith(ctx.options.runTag) && !String(r.title).startsWith(tagged(ctx, EDGE)),
    );
    // Selections that differ from a document store's where only its semantics decides: a SHOULD, judged once at the end.
    const departures: string[] = [];
    const agrees = async ({ kind, filter }: GeneratedFilter) => {
      // Only the keys: which rows were selected is what is judged, and a large deployment's answer stays small.
      const ex = await listIn(ctx, SERVICE, { filter: JSON.stringify(filter), fields: '_key' });
      const got = sorted(keys(rows(ex)));
      const { store, required, forbidden } = filterReadings(filter, snapshot);
      const missing = [...required].filter((k) => !got.includes(k));
      const extra = got.filter((k) => forbidden.has(k));
      if (!ok(ex) || missing.length || extra.length) {
        throw new Violation(
          `filter ${JSON.stringify(filter)} selected ${got.length} rows: ${missing.length} that every reading selects are missing (${missing.slice(0, 5).join(', ') || 'none'}), ${extra.length} that no reading selects are there (${extra.slice(0, 5).join(', ') || 'none'})`,
          REQUIREMENT_OF[kind],
          ex,
          {
            expected: `a success with rows ${sorted([...required]).join(', ') || '(none)'} (and any of ${snapshot.length - required.size - forbidden.size} rows only one reading selects)`,
            actual: `${ex.status} with rows ${got.join(', ') || '(none)'}`,
          },
        );
      }
      if (JSON.stringify(got) !== JSON.stringify(sorted([...store])))
        departures.push(`${JSON.stringify(filter)}: ${got.length} rows, a document store ${store.size}`);
      // What a list shows under a filter is what a count with that filter counts.
      const count = await countIn(ctx, SERVICE, { filter: JSON.stringify(filter) });
      if (countOf(count) !== got.length)
        throw new Violation(
          `count with filter ${JSON.stringify(filter)} is ${countOf(count)}, the list under it has ${got.length}`,
          'OPS-CORE-COUNT',
          count,
          {
            expected: String(got.length),
            actual: countOf(count),
          },
        );
    };
    /** The first part of a combined example that fails alone: that operator's failure, not the combination's. */
    const failingPart = async (parts: GeneratedFilter[]) => {
      for (const part of parts) {
        try {
          await agrees(part);
        } catch (e) {
          if (e instanceof Violation) return e;
          throw e;
        }
      }
      return undefined;
    };
    // Reads only, all against the same snapshot: the examples go out together.
    await Promise.all(
      [...shapeExamples(ours), ...edgeExamples(ctx, ours)].map(async (example: Example) => {
        try {
          await agrees(example);
          // A fixed example records as a generated case does (core/property.ts): the Violation carries its facts.
          ctx.assert(
            REQUIREMENT_OF[example.kind],
            true,
            `filter ${JSON.stringify(example.filter)} selects and counts the rows a document store does`,
          );
        } catch (e) {
          if (!(e instanceof Violation)) throw e;
          const part = await failingPart(example.parts ?? []);
          const v = part ?? e;
          // As above: the message and the exchange are those of the Violation (of the part that fails alone, if one does).
          ctx.assert(
            // The property's Violation names a requirement of this check's (its properties take them from REQUIREMENT_OF).
            (v.requirement ?? 'OPS-QUERY-FILTER') as OpsRequirementId,
            false,
            part ? `${v.message}, alone as in ${JSON.stringify(example.filter)}` : v.message,
            v.exchange,
            v.facts && factsOf(v.facts),
          );
        }
      }),
    );
    const property = fc.asyncProperty(filterFor(ours), agrees);
    await checkProperty(
      ctx,
      ['OPS-FILTER-EQUALITY', 'OPS-FILTER-REGEX', 'OPS-FILTER-NE', 'OPS-QUERY-FILTER', 'OPS-FILTER-JSON', 'OPS-CORE-COUNT'],
      'filter semantics',
      property,
      { concurrent: true },
    );
    ctx.expect.that(
      'OPS-FILTER-STORE-SEMANTICS',
      'filters whose selection differs from a document store only where its semantics decides (array elements, missing fields, null)',
      departures.length === 0,
      { expected: 'none', actual: compact(departures.slice(0, 5)) },
    );
  },
};

export const invalidFilterGetReturnsAll: OpsCheck = {
  id: 'ops.filter.invalid-get-returns-all',
  title: 'A GET with an incorrect filter MUST return all rows of the type (and count all of them)',
  requirements: ['OPS-FILTER-INVALID-GET'],
  shares: ['*'],
  async run(ctx) {
    // Only the keys (fields=_key): every row of the type is read, and which rows came back is all that is judged.
    const all = sorted(keys(rows(await listIn(ctx, SERVICE, { fields: '_key' }))));
    const property = fc.asyncProperty(invalidFilter, async (filter) => {
      const ex = await listIn(ctx, SERVICE, { filter, fields: '_key' });
      const got = sorted(keys(rows(ex)));
      if (JSON.stringify(got) !== JSON.stringify(all))
        throw new Violation(
          `GET with the incorrect filter ${JSON.stringify(filter)} answered ${ex.status} with ${got.length} rows; all ${all.length} rows are expected`,
          'OPS-FILTER-INVALID-GET',
          ex,
          { expected: `all ${all.length} rows`, actual: `${ex.status} with ${got.length} rows` },
        );
      const count = await countIn(ctx, SERVICE, { filter });
      if (countOf(count) !== all.length)
        throw new Violation(
          `count with the incorrect filter ${JSON.stringify(filter)} is ${countOf(count)}, not ${all.length}`,
          'OPS-FILTER-INVALID-GET',
          count,
          {
            expected: String(all.length),
            actual: countOf(count),
          },
        );
    });
    await checkProperty(ctx, 'OPS-FILTER-INVALID-GET', 'incorrect filter on GET', property, {
      runs: Math.min(ctx.options.runs, 10),
      concurrent: true,
    });
    // Options the document does not show ($options x, with comments and escapes in the pattern): a server may honour
    // them or take the filter as incorrect, but a GET with a filter is never refused and always answers rows.
    for (const pattern of ['a#b', 'a#', '\\.a']) {
      const filter = JSON.stringify({ title: { $regex: pattern, $options: 'x' } });
      const ex = await listIn(ctx, SERVICE, { filter });
      ctx.expect.that(
        'OPS-FILTER-INVALID-GET',
        `GET with the filter ${filter}`,
        ok(ex) && Array.isArray(ex.json),
        { expected: 'a success with an array of rows', actual: `${ex.status} ${ex.text.slice(0, 80)}` },
        ex,
      );
    }
  },
};

export const invalidFilterDeleteDeletesAll: OpsCheck = {
  id: 'ops.filter.invalid-delete-deletes-all',
  title: 'A DELETE with an incorrect filter MUST delete all rows of the type',
  requirements: ['OPS-FILTER-INVALID-DELETE'],
  // Deletes every deep dive, other checks' too: it runs last, alone.
  destructive: true,
  async run(ctx) {
    await Promise.all(['a', 'b'].map((n) => createIn(ctx, DEEP_DIVE, `invalid delete ${n}`)));
    const before = countOf(await countIn(ctx, DEEP_DIVE));
    const ex = await bulkDeleteIn(ctx, DEEP_DIVE, { filter: '{title:' });
    const after = await countIn(ctx, DEEP_DIVE);
    ctx.expect.equal(
      'OPS-FILTER-INVALID-DELETE',
      `DELETE with an incorrect filter: success, and the deep_dive count after it (${before} before)`,
      { success: ok(ex), count: countOf(after) },
      { success: true, count: 0 },
      after,
    );
  },
};
