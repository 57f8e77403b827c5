import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listen, type RunningServer } from '../../../reference-impl/http/server';
import { localhostTls } from '../../../reference-impl/http/tls';
import { opsErrorBody } from '../../../reference-impl/ops/handler';
import { stacksErrorBody } from '../../../reference-impl/stacks/errors';
import { ADMIN, EVENTS, ITOA, opsWorld } from './ops-world';
import { ALICE_KEY, STACKS_CONFIG, bearer, stacksWorld } from './stacks-world';
import { wireClient, type WireClient, type WireResponse } from './wire';

/** The HTTP layer's defaults (reference-impl/http/server.ts) and node's default header limit. */
const BODY_LIMIT = 1024 * 1024;
const URL_LIMIT = 8192;
const NODE_HEADER_LIMIT = 16 * 1024;

const json = (r: WireResponse) => JSON.parse(r.text) as unknown;

const isServiceError = (b: unknown, code: string) =>
  typeof b === 'object' &&
  b !== null &&
  (b as { code?: unknown }).code === code &&
  typeof (b as { message?: unknown }).message === 'string';

const isOpsError = (b: unknown) => typeof b === 'object' && b !== null && typeof (b as { message?: unknown }).message === 'string';

interface Api {
  name: string;
  client: () => WireClient;
  auth: string;
  /** A write target and a read target that shows whether the write happened. */
  writeTarget: string;
  readTarget: string;
  errorShape(status: number, body: unknown): boolean;
}

let stacksServer: RunningServer;
let opsServer: RunningServer;

beforeAll(async () => {
  stacksServer = await listen((await stacksWorld(0)).handler, { errorBody: stacksErrorBody });
  opsServer = await listen(opsWorld(), { errorBody: opsErrorBody, tls: localhostTls() });
});

afterAll(async () => {
  await stacksServer.close();
  await opsServer.close();
});

const STACK_CODES: Record<number, string> = { 413: 'PayloadTooLarge', 414: 'UriTooLong', 431: 'RequestHeaderFieldsTooLarge' };

const APIS: Api[] = [
  {
    name: 'stacks',
    client: () => wireClient(stacksServer.url, 64),
    auth: bearer(ALICE_KEY),
    writeTarget: '/v1/stacks',
    readTarget: '/v1/stacks',
    errorShape: (status, body) => isServiceError(body, STACK_CODES[status] ?? ''),
  },
  {
    name: 'ops (HTTPS)',
    client: () => wireClient(opsServer.url, 64),
    auth: ADMIN,
    writeTarget: `${ITOA}/entity`,
    readTarget: `${ITOA}/entity`,
    errorShape: (_status, body) => isOpsError(body),
  },
];

describe.each(APIS)('$name through listen(): transport limits', (api) => {
  let client: WireClient;
  beforeAll(() => {
    client = api.client();
  });
  afterAll(() => client.close());

  const read = async () =>
    (await client.send({ method: 'GET', target: api.readTarget, headers: { authorization: api.auth }, body: '' })).text;
  // A body padded to exactly `size` bytes that is valid JSON, so only its size can make it a 413.
  const padded = (size: number) => {
    const head = '{"title":"limit","pad":"';
    return `${head}${'a'.repeat(size - head.length - 2)}"}`;
  };

  it('a body one byte over the limit is a 413 with the API error body, declared or chunked; nothing is written', async () => {
    const state = await read();
    for (const chunked of [false, true]) {
      const res = await client.send({
        method: 'POST',
        target: api.writeTarget,
        headers: { authorization: api.auth, 'content-type': 'application/json' },
        body: padded(BODY_LIMIT + 1),
        chunked,
      });
      expect(res.status, `chunked=${chunked}`).toBe(413);
      expect(api.errorShape(413, json(res)), res.text).toBe(true);
      expect(res.ms).toBeLessThan(1000);
    }
    expect(await read()).toBe(state);
  });

  it('a body of exactly the limit is read and judged by the API (not a 413)', async () => {
    const res = await client.send({
      method: 'POST',
      target: api.writeTarget,
      headers: { authorization: api.auth },
      body: padded(BODY_LIMIT),
    });
    expect(res.status).not.toBe(413);
    expect(res.status).toBeLessThan(500);
  });

  it('a request target over the limit is a 414 with the API error body; at the limit it is served', async () => {
    const base = `${api.readTarget}?pad=`;
    const over = await client.send({
      method: 'GET',
      target: base + 'a'.repeat(URL_LIMIT + 1 - base.length),
      headers: { authorization: api.auth },
      body: '',
    });
    expect(over.status).toBe(414);
    expect(api.errorShape(414, json(over)), over.text).toBe(true);
    const at = await client.send({
      method: 'GET',
      target: base + 'a'.repeat(URL_LIMIT - base.length),
      headers: { authorization: api.auth },
      body: '',
    });
    expect(at.status).toBe(200);
  });

  it('header fields over node’s limit are a 431 with the API error body, and the server keeps serving', async () => {
    const res = await client.send({
      method: 'GET',
      target: api.readTarget,
      headers: { authorization: api.auth, 'x-pad': 'h'.repeat(NODE_HEADER_LIMIT + 1024) },
      body: '',
    });
    expect(res.status).toBe(431);
    expect(api.errorShape(431, json(res)), res.text).toBe(true);
    const after = await client.send({ method: 'GET', target: api.readTarget, headers: { authorization: api.auth }, body: '' });
    expect(after.status).toBe(200);
  });
});

describe('ops: a catastrophic regular expression filter', () => {
  const client = () => wireClient(opsServer.url, 8);
  // `(a+)+$` against many a's and a final mismatch backtracks exponentially on a backtracking engine.
  const evil = 'a'.repeat(100_000);
  const patterns = ['(a+)+$', '^(a|a)*$', '(a*)*b', '^(a+)+b', '(.*a){25}x'];

  it('against objects holding 100k-character titles answers in < 1 s on list, count and event lists', async () => {
    const c = client();
    try {
      const created: Record<string, string> = {};
      for (const [name, title] of [
        ['mismatch', `${evil}!`],
        ['match', evil],
      ] as const) {
        const res = await c.send({
          method: 'POST',
          target: `${ITOA}/service`,
          headers: { authorization: ADMIN },
          body: JSON.stringify({ title, description: title }),
        });
        expect(res.status).toBe(200);
        created[name] = (json(res) as { _key: string })._key;
      }
      const ev = await c.send({
        method: 'POST',
        target: `${EVENTS}/notable_event_group`,
        headers: { authorization: ADMIN },
        body: JSON.stringify({ title: `${evil}!` }),
      });
      expect(ev.status).toBe(200);
      const timings: string[] = [];
      for (const pattern of patterns) {
        const filter = encodeURIComponent(JSON.stringify({ title: { $regex: pattern } }));
        for (const target of [
          `${ITOA}/service?filter=${filter}`,
          `${ITOA}/service/count?filter=${filter}`,
          `${EVENTS}/notable_event_group?filter_data=${filter}`,
          `${ITOA}/service?filter=${encodeURIComponent(JSON.stringify({ title: { $not: { $regex: pattern } } }))}`,
        ]) {
          const res = await c.send({ method: 'GET', target, headers: { authorization: ADMIN }, body: '' });
          expect(res.status, target).toBe(200);
          expect(res.ms, `${pattern} on ${target.slice(0, 80)}`).toBeLessThan(1000);
          timings.push(res.ms.toFixed(0));
        }
        // The filter still means what it says: `(a+)+$` matches the all-a title and not the one ending in `!`.
        if (pattern === '(a+)+$') {
          const res = await c.send({
            method: 'GET',
            target: `${ITOA}/service?fields=_key&filter=${filter}`,
            headers: { authorization: ADMIN },
            body: '',
          });
          const keys = (json(res) as { _key: string }[]).map((r) => r._key);
          expect(keys).toContain(created.match);
          expect(keys).not.toContain(created.mismatch);
        }
      }
      console.log(`catastrophic regex filters over 100k-character titles: ${patterns.length * 4} requests, ms each: ${timings.join(' ')}`);
    } finally {
      c.close();
    }
  });
});

describe('ops: bounds the reference sets where the document names none', () => {
  const nested = (depth: number) => `${'{"a":'.repeat(depth - 1)}{}${'}'.repeat(depth - 1)}`;

  it('a body nested 100 levels is stored; 101 levels (or 5000) is a 400 that writes nothing', async () => {
    const c = wireClient(opsServer.url, 4);
    try {
      const count = async () =>
        (
          json(await c.send({ method: 'GET', target: `${ITOA}/deep_dive/count`, headers: { authorization: ADMIN }, body: '' })) as {
            count: number;
          }
        ).count;
      const before = await count();
      // The body object is level 1, so `cf` holds 99 more levels.
      const ok = await c.send({
        method: 'POST',
        target: `${ITOA}/deep_dive`,
        headers: { authorization: ADMIN },
        body: `{"title":"deep","cf":${nested(99)}}`,
      });
      expect(ok.status, ok.text).toBe(200);
      for (const depth of [100, 5000]) {
        const res = await c.send({
          method: 'POST',
          target: `${ITOA}/deep_dive`,
          headers: { authorization: ADMIN },
          body: `{"title":"deeper","cf":${nested(depth)}}`,
        });
        expect(res.status, res.text).toBe(400);
        expect(isOpsError(json(res))).toBe(true);
      }
      expect(await count()).toBe(before + 1);
    } finally {
      c.close();
    }
  });

  it('a ticket links to at most 1000 episodes per call: 1000 within 1 s, 1001 is a 400', async () => {
    const c = wireClient(opsServer.url, 4);
    const ticket = { ticket_system: 'Bulk', ticket_id: 'B-1', ticket_url: 'https://tickets.example.test/B-1' };
    const ids = (n: number, prefix: string) => Array.from({ length: n }, (_, i) => `${prefix}${i}`).join(',');
    try {
      const ok = await c.send({
        method: 'POST',
        target: `${EVENTS}/ticketing`,
        headers: { authorization: ADMIN },
        body: JSON.stringify({ id: ids(1000, 'bulk-ok-'), ...ticket }),
      });
      expect(ok.status, ok.text).toBe(200);
      expect(ok.ms).toBeLessThan(1000);
      const over = await c.send({
        method: 'POST',
        target: `${EVENTS}/ticketing`,
        headers: { authorization: ADMIN },
        body: JSON.stringify({ id: ids(1001, 'bulk-over-'), ...ticket }),
      });
      expect(over.status, over.text).toBe(400);
      const linked = await c.send({
        method: 'GET',
        target: `${EVENTS}/ticketing/bulk-over-0?ids=bulk-over-1000`,
        headers: { authorization: ADMIN },
        body: '',
      });
      expect(json(linked)).toEqual([]);
    } finally {
      c.close();
    }
  });
});

describe('concurrency through listen()', () => {
  it('50 concurrent creates by one stack user never exceed the per-user limit', async () => {
    const world = await stacksWorld(0);
    const server = await listen(world.handler, { errorBody: stacksErrorBody });
    const c = wireClient(server.url, 50);
    try {
      const results = await Promise.all(
        Array.from({ length: 50 }, () =>
          c.send({
            method: 'POST',
            target: '/v1/stacks',
            headers: { authorization: bearer(ALICE_KEY), 'content-type': 'application/json' },
            body: '{}',
          }),
        ),
      );
      const accepted = results.filter((r) => r.status === 202).map((r) => (json(r) as { id: string }).id);
      const refused = results.filter((r) => r.status === 409);
      expect(accepted.length + refused.length).toBe(50);
      expect(accepted.length).toBe(STACKS_CONFIG.maxStacksPerUser);
      for (const r of refused) expect(isServiceError(json(r), 'MaxStacksLimitReached')).toBe(true);
      const list = await c.send({ method: 'GET', target: '/v1/stacks', headers: { authorization: bearer(ALICE_KEY) }, body: '' });
      const listed = (json(list) as { stacks: { id: string }[] }).stacks.map((s) => s.id);
      expect(listed.sort()).toEqual([...accepted].sort());
      console.log(
        `50 concurrent creates: ${accepted.length} accepted (limit ${STACKS_CONFIG.maxStacksPerUser}), ${refused.length} answered 409; slowest ${Math.max(...results.map((r) => r.ms)).toFixed(0)} ms`,
      );
    } finally {
      c.close();
      await server.close();
    }
  });

  it('50 concurrent partial updates to one ops object lose no accepted field', async () => {
    const server = await listen(opsWorld(), { errorBody: opsErrorBody, tls: localhostTls() });
    const c = wireClient(server.url, 50);
    const target = `${ITOA}/service/svc_web_store`;
    try {
      const before = json(await c.send({ method: 'GET', target, headers: { authorization: ADMIN }, body: '' })) as Record<string, unknown>;
      const fields = Array.from({ length: 50 }, (_, i) => `cf_field_${String(i).padStart(2, '0')}`);
      const results = await Promise.all(
        fields.map((f, i) =>
          c.send({
            method: 'POST',
            target: `${target}?is_partial_data=1`,
            headers: { authorization: ADMIN, 'content-type': 'application/json' },
            body: JSON.stringify({ [f]: `value ${i}` }),
          }),
        ),
      );
      const accepted = fields.filter((_, i) => results[i]!.status === 200);
      expect(accepted).toHaveLength(50);
      const after = json(await c.send({ method: 'GET', target, headers: { authorization: ADMIN }, body: '' })) as Record<string, unknown>;
      for (const [i, f] of fields.entries()) expect(after[f], f).toBe(`value ${i}`);
      // The partial updates kept everything else.
      expect(after.title).toBe(before.title);
      expect(after.kpis).toEqual(before.kpis);
      console.log(
        `50 concurrent partial updates: ${accepted.length} accepted, all ${fields.length} fields present afterwards; slowest ${Math.max(...results.map((r) => r.ms)).toFixed(0)} ms`,
      );
    } finally {
      c.close();
      await server.close();
    }
  });
});
