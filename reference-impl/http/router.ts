/** One entry of a route table. `pattern` segments starting with `:` capture a path parameter. */
export interface Route<F> {
  method: string;
  pattern: string;
  segments: readonly string[];
  fn: F;
}

export type RouteMatch<F> = { fn: F; params: Record<string, string>; pattern: string } | { allowed: string[] };

export function route<F>(method: string, pattern: string, fn: F): Route<F> {
  return { method: method.toUpperCase(), pattern, segments: pattern.split('/'), fn };
}

function decodeSegments(path: string): string[] | undefined {
  if (!path.startsWith('/')) return undefined;
  try {
    // Split before decoding so an encoded `/` stays inside its segment.
    return path.split('/').map((segment) => decodeURIComponent(segment));
  } catch {
    return undefined;
  }
}

function bind(segments: readonly string[], path: readonly string[]): Record<string, string> | undefined {
  if (segments.length !== path.length) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < segments.length; i++) {
    const want = segments[i]!;
    const got = path[i]!;
    if (want.startsWith(':')) {
      if (got === '') return undefined;
      params[want.slice(1)] = got;
    } else if (want !== got) {
      return undefined;
    }
  }
  return params;
}

// Literal segments win over parameters, left to right, so `/v1/stacks/versions` is its own resource
// (a DELETE on it is a 405, not a delete of a stack called "versions") whatever the table order.
function shape(segments: readonly string[]): string {
  return segments.map((s) => (s.startsWith(':') ? '1' : '0')).join('');
}

/**
 * The route for `method path`: its function and decoded parameters; `{ allowed }` when the path exists but not
 * with this method; undefined when no route has this path. HEAD falls back to GET.
 */
export function match<F>(routes: readonly Route<F>[], method: string, path: string): RouteMatch<F> | undefined {
  const parts = decodeSegments(path);
  if (parts === undefined) return undefined;
  let bestShape: string | undefined;
  let hits: { route: Route<F>; params: Record<string, string> }[] = [];
  for (const r of routes) {
    const params = bind(r.segments, parts);
    if (params === undefined) continue;
    const s = shape(r.segments);
    if (bestShape === undefined || s < bestShape) {
      bestShape = s;
      hits = [{ route: r, params }];
    } else if (s === bestShape) {
      hits.push({ route: r, params });
    }
  }
  if (hits.length === 0) return undefined;
  const wanted = method.toUpperCase();
  const hit = hits.find((h) => h.route.method === wanted) ?? (wanted === 'HEAD' ? hits.find((h) => h.route.method === 'GET') : undefined);
  if (hit !== undefined) return { fn: hit.route.fn, params: hit.params, pattern: hit.route.pattern };
  const allowed = [...new Set(hits.map((h) => h.route.method))];
  if (allowed.includes('GET') && !allowed.includes('HEAD')) allowed.splice(allowed.indexOf('GET') + 1, 0, 'HEAD');
  return { allowed };
}
