import fc from 'fast-check';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { listen, type RunningServer } from '../../../reference-impl/http/server';
import type { ApiHandler, ErrorBody } from '../../../reference-impl/http/types';
import { fuzzSeed, newStats, summary, type FuzzStats } from './fuzz-run';
import { wireClient, type WireClient } from './wire';

/**
 * The same fuzz property over real sockets, for either API: one server for the whole batch, and each run swaps in a
 * fresh handler behind it (`serve`) so runs stay independent without paying for a listen() each.
 */
export function describeOverSockets<P>(
  label: string,
  errorBody: ErrorBody,
  runs: number,
  plans: fc.Arbitrary<P>,
  run: (plan: P, client: WireClient, stats: FuzzStats, serve: (h: ApiHandler) => void) => Promise<void>,
): void {
  describe('through listen() with real sockets', () => {
    let server: RunningServer;
    let current: ApiHandler;
    beforeAll(async () => {
      server = await listen((req) => current(req), { errorBody });
    });
    afterAll(async () => server.close());

    it(`same properties over HTTP (${runs} runs)`, async () => {
      const client = wireClient(server.url);
      const stats = newStats();
      try {
        await fc.assert(
          fc.asyncProperty(plans, (plan) => run(plan, client, stats, (h) => (current = h))),
          { numRuns: runs, seed: fuzzSeed() },
        );
      } finally {
        client.close();
      }
      console.log(summary(`${label} over HTTP`, runs, stats));
    });
  });
}
