import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

/** Requirement ids whose schema nodes the last validation call evaluated; reset before each call. */
export const exercised = new Set<string>();

// The documents say "ISO-8601 date-time"; RFC 3339 (ajv-formats' date-time) would wrongly reject local times.
const ISO_8601_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}(:?\d{2})?)?$/i;

export function createAjv(): Ajv2020 {
  const ajv = new Ajv2020({ strict: false, allErrors: true, verbose: true, validateFormats: true });
  const addFormats = (addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ?? addFormatsModule;
  addFormats(ajv);
  ajv.addFormat('date-time', ISO_8601_DATE_TIME);
  ajv.addFormat('password', true);
  // Not an assertion: it marks which requirement-bearing schema nodes the data actually reached.
  ajv.addKeyword({
    keyword: 'x-requirement',
    schemaType: 'string',
    errors: false,
    validate: (requirement: string) => {
      exercised.add(requirement);
      return true;
    },
  });
  return ajv;
}
