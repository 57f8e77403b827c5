import type { Check } from '../../core/check';

export const backupChecks: Check[] = [];
