import type { SendOptions } from '../../core/client';
import { asDoc } from '../../core/json';
import type { operations } from '../openapi.gen';
import { codeOf, expectError, missingId, type StacksCheck, type StacksContext } from '../support';

/** One request per operation, with whatever credentials `opts` carries. */
const everyOperation = (ctx: StacksContext): [keyof operations, SendOptions][] => [
  ['createStack', { body: {} }],
  ['listStacks', {}],
  ['listStackVersions', {}],
  ['getStack', { params: { stackId: missingId(ctx) } }],
  ['deleteStack', { params: { stackId: missingId(ctx) } }],
];

/**
 * Get and delete of a stack that exists, without the documented credential: authentication comes before the stack,
 * so the refusal cannot depend on whether the id names one. The check that reads the stack calls this, so that no
 * stack is created for it alone (each counts against a limit that may be small).
 */
export async function expectRefusedOnStack(ctx: StacksContext, stackId: string): Promise<void> {
  for (const op of ['getStack', 'deleteStack'] as const) {
    const params = { stackId };
    const bare = await ctx.http.send(op, { params, as: null });
    expectError(ctx, 'STK-AUTH-401', bare, 401, 'Unauthorized', `${op} of an existing stack without Authorization`);
    if (!ctx.has('forbidden')) continue;
    const outsider = await ctx.http.send(op, { params, as: 'forbidden' });
    expectError(ctx, 'STK-AUTH-403', outsider, 403, 'Forbidden', `${op} of an existing stack by a user not on the allow list`);
  }
}

export const missingKeyIsUnauthorized: StacksCheck = {
  id: 'stacks.auth.missing-key-401',
  title: 'Every operation MUST answer 401 with code Unauthorized when the request carries no API key',
  requirements: ['STK-AUTH-401'],
  async run(ctx) {
    for (const [op, opts] of everyOperation(ctx)) {
      const ex = await ctx.http.send(op, { ...opts, as: null });
      expectError(ctx, 'STK-AUTH-401', ex, 401, 'Unauthorized', `${op} without Authorization`);
    }
  },
};

export const bearerKeyIsAccepted: StacksCheck = {
  id: 'stacks.auth.bearer-key-accepted',
  title: 'Every operation MUST accept the API key of an allow-listed user as an HTTP bearer token',
  requirements: ['STK-AUTH-BEARER', 'STK-AUTH-KEY', 'STK-AUTH-TOKEN'],
  async run(ctx) {
    for (const [op, opts] of everyOperation(ctx).filter(([op]) => op !== 'createStack')) {
      const ex = await ctx.http.send(op, opts);
      const ok = ex.status !== 401 && ex.status !== 403 && ex.status < 500;
      const facts = { expected: 'neither 401, 403 nor 5xx', actual: ex.status };
      ctx.expect.that('STK-AUTH-BEARER', `${op} with a valid Bearer key`, ok, facts, ex);
      ctx.expect.that('STK-AUTH-KEY', `${op} with the allow-listed key`, ok, facts, ex);
    }
    // The scheme is Bearer: the same key under another scheme is not the documented credential.
    const key = ctx.http.principal('primary')!.authorization!.replace(/^Bearer /, '');
    const ex = await ctx.http.send('listStacks', {
      as: null,
      headers: { authorization: `Basic ${Buffer.from(`${key}:`).toString('base64')}` },
    });
    ctx.observe('STK-AUTH-TOKEN', `the key sent under the Basic scheme is answered ${ex.status}`);
  },
};

export const forbiddenUserIs403: StacksCheck = {
  id: 'stacks.auth.not-allow-listed-403',
  title: 'Every operation MUST answer 403 with code Forbidden to an authenticated caller who is not on the allow list',
  requirements: ['STK-AUTH-403'],
  needs: ['forbidden'],
  async run(ctx) {
    for (const [op, opts] of everyOperation(ctx)) {
      const ex = await ctx.http.send(op, { ...opts, as: 'forbidden' });
      expectError(ctx, 'STK-AUTH-403', ex, 403, 'Forbidden', `${op} by a user not on the allow list`);
    }
  },
};

export const unknownKeyIsRefused: StacksCheck = {
  id: 'stacks.auth.unknown-key-refused',
  title:
    'A bearer key that was never issued MUST NOT be accepted: every operation requires bearer authentication (401 or 403; which one is left open)',
  requirements: ['STK-AUTH-BEARER', 'STK-AUTH-TOKEN'],
  async run(ctx) {
    const attempts: [string, Record<string, string>][] = [
      ['an unknown key', { authorization: `Bearer unknown-${ctx.options.runTag}` }],
      ['an empty bearer token', { authorization: 'Bearer ' }],
      ['a bare key without scheme', { authorization: `unknown-${ctx.options.runTag}` }],
    ];
    for (const [what, headers] of attempts) {
      for (const [op, opts] of everyOperation(ctx)) {
        const ex = await ctx.http.send(op, { ...opts, as: null, headers });
        if (ex.status === 202) await ctx.http.send('deleteStack', { as: null, headers, params: { stackId: String(asDoc(ex.json).id) } });
        // A key that was never issued authenticates nobody.
        ctx.expect.status('STK-AUTH-BEARER', `${op} with ${what}`, ex, [401, 403]);
        ctx.observe('STK-AUTH-TOKEN', `${what} is answered ${ex.status} ${String(codeOf(ex) ?? '')}`.trim());
      }
    }
  },
};
