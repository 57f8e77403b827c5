import { Violation } from '../../core/property';
import type { Exchange } from '../../core/types';
import type { Created, StacksContext } from '../support';

/**
 * What the document lets a client predict about its stacks, learned as the sequence runs. The model flags only
 * contradictions that hold whatever the document leaves open: whether a deleted stack still counts against the
 * limit, and what it reads as while (and how long) it is torn down.
 */
export interface StackModel {
  users: string[];
  owner: Map<string, string>;
  live: Set<string>;
  deleted: Set<string>;
  /** Stacks that existed before the sequence (not ours, never touched): those surely active, and all listed. */
  preexisting: Map<string, { active: number; listed: number }>;
  /**
   * Per user, what the answers so far prove about the maximum: a 202 proves it exceeds the stacks surely active
   * then, a 409 proves it is at most the stacks that could count then (lingering deleted ones included).
   */
  limit: Map<string, { atLeast: number; atMost: number }>;
  /** Every id the sequence created, in order; commands pick among them. */
  ids: string[];
  /** Requirements some command could have found broken: only these pass when the property holds. */
  exercised: Set<string>;
}

export interface StackReal {
  ctx: StacksContext;
  /** Create answers kept for cleanup after the sequence. */
  created: Created[];
}

export const ownedBy = (m: StackModel, ids: Set<string>, user: string) => [...ids].filter((id) => m.owner.get(id) === user).length;

export const limitOf = (m: StackModel, user: string) => {
  let l = m.limit.get(user);
  if (!l) m.limit.set(user, (l = { atLeast: 1, atMost: Number.POSITIVE_INFINITY }));
  return l;
};

/** Picks one of the sequence's ids, or an id nobody has when there is none yet. */
export const pick = (m: StackModel, n: number) => (m.ids.length ? m.ids[n % m.ids.length] : `never-created-${n}`);

export function violated(requirement: string, message: string, ex?: Exchange, facts?: { expected: string; actual: unknown }): never {
  throw new Violation(message, requirement, ex, facts);
}
