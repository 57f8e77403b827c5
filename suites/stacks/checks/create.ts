import type { Check, CheckContext } from '../../core/check';
import { appeared, codeOf, createdAsDocumented, createStack, deleteStack, expectError, latestReleased, listedIds, listVersions, LIVE_STATES, messageOf, type Summary } from '../support';

export const createAnswers202: Check = {
  id: 'stacks.create.accepted-202',
  title: 'A valid create MUST answer 202 with a StackSummary in state CREATING or RUNNING, with a termination date, visible in list and get',
  requirements: ['STK-CREATE-202', 'STK-CREATE-INITIAL-STATE', 'STK-CREATE-TERMINATION', 'STK-CREATE-VISIBLE', 'STK-NAMING', 'STK-LIFETIME', 'STK-ID-FORMAT'],
  // Every stack it creates counts against the caller's limit, which other creating checks need free.
  shares: ['stack-quota'],
  async run(ctx) {
    const ex = await createStack(ctx, {});
    // A refusal at the limit is not an accepted create: the limit checks judge it.
    if (ex.status === 409 && codeOf(ex) === 'MaxStacksLimitReached') return void createdAsDocumented(ctx, ['STK-CREATE-202'], ex);
    if (!ctx.assert('STK-CREATE-202', ex.status === 202, `create with {} answered ${ex.status}${ex.status === 202 ? '' : ', expected 202'}`, ex)) return;
    const s = ex.json as Summary;
    ctx.assert('STK-CREATE-INITIAL-STATE', LIVE_STATES.includes(s.state), `new stack is in state ${s.state}${LIVE_STATES.includes(s.state) ? '' : ', expected CREATING or RUNNING'}`, ex);
    ctx.assert('STK-NAMING', typeof s.platformVersion === 'string', `the summary carries platformVersion as ${JSON.stringify(s.platformVersion)}`, ex);
    const created = Date.parse(s.createdAt);
    const ends = Date.parse(s.terminationDate);
    const set = Number.isFinite(ends);
    ctx.assert('STK-CREATE-TERMINATION', set, set ? 'terminationDate is set' : `terminationDate ${JSON.stringify(s.terminationDate)} is not a date-time`, ex);
    if (set && Number.isFinite(created)) {
      // The date "at which the stack will be terminated" cannot come before the stack exists.
      ctx.assert('STK-CREATE-TERMINATION', ends > created, ends > created ? 'terminationDate is after createdAt' : `terminationDate ${s.terminationDate} is not after createdAt ${s.createdAt}`, ex);
      ctx.observe('STK-LIFETIME', `default lifetime observed: ${Math.round((ends - created) / 60000)} minutes`);
    }
    ctx.observe('STK-ID-FORMAT', `id looks like ${/^[0-9a-f-]{36}$/i.test(s.id) ? 'a UUID' : `'${String(s.id).replace(/[0-9]/g, '9').replace(/[a-z]/gi, 'x')}'`}; name looks like '${String(s.name).replace(/[0-9]/g, '9')}'`);

    const list = await ctx.http.send('listStacks');
    const listed = ((list.json as { stacks?: Summary[] })?.stacks ?? []).find((x) => x.id === s.id);
    ctx.assert('STK-CREATE-VISIBLE', Boolean(listed), listed ? 'new stack appears in list' : `stack ${s.id} answered 202 but is missing from list`, list);
    const got = await ctx.http.send('getStack', { params: { stackId: s.id } });
    ctx.assert('STK-CREATE-VISIBLE', got.status === 200, got.status === 200 ? 'new stack readable with get' : `get of the new stack ${s.id} answered ${got.status}`, got);
  },
};

/** The version a stack was created with is the version it runs: get and list report it too, not only the create answer. */
async function expectVersionKept(ctx: CheckContext, requirement: string, id: string, version: string): Promise<void> {
  const got = await ctx.http.send('getStack', { params: { stackId: id } });
  const read = (got.json as Summary | undefined)?.platformVersion;
  ctx.assert(requirement, got.status === 200 && read === version, `get of the stack created with ${version} answered ${got.status} with platformVersion ${JSON.stringify(read)}`, got);
  const list = await ctx.http.send('listStacks');
  const entry = ((list.json as { stacks?: Summary[] } | undefined)?.stacks ?? []).find((x) => x.id === id);
  if (entry) ctx.assert(requirement, entry.platformVersion === version, `the list shows the stack created with ${version} as ${JSON.stringify(entry.platformVersion)}`, list);
}

export const defaultVersionIsLatestReleased: Check = {
  id: 'stacks.create.default-version',
  title: 'A create with {} MUST provision the latest released platform version',
  requirements: ['STK-CREATE-DEFAULT-VERSION'],
  // Every stack it creates counts against the caller's limit, which other creating checks need free.
  shares: ['stack-quota'],
  async run(ctx) {
    const latest = latestReleased(await listVersions(ctx));
    if (!latest) return ctx.untested('STK-CREATE-DEFAULT-VERSION', 'the versions list holds no released version to compare with');
    const ex = await createStack(ctx, {});
    if (!createdAsDocumented(ctx, ['STK-CREATE-DEFAULT-VERSION'], ex)) return;
    const got = (ex.json as Summary).platformVersion;
    ctx.assert('STK-CREATE-DEFAULT-VERSION', got === latest.buildVersion, got === latest.buildVersion ? `{} selected ${got}, the latest released` : `{} selected ${JSON.stringify(got)}, but the latest released version listed is ${latest.buildVersion}`, ex);
    await expectVersionKept(ctx, 'STK-CREATE-DEFAULT-VERSION', (ex.json as Summary).id, latest.buildVersion);
  },
};

export const chosenVersionIsUsed: Check = {
  id: 'stacks.create.chosen-version',
  title: 'A create naming a listed platformVersion MUST provision exactly that version, released or unreleased',
  requirements: ['STK-CREATE-CHOSEN-VERSION', 'STK-VERSIONS-SELECTABLE', 'STK-SCHEMA-CREATE-REQUEST'],
  // Every stack it creates counts against the caller's limit, which other creating checks need free.
  shares: ['stack-quota'],
  async run(ctx) {
    const versions = await listVersions(ctx);
    const latest = latestReleased(versions);
    // Prefer versions that differ from the default, so "ignores the field" cannot pass by chance.
    const picks = [
      versions.find((v) => v.status === 'released' && v.buildVersion !== latest?.buildVersion),
      versions.find((v) => v.status === 'unreleased'),
    ].filter((v): v is NonNullable<typeof v> => Boolean(v));
    if (!picks.length) return ctx.untested('STK-CREATE-CHOSEN-VERSION', 'the versions list offers no version other than the default');
    for (const v of picks) {
      const ex = await createStack(ctx, { platformVersion: v.buildVersion });
      if (ex.status !== 202 && ex.status !== 400) {
        ctx.untested('STK-VERSIONS-SELECTABLE', `create with ${v.buildVersion} answered ${ex.status}, so whether the version is selectable stays open`, ex);
        continue;
      }
      ctx.assert('STK-SCHEMA-CREATE-REQUEST', ex.status === 202, `a CreateStackRequest {platformVersion: "${v.buildVersion}"} is ${ex.status === 400 ? 'rejected as invalid' : 'accepted as a valid body'}`, ex);
      ctx.assert('STK-VERSIONS-SELECTABLE', ex.status === 202, ex.status === 202 ? `listed ${v.status} version ${v.buildVersion} accepted` : `listed ${v.status} version ${v.buildVersion} refused with ${ex.status}`, ex);
      if (ex.status !== 202) continue;
      const got = (ex.json as Summary).platformVersion;
      ctx.assert('STK-CREATE-CHOSEN-VERSION', got === v.buildVersion, got === v.buildVersion ? `stack runs the chosen ${got}` : `asked for ${v.buildVersion}, the stack reports ${JSON.stringify(got)}`, ex);
      await expectVersionKept(ctx, 'STK-CREATE-CHOSEN-VERSION', (ex.json as Summary).id, v.buildVersion);
      await deleteStack(ctx, ex);
    }
  },
};

export const unknownVersionIs400: Check = {
  id: 'stacks.create.unknown-version-400',
  title: 'A create naming an unknown platformVersion MUST answer 400 InvalidRequest with a message naming the version',
  requirements: ['STK-CREATE-UNKNOWN-VERSION', 'STK-CREATE-REFUSED-NO-STACK'],
  // Every stack it creates counts against the caller's limit, which other creating checks need free.
  shares: ['stack-quota'],
  async run(ctx) {
    const bogus = `0.0.0-unknown-${ctx.options.runTag}`;
    const before = await listedIds(ctx);
    const ex = await createStack(ctx, { platformVersion: bogus });
    if (expectError(ctx, 'STK-CREATE-UNKNOWN-VERSION', ex, 400, 'InvalidRequest', `create with platformVersion ${bogus}`)) {
      const named = messageOf(ex).includes(bogus);
      ctx.assert('STK-CREATE-UNKNOWN-VERSION', named, named ? 'the message names the version' : `the message ${JSON.stringify(messageOf(ex))} does not name the version ${bogus}`, ex);
    }
    const extra = appeared(before, await listedIds(ctx));
    ctx.assert('STK-CREATE-REFUSED-NO-STACK', extra.length === 0, extra.length ? `the refused create left stack(s) ${extra.join(', ')}` : 'the refused create added no stack');
  },
};

const MALFORMED: [string, string | undefined][] = [
  ['invalid JSON', '{"platformVersion": '],
  ['a JSON array', '[]'],
  ['a JSON string', '"10.0.0"'],
  ['JSON null', 'null'],
  ['a numeric platformVersion', '{"platformVersion": 10}'],
  ['an object platformVersion', '{"platformVersion": {"buildVersion": "1"}}'],
];

export const malformedBodyIs400: Check = {
  id: 'stacks.create.malformed-body-400',
  title: 'A create with a malformed or missing body MUST answer 400 InvalidRequest and create nothing',
  requirements: ['STK-CREATE-MALFORMED', 'STK-CREATE-BODY-REQUIRED', 'STK-CREATE-REFUSED-NO-STACK'],
  // Every stack it creates counts against the caller's limit, which other creating checks need free.
  shares: ['stack-quota'],
  async run(ctx) {
    const before = await listedIds(ctx);
    for (const [what, raw] of MALFORMED) {
      const ex = await ctx.http.send('createStack', { rawBody: raw });
      expectError(ctx, 'STK-CREATE-MALFORMED', ex, 400, 'InvalidRequest', `create with ${what}`);
      if (ex.status === 202) await ctx.http.send('deleteStack', { params: { stackId: String((ex.json as Summary)?.id) } });
    }
    const none = await ctx.http.send('createStack', {});
    expectError(ctx, 'STK-CREATE-BODY-REQUIRED', none, 400, 'InvalidRequest', 'create without a body');
    if (none.status === 202) await ctx.http.send('deleteStack', { params: { stackId: String((none.json as Summary)?.id) } });
    const extra = appeared(before, await listedIds(ctx));
    ctx.assert('STK-CREATE-REFUSED-NO-STACK', extra.length === 0, extra.length ? `the malformed creates left stack(s) ${extra.join(', ')}` : 'the malformed creates added no stack');
  },
};
