import fc from 'fast-check';
import type { Doc } from '../../core/json';

type FilterKind = 'equality' | 'regex' | 'ne' | 'combined';
export interface GeneratedFilter {
  kind: FilterKind;
  filter: Doc;
}

export const escapeRegex = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Field paths with their values in the given rows: top-level scalars, array elements and dotted nested fields. */
export function pathsAndValues(rows: Doc[]): [string, unknown][] {
  const out: [string, unknown][] = [];
  for (const r of rows) {
    for (const [k, v] of Object.entries(r)) {
      if (!k.startsWith('cf_') && k !== 'title') continue;
      if (Array.isArray(v)) for (const e of v) out.push([k, e]);
      else if (v && typeof v === 'object') for (const [n, w] of Object.entries(v)) out.push([`${k}.${n}`, w]);
      else out.push([k, v]);
    }
  }
  return out;
}

/**
 * Filters of the shapes the document shows (equality, $regex, $ne) and combinations of them, built from values the
 * rows really hold so that most filters select something.
 */
export function filterFor(rows: Doc[]): fc.Arbitrary<GeneratedFilter> {
  const pairs = pathsAndValues(rows);
  if (!pairs.length) return fc.constant({ kind: 'equality', filter: { title: '' } });
  const pair = fc.constantFrom(...pairs);
  const equality = pair.map(([p, v]) => ({ kind: 'equality' as const, filter: { [p]: v } }));
  const ne = pair.map(([p, v]) => ({ kind: 'ne' as const, filter: { [p]: { $ne: v } } }));
  const stringPairs = pairs.filter(([, v]) => typeof v === 'string' && (v as string).length > 0) as [string, string][];
  const regex = stringPairs.length
    ? fc.tuple(fc.constantFrom(...stringPairs), fc.nat(), fc.nat(), fc.boolean()).map(([[p, v], a, b, anchored]) => {
        const start = anchored ? 0 : a % v.length;
        const end = start + 1 + (b % (v.length - start));
        return { kind: 'regex' as const, filter: { [p]: { $regex: `${anchored ? '^' : ''}${escapeRegex(v.slice(start, end))}` } } };
      })
    : equality;
  const simple = fc.oneof(equality, regex, ne);
  const combined = fc
    .tuple(simple, simple, fc.constantFrom('$and', '$or'))
    .map(([x, y, op]) => ({ kind: 'combined' as const, filter: { [op]: [x.filter, y.filter] } }));
  return fc.oneof({ weight: 3, arbitrary: simple }, { weight: 1, arbitrary: combined });
}

/** Strings that are not valid JSON, so not a valid filter whatever the store. */
export const invalidFilter = fc.oneof(
  fc.constantFrom('{title:', '{"title": "x"', 'not json', '{"title": {"$regex": }', '[', '}{', '{"title" "x"}'),
  fc.stringMatching(/^[a-z ]{1,12}$/).filter((s) => {
    try {
      JSON.parse(s);
      return false;
    } catch {
      return true;
    }
  }),
);
