import { describe, expect, it } from 'vitest';
import type { Check } from '../../core/check';
import { matchesOnly, registry } from '../../core/registry';

const check = (id: string, requirements: string[] = ['STK-CREATE-ACCEPTED']): Check => ({
  id,
  title: id,
  requirements,
  run: async () => undefined,
});

describe('registry', () => {
  it('returns the checks as given, in order', () => {
    const checks = [check('a.one'), check('a.two')];
    expect(registry(checks)).toEqual(checks);
  });

  // Ids key the config, --only, the catalogue and the report: a duplicate would merge two checks' results.
  it('refuses a duplicate check id at load time, naming it', () => {
    expect(() => registry([check('a.one'), check('a.two'), check('a.one')])).toThrow('duplicate check id a.one');
  });

  // A check that names no requirement could record nothing anyone reads.
  it('refuses a check that names no requirement, naming it', () => {
    expect(() => registry([check('a.one'), check('a.empty', [])])).toThrow('check a.empty names no requirement');
  });
});

describe('matchesOnly: --only patterns over check ids and requirement ids', () => {
  const c = check('stacks.create.accepted-202', ['STK-CREATE-ACCEPTED', 'STK-SCHEMA-CREATE-REQUEST']);

  it('selects every check when no pattern is given', () => {
    expect(matchesOnly(c, undefined)).toBe(true);
    expect(matchesOnly(c, [])).toBe(true);
  });

  it('matches a check by its exact id', () => {
    expect(matchesOnly(c, ['stacks.create.accepted-202'])).toBe(true);
    expect(matchesOnly(check('stacks.create.other'), ['stacks.create.accepted-202'])).toBe(false);
  });

  it('matches a check by any requirement id it names', () => {
    expect(matchesOnly(c, ['STK-SCHEMA-CREATE-REQUEST'])).toBe(true);
    expect(matchesOnly(c, ['STK-DELETE-GONE'])).toBe(false);
  });

  // A pattern names whole ids: `create` must not select every check with "create" in its id.
  it('matches whole ids only, not a part of one', () => {
    expect(matchesOnly(c, ['stacks.create'])).toBe(false);
    expect(matchesOnly(c, ['create.accepted-202'])).toBe(false);
    expect(matchesOnly(c, ['STK-CREATE'])).toBe(false);
  });

  it('reads * as any run of characters, dots and dashes included, over check and requirement ids', () => {
    expect(matchesOnly(c, ['stacks.*'])).toBe(true);
    expect(matchesOnly(c, ['*accepted*'])).toBe(true);
    expect(matchesOnly(c, ['STK-SCHEMA-*'])).toBe(true);
    expect(matchesOnly(c, ['*'])).toBe(true);
    expect(matchesOnly(c, ['ops.*'])).toBe(false);
    expect(matchesOnly(c, ['STK-DELETE-*'])).toBe(false);
  });

  // Ids are full of dots: a `.` in a pattern is a dot, and other regex syntax is plain text too.
  it('takes every other character literally: . ? + ( [ are not regex syntax', () => {
    expect(matchesOnly(check('stacksXcreate'), ['stacks.create'])).toBe(false);
    expect(matchesOnly(check('stacks.create'), ['stacks?create'])).toBe(false);
    expect(matchesOnly(check('stacks.create'), ['stacks.creat?'])).toBe(false);
    expect(matchesOnly(check('aa'), ['a+'])).toBe(false);
    expect(matchesOnly(check('a+'), ['a+'])).toBe(true);
    expect(matchesOnly(check('x(1)[2]'), ['x(1)[2]'])).toBe(true);
  });

  it('ignores case', () => {
    expect(matchesOnly(c, ['STACKS.CREATE.*'])).toBe(true);
    expect(matchesOnly(c, ['stk-create-accepted'])).toBe(true);
  });

  it('selects a check when any one of several patterns matches', () => {
    expect(matchesOnly(c, ['ops.*', 'STK-CREATE-ACCEPTED'])).toBe(true);
    expect(matchesOnly(c, ['ops.*', 'STK-DELETE-*'])).toBe(false);
  });
});
