import type { ApiHandler } from '../../../reference-impl/http/types';
import type { StacksConfig } from '../../../reference-impl/stacks/config';
import { isOp, mapResponse } from '../fault';

/**
 * Implementations that make choices the document leaves open, differently from the reference. The suite must pass
 * every one of them: a failure here is a false alarm the suite would raise against a correct deployment.
 */
export interface Variant<C> {
  id: string;
  description: string;
  config?: Partial<C>;
  wrap?: (inner: ApiHandler, config: C) => ApiHandler;
  /** Requirements the variant leaves unestablished: they must be reported untested, never passed. */
  untested?: string[];
}

const STACK = /^\/v1\/stacks\/(?!versions$)([^/]+)$/;
const LIST = /^\/v1\/stacks$/;

/** Delete answers 204 at once but the stack reads STOPPING for a moment before it is gone. */
function asynchronousDelete(inner: ApiHandler): ApiHandler {
  const stopping = new Map<string, { until: number; detail: Record<string, unknown>; auth: string }>();
  return async (req) => {
    const auth = String(req.headers.authorization ?? '');
    for (const [id, s] of stopping) if (s.until < Date.now()) stopping.delete(id);
    const id = req.path.match(STACK)?.[1];
    const s = id ? stopping.get(id) : undefined;
    if (s && s.auth === auth && req.method === 'GET') return { status: 200, body: { ...s.detail, state: 'STOPPING' } };
    if (req.method === 'DELETE' && id && !s) {
      const before = await inner({ ...req, method: 'GET' });
      const res = await inner(req);
      if (res.status === 204 && before.status === 200) stopping.set(id, { until: Date.now() + 400, detail: before.body as Record<string, unknown>, auth });
      return res;
    }
    if (req.method === 'DELETE' && s && s.auth === auth) return { status: 204 };
    const res = await inner(req);
    if (isOp('GET', LIST)(req) && res.status === 200) {
      const extra = [...stopping.values()]
        .filter((x) => x.auth === auth)
        .map((x) => {
          const { stackAccessDetails: _, ...summary } = x.detail;
          return { ...summary, state: 'STOPPING' };
        });
      return { ...res, body: { stacks: [...((res.body as { stacks: unknown[] }).stacks ?? []), ...extra] } };
    }
    return res;
  };
}

const decorate = (v: unknown): unknown => {
  if (Array.isArray(v)) return v.map(decorate);
  if (v && typeof v === 'object') {
    const o = Object.fromEntries(Object.entries(v).map(([k, x]) => [k, typeof x === 'string' && /^\d{4}-\d\d-\d\dT.*Z$/.test(x) ? x.replace(/(\.\d+)?Z$/, '.000+00:00') : decorate(x)]));
    return 'id' in o || 'buildVersion' in o ? { ...o, region: 'eu-west', labels: { team: 'qa' } } : o;
  }
  return v;
};

export const stacksVariants: Variant<StacksConfig>[] = [
  { id: 'async-delete', description: 'a deleted stack reads STOPPING for 400 ms before it is gone', wrap: asynchronousDelete },
  {
    id: 'slow-provisioning',
    description: 'stacks take an hour to become RUNNING: checks that need one are untested, none fails',
    config: { provisioningDelayMs: 3_600_000 },
    untested: ['STK-ACCESS-DETAILS'],
  },
  { id: 'instant-provisioning', description: 'stacks are RUNNING as soon as they are created', config: { provisioningDelayMs: 0 } },
  { id: 'limit-of-one', description: 'each user may hold one stack', config: { maxStacksPerUser: 1 } },
  { id: 'limit-of-ten', description: 'each user may hold ten stacks', config: { maxStacksPerUser: 10 } },
  {
    id: 'unknown-key-forbidden',
    description: 'an unknown API key is answered 403 Forbidden',
    wrap: (inner, c) => async (req) => {
      const key = String(req.headers.authorization ?? '').replace(/^Bearer /, '');
      if (req.headers.authorization && !c.users.some((u) => u.apiKey === key)) return { status: 403, body: { code: 'Forbidden', message: 'Unknown API key' } };
      return inner(req);
    },
  },
  {
    id: 'decorated-payloads',
    description: 'answers carry extra fields, and timestamps with milliseconds and a +00:00 offset',
    wrap: mapResponse(
      (_, res) => res.status < 300 && res.body !== undefined,
      (res) => ({ ...res, body: decorate(res.body) }),
    ),
  },
  {
    id: 'reads-render-time-differently',
    description: 'create answers timestamps with Z, reads with microseconds and +00:00',
    wrap: mapResponse(
      (req, res) => req.method === 'GET' && res.status === 200,
      (res) => ({
        ...res,
        body: JSON.parse(JSON.stringify(res.body).replace(/"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)(\.\d+)?Z"/g, (_, t: string, f?: string) => `"${t}${(f ?? '.').padEnd(7, '0')}+00:00"`)),
      }),
    ),
  },
  {
    id: 'other-wording',
    description: 'error messages are worded differently and carry extra fields',
    wrap: mapResponse(
      (_, res) => res.status >= 400,
      (res, req) => {
        const b = res.body as { code: string; message: string };
        const version = (req.body as { platformVersion?: unknown })?.platformVersion;
        const message =
          b.code === 'NotFound'
            ? 'The requested stack could not be found.'
            : b.code === 'InvalidRequest' && typeof version === 'string'
              ? `Version '${version}' is not offered.`
              : `Request refused (${b.code}).`;
        return { ...res, body: { code: b.code, message, requestId: 'req-123' } };
      },
    ),
  },
];
