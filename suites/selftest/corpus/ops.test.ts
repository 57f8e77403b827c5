import { describe, expect, it } from 'vitest';
import { opsApi } from '../../ops/index';
import { expectCaught, mustFailures, runOnServer, type Expected } from './expect';
import { OPS_BUGS, OPS_VARIANTS, startOpsServer } from '../../../corpus/servers/ops-product-like/ops-server';

/**
 * A server written from the ops document and the real-world samples alone, without the suite's code (HTTPS with
 * a self-signed certificate, padded JSON, {message} errors, 204 deletes, server-owned fields): it shares none of the
 * suite's assumptions. The suite reaches it the way a user does, through the README's variables.
 */
const runOn = (opts: Parameters<typeof startOpsServer>[0]) => runOnServer(opsApi, startOpsServer, opts);

/**
 * Per documented bug: the requirement it breaks and the MUST requirements the same fault also breaks. Filter bugs
 * reach far: every check finds the run's own rows with a $regex filter on the title.
 */
/** Every check finds its own rows with a `$regex` on the run tag: a $regex that is not a plain match fails them all. */
const RUN_TAG_REGEX = [
  'OPS-QUERY-SORT-KEY',
  'OPS-QUERY-FIELDS',
  'OPS-QUERY-FILTER',
  'OPS-CORE-CREATE-UPSERT',
  'OPS-CORE-BULK-DELETE',
  'OPS-CORE-DELETE',
  'OPS-CORE-COUNT',
  'OPS-CPA-LIST',
  'OPS-CPA-COUNT',
  'OPS-MW-LIST',
  'OPS-MW-BULK-DELETE',
  'OPS-MW-DELETE',
  'OPS-MW-COUNT',
  'OPS-BR-LIST',
  'OPS-BR-BULK-DELETE',
  'OPS-BR-DELETE',
  'OPS-BR-COUNT',
  'OPS-LIMITS-UNSET',
];

const EXPECTED: Record<string, Expected> = {
  'filter-eq-case-insensitive': { named: ['OPS-FILTER-EQUALITY'], collateral: ['OPS-FILTER-NE'] },
  'filter-ne-as-eq': { named: ['OPS-FILTER-NE'], collateral: ['OPS-EM-LIST-PARAMS', 'OPS-QUERY-FILTER'] },
  // A generated filter that combines an unanchored pattern with other rules fails as a whole (OPS-QUERY-FILTER).
  'filter-regex-prefix': { named: ['OPS-FILTER-REGEX'], collateral: ['OPS-QUERY-FILTER'] },
  'filter-regex-substring': { named: ['OPS-FILTER-REGEX'], collateral: RUN_TAG_REGEX },
  'filter-regex-exact': { named: ['OPS-FILTER-REGEX'], collateral: RUN_TAG_REGEX },
  'delete-filter-ignored': { named: ['OPS-CORE-BULK-DELETE'], collateral: ['OPS-MW-BULK-DELETE', 'OPS-BR-BULK-DELETE'] },
  'get-bad-filter-empty': { named: ['OPS-FILTER-INVALID-GET'] },
  'delete-bad-filter-noop': { named: ['OPS-FILTER-INVALID-DELETE'] },
  'limit-default-100': { named: ['OPS-LIMITS-UNSET'] },
  'offset-ignored': { named: ['OPS-QUERY-OFFSET'], collateral: ['OPS-EM-LIST-PARAMS', 'OPS-ICON-LIST'] },
  'sort-dir-reversed': { named: ['OPS-QUERY-SORT-DIR'], collateral: ['OPS-EM-LIST-PARAMS', 'OPS-ICON-LIST'] },
  'sort-key-ignored': { named: ['OPS-QUERY-SORT-KEY'], collateral: ['OPS-EM-LIST-PARAMS', 'OPS-ICON-LIST'] },
  'fields-ignored': { named: ['OPS-QUERY-FIELDS'], collateral: ['OPS-CPA-LIST', 'OPS-EM-LIST-PARAMS', 'OPS-ICON-LIST'] },
  'count-ignores-filter': {
    named: ['OPS-CORE-COUNT'],
    collateral: ['OPS-CORE-DELETE', 'OPS-CPA-COUNT', 'OPS-MW-COUNT', 'OPS-BR-DELETE', 'OPS-BR-COUNT', 'OPS-AUTH-ACCESS-CHECKS', 'OPS-AUTH-RESULTS-READABLE', 'OPS-AUTH-COUNTS', 'OPS-VERSION-PATH'],
  },
  'count-ignores-access': {
    reading: 'only counts of maintenance windows and jobs are said to reflect the caller\'s access; whether a core count is a "result" is not said',
  },
  'list-ignores-access': { named: ['OPS-AUTH-RESULTS-READABLE'], collateral: ['OPS-AUTH-COUNTS'] },
  'get-ignores-access': { named: ['OPS-AUTH-RESULTS-READABLE'] },
  'partial-update-replaces': { named: ['OPS-PARTIAL-MERGE'], collateral: ['OPS-CORE-BULK-UPDATE', 'OPS-MW-UPDATE'] },
  'full-update-merges': { named: ['OPS-PARTIAL-DEFAULT'], collateral: ['OPS-PARTIAL-REQUIRED-FIELDS', 'OPS-CORE-BULK-UPDATE', 'OPS-CP-INSTALL-RESOLUTION', 'OPS-MW-UPDATE'] },
  'full-update-no-title': { named: ['OPS-PARTIAL-REQUIRED-FIELDS'] },
  'bulk-update-ignores-partial': { named: ['OPS-CORE-BULK-UPDATE'] },
  'identifying-name-raw': { named: ['OPS-COMMON-IDENTIFYING-NAME'] },
  'create-no-key': { named: ['OPS-CORE-CREATE'], collateral: ['OPS-COMMON-KEY-OBJECT-TYPE', 'OPS-PARTIAL-MERGE', 'OPS-CORE-BULK-UPDATE', 'OPS-CPA-CREATE', 'OPS-BR-CREATE'] },
  'templatize-any-type': { named: ['OPS-CORE-TEMPLATIZE-TYPES'] },
  'templatize-no-kpi-base-search': { named: ['OPS-CORE-TEMPLATIZE'] },
  'template-link-replaces-rules': { named: ['OPS-TEMPLATE-APPEND-RULES'] },
  'retire-keeps-links': { named: ['OPS-ENTITY-RETIRE'], collateral: ['OPS-ENTITY-RETIRE-RETIRABLE'] },
  'restore-no-relink': { named: ['OPS-ENTITY-RESTORE'] },
  'retire-retirable-all': { named: ['OPS-ENTITY-RETIRE-RETIRABLE'] },
  'ctw-stop-no-time': { named: ['OPS-CTW-STOP'] },
  'ctw-stop-stays-active': { named: ['OPS-CTW-STOP'] },
  'ctw-status-capitalized': { named: ['OPS-CTW-STATUS-LOWERCASE'], collateral: ['OPS-CTW-STOP'] },
  'linked-kpis-limit0-empty': { named: ['OPS-LIMITS-LINKED-KPIS-ZERO'] },
  'cp-install-ignores-content': { named: ['OPS-CP-INSTALL-CONTENT'] },
  'cp-skip-no-failure': { named: ['OPS-ERR-CP-INSTALL-FAILURES'] },
  'cp-prefix-ignored': { named: ['OPS-CP-INSTALL-PREFIX'] },
  'cp-enabled-ignored': { named: ['OPS-CP-INSTALL-ENABLED'] },
  'cp-refresh-shape': { named: ['OPS-CP-REFRESH'] },
  'cp-list-array': { named: ['OPS-CP-LIST-SHAPE'] },
  'authoring-extras-with-fields': { named: ['OPS-CPA-LIST-EXTRA-FIELDS'] },
  // Presence of the extra fields without `fields` is a SHOULD ("returned only when" forbids them with fields=): a warning.
  'authoring-extras-missing': { should: ['OPS-CPA-LIST-EXTRA-FIELDS-DEFAULT'] },
  'authoring-search-ignored': { named: ['OPS-CPA-LIST-SEARCH'] },
  'comments-mutable': { named: ['OPS-EM-COMMENTS-APPEND-ONLY'] },
  // "All required" says what a request holds, not what a server does without a field: a SHOULD.
  'ticketing-missing-field': { should: ['OPS-TICKET-CREATE-REQUIRED'] },
  'backup-default-bulk-deletable': { named: ['OPS-BR-DEFAULT-SURVIVES-BULK'] },
  'backup-default-deletable': { named: ['OPS-BR-DEFAULT-SURVIVES-SINGLE'] },
  'maintenance-count-access': { named: ['OPS-AUTH-COUNTS'] },
  'backup-count-access': { named: ['OPS-AUTH-COUNTS'] },
  'icon-delete-category-overreach': { named: ['OPS-ICON-DELETE-CATEGORY'] },
  'icon-delete-star-noop': { named: ['OPS-ICON-DELETE-ALL'] },
  // The document does not say which icon operations modify a category: the reading this bug breaks is a SHOULD.
  'icon-immutable-writable': { should: ['OPS-ICON-CATEGORY-IMMUTABLE'] },
  'icon-list-array': { named: ['OPS-ICON-LIST'], collateral: ['OPS-ICON-CATEGORY', 'OPS-ICON-CREATE', 'OPS-ICON-DELETE'] },
  'vlatest-rejected': { named: ['OPS-VERSION-PATH'], collateral: ['OPS-VERSION-LATEST-ONLY'] },
};

describe('an independent ops server, correct but different: the suite passes every variant', () => {
  it.each(OPS_VARIANTS.map((v) => [v.id, v.description] as const))('%s', async (variant, description) => {
    const report = await runOn({ variant });
    expect(mustFailures(report), description).toEqual([]);
    expect(report.summary.gate).toBe('pass');
  });
});

describe('an independent ops server with one documented bug: the suite fails the named requirement, and little else', () => {
  it('has an expectation for every bug of the server', () => {
    expect(Object.keys(EXPECTED).sort()).toEqual(OPS_BUGS.map((b) => b.id).sort());
  });
  it.each(OPS_BUGS.map((b) => [b.id, b.clause] as const))('%s', async (bug, clause) => {
    expectCaught(await runOn({ bugs: [bug] }), EXPECTED[bug], clause);
  });
});
