import type { Check } from '../../core/check';

export const thresholdWindowsChecks: Check[] = [];
