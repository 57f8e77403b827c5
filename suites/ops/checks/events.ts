import type { Check } from '../../core/check';

export const eventsChecks: Check[] = [];
