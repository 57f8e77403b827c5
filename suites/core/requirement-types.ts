import { loadCatalogue } from './catalogue';

/**
 * The TypeScript source of an API's requirement ids, read from its catalogue: a union type, so that a check, a
 * fault or a helper naming an id the catalogue does not hold does not compile.
 */
export function requirementTypes(catalogueFile: string, typeName: string, source: string): string {
  const ids = loadCatalogue(catalogueFile)
    .requirements.map((r) => r.id)
    .sort();
  return [
    `// Generated from ${source} by \`npm run types\`: edit the catalogue, not this file.`,
    '',
    `/** Every requirement id of ${source}. */`,
    `export type ${typeName} =`,
    ...ids.map((id, i) => `  | '${id}'${i === ids.length - 1 ? ';' : ''}`),
    '',
  ].join('\n');
}
