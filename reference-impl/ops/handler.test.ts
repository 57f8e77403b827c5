import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { listen } from '../http/server';
import { loadOpsConfig } from './config';
import { createOpsHandler, opsErrorBody } from './handler';

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
      const app = request(server.url);
      const base = '/servicesNS/nobody/SA-ITOA/itoa_interface';
      const ok = await app.get(`${base}/vLatest/entity/count`).auth(admin.name, admin.password);
      expect(ok.status).toBe(200);
      expect(ok.body).toEqual({ count: 6 });
      const unauth = await app.get(`${base}/entity`);
      expect(unauth.status).toBe(401);
      expect(unauth.body).toEqual({ messages: [{ type: 'WARN', text: 'call not properly authenticated' }] });
      const bad = await app.post(`${base}/entity`).auth(admin.name, admin.password).type('text/plain').send('{"title":');
      expect(bad.status).toBe(400);
      expect(bad.body).toHaveProperty('message');
      const big = await app
        .post(`${base}/entity`)
        .auth(admin.name, admin.password)
        .type('text/plain')
        .send('x'.repeat(2 * 1024 * 1024));
      expect(big.status).toBe(413);
      expect(big.body).toHaveProperty('message');
      const del = await app.delete(`${base}/entity/ent_web_02`).auth(admin.name, admin.password);
      expect(del.status).toBe(204);
      expect(del.text).toBe('');
    } finally {
      await server.close();
    }
  });
});
