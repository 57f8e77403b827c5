import { responseConformanceCheck } from '../../core/response-check';
import { SERVICE } from '../collections';
import type { operations } from '../openapi.gen';
import { OPS_SPEC } from '../paths';
import { countIn, listIn } from '../support';

export const responsesConformToSpec = responseConformanceCheck<operations>(
  'ops',
  OPS_SPEC,
  'Every answer MUST match the schema the document gives it; fields it only lists as seen SHOULD have the types seen',
  async (ctx) => {
    await ctx.http.send('coreGetSupportedObjectTypes');
    await ctx.http.send('coreGetAliasList');
    await listIn(ctx, SERVICE, { limit: 5 });
    await countIn(ctx, SERVICE);
  },
);
