import { describe, expect, it } from 'vitest';
import type { Check } from '../../core/check';
import { runConformance } from '../../core/conformance';
import { need, Unmet } from '../../core/precondition';
import { stacksApi } from '../../stacks/index';
import { embeddedStacksTarget } from '../../stacks/target';
import { selftestSettings } from '../harness';

// Judges one requirement, observes one the document leaves open (STK-ID-FORMAT), then meets a set-up it cannot make.
const halfway: Check = {
  id: 'selftest.unmet-halfway',
  title: 'cannot go on after its first assertion',
  requirements: ['STK-LIST-200', 'STK-GET-200', 'STK-DELETE-204', 'STK-ID-FORMAT'],
  async run(ctx) {
    const list = await ctx.http.send('listStacks');
    ctx.expect.status('STK-LIST-200', 'the list', list, 200);
    ctx.observe('STK-ID-FORMAT', 'observed before the set-up failed');
    const refused = await ctx.http.send('getStack', { params: { stackId: 'no-such-stack' } });
    throw new Unmet(`the stack to read was not there (${refused.status})`, refused);
  },
};

describe('a set-up a check cannot make (Unmet)', () => {
  it('leaves every requirement the check has not judged untested with the reason and the exchange, never an error', async () => {
    const { report, exitCode } = await runConformance({
      settings: selftestSettings('stacks'),
      apis: [{ ...stacksApi, checks: [halfway] }],
      targets: { stacks: await embeddedStacksTarget() },
      tool: { name: 'selftest', version: '0' },
      write: false,
    });
    const result = (id: string) => report.requirements.find((q) => q.id === id)!;
    expect(result('STK-LIST-200').status).toBe('passed');
    for (const id of ['STK-GET-200', 'STK-DELETE-204']) {
      expect([result(id).status, result(id).reason]).toEqual(['untested', 'the stack to read was not there (404)']);
      expect(result(id).evidence[0]?.evidence?.response).toMatch(/^HTTP 404/);
    }
    // What the document leaves open keeps what the check left for it, its observation.
    expect(result('STK-ID-FORMAT').status).toBe('untested');
    expect(result('STK-ID-FORMAT').reason).toMatch(/observation/);
    expect(report.apis[0]!.checks.find((c) => c.id === halfway.id)?.outcome).toBe('ran');
    expect(exitCode).toBe(0);
  });

  it('need gives the value back when it holds, and throws Unmet with the reason when it does not', () => {
    expect(need('key', 'no key')).toBe('key');
    for (const missing of [undefined, null, false, 0, '']) expect(() => need(missing, 'no key')).toThrow(Unmet);
    expect(() => need(undefined, 'no key')).toThrow('no key');
  });
});
