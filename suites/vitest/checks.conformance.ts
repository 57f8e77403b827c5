/*
 * Every conformance check as a vitest test (`npx vitest run --project conformance`): the tests the package's
 * `api-conformance/vitest` entry point declares in a user's repository (./define.ts), here against the targets the
 * environment names or the embedded implementations.
 */
import { defineConformanceTests } from './define';

defineConformanceTests();
