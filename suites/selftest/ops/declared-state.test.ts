import { expect, it } from 'vitest';
import type { ApiHandler } from '../../../reference-impl/http/types';
import { checkTag } from '../../core/run-tag';
import { unbounded } from '../../core/schedule';
import { BACKUP, DEEP_DIVE, MAINTENANCE } from '../../ops/collections';
import { opsApi } from '../../ops/index';
import { embeddedOpsTarget } from '../../ops/target';
import { runAgainst } from '../harness';

/**
 * A check that creates rows in a collection another check deletes wholesale (where a server ignores the filter) or
 * counts whole must declare that collection's state, or the scheduler may run the two side by side and the other
 * check's delete takes this one's rows: a failure of a requirement the server does not break. The reference
 * implementation is run once, every create is attributed to its check by the check's tag in the title, and the
 * declarations are compared with what each check did.
 */
it('every check that creates rows in a stateful collection declares its state', async () => {
  const stateful = [DEEP_DIVE, MAINTENANCE, BACKUP];
  const created = new Map<number, Set<string>>();
  // Every object a check creates is titled with the check's tag, as the runner makes it.
  const tags = opsApi.checks.map((_, i) => checkTag('tag', i));
  const wrap =
    (inner: ApiHandler): ApiHandler =>
    (req) => {
      const c = req.method === 'POST' ? stateful.find((s) => req.path.endsWith(`/${s.type}`)) : undefined;
      const title = (req.body as { title?: unknown } | undefined)?.title;
      const index = typeof title === 'string' ? tags.findIndex((t) => title.startsWith(`${t} `)) : -1;
      if (c?.state && index >= 0) created.set(index, (created.get(index) ?? new Set()).add(c.state));
      return inner(req);
    };
  await runAgainst(opsApi, await embeddedOpsTarget(wrap), { runTag: 'tag' });
  const undeclared = [...created].flatMap(([i, states]) => {
    const check = opsApi.checks[i]!;
    const declared = [...(check.shares ?? []), ...(check.uses ?? [])] as string[];
    if (unbounded(check) || declared.includes('*')) return [];
    return [...states].filter((s) => !declared.includes(s)).map((s) => `${check.id} creates ${s} rows`);
  });
  expect(created.size, 'creates attributed to checks').toBeGreaterThan(5);
  expect(undeclared).toEqual([]);
});
