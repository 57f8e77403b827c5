import type { OptionTable } from './settings';

/** Options that choose what runs: a requirement they leave out was left out on purpose, not for want of input. */
const SELECTION = new Set(['only', 'shard', 'apis']);

/**
 * How each option can be named in a reason: its flag (`--allow-destructive`) or its variable (`STACKS_API_KEY_2`),
 * shown by its flag when it has one. Selection options are left out.
 */
export function enablerNames(tables: readonly OptionTable[]): { names: string[]; shown: string }[] {
  return tables.flatMap((t) =>
    Object.entries(t).flatMap(([name, d]) => {
      if (d.kind !== 'setting' || SELECTION.has(name)) return [];
      const names = [d.flag && `--${d.flag}`, d.env].filter((n): n is string => Boolean(n));
      return names.length ? [{ names, shown: names[0] }] : [];
    }),
  );
}

/**
 * The settings a requirement's reason for being untested or skipped names, in the order it names them: what a user
 * sets to have it checked (`needs credentials that were not given (STACKS_API_KEY_2)` is enabled by STACKS_API_KEY_2).
 * Undefined when the reason names none: nothing the run is given can check it (a statement about the document).
 */
export function enablerOf(reason: string | undefined, options: ReturnType<typeof enablerNames>): string | undefined {
  if (!reason) return undefined;
  const found = options.flatMap((o) => {
    const at = Math.min(...o.names.map((n) => indexOfName(reason, n)).filter((i) => i >= 0));
    return Number.isFinite(at) ? [{ at, shown: o.shown }] : [];
  });
  return found.length ? [...new Set(found.sort((a, b) => a.at - b.at).map((f) => f.shown))].join(', ') : undefined;
}

/** Where a name stands in a text as a whole word (STACKS_API_KEY is not found inside STACKS_API_KEY_2). */
function indexOfName(text: string, name: string): number {
  const m = new RegExp(`(?<![\\w-])${name.replace(/[-]/g, '\\-')}(?![\\w-])`).exec(text);
  return m ? m.index : -1;
}
