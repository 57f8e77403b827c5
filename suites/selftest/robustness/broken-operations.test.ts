import { describe, expect, it } from 'vitest';
import type { ApiHandler, ApiRequest } from '../../../reference-impl/http/types';
import type { ApiDefinition } from '../../core/api';
import type { Target } from '../../core/types';
import { opsApi } from '../../ops/index';
import { embeddedOpsTarget } from '../../ops/target';
import { stacksApi } from '../../stacks/index';
import { embeddedStacksTarget } from '../../stacks/target';
import { runAgainst } from '../harness';

/**
 * Every check meets each way a deployment's basic operations can break: a refusal (500) or an empty success (200
 * without a body's fields) of every request of one method. Each sends a check down its failure path at every
 * request of that kind, the paths shared helpers take for their callers too. A server this broken fails the run;
 * the suite itself must never fail on it: no requirement may end in `error` (a TOOL ERROR, exit 2, on a deployment
 * whose writes are broken), as when a helper shared by two checks recorded against a requirement only one declares.
 */
const BREAKS: { id: string; when: (r: ApiRequest) => boolean; answer: { status: number; body?: unknown } }[] = [
  ...['POST', 'GET', 'DELETE'].map((method) => ({
    id: `every ${method} answers 500`,
    when: (r: ApiRequest) => r.method === method,
    answer: { status: 500, body: { messages: [{ type: 'ERROR', text: 'broken' }] } },
  })),
  ...['POST', 'GET'].map((method) => ({
    id: `every ${method} answers 200 {}`,
    when: (r: ApiRequest) => r.method === method,
    answer: { status: 200, body: {} },
  })),
];

/** The reference handler with one kind of request broken; the address root (the runner's reachability probe) is left alone. */
const broken =
  (b: (typeof BREAKS)[number]) =>
  (inner: ApiHandler): ApiHandler =>
  (req) =>
    req.path !== '/' && b.when(req) ? structuredClone(b.answer) : inner(req);

const APIS: [ApiDefinition, (wrap: (h: ApiHandler) => ApiHandler) => Promise<Target>][] = [
  [opsApi, (wrap) => embeddedOpsTarget(wrap)],
  [stacksApi, (wrap) => embeddedStacksTarget(wrap)],
];

describe('no check fails as a tool, whatever basic operation of the target is broken', () => {
  for (const [def, start] of APIS)
    for (const b of BREAKS)
      it(`${def.id}: ${b.id}`, async () => {
        const report = await runAgainst(def, await start(broken(b)), { readyTimeoutS: 1 });
        const errors = report.requirements.filter((q) => q.status === 'error').map((q) => `${q.id}: ${q.reason}`);
        expect(errors).toEqual([]);
        // The break was seen: a server this broken cannot pass.
        expect(report.summary.gate).toBe('fail');
      }, 120_000);
});
