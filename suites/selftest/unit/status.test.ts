import { describe, expect, it } from 'vitest';
import { requirementResult } from '../../core/status';
import type { AssertionRecord, Level, Observation, Requirement } from '../../core/types';

const req = (level: Level = 'MUST', extra: Partial<Requirement> = {}): Requirement => ({
  id: 'R-1',
  level,
  group: 'g',
  section: '1.2',
  clause: 'the clause',
  summary: 'the summary',
  checks: ['c.one'],
  ...extra,
});

const rec = (outcome: AssertionRecord['outcome'], message: string = outcome, extra: Partial<AssertionRecord> = {}): AssertionRecord => ({
  requirement: 'R-1',
  check: 'c.one',
  outcome,
  message,
  ...extra,
});

const obs = (note: string): Observation => ({ requirement: 'R-1', check: 'c.one', note });

describe('requirementResult: a requirement passes only through an assertion that ran', () => {
  it('passes when assertions passed and none failed, with up to three passing records as evidence', () => {
    const passes = ['a', 'b', 'c', 'd'].map((m) => rec('pass', m));
    const q = requirementResult(req(), passes, 4, []);
    expect([q.status, q.passed, q.failed, q.reason]).toEqual(['passed', 4, 0, undefined]);
    expect(q.evidence.map((e) => e.message)).toEqual(['a', 'b', 'c']);
  });

  it('is untested, never passed, when nothing ran, and says so', () => {
    const q = requirementResult(req(), [], 0, []);
    expect([q.status, q.reason, q.evidence]).toEqual(['untested', 'no assertion of this requirement ran', []]);
  });

  it('says so in terms of the schema when only the validating client covers it', () => {
    const q = requirementResult(req('MUST', { checks: ['ops.responses.conform-to-spec'] }), [], 0, []);
    expect([q.status, q.reason]).toEqual(['untested', expect.stringMatching(/^no answer of the run held the part of a schema/)]);
  });

  // The pass count is what the results counted as run: a stray pass record with no count behind it is not a pass.
  it('takes the pass from the count of assertions that ran, not from the records handed in', () => {
    expect(requirementResult(req(), [rec('pass')], 0, []).status).toBe('untested');
  });

  it('is untested when its only check could not establish it, with that check reason', () => {
    const q = requirementResult(req(), [rec('untested', 'no second user key'), rec('untested', 'no second user key')], 0, []);
    expect([q.status, q.reason]).toEqual(['untested', 'no second user key']);
  });

  it('passes although another of its checks was untested or skipped: one assertion that ran is enough', () => {
    const q = requirementResult(req(), [rec('untested', 'no key'), rec('skipped', 'destructive')], 1, []);
    expect([q.status, q.reason]).toEqual(['passed', undefined]);
  });
});

describe('requirementResult: failed outranks error, error outranks passed, untested outranks skipped', () => {
  it('fails on one failure among passes, counting both, with only the failures as evidence', () => {
    const q = requirementResult(req(), [rec('pass'), rec('fail', 'got 500'), rec('fail', 'got 502')], 7, []);
    expect([q.status, q.passed, q.failed, q.reason]).toEqual(['failed', 7, 2, undefined]);
    expect(q.evidence.map((e) => e.message)).toEqual(['got 500', 'got 502']);
  });

  // A failure is a verdict on the server; a tool error elsewhere in the same requirement must not hide it.
  it('fails rather than errs when one check failed and another broke', () => {
    const q = requirementResult(req(), [rec('error', 'TypeError in check'), rec('fail', 'got 500')], 0, []);
    expect([q.status, q.failed]).toEqual(['failed', 1]);
    expect(q.evidence.map((e) => e.outcome)).toEqual(['fail']);
  });

  it('errs rather than passes when a check broke, the distinct messages as reason and the errors as evidence', () => {
    const q = requirementResult(req(), [rec('pass'), rec('error', 'boom'), rec('error', 'boom'), rec('error', 'bang')], 3, []);
    expect([q.status, q.reason]).toEqual(['error', 'boom; bang']);
    expect(q.evidence.map((e) => e.message)).toEqual(['boom', 'boom', 'bang']);
  });

  it('is skipped when every check was skipped, the distinct reasons joined', () => {
    const q = requirementResult(
      req(),
      [rec('skipped', 'destructive'), rec('skipped', 'not selected by --only'), rec('skipped', 'destructive')],
      0,
      [],
    );
    expect([q.status, q.reason]).toEqual(['skipped', 'destructive; not selected by --only']);
  });

  // A check that ran and could not establish it (a missing key) says more than one left to another shard.
  it('is untested, with the untested reason only, when one check was untested and another skipped', () => {
    const q = requirementResult(req(), [rec('skipped', 'run in another shard than 1/2'), rec('untested', 'no second user key')], 0, []);
    expect([q.status, q.reason]).toEqual(['untested', 'no second user key']);
    expect(q.evidence.map((e) => e.outcome)).toEqual(['untested', 'skipped']);
  });

  it('keeps at most three untested or skipped records as evidence, untested first', () => {
    const q = requirementResult(req(), [rec('skipped', 's1'), rec('skipped', 's2'), rec('untested', 'u1'), rec('untested', 'u2')], 0, []);
    expect(q.evidence.map((e) => e.message)).toEqual(['u1', 'u2', 's1']);
  });
});

describe('requirementResult: level and what the report carries', () => {
  // The gate (report/model.ts summarize) is what forgives a SHOULD; the requirement itself still reads failed.
  it('reports a failed SHOULD as failed: the level does not soften the status', () => {
    expect(requirementResult(req('SHOULD'), [rec('fail')], 0, []).status).toBe('failed');
  });

  it('says an unspecified requirement with observations was observed, not judged', () => {
    const q = requirementResult(req('unspecified'), [], 0, [obs('answers 200'), obs('sorts by name')]);
    expect([q.status, q.reason]).toEqual(['untested', 'the document leaves this open: 2 observation(s) recorded, nothing judged']);
    expect(q.observations.map((o) => o.note)).toEqual(['answers 200', 'sorts by name']);
  });

  it('does not call a MUST with observations but no assertion "left open"', () => {
    expect(requirementResult(req('MUST'), [], 0, [obs('answers 200')]).reason).toBe('no assertion of this requirement ran');
  });

  it('is intermittent only when every failure disappeared on a re-run', () => {
    const flaky = rec('fail', 'x', { intermittent: true });
    expect(requirementResult(req(), [flaky, flaky], 0, []).intermittent).toBe(true);
    expect(requirementResult(req(), [flaky, rec('fail', 'y')], 0, []).intermittent).toBeUndefined();
    expect(requirementResult(req(), [rec('pass', 'p', { intermittent: true })], 1, []).intermittent).toBeUndefined();
  });

  it('carries the catalogue fields of the requirement through', () => {
    const r = req('SHOULD', { id: 'R-9', tolerance: 'any order', destructive: true, checks: ['a', 'b'] });
    const q = requirementResult(r, [], 0, []);
    expect(q).toMatchObject({
      id: 'R-9',
      level: 'SHOULD',
      group: 'g',
      section: '1.2',
      clause: 'the clause',
      summary: 'the summary',
      tolerance: 'any order',
      destructive: true,
      checks: ['a', 'b'],
    });
  });
});
