import type { Settings } from '../../core/settings';
import type { Expectation } from '../expectation';
import { sleep } from '../../core/sleep';
import type { ApiHandler, ApiRequest } from '../../../reference-impl/http/types';
import type { PlatformVersion, StacksConfig } from '../../../reference-impl/stacks/config';
import { isOp, mapRequest, mapResponse, withBody } from '../fault';
import { laggingReads } from '../readings/lag';

/**
 * Implementations that make choices the document leaves open, differently from the reference. The suite must pass
 * every one of them: a failure here is a false alarm the suite would raise against a correct deployment.
 */
export interface Variant<C> extends Expectation {
  id: string;
  description: string;
  config?: Partial<C>;
  wrap?: (inner: ApiHandler, config: C) => ApiHandler;
  /** Run settings the variant needs, e.g. a settle bound for a target whose reads lag. */
  settings?: Partial<Settings>;
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
      if (res.status === 204 && before.status === 200)
        stopping.set(id, { until: Date.now() + 400, detail: before.body as Record<string, unknown>, auth });
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

/** Delete answers 204 at once, but the stack reads RUNNING, in get and list, for `ms` more before it is gone. */
function slowTeardown(inner: ApiHandler, ms: number): ApiHandler {
  const lingering = new Map<string, { until: number; detail: Record<string, unknown>; auth: string }>();
  return async (req) => {
    const auth = String(req.headers.authorization ?? '');
    for (const [id, s] of lingering) if (s.until < Date.now()) lingering.delete(id);
    const id = req.path.match(STACK)?.[1];
    const s = id ? lingering.get(id) : undefined;
    if (s && s.auth === auth && req.method === 'GET') return { status: 200, body: { ...s.detail, state: 'RUNNING' } };
    if (s && s.auth === auth && req.method === 'DELETE') return { status: 204 };
    if (req.method === 'DELETE' && id) {
      const before = await inner({ ...req, method: 'GET' });
      const res = await inner(req);
      if (res.status === 204 && before.status === 200)
        lingering.set(id, { until: Date.now() + ms, detail: before.body as Record<string, unknown>, auth });
      return res;
    }
    const res = await inner(req);
    if (!isOp('GET', LIST)(req) || res.status !== 200) return res;
    const extra = [...lingering.values()]
      .filter((x) => x.auth === auth)
      .map(({ detail: { stackAccessDetails: _, ...summary } }) => ({ ...summary, state: 'RUNNING' }));
    return { ...res, body: { stacks: [...((res.body as { stacks: unknown[] }).stacks ?? []), ...extra] } };
  };
}

/** Deleted stacks vanish from list and get at once, but count against the caller's limit for `ms` more. */
function hiddenButCounted(inner: ApiHandler, ms: number, limit: number): ApiHandler {
  const counted = new Map<string, number[]>();
  return async (req) => {
    const auth = String(req.headers.authorization ?? '');
    const recent = (counted.get(auth) ?? []).filter((t) => t > Date.now());
    counted.set(auth, recent);
    if (isOp('POST', LIST)(req) && recent.length) {
      const list = await inner({ ...req, method: 'GET', body: undefined, rawBody: '' });
      const held = ((list.body as { stacks?: unknown[] })?.stacks ?? []).length;
      if (list.status === 200 && held + recent.length >= limit)
        return { status: 409, body: { code: 'MaxStacksLimitReached', message: 'stack limit reached' } };
    }
    const res = await inner(req);
    if (req.method === 'DELETE' && res.status === 204) counted.set(auth, [...recent, Date.now() + ms]);
    return res;
  };
}

/** Every other stack fails while provisioning: it reads ERROR (a documented state) from `ms` after its create on. */
function everyOtherErrs(inner: ApiHandler, ms: number): ApiHandler {
  const failing = new Map<string, number>();
  let n = 0;
  const state = (id: unknown, current: unknown) =>
    typeof id === 'string' && (failing.get(id) ?? Number.POSITIVE_INFINITY) <= Date.now() ? 'ERROR' : current;
  return async (req) => {
    const res = await inner(req);
    if (isOp('POST', LIST)(req) && res.status === 202 && n++ % 2 === 0)
      failing.set(String((res.body as { id?: unknown }).id), Date.now() + ms);
    if (req.method !== 'GET' || res.status !== 200) return res;
    const b = res.body as { id?: unknown; state?: unknown; stacks?: { id?: unknown; state?: unknown }[] };
    if (Array.isArray(b.stacks)) return { ...res, body: { stacks: b.stacks.map((x) => ({ ...x, state: state(x.id, x.state) })) } };
    if (typeof b.id !== 'string' || state(b.id, b.state) !== 'ERROR') return res;
    const { stackAccessDetails: _, ...rest } = b as Record<string, unknown>;
    return { ...res, body: { ...rest, state: 'ERROR' } };
  };
}

/** Renders every timestamp of the reads in whole seconds, truncated: create answers with milliseconds. */
const wholeSeconds = (body: unknown) => JSON.parse(JSON.stringify(body).replace(/"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)\.\d+Z"/g, '"$1Z"'));

/** A version that is the start of listed builds ("9.3") names the highest of them. */
const prefixAlias =
  (inner: ApiHandler, c: StacksConfig): ApiHandler =>
  async (req) => {
    const wanted = (req.body as { platformVersion?: unknown } | undefined)?.platformVersion;
    if (!isOp('POST', LIST)(req) || typeof wanted !== 'string' || c.versions.some((v) => v.buildVersion === wanted)) return inner(req);
    const match = c.versions
      .map((v) => v.buildVersion)
      .filter((b) => b.startsWith(`${wanted}.`))
      .sort((a, b) => b.localeCompare(a, 'en', { numeric: true }))[0];
    return inner(match ? withBody(req, { platformVersion: match }) : req);
  };

const decorate = (v: unknown): unknown => {
  if (Array.isArray(v)) return v.map(decorate);
  if (v && typeof v === 'object') {
    const o = Object.fromEntries(
      Object.entries(v).map(([k, x]) => [
        k,
        typeof x === 'string' && /^\d{4}-\d\d-\d\dT.*Z$/.test(x) ? x.replace(/(\.\d+)?Z$/, '.000+00:00') : decorate(x),
      ]),
    );
    return 'id' in o || 'buildVersion' in o ? { ...o, region: 'eu-west', labels: { team: 'qa' } } : o;
  }
  return v;
};

/** A create without platformVersion ({} or other fields only): the default version applies. */
const omitsVersion = (r: ApiRequest) =>
  isOp('POST', LIST)(r) && typeof r.body === 'object' && r.body !== null && !Array.isArray(r.body) && !('platformVersion' in r.body);

/** The default version is `pick` of the listed versions: which released version is "the latest" is a matter of dates. */
const defaultIs = (pick: (versions: PlatformVersion[]) => PlatformVersion | undefined) => (inner: ApiHandler, c: StacksConfig) =>
  mapRequest(omitsVersion, (r) => withBody(r, { ...(r.body as object), platformVersion: pick(c.versions)!.buildVersion }))(inner);

const released = (vs: PlatformVersion[]) => vs.filter((v) => v.status === 'released');

/** Four-part builds: the latest released (by date) is neither the highest version nor the highest build number. */
const FOUR_PART: PlatformVersion[] = [
  { buildVersion: '10.2.1.50412', releaseName: 'Hawthorn', status: 'released' },
  { buildVersion: '10.3.0.50630', releaseName: 'Ivy', status: 'unreleased' },
  { buildVersion: '9.14.3.50588', releaseName: 'Elm', status: 'released' },
  { buildVersion: '10.1.4.50297', releaseName: 'Gorse', status: 'released' },
];

/**
 * The create answer is the stack as provisioning starts (CREATING, a placeholder name, a termination date counted
 * from the request); once it is up, reads show the name it was given and a termination date counted from then.
 */
function assignedWhenUp(inner: ApiHandler, { name = false, termination = false }): ApiHandler {
  return async (req) => {
    const res = await inner(req);
    const b = res.body as Record<string, unknown> | undefined;
    if (isOp('POST', LIST)(req) && res.status === 202 && b) {
      const created: Record<string, unknown> = { ...b, state: 'CREATING' };
      if (name) created.name = '';
      if (termination) created.terminationDate = new Date(Date.parse(String(b.terminationDate)) - 90_000).toISOString();
      return { ...res, body: created };
    }
    return res;
  };
}

/** A 404 worded `word(id)`, code and status as documented. */
const notFoundWorded = (word: (id: string) => string) =>
  mapResponse(
    (_, res) => res.status === 404,
    (res, req) => ({ ...res, body: { code: 'NotFound', message: word(decodeURIComponent(req.path.split('/').pop() ?? '')) } }),
  );

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
  {
    id: 'create-answered-late',
    description:
      'a create is answered 1.5 s after its stack is stored and listed, so lists taken meanwhile show a stack its check does not know yet',
    wrap: (inner) => async (req) => {
      const res = await inner(req);
      if (isOp('POST', LIST)(req) && res.status === 202) await sleep(1500);
      return res;
    },
    // As many checks in flight as against a deployment, so that other checks' creates overlap the lists compared.
    settings: { concurrency: 16 },
  },
  { id: 'limit-of-ten', description: 'each user may hold ten stacks', config: { maxStacksPerUser: 10 } },
  {
    id: 'unknown-key-forbidden',
    description: 'an unknown API key is answered 403 Forbidden',
    wrap: (inner, c) => async (req) => {
      const key = String(req.headers.authorization ?? '').replace(/^Bearer /, '');
      if (req.headers.authorization && !c.users.some((u) => u.apiKey === key))
        return { status: 403, body: { code: 'Forbidden', message: 'Unknown API key' } };
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
        body: JSON.parse(
          JSON.stringify(res.body).replace(
            /"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)(\.\d+)?Z"/g,
            (_, t: string, f?: string) => `"${t}${(f ?? '.').padEnd(7, '0')}+00:00"`,
          ),
        ),
      }),
    ),
  },
  {
    id: 'every-other-stack-errs',
    description: 'every other stack lands in ERROR 100 ms after its create',
    config: { provisioningDelayMs: 300 },
    wrap: (inner) => everyOtherErrs(inner, 100),
    passes: ['STK-ACCESS-DETAILS'],
  },
  {
    id: 'slow-teardown',
    description: 'a deleted stack reads RUNNING in get and list for 1.5 s before it is gone',
    wrap: (inner) => slowTeardown(inner, 1500),
  },
  {
    id: 'hidden-but-counted',
    description: 'deleted stacks vanish at once but count against a limit of two for 1 s more',
    config: { maxStacksPerUser: 2 },
    wrap: (inner) => hiddenButCounted(inner, 1000, 2),
  },
  {
    id: 'reads-in-whole-seconds',
    description: 'create answers timestamps with milliseconds, list and get in whole seconds',
    wrap: mapResponse(
      (req, res) => req.method === 'GET' && res.status === 200,
      (res) => ({ ...res, body: wholeSeconds(res.body) }),
    ),
  },
  {
    id: 'version-prefix-alias',
    description: 'a version naming the start of listed builds ("9.3") provisions the highest of them',
    wrap: prefixAlias,
  },
  {
    id: 'missing-body-is-empty-object',
    description: 'a create without a body is treated as {}',
    warns: ['STK-CREATE-BODY-REQUIRED'],
    wrap: mapRequest(
      (r) => isOp('POST', LIST)(r) && r.rawBody === '',
      (r) => withBody(r, {}),
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
  {
    id: 'default-first-listed-released',
    description: 'an omitted version selects the first listed version, a released one that is not the highest',
    wrap: defaultIs((vs) => vs[0]),
  },
  {
    id: 'default-lowest-released',
    description: 'an omitted version selects the lowest released version (a maintenance line released last)',
    wrap: defaultIs((vs) => released(vs).sort((a, b) => a.buildVersion.localeCompare(b.buildVersion, 'en', { numeric: true }))[0]),
  },
  {
    id: 'default-last-listed-released',
    description: 'an omitted version selects the last listed released version',
    wrap: defaultIs((vs) => released(vs).at(-1)),
  },
  {
    id: 'default-four-part-neither-highest',
    description: 'four-part builds; the default is neither the highest version nor the highest build number',
    config: { versions: FOUR_PART },
    wrap: defaultIs((vs) => vs.find((v) => v.buildVersion.startsWith('10.1.'))),
  },
  {
    id: 'name-assigned-when-up',
    description: 'create answers an empty name; the stack is named once it is up',
    config: { provisioningDelayMs: 0 },
    wrap: (inner) => assignedWhenUp(inner, { name: true }),
  },
  {
    id: 'termination-recomputed-when-up',
    description: 'create answers a termination date counted from the request; reads count it from when the stack came up',
    config: { provisioningDelayMs: 0 },
    wrap: (inner) => assignedWhenUp(inner, { termination: true }),
  },
  {
    id: 'not-found-there-is-no',
    description: 'a 404 says "there is no stack with id X"',
    wrap: notFoundWorded((id) => `there is no stack with id ${id}`),
  },
  {
    id: 'not-found-no-stack-matches',
    description: 'a 404 says "No stack matches X" and "no record of X"',
    wrap: notFoundWorded((id) => (id.length % 2 ? `No stack matches ${id}` : `We have no record of a stack called ${id}.`)),
  },
  {
    id: 'hidden-but-counted-long',
    description: 'deleted stacks vanish at once but count against a limit of two for 6 s, longer than the ready timeout',
    config: { maxStacksPerUser: 2 },
    wrap: (inner) => hiddenButCounted(inner, 6000, 2),
  },
  {
    id: 'lagging-reads',
    description: 'for 400 ms after a create or delete, list and get answer as before it',
    wrap: (inner) => laggingReads(inner, 400),
    settings: { settleS: 1 },
  },
];
