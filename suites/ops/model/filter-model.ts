import { Query } from 'mingo';
import { isDoc, type Doc } from '../../core/json';

/** An array as one opaque value: equal only to the same array, never matched element by element nor by a pattern. */
const opaque = (v: unknown): unknown =>
  Array.isArray(v) ? { __array: JSON.stringify(v) } : isDoc(v) ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, opaque(x)])) : v;

/** The filter under the strict reading: `$ne` and `null` match only a field that is there; arrays are whole values. */
function strictFilter(filter: unknown): unknown {
  if (Array.isArray(filter)) return filter.map(strictFilter);
  if (!isDoc(filter)) return filter;
  const out: Doc = {};
  for (const [k, v] of Object.entries(filter)) {
    if (k.startsWith('$')) out[k] = ['$and', '$or', '$nor'].includes(k) ? strictFilter(v) : opaque(v);
    else if (v === null) out[k] = { $eq: null, $exists: true };
    else if (isDoc(v) && Object.keys(v).some((op) => op.startsWith('$')))
      out[k] = { ...(opaque(v) as Doc), ...('$ne' in v ? { $exists: true } : {}) };
    else out[k] = opaque(v);
  }
  return out;
}

/**
 * What a filter must and must not select, whatever reading of the parts the document leaves to one store's semantics:
 * the document shows three shapes ("equality `{field: value}`, pattern `{field: {$regex: pattern}}`, and
 * `{field: {$ne: value}}`") in "document-store query syntax", without saying whether equality and patterns look
 * inside arrays, or whether `$ne` and `null` match a row without the field. A row the store semantics and the strict
 * reading both select is required; one neither selects is forbidden; the others are free.
 */
export function filterReadings(filter: Doc, docs: Doc[]): { store: Set<string>; required: Set<string>; forbidden: Set<string> } {
  const storeQuery = new Query(filter);
  const strictQuery = new Query(strictFilter(filter) as Doc);
  // Rows that hold the same values in the fields the filter names are selected alike: each such group is tested once,
  // so a large deployment's rows (which hold none of the run's fields) cost one test, not one per row.
  const named = [...fieldsNamed(filter)];
  const verdicts = new Map<string, { store: boolean; strict: boolean }>();
  const out = { store: new Set<string>(), required: new Set<string>(), forbidden: new Set<string>() };
  const verdictOf = (d: Doc) => {
    const signature = JSON.stringify(named.map((f) => (d[f] === undefined ? '\u0000absent' : d[f])));
    let v = verdicts.get(signature);
    if (!v) verdicts.set(signature, (v = { store: storeQuery.test(d), strict: strictQuery.test(opaque(d) as Doc) }));
    return v;
  };
  for (const d of docs) {
    // Read through `fields`, a row may show null for a field it does not hold (some stores project it so): such a
    // row is judged both ways, and only what both ways agree on is required or forbidden.
    const nulls = named.filter((f) => d[f] === null);
    const ways = [
      verdictOf(d),
      ...(nulls.length ? [verdictOf(Object.fromEntries(Object.entries(d).filter(([k]) => !nulls.includes(k))))] : []),
    ];
    const key = String(d._key);
    if (ways[0]!.store) out.store.add(key);
    if (ways.every((v) => v.store && v.strict)) out.required.add(key);
    if (ways.every((v) => !v.store && !v.strict)) out.forbidden.add(key);
  }
  return out;
}

/** The top-level fields a filter names, at any depth of $and/$or/$nor (a dotted path names its first segment). */
function fieldsNamed(filter: unknown, into = new Set<string>()): Set<string> {
  if (Array.isArray(filter)) for (const f of filter) fieldsNamed(f, into);
  else if (isDoc(filter))
    for (const [k, v] of Object.entries(filter)) {
      if (['$and', '$or', '$nor'].includes(k)) fieldsNamed(v, into);
      else if (!k.startsWith('$')) into.add(k.split('.')[0]!);
    }
  return into;
}
