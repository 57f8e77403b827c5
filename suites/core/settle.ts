import { sleep } from './sleep';
import type { Transport } from './transport';

const READS = new Set(['GET', 'HEAD']);

/**
 * The transport of one attempt whose reads must see its writes: a read waits until `settleMs` have passed since the
 * attempt's last write, so a target that shows a write late (a replica, an index) is read once it has. Only a read
 * after a write waits: a run of reads, or of writes, goes at full speed.
 */
export function settling(inner: Transport, settleMs: number): Transport {
  // The attempt before this one has just cleaned up: its deletes must settle before this attempt reads.
  let lastWrite = Date.now();
  let writesInFlight = 0;
  return {
    ...inner,
    get stats() {
      return inner.stats;
    },
    async send(req, lane) {
      if (!READS.has(req.method.toUpperCase())) {
        writesInFlight++;
        try {
          return await inner.send(req, lane);
        } finally {
          writesInFlight--;
          lastWrite = Date.now();
        }
      }
      // A write still in flight will move lastWrite: wait for it too, then for the bound after the last one.
      while (writesInFlight > 0 || Date.now() < lastWrite + settleMs) {
        await sleep(writesInFlight > 0 ? 20 : lastWrite + settleMs - Date.now());
      }
      return inner.send(req, lane);
    },
  };
}
