import { type Check, type CheckContext, RESPONSE_CHECK } from './check';
import { specOf } from './spec';

/**
 * The check under which the validating client records what it finds in every answer (status listed, media type,
 * schema). It covers every requirement the spec attaches to a schema; `warmup` only makes sure each schema is reached.
 */
export function responseConformanceCheck<Ops extends object = Record<string, unknown>>(
  api: string,
  specFile: string,
  title: string,
  warmup: (ctx: CheckContext<Ops>) => Promise<unknown>,
): Check<Ops> {
  return {
    id: `${api}.${RESPONSE_CHECK}`,
    title,
    requirements: specOf(specFile).requirementIds(),
    run: async (ctx) => void (await warmup(ctx)),
  };
}
