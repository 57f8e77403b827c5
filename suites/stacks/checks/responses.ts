import { responseConformanceCheck } from '../../core/response-check';
import type { operations } from '../openapi.gen';
import { missingId, type StacksCheck } from '../support';
import { STACKS_SPEC } from '../paths';

export const responsesConformToSpec = responseConformanceCheck<operations>(
  'stacks',
  STACKS_SPEC,
  'Every answer MUST use a status listed for its operation, be application/json when it has a body, and match the schema of that status',
  async (ctx) => {
    await ctx.http.send('listStacks');
    await ctx.http.send('listStackVersions');
    await ctx.http.send('getStack', { params: { stackId: missingId(ctx) } });
  },
);

export const documentedGaps: StacksCheck = {
  id: 'stacks.document.fixed-points',
  title:
    'Statements about the interface description and about clients are not properties of a server: reported untested with the reason; points the document leaves open are reported',
  requirements: ['STK-VERSION-LABEL', 'STK-ERR-CODES-EXTENSIBLE', 'STK-500', 'STK-EVENTS'],
  async run(ctx) {
    // The suite's own spec carries the label and an open code set (its tests hold it to that); no answer of a server can show either.
    ctx.untested(
      'STK-VERSION-LABEL',
      'a statement about the interface description, which the API does not serve: nothing a server answers can show it',
    );
    ctx.untested(
      'STK-ERR-CODES-EXTENSIBLE',
      'a rule for clients: the suite accepts any string code wherever the document names none; nothing a server answers can break it',
    );
    ctx.untested('STK-500', 'an internal failure cannot be provoked from outside; any 500 seen is still validated as a ServiceError');
    ctx.untested('STK-EVENTS', 'the document shows no events, callbacks or notifications to check');
  },
};
