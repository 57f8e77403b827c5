import { compact } from '../../core/expect';
import { expectRefusedOnStack } from './auth';
import {
  createdAsDocumented,
  createStack,
  deleteStack,
  expectListed,
  expectNotFound,
  listVersions,
  missingId,
  releasedVersions,
  runningStack,
  sameField,
  stacksOf,
  stateOf,
  type Created,
  type Detail,
  type StacksCheck,
  type StacksContext,
  type Summary,
  type StacksRequirementId,
} from '../support';

/**
 * What a read must repeat of the create answer: the id it is addressed by, and the version the create chose (the
 * version "running on the stack"). The rules for assigning `name` are not shown, and neither the creation time nor
 * the termination date is said to stay as the create answer gave it: a server may name a stack, or count its
 * lifetime, once it is up. Those are compared and, where they differ, observed.
 */
const FIXED = ['id', 'platformVersion'] as const;
const MAY_CHANGE = ['name', 'createdAt', 'terminationDate'] as const;

function observeChanged(ctx: StacksContext, requirement: StacksRequirementId, read: string, created: Summary, seen: Summary): void {
  for (const k of MAY_CHANGE)
    if (!sameField(k, seen[k], created[k]))
      ctx.observe(requirement, `${read} shows ${k} ${compact(seen[k])} where the create answer had ${compact(created[k])}`);
}

export const listAnswers200: StacksCheck = {
  id: 'stacks.list.own-stacks-200',
  title: "List MUST answer 200 with the caller's active stacks, each on the version it was created with",
  requirements: ['STK-LIST-200', 'STK-VERSION-PREFIX'],
  // Its stacks count against the caller's limit; it looks only at its own, so it runs beside others that do.
  uses: ['stack-quota'],
  async run(ctx) {
    const created = await createStack(ctx, {});
    if (!createdAsDocumented(ctx, ['STK-LIST-200'], created)) return;
    const s = created.json!;
    const ex = await ctx.http.send('listStacks');
    ctx.expect.status('STK-VERSION-PREFIX', 'GET /v1/stacks', ex, 200);
    if (!ctx.expect.status('STK-LIST-200', 'list', ex, 200)) return;
    const entry = (Array.isArray(ex.json?.stacks) ? ex.json.stacks : []).find((x) => x.id === s.id);
    ctx.expect.that(
      'STK-LIST-200',
      'the listed entry of the created stack, on the version it was created with',
      entry?.platformVersion === s.platformVersion,
      { expected: `id ${s.id} on ${s.platformVersion}`, actual: entry ? `on ${compact(entry.platformVersion)}` : 'not listed' },
      ex,
    );
    if (entry) observeChanged(ctx, 'STK-LIST-200', 'the list', s, entry);
  },
};

export const versionsAnswer200: StacksCheck = {
  id: 'stacks.versions.list-200',
  title: 'The versions list MUST answer 200 with the selectable versions, each released or unreleased',
  requirements: ['STK-VERSIONS-200'],
  async run(ctx) {
    const ex = await ctx.http.send('listStackVersions');
    if (!ctx.expect.status('STK-VERSIONS-200', 'the versions list', ex, 200)) return;
    const versions = Array.isArray(ex.json?.versions) ? ex.json.versions : [];
    ctx.expect.that(
      'STK-VERSIONS-200',
      'selectable versions listed',
      versions.length > 0,
      { expected: 'at least 1', actual: versions.length },
      ex,
    );
    const ids = versions.map((v) => v.buildVersion);
    ctx.expect.that(
      'STK-VERSIONS-200',
      'build versions of the list',
      new Set(ids).size === ids.length,
      { expected: 'each listed once', actual: compact(ids) },
      ex,
    );
  },
};

export const getAnswersDetail: StacksCheck = {
  id: 'stacks.get.detail-200',
  title:
    'Get MUST answer 200 with a StackDetail of the stack create returned: its id, on its version; without a key (401) or off the allow list (403), get and delete of it MUST be refused',
  requirements: ['STK-GET-200', 'STK-STACKID-PARAM', 'STK-AUTH-401', 'STK-AUTH-403'],
  // Its stacks count against the caller's limit; it looks only at its own, so it runs beside others that do.
  uses: ['stack-quota'],
  async run(ctx) {
    const created = await createStack(ctx, {});
    if (!createdAsDocumented(ctx, ['STK-GET-200'], created)) return;
    const s = created.json!;
    const ex = await ctx.http.send('getStack', { params: { stackId: s.id } });
    ctx.expect.status('STK-STACKID-PARAM', 'get addressed by the created id', ex, 200);
    if (!ctx.expect.status('STK-GET-200', 'get of the created stack', ex, 200)) return;
    // A 200 whose body is not a StackDetail fails the comparison below (its schema finding is reported too).
    const d = ex.json ?? ({} as NonNullable<typeof ex.json>);
    const diffs = FIXED.filter((k) => !sameField(k, d[k], s[k]));
    const fields = (o: typeof d) => Object.fromEntries(diffs.map((k) => [k, o[k]]));
    ctx.expect.that(
      'STK-GET-200',
      'the id and platformVersion of the detail against the create answer',
      diffs.length === 0,
      { expected: compact(fields(s)), actual: compact(fields(d)) },
      ex,
    );
    observeChanged(ctx, 'STK-GET-200', 'get', s, d);
    await expectRefusedOnStack(ctx, s.id);
  },
};

export const accessDetailsWhenRunning: StacksCheck = {
  id: 'stacks.get.access-details',
  title:
    'When get includes stackAccessDetails it MUST be complete (url, username, password); the reads of a RUNNING stack SHOULD agree on its createdAt',
  requirements: ['STK-ACCESS-DETAILS', 'STK-CREATED-AT-FIXED'],
  // Its stacks count against the caller's limit; it looks only at its own, so it runs beside others that do.
  uses: ['stack-quota'],
  async run(ctx) {
    const { ex } = await runningStack(ctx, 'STK-ACCESS-DETAILS');
    await expectCreatedAtFixed(ctx, ex);
    const details = ex.json?.stackAccessDetails;
    if (details === undefined) {
      ctx.observe('STK-ACCESS-DETAILS', 'a RUNNING stack was returned without stackAccessDetails');
      return ctx.untested('STK-ACCESS-DETAILS', 'the RUNNING stack has no access details to inspect', ex);
    }
    // A body may hold anything, null included: a null in place of the object is details included without any field.
    const fields = (details ?? {}) as Record<string, unknown>;
    const missing = ['url', 'username', 'password'].filter((k) => typeof fields[k] !== 'string');
    ctx.expect.equal('STK-ACCESS-DETAILS', 'fields of stackAccessDetails that are not strings', missing, [], ex);
  },
};

/**
 * "Date-time of stack creation": one event. Whether the create answer gives the time of the request or of the stack
 * coming up is not said, so only reads of the stack once RUNNING are compared: a second get and its list entry
 * against the get that found it up.
 */
async function expectCreatedAtFixed(ctx: StacksContext, up: Detail): Promise<void> {
  const id = up.json?.id;
  if (typeof id !== 'string' || typeof up.json?.createdAt !== 'string') return;
  const again = await ctx.http.send('getStack', { params: { stackId: id } });
  const listed = await ctx.http.send('listStacks');
  const entry = stacksOf(listed).find((x) => x.id === id);
  for (const [what, ex, s] of [
    ['a second get', again, again.json],
    ['its list entry', listed, entry],
  ] as const) {
    if (s?.state !== 'RUNNING' || typeof s.createdAt !== 'string') continue;
    ctx.expect.that(
      'STK-CREATED-AT-FIXED',
      `createdAt of ${what} against the get that found the stack RUNNING`,
      sameField('createdAt', s.createdAt, up.json.createdAt),
      { expected: up.json.createdAt, actual: s.createdAt },
      ex,
    );
  }
}

export const missingStackIs404: StacksCheck = {
  id: 'stacks.missing-stack-404',
  title: 'Get and delete of a stack that does not exist MUST answer 404 NotFound saying the resource was not found',
  requirements: ['STK-GET-404', 'STK-DELETE-404'],
  async run(ctx) {
    for (const [op, req] of [
      ['getStack', 'STK-GET-404'],
      ['deleteStack', 'STK-DELETE-404'],
    ] as const) {
      const ex = await ctx.http.send(op, { params: { stackId: missingId(ctx) } });
      expectNotFound(ctx, req, ex, `${op} of an id never issued`);
    }
  },
};

/**
 * Creates stacks until one is answered CREATING, up to a few: a server may serve some creates from stacks already up
 * (RUNNING at once), for the default version or for any. Each RUNNING one is deleted before the next create. Answers
 * the CREATING stack, or why there is none.
 */
async function creatingStack(ctx: StacksContext): Promise<Created | string> {
  const released = releasedVersions(await listVersions(ctx));
  const bodies = [{}, {}, {}, ...released.map((platformVersion) => ({ platformVersion }))].slice(0, 6);
  for (const body of bodies) {
    const ex = await createStack(ctx, body);
    if (ex.status !== 202) return `create did not succeed as documented (answered ${ex.status}, not 202)`;
    if (stateOf(ex) === 'CREATING') return ex;
    await deleteStack(ctx, ex);
  }
  return `none of ${bodies.length} creates was answered CREATING: each stack was up at once`;
}

export const listShowsCreating: StacksCheck = {
  id: 'stacks.list.shows-creating',
  title: 'A stack still CREATING MUST be in the list: a create puts the stack in list results in the state it starts in',
  requirements: ['STK-CREATE-VISIBLE'],
  // Its stacks count against the caller's limit; it looks only at its own, so it runs beside others that do.
  uses: ['stack-quota'],
  async run(ctx) {
    const created = await creatingStack(ctx);
    // Not Unmet: a settled attempt that meets no CREATING stack must not keep a failure the first one met by lag.
    if (typeof created === 'string') return ctx.untested('STK-CREATE-VISIBLE', created);
    await expectListed(ctx, 'STK-CREATE-VISIBLE', created.json!.id, 'ids the list shows after a create answered CREATING');
  },
};
