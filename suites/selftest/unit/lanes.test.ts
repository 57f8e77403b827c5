import { describe, expect, it } from 'vitest';
import { inLanes } from '../../core/lanes';
import { sleep } from '../../core/sleep';

describe('inLanes deals items over lanes that run side by side', () => {
  it('gives item i to lane i mod lanes, each lane in order, the lanes together', async () => {
    const seen: string[] = [];
    let inFlight = 0;
    let most = 0;
    await inLanes([1, 2, 3, 4, 5], ['a', 'b'], async (n, lane) => {
      most = Math.max(most, ++inFlight);
      await sleep(5);
      seen.push(`${lane}${n}`);
      inFlight--;
    });
    expect(seen.filter((s) => s.startsWith('a'))).toEqual(['a1', 'a3', 'a5']);
    expect(seen.filter((s) => s.startsWith('b'))).toEqual(['b2', 'b4']);
    expect(most).toBe(2);
  });

  it("stops a failing lane, runs the others to their end, then throws the lowest failing lane's error", async () => {
    const done: number[] = [];
    const run = inLanes([1, 2, 3, 4, 5, 6], ['a', 'b', 'c'], async (n) => {
      await sleep(n);
      if (n === 2 || n === 3) throw new Error(`case ${n}`);
      done.push(n);
    });
    await expect(run).rejects.toThrow('case 2');
    // Lane a (1, 4) ran to its end; lanes b and c stopped at their first item.
    expect(done.sort()).toEqual([1, 4]);
  });

  it('refuses no lanes, which would run nothing', async () => {
    await expect(inLanes([1], [], async () => undefined)).rejects.toThrow(/at least one lane/);
  });
});
