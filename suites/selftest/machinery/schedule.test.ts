import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import type { Check } from '../../core/check';
import { createLedger } from '../../core/ledger';
import { costFrom, schedule } from '../../core/schedule';
import { sleep } from '../../core/sleep';
import { createTransport } from '../../core/transport';

const check = (id: string, extra: Partial<Check> = {}): Check => ({
  id,
  title: id,
  requirements: [],
  run: async () => undefined,
  ...extra,
});

/** Runs `checks` through the scheduler; each takes `ms`; returns the ids in flight at every start. */
async function overlaps(checks: Check[], width: number, ms = 5) {
  const running = new Set<string>();
  const seen: { id: string; beside: string[] }[] = [];
  let most = 0;
  await schedule(checks, width, async (c) => {
    seen.push({ id: c.id, beside: [...running] });
    running.add(c.id);
    most = Math.max(most, running.size);
    await sleep(ms);
    running.delete(c.id);
  });
  return { seen, most, beside: (id: string) => seen.find((s) => s.id === id)!.beside };
}

describe('schedule', () => {
  it('runs checks that declare nothing side by side, up to the width', async () => {
    const r = await overlaps(
      ['a', 'b', 'c', 'd', 'e'].map((id) => check(id)),
      3,
    );
    expect(r.seen.map((s) => s.id).sort()).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(r.most).toBe(3);
  });

  it('never runs two checks that share a piece of state together', async () => {
    const checks = [check('w1', { shares: ['x'] }), check('w2', { shares: ['x'] }), check('free')];
    const r = await overlaps(checks, 8);
    expect(r.beside('w2')).not.toContain('w1');
    expect(r.beside('w1')).not.toContain('w2');
  });

  it('runs checks that only use a piece of state together, never beside one that shares it', async () => {
    const checks = [
      check('r1', { uses: ['x'] }),
      check('r2', { uses: ['x'] }),
      check('w', { shares: ['x'] }),
      check('r3', { uses: ['x'] }),
    ];
    const r = await overlaps(checks, 8, 20);
    const together = r.seen.filter((s) => s.id.startsWith('r')).some((s) => s.beside.some((b) => b.startsWith('r')));
    expect(together).toBe(true);
    expect(r.beside('w').filter((b) => b.startsWith('r'))).toEqual([]);
    for (const id of ['r1', 'r2', 'r3']) expect(r.beside(id)).not.toContain('w');
  });

  it('runs a check that shares everything alone, and first', async () => {
    const r = await overlaps([check('a'), check('all', { shares: ['*'] }), check('b', { uses: ['y'] })], 8);
    expect(r.seen[0]).toEqual({ id: 'all', beside: [] });
    expect(r.seen.find((s) => s.beside.includes('all'))).toBeUndefined();
  });

  it('runs destructive checks that declare no state last, one at a time', async () => {
    const checks = [
      check('wide1', { destructive: true }),
      check('a'),
      check('bounded', { destructive: true, shares: ['z'] }),
      check('wide2', { destructive: true }),
      check('b'),
    ];
    const r = await overlaps(checks, 8);
    expect(r.seen.slice(-2).map((s) => s.id)).toEqual(['wide1', 'wide2']);
    expect(r.beside('wide1')).toEqual([]);
    expect(r.beside('wide2')).toEqual([]);
  });

  it('starts the longest chain of checks sharing state first, then the longest checks, whatever the registry order', async () => {
    const checks = [check('short'), check('long'), check('x1', { shares: ['x'] }), check('x2', { shares: ['x'] })];
    const seconds: Record<string, number> = { short: 1, long: 3, x1: 2, x2: 2 };
    const r = await overlaps(checks, 8);
    const weighted: string[] = [];
    await schedule(checks, 1 + 1, async (c) => void weighted.push(c.id), costFrom(seconds));
    expect(weighted).toEqual(['x1', 'long', 'x2', 'short']);
    // Without figures every check costs the same: chains of more members still go first.
    expect(r.seen.map((s) => s.id).slice(0, 2)).toEqual(['x1', 'short']);
  });

  it('counts a check missing from the figures as the median, so a new check is neither first nor last', () => {
    const cost = costFrom({ a: 1, b: 5, c: 9 });
    expect(cost(check('new'))).toBe(5);
    expect(cost(check('c'))).toBe(9);
    expect(costFrom({})(check('any'))).toBe(1);
  });

  it('keeps the registry order at width 1', async () => {
    const checks = [check('a', { shares: ['x'] }), check('b'), check('c', { shares: ['x'] }), check('d', { uses: ['x'] })];
    const r = await overlaps(checks, 1);
    expect(r.seen.map((s) => s.id)).toEqual(['a', 'b', 'c', 'd']);
  });
});

describe('ledger cleanup', () => {
  it('removes everything, retrying newest first what was refused while other objects remained', async () => {
    const ledger = createLedger();
    const gone = new Set<string>();
    // The container refuses to go while its content is there, as a team holding objects might.
    ledger.add('container', async () => (gone.has('content') ? (gone.add('container'), { status: 204 }) : { status: 409 }));
    ledger.add('content', async () => (await sleep(5), gone.add('content'), { status: 200 }));
    ledger.add('already gone', async () => ({ status: 404 }));
    const result = await ledger.cleanup();
    expect(result).toEqual({ removed: 3, failed: [] });
    expect([...gone].sort()).toEqual(['container', 'content']);
    expect(ledger.removed).toBe(3);
  });

  it('knows an entry by what it removes: a second add changes nothing, forget takes it off by name', async () => {
    const ledger = createLedger();
    const removed: string[] = [];
    ledger.add('service 1', async () => removed.push('first'));
    ledger.add('service 1', async () => removed.push('second'));
    ledger.add('service 2', async () => removed.push('two'));
    ledger.forget('service 2');
    expect(ledger.created).toBe(2);
    expect(await ledger.cleanup()).toEqual({ removed: 1, failed: [] });
    expect(removed).toEqual(['first']);
    expect(ledger.removed).toBe(2);
  });

  it('reports what could not be removed, once', async () => {
    const ledger = createLedger();
    ledger.add('stuck', async () => ({ status: 500 }));
    ledger.add('thrown', async () => {
      throw new Error('connection reset');
    });
    ledger.add('fine', async () => ({ status: 204 }));
    const result = await ledger.cleanup();
    expect(result.removed).toBe(1);
    expect(result.failed.sort()).toEqual(['stuck: delete answered 500', 'thrown: connection reset']);
    expect(await ledger.cleanup()).toEqual({ removed: 0, failed: [] });
  });
});

describe('requests in flight', () => {
  it("never exceed the cap, and a check sending one at a time is served between another check's burst", async () => {
    let inFlight = 0;
    let most = 0;
    const server = http.createServer((req, res) => {
      inFlight++;
      most = Math.max(most, inFlight);
      setTimeout(() => {
        inFlight--;
        res.end(req.url);
      }, 20);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const transport = createTransport({ timeoutMs: 5000, maxBodyBytes: 1 << 20, maxInFlight: 2 });
    const done: string[] = [];
    const send = (lane: string, path: string) =>
      transport.send({ method: 'GET', url: `${base}${path}`, headers: {} }, lane).then((ex) => done.push(ex.text));
    try {
      const burst = Array.from({ length: 10 }, (_, i) => send('burst', `/b${i}`));
      await sleep(5);
      await send('single', '/s0');
      await send('single', '/s1');
      await Promise.all(burst);
    } finally {
      transport.close();
      server.close();
    }
    expect(most).toBe(2);
    // Served in turn with the burst: both single requests finish before the burst's last ones.
    expect(done.indexOf('/s1')).toBeLessThan(done.indexOf('/b9'));
    expect(done.indexOf('/s1')).toBeLessThan(8);
  });
});
