import { compact } from '../../core/expect';
import { need } from '../../core/precondition';
import {
  appeared,
  codeOf,
  createdAsDocumented,
  createStack,
  deleteStack,
  distinctVersions,
  expectError,
  expectListed,
  listedIds,
  listVersions,
  LIVE_STATES,
  messageOf,
  refusedAtLimit,
  releasedVersions,
  sendDelete,
  sendCreate,
  settled,
  type Created,
  type StacksCheck,
  type StacksContext,
  type StacksRequirementId,
  type Summary,
} from '../support';

/**
 * What the create row of the transition table gives every accepted create, whatever it asked for: the stack starts
 * CREATING or RUNNING, and its terminationDate is set, to a time after the stack was created (the date "at which
 * the stack will be terminated" cannot come before it exists). Answers the lifetime in ms when both times parse.
 */
function expectStarted(ctx: StacksContext, s: Summary, ex: Created, what: string): number | undefined {
  ctx.expect.oneOf('STK-CREATE-INITIAL-STATE', `the state of ${what}`, s.state, LIVE_STATES, ex);
  const created = Date.parse(s.createdAt);
  const ends = Date.parse(s.terminationDate);
  const set = Number.isFinite(ends);
  ctx.expect.that(
    'STK-CREATE-TERMINATION',
    `terminationDate of ${what}`,
    set,
    { expected: 'a date-time', actual: compact(s.terminationDate) },
    ex,
  );
  if (!set || !Number.isFinite(created)) return undefined;
  ctx.expect.that(
    'STK-CREATE-TERMINATION',
    `terminationDate of ${what} against its createdAt`,
    ends > created,
    { expected: `after createdAt ${s.createdAt}`, actual: s.terminationDate },
    ex,
  );
  return ends - created;
}

export const createAnswers202: StacksCheck = {
  id: 'stacks.create.accepted-202',
  title:
    'A valid create MUST answer 202 with a StackSummary in state CREATING or RUNNING, with a termination date, visible in list and get',
  requirements: [
    'STK-CREATE-202',
    'STK-CREATE-INITIAL-STATE',
    'STK-CREATE-TERMINATION',
    'STK-CREATE-VISIBLE',
    'STK-NAMING',
    'STK-LIFETIME',
    'STK-ID-FORMAT',
  ],
  // Its stacks count against the caller's limit; it looks only at its own, so it runs beside others that do.
  uses: ['stack-quota'],
  async run(ctx) {
    const ex = await createStack(ctx, {});
    // A refusal at the limit is not an accepted create: the limit checks judge it.
    if (ex.status === 409 && codeOf(ex) === 'MaxStacksLimitReached') return void createdAsDocumented(ctx, ['STK-CREATE-202'], ex);
    if (!ctx.expect.status('STK-CREATE-202', 'create with {}', ex, 202)) return;
    // A 202 whose body is not a StackSummary fails the assertions below (its schema finding is reported too).
    const s = ex.json ?? ({} as NonNullable<typeof ex.json>);
    const lifetime = expectStarted(ctx, s, ex, 'the new stack');
    ctx.expect.that(
      'STK-NAMING',
      'platformVersion of the summary',
      typeof s.platformVersion === 'string',
      { expected: 'a string', actual: compact(s.platformVersion) },
      ex,
    );
    if (lifetime !== undefined) ctx.observe('STK-LIFETIME', `default lifetime observed: ${Math.round(lifetime / 60000)} minutes`);
    ctx.observe(
      'STK-ID-FORMAT',
      `id looks like ${/^[0-9a-f-]{36}$/i.test(s.id) ? 'a UUID' : `'${String(s.id).replace(/[0-9]/g, '9').replace(/[a-z]/gi, 'x')}'`}; name looks like '${String(s.name).replace(/[0-9]/g, '9')}'`,
    );

    const list = await ctx.http.send('listStacks');
    const listed = (list.json?.stacks ?? []).map((x) => x.id);
    ctx.expect.contains('STK-CREATE-VISIBLE', 'ids the list shows after the create', listed, s.id, list);
    const got = await ctx.http.send('getStack', { params: { stackId: s.id } });
    ctx.expect.status('STK-CREATE-VISIBLE', 'get of the new stack', got, 200);
  },
};

/**
 * The version a stack was created with is the version it runs: get and list report it too, not only the create
 * answer. The list shows the new stack whatever version it was created with ("stack appears in list and get results").
 */
async function expectVersionKept(ctx: StacksContext, requirement: StacksRequirementId, id: string, version: string): Promise<void> {
  const got = await ctx.http.send('getStack', { params: { stackId: id } });
  ctx.expect.equal(
    requirement,
    `get of the stack created with ${version}`,
    { status: got.status, platformVersion: got.json?.platformVersion },
    { status: 200, platformVersion: version },
    got,
  );
  const { entry, list } = await expectListed(ctx, 'STK-CREATE-VISIBLE', id, `ids the list shows after a create of ${version}`);
  if (entry)
    ctx.expect.equal(
      requirement,
      `platformVersion the list shows for the stack created with ${version}`,
      entry.platformVersion,
      version,
      list,
    );
}

export const defaultVersionIsLatestReleased: StacksCheck = {
  id: 'stacks.create.default-version',
  title: 'A create with {} MUST provision the latest released platform version, one listed as released, the same each time',
  requirements: ['STK-CREATE-DEFAULT-VERSION', 'STK-CREATE-VISIBLE'],
  // Its stacks count against the caller's limit; it looks only at its own, so it runs beside others that do.
  uses: ['stack-quota'],
  async run(ctx) {
    const listed = releasedVersions(await listVersions(ctx));
    need(listed.length, 'the versions list holds no released version to compare with');
    const ex = await createStack(ctx, {});
    if (!createdAsDocumented(ctx, ['STK-CREATE-DEFAULT-VERSION'], ex)) return;
    // A 202 whose body is not a StackSummary fails the assertions below (its schema finding is reported too).
    const s = ex.json ?? ({} as NonNullable<typeof ex.json>);
    // No release dates are given: any released version may be the latest one out, but never an unreleased one.
    const took = ctx.expect.that(
      'STK-CREATE-DEFAULT-VERSION',
      'platformVersion of a stack created with {} (a version the list shows as released)',
      listed.includes(s.platformVersion),
      { expected: `one of ${listed.map((v) => JSON.stringify(v)).join(', ')}`, actual: compact(s.platformVersion) },
      ex,
    );
    if (!took) return;
    await expectVersionKept(ctx, 'STK-CREATE-DEFAULT-VERSION', s.id, s.platformVersion);
    await expectSameDefault(ctx, ex, listed);
  },
};

/**
 * "The" latest released version is one version: while the list of released versions stays as it was, a second
 * create with {} provisions the version the first did. A release in between changes the list and leaves it open.
 */
async function expectSameDefault(ctx: StacksContext, first: Created, listed: string[]): Promise<void> {
  const version = first.json!.platformVersion;
  await deleteStack(ctx, first);
  const again = await createStack(ctx, {});
  if (again.status !== 202) return ctx.observe('STK-CREATE-DEFAULT-VERSION', `a second create with {} answered ${again.status}`);
  const now = releasedVersions(await listVersions(ctx));
  if (now.join('\n') !== listed.join('\n'))
    return ctx.observe('STK-CREATE-DEFAULT-VERSION', 'the released versions changed between two creates with {}');
  ctx.expect.equal(
    'STK-CREATE-DEFAULT-VERSION',
    'platformVersion of a second stack created with {}, the released versions unchanged',
    again.json?.platformVersion,
    version,
    again,
  );
}

export const chosenVersionIsUsed: StacksCheck = {
  id: 'stacks.create.chosen-version',
  title:
    'A create naming any listed platformVersion MUST provision exactly that version, released or unreleased, answered CREATING or RUNNING with a termination date, and listed',
  requirements: [
    'STK-CREATE-CHOSEN-VERSION',
    'STK-VERSIONS-SELECTABLE',
    'STK-SCHEMA-CREATE-REQUEST',
    'STK-CREATE-INITIAL-STATE',
    'STK-CREATE-TERMINATION',
    'STK-CREATE-VISIBLE',
  ],
  // Its stacks count against the caller's limit; it looks only at its own, so it runs beside others that do.
  uses: ['stack-quota'],
  async run(ctx) {
    // "Lists the selectable versions": every one listed, each once; several, so that a server that ignores the field
    // provisions its default for at least one version it was not asked for.
    const versions = await distinctVersions(ctx);
    need(versions.length > 1, 'the versions list offers a single version, which the default may be');
    for (const v of versions) {
      const ex = await createStack(ctx, { platformVersion: v.buildVersion });
      if (ex.status !== 202 && ex.status !== 400) {
        ctx.untested(
          'STK-VERSIONS-SELECTABLE',
          `create with ${v.buildVersion} answered ${ex.status}, so whether the version is selectable stays open`,
          ex,
        );
        continue;
      }
      ctx.expect.status(
        'STK-SCHEMA-CREATE-REQUEST',
        `create with the valid CreateStackRequest {platformVersion: "${v.buildVersion}"}`,
        ex,
        202,
      );
      ctx.expect.status('STK-VERSIONS-SELECTABLE', `create with the listed ${v.status} version ${v.buildVersion}`, ex, 202);
      if (ex.status !== 202) continue;
      // A 202 whose body is not a StackSummary fails the assertions below (its schema finding is reported too).
      const s = ex.json ?? ({} as NonNullable<typeof ex.json>);
      expectStarted(ctx, s, ex, `a new stack of ${v.buildVersion}`);
      ctx.expect.equal(
        'STK-CREATE-CHOSEN-VERSION',
        `platformVersion of a stack created with ${v.buildVersion}`,
        s.platformVersion,
        v.buildVersion,
        ex,
      );
      await expectVersionKept(ctx, 'STK-CREATE-CHOSEN-VERSION', s.id, v.buildVersion);
      await deleteStack(ctx, ex);
    }
  },
};

/** Why a body stays unjudged when the create was refused at the limit: see refusedAtLimit. */
const LIMIT_FIRST =
  'create was refused with 409 MaxStacksLimitReached while stacks the run deleted may still count: which of the body and the limit a server weighs first is not said';

export const unknownVersionIs400: StacksCheck = {
  id: 'stacks.create.unknown-version-400',
  title:
    'A create naming an unknown platformVersion MUST answer 400 InvalidRequest with a message naming the version; one naming a listed build with a suffix no build has SHOULD too',
  requirements: ['STK-CREATE-UNKNOWN-VERSION', 'STK-CREATE-NEAR-VERSION', 'STK-CREATE-REFUSED-NO-STACK'],
  // Beside the other creating checks: it meets the limit only while they hold stacks, and then waits for them
  // (createStack); the stacks they create are known as the run's when it compares lists (appeared).
  uses: ['stack-quota'],
  async run(ctx) {
    const builds = (await listVersions(ctx)).map((v) => v.buildVersion).filter((b): b is string => typeof b === 'string');
    await expectUnknownRefused(ctx, `0.0.0-unknown-${ctx.options.runTag}`, 'STK-CREATE-UNKNOWN-VERSION');
    // A listed build with a suffix no build has: a service that compares versions only up to a pre-release suffix
    // takes it for the build. Which variants of its builds a service knows is not said: a SHOULD.
    const listed = builds.find((b) => b.length > 0);
    if (listed) await expectUnknownRefused(ctx, `${listed}-unknown-${ctx.options.runTag}`, 'STK-CREATE-NEAR-VERSION');

    // The start of a listed build ("9.3" of "9.3.2.40512") is not listed, but a service may know it as an alias of a
    // build it lists: which values it "knows" is not said beyond the list, so the answer is only observed.
    const near = builds.map((b) => b.split('.').slice(0, 2).join('.')).find((p) => p.includes('.') && !builds.includes(p));
    if (!near) return;
    const nearEx = await createStack(ctx, { platformVersion: near });
    if (nearEx.status === 202) await deleteStack(ctx, nearEx);
    ctx.observe(
      'STK-CREATE-UNKNOWN-VERSION',
      `create with platformVersion ${near}, the start of a listed build, answered ${nearEx.status}${nearEx.status === 202 ? ` (provisioned ${String(nearEx.json?.platformVersion)})` : ''}`,
    );
  },
};

/**
 * A create naming `bogus` is refused as the clause says, naming it (held to `requirement`), and no stack appears with
 * it. The empty string is never sent as unknown: whether it names no version or is as good as an omitted field is
 * read both ways.
 */
async function expectUnknownRefused(
  ctx: StacksContext,
  bogus: string,
  requirement: 'STK-CREATE-UNKNOWN-VERSION' | 'STK-CREATE-NEAR-VERSION',
): Promise<void> {
  const before = await listedIds(ctx);
  const ex = await createStack(ctx, { platformVersion: bogus });
  const what = `create with platformVersion ${JSON.stringify(bogus)}`;
  if (refusedAtLimit(ctx, ex)) ctx.untested(requirement, LIMIT_FIRST, ex);
  else if (expectError(ctx, requirement, ex, 400, 'InvalidRequest', what)) {
    ctx.expect.that(
      requirement,
      `the message of the refusal of the ${what}`,
      messageOf(ex).includes(bogus),
      { expected: `a message naming ${JSON.stringify(bogus)}`, actual: compact(messageOf(ex)) },
      ex,
    );
  }
  if (ex.status === 202) await deleteStack(ctx, ex);
  ctx.expect.equal('STK-CREATE-REFUSED-NO-STACK', `stacks that appeared with the refused ${what}`, await appeared(ctx, before), []);
}

const MALFORMED: [string, string | undefined][] = [
  ['invalid JSON', '{"platformVersion": '],
  ['a JSON array', '[]'],
  ['a JSON string', '"10.0.0"'],
  ['a numeric platformVersion', '{"platformVersion": 10}'],
  ['an object platformVersion', '{"platformVersion": {"buildVersion": "1"}}'],
];

const NO_BODY: [string, string | undefined][] = [
  ['without a body', undefined],
  ['with a body of JSON null', 'null'],
];

export const malformedBodyIs400: StacksCheck = {
  id: 'stacks.create.malformed-body-400',
  title: 'A create with a malformed body MUST answer 400 InvalidRequest and create nothing; one without a body SHOULD too',
  requirements: ['STK-CREATE-MALFORMED', 'STK-CREATE-BODY-REQUIRED', 'STK-CREATE-REFUSED-NO-STACK'],
  // Beside the other creating checks, as unknown-version-400 is.
  uses: ['stack-quota'],
  async run(ctx) {
    const before = await listedIds(ctx);
    // Stacks a create accepted: not a refused create's, whatever the verdict on the acceptance itself.
    const accepted: string[] = [];
    for (const [what, raw] of MALFORMED) {
      const ex = await settled(ctx, 'primary', () => sendCreate(ctx, { rawBody: raw }));
      if (refusedAtLimit(ctx, ex)) ctx.untested('STK-CREATE-MALFORMED', LIMIT_FIRST, ex);
      else expectError(ctx, 'STK-CREATE-MALFORMED', ex, 400, 'InvalidRequest', `create with ${what}`);
      if (ex.status === 202) accepted.push(String(ex.json?.id));
    }
    // No body, and a body of JSON null: whether either is a "malformed" body or an empty one is not said (a SHOULD).
    for (const [what, raw] of NO_BODY) {
      const ex = await settled(ctx, 'primary', () => sendCreate(ctx, raw === undefined ? {} : { rawBody: raw }));
      if (refusedAtLimit(ctx, ex)) ctx.untested('STK-CREATE-BODY-REQUIRED', LIMIT_FIRST, ex);
      else expectError(ctx, 'STK-CREATE-BODY-REQUIRED', ex, 400, 'InvalidRequest', `create ${what}`);
      if (ex.status === 202) accepted.push(String(ex.json?.id));
    }
    for (const id of accepted) await sendDelete(ctx, id);
    ctx.expect.equal(
      'STK-CREATE-REFUSED-NO-STACK',
      'stacks that appeared with the malformed creates',
      await appeared(ctx, before, accepted),
      [],
    );
  },
};
