import request, { type Response } from 'supertest';
import { afterEach, describe, expect, it } from 'vitest';
import { listen, type RunningServer } from '../http/server';
import type { ApiHandler } from '../http/types';
import { compareBuildVersions, latestReleased, loadStacksConfig, type StacksConfig } from './config';
import { stacksErrorBody } from './errors';
import { createStacksHandler } from './handler';
import { stacksClient, type CallOptions } from './test-client';

const config = loadStacksConfig();
const key = (name: string) => config.users.find((u) => u.name === name)!.apiKey;
const ALICE = key('alice');
const BOB = key('bob');
const MALLORY = key('mallory');
const ISO_Z = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

function setup(overrides: Partial<StacksConfig> = {}) {
  let now = Date.parse('2030-01-01T00:00:00.000Z');
  const handler = createStacksHandler({ ...config, ...overrides }, { now: () => now });
  /** Without a key unless one is given. */
  const send = stacksClient(handler);
  /** As alice unless another key is given. */
  const call = (method: string, path: string, opts: CallOptions = {}) => send(method, path, { key: ALICE, ...opts });
  const create = (opts: CallOptions = {}) => call('POST', '/v1/stacks', { body: '{}', ...opts });
  return { send, call, create, advance: (ms: number) => (now += ms), now: () => now };
}

function expectError(res: Response, status: number, code: string) {
  expect(res.status).toBe(status);
  expect(res.body).toEqual({ code, message: expect.any(String) });
  expect((res.body as { message: string }).message.length).toBeGreaterThan(0);
}

describe('fixture', () => {
  it('has an unsorted version list whose newest entry is unreleased', () => {
    const builds = config.versions.map((v) => v.buildVersion);
    expect([...builds].sort(compareBuildVersions)).not.toEqual(builds);
    const newest = [...config.versions].sort((a, b) => compareBuildVersions(b.buildVersion, a.buildVersion))[0]!;
    expect(newest.status).toBe('unreleased');
    const latest = latestReleased(config.versions)!;
    expect(latest.buildVersion).not.toBe(config.versions[0]!.buildVersion);
    expect(latest.buildVersion).not.toBe(config.versions.at(-1)!.buildVersion);
    // A string comparison would pick a different version, so a non-numeric ordering shows.
    const lexical = config.versions
      .filter((v) => v.status === 'released')
      .map((v) => v.buildVersion)
      .sort()
      .at(-1);
    expect(lexical).not.toBe(latest.buildVersion);
  });

  it('compares build versions numerically by part', () => {
    expect(compareBuildVersions('10.10.0', '10.9.9')).toBe(1);
    expect(compareBuildVersions('9.14.3', '10.2.1')).toBe(-1);
    expect(compareBuildVersions('1.2', '1.2.0')).toBe(0);
  });
});

describe('authentication', () => {
  const paths: [string, string][] = [
    ['GET', '/v1/stacks'],
    ['POST', '/v1/stacks'],
    ['GET', '/v1/stacks/versions'],
    ['GET', '/v1/stacks/some-id'],
    ['DELETE', '/v1/stacks/some-id'],
    ['GET', '/v1/stacks/a/b'],
    ['PUT', '/v1/stacks'],
  ];

  it.each(paths)('%s %s without a key is 401 Unauthorized', async (method, path) => {
    const { send } = setup();
    expectError(await send(method, path), 401, 'Unauthorized');
  });

  it.each([['Bearer'], ['Bearer '], ['Basic YWxpY2U6eA=='], [`Token ${ALICE}`], [`Bearer ${ALICE} extra`]])(
    'malformed header %j is 401',
    async (value) => {
      const { send } = setup();
      expectError(await send('GET', '/v1/stacks', { headers: { authorization: value } }), 401, 'Unauthorized');
    },
  );

  it('an unknown key is 401', async () => {
    const { call } = setup();
    expectError(await call('GET', '/v1/stacks', { key: 'stk_demo_nobody_0000' }), 401, 'Unauthorized');
  });

  it('accepts the scheme in any case', async () => {
    const { send } = setup();
    const res = await send('GET', '/v1/stacks', { headers: { authorization: `bearer ${ALICE}` } });
    expect(res.status).toBe(200);
  });

  it.each(paths)('%s %s with a known key of a user not allowed is 403 Forbidden', async (method, path) => {
    const { call } = setup();
    expectError(await call(method, path, { key: MALLORY, body: '{}' }), 403, 'Forbidden');
  });
});

describe('create', () => {
  it('returns 202 with a StackSummary on the latest released version by default', async () => {
    const { create, now } = setup();
    const res = await create();
    expect(res.status).toBe(202);
    const body = res.body as Record<string, string>;
    expect(Object.keys(body).sort()).toEqual(['createdAt', 'id', 'name', 'platformVersion', 'state', 'terminationDate']);
    expect(body.id).toMatch(UUID);
    expect(body.name).toBe(`stack-${body.id!.slice(0, 8)}`);
    expect(body.state).toBe('CREATING');
    expect(body.platformVersion).toBe('10.10.4');
    expect(body.createdAt).toMatch(ISO_Z);
    expect(body.terminationDate).toMatch(ISO_Z);
    expect(Date.parse(body.createdAt!)).toBe(now());
    expect(Date.parse(body.terminationDate!) - Date.parse(body.createdAt!)).toBe(config.lifetimeMinutes * 60_000);
  });

  it('uses the default when platformVersion is omitted among other fields, ignoring unknown fields', async () => {
    const { create } = setup();
    const res = await create({ body: '{"name":"mine","extra":[1,2],"__proto__":{"platformVersion":"x"}}' });
    expect(res.status).toBe(202);
    expect((res.body as { platformVersion: string }).platformVersion).toBe('10.10.4');
  });

  it('accepts every listed version explicitly, unreleased included', async () => {
    const { create } = setup({ maxStacksPerUser: 100 });
    for (const v of config.versions) {
      const res = await create({ body: JSON.stringify({ platformVersion: v.buildVersion }) });
      expect(res.status).toBe(202);
      expect((res.body as { platformVersion: string }).platformVersion).toBe(v.buildVersion);
    }
  });

  it.each(['99.0.0', '', ' 10.10.4', '10.10', 'ünïcødé "quoted"'])('rejects unknown version %j with its name in the message', async (v) => {
    const { create } = setup();
    const res = await create({ body: JSON.stringify({ platformVersion: v }) });
    expectError(res, 400, 'InvalidRequest');
    expect((res.body as { message: string }).message).toContain(v === '' ? '""' : v);
  });

  it.each([
    ['invalid JSON', '{"platformVersion":'],
    ['empty body', ''],
    ['an array', '[]'],
    ['null', 'null'],
    ['a string', '"10.10.4"'],
    ['a number', '42'],
    ['a boolean', 'true'],
    ['a numeric platformVersion', '{"platformVersion": 10}'],
    ['a null platformVersion', '{"platformVersion": null}'],
    ['an object platformVersion', '{"platformVersion": {"buildVersion": "10.10.4"}}'],
    ['a huge number', '{"platformVersion": 1e999999}'],
  ])('rejects %s with 400 InvalidRequest', async (_label, body) => {
    const { create, call } = setup();
    expectError(await create({ body }), 400, 'InvalidRequest');
    expect(((await call('GET', '/v1/stacks')).body as { stacks: unknown[] }).stacks).toEqual([]);
  });

  it('enforces the per-user limit with 409, per user and over active stacks only', async () => {
    const { create, call } = setup();
    const ids: string[] = [];
    for (let i = 0; i < config.maxStacksPerUser; i++) ids.push(((await create()).body as { id: string }).id);
    expectError(await create(), 409, 'MaxStacksLimitReached');
    expect((await create({ key: BOB })).status).toBe(202);
    expect((await call('DELETE', `/v1/stacks/${ids[0]}`)).status).toBe(204);
    expect((await create()).status).toBe(202);
    expectError(await create(), 409, 'MaxStacksLimitReached');
  });

  it('validates the body before the limit', async () => {
    const { create } = setup({ maxStacksPerUser: 0 });
    expectError(await create({ body: '[]' }), 400, 'InvalidRequest');
    expectError(await create(), 409, 'MaxStacksLimitReached');
  });
});

describe('state and access details', () => {
  it('is CREATING until the provisioning delay has elapsed, then RUNNING with access details', async () => {
    const { create, call, advance } = setup();
    const { id } = (await create()).body as { id: string };
    let got = await call('GET', `/v1/stacks/${id}`);
    expect(got.status).toBe(200);
    expect(got.body).toMatchObject({ id, state: 'CREATING' });
    expect(got.body).not.toHaveProperty('stackAccessDetails');

    advance(config.provisioningDelayMs - 1);
    expect((await call('GET', `/v1/stacks/${id}`)).body).toMatchObject({ state: 'CREATING' });
    advance(1);
    got = await call('GET', `/v1/stacks/${id}`);
    const detail = got.body as { state: string; stackAccessDetails: { url: string; username: string; password: string } };
    expect(detail.state).toBe('RUNNING');
    expect(detail.stackAccessDetails.url).toBe(`https://${id}.stacks.example.test`);
    expect(detail.stackAccessDetails.username).toBe('admin');
    expect(detail.stackAccessDetails.password.length).toBeGreaterThanOrEqual(16);
    // The password is stable across reads.
    expect((await call('GET', `/v1/stacks/${id}`)).body).toEqual(detail);
    // Summaries never carry access details.
    const list = (await call('GET', '/v1/stacks')).body as { stacks: Record<string, unknown>[] };
    expect(list.stacks[0]).toMatchObject({ id, state: 'RUNNING' });
    expect(list.stacks[0]).not.toHaveProperty('stackAccessDetails');
  });

  it('is RUNNING at once when the provisioning delay is 0', async () => {
    const { create, call } = setup({ provisioningDelayMs: 0 });
    const created = await create();
    expect(created.body).toMatchObject({ state: 'RUNNING' });
    const { id } = created.body as { id: string };
    expect((await call('GET', `/v1/stacks/${id}`)).body).toHaveProperty('stackAccessDetails');
  });

  it('drops stacks whose termination date has passed from list, get, delete and the limit', async () => {
    const { create, call, advance } = setup();
    const ids: string[] = [];
    for (let i = 0; i < config.maxStacksPerUser; i++) ids.push(((await create()).body as { id: string }).id);
    advance(config.lifetimeMinutes * 60_000 - 1);
    expect(((await call('GET', '/v1/stacks')).body as { stacks: unknown[] }).stacks).toHaveLength(3);
    advance(1);
    expect((await call('GET', '/v1/stacks')).body).toEqual({ stacks: [] });
    expectError(await call('GET', `/v1/stacks/${ids[0]}`), 404, 'NotFound');
    expectError(await call('DELETE', `/v1/stacks/${ids[1]}`), 404, 'NotFound');
    expect((await create()).status).toBe(202);
  });
});

describe('list, get, delete', () => {
  it('lists only the caller’s stacks', async () => {
    const { create, call } = setup();
    const a = ((await create()).body as { id: string }).id;
    const b = ((await create({ key: BOB })).body as { id: string }).id;
    const aliceList = (await call('GET', '/v1/stacks')).body as { stacks: { id: string }[] };
    const bobList = (await call('GET', '/v1/stacks', { key: BOB })).body as { stacks: { id: string }[] };
    expect(aliceList.stacks.map((s) => s.id)).toEqual([a]);
    expect(bobList.stacks.map((s) => s.id)).toEqual([b]);
  });

  it('returns the configured versions', async () => {
    const { call } = setup();
    const res = await call('GET', '/v1/stacks/versions');
    expect({ status: res.status, body: res.body }).toEqual({ status: 200, body: { versions: config.versions } });
  });

  it('answers 404 for another user’s stack, as for a missing one', async () => {
    const { create, call } = setup();
    const { id } = (await create({ key: BOB })).body as { id: string };
    for (const method of ['GET', 'DELETE']) {
      const res = await call(method, `/v1/stacks/${id}`);
      expectError(res, 404, 'NotFound');
      expect((res.body as { message: string }).message).toBe(`Stack ${id} was not found`);
    }
    expect((await call('GET', `/v1/stacks/${id}`, { key: BOB })).status).toBe(200);
  });

  it('deletes with 204 and no body; the stack is gone at once', async () => {
    const { create, call } = setup();
    const { id } = (await create()).body as { id: string };
    const del = await call('DELETE', `/v1/stacks/${id}`);
    expect(del.status).toBe(204);
    expect(del.text).toBe('');
    expectError(await call('GET', `/v1/stacks/${id}`), 404, 'NotFound');
    expect((await call('GET', '/v1/stacks')).body).toEqual({ stacks: [] });
    expectError(await call('DELETE', `/v1/stacks/${id}`), 404, 'NotFound');
  });

  it.each(['does-not-exist', '__proto__', 'constructor', '%E0%A4%A', '%2F..%2F', 'x'.repeat(5000)])(
    'GET and DELETE of stack %j is a 404, never a throw',
    async (id) => {
      const { call } = setup();
      for (const method of ['GET', 'DELETE']) expectError(await call(method, `/v1/stacks/${id}`), 404, 'NotFound');
    },
  );

  it('percent-decodes the stack id', async () => {
    const { create, call } = setup();
    const { id } = (await create()).body as { id: string };
    const encoded = id.replace(/-/g, '%2D');
    expect((await call('GET', `/v1/stacks/${encoded}`)).status).toBe(200);
  });
});

describe('routing', () => {
  it.each([['/'], ['/v1'], ['/v1/stack'], ['/v1/stacks/a/b'], ['/v2/stacks'], ['/v1/stacks/']])('unknown path %s is 404', async (path) => {
    const { call } = setup();
    expectError(await call('GET', path), 404, 'NotFound');
  });

  it.each([
    ['PUT', '/v1/stacks', 'GET, HEAD, POST'],
    ['DELETE', '/v1/stacks', 'GET, HEAD, POST'],
    ['POST', '/v1/stacks/versions', 'GET, HEAD'],
    ['DELETE', '/v1/stacks/versions', 'GET, HEAD'],
    ['PATCH', '/v1/stacks/abc', 'GET, HEAD, DELETE'],
  ])('%s %s is 405 with allow: %s', async (method, path, allow) => {
    const { call } = setup();
    const res = await call(method, path, { body: '{}' });
    expectError(res, 405, 'MethodNotAllowed');
    expect(res.headers?.allow?.split(', ').sort()).toEqual(allow.split(', ').sort());
  });

  it('treats HEAD like GET (the HTTP layer drops the body)', async () => {
    const { call } = setup();
    expect((await call('HEAD', '/v1/stacks')).status).toBe(200);
  });
});

describe('over HTTP', () => {
  let server: RunningServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  const start = async (handler: ApiHandler = createStacksHandler(config)) => {
    server = await listen(handler, { errorBody: stacksErrorBody });
    return server;
  };
  const auth = { authorization: `Bearer ${ALICE}`, 'content-type': 'application/json' };

  it('refuses a 2 MiB body with 413 and answers invalid JSON with a 400 ServiceError', async () => {
    const { url } = await start();
    const big = await request(url)
      .post('/v1/stacks')
      .set(auth)
      .send('x'.repeat(2 * 1024 * 1024));
    expect(big.status).toBe(413);
    expect(big.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(big.body).toEqual({ code: 'PayloadTooLarge', message: expect.any(String) });

    const bad = await request(url).post('/v1/stacks').set(auth).send('{"platformVersion":');
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ code: 'InvalidRequest', message: expect.stringContaining('not valid JSON') });

    const ok = await request(url).post('/v1/stacks').set(auth).send('{}');
    expect(ok.status).toBe(202);
    expect(Number(ok.headers['content-length'])).toBe(Buffer.byteLength(ok.text));

    const del = await request(url).delete(`/v1/stacks/${'00000000-0000-4000-8000-000000000000'}`).set(auth);
    expect(del.status).toBe(404);
  });

  it('refuses an over-long URL with 414', async () => {
    const { url } = await start();
    const res = await request(url)
      .get(`/v1/stacks?q=${'a'.repeat(9000)}`)
      .set(auth);
    expect(res.status).toBe(414);
    expect(res.body).toEqual({ code: 'UriTooLong', message: expect.any(String) });
  });

  it('turns a handler exception into a 500 ServiceError and keeps serving', async () => {
    const { url } = await start((req) => {
      if (req.path === '/boom') throw new Error('boom');
      return { status: 204 };
    });
    const res = await request(url).get('/boom');
    expect(res.status).toBe(500);
    expect(res.body).toEqual({ code: 'InternalServerError', message: expect.any(String) });
    expect((await request(url).get('/fine')).status).toBe(204);
  });
});
