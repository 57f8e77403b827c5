import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createTransport } from '../../core/transport';

let close: (() => void) | undefined;
afterEach(() => close?.());

/** A server that answers 429 while more than `calm` requests are in flight, and records the most it saw at once. */
async function strainedServer(calm: number) {
  let inFlight = 0;
  const seen = { most: 0, refused: 0 };
  const server = http.createServer((_req, res) => {
    inFlight++;
    seen.most = Math.max(seen.most, inFlight);
    const over = inFlight > calm;
    setTimeout(() => {
      inFlight--;
      if (over) seen.refused++;
      res.writeHead(over ? 429 : 200, over ? { 'retry-after': '0' } : {});
      res.end('{}');
    }, 20);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  close = () => server.close();
  return { base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

describe('a target that answers 429', () => {
  it('is sent the request again until it answers, and gets fewer requests in flight from then on', async () => {
    const { base, seen } = await strainedServer(2);
    const transport = createTransport({ timeoutMs: 5000, maxBodyBytes: 1 << 20, maxInFlight: 8 });
    try {
      const answers = await Promise.all(
        Array.from({ length: 40 }, (_, i) => transport.send({ method: 'GET', url: `${base}/r${i}`, headers: {} }, `lane${i % 4}`)),
      );
      expect(answers.map((a) => a.status)).toEqual(Array(40).fill(200));
      // Without backing off, every round of 8 would see 6 refusals: 40 requests would cost far more than 40 refusals.
      expect(seen.refused).toBeLessThan(20);
    } finally {
      transport.close();
    }
  });
});
