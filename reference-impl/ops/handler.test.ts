import { describe, expect, it } from 'vitest';
import { listen } from '../http/server';
import { loadOpsConfig } from './config';
import { createOpsHandler, opsErrorBody } from './handler';
import { basicAuth } from './test-client';

describe('handler', () => {
  it('starts in well under 50 ms', () => {
    const config = loadOpsConfig();
    createOpsHandler(config);
    const started = performance.now();
    createOpsHandler(config);
    expect(performance.now() - started).toBeLessThan(50);
  });

  it('serves over HTTP with the API error shapes', async () => {
    const config = loadOpsConfig();
    const server = await listen(createOpsHandler(config), { errorBody: opsErrorBody });
    try {
      const admin = config.users.find((u) => u.name === 'admin')!;
      const auth = { authorization: basicAuth(admin.name, admin.password) };
      const base = `${server.url}/servicesNS/nobody/SA-ITOA/itoa_interface`;
      const ok = await fetch(`${base}/vLatest/entity/count`, { headers: auth });
      expect(ok.status).toBe(200);
      expect(await ok.json()).toEqual({ count: 6 });
      const unauth = await fetch(`${base}/entity`);
      expect(unauth.status).toBe(401);
      expect(await unauth.json()).toEqual({ messages: [{ type: 'WARN', text: 'call not properly authenticated' }] });
      const bad = await fetch(`${base}/entity`, { method: 'POST', headers: auth, body: '{"title":' });
      expect(bad.status).toBe(400);
      expect(await bad.json()).toHaveProperty('message');
      const big = await fetch(`${base}/entity`, { method: 'POST', headers: auth, body: 'x'.repeat(2 * 1024 * 1024) });
      expect(big.status).toBe(413);
      expect(await big.json()).toHaveProperty('message');
      const del = await fetch(`${base}/entity/ent_web_02`, { method: 'DELETE', headers: auth });
      expect(del.status).toBe(204);
      expect(await del.text()).toBe('');
    } finally {
      await server.close();
    }
  });
});
