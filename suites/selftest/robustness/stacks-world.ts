import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { loadStacksConfig, type StacksConfig } from '../../../reference-impl/stacks/config';
import { createStacksHandler } from '../../../reference-impl/stacks/handler';
import type { ApiHandler } from '../../../reference-impl/http/types';
import { callHandler, getRequest, toApiRequest } from './api-request';
import { contentType, extraHeaders, oddShortString, oddString, oddValue } from './hostile';
import { loadOperations, segmentValue, type SegmentPlan, type SpecOperation } from './spec-operations';

export const STACKS_CONFIG: StacksConfig = loadStacksConfig();
export const STACK_OPERATIONS: SpecOperation[] = loadOperations('specs/stacks.openapi.yaml');

const keyOf = (name: string) => STACKS_CONFIG.users.find((u) => u.name === name)!.apiKey;
export const ALICE_KEY = keyOf('alice');
export const BOB_KEY = keyOf('bob');
export const MALLORY_KEY = keyOf('mallory');

/** Users whose stacks exist: `{ref: owner}` path values resolve to one of their stack ids. */
export const OWNERS = ['alice', 'bob'] as const;
type Owner = (typeof OWNERS)[number];

export const bearer = (key: string) => `Bearer ${key}`;

/** The Authorization header of a credential variant, or undefined to send none. */
const stackCredential: fc.Arbitrary<string | undefined> = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(bearer(ALICE_KEY), bearer(BOB_KEY)) },
  { weight: 1, arbitrary: fc.constant(bearer(MALLORY_KEY)) },
  { weight: 1, arbitrary: fc.constant(undefined) },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      'Bearer',
      'Bearer ',
      `bearer ${ALICE_KEY}`,
      `Bearer  ${BOB_KEY}  `,
      `Bearer ${ALICE_KEY} extra`,
      `Bearer ${ALICE_KEY.toUpperCase()}`,
      `Bearer ${ALICE_KEY.slice(0, -1)}`,
      'Bearer stk_demo_nobody_0000',
      `Basic ${Buffer.from(`alice:${ALICE_KEY}`).toString('base64')}`,
      `Token ${ALICE_KEY}`,
      `${ALICE_KEY}`,
      'Bearer \u0000',
      `Bearer ${'A'.repeat(5000)}`,
    ),
  },
);

/** A fixed clock: stack states and expiry must not move between two fingerprints. */
const FROZEN_NOW = Date.parse('2030-01-01T00:00:00.000Z');

export interface StacksWorld {
  handler: ApiHandler;
  /** Stack ids by owner, as created before the run (some may be deleted by the run). */
  ids: Record<Owner, string[]>;
}

/** A fresh handler on a frozen clock, with `perUser` stacks created for alice and bob. */
export async function stacksWorld(perUser = 2, config: StacksConfig = STACKS_CONFIG): Promise<StacksWorld> {
  const handler = createStacksHandler(config, { now: () => FROZEN_NOW });
  const ids: Record<Owner, string[]> = { alice: [], bob: [] };
  for (const owner of OWNERS) {
    for (let i = 0; i < perUser; i++) {
      const out = await callHandler(
        handler,
        toApiRequest({ method: 'POST', target: '/v1/stacks', headers: { authorization: bearer(keyOf(owner)) }, body: '{}' }),
      );
      if (!out.ok || out.res.status !== 202) throw new Error(`could not create a stack for ${owner}`);
      ids[owner].push((out.res.body as { id: string }).id);
    }
  }
  return { handler, ids };
}

/** What one user can read: the list, every listed stack's detail and the versions. */
export async function userView(handler: ApiHandler, key: string): Promise<string> {
  const headers = { authorization: bearer(key) };
  const parts: string[] = [];
  const read = async (target: string) => {
    const out = await callHandler(handler, getRequest(target, headers));
    if (!out.ok) throw new Error(`fingerprint GET ${target} threw`);
    parts.push(`${target} ${out.res.status} ${out.json ?? ''}`);
    return out.res;
  };
  const list = await read('/v1/stacks');
  await read('/v1/stacks/versions');
  const stacks = (list.body as { stacks?: { id: string }[] } | undefined)?.stacks ?? [];
  for (const s of stacks) await read(`/v1/stacks/${encodeURIComponent(s.id)}`);
  return parts.join('\n');
}

/** A digest of every list endpoint (and every listed stack) for every user. */
export async function stacksFingerprint(handler: ApiHandler): Promise<string> {
  const views: string[] = [];
  for (const u of STACKS_CONFIG.users) views.push(`${u.name}\n${await userView(handler, u.apiKey)}`);
  return createHash('sha256').update(views.join('\n\n')).digest('hex');
}

const versions = STACKS_CONFIG.versions.map((v) => v.buildVersion);

/** Path parameter values: a stack of alice or bob (resolved at run time), or odd text. */
export function stackPathValue(): fc.Arbitrary<SegmentPlan> {
  const existing = fc.record({ ref: fc.constantFrom<string>(...OWNERS), index: fc.nat(3) });
  return segmentValue(
    fc.oneof(existing, fc.constantFrom('versions', 'does-not-exist', '00000000-0000-4000-8000-000000000000')),
    oddShortString,
  );
}

export const stackQueryValue = (): fc.Arbitrary<string> => fc.oneof(fc.constantFrom('1', '0', 'true', ''), oddShortString);

/** Bodies close to a create request: the default, every version, and odd values where the version belongs. */
export const plausibleStackBody: fc.Arbitrary<Record<string, unknown> | unknown[]> = fc.oneof(
  { weight: 3, arbitrary: fc.constant({}) },
  { weight: 3, arbitrary: fc.record({ platformVersion: fc.constantFrom(...versions) }) },
  { weight: 3, arbitrary: fc.record({ platformVersion: oddValue(fc.oneof(fc.constantFrom(...versions), oddString)) }) },
  {
    weight: 2,
    arbitrary: fc.dictionary(
      fc.oneof(fc.constantFrom('platformVersion', 'name', 'id', 'state', '__proto__', 'constructor'), fc.string({ maxLength: 6 })),
      oddValue(oddString),
      { maxKeys: 4 },
    ),
  },
  { weight: 1, arbitrary: fc.array(oddValue(oddString), { maxLength: 3 }) },
);

/** Header sets: a credential variant, a content type, odd extra headers. */
export const stackHeaders: fc.Arbitrary<Record<string, string>> = fc
  .tuple(stackCredential, contentType, extraHeaders, fc.boolean())
  .map(([auth, type, extra, capitalised]) => {
    const headers: Record<string, string> = { ...extra };
    if (type !== undefined) headers['content-type'] = type;
    if (auth !== undefined) headers[capitalised ? 'Authorization' : 'authorization'] = auth;
    return headers;
  });

/** Resolves `{ref: owner, index}` to one of that owner's stacks, or a fresh id once the index runs past them. */
export function resolveStack(world: StacksWorld) {
  return (ref: string, index: number): string => {
    const ids = world.ids[ref as Owner] ?? [];
    return ids[index] ?? '4a1b2c3d-0000-4000-8000-00000000beef';
  };
}
