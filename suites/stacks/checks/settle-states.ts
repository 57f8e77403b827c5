import { compact } from '../../core/expect';
import type { Exchange } from '../../core/types';
import { createStack, deleteStack, distinctVersions, pollStack, STACK_STATES, stacksOf, stateOf, type StacksCheck } from '../support';

export const unreleasedSettles: StacksCheck = {
  id: 'stacks.states.unreleased-settles',
  title:
    'The state get and list report for a stack of each listed unreleased version, once it is no longer CREATING, MUST be a StackState value: RUNNING, ERROR or STOPPING among them',
  requirements: ['STK-SCHEMA-STATE'],
  // Its stacks count against the caller's limit; it holds one at a time, and looks only at its own.
  uses: ['stack-quota'],
  async run(ctx) {
    // A stack may settle in any state, ERROR included, and which version ends where is not said. Stacks of the
    // default version are followed to RUNNING by the checks that need one; the unreleased builds, the likeliest to
    // fail, are provisioned here, within one readiness budget for the whole check.
    const versions = (await distinctVersions(ctx)).filter((v) => v.status === 'unreleased');
    if (!versions.length) return ctx.observe('STK-SCHEMA-STATE', 'the versions list offers no unreleased build to follow until it settles');
    const deadline = Date.now() + ctx.options.readyTimeoutS * 1000;
    const unsettled: string[] = [];
    for (const v of versions) {
      const left = (deadline - Date.now()) / 1000;
      if (left <= 0) {
        unsettled.push(`${v.buildVersion} (not tried: the readiness budget was spent)`);
        continue;
      }
      const created = await createStack(ctx, { platformVersion: v.buildVersion });
      if (created.status !== 202) continue;
      const id = created.json!.id;
      const { ex, reached } = await pollStack(ctx, id, (e) => e.status !== 200 || stateOf(e) !== 'CREATING', left);
      if (!reached || ex.status !== 200) unsettled.push(`${v.buildVersion} (${ex.status === 200 ? 'still CREATING' : `get ${ex.status}`})`);
      else {
        const list = await ctx.http.send('listStacks');
        const entry = stacksOf(list).find((s) => s.id === id);
        const judge = (where: string, state: unknown, evidence: Exchange) =>
          ctx.expect.that(
            'STK-SCHEMA-STATE',
            `the state ${where} reports for a stack of ${v.buildVersion} once it left CREATING`,
            STACK_STATES.includes(state),
            { expected: STACK_STATES.join(', '), actual: compact(state) },
            evidence,
          );
        judge('get', stateOf(ex), ex);
        if (entry) judge('list', entry.state, list);
      }
      await deleteStack(ctx, created);
    }
    if (unsettled.length) ctx.observe('STK-SCHEMA-STATE', `stacks not seen out of CREATING: ${unsettled.join('; ')}`);
  },
};
