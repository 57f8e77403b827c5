import type { ApiHandler, ApiRequest, ApiResponse } from '../../../reference-impl/http/types';
import { latestReleased, type StacksConfig } from '../../../reference-impl/stacks/config';
import { isOp, mapRequest, mapResponse, withBody, withHeader, type Fault } from '../fault';
import type { StacksRequirementId } from '../../stacks/requirements.gen';

type StacksFault = Fault<StacksConfig, StacksRequirementId>;

const STACK = /^\/v1\/stacks\/(?!versions$)[^/]+$/;
const LIST = /^\/v1\/stacks$/;
const VERSIONS = /^\/v1\/stacks\/versions$/;
const keyOf = (req: ApiRequest) => String(req.headers.authorization ?? '').replace(/^Bearer /, '');
const allowedKeys = (c: StacksConfig) => c.users.filter((u) => u.allowed).map((u) => `Bearer ${u.apiKey}`);
const asUser = (req: ApiRequest, authorization: string) => withHeader(req, 'authorization', authorization);
const summaries = (res: ApiResponse) => (res.body as { stacks?: Record<string, unknown>[] })?.stacks ?? [];
const eachSummary = (res: ApiResponse, f: (s: Record<string, unknown>) => void) => {
  const b = res.body as Record<string, unknown> | undefined;
  if (!b || typeof b !== 'object') return res;
  if (Array.isArray(b.stacks)) for (const s of b.stacks) f(s as Record<string, unknown>);
  else if ('id' in b) f(b);
  return res;
};
const ok = (res: ApiResponse) => res.status < 300;
/** A create whose body is an object without platformVersion: the default version applies. */
const omitsVersion = (r: ApiRequest) =>
  isOp('POST', LIST)(r) && typeof r.body === 'object' && r.body !== null && !Array.isArray(r.body) && !('platformVersion' in r.body);

/** Tries every allow-listed user's key until one owns the stack: ownership ignored. */
const anyOwner =
  (inner: ApiHandler, c: StacksConfig): ApiHandler =>
  async (req) => {
    const first = await inner(req);
    if (first.status !== 404) return first;
    for (const auth of allowedKeys(c)) {
      const res = await inner(asUser(req, auth));
      if (res.status !== 404) return res;
    }
    return first;
  };

/** Get answers 404 for a deleted stack at once, but its owner's list shows it in `state` for ever. */
const listedAfterDelete = (inner: ApiHandler, state: string): ApiHandler => {
  const ghosts = new Map<string, Record<string, unknown>[]>();
  return async (req) => {
    const auth = String(req.headers.authorization ?? '');
    if (isOp('DELETE', STACK)(req)) {
      const before = await inner({ ...req, method: 'GET' });
      const res = await inner(req);
      if (res.status === 204 && before.status === 200) {
        const { stackAccessDetails: _, ...summary } = before.body as Record<string, unknown>;
        ghosts.set(auth, [...(ghosts.get(auth) ?? []), { ...summary, state }]);
      }
      return res;
    }
    const res = await inner(req);
    if (!isOp('GET', LIST)(req) || res.status !== 200) return res;
    return { ...res, body: { stacks: [...summaries(res), ...(ghosts.get(auth) ?? [])] } };
  };
};

/** Serves a request on a stack as whichever allow-listed user owns it, whoever sent it; as sent when nobody does. */
async function asItsOwner(inner: ApiHandler, c: StacksConfig, req: ApiRequest): Promise<ApiResponse> {
  for (const auth of allowedKeys(c)) {
    const res = await inner(asUser(req, auth));
    if (res.status !== 404) return res;
  }
  return inner(req);
}

export const stacksFaults: StacksFault[] = [
  {
    id: 'auth-missing-key-accepted',
    description: 'requests without a key are served as the first user',
    breaks: ['STK-AUTH-401'],
    wrap: (inner, c) =>
      mapRequest(
        (r) => !r.headers.authorization,
        (r) => asUser(r, `Bearer ${c.users[0].apiKey}`),
      )(inner),
  },
  {
    id: 'auth-allow-list-ignored',
    description: 'a user who is not on the allow list is served like an allowed one',
    breaks: ['STK-AUTH-403'],
    wrap: (inner, c) =>
      mapRequest(
        (r) => c.users.some((u) => !u.allowed && keyOf(r) === u.apiKey),
        (r) => asUser(r, `Bearer ${c.users.find((u) => u.allowed)!.apiKey}`),
      )(inner),
  },
  {
    id: 'auth-missing-key-403',
    description: 'a missing key is answered 403 Forbidden instead of 401 Unauthorized',
    breaks: ['STK-AUTH-401'],
    wrap: mapResponse(
      (r, res) => !r.headers.authorization && res.status === 401,
      () => ({ status: 403, body: { code: 'Forbidden', message: 'no key' } }),
    ),
  },
  {
    id: 'isolation-list-shows-all',
    description: "list returns every user's stacks",
    breaks: ['STK-LIST-OWN', 'STK-OWNERSHIP'],
    wrap: (inner, c) => async (req) => {
      const res = await inner(req);
      if (!(isOp('GET', LIST)(req) && ok(res))) return res;
      const all = [];
      for (const auth of allowedKeys(c)) all.push(...summaries(await inner(asUser(req, auth))));
      return { ...res, body: { stacks: all } };
    },
  },
  {
    id: 'isolation-get-foreign',
    description: "get returns another user's stack",
    breaks: ['STK-GET-404', 'STK-OWNERSHIP'],
    wrap: (inner, c) => (req) => (isOp('GET', STACK)(req) ? anyOwner(inner, c)(req) : inner(req)),
  },
  {
    id: 'isolation-delete-foreign',
    description: "delete removes another user's stack",
    breaks: ['STK-DELETE-404', 'STK-OWNERSHIP'],
    wrap: (inner, c) => (req) => (isOp('DELETE', STACK)(req) ? anyOwner(inner, c)(req) : inner(req)),
  },
  {
    id: 'create-answers-201',
    description: 'create answers 201 instead of 202',
    breaks: ['STK-CREATE-202', 'STK-ERR-STATUSES'],
    wrap: mapResponse(
      (r, res) => isOp('POST', LIST)(r) && res.status === 202,
      (res) => ({ ...res, status: 201 }),
    ),
  },
  {
    id: 'delete-answers-200-with-body',
    description: 'delete answers 200 with a body instead of 204',
    breaks: ['STK-DELETE-204'],
    collateral: ['STK-ERR-STATUSES'],
    wrap: mapResponse(
      (r, res) => isOp('DELETE', STACK)(r) && res.status === 204,
      () => ({ status: 200, body: { deleted: true } }),
    ),
  },
  {
    id: 'summary-without-termination-date',
    description: 'summaries lack terminationDate',
    breaks: ['STK-SCHEMA-SUMMARY', 'STK-CREATE-TERMINATION'],
    collateral: ['STK-SCHEMA-DETAIL'],
    wrap: mapResponse(
      (_, res) => ok(res),
      (res) => eachSummary(res, (s) => delete s.terminationDate),
    ),
  },
  {
    id: 'created-at-not-iso',
    description: 'createdAt is sent as a locale date string',
    breaks: ['STK-SCHEMA-SUMMARY'],
    collateral: ['STK-SCHEMA-DETAIL'],
    wrap: mapResponse(
      (_, res) => ok(res),
      (res) => eachSummary(res, (s) => (s.createdAt = new Date(String(s.createdAt)).toUTCString())),
    ),
  },
  {
    id: 'state-lower-case',
    description: 'states are sent in lower case',
    breaks: ['STK-SCHEMA-STATE'],
    collateral: ['STK-CREATE-INITIAL-STATE'],
    wrap: mapResponse(
      (_, res) => ok(res),
      (res) => eachSummary(res, (s) => (s.state = String(s.state).toLowerCase())),
    ),
  },
  {
    id: 'access-details-without-password',
    description: 'access details lack the password',
    breaks: ['STK-SCHEMA-ACCESS'],
    collateral: ['STK-ACCESS-DETAILS'],
    wrap: mapResponse(
      (r, res) => isOp('GET', STACK)(r) && ok(res),
      (res) => eachSummary(res, (s) => s.stackAccessDetails && delete (s.stackAccessDetails as Record<string, unknown>).password),
    ),
  },
  {
    id: 'limit-wrong-code',
    description: 'the limit answers 409 with code LimitExceeded',
    breaks: ['STK-LIMIT-409'],
    wrap: mapResponse(
      (_, res) => res.status === 409,
      (res) => ({ ...res, body: { code: 'LimitExceeded', message: 'too many' } }),
    ),
  },
  {
    id: 'limit-counts-all-users',
    description: "the per-user limit counts every user's stacks",
    breaks: ['STK-LIMIT-409'],
    wrap: (inner, c) => async (req) => {
      if (!isOp('POST', LIST)(req)) return inner(req);
      let total = 0;
      for (const auth of allowedKeys(c))
        total += summaries(await inner({ ...asUser(req, auth), method: 'GET', body: undefined, rawBody: '' })).length;
      if (c.users.some((u) => u.allowed && `Bearer ${u.apiKey}` === req.headers.authorization) && total >= c.maxStacksPerUser)
        return { status: 409, body: { code: 'MaxStacksLimitReached', message: 'limit' } };
      return inner(req);
    },
  },
  {
    id: 'default-version-newest-of-any-status',
    description: 'an omitted version selects the newest version even if unreleased',
    breaks: ['STK-CREATE-DEFAULT-VERSION'],
    wrap: (inner, c) =>
      mapRequest(omitsVersion, (r) =>
        withBody(r, {
          ...(r.body as object),
          platformVersion: [...c.versions].sort((a, b) => b.buildVersion.localeCompare(a.buildVersion, undefined, { numeric: true }))[0]
            .buildVersion,
        }),
      )(inner),
  },
  {
    // The first listed version is the default: a reading, as long as it is a released one. This server lists the
    // newest build first, an unreleased one, so its default is unreleased.
    id: 'default-version-first-listed',
    description: 'versions are listed newest first and an omitted version selects the first listed, an unreleased one',
    breaks: ['STK-CREATE-DEFAULT-VERSION'],
    wrap: (inner, c) => {
      const newestFirst = [...c.versions].sort((a, b) => b.buildVersion.localeCompare(a.buildVersion, undefined, { numeric: true }));
      const listed = mapResponse(
        (r, res) => isOp('GET', VERSIONS)(r) && ok(res),
        (res) => ({ ...res, body: { versions: newestFirst } }),
      )(inner);
      return mapRequest(omitsVersion, (r) => withBody(r, { platformVersion: newestFirst[0].buildVersion }))(listed);
    },
  },
  {
    id: 'default-version-rotates',
    description: 'an omitted version selects the released versions in turn, spreading stacks over them',
    breaks: ['STK-CREATE-DEFAULT-VERSION'],
    wrap: (inner, c) => {
      const released = c.versions.filter((v) => v.status === 'released');
      let n = 0;
      return mapRequest(omitsVersion, (r) => withBody(r, { platformVersion: released[n++ % released.length].buildVersion }))(inner);
    },
  },
  {
    id: 'chosen-version-ignored',
    description: 'platformVersion in the body is ignored',
    breaks: ['STK-CREATE-CHOSEN-VERSION'],
    collateral: ['STK-CREATE-UNKNOWN-VERSION', 'STK-CREATE-REFUSED-NO-STACK'],
    wrap: mapRequest(
      (r) => isOp('POST', LIST)(r) && typeof (r.body as { platformVersion?: unknown })?.platformVersion === 'string',
      (r) => withBody(r, {}),
    ),
  },
  {
    id: 'unreleased-version-refused',
    description: 'listed unreleased versions are refused at create',
    breaks: ['STK-VERSIONS-SELECTABLE'],
    collateral: ['STK-SCHEMA-CREATE-REQUEST'],
    wrap: (inner, c) => async (req) => {
      const v = (req.body as { platformVersion?: unknown })?.platformVersion;
      if (isOp('POST', LIST)(req) && c.versions.some((x) => x.buildVersion === v && x.status === 'unreleased'))
        return { status: 400, body: { code: 'InvalidRequest', message: `version ${String(v)} is not available` } };
      return inner(req);
    },
  },
  {
    id: 'unknown-version-accepted',
    description: 'an unknown version is silently replaced by the default',
    breaks: ['STK-CREATE-UNKNOWN-VERSION'],
    collateral: ['STK-CREATE-REFUSED-NO-STACK'],
    wrap: (inner, c) =>
      mapRequest(
        (r) =>
          isOp('POST', LIST)(r) &&
          typeof (r.body as { platformVersion?: unknown })?.platformVersion === 'string' &&
          !c.versions.some((v) => v.buildVersion === (r.body as { platformVersion: string }).platformVersion),
        (r) => withBody(r, {}),
      )(inner),
  },
  {
    id: 'unknown-version-message-silent',
    description: 'the 400 for an unknown version does not name it',
    breaks: ['STK-CREATE-UNKNOWN-VERSION'],
    wrap: mapResponse(
      (r, res) => isOp('POST', LIST)(r) && res.status === 400,
      (res) => ({ ...res, body: { code: 'InvalidRequest', message: 'invalid request' } }),
    ),
  },
  {
    id: 'not-found-message-silent',
    description: 'a 404 for a missing stack says only that the request failed',
    breaks: ['STK-GET-404', 'STK-DELETE-404'],
    wrap: mapResponse(
      (_, res) => res.status === 404,
      (res) => ({ ...res, body: { code: 'NotFound', message: 'The request failed.' } }),
    ),
  },
  {
    id: 'malformed-body-500',
    description: 'invalid JSON crashes the handler into a 500',
    breaks: ['STK-CREATE-MALFORMED'],
    wrap: mapResponse(
      (r) => isOp('POST', LIST)(r) && r.bodyError !== undefined,
      () => ({ status: 500, body: { code: 'InternalServerError', message: 'Unexpected token' } }),
    ),
  },
  {
    id: 'missing-stack-403',
    description: 'a missing stack is answered 403 instead of 404',
    breaks: ['STK-GET-404', 'STK-DELETE-404'],
    collateral: ['STK-AUTH-BEARER', 'STK-AUTH-KEY', 'STK-LIST-GET-AGREE', 'STK-OWNERSHIP'],
    wrap: mapResponse(
      (_, res) => res.status === 404,
      () => ({ status: 403, body: { code: 'Forbidden', message: 'not yours' } }),
    ),
  },
  {
    id: 'deleted-stack-stays-listed',
    description: "a deleted stack is answered 404 by get but stays in its owner's list as RUNNING for ever",
    breaks: ['STK-LIST-GET-AGREE'],
    wrap: (inner) => listedAfterDelete(inner, 'RUNNING'),
  },
  {
    id: 'deleted-stack-listed-stopping',
    description: "a deleted stack is answered 404 by get but stays in its owner's list as STOPPING for ever",
    breaks: ['STK-LIST-GET-AGREE'],
    wrap: (inner) => listedAfterDelete(inner, 'STOPPING'),
  },
  {
    id: 'list-hides-creating',
    description: 'the list leaves out stacks that are still CREATING',
    breaks: ['STK-CREATE-VISIBLE'],
    collateral: ['STK-LIST-200', 'STK-LIST-OWN'],
    wrap: mapResponse(
      (r, res) => isOp('GET', LIST)(r) && ok(res),
      (res) => ({ ...res, body: { stacks: summaries(res).filter((s) => s.state !== 'CREATING') } }),
    ),
  },
  {
    id: 'list-hides-chosen-version',
    description: 'the list leaves out stacks created on a version other than the default',
    breaks: ['STK-CREATE-VISIBLE'],
    wrap: (inner, c) =>
      mapResponse(
        (r, res) => isOp('GET', LIST)(r) && ok(res),
        (res) => ({
          ...res,
          body: { stacks: summaries(res).filter((s) => s.platformVersion === latestReleased(c.versions)?.buildVersion) },
        }),
      )(inner),
  },
  {
    id: 'chosen-version-starts-in-error',
    description: 'a create naming a platformVersion answers the new stack in state ERROR',
    breaks: ['STK-CREATE-INITIAL-STATE'],
    wrap: mapResponse(
      (r, res) =>
        isOp('POST', LIST)(r) && res.status === 202 && typeof (r.body as { platformVersion?: unknown })?.platformVersion === 'string',
      (res) => eachSummary(res, (s) => (s.state = 'ERROR')),
    ),
  },
  {
    id: 'unreleased-stack-settles-failed',
    description:
      'get reports a provisioned stack of an unreleased version as FAILED, a state outside StackState (create and list say RUNNING)',
    breaks: ['STK-SCHEMA-STATE'],
    wrap: (inner, c) =>
      mapResponse(
        (r, res) => isOp('GET', STACK)(r) && res.status === 200,
        (res) =>
          eachSummary(res, (s) => {
            const v = c.versions.find((x) => x.buildVersion === s.platformVersion);
            if (v?.status === 'unreleased' && s.state !== 'CREATING') s.state = 'FAILED';
          }),
      )(inner),
  },
  {
    id: 'last-listed-version-refused',
    description: 'the last version the list gives, a released one, is refused at create as unknown',
    breaks: ['STK-VERSIONS-SELECTABLE'],
    collateral: ['STK-SCHEMA-CREATE-REQUEST'],
    wrap: (inner, c) => async (req) => {
      const v = (req.body as { platformVersion?: unknown })?.platformVersion;
      if (isOp('POST', LIST)(req) && v === c.versions.at(-1)!.buildVersion)
        return { status: 400, body: { code: 'InvalidRequest', message: `Unknown platformVersion ${String(v)}` } };
      return inner(req);
    },
  },
  {
    id: 'foreign-stack-404-silent',
    description: "a 404 for another user's stack says only that access was denied",
    breaks: ['STK-GET-404', 'STK-DELETE-404'],
    wrap: (inner, c) => async (req) => {
      const res = await inner(req);
      if (res.status !== 404 || !STACK.test(req.path)) return res;
      const owners = await Promise.all(allowedKeys(c).map((auth) => inner({ ...asUser(req, auth), method: 'GET' })));
      if (!owners.some((o) => o.status === 200)) return res;
      return { ...res, body: { code: 'NotFound', message: 'Access denied.' } };
    },
  },
  {
    id: 'deleted-stack-404-silent',
    description: 'a 404 for a stack that was deleted says only that the request failed',
    breaks: ['STK-GET-404', 'STK-DELETE-404'],
    wrap: (inner) => {
      const made = new Set<string>();
      return async (req) => {
        const res = await inner(req);
        if (isOp('POST', LIST)(req) && res.status === 202) made.add(String((res.body as { id?: unknown }).id));
        const id = req.path.split('/').pop() ?? '';
        if (res.status !== 404 || !STACK.test(req.path) || !made.has(decodeURIComponent(id))) return res;
        return { ...res, body: { code: 'NotFound', message: 'The request failed.' } };
      };
    },
  },
  {
    id: 'existing-stack-served-without-key',
    description: 'get and delete of an existing stack without a key are served as its owner',
    breaks: ['STK-AUTH-401'],
    wrap: (inner, c) => (req) => (STACK.test(req.path) && !req.headers.authorization ? asItsOwner(inner, c, req) : inner(req)),
  },
  {
    id: 'existing-stack-served-to-forbidden',
    description: "get and delete of an allowed user's stack by a user not on the allow list are served as the owner",
    breaks: ['STK-AUTH-403'],
    wrap: (inner, c) => (req) =>
      STACK.test(req.path) && c.users.some((u) => !u.allowed && keyOf(req) === u.apiKey) ? asItsOwner(inner, c, req) : inner(req),
  },
  {
    id: 'chosen-version-termination-before-creation',
    description: 'a create naming a platformVersion answers a terminationDate a minute before createdAt',
    breaks: ['STK-CREATE-TERMINATION'],
    wrap: mapResponse(
      (r, res) =>
        isOp('POST', LIST)(r) && res.status === 202 && typeof (r.body as { platformVersion?: unknown })?.platformVersion === 'string',
      (res) => eachSummary(res, (s) => (s.terminationDate = new Date(Date.parse(String(s.createdAt)) - 60_000).toISOString())),
    ),
  },
  {
    id: 'text-plain-bodies',
    description: 'answers are labelled text/plain',
    breaks: ['STK-JSON'],
    wrap: mapResponse(
      (_, res) => res.body !== undefined,
      (res) => ({ ...res, headers: { ...res.headers, 'content-type': 'text/plain' } }),
    ),
  },
  {
    id: 'error-body-not-service-error',
    description: 'errors are sent as {error: message}',
    breaks: ['STK-ERR-BODY'],
    collateral: [
      'STK-AUTH-401',
      'STK-AUTH-403',
      'STK-CREATE-BODY-REQUIRED',
      'STK-CREATE-UNKNOWN-VERSION',
      'STK-CREATE-MALFORMED',
      'STK-GET-404',
      'STK-DELETE-404',
      'STK-LIMIT-409',
    ],
    wrap: mapResponse(
      (_, res) => res.status >= 400,
      (res) => ({ ...res, body: { error: (res.body as { message?: string })?.message } }),
    ),
  },
  {
    id: 'refused-create-still-creates',
    description: 'a create refused for an unknown version still provisions a stack',
    breaks: ['STK-CREATE-REFUSED-NO-STACK'],
    wrap: (inner) => async (req) => {
      const res = await inner(req);
      if (
        isOp('POST', LIST)(req) &&
        res.status === 400 &&
        req.bodyError === undefined &&
        typeof req.body === 'object' &&
        req.body !== null &&
        !Array.isArray(req.body)
      )
        await inner(withBody(req, {}));
      return res;
    },
  },
];
