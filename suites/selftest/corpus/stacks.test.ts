import { describe, expect, it } from 'vitest';
import { stacksApi } from '../../stacks/index';
import { expectCaught, mustFailures, runOnServer, type Expected } from './expect';
import { STACK_BUGS, STACK_VARIANTS, startStacksServer } from '../../../corpus/servers/stacks-in-process/server';

/**
 * A server written from the stack document alone, without the suite's or the reference implementation's code: it
 * shares none of their assumptions. The suite reaches it the way a user does, through the README's variables.
 */
const runOn = (opts: Parameters<typeof startStacksServer>[0]) => runOnServer(stacksApi, startStacksServer, opts);

/** Per documented bug: the requirement it breaks, and the MUST requirements it may also fail because of it. */
const EXPECTED: Record<string, Expected> = {
  'auth-accept-unknown-key': { named: ['STK-AUTH-BEARER'] },
  'auth-missing-403': { named: ['STK-AUTH-401'] },
  'auth-missing-wrong-code': { named: ['STK-AUTH-401'] },
  'forbidden-as-401': { named: ['STK-AUTH-403'] },
  'forbidden-served': { named: ['STK-AUTH-403'] },
  'forbidden-wrong-code': { named: ['STK-AUTH-403'] },
  'version-unknown-wrong-code': { named: ['STK-CREATE-UNKNOWN-VERSION'] },
  'version-unknown-accepted': { named: ['STK-CREATE-UNKNOWN-VERSION'], collateral: ['STK-CREATE-REFUSED-NO-STACK'] },
  'version-unknown-message-silent': { named: ['STK-CREATE-UNKNOWN-VERSION'] },
  'body-not-json-accepted': { named: ['STK-CREATE-MALFORMED'], collateral: ['STK-CREATE-BODY-REQUIRED'] },
  'body-not-object-accepted': { named: ['STK-CREATE-MALFORMED'] },
  'body-version-type-accepted': { named: ['STK-CREATE-MALFORMED'] },
  'empty-object-rejected': { named: ['STK-CREATE-202'] },
  'unreleased-rejected': { named: ['STK-VERSIONS-SELECTABLE'], collateral: ['STK-SCHEMA-CREATE-REQUEST'] },
  'create-201': { named: ['STK-CREATE-202'], collateral: ['STK-ERR-STATUSES'] },
  'create-200': { named: ['STK-CREATE-202'], collateral: ['STK-ERR-STATUSES'] },
  'default-unreleased': { named: ['STK-CREATE-DEFAULT-VERSION'] },
  'default-oldest-released': { named: ['STK-CREATE-DEFAULT-VERSION'] },
  'version-drift': { named: ['STK-CREATE-CHOSEN-VERSION'] },
  'termination-before-created': { named: ['STK-CREATE-TERMINATION'] },
  'list-other-users': { named: ['STK-OWNERSHIP', 'STK-LIST-OWN'] },
  'get-other-user': { named: ['STK-OWNERSHIP'], collateral: ['STK-GET-404'] },
  'delete-other-user': { named: ['STK-OWNERSHIP'], collateral: ['STK-DELETE-404'] },
  // "A per-user maximum exists" but its value is not shown: no number of creates proves there is none.
  'limit-not-enforced': { untested: ['STK-LIMIT-409'] },
  'limit-wrong-code': { named: ['STK-LIMIT-409'] },
  'limit-429': { named: ['STK-LIMIT-409'], collateral: ['STK-ERR-STATUSES', 'STK-CREATE-202'] },
  'limit-counts-deleted': { named: ['STK-LIMIT-409'] },
  'limit-global': { named: ['STK-LIMIT-409'] },
  'get-unknown-200': { named: ['STK-GET-404'], collateral: ['STK-SCHEMA-DETAIL', 'STK-DELETE-EFFECT', 'STK-OWNERSHIP'] },
  'get-unknown-400': { named: ['STK-GET-404'], collateral: ['STK-ERR-STATUSES'] },
  'delete-unknown-204': { named: ['STK-DELETE-404'], collateral: ['STK-OWNERSHIP'] },
  'delete-200-body': { named: ['STK-DELETE-204'], collateral: ['STK-ERR-STATUSES'] },
  'not-found-wrong-code': { named: ['STK-GET-404', 'STK-DELETE-404'] },
  'stack-visible-late': { named: ['STK-CREATE-VISIBLE'], collateral: ['STK-DELETE-204', 'STK-OWNERSHIP', 'STK-LIMIT-409', 'STK-GET-200', 'STK-LIST-200'] },
  'summary-missing-field': { named: ['STK-SCHEMA-SUMMARY'], collateral: ['STK-LIST-200'] },
  'detail-missing-version': { named: ['STK-SCHEMA-DETAIL'], collateral: ['STK-CREATE-DEFAULT-VERSION', 'STK-CREATE-CHOSEN-VERSION', 'STK-GET-200'] },
  'state-pending': { named: ['STK-SCHEMA-STATE'], collateral: ['STK-CREATE-INITIAL-STATE'] },
  'created-at-not-iso': { named: ['STK-SCHEMA-SUMMARY'], collateral: ['STK-SCHEMA-DETAIL'] },
  'access-url-not-uri': { named: ['STK-SCHEMA-ACCESS'] },
  'access-details-incomplete': { named: ['STK-SCHEMA-ACCESS'], collateral: ['STK-ACCESS-DETAILS'] },
  'list-bare-array': { named: ['STK-SCHEMA-LIST'], collateral: ['STK-CREATE-VISIBLE', 'STK-LIST-200', 'STK-LIST-OWN'] },
  'versions-bad-status': { named: ['STK-SCHEMA-VERSION'] },
  'versions-missing-release-name': { named: ['STK-SCHEMA-VERSION'] },
  'versions-bare-array': { named: ['STK-SCHEMA-VERSIONS'], collateral: ['STK-VERSIONS-200'] },
  'error-missing-message': { named: ['STK-ERR-BODY'], collateral: ['STK-CREATE-UNKNOWN-VERSION', 'STK-GET-404', 'STK-DELETE-404'] },
  'error-missing-code': {
    named: ['STK-ERR-BODY'],
    collateral: ['STK-AUTH-401', 'STK-AUTH-403', 'STK-CREATE-BODY-REQUIRED', 'STK-CREATE-UNKNOWN-VERSION', 'STK-CREATE-MALFORMED', 'STK-GET-404', 'STK-DELETE-404', 'STK-LIMIT-409'],
  },
  'content-type-text': { named: ['STK-JSON'] },
};

describe('an independent stack server, correct but different: the suite passes every variant', () => {
  it.each(STACK_VARIANTS.map((v) => [v.id, v.description] as const))('%s', async (variant, description) => {
    const report = await runOn({ variant });
    expect(mustFailures(report), description).toEqual([]);
    expect(report.summary.gate).toBe('pass');
  });
});

describe('an independent stack server with one documented bug: the suite fails the named requirement, and little else', () => {
  it('has an expectation for every bug of the server', () => {
    expect(Object.keys(EXPECTED).sort()).toEqual(STACK_BUGS.map((b) => b.id).sort());
  });
  it.each(STACK_BUGS.map((b) => [b.id, b.clause] as const))('%s', async (bug, clause) => {
    expectCaught(await runOn({ variant: 'plain', bugs: [bug] }), EXPECTED[bug], clause);
  });
});
