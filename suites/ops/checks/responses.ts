import type { Check } from '../../core/check';
import { specOf } from '../../core/runner';
import { SERVICE } from '../collections';
import { OPS_SPEC } from '../paths';
import { countIn, listIn } from '../support';

export const responsesConformToSpec: Check = {
  id: 'ops.responses.conform-to-spec',
  title: 'Every answer MUST match the schema the document gives it; fields it only lists as seen SHOULD have the types seen',
  requirements: specOf(OPS_SPEC).requirementIds(),
  async run(ctx) {
    // The validating client judges these (and every other check's) answers; this check only makes sure the common ones are reached.
    await ctx.http.send('coreGetSupportedObjectTypes');
    await ctx.http.send('coreGetAliasList');
    await listIn(ctx, SERVICE, { limit: 5 });
    await countIn(ctx, SERVICE);
  },
};
