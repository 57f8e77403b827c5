import { describe, expect, it } from 'vitest';
import type { ApiHandler } from '../../../reference-impl/http/types';
import type { ApiDefinition } from '../../core/api';
import { createClient } from '../../core/client';
import { specOf } from '../../core/spec';
import { createTransport } from '../../core/transport';
import type { Target } from '../../core/types';
import { CORE_TYPES } from '../../ops/collections';
import { opsApi } from '../../ops/index';
import { embeddedOpsTarget } from '../../ops/target';
import { stacksApi } from '../../stacks/index';
import { embeddedStacksTarget } from '../../stacks/target';
import { runAgainst } from '../harness';

/** Every object the target holds, by where it was read: what a run without destructive checks must leave as it was. */
async function snapshot(
  api: ApiDefinition,
  target: Target,
  reads: [string, Record<string, string>, string?][],
): Promise<Map<string, string>> {
  const transport = createTransport({ timeoutMs: 10_000, maxBodyBytes: 64 << 20, tlsInsecure: true });
  const client = createClient(target, specOf(api.specFile), transport, () => undefined);
  const out = new Map<string, string>();
  try {
    for (const [op, params, as] of reads) {
      const ex = await client.send(op, { params, as });
      const body = ex.json as Record<string, unknown> | null;
      const rows = (
        Array.isArray(body)
          ? body
          : Array.isArray(body?.stacks)
            ? body.stacks
            : Array.isArray(body?.result)
              ? body.result
              : Array.isArray(body?.success)
                ? body.success
                : []
      ) as Record<string, unknown>[];
      for (const r of rows)
        out.set(
          `${op} ${JSON.stringify(params)} ${as ?? ''} ${r._key ?? r.id}`,
          JSON.stringify({ ...r, state: undefined, stackAccessDetails: undefined }),
        );
    }
  } finally {
    transport.close();
  }
  return out;
}

function unchanged(before: Map<string, string>, after: Map<string, string>): string[] {
  return [...before].filter(([k, v]) => after.get(k) !== v).map(([k]) => k);
}

describe('a run without destructive checks leaves data it did not create untouched', () => {
  it('ops: every object that existed before is still there, unchanged', async () => {
    const live = await embeddedOpsTarget();
    const target: Target = { ...live, embedded: false, close: undefined };
    const reads: [string, Record<string, string>][] = [
      ...CORE_TYPES.map((t) => ['coreList', { object_type: t }] as [string, Record<string, string>]),
      ['mwList', { object_type: 'maintenance_calendar' }],
      ['brList', { object_type: 'backup_restore' }],
      ['iconList', {}],
      ['cpAuthList', {}],
      ['contentPackList', {}],
      ['emList', { object_type: 'correlation_search' }],
      ['emList', { object_type: 'notable_event_group' }],
    ];
    const before = await snapshot(opsApi, target, reads);
    expect(before.size).toBeGreaterThan(30);
    const report = await runAgainst(opsApi, target, { allowDestructive: false });
    expect(report.requirements.some((q) => q.status === 'skipped')).toBe(true);
    const after = await snapshot(opsApi, target, reads);
    expect(unchanged(before, after)).toEqual([]);
    await live.close?.();
  }, 120_000);

  it('the same snapshot does see the changes destructive checks make (so the test above can fail)', async () => {
    const live = await embeddedOpsTarget();
    const target: Target = { ...live, embedded: false, close: undefined };
    const reads: [string, Record<string, string>][] = [
      ['coreList', { object_type: 'deep_dive' }],
      ['coreList', { object_type: 'entity' }],
    ];
    const before = await snapshot(opsApi, target, reads);
    await runAgainst(opsApi, target, {
      allowDestructive: true,
      only: ['ops.filter.invalid-delete-deletes-all', 'ops.entity.retire-retirable'],
    });
    expect(unchanged(before, await snapshot(opsApi, target, reads)).length).toBeGreaterThan(0);
    await live.close?.();
  }, 120_000);

  it("a server that ignores the category of icon reads and deletes is not led into deleting others' icons", async () => {
    const ignoreCategory =
      (inner: ApiHandler): ApiHandler =>
      (req) => {
        if (!req.path.endsWith('/icon_collection') || req.query.get('category') === '*') return inner(req);
        const query = new URLSearchParams(req.query);
        if (req.method === 'DELETE' && query.has('category')) query.set('category', '*');
        else query.delete('category');
        return inner({ ...req, query });
      };
    const live = await embeddedOpsTarget(ignoreCategory);
    const target: Target = { ...live, embedded: false, close: undefined };
    const reads: [string, Record<string, string>][] = [['iconList', {}]];
    const before = await snapshot(opsApi, target, reads);
    expect(before.size).toBeGreaterThan(0);
    const report = await runAgainst(opsApi, target, { allowDestructive: false, only: ['ops.icons.*'] });
    expect(report.requirements.filter((q) => q.status === 'failed').map((q) => q.id)).toContain('OPS-ICON-CATEGORY-FILTER');
    const after = await snapshot(opsApi, target, reads);
    expect([...before.keys()].filter((k) => !after.has(k))).toEqual([]);
    await live.close?.();
  }, 120_000);

  it("stacks: other users' stacks and the caller's own earlier stacks survive", async () => {
    const live = await embeddedStacksTarget();
    const target: Target = { ...live, embedded: false, close: undefined };
    const transport = createTransport({ timeoutMs: 10_000, maxBodyBytes: 1 << 20 });
    const client = createClient(target, specOf(stacksApi.specFile), transport, () => undefined);
    await client.send('createStack', { as: 'second', body: {} });
    await client.send('createStack', { as: 'primary', body: {} });
    transport.close();
    const reads: [string, Record<string, string>, string][] = [
      ['listStacks', {}, 'primary'],
      ['listStacks', {}, 'second'],
    ];
    const before = await snapshot(stacksApi, target, reads);
    expect(before.size).toBe(2);
    await runAgainst(stacksApi, target, { allowDestructive: false });
    expect(unchanged(before, await snapshot(stacksApi, target, reads))).toEqual([]);
    await live.close?.();
  }, 120_000);
});
