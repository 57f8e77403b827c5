import { describe, expect, it } from 'vitest';
import { loadStacksConfig } from '../../../../reference-impl/stacks/config';
import { createStacksHandler } from '../../../../reference-impl/stacks/handler';
import { stacksClient } from '../../../../reference-impl/stacks/test-client';

/*
 * Client: scts.py, the "minimal client for the Splunk Cloud Testing Service" of a CI pattern (User-Agent
 * splunk-app-cicd-pattern/scts.py), read in the public code index. Bearer token, Accept application/json, a JSON
 * body declared application/json.
 * - versions: GET /v1/stacks/versions (200, reads .versions); list: GET /v1/stacks (200, reads .stacks).
 * - create: POST /v1/stacks with {} (latest released); anything but 202 fails. (With a version it sends
 *   {"splunkVersion": <build>}, the product's name of the document's platformVersion: the document makes a create
 *   without platformVersion take the default, so that form is not transcribed.)
 * - wait_until_running: GET /v1/stacks/<quote(id)> until state RUNNING with stackAccessDetails; ERROR or STOPPING
 *   fails.
 * - delete: DELETE /v1/stacks/<quote(id)>: 204, or 404 ("already absent") for teardown.
 */

const CLIENT = 'scts.py (splunk-app-cicd-pattern)';
const config = loadStacksConfig();
const TOKEN = config.users.find((u) => u.allowed)!.apiKey;
type Row = Record<string, unknown>;

function scts() {
  let now = Date.parse('2030-01-01T00:00:00.000Z');
  const send = stacksClient(createStacksHandler(config, { now: () => now }));
  const call = async (method: string, path: string, payload?: unknown) => {
    const headers: Record<string, string> = { accept: 'application/json', 'user-agent': 'splunk-app-cicd-pattern/scts.py' };
    if (payload !== undefined) headers['content-type'] = 'application/json';
    const res = await send(method, path, { key: TOKEN, headers, ...(payload === undefined ? {} : { body: JSON.stringify(payload) }) });
    return { status: res.status, body: res.body as Row };
  };
  return { call, advance: (ms: number) => (now += ms) };
}

describe(CLIENT, () => {
  it('lists versions, creates a stack, waits for its access details and tears it down twice', async () => {
    const { call, advance } = scts();
    const versions = await call('GET', '/v1/stacks/versions');
    expect(versions.status).toBe(200);
    expect(Array.isArray(versions.body.versions)).toBe(true);

    const created = await call('POST', '/v1/stacks', {});
    expect(created.status, JSON.stringify(created.body)).toBe(202);
    const id = created.body.id as string;
    let detail = await call('GET', `/v1/stacks/${encodeURIComponent(id)}`);
    for (let polls = 0; !(detail.body.state === 'RUNNING' && detail.body.stackAccessDetails); polls++) {
      expect(['CREATING', 'RUNNING'], JSON.stringify(detail.body)).toContain(detail.body.state);
      expect(polls).toBeLessThan(10);
      advance(config.provisioningDelayMs);
      detail = await call('GET', `/v1/stacks/${encodeURIComponent(id)}`);
    }
    expect(detail.body.stackAccessDetails).toMatchObject({
      url: expect.any(String),
      username: expect.any(String),
      password: expect.any(String),
    });
    expect((await call('GET', '/v1/stacks')).body.stacks).toContainEqual(expect.objectContaining({ id }));

    expect((await call('DELETE', `/v1/stacks/${encodeURIComponent(id)}`)).status).toBe(204);
    // A second teardown finds it gone: 404, which the client counts as success.
    expect((await call('DELETE', `/v1/stacks/${encodeURIComponent(id)}`)).status).toBe(404);
  });
});
