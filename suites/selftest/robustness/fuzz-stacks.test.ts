import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ApiHandler } from '../../../reference-impl/http/types';
import { stacksErrorBody } from '../../../reference-impl/stacks/errors';
import { callHandler, getRequest, type WireRequest } from './api-request';
import {
  checkedSequence,
  fuzzRuns,
  fuzzSeed,
  inProcessStep,
  newStats,
  summary,
  wireStep,
  describeWire,
  type ResponseCheck,
} from './fuzz-run';
import { canCollect, mb, settledHeap } from './heap';
import { hostileVariants, methodInProcess, methodOnWire } from './hostile';
import { describeOverSockets } from './over-sockets';
import { plannedRequest, socketRuns, toWire, type RequestSpace } from './planned-request';
import {
  ALICE_KEY,
  OWNERS,
  STACKS_CONFIG,
  STACK_OPERATIONS,
  bearer,
  plausibleStackBody,
  resolveStack,
  stackHeaders,
  stackPathValue,
  stackQueryValue,
  stacksFingerprint,
  stacksWorld,
  type StacksWorld,
} from './stacks-world';

const RUNS = fuzzRuns(400);
const SOCKET_RUNS = socketRuns(RUNS);
const LONG_LIVED_REQUESTS = RUNS;

const STRAY_TARGETS = [
  '/',
  '*',
  '/v1',
  '/v2/stacks',
  '/v1/stacks/a/b',
  '/V1/STACKS',
  'http://other.test/v1/stacks',
  '/v1/stacks?',
  '/v1/stacks#x',
  '//v1/stacks',
  '/v1/stacks/%',
  '/../v1/stacks',
  '/v1/stacks/versions/..',
];

const SPACE: RequestSpace = {
  operations: STACK_OPERATIONS,
  target: { pathValue: stackPathValue, queryValue: stackQueryValue, extraQueryNames: ['platformVersion', 'limit', 'filter', '__proto__'] },
  headers: stackHeaders,
  body: () => plausibleStackBody,
  strayTargets: STRAY_TARGETS,
  strayBody: plausibleStackBody,
  templatedWeight: 12,
};
const planned = (method: fc.Arbitrary<string>) => plannedRequest(SPACE, method);

const KEYS = new Map(STACKS_CONFIG.users.map((u) => [u.apiKey, u]));

/** The user a request authenticates as (RFC 6750 bearer syntax, scheme case-insensitive), if any. */
function caller(headers: Record<string, string>) {
  const value = Object.entries(headers).find(([n]) => n.toLowerCase() === 'authorization')?.[1];
  const token = value === undefined ? undefined : /^Bearer[ \t]+([A-Za-z0-9\-._~+/]+=*)[ \t]*$/i.exec(value)?.[1];
  return token === undefined ? undefined : KEYS.get(token);
}

const isServiceError = (b: unknown) =>
  typeof b === 'object' &&
  b !== null &&
  !Array.isArray(b) &&
  typeof (b as { code?: unknown }).code === 'string' &&
  typeof (b as { message?: unknown }).message === 'string' &&
  (b as { message: string }).message.length > 0;

const checkStacks: ResponseCheck = (wire, status, body) => {
  const problems: string[] = [];
  if (status >= 400 && !isServiceError(body))
    problems.push(`error body is not a ServiceError {code, message}: ${JSON.stringify(body)?.slice(0, 200)}`);
  if (status === 204 && body !== undefined) problems.push('204 with a body');
  // 413, 414 and 431 come from the HTTP layer before any authentication.
  if (![413, 414, 431].includes(status)) {
    const user = caller(wire.headers);
    if (user === undefined && status !== 401) problems.push(`no valid key but ${status}`);
    if (user !== undefined && !user.allowed && status !== 403) problems.push(`user ${user.name} is not allowed but ${status}`);
    if (user?.allowed && (status === 401 || status === 403)) problems.push(`user ${user.name} is allowed but ${status}`);
  }
  return problems;
};

/** Stacks of each owner right now, so path references keep pointing at live stacks in a long-lived run. */
async function liveIds(handler: ApiHandler): Promise<StacksWorld['ids']> {
  const ids: StacksWorld['ids'] = { alice: [], bob: [] };
  for (const owner of OWNERS) {
    const key = STACKS_CONFIG.users.find((u) => u.name === owner)!.apiKey;
    const out = await callHandler(handler, getRequest('/v1/stacks', { authorization: bearer(key) }));
    if (out.ok) ids[owner] = ((out.res.body as { stacks: { id: string }[] }).stacks ?? []).map((s) => s.id);
  }
  return ids;
}

describe('stack API reference under generated requests', () => {
  it(`in-process: no 5xx, no throw, < 1 s, ServiceError bodies, rejected requests change nothing (${RUNS} runs)`, async () => {
    const stats = newStats();
    const heapBefore = await settledHeap();
    await fc.assert(
      fc.asyncProperty(fc.array(planned(methodInProcess), { minLength: 1, maxLength: 5 }), async (plans) => {
        const world = await stacksWorld();
        const wires = plans.map((p) => toWire(p, resolveStack(world)));
        await checkedSequence(
          wires,
          (w) => inProcessStep(world.handler, w, checkStacks, stats),
          () => stacksFingerprint(world.handler),
        );
      }),
      { numRuns: RUNS, seed: fuzzSeed() },
    );
    const growth = (await settledHeap()) - heapBefore;
    console.log(summary('stacks in-process', RUNS, stats));
    console.log(
      `stacks in-process: heap growth after the run ${mb(growth)} MB (bound 64 MB; gc ${canCollect ? 'forced' : 'not available'})`,
    );
    expect(growth).toBeLessThan(64 * 1024 * 1024);
  });

  it('create, as alice, with every hostile variant of its examples', async () => {
    const stats = newStats();
    let variants = 0;
    for (const op of STACK_OPERATIONS.filter((o) => o.bodyExamples.length > 0)) {
      const examples = [...op.bodyExamples, { platformVersion: STACKS_CONFIG.versions[0]!.buildVersion }];
      const bodies = examples
        .filter((e): e is Record<string, unknown> => typeof e === 'object' && e !== null)
        .flatMap((e) => hostileVariants(e));
      // One stack of headroom below the limit, so every accepted create shows, and a fresh world after each.
      let world = await stacksWorld(STACKS_CONFIG.maxStacksPerUser - 1);
      let before = await stacksFingerprint(world.handler);
      for (const v of bodies) {
        const wire: WireRequest = {
          method: op.method,
          target: op.template,
          headers: { authorization: bearer(ALICE_KEY), 'content-type': 'application/json' },
          body: v.text,
        };
        const status = await inProcessStep(world.handler, wire, checkStacks, stats);
        if (status >= 400) {
          expect(await stacksFingerprint(world.handler), `${v.name}: rejected with ${status} but changed the state`).toBe(before);
        } else {
          world = await stacksWorld(STACKS_CONFIG.maxStacksPerUser - 1);
          before = await stacksFingerprint(world.handler);
        }
        variants++;
      }
    }
    console.log(summary('stacks hostile corpus (one request per run)', variants, stats));
  });

  it(`one long-lived handler: same properties over two passes of ${LONG_LIVED_REQUESTS} requests, the second retains no memory`, async () => {
    const stats = newStats();
    const world = await stacksWorld(1);
    const plans = fc.sample(planned(methodInProcess), { numRuns: LONG_LIVED_REQUESTS, seed: 20261122 });
    const pass = async () => {
      let before = await stacksFingerprint(world.handler);
      for (const p of plans) {
        world.ids = await liveIds(world.handler);
        const wire = toWire(p, resolveStack(world));
        const status = await inProcessStep(world.handler, wire, checkStacks, stats);
        const after = await stacksFingerprint(world.handler);
        if (status >= 400) expect(after, `rejected with ${status} but changed the state: ${describeWire(wire)}`).toBe(before);
        before = after;
      }
    };
    // The first pass warms up compiled code and lazily built payloads; the second shows what requests retain.
    await pass();
    const heapBefore = await settledHeap();
    await pass();
    const growth = (await settledHeap()) - heapBefore;
    console.log(summary('stacks long-lived', 2, stats));
    console.log(
      `stacks long-lived: heap growth ${mb(growth)} MB over a second pass of ${plans.length} requests (bound 16 MB; the state is capped by the per-user limit)`,
    );
    expect(growth).toBeLessThan(16 * 1024 * 1024);
  });

  describeOverSockets(
    'stacks',
    stacksErrorBody,
    SOCKET_RUNS,
    fc.array(planned(methodOnWire), { minLength: 1, maxLength: 4 }),
    async (plans, client, stats, serve) => {
      const world = await stacksWorld();
      serve(world.handler);
      const wires = plans.map((p) => toWire(p, resolveStack(world)));
      await checkedSequence(
        wires,
        (w) => wireStep(client, w, checkStacks, stats),
        () => stacksFingerprint(world.handler),
      );
    },
  );
});
