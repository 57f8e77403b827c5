import { fileURLToPath } from 'node:url';
import { OPS_SPEC } from './ops/paths';
import { STACKS_SPEC } from './stacks/paths';

/** Each API document and the file its generated types live in. */
export const TYPED_SPECS = [
  { spec: STACKS_SPEC, types: fileURLToPath(new URL('./stacks/openapi.gen.ts', import.meta.url)) },
  { spec: OPS_SPEC, types: fileURLToPath(new URL('./ops/openapi.gen.ts', import.meta.url)) },
];
