/** What the service remembers of one stack; views for the API are derived from it on read. */
export interface StackRecord {
  id: string;
  name: string;
  owner: string;
  platformVersion: string;
  createdAtMs: number;
  terminationAtMs: number;
  password: string;
}

export interface StackStore {
  /** The owner's stacks that have not reached their termination time, oldest first. */
  list(owner: string, nowMs: number): StackRecord[];
  get(owner: string, id: string, nowMs: number): StackRecord | undefined;
  add(record: StackRecord): void;
  /** False when the owner has no such active stack. */
  remove(owner: string, id: string, nowMs: number): boolean;
}

/** In-memory stacks, partitioned by owner so no lookup can reach another user's stack. */
export function createStackStore(): StackStore {
  const byOwner = new Map<string, Map<string, StackRecord>>();

  // Expiry is applied lazily on every access: there are no timers to leak or to race a test clock.
  const active = (owner: string, nowMs: number): Map<string, StackRecord> | undefined => {
    const stacks = byOwner.get(owner);
    if (stacks === undefined) return undefined;
    for (const [id, s] of stacks) if (s.terminationAtMs <= nowMs) stacks.delete(id);
    return stacks;
  };

  return {
    list: (owner, nowMs) => [...(active(owner, nowMs)?.values() ?? [])],
    get: (owner, id, nowMs) => active(owner, nowMs)?.get(id),
    add(record) {
      let stacks = byOwner.get(record.owner);
      if (stacks === undefined) byOwner.set(record.owner, (stacks = new Map()));
      stacks.set(record.id, record);
    },
    remove: (owner, id, nowMs) => active(owner, nowMs)?.delete(id) ?? false,
  };
}
