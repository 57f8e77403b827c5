import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

type Gc = () => void;

// vitest's forks do not pass --expose-gc; the flag can still be turned on at run time and the function taken
// from a fresh context. Without it, heap figures include garbage and the bounds have to be generous.
function findGc(): Gc | undefined {
  const existing = (globalThis as { gc?: Gc }).gc;
  if (typeof existing === 'function') return existing;
  try {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as unknown;
    return typeof gc === 'function' ? (gc as Gc) : undefined;
  } catch {
    return undefined;
  }
}

const gc = findGc();

export const canCollect = gc !== undefined;

/** heapUsed in bytes after full collections (when available). */
export async function settledHeap(): Promise<number> {
  for (let i = 0; i < 3; i++) {
    gc?.();
    await new Promise((r) => setImmediate(r));
  }
  return process.memoryUsage().heapUsed;
}

export const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);
