import { badRequest } from './errors';
import type { Checked } from './query';

/**
 * Names one list parameter goes by. The document gives paging and filtering different names on different
 * interfaces (`limit`, and `count` in the search-command form and the content-pack lists; `offset`, and `skip` on
 * event management; `filter`, and `filter_data` on event management) and says listings return everything "when
 * `limit` (or `count`) is unset". Clients carry one naming everywhere, so every list reads every name of a group:
 * ignoring one would hand a pager the whole collection on every page.
 */
const ALIAS_GROUPS: readonly (readonly string[])[] = [
  ['limit', 'count'],
  ['offset', 'skip'],
  ['filter', 'filter_data'],
  // `is_partial` is what the platform SDK's helpers send (e.g. the ITSI Toolbox's KV-store helper).
  ['is_partial_data', 'is_partial'],
];

function groupOf(name: string): readonly string[] {
  return ALIAS_GROUPS.find((g) => g.includes(name)) ?? [name];
}

/**
 * The value of `name` or of any of its aliases; null when none is given. Two names of one group with different
 * values are refused: either reading would silently drop what the other asked for.
 */
export function aliasedParam(query: URLSearchParams, name: string): Checked<string | null> {
  let found: { name: string; value: string } | undefined;
  for (const alias of groupOf(name)) {
    for (const value of query.getAll(alias)) {
      if (found === undefined) found = { name: alias, value };
      else if (found.value.trim() !== value.trim()) {
        const both = found.name === alias ? `${alias} is given twice` : `${found.name} and ${alias} name the same parameter`;
        return {
          ok: false,
          error: badRequest(`${both}, with different values ("${found.value.slice(0, 100)}", "${value.slice(0, 100)}")`),
        };
      }
    }
  }
  return { ok: true, value: found === undefined ? null : found.value };
}

/**
 * Selection parameters of the platform's REST conventions that these lists do not implement. A client sending one
 * expects fewer or other rows than it would get, so it is told, not served the full list. Parameters that do not
 * change what is selected (`output_mode`, `is_partial_data`, ...) are left alone.
 */
const UNSUPPORTED_SELECTORS: Record<string, string> = {
  search: 'use filter (a JSON rules expression) to select rows',
  sort_mode: 'sort_key and sort_dir are the sort parameters',
  f: 'use fields (a comma-separated list) to choose the fields',
  summarize: 'every list answers whole rows; use fields to narrow them',
};

/** A 400 for the first unsupported selection parameter in `query`, unless the endpoint handles it (`accepts`). */
export function unsupportedSelector(query: URLSearchParams, accepts: readonly string[] = []): Checked<undefined> {
  for (const [name, hint] of Object.entries(UNSUPPORTED_SELECTORS)) {
    if (query.has(name) && !accepts.includes(name)) {
      return { ok: false, error: badRequest(`The parameter ${name} is not supported on this list: ${hint}`) };
    }
  }
  return { ok: true, value: undefined };
}
