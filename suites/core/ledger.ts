/** Everything a check created, with how to remove it: the run never leaves its own objects behind. */
export interface Ledger {
  add(label: string, remove: () => Promise<unknown>): number;
  /** The check removed it itself. */
  forget(token: number): void;
  /** Removes what is left; never throws. */
  cleanup(): Promise<{ removed: number; failed: string[] }>;
  readonly created: number;
  /** Removed by the check itself or by cleanup. */
  readonly removed: number;
}

interface Entry {
  label: string;
  remove: () => Promise<unknown>;
}

export function createLedger(): Ledger {
  const entries = new Map<number, Entry>();
  let next = 0;
  let created = 0;
  let removed = 0;
  return {
    add(label, remove) {
      created++;
      entries.set(++next, { label, remove });
      return next;
    },
    forget(token) {
      if (entries.delete(token)) removed++;
    },
    async cleanup() {
      const removal = async (e: Entry): Promise<string | undefined> => {
        try {
          // A refusal (anything but 2xx, or 404: already gone) leaves the object behind: say so.
          const status = ((await e.remove()) as { status?: number } | undefined)?.status;
          return status !== undefined && status !== 404 && (status < 200 || status > 299) ? `${e.label}: delete answered ${status}` : undefined;
        } catch (err) {
          return `${e.label}: ${(err as Error).message}`;
        }
      };
      const newestFirst = [...entries.values()].reverse();
      entries.clear();
      // Removals go out together (a remote target answers them side by side); one refused because of another object
      // (a container that still holds what was made in it, say) is tried again once the rest is gone, newest first.
      const first = await Promise.all(newestFirst.map(removal));
      const failed: string[] = [];
      for (const [i, e] of newestFirst.entries()) {
        if (first[i] === undefined) continue;
        const again = await removal(e);
        if (again !== undefined) failed.push(again);
      }
      const now = newestFirst.length - failed.length;
      removed += now;
      return { removed: now, failed };
    },
    get created() {
      return created;
    },
    get removed() {
      return removed;
    },
  };
}
