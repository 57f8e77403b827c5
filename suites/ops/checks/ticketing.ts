import type { Check } from '../../core/check';

export const ticketingChecks: Check[] = [];
