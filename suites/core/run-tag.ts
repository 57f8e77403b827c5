/**
 * The tags that mark what a run writes: every title a check gives starts with its tag and a space, so a list of a
 * deployment tells the run's rows from the users'. A check's tag is the run's with its index; a later attempt of
 * the check adds its number, so a lagging target that still lists the attempt before does not mix the two.
 */
export const checkTag = (runTag: string, index: number) => `${runTag}c${String(index).padStart(3, '0')}`;

export const attemptTag = (checkTag: string, attempt: number) => (attempt > 1 ? `${checkTag}r${attempt}` : checkTag);

/** A title some run's check gave (this run's or one left by another, any attempt): not a row of the deployment's own. */
export const isRunTitle = (title: string) => /^\S+c\d{3}(?:r\d+)? /.test(title);
