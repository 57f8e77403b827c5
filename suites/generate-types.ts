import { readFileSync, writeFileSync } from 'node:fs';
import { generateTypes } from './core/openapi-types';
import { TYPED_SPECS } from './typed-specs';

// Regenerates the typed answers of each API (suites/<api>/openapi.gen.ts) from its OpenAPI document.
for (const { spec, types } of TYPED_SPECS) {
  const text = await generateTypes(spec);
  const same = readFileSync(types, { encoding: 'utf8', flag: 'a+' }) === text;
  if (!same) writeFileSync(types, text);
  console.log(`${types}: ${same ? 'up to date' : 'updated'}`);
}
