import type { Target } from './types';

/**
 * Whether destructive checks run against a target (undefined: the embedded implementation the run starts). That one
 * holds only the run's own data, so nothing there is off limits. Any target a user names may hold data that is not
 * the run's, wherever it listens: a loopback address can be a port-forwarded production as well as a disposable
 * server, so destructive checks there need --allow-destructive (unset is not asked).
 */
export const destructiveAllowed = (target: Target | undefined, allowDestructive: boolean | undefined): boolean =>
  !target || target.embedded || allowDestructive === true;
