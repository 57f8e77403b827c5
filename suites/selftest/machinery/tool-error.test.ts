import { describe, expect, it } from 'vitest';
import type { Check } from '../../core/check';
import { runConformance } from '../../core/conformance';
import { createServer } from 'node:http';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { opsApi } from '../../ops/index';
import { embeddedOpsTarget } from '../../ops/target';
import { stacksApi } from '../../stacks/index';
import { embeddedStacksTarget } from '../../stacks/target';
import { selftestSettings } from '../harness';

const undeclared: Check = {
  id: 'selftest.undeclared-record',
  title: 'records against a requirement it does not declare',
  requirements: ['STK-JSON'],
  async run(ctx) {
    await ctx.http.send('listStacks');
    ctx.assert('STK-LIST-200', true, 'not this check to say');
  },
};

const throwing: Check = {
  id: 'selftest.throws',
  title: 'has a bug of its own',
  requirements: ['STK-GET-200'],
  async run() {
    throw new TypeError("Cannot read properties of undefined (reading 'id')");
  },
};

// STK-ID-FORMAT is left open by the document: a check may observe it, never judge it.
const judgesUnspecified: Check = {
  id: 'selftest.judges-unspecified',
  title: 'asserts where the document leaves the behaviour open',
  requirements: ['STK-ID-FORMAT'],
  async run(ctx) {
    ctx.observe('STK-ID-FORMAT', 'observing is what it may do');
    ctx.expect.that('STK-ID-FORMAT', 'the id format', true, { expected: 'any', actual: 'any' });
  },
};

// A create body outside CreateStackRequest: what a server does with it is stated only by the malformed-body rule.
const judgesOutsideShape: Check = {
  id: 'selftest.judges-outside-shape',
  title: 'asserts a MUST on the answer to a request outside the documented shape',
  requirements: ['STK-CREATE-202', 'STK-CREATE-MALFORMED'],
  async run(ctx) {
    const ex = await ctx.http.send('createStack', { body: { platformVersion: 7 } });
    ctx.expect.status('STK-CREATE-MALFORMED', 'a create with a numeric platformVersion (its clause states the reaction)', ex, 400);
    ctx.expect.status('STK-CREATE-202', 'a create with a numeric platformVersion', ex, 202);
  },
};

// A limit that is not an integer: the list's clauses say nothing of the answer to it.
const judgesOutsideQuery: Check = {
  id: 'selftest.judges-outside-query',
  title: 'asserts a MUST on the answer to a query outside the documented shape',
  requirements: ['OPS-CORE-LIST'],
  async run(ctx) {
    const ex = await ctx.http.send('coreList', { params: { object_type: 'service' }, query: { limit: 'ten' } });
    ctx.expect.status('OPS-CORE-LIST', 'a list with limit=ten', ex, '2xx');
  },
};

// The same malformed create, with no assertion: only the answer's schema is left to judge it.
const sendsOutsideShape: Check = {
  id: 'selftest.sends-outside-shape',
  title: 'sends a create outside the documented shape and asserts nothing on it',
  requirements: ['STK-CREATE-MALFORMED'],
  async run(ctx) {
    const ex = await ctx.http.send('createStack', { body: { platformVersion: 7 } });
    ctx.observe('STK-CREATE-MALFORMED', `answered ${ex.status}`);
  },
};

describe('a failure of the tool itself', () => {
  it('the guard reads the query string too: a MUST judged on the answer to limit=ten is an error', async () => {
    const { report, exitCode } = await runConformance({
      settings: selftestSettings('ops'),
      apis: [{ ...opsApi, checks: [judgesOutsideQuery] }],
      targets: { ops: await embeddedOpsTarget() },
      tool: { name: 'selftest', version: '0' },
      write: false,
    });
    const list = report.requirements.find((q) => q.id === 'OPS-CORE-LIST')!;
    expect(list.status).toBe('error');
    expect(list.reason).toMatch(/outside the documented shape \(query limit=ten must be integer\)/);
    expect(exitCode).toBe(2);
  });

  it('a schema finding on the answer to a request outside the documented shape is observed, not failed', async () => {
    // Every answer is a 202 whose body is no StackSummary: wrong for a create in the documented shape, unstated for this one.
    const server = createServer((_req, res) => res.writeHead(202, { 'content-type': 'application/json' }).end('{"id": 1}'));
    await once(server.listen(0, '127.0.0.1'), 'listening');
    try {
      const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const target = stacksApi.targetFromEnv({ STACKS_BASE_URL: baseUrl, STACKS_API_KEY: 'k' })!;
      const { report } = await runConformance({
        settings: selftestSettings('stacks'),
        apis: [{ ...stacksApi, checks: [sendsOutsideShape] }],
        targets: { stacks: target },
        tool: { name: 'selftest', version: '0' },
        write: false,
      });
      expect(report.requirements.filter((q) => q.status === 'failed').map((q) => q.id)).toEqual([]);
      const notes = report.requirements.flatMap((q) => q.observations ?? []).map((o) => (typeof o === 'string' ? o : JSON.stringify(o)));
      expect(notes.join('\n')).toMatch(/answering a request outside the documented shape \(body\/platformVersion must be string\)/);
    } finally {
      server.close();
    }
  });

  it('a MUST judged on the answer to input outside the documented shape is an error unless its clause states the reaction', async () => {
    const { report, exitCode } = await runConformance({
      settings: selftestSettings('stacks'),
      apis: [{ ...stacksApi, checks: [judgesOutsideShape] }],
      targets: { stacks: await embeddedStacksTarget() },
      tool: { name: 'selftest', version: '0' },
      write: false,
    });
    const status = (id: string) => report.requirements.find((q) => q.id === id)!;
    expect(status('STK-CREATE-202').status).toBe('error');
    expect(status('STK-CREATE-202').reason).toMatch(/outside the documented shape \(body\/platformVersion must be string\)/);
    expect(exitCode).toBe(2);
  });

  it('is reported with the status error and exit code 2, never as the server failing', async () => {
    const api = { ...stacksApi, checks: [undeclared, throwing, judgesUnspecified] };
    const { report, exitCode } = await runConformance({
      settings: selftestSettings('stacks'),
      apis: [api],
      targets: { stacks: await embeddedStacksTarget() },
      tool: { name: 'selftest', version: '0' },
      write: false,
    });
    const status = (id: string) => report.requirements.find((q) => q.id === id)!;
    expect(status('STK-JSON').status).toBe('error');
    expect(status('STK-JSON').reason).toMatch(/records against STK-LIST-200, which it does not declare/);
    expect(status('STK-GET-200').status).toBe('error');
    expect(status('STK-GET-200').reason).toMatch(/tool error in selftest.throws: TypeError/);
    expect(status('STK-ID-FORMAT').status).toBe('error');
    expect(status('STK-ID-FORMAT').reason).toMatch(/asserts on STK-ID-FORMAT, which the document leaves open/);
    expect(report.requirements.filter((q) => q.status === 'failed')).toEqual([]);
    expect(report.summary.error).toBe(3);
    expect(exitCode).toBe(2);
  });
});
