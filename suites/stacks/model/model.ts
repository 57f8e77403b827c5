import type { CheckContext } from '../../core/check';
import { Violation } from '../../core/property';
import type { Exchange } from '../../core/types';

/** What the document lets a client predict about its stacks, learned as the sequence runs. */
export interface StackModel {
  users: string[];
  owner: Map<string, string>;
  live: Set<string>;
  deleted: Set<string>;
  /** When each deleted stack was deleted: it may read as live for a short settle time. */
  deletedAt: Map<string, number>;
  /** Stacks that existed before the sequence (not ours; counted against the limit, never touched). */
  preexisting: Map<string, number>;
  /** Per-user maximum, learned from the first 409. */
  limit?: number;
  /** Every id the sequence created, in order; commands pick among them. */
  ids: string[];
}

export interface StackReal {
  ctx: CheckContext;
  /** Create answers kept for cleanup after the sequence. */
  created: Exchange[];
}

export const liveCount = (m: StackModel, user: string) => [...m.live].filter((id) => m.owner.get(id) === user).length + (m.preexisting.get(user) ?? 0);

/** Picks one of the sequence's ids, or an id nobody has when there is none yet. */
export const pick = (m: StackModel, n: number) => (m.ids.length ? m.ids[n % m.ids.length] : `never-created-${n}`);

export function violated(requirement: string, message: string, ex?: Exchange): never {
  throw new Violation(message, requirement, ex);
}

/** How long after a 204 a deleted stack may still read as live (deletes may take effect asynchronously). */
export const SETTLE_MS = 5000;

export const settling = (m: StackModel, id: string) => Date.now() - (m.deletedAt.get(id) ?? 0) < SETTLE_MS;
