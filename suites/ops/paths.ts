import { fileURLToPath } from 'node:url';

export const OPS_SPEC = fileURLToPath(new URL('../../specs/ops.openapi.yaml', import.meta.url));
export const OPS_CATALOGUE = fileURLToPath(new URL('../../specs/requirements/ops.yaml', import.meta.url));
