import type { Check } from '../../core/check';

export const authoringChecks: Check[] = [];
