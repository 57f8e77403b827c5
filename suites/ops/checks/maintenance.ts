import type { Check } from '../../core/check';

export const maintenanceChecks: Check[] = [];
