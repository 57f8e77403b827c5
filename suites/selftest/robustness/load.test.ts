import autocannon from 'autocannon';
import { describe, expect, it } from 'vitest';
import { listen } from '../../../reference-impl/http/server';
import { localhostTls } from '../../../reference-impl/http/tls';
import { opsErrorBody } from '../../../reference-impl/ops/handler';
import { loadStacksConfig } from '../../../reference-impl/stacks/config';
import { stacksErrorBody } from '../../../reference-impl/stacks/errors';
import { createStacksHandler } from '../../../reference-impl/stacks/handler';
import { ADMIN, ANALYST, EVENTS, ICONS, ITOA, MAINTENANCE, opsWorld } from './ops-world';
import { ALICE_KEY, BOB_KEY, bearer } from './stacks-world';

/** Each run ends after this many seconds or this many requests, whichever comes first. */
const DURATION_S = 3;
const MAX_REQUESTS = 40_000;

function report(label: string, r: autocannon.Result): void {
  const codes = Object.entries(r.statusCodeStats ?? {})
    .map(([code, s]) => `${code}:${s.count ?? 0}`)
    .join(' ');
  console.log(
    `${label}: ${r.requests.total} requests in ${r.duration.toFixed(1)} s, ${r.requests.average.toFixed(0)} req/s, latency mean ${r.latency.average.toFixed(2)} ms, p50 ${r.latency.p50} ms, p99 ${r.latency.p99} ms, max ${r.latency.max} ms; statuses ${codes}; errors ${r.errors}, timeouts ${r.timeouts}`,
  );
}

function expectClean(r: autocannon.Result): void {
  expect(r.errors).toBe(0);
  expect(r.timeouts).toBe(0);
  expect(r.non2xx).toBe(0);
  expect(r['5xx']).toBe(0);
  expect(r.requests.total).toBeGreaterThan(0);
}

describe('load on loopback (autocannon)', () => {
  it('stacks: create, read, list, versions and delete, alice and bob alternating', async () => {
    const config = loadStacksConfig();
    const handler = createStacksHandler(config);
    const server = await listen(handler, { errorBody: stacksErrorBody });
    // Each connection runs create → get → list → versions → delete in order, so a connection holds at most one stack;
    // with no more connections than the per-user limit, no create can meet the limit, whichever user it picks.
    const connections = Math.min(config.maxStacksPerUser, 3);
    const keys = [ALICE_KEY, BOB_KEY];
    let turn = 0;
    // The context is per connection and starts empty at each round of the request list.
    type Round = { key?: string; id?: string };
    const auth = (context: object) => ({ authorization: bearer((context as Round).key ?? '') });
    const requests: autocannon.Request[] = [
      {
        method: 'POST',
        path: '/v1/stacks',
        body: '{}',
        setupRequest: (req, context) => {
          (context as Round).key = keys[turn++ % keys.length];
          return { ...req, headers: { ...auth(context), 'content-type': 'application/json' } };
        },
        onResponse: (status, body, context) => {
          if (status === 202) (context as Round).id = (JSON.parse(body) as { id: string }).id;
        },
      },
      {
        method: 'GET',
        setupRequest: (req, context) => ({ ...req, path: `/v1/stacks/${(context as Round).id ?? 'none'}`, headers: auth(context) }),
      },
      { method: 'GET', path: '/v1/stacks', setupRequest: (req, context) => ({ ...req, headers: auth(context) }) },
      { method: 'GET', path: '/v1/stacks/versions', setupRequest: (req, context) => ({ ...req, headers: auth(context) }) },
      {
        method: 'DELETE',
        setupRequest: (req, context) => ({ ...req, path: `/v1/stacks/${(context as Round).id ?? 'none'}`, headers: auth(context) }),
      },
    ];
    try {
      const result = await autocannon({
        url: server.url,
        connections,
        duration: DURATION_S,
        maxOverallRequests: MAX_REQUESTS,
        timeout: 2,
        requests,
      });
      report(`stacks (${connections} connections, create/get/list/versions/delete)`, result);
      expectClean(result);
      expect(result.statusCodeStats?.['202']?.count ?? 0).toBeGreaterThan(0);
      expect(result.statusCodeStats?.['204']?.count ?? 0).toBeGreaterThan(0);
      // Only cycles cut short by the end of the run may leave a stack behind: at most one per connection.
      let left = 0;
      for (const key of keys) {
        const list = await handler({
          method: 'GET',
          path: '/v1/stacks',
          query: new URLSearchParams(),
          headers: { authorization: bearer(key) },
          rawBody: '',
          body: undefined,
        });
        left += (list.body as { stacks: unknown[] }).stacks.length;
      }
      expect(left).toBeLessThanOrEqual(connections);
    } finally {
      await server.close();
    }
  });

  it('ops over HTTPS: lists, counts, reads and filtered lists by the administrator and the analyst', async () => {
    const server = await listen(opsWorld(), { errorBody: opsErrorBody, tls: localhostTls() });
    const filter = (f: unknown) => encodeURIComponent(JSON.stringify(f));
    const get = (path: string, authorization: string): autocannon.Request => ({ method: 'GET', path, headers: { authorization } });
    const requests: autocannon.Request[] = [
      get(`${ITOA}/entity`, ADMIN),
      get(`${ITOA}/service/count`, ADMIN),
      get(`${ITOA}/entity/ent_web_01`, ADMIN),
      get(`${ITOA}/entity?filter=${filter({ title: { $regex: '^web' } })}&sort_key=title&sort_dir=0&fields=_key,title`, ADMIN),
      get(`${ITOA}/service?filter=${filter({ sec_grp: { $ne: 'team_network' } })}&limit=2&offset=1`, ANALYST),
      get(`${ITOA}/entity/count?filter=${filter({ 'services._key': 'svc_web_store' })}`, ANALYST),
      get(`${EVENTS}/notable_event_group?filter_data=${filter({ title: { $regex: 'latency', $options: 'i' } })}`, ADMIN),
      get(`${MAINTENANCE}/maintenance_calendar`, ANALYST),
      get(`${ICONS}?category=Cloud`, ADMIN),
      get(`${ITOA}/content_pack`, ADMIN),
    ];
    try {
      const result = await autocannon({
        url: server.url,
        connections: 8,
        duration: DURATION_S,
        maxOverallRequests: MAX_REQUESTS,
        timeout: 2,
        requests,
        tlsOptions: { rejectUnauthorized: false },
      });
      report('ops over HTTPS (8 connections, 10 read kinds)', result);
      expectClean(result);
    } finally {
      await server.close();
    }
  });
});
