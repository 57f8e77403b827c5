/**
 * Everything a check created, with how to remove it: the run never leaves its own objects behind. Entries are known by
 * what they remove (`service 5f1c…`, `stack 42`), so whoever can name an object can take it off the ledger: no
 * tokens to carry around.
 */
export interface Ledger {
  /** Adds `label` unless it is already there (a second add of the same object changes nothing); returns it. */
  add(label: string, remove: () => Promise<unknown>): string;
  /** The check removed it itself. */
  forget(label: string): void;
  /** Removes what is left; never throws. */
  cleanup(): Promise<{ removed: number; failed: string[] }>;
  readonly created: number;
  /** Removed by the check itself or by cleanup. */
  readonly removed: number;
}

export function createLedger(): Ledger {
  const entries = new Map<string, () => Promise<unknown>>();
  let created = 0;
  let removed = 0;
  return {
    add(label, remove) {
      if (!entries.has(label)) {
        created++;
        entries.set(label, remove);
      }
      return label;
    },
    forget(label) {
      if (entries.delete(label)) removed++;
    },
    async cleanup() {
      const removal = async ([label, remove]: [string, () => Promise<unknown>]): Promise<string | undefined> => {
        try {
          // A refusal (anything but 2xx, or 404: already gone) leaves the object behind: say so.
          const status = ((await remove()) as { status?: number } | undefined)?.status;
          return status !== undefined && status !== 404 && (status < 200 || status > 299)
            ? `${label}: delete answered ${status}`
            : undefined;
        } catch (err) {
          return `${label}: ${(err as Error).message}`;
        }
      };
      const newestFirst = [...entries].reverse();
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
