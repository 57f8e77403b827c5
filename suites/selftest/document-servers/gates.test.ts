import { describe, expect, it } from 'vitest';
import { mustFailed, shouldFailed } from '../harness';
import { type Pair, runOps, runStacks } from './servers';

/**
 * Every server here is correct, and their choices where the documents are silent (NOTES.md beside each) differ from
 * the reference's, the first independent pair's and each other's. Second pair: ULID stack ids, stacks that stay
 * visible as STOPPING after a delete, UUID keys, 422 and 201 answers, {messages: [...]} errors, entity membership
 * computed from service rules, tickets only on known episodes, {_key: null} for a service without template. Third
 * pair: UUID v4 stack ids listed by id, slow provisioning, a limit of 2 that STOPPING and ERROR stacks count against,
 * timestamps with a +09:00 offset, chunked answers on closed connections. The only failure the suite may report is
 * the second ops server's plain HTTP, which the document's "Transport: HTTPS" rules out.
 */
describe.concurrent('servers written from the documents alone, run as processes', () => {
  // Fifth stacks server: stk- ids listed newest first, RUNNING at once for the default version, a limit of 3, a
  // versions list whose last entry is unreleased, 25 requests per second per key then 429 with Retry-After.
  // Eighth: every ambiguous sentence read the other way (NOTES.md, "Readings"): the latest released version by build
  // number (a hotfix built after a newer release), versions named by release name too, stacks readable while STOPPING
  // for 5 s, a limit checked before the body, a 404 message without the words "not found", +05:30 timestamps.
  for (const pair of ['second', 'third', 'fifth', 'eighth'] as const)
    it(`${pair} stacks server: the gate passes`, async () => {
      const report = await runStacks(pair);
      expect(mustFailed(report)).toEqual([]);
      expect(report.summary.gate).toBe('pass');
    }, 120_000);

  // Its choices: 24-hex keys listed in key order, 200 creates, 400 and 403 refusals, fields without _key unless named,
  // partial updates that drop fields outside the schema the object does not hold, gzip when asked, a saved_searches
  // preview member as an array of entries, epoch-second timestamps where no format is shown.
  it('third ops server (HTTPS, self-signed): the gate passes, and warns only where it departs from the fields seen', async () => {
    const report = await runOps('third');
    expect(mustFailed(report)).toEqual([]);
    expect(report.summary.gate).toBe('pass');
    // A KPI's urgency as a number, where the fields seen give a string; an authored pack's mod_time as epoch seconds.
    expect(shouldFailed(report).sort()).toEqual(['OPS-CPA-FIELDS', 'OPS-TEMPLATE-KPI-FIELDS']);
  }, 120_000);

  // The fifth: 32-hex upper-case keys, lists newest first, limit=0 answering [], XML 401 and plain-text 400 bodies,
  // 200 deletes with an empty body, 96 spaces before every JSON body, deflate, a 1 s keep-alive, 403 on another
  // team's object, icons deletable from categories marked immutable.
  // The ninth reads all 81 ambiguous sentences it found the other way (NOTES.md, "Readings"): associate_service_kpi
  // answering only the KPIs it newly linked, core counts over every object (only counts of windows and jobs are said
  // to reflect access), natural sort order, type-strict filter equality, a full update without sec_grp moving the
  // object back to Global.
  it('ninth ops server (HTTPS, self-signed): the gate passes, and warns only where it departs from a list of fields seen', async () => {
    const report = await runOps('ninth');
    expect(mustFailed(report)).toEqual([]);
    expect(report.summary.gate).toBe('pass');
    expect(shouldFailed(report)).toEqual(['OPS-TEMPLATE-KPI-FIELDS']);
  }, 120_000);

  it('fifth ops server (HTTPS, self-signed): the gate passes, and warns only where it departs from a SHOULD', async () => {
    const report = await runOps('fifth');
    expect(mustFailed(report)).toEqual([]);
    expect(report.summary.gate).toBe('pass');
    // A KPI's urgency as a number, where the fields seen give a string; immutability taken to protect only the
    // category entry, not its icons.
    expect(shouldFailed(report).sort()).toEqual(['OPS-ICON-CATEGORY-IMMUTABLE', 'OPS-TEMPLATE-KPI-FIELDS']);
  }, 120_000);

  // The fourth: keys such as svc.000042:7k, lists by title, 201 creates and 204 deletes, 500 for a body that is not
  // JSON, deep-merging partial updates that drop fields the type does not know, requests served one at a time.
  // The sixth and seventh read every ambiguous sentence the other way (NOTES.md, "Readings"): the prefix added to the
  // installed objects' keys too, partial updates that leave out fields outside the schema, limit=0 answering [], an
  // icon total over the whole collection, $regex that tests only strings, retire_retirable naming entities already
  // retired, unique service titles, text/json bodies after 40 or 48 spaces, 201 creates and bare-string answers.
  const PLAIN: [Pair, string[]][] = [
    ['second', []],
    ['fourth', []],
    ['sixth', ['OPS-ICON-CATEGORY-IMMUTABLE']],
    ['seventh', ['OPS-ICON-CATEGORY-IMMUTABLE', 'OPS-TEMPLATE-KPI-FIELDS']],
  ];
  for (const [pair, warnings] of PLAIN)
    it(`${pair} ops server: the only MUST that fails is the transport (the server speaks plain HTTP)`, async () => {
      const report = await runOps(pair);
      expect(mustFailed(report)).toEqual(['OPS-AUTH-HTTPS']);
      expect(shouldFailed(report).sort()).toEqual(warnings);
    }, 120_000);
});
