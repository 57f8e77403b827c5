import type { Check } from './check';

/**
 * Gathers checks by id; a duplicate id is a programming error, caught at load time. Checks typed after their API's
 * document (`Check<operations>`) are gathered as plain checks: the runner hands every check the same client, whose
 * answers those checks only read with types.
 */
export function registry<Ops extends object>(checks: (Check<Ops> | Check)[]): Check[] {
  const seen = new Set<string>();
  for (const c of checks) {
    if (seen.has(c.id)) throw new Error(`duplicate check id ${c.id}`);
    if (c.requirements.length === 0) throw new Error(`check ${c.id} names no requirement`);
    seen.add(c.id);
  }
  return checks as unknown as Check[];
}

/** `--only` patterns: glob over requirement ids and check ids (`*` matches any run of characters). */
export function matchesOnly(check: Check, patterns: string[] | undefined): boolean {
  if (!patterns?.length) return true;
  const res = patterns.map(
    (p) =>
      new RegExp(
        `^${p
          .split('*')
          .map((s) => s.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
          .join('.*')}$`,
        'i',
      ),
  );
  return res.some((re) => re.test(check.id) || check.requirements.some((r) => re.test(r)));
}
