import { describe, expect, it } from 'vitest';
import { onThisMachine } from '../../core/runner';
import { stacksApi } from '../../stacks/index';
import { runAgainst } from '../harness';
import { startStacksServer } from '../../../corpus/servers/stacks-in-process/server';

describe('whether destructive checks run when nobody said', () => {
  it('counts only loopback addresses as this machine', () => {
    for (const url of ['http://127.0.0.1:4600', 'https://localhost:8089', 'http://[::1]:80', 'http://127.1.2.3']) expect(onThisMachine(url), url).toBe(true);
    for (const url of ['https://ops.example.test:8089', 'http://10.0.0.5', 'http://192.168.1.2:4600', 'http://127.0.0.1.example.test']) expect(onThisMachine(url), url).toBe(false);
  });

  it('runs them against a local deployment unless CONFORMANCE_ALLOW_DESTRUCTIVE=0 protects it', async () => {
    const server = await startStacksServer({ variant: 'plain' });
    try {
      const target = stacksApi.targetFromEnv(server.env)!;
      expect((await runAgainst(stacksApi, target, { allowDestructive: undefined, only: ['stacks.versions.*'] })).apis[0].allowDestructive).toBe(true);
      expect((await runAgainst(stacksApi, target, { allowDestructive: false, only: ['stacks.versions.*'] })).apis[0].allowDestructive).toBe(false);
    } finally {
      await server.close();
    }
  });
});
