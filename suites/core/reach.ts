import type { Exchange, Reach } from './types';

/** What an exchange reached: its operation, the query parameters it sent (sorted) and its path form. */
export function reachOf(ex: Exchange, formOf?: (ex: Exchange) => string | undefined): Reach | undefined {
  if (!ex.operationId) return undefined;
  const params = [...new Set(new URL(ex.request.url, 'http://x').searchParams.keys())].sort();
  const form = formOf?.(ex);
  return { operation: ex.operationId, params, ...(form ? { form } : {}) };
}

/** One reach as the reports print it: `coreBulkDelete ?filter&limit (vLatest)`. */
export const reachText = (r: Reach) => `${r.operation}${r.params.length ? ` ?${r.params.join('&')}` : ''}${r.form ? ` (${r.form})` : ''}`;

/** A `governs` entry of a catalogue: `op`, `op?param` or `op@form`. */
function governed(entry: string): { operation: string; param?: string; form?: string } {
  const m = entry.match(/^([^?@]+)(?:\?(.+)|@(.+))?$/);
  if (!m) throw new Error(`governs entry '${entry}' is not op, op?param or op@form`);
  return { operation: m[1]!, param: m[2], form: m[3] };
}

/** The entries of `governs` that no reach covers: what a requirement's assertions left out. */
export function notReached(governs: readonly string[], reached: readonly Reach[]): string[] {
  return governs.filter((entry) => {
    const g = governed(entry);
    return !reached.some((r) => r.operation === g.operation && (!g.param || r.params.includes(g.param)) && (!g.form || r.form === g.form));
  });
}
