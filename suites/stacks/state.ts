/**
 * The shared state stacks checks name in `shares` and `uses` (with `*`, all of it). A name outside this list does not
 * compile in a stacks check.
 *
 * - `stack-quota`: the per-user limit on stacks, which every stack a check holds counts against.
 */
export type StacksState = 'stack-quota';
