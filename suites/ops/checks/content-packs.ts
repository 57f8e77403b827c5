import type { Check } from '../../core/check';

export const contentPacksChecks: Check[] = [];
