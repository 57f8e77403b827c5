import { fileURLToPath } from 'node:url';
import { OPS_CATALOGUE, OPS_SPEC } from './ops/paths';
import { STACKS_CATALOGUE, STACKS_SPEC } from './stacks/paths';

// Each path is written as `new URL('<file>', import.meta.url)`, which knip reads as a use of the whole file.

/** Each API document and the file its generated types live in. */
export const TYPED_SPECS = [
  { spec: STACKS_SPEC, types: fileURLToPath(new URL('./stacks/openapi.gen.ts', import.meta.url)) },
  { spec: OPS_SPEC, types: fileURLToPath(new URL('./ops/openapi.gen.ts', import.meta.url)) },
];

/** Each API catalogue, the union type of its requirement ids and the file that holds it. */
export const TYPED_CATALOGUES = [
  {
    catalogue: STACKS_CATALOGUE,
    source: 'specs/requirements/stacks.yaml',
    typeName: 'StacksRequirementId',
    types: fileURLToPath(new URL('./stacks/requirements.gen.ts', import.meta.url)),
  },
  {
    catalogue: OPS_CATALOGUE,
    source: 'specs/requirements/ops.yaml',
    typeName: 'OpsRequirementId',
    types: fileURLToPath(new URL('./ops/requirements.gen.ts', import.meta.url)),
  },
];
