import { readFileSync, writeFileSync } from 'node:fs';
import { generateTypes } from './core/openapi-types';
import { requirementTypes } from './core/requirement-types';
import { TYPED_CATALOGUES, TYPED_SPECS } from './typed-specs';

const write = (file: string, text: string) => {
  const same = readFileSync(file, { encoding: 'utf8', flag: 'a+' }) === text;
  if (!same) writeFileSync(file, text);
  console.log(`${file}: ${same ? 'up to date' : 'updated'}`);
};

// Regenerates the typed answers of each API (suites/<api>/openapi.gen.ts) from its OpenAPI document, and the union of
// its requirement ids (suites/<api>/requirements.gen.ts) from its catalogue.
for (const { spec, types } of TYPED_SPECS) write(types, await generateTypes(spec));
for (const { catalogue, source, typeName, types } of TYPED_CATALOGUES) write(types, requirementTypes(catalogue, typeName, source));
