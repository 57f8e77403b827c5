import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { loadStacksConfig } from '../../../reference-impl/stacks/config';
import { callHandler, getRequest, toApiRequest, type WireRequest } from './api-request';
import { describeWire, fuzzRuns, fuzzSeed, withPreview } from './fuzz-run';
import { bodyText, contentType, methodInProcess } from './hostile';
import {
  ADMIN,
  ANALYST,
  INTERFACES,
  OPS_OPERATIONS,
  OPS_QUERY_NAMES,
  basic,
  opsFingerprint,
  opsPathValue,
  opsQueryValue,
  opsWorld,
  plausibleOpsBody,
  resolveOps,
} from './ops-world';
import { materialise, targetPlan, type TargetPlan } from './spec-operations';
import {
  ALICE_KEY,
  BOB_KEY,
  MALLORY_KEY,
  STACK_OPERATIONS,
  bearer,
  plausibleStackBody,
  resolveStack,
  stackPathValue,
  stackQueryValue,
  stacksFingerprint,
  stacksWorld,
  userView,
} from './stacks-world';

// FUZZ_RUNS scales this file like the fuzz files (their default is a few hundred runs): 300 gives 15 per operation.
const RUNS_PER_OPERATION = Math.max(1, Math.round(fuzzRuns(300) / 20));

type Refusal = { label: string; authorization: string | undefined; expected: number };

const OPS_REFUSALS: Refusal[] = [
  { label: 'no credentials', authorization: undefined, expected: 401 },
  { label: 'wrong password', authorization: basic('admin', 'not-the-password'), expected: 401 },
  { label: 'unknown user', authorization: basic('intruder', 'ops-admin-demo'), expected: 401 },
  { label: 'read-only analyst', authorization: ANALYST, expected: 403 },
];

const STACK_REFUSALS: Refusal[] = [
  { label: 'no credentials', authorization: undefined, expected: 401 },
  { label: 'wrong key', authorization: bearer('stk_demo_alice_0000000000000000'), expected: 401 },
  { label: 'malformed header', authorization: `Bearer ${ALICE_KEY} ${ALICE_KEY}`, expected: 401 },
  { label: 'user not on the allow list', authorization: bearer(MALLORY_KEY), expected: 403 },
];

interface Case {
  refusal: Refusal;
  plan: TargetPlan;
  body: string;
  headers: Record<string, string>;
}

function withAuth(headers: Record<string, string>, authorization: string | undefined): Record<string, string> {
  const out = { ...headers };
  if (authorization !== undefined) out.authorization = authorization;
  return out;
}

const writes = <T extends { method: string }>(ops: T[]) => ops.filter((o) => o.method !== 'GET');

const OPS_WRITES = writes(OPS_OPERATIONS);
const STACK_WRITES = writes(STACK_OPERATIONS);

describe('ops: every write operation of the spec refuses callers who may not write, and changes nothing', () => {
  const accepted = { asAdmin: 0, generated: 0 };

  it.each(OPS_WRITES.map((op) => [`${op.method} ${op.template}`, op] as const))('%s', async (_name, op) => {
    const handler = opsWorld();
    const state = await opsFingerprint(handler);
    const cases = fc.record({
      refusal: fc.constantFrom(...OPS_REFUSALS),
      // Mostly well-formed targets: the refusal has to come from the caller, not from a broken path.
      plan: targetPlan(op, {
        pathValue: opsPathValue,
        queryValue: opsQueryValue,
        extraQueryNames: OPS_QUERY_NAMES,
        vlatestAfter: INTERFACES,
      }).filter((p) => p.mutation === 'none' || p.mutation === 'vlatest'),
      body: bodyText(plausibleOpsBody(op)),
      headers: contentType.map((t): Record<string, string> => (t === undefined ? {} : { 'content-type': t })),
    });
    await fc.assert(
      fc.asyncProperty(
        cases.map((c) =>
          withPreview(c, (v) => `${v.refusal.label} ${op.method} ${JSON.stringify(v.plan).slice(0, 300)} body ${v.body.slice(0, 80)}`),
        ),
        async (c: Case) => {
          const wire: WireRequest = {
            method: op.method,
            target: materialise(c.plan, resolveOps, INTERFACES),
            headers: withAuth(c.headers, c.refusal.authorization),
            body: c.body,
          };
          const out = await callHandler(handler, toApiRequest(wire));
          if (!out.ok) throw new Error(`threw for ${describeWire(wire)}`);
          // A refused caller learns nothing about the route: 401 comes first everywhere; the analyst may also meet a
          // 404/405 for a path that does not exist, but never a success.
          if (c.refusal.expected === 401) expect(out.res.status, describeWire(wire)).toBe(401);
          else expect([403, 404, 405], describeWire(wire)).toContain(out.res.status);
          expect(await opsFingerprint(handler), `${c.refusal.label} changed the state: ${describeWire(wire)}`).toBe(state);
          // The same request from the administrator, on a fresh state: shows how many of them would have written.
          const admin = await callHandler(opsWorld(), toApiRequest({ ...wire, headers: withAuth(c.headers, ADMIN) }));
          accepted.generated++;
          if (admin.ok && admin.res.status < 300) accepted.asAdmin++;
        },
      ),
      { numRuns: RUNS_PER_OPERATION, seed: fuzzSeed() },
    );
  });

  it('was not vacuous: many of the refused requests succeed for the administrator', () => {
    console.log(
      `ops access: ${accepted.generated} refused write requests over ${OPS_WRITES.length} operations; ${accepted.asAdmin} of them succeed when the administrator sends them`,
    );
    expect(accepted.asAdmin).toBeGreaterThan(accepted.generated / 10);
  });
});

describe('stacks: every write operation of the spec refuses callers who may not write, and changes nothing', () => {
  const accepted = { asAlice: 0, generated: 0 };

  it.each(STACK_WRITES.map((op) => [`${op.method} ${op.template}`, op] as const))('%s', async (_name, op) => {
    const world = await stacksWorld(2);
    const state = await stacksFingerprint(world.handler);
    const cases = fc.record({
      refusal: fc.constantFrom(...STACK_REFUSALS),
      plan: targetPlan(op, { pathValue: stackPathValue, queryValue: stackQueryValue, extraQueryNames: [] }).filter(
        (p) => p.mutation === 'none',
      ),
      body: bodyText(plausibleStackBody),
      headers: contentType.map((t): Record<string, string> => (t === undefined ? {} : { 'content-type': t })),
    });
    await fc.assert(
      fc.asyncProperty(
        cases.map((c) =>
          withPreview(c, (v) => `${v.refusal.label} ${op.method} ${JSON.stringify(v.plan).slice(0, 200)} body ${v.body.slice(0, 80)}`),
        ),
        async (c: Case) => {
          const wire: WireRequest = {
            method: op.method,
            target: materialise(c.plan, resolveStack(world)),
            headers: withAuth(c.headers, c.refusal.authorization),
            body: c.body,
          };
          const out = await callHandler(world.handler, toApiRequest(wire));
          if (!out.ok) throw new Error(`threw for ${describeWire(wire)}`);
          expect(out.res.status, describeWire(wire)).toBe(c.refusal.expected);
          expect(await stacksFingerprint(world.handler), `${c.refusal.label} changed the state: ${describeWire(wire)}`).toBe(state);
          const replay = await stacksWorld(2);
          const asOwner = await callHandler(
            replay.handler,
            toApiRequest({ ...wire, target: materialise(c.plan, resolveStack(replay)), headers: withAuth(c.headers, bearer(ALICE_KEY)) }),
          );
          accepted.generated++;
          if (asOwner.ok && asOwner.res.status < 300) accepted.asAlice++;
        },
      ),
      { numRuns: RUNS_PER_OPERATION * 4, seed: fuzzSeed() },
    );
  });

  it('was not vacuous: many of the refused requests succeed for the owner', () => {
    console.log(
      `stacks access: ${accepted.generated} refused write requests over ${STACK_WRITES.length} operations; ${accepted.asAlice} of them succeed when alice sends them`,
    );
    expect(accepted.asAlice).toBeGreaterThan(accepted.generated / 10);
  });
});

describe("stacks: no request of bob reads, changes or deletes alice's stacks", () => {
  // Stacks are RUNNING at once, so alice's reads carry access details (passwords) that bob must never see.
  const config = loadStacksConfig({ provisioningDelayMs: 0 });

  it('generated requests as bob aimed at alice’s stacks', async () => {
    const world = await stacksWorld(config.maxStacksPerUser, config);
    const aliceView = await userView(world.handler, ALICE_KEY);
    const secrets: string[] = [];
    for (const id of world.ids.alice) {
      const detail = await callHandler(world.handler, getRequest(`/v1/stacks/${id}`, { authorization: bearer(ALICE_KEY) }));
      if (!detail.ok) throw new Error('alice cannot read her stack');
      const password = (detail.res.body as { stackAccessDetails?: { password: string } }).stackAccessDetails?.password;
      expect(password).toBeTypeOf('string');
      secrets.push(password!);
    }
    // Path references resolve to alice's stacks whatever owner the plan names.
    const aimAtAlice = (_ref: string, index: number) => world.ids.alice[index % world.ids.alice.length]!;
    const op = fc.constantFrom(...STACK_OPERATIONS);
    const cases = op.chain((o) =>
      fc.record({
        method: fc.oneof({ weight: 4, arbitrary: fc.constant(o.method) }, { weight: 1, arbitrary: methodInProcess }),
        plan: targetPlan(o, { pathValue: stackPathValue, queryValue: stackQueryValue, extraQueryNames: ['owner', 'user', 'as'] }),
        body: bodyText(plausibleStackBody),
      }),
    );
    let sent = 0;
    await fc.assert(
      fc.asyncProperty(
        cases.map((c) => withPreview(c, (v) => `${v.method} ${JSON.stringify(v.plan).slice(0, 200)}`)),
        async (c) => {
          const wire: WireRequest = {
            method: c.method,
            target: materialise(c.plan, aimAtAlice),
            headers: { authorization: bearer(BOB_KEY) },
            body: c.body,
          };
          const out = await callHandler(world.handler, toApiRequest(wire));
          if (!out.ok) throw new Error(`threw for ${describeWire(wire)}`);
          sent++;
          const text = out.json ?? '';
          for (const s of secrets) expect(text.includes(s), `bob saw a password of alice: ${describeWire(wire)}`).toBe(false);
          if (out.res.status < 300)
            for (const id of world.ids.alice) expect(text.includes(id), `bob saw alice's stack ${id}: ${describeWire(wire)}`).toBe(false);
          expect(await userView(world.handler, ALICE_KEY), `alice's stacks changed after ${describeWire(wire)}`).toBe(aliceView);
        },
      ),
      { numRuns: RUNS_PER_OPERATION * 20, seed: fuzzSeed() },
    );
    // And directly: every one of alice's stacks is a 404 for bob, on read and on delete.
    for (const id of world.ids.alice) {
      for (const method of ['GET', 'DELETE', 'HEAD']) {
        const out = await callHandler(
          world.handler,
          toApiRequest({ method, target: `/v1/stacks/${id}`, headers: { authorization: bearer(BOB_KEY) }, body: '' }),
        );
        expect(out.ok && out.res.status, `${method} of alice's stack by bob`).toBe(404);
      }
    }
    expect(await userView(world.handler, ALICE_KEY)).toBe(aliceView);
    console.log(
      `bob vs alice: ${sent} generated requests as bob aimed at alice's ${world.ids.alice.length} stacks; alice's view unchanged, no id or password of hers in bob's answers`,
    );
  });
});
