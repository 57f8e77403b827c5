import { describe, expect, it } from 'vitest';
import { UsageError } from '../../core/api';
import { mergeReports, missingShards } from '../../core/report/merge';
import { exitCodeOf } from '../../core/report/verdict';
import { type ComplianceReport, countOf, summarize } from '../../core/report/model';
import type { ApiRun } from '../../core/runner';
import type { AssertionRecord, Level, Status } from '../../core/types';

type Req = ComplianceReport['requirements'][number];
type ApiEntry = ComplianceReport['apis'][number];
type Shard = { index: number; count: number };

const req = (id: string, status: Status, extra: Partial<Req> = {}): Req => ({
  api: 'stacks',
  id,
  level: 'MUST',
  group: 'g',
  section: '1',
  clause: 'c',
  summary: 's',
  checks: ['c.one'],
  status,
  passed: status === 'passed' ? 1 : 0,
  failed: status === 'failed' ? 1 : 0,
  evidence: [],
  observations: [],
  ...extra,
});

const checkRun = (id: string, outcome: ApiRun['checks'][number]['outcome']): ApiRun['checks'][number] => ({
  id,
  title: id,
  requirements: ['R'],
  destructive: false,
  outcome,
  attempts: outcome === 'filtered' ? 0 : 1,
  ms: 1,
  requests: 1,
});

const apiEntry = (api: string, extra: Partial<ApiEntry> = {}): ApiEntry => ({
  api,
  title: api,
  target: { baseUrl: 'http://127.0.0.1:1', embedded: true },
  allowDestructive: true,
  specSha256: 'sha',
  summary: countOf([]),
  stats: { requests: 1, writes: 0, assertions: 1, ms: 10 },
  cleanup: { created: 0, removed: 0, failed: [] },
  checks: [],
  ...extra,
});

interface PartOptions {
  shard?: Shard;
  seed?: number;
  apis?: ApiEntry[];
  run?: Partial<ComplianceReport['run']>;
}

/** A report as one shard writes it; its own summary is computed the way a run computes it. */
const part = (requirements: Req[], o: PartOptions = {}): ComplianceReport => ({
  tool: { name: 'api-conformance', version: '0.1.0' },
  run: {
    startedAt: '2026-01-01T00:00:00Z',
    durationMs: 100,
    seed: o.seed ?? 1,
    runs: 1,
    retries: 0,
    runTag: 't',
    node: 'v20',
    config: o.shard ? { shard: o.shard } : {},
    ...o.run,
  },
  summary: summarize(requirements, { interrupted: o.run?.interrupted, requireAll: o.run?.requireAll }),
  apis: o.apis ?? [...new Set(requirements.map((q) => q.api))].map((a) => apiEntry(a)),
  requirements,
});

const s1 = { index: 1, count: 2 };
const s2 = { index: 2, count: 2 };
/** Two shards of one stacks run, each with the given requirements. */
const shards = (a: Req[], b: Req[]) => [
  part(a, { shard: s1, apis: [apiEntry('stacks')] }),
  part(b, { shard: s2, apis: [apiEntry('stacks')] }),
];
const merged = (a: Req[], b: Req[]) => mergeReports(shards(a, b));
const only = (r: ComplianceReport, id = 'R') => r.requirements.find((q) => q.id === id)!;

/** The message of the refusal: a UsageError (one line, exit 2 in `report --merge`), not a crash. */
function refusal(parts: ComplianceReport[], names?: string[]): string {
  try {
    mergeReports(parts, names);
  } catch (e) {
    expect(e).toBeInstanceOf(UsageError);
    return (e as Error).message;
  }
  throw new Error('merged without a refusal');
}

describe('a merge is a whole run only with every shard 1..N', () => {
  const third = (index: number) =>
    part([req('R', index === 1 ? 'passed' : 'skipped', { reason: 'run in another shard than 2/3' })], {
      shard: { index, count: 3 },
    });

  it('shards 1 and 2 of 3: incomplete (exit 2), and the requirements no shard ran say why', () => {
    const r = mergeReports([third(1), third(2)]);
    expect(r.summary.gate).toBe('incomplete');
    expect(r.summary.incomplete).toMatch(/^Shards missing from the merge: 3\/3 of the stacks API\./);
    expect(exitCodeOf(r.summary)).toBe(2);
    expect(missingShards([third(1), third(2)])).toEqual([{ api: 'stacks', missing: [3], count: 3 }]);
  });

  it('one shard alone is no run either, however green it is', () => {
    const r = mergeReports([part([req('R', 'passed')], { shard: { index: 2, count: 2 } })]);
    expect(r.summary.gate).toBe('incomplete');
    expect(r.summary.incomplete).toContain('1/2 of the stacks API');
  });

  it("every shard: the gate is the requirements' verdict, and nothing is missing", () => {
    const r = mergeReports([third(1), third(2), third(3)]);
    expect(r.summary.gate).toBe('pass');
    expect(r.summary.incomplete).toBeUndefined();
    expect(exitCodeOf(r.summary)).toBe(0);
  });

  it('a requirement only the missing shard would have run is not "run in another shard"', () => {
    const r = mergeReports([part([req('R', 'skipped', { reason: 'run in another shard than 1/2' })], { shard: s1 })]);
    expect(only(r).reason).toBe('not run: its shard is missing from the merge');
  });
});

describe('mergeReports refuses parts that are not the shards of one run', () => {
  it('refuses nothing to merge', () => {
    expect(refusal([])).toBe('nothing to merge');
  });

  // Shards with different seeds generated different cases: their union is no run at all.
  it('refuses different seeds, naming both files and seeds', () => {
    const parts = [part([req('R', 'passed')], { shard: s1, seed: 1 }), part([req('R', 'passed')], { shard: s2, seed: 2 })];
    expect(refusal(parts, ['a.json', 'b.json'])).toBe(
      'cannot merge: a.json has seed 1 but b.json has seed 2 (the shards of one run share --seed)',
    );
  });

  it('refuses the same shard of an API twice (it would be counted twice)', () => {
    const parts = [part([req('R', 'passed')], { shard: s1 }), part([req('R', 'passed')], { shard: s1 })];
    expect(refusal(parts, ['a.json', 'b.json'])).toBe('cannot merge: a.json and b.json are both shard 1/2 of the stacks API');
  });

  it('refuses two whole runs of the same API', () => {
    expect(refusal([part([req('R', 'passed')]), part([req('R', 'failed')])])).toBe(
      'cannot merge: report 1 and report 2 are both a whole run (no --shard) of the stacks API',
    );
  });

  it('refuses shards of one API sliced by different counts', () => {
    const parts = [
      part([req('R', 'passed')], { shard: { index: 1, count: 2 } }),
      part([req('R', 'passed')], { shard: { index: 2, count: 3 } }),
    ];
    expect(refusal(parts, ['a.json', 'b.json'])).toBe(
      'cannot merge: a.json is shard 1/2 but b.json is shard 2/3 of the stacks API (shards of one run use the same N)',
    );
  });

  it('refuses a whole run beside a shard of the same API', () => {
    expect(refusal([part([req('R', 'passed')]), part([req('R', 'passed')], { shard: s2 })], ['a.json', 'b.json'])).toBe(
      'cannot merge: a.json is a whole run (no --shard) but b.json is shard 2/2 of the stacks API (shards of one run use the same N)',
    );
  });

  // Shards judged against different requirements (another suite, another spec) are not one run.
  it('refuses shards written by different versions of the suite', () => {
    const [a, b] = shards([req('R', 'passed')], [req('R', 'passed')]);
    expect(refusal([a, { ...b, tool: { ...b.tool, version: '0.2.0' } }], ['a.json', 'b.json'])).toBe(
      'cannot merge: a.json was written by api-conformance 0.1.0 but b.json by api-conformance 0.2.0 (run every shard with the same suite)',
    );
  });

  it('refuses shards that judged one API against different specs', () => {
    const parts = [
      part([req('R', 'passed')], { shard: s1, apis: [apiEntry('stacks')] }),
      part([req('R', 'passed')], { shard: s2, apis: [apiEntry('stacks', { specSha256: 'other' })] }),
    ];
    expect(refusal(parts, ['a.json', 'b.json'])).toBe(
      'cannot merge: a.json and b.json judged the stacks API against different specs (sha256 sha and other)',
    );
  });

  // Each API is sliced on its own: only shards of the same API must agree.
  it('accepts runs of different APIs, whatever their shards', () => {
    const parts = [part([req('R', 'passed')]), part([req('R', 'failed', { api: 'ops' })], { shard: { index: 1, count: 3 } })];
    expect(mergeReports(parts).requirements.map((q) => [q.api, q.id, q.status])).toEqual([
      ['stacks', 'R', 'passed'],
      ['ops', 'R', 'failed'],
    ]);
  });
});

describe('mergeReports: a requirement takes the strongest status any shard found', () => {
  it('keeps the union of the requirements of every shard', () => {
    const r = merged([req('A', 'passed'), req('C', 'passed')], [req('B', 'passed'), req('C', 'passed')]);
    expect(r.requirements.map((q) => q.id)).toEqual(['A', 'C', 'B']);
  });

  it.each<[Status, Status, Status]>([
    ['passed', 'failed', 'failed'],
    ['failed', 'passed', 'failed'],
    ['failed', 'untested', 'failed'],
    ['skipped', 'failed', 'failed'],
    ['passed', 'error', 'error'],
    ['failed', 'error', 'failed'],
    ['error', 'failed', 'failed'],
    ['untested', 'passed', 'passed'],
    ['passed', 'skipped', 'passed'],
    ['skipped', 'untested', 'untested'],
    ['untested', 'skipped', 'untested'],
  ])('%s in shard 1 and %s in shard 2 merge to %s', (a, b, want) => {
    expect(only(merged([req('R', a)], [req('R', b)])).status).toBe(want);
  });

  it('adds up the passes and failures of every shard', () => {
    const q = only(merged([req('R', 'passed', { passed: 4 })], [req('R', 'failed', { passed: 2, failed: 3 })]));
    expect([q.passed, q.failed]).toEqual([6, 3]);
  });

  it('keeps the reason of an untested or skipped winner, and none for a verdict', () => {
    expect(only(merged([req('R', 'skipped', { reason: 'in another shard' })], [req('R', 'untested', { reason: 'no key' })])).reason).toBe(
      'no key',
    );
    expect(only(merged([req('R', 'untested', { reason: 'no key' })], [req('R', 'passed')])).reason).toBeUndefined();
  });

  it('keeps the evidence of the winner, and of both shards when they agree', () => {
    const fail = (m: string): AssertionRecord => ({ requirement: 'R', check: 'c', outcome: 'fail', message: m });
    const pass: AssertionRecord = { requirement: 'R', check: 'c', outcome: 'pass', message: 'ok' };
    expect(only(merged([req('R', 'passed', { evidence: [pass] })], [req('R', 'failed', { evidence: [fail('x')] })])).evidence).toEqual([
      fail('x'),
    ]);
    expect(only(merged([req('R', 'failed', { evidence: [fail('x')] })], [req('R', 'failed', { evidence: [fail('y')] })])).evidence).toEqual(
      [fail('x'), fail('y')],
    );
  });

  // A failure that went away on a re-run in one shard but held in another is a real failure.
  it('is intermittent only when every shard that failed failed intermittently', () => {
    const flaky = req('R', 'failed', { intermittent: true });
    expect(only(merged([flaky], [req('R', 'passed')])).intermittent).toBe(true);
    expect(only(merged([flaky], [flaky])).intermittent).toBe(true);
    expect(only(merged([flaky], [req('R', 'failed')])).intermittent).toBeUndefined();
    expect(only(merged([req('R', 'passed')], [req('R', 'passed')])).intermittent).toBeUndefined();
  });

  it('keeps each observation once', () => {
    const o = (note: string) => ({ requirement: 'R', check: 'c', note });
    const q = only(
      merged(
        [req('R', 'untested', { observations: [o('sorted'), o('200')] })],
        [req('R', 'untested', { observations: [o('200'), o('paged')] })],
      ),
    );
    expect(q.observations.map((x) => x.note)).toEqual(['sorted', '200', 'paged']);
  });
});

describe('mergeReports: the merged summary is computed again from the merged requirements', () => {
  // Shard 1 saw R pass and its own gate passed; shard 2 saw R fail: the merged run failed.
  it('fails the gate on a MUST failure in any one shard', () => {
    const parts = shards([req('R', 'passed'), req('S', 'passed')], [req('R', 'failed')]);
    expect(parts[0].summary.gate).toBe('pass');
    const r = mergeReports(parts);
    expect(r.summary).toMatchObject({ gate: 'fail', total: 2, passed: 1, failed: 1 });
    expect(r.apis[0].summary).toEqual({ total: 2, passed: 1, failed: 1, skipped: 0, untested: 0, error: 0 });
  });

  it('passes the gate when the only failure is a SHOULD: a warning, not a failure of the gate', () => {
    const should = (s: Status) => req('R', s, { level: 'SHOULD' as Level });
    const r = merged([should('passed'), req('S', 'passed')], [should('failed')]);
    expect(r.summary).toMatchObject({ gate: 'pass', failed: 1, warnings: 1 });
  });

  it('passes the gate when each shard passed what the other left to it', () => {
    const r = merged(
      [req('R', 'passed'), req('S', 'skipped', { reason: 'in another shard' })],
      [req('R', 'skipped', { reason: 'in another shard' }), req('S', 'passed')],
    );
    expect(r.summary).toMatchObject({ gate: 'pass', passed: 2, skipped: 0 });
  });

  it('is incomplete when any shard was interrupted', () => {
    const parts = [part([req('R', 'passed')], { shard: s1 }), part([req('R', 'passed')], { shard: s2, run: { interrupted: true } })];
    const r = mergeReports(parts);
    expect([r.summary.gate, r.run.interrupted]).toEqual(['incomplete', true]);
  });

  it('applies --require-all when any shard was run with it: an unverified MUST fails the gate', () => {
    const unverified = req('R', 'untested', { reason: 'no key', enabledBy: 'STACKS_SECOND_API_KEY' });
    const parts = [part([unverified], { shard: s1 }), part([req('S', 'passed')], { shard: s2, run: { requireAll: true } })];
    expect(mergeReports(parts).summary).toMatchObject({ gate: 'fail', unverified: 1 });
    expect(merged([unverified], [req('S', 'passed')]).summary).toMatchObject({ gate: 'pass', unverified: 1 });
  });
});

describe('mergeReports: the run and the APIs', () => {
  it('adds up requests, writes, assertions and cleanup, takes the longest time, and keeps the check each shard ran', () => {
    const a = apiEntry('stacks', {
      stats: { requests: 10, writes: 2, assertions: 5, ms: 300 },
      cleanup: { created: 2, removed: 2, failed: [] },
      checks: [checkRun('c.one', 'ran'), checkRun('c.two', 'filtered')],
    });
    const b = apiEntry('stacks', {
      stats: { requests: 7, writes: 1, assertions: 4, ms: 500 },
      cleanup: { created: 1, removed: 0, failed: ['stack s-1'] },
      checks: [checkRun('c.one', 'filtered'), checkRun('c.two', 'untested')],
    });
    const r = mergeReports([part([req('R', 'passed')], { shard: s1, apis: [a] }), part([req('R', 'passed')], { shard: s2, apis: [b] })]);
    expect(r.apis).toHaveLength(1);
    expect(r.apis[0].stats).toEqual({ requests: 17, writes: 3, assertions: 9, ms: 500 });
    expect(r.apis[0].cleanup).toEqual({ created: 3, removed: 2, failed: ['stack s-1'] });
    expect(r.apis[0].checks.map((c) => [c.id, c.outcome])).toEqual([
      ['c.one', 'ran'],
      ['c.two', 'untested'],
    ]);
  });

  it('says which shards it was merged from and drops the shard of its own', () => {
    const parts = [
      part([req('R', 'passed')], { shard: s1, run: { durationMs: 100 } }),
      part([req('R', 'passed')], { shard: s2, run: { durationMs: 250 } }),
    ];
    const r = mergeReports(parts);
    expect(r.run.durationMs).toBe(250);
    expect(r.run.config).toEqual({ shard: undefined, mergedFrom: 2, shards: [s1, s2] });
    expect(mergeReports([part([req('R', 'passed')]), part([req('R', 'passed', { api: 'ops' })])]).run.config.shards).toEqual([null, null]);
  });

  // `report --merge` may go on to render or compare the parts: merging must leave them as they were read.
  it('leaves the parts unchanged', () => {
    const parts = shards(
      [req('R', 'failed', { evidence: [{ requirement: 'R', check: 'c', outcome: 'fail', message: 'x' }] })],
      [req('R', 'failed')],
    );
    const before = structuredClone(parts);
    mergeReports(parts);
    expect(parts).toEqual(before);
  });
});
