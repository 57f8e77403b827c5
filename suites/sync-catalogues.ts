import { readFileSync, writeFileSync } from 'node:fs';
import { APIS } from './apis';
import { writeSyncedCatalogue } from './core/catalogue-sync';
import { requirementTypes } from './core/requirement-types';
import { TYPED_CATALOGUES } from './typed-specs';

// Regenerates the `checks:` lists of the requirement catalogues from the check registry, and the union types of their
// requirement ids (suites/<api>/requirements.gen.ts), so that a requirement added to a catalogue compiles at once.
for (const api of APIS) console.log(`${api.id}: ${writeSyncedCatalogue(api) ? 'updated' : 'up to date'} (${api.catalogueFile})`);
for (const { catalogue, source, typeName, types } of TYPED_CATALOGUES) {
  const text = requirementTypes(catalogue, typeName, source);
  const same = readFileSync(types, { encoding: 'utf8', flag: 'a+' }) === text;
  if (!same) writeFileSync(types, text);
  console.log(`${types}: ${same ? 'up to date' : 'updated'}`);
}
