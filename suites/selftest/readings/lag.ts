import type { ApiHandler, ApiResponse } from '../../../reference-impl/http/types';

/**
 * A target whose reads lag its writes, as a replicated deployment's do: for `lagMs` after a write that succeeded,
 * a read the target answered before that write is answered as it was then (an object still there after its delete,
 * the old title after an update, a list or count without the new row). Nothing is lost: once the lag has passed,
 * every read is fresh. Reads no one made before a write are fresh at once, so a create's key can be read back.
 */
export function laggingReads(inner: ApiHandler, lagMs: number): ApiHandler {
  const seen = new Map<string, { res: ApiResponse; at: number }>();
  let lastWrite = Number.NEGATIVE_INFINITY;
  return async (req) => {
    const key = `${String(req.headers.authorization ?? '')} ${req.path}?${req.query.toString()}`;
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      const res = await inner(req);
      if (res.status >= 200 && res.status < 300) lastWrite = Date.now();
      return res;
    }
    const now = Date.now();
    const before = seen.get(key);
    if (before && now < lastWrite + lagMs && before.at < lastWrite) return structuredClone(before.res);
    const res = await inner(req);
    seen.set(key, { res: structuredClone(res), at: now });
    return res;
  };
}
