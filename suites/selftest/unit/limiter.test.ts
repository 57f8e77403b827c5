import { describe, expect, it } from 'vitest';
import { limiter } from '../../core/transport';

/** Starts `count` calls that each hold their place until released; returns how many run at once. */
function occupy(slot: ReturnType<typeof limiter>, count: number) {
  let running = 0;
  let most = 0;
  const releases: (() => void)[] = [];
  const done = Array.from({ length: count }, () =>
    slot.run(async () => {
      running++;
      most = Math.max(most, running);
      await new Promise<void>((r) => releases.push(r));
      running--;
    }),
  );
  return { done, releases, running: () => running, most: () => most };
}

const tick = () => new Promise((r) => setImmediate(r));

describe('limiter', () => {
  it('never runs more than n at once', async () => {
    const slot = limiter(3);
    const o = occupy(slot, 7);
    await tick();
    expect(o.running()).toBe(3);
    while (o.releases.length) {
      o.releases.shift()!();
      await tick();
    }
    await Promise.all(o.done);
    expect(o.most()).toBe(3);
  });

  it('halves what it keeps in flight when the target shows strain, and never goes below one', () => {
    const slot = limiter(8);
    slot.strained();
    expect(slot.width).toBe(4);
    slot.strained();
    slot.strained();
    slot.strained();
    expect(slot.width).toBe(1);
  });

  it('climbs back one place per round of calm answers, never beyond n', () => {
    const slot = limiter(4);
    slot.strained();
    expect(slot.width).toBe(2);
    slot.answered();
    expect(slot.width).toBe(2);
    slot.answered();
    expect(slot.width).toBe(3);
    for (let i = 0; i < 20; i++) slot.answered();
    expect(slot.width).toBe(4);
  });

  it('lets the calls in flight when a strain came drain before it starts others', async () => {
    const slot = limiter(4);
    const o = occupy(slot, 8);
    await tick();
    expect(o.running()).toBe(4);
    slot.strained();
    // Two of the four end: the width is now 2, so none of the waiting calls starts yet.
    o.releases.shift()!();
    o.releases.shift()!();
    await tick();
    expect(o.running()).toBe(2);
    o.releases.shift()!();
    await tick();
    expect(o.running()).toBe(2);
    while (o.releases.length) {
      o.releases.shift()!();
      await tick();
      await tick();
    }
    await Promise.all(o.done);
  });
});
