import type { Check } from '../../core/check';
import { createdAsDocumented, createStack, expectError, messageOf, missingId, pollStack, sameField, stateOf, type Summary, type Version } from '../support';

export const listAnswers200: Check = {
  id: 'stacks.list.own-stacks-200',
  title: "List MUST answer 200 with the caller's active stacks, each as created",
  requirements: ['STK-LIST-200', 'STK-VERSION-PREFIX'],
  // Every stack it creates counts against the caller's limit, which other creating checks need free.
  shares: ['stack-quota'],
  async run(ctx) {
    const created = await createStack(ctx, {});
    if (!createdAsDocumented(ctx, ['STK-LIST-200'], created)) return;
    const s = created.json as Summary;
    const ex = await ctx.http.send('listStacks');
    ctx.assert('STK-VERSION-PREFIX', ex.status === 200, `GET /v1/stacks answered ${ex.status}`, ex);
    if (!ctx.assert('STK-LIST-200', ex.status === 200, `list answered ${ex.status}`, ex)) return;
    const entry = ((ex.json as { stacks?: Summary[] }).stacks ?? []).find((x) => x.id === s.id);
    const same = entry && (['name', 'platformVersion', 'createdAt', 'terminationDate'] as const).every((k) => sameField(k, entry[k], s[k]));
    ctx.assert('STK-LIST-200', Boolean(same), same ? 'listed summary matches the created one' : `listed entry ${JSON.stringify(entry)} differs from the created summary ${JSON.stringify(s)}`, ex);
  },
};

export const versionsAnswer200: Check = {
  id: 'stacks.versions.list-200',
  title: 'The versions list MUST answer 200 with the selectable versions, each released or unreleased',
  requirements: ['STK-VERSIONS-200'],
  async run(ctx) {
    const ex = await ctx.http.send('listStackVersions');
    if (!ctx.assert('STK-VERSIONS-200', ex.status === 200, `versions answered ${ex.status}`, ex)) return;
    const versions = (ex.json as { versions?: Version[] }).versions ?? [];
    ctx.assert('STK-VERSIONS-200', versions.length > 0, `${versions.length} selectable versions listed`, ex);
    const ids = versions.map((v) => v.buildVersion);
    ctx.assert('STK-VERSIONS-200', new Set(ids).size === ids.length, new Set(ids).size === ids.length ? 'build versions are distinct' : `duplicate build versions in ${JSON.stringify(ids)}`, ex);
  },
};

export const getAnswersDetail: Check = {
  id: 'stacks.get.detail-200',
  title: 'Get MUST answer 200 with a StackDetail whose summary fields match what create returned',
  requirements: ['STK-GET-200', 'STK-STACKID-PARAM'],
  // Every stack it creates counts against the caller's limit, which other creating checks need free.
  shares: ['stack-quota'],
  async run(ctx) {
    const created = await createStack(ctx, {});
    if (!createdAsDocumented(ctx, ['STK-GET-200'], created)) return;
    const s = created.json as Summary;
    const ex = await ctx.http.send('getStack', { params: { stackId: s.id } });
    ctx.assert('STK-STACKID-PARAM', ex.status === 200, `get addressed by the created id answered ${ex.status}`, ex);
    if (!ctx.assert('STK-GET-200', ex.status === 200, `get answered ${ex.status}`, ex)) return;
    const d = ex.json as Summary;
    const diffs = (['id', 'name', 'createdAt', 'terminationDate', 'platformVersion'] as const).filter((k) => !sameField(k, d[k], s[k]));
    ctx.assert('STK-GET-200', diffs.length === 0, diffs.length ? `get differs from create in ${diffs.map((k) => `${k}: ${JSON.stringify(s[k])} → ${JSON.stringify(d[k])}`).join(', ')}` : 'detail matches the created summary', ex);
  },
};

export const accessDetailsWhenRunning: Check = {
  id: 'stacks.get.access-details',
  title: 'When get includes stackAccessDetails it MUST be complete (url, username, password)',
  requirements: ['STK-ACCESS-DETAILS'],
  // Every stack it creates counts against the caller's limit, which other creating checks need free.
  shares: ['stack-quota'],
  async run(ctx) {
    const created = await createStack(ctx, {});
    if (!createdAsDocumented(ctx, ['STK-ACCESS-DETAILS'], created)) return;
    const id = (created.json as Summary).id;
    const { ex, reached } = await pollStack(ctx, id, (e) => stateOf(e) === 'RUNNING' || (e.status === 200 && (e.json as Summary).stackAccessDetails !== undefined));
    if (!reached) return ctx.untested('STK-ACCESS-DETAILS', `stack did not become RUNNING within ${ctx.options.readyTimeoutS} s (STACKS_READY_TIMEOUT_S); last state ${String(stateOf(ex))}`, ex);
    const details = (ex.json as Summary).stackAccessDetails as Record<string, unknown> | undefined;
    if (details === undefined) {
      ctx.observe('STK-ACCESS-DETAILS', 'a RUNNING stack was returned without stackAccessDetails');
      return ctx.untested('STK-ACCESS-DETAILS', 'the RUNNING stack has no access details to inspect', ex);
    }
    const missing = ['url', 'username', 'password'].filter((k) => typeof details[k] !== 'string');
    ctx.assert('STK-ACCESS-DETAILS', missing.length === 0, missing.length ? `stackAccessDetails lacks ${missing.join(', ')}` : 'access details carry url, username and password', ex);
  },
};

export const missingStackIs404: Check = {
  id: 'stacks.missing-stack-404',
  title: 'Get and delete of a stack that does not exist MUST answer 404 NotFound saying the resource was not found',
  requirements: ['STK-GET-404', 'STK-DELETE-404'],
  async run(ctx) {
    for (const [op, req] of [['getStack', 'STK-GET-404'], ['deleteStack', 'STK-DELETE-404']] as const) {
      const ex = await ctx.http.send(op, { params: { stackId: missingId(ctx) } });
      if (expectError(ctx, req, ex, 404, 'NotFound', `${op} of an id never issued`)) {
        const says = /not\s+(be\s+)?found|notfound|n[o']t\s+exist|no\s+such|unknown|missing|(can ?not|could\s*n[o']t|unable to)\s+(be\s+)?(find|found|locate)|not\s+(be\s+)?located/i.test(messageOf(ex));
        ctx.assert(req, says, says ? 'message says not found' : `message ${JSON.stringify(messageOf(ex))} does not say the resource was not found`, ex);
      }
    }
  },
};
