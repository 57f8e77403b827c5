/** Everything a check created, with how to remove it: the run never leaves its own objects behind. */
export interface Ledger {
  add(label: string, remove: () => Promise<unknown>): number;
  /** The check removed it itself. */
  forget(token: number): void;
  /** Removes what is left, newest first; never throws. */
  cleanup(): Promise<{ removed: number; failed: string[] }>;
  readonly created: number;
  /** Removed by the check itself or by cleanup. */
  readonly removed: number;
}

export function createLedger(): Ledger {
  const entries = new Map<number, { label: string; remove: () => Promise<unknown> }>();
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
      let now = 0;
      const failed: string[] = [];
      for (const [token, e] of [...entries].reverse()) {
        try {
          // A refusal (anything but 2xx, or 404: already gone) leaves the object behind: say so.
          const status = ((await e.remove()) as { status?: number } | undefined)?.status;
          if (status !== undefined && status !== 404 && (status < 200 || status > 299)) failed.push(`${e.label}: delete answered ${status}`);
          else {
            now++;
            removed++;
          }
        } catch (err) {
          failed.push(`${e.label}: ${(err as Error).message}`);
        }
        entries.delete(token);
      }
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
