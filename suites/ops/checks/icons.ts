import type { Check } from '../../core/check';

export const iconsChecks: Check[] = [];
