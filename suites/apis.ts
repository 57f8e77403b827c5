import type { ApiDefinition } from './core/api';
import { stacksApi } from './stacks/index';

/** Every API the product knows, in run order. */
export const APIS: ApiDefinition[] = [stacksApi];

export const apiById = (id: string) => APIS.find((a) => a.id === id);
