/**
 * Orders a server may sort values in: the document names no collation, so binary, case-folded, locale and natural
 * (digits as numbers) order are all readings of "sort by". Numbers compare as numbers under each.
 */
const text = (cmp: (a: string, b: string) => number) => (a: unknown, b: unknown) =>
  typeof a === 'number' && typeof b === 'number' ? a - b : cmp(String(a), String(b));
const binary = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

const COLLATIONS = [
  text(binary),
  text((a, b) => binary(a.toLowerCase(), b.toLowerCase())),
  text((a, b) => a.localeCompare(b)),
  text((a, b) => a.localeCompare(b, undefined, { numeric: true, sensitivity: 'base' })),
];

/** Whether `values` are in order (ascending for 1, descending for -1) under one of the collations. */
export const inSomeOrder = (values: unknown[], dir: 1 | -1) =>
  COLLATIONS.some((cmp) => values.every((v, i) => i === 0 || dir * cmp(values[i - 1], v) <= 0));

/** The orders `items` take sorted by `sortValue` under each collation, the one matching `seen` first when there is one. */
export function orderings<T>(
  items: T[],
  sortValue: (t: T) => unknown,
  dir: 1 | -1,
  idOf: (t: T) => string,
  seen: string[] = [],
): string[][] {
  const all = COLLATIONS.map((cmp) => [...items].sort((a, b) => dir * cmp(sortValue(a), sortValue(b))).map(idOf));
  const match = all.find((o) => JSON.stringify(o) === JSON.stringify(seen));
  return match ? [match, ...all.filter((o) => o !== match)] : all;
}
