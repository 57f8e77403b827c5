import type { Transport } from './transport';

/**
 * The transport of one attempt, counting its requests in flight. A check whose run ends early (a `Promise.all`
 * that rejected on its first failure) may leave branches still reading: `drained` waits for them, so that their
 * reads never meet the attempt's own cleanup and judge rows the cleanup is deleting.
 */
export function inFlight(inner: Transport): Transport & { drained(boundMs: number): Promise<void> } {
  let pending = 0;
  const idle: (() => void)[] = [];
  return {
    ...inner,
    get stats() {
      return inner.stats;
    },
    async send(req, lane) {
      pending++;
      try {
        return await inner.send(req, lane);
      } finally {
        if (--pending === 0) for (const wake of idle.splice(0)) wake();
      }
    },
    drained(boundMs) {
      if (pending === 0) return Promise.resolve();
      return new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, boundMs);
        idle.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    },
  };
}
