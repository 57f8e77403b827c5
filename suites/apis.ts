import type { ApiDefinition } from './core/api';
import { opsApi } from './ops/index';
import { stacksApi } from './stacks/index';

/** Every API the product knows, in run order. */
export const APIS: ApiDefinition[] = [stacksApi, opsApi];

export const apiById = (id: string) => APIS.find((a) => a.id === id);
