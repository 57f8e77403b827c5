import type { ApiHandler, ApiResponse } from '../../../reference-impl/http/types';

/**
 * A target whose reads lag its writes, as a replicated deployment's do: every write that succeeded shows to reads
 * `lagMs` after it was made. A read is answered as the target answered it last, when no write has shown since (an
 * object still there after its delete, the old title after an update, a list or count without the new row); once
 * the lag has passed, it is fresh. Nothing is lost. A read no one made before is fresh at once, so a create's key
 * can be read back.
 */
export function laggingReads(inner: ApiHandler, lagMs: number): ApiHandler {
  const seen = new Map<string, { res: ApiResponse; at: number }>();
  const writes: number[] = [];
  return async (req) => {
    const key = `${String(req.headers.authorization ?? '')} ${req.path}?${req.query.toString()}`;
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      const res = await inner(req);
      if (res.status >= 200 && res.status < 300) writes.push(Date.now());
      return res;
    }
    const now = Date.now();
    while (writes.length && writes[0]! < now - 4 * lagMs) writes.shift();
    const before = seen.get(key);
    // What a replica lagMs behind answers: the last answer, unless a write made since has had time to show.
    const shown = (at: number) => writes.some((w) => w > at && w <= now - lagMs);
    const pending = (at: number) => writes.some((w) => w > at);
    const recent = before && before.at >= now - 4 * lagMs;
    if (recent && pending(before.at) && !shown(before.at)) return structuredClone(before.res);
    const res = await inner(req);
    seen.set(key, { res: structuredClone(res), at: now });
    return res;
  };
}
