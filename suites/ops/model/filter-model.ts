import { Query } from 'mingo';
import type { Doc } from '../../core/json';

/** The document store's query semantics, as the model every filter answer is compared with. */
export function selectWith(filter: Doc, docs: Doc[]): Doc[] {
  const q = new Query(filter);
  return docs.filter((d) => q.test(d));
}
