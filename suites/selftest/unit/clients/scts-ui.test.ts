import { describe, expect, it } from 'vitest';
import { loadStacksConfig } from '../../../../reference-impl/stacks/config';
import { createStacksHandler } from '../../../../reference-impl/stacks/handler';
import { stacksClient } from '../../../../reference-impl/stacks/test-client';

/*
 * Client: SCTS UI, a React app behind a Cloudflare Worker that forwards exactly the five operations (README,
 * src/api.ts, src/components), read in the public code index. Only Authorization, Content-Type and Accept go
 * upstream.
 * - on load: GET /v1/stacks/versions (the version select) and GET /v1/stacks; the list is fetched again every
 *   15 s while a stack is CREATING or STOPPING.
 * - credentials: GET /v1/stacks/{id} once the listed stack is RUNNING (stackAccessDetails).
 * - create dialog: POST /v1/stacks {} (or with the chosen version); delete dialog: DELETE /v1/stacks/{id}.
 * - a 401 or 403 forgets the key and shows the ServiceError's code and message.
 */

const CLIENT = 'SCTS UI (React + Worker proxy)';
const config = loadStacksConfig();
const KEY = config.users.find((u) => u.allowed)!.apiKey;
type Row = Record<string, unknown>;

function ui(key = KEY) {
  let now = Date.parse('2030-01-01T00:00:00.000Z');
  const send = stacksClient(createStacksHandler(config, { now: () => now }));
  const call = async (method: string, path: string, body?: unknown) => {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (body !== undefined) headers['content-type'] = 'application/json';
    const res = await send(method, path, { key, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
    return { status: res.status, body: res.body as Row };
  };
  return { call, advance: (ms: number) => (now += ms) };
}

describe(CLIENT, () => {
  it('creates a stack, refreshes the list until it settles, shows its credentials and deletes it', async () => {
    const { call, advance } = ui();
    expect((await call('GET', '/v1/stacks/versions')).status).toBe(200);
    expect((await call('GET', '/v1/stacks')).body.stacks).toEqual([]);
    const created = await call('POST', '/v1/stacks', {});
    expect(created.status).toBe(202);
    const id = created.body.id as string;

    const listed = async () => ((await call('GET', '/v1/stacks')).body.stacks as Row[]).find((s) => s.id === id)!;
    let stack = await listed();
    for (let refreshes = 0; stack.state === 'CREATING' || stack.state === 'STOPPING'; refreshes++) {
      expect(refreshes).toBeLessThan(10);
      advance(15_000);
      stack = await listed();
    }
    expect(stack.state).toBe('RUNNING');
    const detail = await call('GET', `/v1/stacks/${id}`);
    expect(detail.body.stackAccessDetails).toMatchObject({
      url: expect.any(String),
      username: expect.any(String),
      password: expect.any(String),
    });
    expect(Date.parse(stack.terminationDate as string)).toBeGreaterThan(Date.parse(stack.createdAt as string));

    expect((await call('DELETE', `/v1/stacks/${id}`)).status).toBe(204);
    expect(((await call('GET', '/v1/stacks')).body.stacks as Row[]).some((s) => s.id === id)).toBe(false);
  });

  it('a wrong key is a 401 ServiceError the key gate can explain', async () => {
    const { call } = ui('stk_not_a_key');
    const res = await call('GET', '/v1/stacks');
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ code: 'Unauthorized', message: expect.any(String) });
  });
});
