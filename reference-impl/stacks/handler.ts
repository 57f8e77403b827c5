import { bearerToken } from '../http/auth';
import { newId, randomSecret, shortId } from '../http/ids';
import { match, route } from '../http/router';
import type { ApiHandler, ApiRequest, ApiResponse } from '../http/types';
import { latestReleased, type StacksConfig, type StackUser } from './config';
import { serviceError } from './errors';
import { createStackStore, type StackRecord } from './store';
import { isPlainObject } from '../http/json';

export interface Clock {
  now(): number;
}

type StackState = 'CREATING' | 'RUNNING' | 'STOPPING' | 'ERROR';

interface StackSummary {
  id: string;
  name: string;
  state: StackState;
  createdAt: string;
  terminationDate: string;
  platformVersion: string;
}

interface StackDetail extends StackSummary {
  stackAccessDetails?: { url: string; username: string; password: string };
}

type RouteFn = (req: ApiRequest, params: Record<string, string>, user: StackUser, nowMs: number) => ApiResponse;

function notFound(id: string): ApiResponse {
  return serviceError('NotFound', `Stack ${id} was not found`);
}

// An absent platformVersion means the default (latest released) one; a given one must be a version the versions list offers.
function chosenVersion(
  body: Record<string, unknown>,
  knownVersions: ReadonlySet<string>,
  defaultVersion: string | undefined,
): string | undefined | ApiResponse {
  if (!Object.hasOwn(body, 'platformVersion')) return defaultVersion;
  const given = body.platformVersion;
  if (typeof given !== 'string') {
    return serviceError('InvalidRequest', 'platformVersion must be a string');
  }
  if (!knownVersions.has(given)) {
    return serviceError('InvalidRequest', `Unknown platformVersion "${given}"; GET /v1/stacks/versions lists the selectable versions`);
  }
  return given;
}

/** The stack API as a pure request → response function over an in-memory store. */
export function createStacksHandler(config: StacksConfig, clock: Clock = { now: () => Date.now() }): ApiHandler {
  const store = createStackStore();
  const usersByKey = new Map(config.users.map((u) => [u.apiKey, u]));
  const knownVersions = new Set(config.versions.map((v) => v.buildVersion));
  const defaultVersion = latestReleased(config.versions)?.buildVersion;

  // State is derived from the clock on every read, so the CREATING → RUNNING transition needs no timer.
  const stateOf = (s: StackRecord, nowMs: number): StackState =>
    nowMs - s.createdAtMs < config.provisioningDelayMs ? 'CREATING' : 'RUNNING';

  const summary = (s: StackRecord, nowMs: number): StackSummary => ({
    id: s.id,
    name: s.name,
    state: stateOf(s, nowMs),
    createdAt: new Date(s.createdAtMs).toISOString(),
    terminationDate: new Date(s.terminationAtMs).toISOString(),
    platformVersion: s.platformVersion,
  });

  const detail = (s: StackRecord, nowMs: number): StackDetail => {
    const view: StackDetail = summary(s, nowMs);
    if (view.state === 'RUNNING') {
      view.stackAccessDetails = { url: `https://${s.id}.stacks.example.test`, username: 'admin', password: s.password };
    }
    return view;
  };

  const createStack: RouteFn = (req, _params, user, nowMs) => {
    if (req.bodyError !== undefined) {
      return serviceError('InvalidRequest', `Request body is not valid JSON: ${req.bodyError}`);
    }
    if (req.rawBody.length === 0) {
      return serviceError('InvalidRequest', 'Request body is required: send a JSON object, e.g. {}');
    }
    if (!isPlainObject(req.body)) {
      const kind = req.body === null ? 'null' : Array.isArray(req.body) ? 'an array' : `a ${typeof req.body}`;
      return serviceError('InvalidRequest', `Request body must be a JSON object, got ${kind}`);
    }
    const version = chosenVersion(req.body, knownVersions, defaultVersion);
    if (typeof version === 'object') return version;
    if (version === undefined) return serviceError('InternalServerError', 'No released platform version is configured');
    if (store.list(user.name, nowMs).length >= config.maxStacksPerUser) {
      return serviceError(
        'MaxStacksLimitReached',
        `Maximum number of stacks (${config.maxStacksPerUser}) reached; delete a stack before creating another`,
      );
    }
    const id = newId();
    const record: StackRecord = {
      id,
      name: `stack-${shortId(id)}`,
      owner: user.name,
      platformVersion: version,
      createdAtMs: nowMs,
      terminationAtMs: nowMs + config.lifetimeMinutes * 60_000,
      password: randomSecret(),
    };
    store.add(record);
    return { status: 202, body: summary(record, nowMs), headers: { location: `/v1/stacks/${id}` } };
  };

  const listStacks: RouteFn = (_req, _params, user, nowMs) => ({
    status: 200,
    body: { stacks: store.list(user.name, nowMs).map((s) => summary(s, nowMs)) },
  });

  const listVersions: RouteFn = () => ({
    status: 200,
    body: { versions: config.versions.map((v) => ({ ...v })) },
  });

  // Another user's stack gets the same 404 as a missing one: existence is not revealed.
  const getStack: RouteFn = (_req, { stackId = '' }, user, nowMs) => {
    const s = store.get(user.name, stackId, nowMs);
    return s === undefined ? notFound(stackId) : { status: 200, body: detail(s, nowMs) };
  };

  const deleteStack: RouteFn = (_req, { stackId = '' }, user, nowMs) =>
    store.remove(user.name, stackId, nowMs) ? { status: 204 } : notFound(stackId);

  const routes = [
    route('POST', '/v1/stacks', createStack),
    route('GET', '/v1/stacks', listStacks),
    route('GET', '/v1/stacks/versions', listVersions),
    route('GET', '/v1/stacks/:stackId', getStack),
    route('DELETE', '/v1/stacks/:stackId', deleteStack),
  ];

  return (req) => {
    // Authentication comes first on every path, so unauthenticated callers learn nothing about the route table.
    const token = bearerToken(req.headers);
    if (token === undefined) {
      return serviceError('Unauthorized', 'Missing or malformed API key: send the header Authorization: Bearer <API_KEY>');
    }
    const user = usersByKey.get(token);
    if (user === undefined) return serviceError('Unauthorized', 'The API key is not recognised');
    if (!user.allowed) return serviceError('Forbidden', `User ${user.name} is not on the allow list of this service`);

    const found = match(routes, req.method, req.path);
    if (found === undefined) return serviceError('NotFound', `No resource at ${req.path}`);
    if ('allowed' in found) {
      return serviceError('MethodNotAllowed', `Method ${req.method} is not allowed on ${req.path}`, {
        allow: found.allowed.join(', '),
      });
    }
    return found.fn(req, found.params, user, clock.now());
  };
}
