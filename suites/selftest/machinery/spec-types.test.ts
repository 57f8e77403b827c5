import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { generateTypes } from '../../core/openapi-types';
import { requirementTypes } from '../../core/requirement-types';
import { TYPED_CATALOGUES, TYPED_SPECS } from '../../typed-specs';

describe('the typed answers', () => {
  // A document changed without `npm run types` would leave checks reading bodies typed after the old one.
  it.each(TYPED_SPECS.map((t) => [t.types, t] as const))('%s is what the document generates today', async (_, { spec, types }) => {
    expect(readFileSync(types, 'utf8') === (await generateTypes(spec)), `${types} is stale: run npm run types`).toBe(true);
  });
});

describe('the typed requirement ids', () => {
  // A requirement added to a catalogue without `npm run types` does not compile where a check names it.
  it.each(TYPED_CATALOGUES.map((t) => [t.types, t] as const))('%s holds the ids of its catalogue today', (_, t) => {
    expect(
      readFileSync(t.types, 'utf8') === requirementTypes(t.catalogue, t.typeName, t.source),
      `${t.types} is stale: run npm run types`,
    ).toBe(true);
  });
});
