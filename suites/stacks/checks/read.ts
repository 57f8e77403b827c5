import { compact } from '../../core/expect';
import { createdAsDocumented, createStack, expectError, messageOf, missingId, runningStack, sameField, type StacksCheck } from '../support';

export const listAnswers200: StacksCheck = {
  id: 'stacks.list.own-stacks-200',
  title: "List MUST answer 200 with the caller's active stacks, each as created",
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
    const same = entry && (['name', 'platformVersion', 'createdAt', 'terminationDate'] as const).every((k) => sameField(k, entry[k], s[k]));
    ctx.expect.that(
      'STK-LIST-200',
      'the listed entry of the created stack (timestamps as instants)',
      Boolean(same),
      { expected: compact(s), actual: compact(entry) },
      ex,
    );
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
  title: 'Get MUST answer 200 with a StackDetail whose summary fields match what create returned',
  requirements: ['STK-GET-200', 'STK-STACKID-PARAM'],
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
    const diffs = (['id', 'name', 'createdAt', 'terminationDate', 'platformVersion'] as const).filter((k) => !sameField(k, d[k], s[k]));
    const fields = (o: typeof d) => Object.fromEntries(diffs.map((k) => [k, o[k]]));
    ctx.expect.that(
      'STK-GET-200',
      'the summary fields of the detail against the create answer (timestamps as instants)',
      diffs.length === 0,
      { expected: compact(fields(s)), actual: compact(fields(d)) },
      ex,
    );
  },
};

export const accessDetailsWhenRunning: StacksCheck = {
  id: 'stacks.get.access-details',
  title: 'When get includes stackAccessDetails it MUST be complete (url, username, password)',
  requirements: ['STK-ACCESS-DETAILS'],
  // Its stacks count against the caller's limit; it looks only at its own, so it runs beside others that do.
  uses: ['stack-quota'],
  async run(ctx) {
    const { ex } = await runningStack(ctx, 'STK-ACCESS-DETAILS');
    const details = ex.json?.stackAccessDetails;
    if (details === undefined) {
      ctx.observe('STK-ACCESS-DETAILS', 'a RUNNING stack was returned without stackAccessDetails');
      return ctx.untested('STK-ACCESS-DETAILS', 'the RUNNING stack has no access details to inspect', ex);
    }
    const missing = ['url', 'username', 'password'].filter((k) => typeof details[k] !== 'string');
    ctx.expect.equal('STK-ACCESS-DETAILS', 'fields of stackAccessDetails that are not strings', missing, [], ex);
  },
};

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
      if (expectError(ctx, req, ex, 404, 'NotFound', `${op} of an id never issued`)) {
        const says =
          /not\s+(be\s+)?found|notfound|n[o']t\s+exist|no\s+such|unknown|missing|(can ?not|could\s*n[o']t|unable to)\s+(be\s+)?(find|found|locate)|not\s+(be\s+)?located/i.test(
            messageOf(ex),
          );
        ctx.expect.that(
          req,
          'the message of the 404',
          says,
          { expected: 'says the resource was not found', actual: compact(messageOf(ex)) },
          ex,
        );
      }
    }
  },
};
