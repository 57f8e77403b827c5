import fc from 'fast-check';
import { it } from 'vitest';
import { settledHeap, mb } from './heap';
import { stacksWorld, resolveStack, stacksFingerprint } from './stacks-world';
import { callHandler, toApiRequest } from './api-request';
import { bodyText, methodInProcess } from './hostile';
import { plausibleStackBody, stackHeaders } from './stacks-world';

it('exp', async () => {
  const world = await stacksWorld(1);
  const bodies = fc.sample(bodyText(plausibleStackBody), { numRuns: 500, seed: 1 });
  const headers = fc.sample(stackHeaders, { numRuns: 500, seed: 2 });
  for (let round = 0; round < 6; round++) {
    const h0 = await settledHeap();
    for (let i = 0; i < 500; i++) {
      await callHandler(world.handler, toApiRequest({ method: i % 2 ? 'POST' : 'GET', target: '/v1/stacks', headers: headers[i]!, body: bodies[i]! }));
      await stacksFingerprint(world.handler);
    }
    console.log('round', round, mb((await settledHeap()) - h0));
  }
});
