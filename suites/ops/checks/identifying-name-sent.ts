import { asDoc } from '../../core/json';
import { need } from '../../core/precondition';
import { SERVICE } from '../collections';
import { createNeeded, getIn, ok, tagged, updateIn, type OpsCheck } from '../support';

/**
 * A server may keep an identifying_name the client sends instead of deriving its own. After a partial rename that does
 * not send it, "identifying_name (lower-cased title)" asks for the new title and "With 1 the payload is a partial
 * update" for the stored value: which wins is not said, so the new title is a SHOULD.
 */
export const identifyingNameSentFollowsTitle: OpsCheck = {
  id: 'ops.core.identifying-name-sent',
  title:
    'An identifying_name sent with a create as the lower-cased title SHOULD follow the title when a partial update renames the object (where the object carries it)',
  requirements: ['OPS-COMMON-IDENTIFYING-NAME-SENT'],
  async run(ctx) {
    const name = 'Sent Identifying Name';
    const title = tagged(ctx, name);
    const { key } = await createNeeded(ctx, SERVICE, name, { identifying_name: title.toLowerCase() });
    const renamed = `${title} RENAMED`;
    const upd = await updateIn(ctx, SERVICE, key, { title: renamed }, 1);
    need(ok(upd), `the rename answered ${upd.status}`, upd);
    const got = await getIn(ctx, SERVICE, key);
    const carried = asDoc(got.json).identifying_name;
    // The document defines the value, not the presence ("commonly carry"): an object without it has nothing to judge.
    if (carried === undefined)
      return ctx.untested('OPS-COMMON-IDENTIFYING-NAME-SENT', 'the renamed service carries no identifying_name', got);
    ctx.expect.equal(
      'OPS-COMMON-IDENTIFYING-NAME-SENT',
      `identifying_name after renaming a service sent with identifying_name ${JSON.stringify(title.toLowerCase())} to ${JSON.stringify(renamed)}`,
      carried,
      renamed.toLowerCase(),
      got,
    );
  },
};
