import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { Check } from '../../core/check';
import { checkProperty, Violation } from '../../core/property';
import { createExpect, type Facts } from '../../core/expect';
import { renderHtml } from '../../core/report/html';
import { renderJunit } from '../../core/report/junit';
import { renderMarkdown } from '../../core/report/markdown';
import type { Exchange } from '../../core/types';
import { summaryText } from '../../cli/summary';
import { stacksApi } from '../../stacks/index';
import { embeddedStacksTarget } from '../../stacks/target';
import { runAgainst } from '../harness';

/** Every call of the vocabulary, as the recorder received it. */
function recorded() {
  const calls: { requirement: string; ok: boolean; message: string; facts: Facts }[] = [];
  const vocabulary = createExpect((requirement, ok, message, _ex, facts) => {
    calls.push({ requirement, ok, message, facts });
    return ok;
  });
  return { calls, vocabulary };
}

const answered = (status: number) => ({ status }) as Exchange;

describe('the expectation vocabulary', () => {
  it('records one outcome per call with what was expected and what was seen, under the same words either way', () => {
    const { calls, vocabulary: v } = recorded();
    expect(v.status('R', 'create with {}', answered(202), 202)).toBe(true);
    expect(v.status('R', 'create with {}', answered(409), [400, 404])).toBe(false);
    expect(v.status('R', 'delete', answered(204), '2xx')).toBe(true);
    expect(v.status('R', 'a read of a key nobody has', answered(204), 'not 2xx')).toBe(false);
    expect(v.equal('R', 'platformVersion', '1.0', '1.0')).toBe(true);
    expect(v.equal('R', 'the listed entry', { a: [1, 2] }, { a: [1, 3] })).toBe(false);
    expect(v.contains('R', 'the list', ['a', 'b'], 'b')).toBe(true);
    expect(v.contains('R', 'the list', undefined, 'b')).toBe(false);
    expect(
      v.absent('R', 'the list', ['a', 'b'], { describe: 'a key starting with b', test: (x: unknown) => String(x).startsWith('b') }),
    ).toBe(false);
    expect(v.oneOf('R', 'state', 'ERROR', ['CREATING', 'RUNNING'])).toBe(false);
    expect(v.that('R', 'terminationDate', false, { expected: 'after createdAt 2024-01-02', actual: '2024-01-01' })).toBe(false);
    expect(calls.map((c) => [c.ok, c.facts.expected, c.facts.actual])).toEqual([
      [true, '202', '202'],
      [false, 'one of 400, 404', '409'],
      [true, '2xx', '204'],
      [false, 'not 2xx', '204'],
      [true, '"1.0"', '"1.0"'],
      [false, '{"a":[1,3]}', '{"a":[1,2]}'],
      [true, 'with "b"', '["a","b"]'],
      [false, 'with "b"', 'absent'],
      [false, 'without a key starting with b', 'with "b"'],
      [false, 'one of "CREATING", "RUNNING"', '"ERROR"'],
      [false, 'after createdAt 2024-01-02', '2024-01-01'],
    ]);
    expect(calls[0].message).toBe('create with {}');
    expect(calls[1].message).toBe('create with {}: expected one of 400, 404, got 409');
    expect(calls[10].message).toBe('terminationDate: expected after createdAt 2024-01-02, got 2024-01-01');
  });

  it('cuts long facts to a few hundred characters and keeps them out of the message', () => {
    const { calls, vocabulary: v } = recorded();
    v.equal(
      'R',
      'a long list',
      Array.from({ length: 500 }, (_, i) => i),
      [],
    );
    expect(calls[0].facts.actual.length).toBeLessThan(340);
    expect(calls[0].facts.actual).toMatch(/… \(\d+ chars\)$/);
    expect(calls[0].message).toBe('a long list');
  });
});

const speaking: Check = {
  id: 'selftest.expect',
  title: 'asserts through the vocabulary',
  requirements: ['STK-LIST-200', 'STK-VERSIONS-200'],
  async run(ctx) {
    const ex = await ctx.http.send('listStacks');
    ctx.expect.status('STK-LIST-200', 'list', ex, 200);
    ctx.expect.status('STK-VERSIONS-200', 'list, judged against a status it cannot have', ex, 418);
  },
};

const trespassing: Check = {
  id: 'selftest.expect-undeclared',
  title: 'asserts through the vocabulary against a requirement it does not declare',
  requirements: ['STK-GET-200'],
  async run(ctx) {
    ctx.expect.equal('STK-DELETE-204', 'not this check to say', 1, 1);
  },
};

const counterexample: Check = {
  id: 'selftest.expect-property',
  title: 'a property whose violation states what it expected',
  requirements: ['STK-GET-200'],
  async run(ctx) {
    const property = fc.asyncProperty(fc.integer({ min: 0, max: 9 }), async (n) => {
      if (n > 3) throw new Violation(`got ${n}`, 'STK-GET-200', undefined, { expected: 'at most 3', actual: n });
    });
    await checkProperty(ctx, 'STK-GET-200', 'small numbers', property, { examples: [[7]] });
  },
};

describe('a check using the vocabulary', () => {
  it("records a property's counterexample with the facts of its Violation", async () => {
    const api = { ...stacksApi, checks: [counterexample] };
    const report = await runAgainst(api, await embeddedStacksTarget());
    const q = report.requirements.find((r) => r.id === 'STK-GET-200')!;
    expect(q.status).toBe('failed');
    expect(q.evidence[0]).toMatchObject({ expected: 'at most 3', actual: '4' });
    expect(q.evidence[0].message).toMatch(/^small numbers: got 4 — minimal counterexample \[4\]/);
  });

  it('leaves expected and actual on its records, and every report shows them for a failure', async () => {
    const api = { ...stacksApi, checks: [speaking, trespassing] };
    const report = await runAgainst(api, await embeddedStacksTarget());
    const q = (id: string) => report.requirements.find((r) => r.id === id)!;
    expect(q('STK-LIST-200').status).toBe('passed');
    expect(q('STK-LIST-200').evidence[0]).toMatchObject({ outcome: 'pass', message: 'list', expected: '200', actual: '200' });
    expect(q('STK-VERSIONS-200').status).toBe('failed');
    expect(q('STK-VERSIONS-200').evidence[0]).toMatchObject({
      outcome: 'fail',
      message: 'list, judged against a status it cannot have: expected 418, got 200',
      expected: '418',
      actual: '200',
    });
    expect(q('STK-VERSIONS-200').evidence[0].evidence?.curl).toMatch(/^curl /);
    // A requirement the check does not declare is the tool's error, as with ctx.assert.
    expect(q('STK-GET-200').status).toBe('error');
    expect(q('STK-GET-200').reason).toMatch(/records against STK-DELETE-204, which it does not declare/);

    expect(renderMarkdown(report)).toMatch(/\| STK-VERSIONS-200 \|.*\| 418 \| 200 \|/);
    expect(renderJunit(report)).toMatch(/expected: 418\n {2}actual: +200/);
    expect(renderHtml(report)).toMatch(
      /<dl class="facts"><dt>expected<\/dt><dd><code>418<\/code><\/dd><dt>actual<\/dt><dd><code>200<\/code><\/dd><\/dl>/,
    );
    expect(summaryText(report, [])).toMatch(/FAIL STK-VERSIONS-200: list, judged against a status it cannot have: expected 418, got 200\n/);
  });
});

describe('a record says what kind of assertion made it', () => {
  it('each method of the vocabulary records its own kind', () => {
    const { calls, vocabulary } = recorded();
    const ex = { status: 404 } as Exchange;
    vocabulary.status('R', 'a status', ex, 200);
    vocabulary.equal('R', 'an equality', 1, 2);
    vocabulary.oneOf('R', 'one of', 1, [2, 3]);
    vocabulary.contains('R', 'a member', [1], 2);
    vocabulary.absent('R', 'no member', [1], 1);
    vocabulary.that('R', 'a predicate', false, { expected: 'x', actual: 'y' });
    expect(calls.map((c) => c.facts.kind)).toEqual(['status', 'equal', 'one-of', 'contains', 'absent', 'predicate']);
  });
});
