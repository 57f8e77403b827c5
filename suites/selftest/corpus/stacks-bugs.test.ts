import { describe, it } from 'vitest';
import { expectCaught, type Expected } from './expect';
import { runStacks } from './servers';

/**
 * The documented bugs of the stack servers written from the document (BUGS.md beside each, with the clause each one
 * breaks): each must fail its named requirement, and no MUST beyond the stated collateral.
 */
const SECOND_STACKS_BUGS: Record<string, Expected> = {
  'default-unreleased': { named: ['STK-CREATE-DEFAULT-VERSION'] },
  'version-prefix-match': { reading: 'which values the service "knows" beyond its list is not said: "9.3" may name a listed 9.3 build' },
  'malformed-body-500': { named: ['STK-CREATE-MALFORMED'] },
  'missing-key-403': { named: ['STK-AUTH-401'] },
  'allowlist-create-only': { named: ['STK-AUTH-403'] },
  'list-all-users': { named: ['STK-LIST-OWN'], collateral: ['STK-OWNERSHIP'] },
  'delete-other-user': { named: ['STK-DELETE-404'], collateral: ['STK-OWNERSHIP'] },
  // 429 is not among the statuses the document lists for create.
  'limit-status-429': { named: ['STK-LIMIT-409'], collateral: ['STK-ERR-STATUSES', 'STK-CREATE-202'] },
  'delete-200-body': { named: ['STK-DELETE-204'], collateral: ['STK-ERR-STATUSES'] },
  'list-missing-termination': { named: ['STK-SCHEMA-SUMMARY'], collateral: ['STK-LIST-200'] },
  'access-details-no-password': { named: ['STK-ACCESS-DETAILS'], collateral: ['STK-SCHEMA-ACCESS'] },
  'state-provisioning': { named: ['STK-CREATE-INITIAL-STATE'], collateral: ['STK-SCHEMA-STATE'] },
};

const THIRD_STACKS_BUGS: Record<string, Expected> = {
  'version-string-sort': { named: ['STK-CREATE-DEFAULT-VERSION'] },
  'list-all-users': { named: ['STK-LIST-OWN'], collateral: ['STK-OWNERSHIP'] },
  'cross-user-access': { named: ['STK-GET-404', 'STK-DELETE-404'], collateral: ['STK-OWNERSHIP'] },
  'no-allowlist': { named: ['STK-AUTH-403'] },
  // At a limit of 2 the other creating checks meet the 429 too.
  'limit-429': { named: ['STK-LIMIT-409'], collateral: ['STK-ERR-STATUSES', 'STK-CREATE-202', 'STK-CREATE-UNKNOWN-VERSION'] },
  'unknown-version-404': { named: ['STK-CREATE-UNKNOWN-VERSION'], collateral: ['STK-ERR-STATUSES'] },
  'delete-200': { named: ['STK-DELETE-204'], collateral: ['STK-ERR-STATUSES'] },
  'malformed-500': { named: ['STK-CREATE-MALFORMED'] },
};

const FIFTH_STACKS_BUGS: Record<string, Expected> = {
  'missing-key-403': { named: ['STK-AUTH-401'] },
  'no-allowlist': { named: ['STK-AUTH-403'] },
  'cross-user-access': { named: ['STK-GET-404', 'STK-DELETE-404'], collateral: ['STK-OWNERSHIP'] },
  'default-last-entry': { named: ['STK-CREATE-DEFAULT-VERSION'] },
  'malformed-json-500': { named: ['STK-CREATE-MALFORMED'] },
  'delete-200-body': { named: ['STK-DELETE-204'], collateral: ['STK-ERR-STATUSES'] },
  'limit-wrong-code': { named: ['STK-LIMIT-409'] },
  'creating-no-termination': { named: ['STK-SCHEMA-SUMMARY'], collateral: ['STK-SCHEMA-DETAIL'] },
};

const EIGHTH_STACKS_BUGS: Record<string, Expected> = {
  // The versions list without a key: the suite reads it with each of its keys, the forbidden one too.
  'no-auth-versions': { named: ['STK-AUTH-401'], collateral: ['STK-AUTH-BEARER', 'STK-AUTH-403'] },
  'forbidden-list': { named: ['STK-AUTH-403'] },
  'cross-user-get': { named: ['STK-GET-404'], collateral: ['STK-OWNERSHIP'] },
  'default-unreleased': { named: ['STK-CREATE-DEFAULT-VERSION'] },
  'unknown-version-accepted': { named: ['STK-CREATE-UNKNOWN-VERSION'], collateral: ['STK-CREATE-REFUSED-NO-STACK'] },
  'delete-200': { named: ['STK-DELETE-204'], collateral: ['STK-ERR-STATUSES'] },
  'malformed-500': { named: ['STK-CREATE-MALFORMED'], collateral: ['STK-CREATE-BODY-REQUIRED'] },
  // This server checks the limit before the body: at the limit, every create the suite sends meets the 429.
  'limit-429': {
    named: ['STK-LIMIT-409'],
    collateral: ['STK-ERR-STATUSES', 'STK-CREATE-202', 'STK-CREATE-BODY-REQUIRED', 'STK-CREATE-UNKNOWN-VERSION', 'STK-CREATE-MALFORMED'],
  },
};

// The stack servers answer after delays (provisioning, stopping): their runs overlap, each on a server of its own.
for (const [server, bugs] of [
  ['second', SECOND_STACKS_BUGS],
  ['third', THIRD_STACKS_BUGS],
  ['fifth', FIFTH_STACKS_BUGS],
  ['eighth', EIGHTH_STACKS_BUGS],
] as const)
  describe.concurrent(`${server} stacks server: each documented bug fails its requirement`, () => {
    for (const [bug, want] of Object.entries(bugs)) it(bug, async () => expectCaught(await runStacks(server, bug), want, bug), 120_000);
  });
