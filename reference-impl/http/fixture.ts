import { readFileSync } from 'node:fs';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';

// Tests load a configuration for every app they start: each schema is compiled once.
const ajv = new Ajv2020({ allErrors: true });
const validators = new Map<string, ValidateFunction>();

/**
 * Reads a reference implementation's fixture (configuration and seed data), applies `overrides` to its top-level
 * fields and checks the result against the JSON Schema beside it, so that a broken fixture stops the server at start
 * with one line instead of surfacing later as a wrong answer. `unique` names a field of `users` no two users may share
 * (JSON Schema cannot say that of one member).
 */
export function loadFixture<T extends { users: object[] }>(name: 'ops' | 'stacks', overrides: Partial<T>, unique: string): T {
  const read = (file: string): unknown => JSON.parse(readFileSync(new URL(`../../fixtures/${file}`, import.meta.url), 'utf8'));
  const config = structuredClone({ ...(read(`${name}.json`) as T), ...overrides });
  let validate = validators.get(name);
  if (!validate) {
    validate = ajv.compile(read(`${name}.schema.json`) as object);
    validators.set(name, validate);
  }
  const fail = (why: string): never => {
    throw new Error(`${name} config: ${why}`);
  };
  if (!validate(config)) fail(ajv.errorsText(validate.errors, { dataVar: name }));
  const seen = config.users.map((u) => (u as Record<string, unknown>)[unique]);
  if (new Set(seen).size !== seen.length) fail(`users: ${unique} must be unique`);
  return config;
}
