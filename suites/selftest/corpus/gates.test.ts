import { describe, expect, it } from 'vitest';
import { mustFailed, shouldFailed } from '../harness';
import { type OpsServer, runOps, runStacks, transportFailures } from './servers';

/**
 * Every server here is correct, and their choices where the documents are silent (NOTES.md beside each) differ from
 * the reference's, the first independent pair's and each other's. Second pair: ULID stack ids, stacks that stay
 * visible as STOPPING after a delete, UUID keys, 422 and 201 answers, {messages: [...]} errors, entity membership
 * computed from service rules, tickets only on known episodes, {_key: null} for a service without template. Third
 * pair: UUID v4 stack ids listed by id, slow provisioning, a limit of 2 that STOPPING and ERROR stacks count against,
 * timestamps with a +09:00 offset, chunked answers on closed connections. The only failure the suite may report is
 * the plain HTTP of some ops servers, which the document's "Transport: HTTPS" rules out.
 */
describe.concurrent('servers written from the documents alone, run as processes', () => {
  // Fifth stacks server: stk- ids listed newest first, RUNNING at once for the default version, a limit of 3, a
  // versions list whose last entry is unreleased, 25 requests per second per key then 429 with Retry-After.
  // Eighth: every ambiguous sentence read the other way (NOTES.md, "Readings"): the latest released version by build
  // number (a hotfix built after a newer release), versions named by release name too, stacks readable while STOPPING
  // for 5 s, a limit checked before the body, a 404 message without the words "not found", +05:30 timestamps.
  for (const server of ['second', 'third', 'fifth', 'eighth'] as const)
    it(`${server} stacks server: the gate passes`, async () => {
      const report = await runStacks(server);
      expect(mustFailed(report)).toEqual([]);
      expect(report.summary.gate).toBe('pass');
    }, 120_000);

  /**
   * Each ops server, and the SHOULD requirements it departs from (its warnings). OPS-FILTER-STORE-SEMANTICS: a null
   * filter that matches only a stored null, or equality that does not look inside arrays (readings the document allows). The only MUST a run may fail is the
   * transport, where the server speaks plain HTTP ("Transport: HTTPS" rules it out).
   */
  const OPS_WARNINGS: [OpsServer, string[]][] = [
    ['second', []],
    // 24-hex keys listed in key order, 200 creates, 400 and 403 refusals, fields without _key unless named, gzip when
    // asked, a saved_searches preview member as an array of entries. Warns: a KPI's urgency as a number, where the
    // fields seen give a string; an authored pack's mod_time as epoch seconds.
    ['third', ['OPS-CPA-FIELDS', 'OPS-FILTER-STORE-SEMANTICS', 'OPS-TEMPLATE-KPI-FIELDS']],
    // Keys such as svc.000042:7k, lists by title, 201 creates and 204 deletes, 500 for a body that is not JSON,
    // deep-merging partial updates, requests served one at a time.
    ['fourth', []],
    // 32-hex upper-case keys, lists newest first, limit=0 answering [], XML 401 and plain-text 400 bodies, 96 spaces
    // before every JSON body, deflate, a 1 s keep-alive. Warns: urgency as a number; immutability taken to protect
    // only the category entry, not its icons.
    ['fifth', ['OPS-FILTER-STORE-SEMANTICS', 'OPS-ICON-CATEGORY-IMMUTABLE', 'OPS-TEMPLATE-KPI-FIELDS']],
    // The sixth and seventh read every ambiguous sentence the other way (NOTES.md, "Readings"): the install prefix
    // added to the objects' keys too, partial updates that leave out fields outside the schema, an icon total over the
    // whole collection, $regex that tests only strings, retire_retirable naming entities already retired, unique
    // service titles.
    ['sixth', ['OPS-FILTER-STORE-SEMANTICS', 'OPS-ICON-CATEGORY-IMMUTABLE']],
    ['seventh', ['OPS-FILTER-STORE-SEMANTICS', 'OPS-ICON-CATEGORY-IMMUTABLE', 'OPS-TEMPLATE-KPI-FIELDS']],
    // 81 readings over every section: associate_service_kpi answering only the KPIs it newly linked, core counts over
    // every object, natural sort order, type-strict filter equality.
    ['ninth', ['OPS-TEMPLATE-KPI-FIELDS']],
  ];
  for (const [server, warnings] of OPS_WARNINGS)
    it(`${server} ops server: no MUST fails but the transport, and it warns only where it departs from a SHOULD`, async () => {
      const report = await runOps(server);
      expect(mustFailed(report)).toEqual(transportFailures(server));
      expect(report.summary.gate).toBe(transportFailures(server).length ? 'fail' : 'pass');
      expect(shouldFailed(report).sort()).toEqual(warnings);
    }, 120_000);
});
