import { asDoc } from '../../core/json';
import { SERVICE } from '../collections';
import { createIn, getIn, ok, tagged, updateIn, type OpsCheck } from '../support';

/**
 * A server may keep an identifying_name the client sends instead of deriving its own: where the object carries it, it
 * is still the lower-cased title after a rename.
 */
export const identifyingNameSentFollowsTitle: OpsCheck = {
  id: 'ops.core.identifying-name-sent',
  title: 'An identifying_name sent with a create as the lower-cased title MUST follow the title when a partial update renames the object (where the object carries it)',
  requirements: ['OPS-COMMON-IDENTIFYING-NAME'],
  async run(ctx) {
    const name = 'Sent Identifying Name';
    const title = tagged(ctx, name);
    const { key, ex } = await createIn(ctx, SERVICE, name, { identifying_name: title.toLowerCase() });
    if (!key) return ctx.untested('OPS-COMMON-IDENTIFYING-NAME', 'a service sent with identifying_name was refused', ex);
    const renamed = `${title} RENAMED`;
    const upd = await updateIn(ctx, SERVICE, key, { title: renamed }, 1);
    if (!ok(upd)) return ctx.untested('OPS-COMMON-IDENTIFYING-NAME', `the rename answered ${upd.status}`, upd);
    const got = await getIn(ctx, SERVICE, key);
    const carried = asDoc(got.json).identifying_name;
    // The document defines the value, not the presence ("commonly carry"): an object without it has nothing to judge.
    if (carried === undefined) return ctx.untested('OPS-COMMON-IDENTIFYING-NAME', 'the renamed service carries no identifying_name', got);
    ctx.expect.equal(
      'OPS-COMMON-IDENTIFYING-NAME',
      `identifying_name after renaming a service sent with identifying_name ${JSON.stringify(title.toLowerCase())} to ${JSON.stringify(renamed)}`,
      carried,
      renamed.toLowerCase(),
      got,
    );
  },
};
