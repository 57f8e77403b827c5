import { Query } from 'mingo';

type Doc = Record<string, unknown>;

/** The document store's query semantics, as the model every filter answer is compared with. */
export function selectWith(filter: Doc, docs: Doc[]): Doc[] {
  const q = new Query(filter);
  return docs.filter((d) => q.test(d));
}
