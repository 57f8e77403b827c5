import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { opsErrorBody } from '../../../reference-impl/ops/handler';
import { toApiRequest, type WireRequest } from './api-request';
import {
  checkedSequence,
  describeWire,
  fuzzRuns,
  fuzzSeed,
  inProcessStep,
  newStats,
  summary,
  wireStep,
  type ResponseCheck,
} from './fuzz-run';
import { canCollect, mb, settledHeap } from './heap';
import { hostileVariants, methodInProcess, methodOnWire } from './hostile';
import {
  ADMIN,
  ANALYST,
  INTERFACES,
  basic,
  canonicalOpsTarget,
  OPS_CONFIG,
  OPS_OPERATIONS,
  OPS_QUERY_NAMES,
  opsFingerprint,
  opsHeaders,
  opsPathValue,
  opsQueryValue,
  opsWorld,
  plausibleOpsBody,
  resolveOps,
} from './ops-world';
import { describeOverSockets } from './over-sockets';
import { plannedRequest, socketRuns, toWire as toWireAt, type PlannedRequest, type RequestSpace } from './planned-request';

const RUNS = fuzzRuns(200);
const SOCKET_RUNS = socketRuns(RUNS);
const LONG_LIVED_REQUESTS = RUNS;

const STRAY_TARGETS = [
  '/',
  '*',
  '/servicesNS',
  '/servicesNS/nobody/SA-ITOA',
  '/servicesNS/nobody/SA-ITOA/unknown_interface/entity',
  '/servicesNS/nobody/SA-ITOA/itoa_interface/vLatest/vLatest/entity',
  '/services/SA-ITOA/v2/icon_collection',
  '/servicesNS/%2F/SA-ITOA/itoa_interface/entity',
  'https://other.test/servicesNS/nobody/SA-ITOA/itoa_interface/entity',
  '/servicesNS/nobody/SA-ITOA/itoa_interface/__proto__/constructor',
  '/servicesNS/nobody/SA-ITOA/itoa_interface/entity/../team',
];

const SPACE: RequestSpace = {
  operations: OPS_OPERATIONS,
  target: { pathValue: opsPathValue, queryValue: opsQueryValue, extraQueryNames: OPS_QUERY_NAMES, vlatestAfter: INTERFACES },
  headers: opsHeaders,
  body: plausibleOpsBody,
  strayTargets: STRAY_TARGETS,
  strayBody: fc.constant({ title: 't' }),
  templatedWeight: 15,
};
const planned = (method: fc.Arbitrary<string>) => plannedRequest(SPACE, method);
const toWire = (p: PlannedRequest) => toWireAt(p, resolveOps, INTERFACES);

/** Episode ids a ticketing request may have linked tickets to, so the fingerprint reads their links too. */
function touchedEventIds(wire: WireRequest, into: Set<string>): void {
  if (!wire.target.includes('ticketing')) return;
  const req = toApiRequest(wire);
  const parts: string[] = [];
  const segments = req.path.split('/');
  const at = segments.indexOf('ticketing');
  if (at !== -1 && segments[at + 1] !== undefined) {
    try {
      parts.push(decodeURIComponent(segments[at + 1]!));
    } catch {
      // Not a valid encoding: the router answers 404 for it.
    }
  }
  for (const name of ['id', 'ids']) parts.push(...req.query.getAll(name));
  if (typeof req.body === 'object' && req.body !== null) {
    for (const name of ['id', 'ids']) {
      const v = (req.body as Record<string, unknown>)[name];
      if (typeof v === 'string') parts.push(v);
    }
  }
  for (const p of parts) for (const id of p.split(',')) if (id.trim() !== '') into.add(id.trim());
}

const USERS = new Map(OPS_CONFIG.users.map((u) => [u.name, u]));

/** The user valid basic credentials name (RFC 7617), if any. */
function caller(headers: Record<string, string>) {
  const value = Object.entries(headers).find(([n]) => n.toLowerCase() === 'authorization')?.[1];
  const encoded = value === undefined ? undefined : /^Basic[ \t]+([A-Za-z0-9+/]+={0,2})[ \t]*$/i.exec(value)?.[1];
  if (encoded === undefined) return undefined;
  const decoded = Buffer.from(encoded, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon === -1) return undefined;
  const user = USERS.get(decoded.slice(0, colon));
  return user !== undefined && user.password === decoded.slice(colon + 1) ? user : undefined;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

const checkOps: ResponseCheck = (wire, status, body, headers) => {
  const problems: string[] = [];
  if (status >= 400) {
    // The document does not show error bodies; the reference answers the platform's shapes.
    const platform401 =
      status === 401 &&
      isRecord(body) &&
      Array.isArray(body.messages) &&
      body.messages.every((m) => isRecord(m) && typeof m.text === 'string');
    const plain = isRecord(body) && typeof body.message === 'string' && body.message.length > 0;
    if (!platform401 && !plain) problems.push(`error body has neither shape: ${JSON.stringify(body)?.slice(0, 200)}`);
  }
  if (status === 405 && typeof headers.allow !== 'string') problems.push('405 without an Allow header');
  if (status === 204 && body !== undefined) problems.push('204 with a body');
  if (![413, 414, 431].includes(status)) {
    const user = caller(wire.headers);
    if (user === undefined && status !== 401) problems.push(`no valid credentials but ${status}`);
    if (user !== undefined && status === 401) problems.push(`valid credentials of ${user.name} but 401`);
    if (user?.readOnly && WRITES.has(wire.method.toUpperCase()) && status < 400)
      problems.push(`read-only ${user.name} got ${status} for a ${wire.method}`);
  }
  return problems;
};

describe('ops API reference under generated requests', () => {
  it(`in-process: no 5xx, no throw, < 1 s, rejected requests change nothing (${RUNS} runs)`, async () => {
    const stats = newStats();
    const heapBefore = await settledHeap();
    await fc.assert(
      fc.asyncProperty(fc.array(planned(methodInProcess), { minLength: 1, maxLength: 4 }), async (plans) => {
        const handler = opsWorld();
        const wires = plans.map(toWire);
        const ids = new Set<string>();
        for (const w of wires) touchedEventIds(w, ids);
        await checkedSequence(
          wires,
          (w) => inProcessStep(handler, w, checkOps, stats),
          () => opsFingerprint(handler, ids),
        );
      }),
      { numRuns: RUNS, seed: fuzzSeed() },
    );
    const growth = (await settledHeap()) - heapBefore;
    console.log(summary('ops in-process', RUNS, stats));
    console.log(`ops in-process: heap growth after the run ${mb(growth)} MB (bound 64 MB; gc ${canCollect ? 'forced' : 'not available'})`);
    expect(growth).toBeLessThan(64 * 1024 * 1024);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('every operation with a body, as admin, with every hostile variant of its examples', async () => {
    const stats = newStats();
    const withBodies = OPS_OPERATIONS.filter((o) => o.bodyExamples.some((e) => typeof e === 'object' && e !== null));
    // Fresh handlers on the frozen clock start from the same state, so its fingerprint is taken once per id set.
    const pristine = new Map<string, string>();
    const pristineFor = async (ids: Set<string>) => {
      const key = [...ids].join(',');
      if (!pristine.has(key)) pristine.set(key, await opsFingerprint(opsWorld(), ids));
      return pristine.get(key)!;
    };
    let variants = 0;
    for (const op of withBodies) {
      const partial = op.queryParams.some((p) => p.name === 'is_partial_data');
      const bodies = op.bodyExamples
        .filter((e): e is Record<string, unknown> | unknown[] => typeof e === 'object' && e !== null)
        .flatMap((e) => hostileVariants(e));
      let handler = opsWorld();
      for (const [i, v] of bodies.entries()) {
        const wire: WireRequest = {
          method: op.method,
          target: `${canonicalOpsTarget(op)}${partial ? `?is_partial_data=${i % 2}` : ''}`,
          headers: { authorization: ADMIN, 'content-type': 'application/json' },
          body: v.text,
        };
        const ids = new Set<string>();
        touchedEventIds(wire, ids);
        const status = await inProcessStep(handler, wire, checkOps, stats);
        if (status >= 400)
          expect(await opsFingerprint(handler, ids), `${v.name}: rejected with ${status} but changed the state`).toBe(
            await pristineFor(ids),
          );
        // A fresh state after each accepted variant: stored megabyte bodies would slow every later fingerprint.
        else handler = opsWorld();
        variants++;
      }
    }
    console.log(summary('ops hostile corpus (one request per run)', variants, stats));
  });

  it(`one long-lived handler: a second pass of ${LONG_LIVED_REQUESTS} refused requests retains no memory`, async () => {
    const handler = opsWorld();
    // Generated requests made refusable whatever their target and body: no or wrong credentials, or the read-only
    // user writing. Whatever they carry (1 MB strings, deep nesting, 100k arrays), they must leave nothing behind.
    const refusing = fc.oneof(
      fc.record({
        auth: fc.constantFrom<string | undefined>(undefined, basic('admin', 'wrong'), basic('nobody', 'x'), 'Basic !!!!'),
        method: methodInProcess,
      }),
      fc.record({ auth: fc.constant<string | undefined>(ANALYST), method: fc.constantFrom('POST', 'PUT', 'DELETE', 'PATCH') }),
    );
    const refused = fc
      .sample(fc.tuple(planned(methodInProcess), refusing), { numRuns: LONG_LIVED_REQUESTS, seed: 20261122 })
      .map(([p, r]) => {
        const headers = { ...p.headers };
        delete headers.authorization;
        if (r.auth !== undefined) headers.authorization = r.auth;
        return toWire({ ...p, method: r.method, headers });
      });
    const stats = newStats();
    const state = await opsFingerprint(handler);
    const pass = async () => {
      for (const [i, wire] of refused.entries()) {
        const status = await inProcessStep(handler, wire, checkOps, stats);
        expect(status, describeWire(wire)).toBeGreaterThanOrEqual(400);
        if (i % 50 === 0) expect(await opsFingerprint(handler), `state changed by ${describeWire(wire)}`).toBe(state);
      }
      expect(await opsFingerprint(handler)).toBe(state);
    };
    await pass();
    const heapBefore = await settledHeap();
    await pass();
    const growth = (await settledHeap()) - heapBefore;
    console.log(summary('ops long-lived (refused)', 2, stats));
    console.log(`ops long-lived: heap growth ${mb(growth)} MB over a second pass of ${refused.length} refused requests (bound 16 MB)`);
    expect(growth).toBeLessThan(16 * 1024 * 1024);
  });

  describeOverSockets(
    'ops',
    opsErrorBody,
    SOCKET_RUNS,
    fc.array(planned(methodOnWire), { minLength: 1, maxLength: 4 }),
    async (plans, client, stats, serve) => {
      const handler = opsWorld();
      serve(handler);
      const wires = plans.map(toWire);
      const ids = new Set<string>();
      for (const w of wires) touchedEventIds(w, ids);
      await checkedSequence(
        wires,
        (w) => wireStep(client, w, checkOps, stats),
        () => opsFingerprint(handler, ids),
      );
    },
  );
});
