import { fileURLToPath } from 'node:url';

export const STACKS_SPEC = fileURLToPath(new URL('../../specs/stacks.openapi.yaml', import.meta.url));
export const STACKS_CATALOGUE = fileURLToPath(new URL('../../specs/requirements/stacks.yaml', import.meta.url));
