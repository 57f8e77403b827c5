import { describe, expect, it } from 'vitest';
import { perTarget, perTargetAndRole } from '../../core/per-target';

describe('perTarget keeps one value per owner, made on first use', () => {
  it('gives the same value for the same owner and another for another', () => {
    let made = 0;
    const of = perTarget(() => ({ n: ++made }));
    const a = {};
    const b = {};
    expect(of(a)).toBe(of(a));
    expect(of(b)).not.toBe(of(a));
    expect(made).toBe(2);
  });

  it('per role: one set per owner and role', () => {
    const of = perTargetAndRole<string>();
    const t = {};
    of(t, 'primary').add('x');
    expect([...of(t, 'primary')]).toEqual(['x']);
    expect(of(t, 'second').size).toBe(0);
    expect(of({}, 'primary').size).toBe(0);
  });
});
