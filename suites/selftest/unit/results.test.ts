import { describe, expect, it } from 'vitest';
import { createResults } from '../../core/results';
import type { AssertionRecord } from '../../core/types';

const rec = (outcome: AssertionRecord['outcome'], requirement = 'R-1', check = 'c.one', message: string = outcome): AssertionRecord => ({
  requirement,
  check,
  outcome,
  message,
});

describe('createResults: passes are counted, not stored one by one', () => {
  it('counts every pass of a requirement, across its checks', () => {
    const r = createResults();
    for (const check of ['c.one', 'c.one', 'c.two']) r.record(rec('pass', 'R-1', check));
    r.record(rec('pass', 'R-2'));
    expect([r.passCount('R-1'), r.passCount('R-2'), r.passCount('R-never')]).toEqual([3, 1, 0]);
  });

  it('keeps one record per (requirement, check) pass: the first, with how many it stands for', () => {
    const r = createResults();
    r.record(rec('pass', 'R-1', 'c.one', 'first'));
    r.record(rec('pass', 'R-1', 'c.one', 'second'));
    r.record(rec('pass', 'R-1', 'c.two', 'other check'));
    r.record(rec('pass', 'R-2', 'c.one', 'other requirement'));
    expect(r.records().map((x) => [x.requirement, x.check, x.message, (x as { count?: number }).count])).toEqual([
      ['R-1', 'c.one', 'first', 2],
      ['R-1', 'c.two', 'other check', 1],
      ['R-2', 'c.one', 'other requirement', 1],
    ]);
  });

  // A fail, untested or skipped record never counts as a pass: the status of a requirement rests on this count.
  it('counts no pass for failures, errors, untested or skipped records', () => {
    const r = createResults();
    for (const o of ['fail', 'error', 'untested', 'skipped'] as const) r.record(rec(o));
    expect(r.passCount('R-1')).toBe(0);
  });
});

describe('createResults: other outcomes are stored as evidence', () => {
  it('stores every untested, skipped and error record, before the representative passes', () => {
    const r = createResults();
    r.record(rec('pass'));
    r.record(rec('untested', 'R-1', 'c.one', 'no key'));
    r.record(rec('skipped', 'R-1', 'c.one', 'destructive'));
    r.record(rec('error', 'R-1', 'c.one', 'boom'));
    r.record(rec('untested', 'R-1', 'c.one', 'no key'));
    expect(r.records().map((x) => x.outcome)).toEqual(['untested', 'skipped', 'error', 'untested', 'pass']);
  });

  // A broken target fails the same rule on every answer: the report keeps a few, the count keeps them all.
  it('keeps the first ten failures of one (requirement, check), and still counts the rest as assertions', () => {
    const r = createResults();
    for (let i = 0; i < 15; i++) r.record(rec('fail', 'R-1', 'c.one', `fail ${i}`));
    const kept = r.records().filter((x) => x.outcome === 'fail');
    expect(kept.map((x) => x.message)).toEqual(Array.from({ length: 10 }, (_, i) => `fail ${i}`));
    expect(r.assertions()).toBe(15);
  });

  it('caps failures per (requirement, check), not per requirement or per check', () => {
    const r = createResults();
    for (let i = 0; i < 12; i++) {
      r.record(rec('fail', 'R-1', 'c.one'));
      r.record(rec('fail', 'R-1', 'c.two'));
      r.record(rec('fail', 'R-2', 'c.one'));
    }
    const kept = r.records();
    const count = (q: string, c: string) => kept.filter((x) => x.requirement === q && x.check === c).length;
    expect([count('R-1', 'c.one'), count('R-1', 'c.two'), count('R-2', 'c.one')]).toEqual([10, 10, 10]);
  });
});

describe('createResults: assertions()', () => {
  it('counts passes and failures, the assertions evaluated, and nothing that did not run', () => {
    const r = createResults();
    for (const o of ['pass', 'pass', 'fail', 'untested', 'skipped', 'error'] as const) r.record(rec(o));
    expect(r.assertions()).toBe(3);
  });

  it('starts empty', () => {
    const r = createResults();
    expect([r.records(), r.assertions()]).toEqual([[], 0]);
  });
});
