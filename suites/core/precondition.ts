import type { Exchange } from './types';

/**
 * A check could not set up what it judges (an object refused at create, a library with nothing to install, a stack
 * that never came up): thrown out of `run`, it ends the check, and every requirement the check has not judged yet is
 * reported untested with `reason` and the exchange that showed it. Never a failure of the server, nor of the tool.
 */
export class Unmet extends Error {
  override name = 'Unmet';

  constructor(
    readonly reason: string,
    readonly ex?: Exchange,
    /** The setting that would let the set-up be made (settingName), where one would: a longer wait, say. */
    readonly enabledBy?: string,
  ) {
    super(reason);
  }
}

/** `value` when it holds (neither undefined, null, false, 0 nor ''), narrowed; otherwise the check cannot go on: Unmet. */
export function need<T>(value: T, reason: string, ex?: Exchange): Exclude<T, undefined | null | false | 0 | ''> {
  if (!value) throw new Unmet(reason, ex);
  return value as Exclude<T, undefined | null | false | 0 | ''>;
}
