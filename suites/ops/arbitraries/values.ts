import fc from 'fast-check';

/** Lower-case words: every collation orders them the same, so sort checks cannot fail on collation choices. */
export const word = fc.stringMatching(/^[a-z][a-z0-9]{1,6}$/);

const scalar = fc.oneof(word, fc.integer({ min: -1000, max: 1000 }), fc.boolean());

/** A few names only, so that objects and patches collide on fields often. */
const fieldName = fc.constantFrom('cf_alpha', 'cf_beta', 'cf_gamma', 'cf_delta', 'cf_epsilon');

/** Fields the suite makes up (cf_*): outside the schema of every object type. */
export const isMadeUp = (field: string) => field.startsWith('cf_');

const fieldValue = fc.oneof(
  { weight: 3, arbitrary: scalar },
  { weight: 1, arbitrary: fc.array(word, { minLength: 1, maxLength: 3 }) },
  { weight: 1, arbitrary: fc.record({ x: word, y: fc.integer({ min: 0, max: 99 }) }) },
);

/** The caller-controlled part of an object: what partial and full updates are compared on. */
export const userObject = fc.dictionary(fieldName, fieldValue, { minKeys: 1, maxKeys: 4 });
