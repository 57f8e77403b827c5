import { listen } from '../../reference-impl/http/server';
import type { ApiHandler } from '../../reference-impl/http/types';
import { loadStacksConfig, type StacksConfig } from '../../reference-impl/stacks/config';
import { stacksErrorBody } from '../../reference-impl/stacks/errors';
import { createStacksHandler } from '../../reference-impl/stacks/handler';
import { UsageError, type CredentialProbe } from '../core/api';
import { apiValuesFromEnv, howToSet, opt, url, type OptionTable, type OptionValues, type Origins } from '../core/settings';
import type { Principal, Target } from '../core/types';

const bearer = (role: string, key: string, envVar: string, name?: string): Principal => ({
  role,
  ...(name ? { name } : {}),
  authorization: `Bearer ${key}`,
  curlAuth: `-H "Authorization: Bearer $${envVar}"`,
  secrets: [key],
});

/** Roles the stack checks use, and the variable that supplies each against a deployment. */
export const STACK_ROLES = { primary: 'STACKS_API_KEY', second: 'STACKS_API_KEY_2', forbidden: 'STACKS_API_KEY_FORBIDDEN' } as const;

const KEY_OR_NOTHING = 'give the key, or leave the variable out';

/** The variables of a stacks deployment (environment variable, key under `targets.stacks` in the config file). */
export const STACKS_OPTIONS = {
  baseUrl: url({ env: 'STACKS_BASE_URL', key: 'baseUrl', help: 'base address of the stack API, e.g. http://127.0.0.1:4600' }),
  apiKey: opt.string({
    env: STACK_ROLES.primary,
    key: 'apiKey',
    secret: true,
    refuseEmpty: KEY_OR_NOTHING,
    help: 'API key of an allow-listed user (required with the base URL)',
  }),
  apiKey2: opt.string({
    env: STACK_ROLES.second,
    key: 'apiKey2',
    secret: true,
    refuseEmpty: KEY_OR_NOTHING,
    help: 'second allow-listed user: enables the ownership/isolation checks',
  }),
  apiKeyForbidden: opt.string({
    env: STACK_ROLES.forbidden,
    key: 'apiKeyForbidden',
    secret: true,
    refuseEmpty: KEY_OR_NOTHING,
    help: 'key of an authenticated user who is not allow-listed: enables the 403 check',
  }),
  readyTimeoutS: opt.integer({
    env: 'STACKS_READY_TIMEOUT_S',
    key: 'readyTimeoutS',
    help: 'seconds checks that need a RUNNING stack wait for one',
    defaultText: '60 against a deployment, 10 embedded',
    default: (c) => (c.remote ? 60 : 10),
  }),
  limitProbeMax: opt.integer({
    env: 'STACKS_LIMIT_PROBE_MAX',
    key: 'limitProbeMax',
    min: 1,
    exported: true,
    help: 'creates the limit check attempts before reporting the limit untested',
    default: 12,
  }),
} satisfies OptionTable;

type StacksValues = OptionValues<typeof STACKS_OPTIONS>;

const ROLE_OPTION = { primary: 'apiKey', second: 'apiKey2', forbidden: 'apiKeyForbidden' } as const;

export function stacksTarget(values: Record<string, unknown>, origins: Origins = {}): Target | undefined {
  const v = values as StacksValues;
  if (!v.baseUrl) return undefined;
  if (!v.apiKey)
    throw new UsageError(
      `${origins['stacks.baseUrl'] ?? 'STACKS_BASE_URL'} is set but ${howToSet(STACKS_OPTIONS.apiKey, 'stacks')} is not: give the API key of an allow-listed user`,
    );
  const shared = sharedKey(v, origins);
  if (shared) throw new UsageError(shared);
  const principals: Record<string, Principal> = {};
  for (const [role, option] of Object.entries(ROLE_OPTION)) {
    const key = v[option];
    if (key) principals[role] = bearer(role, key, STACK_ROLES[role as keyof typeof STACK_ROLES]);
  }
  return { api: 'stacks', baseUrl: v.baseUrl.replace(/\/$/, ''), embedded: false, principals };
}

/** What each optional key is for: a key given for two roles leaves the checks of the second without their user. */
const PURPOSE = {
  apiKey2: "the ownership checks need a second allow-listed user's key",
  apiKeyForbidden: 'the 403 check needs the key of a user who is not allow-listed',
};

/** Two roles given the same key, as the line to print. */
function sharedKey(v: StacksValues, origins: Origins): string | undefined {
  const name = (o: 'apiKey' | 'apiKey2' | 'apiKeyForbidden') => origins[`stacks.${o}`] ?? STACKS_OPTIONS[o].env;
  const pairs = [
    ['apiKey2', 'apiKey'],
    ['apiKeyForbidden', 'apiKey'],
    ['apiKeyForbidden', 'apiKey2'],
  ] as const;
  const same = pairs.find(([a, b]) => v[a] !== undefined && v[a] === v[b]);
  return same && `${name(same[0])} is the same key as ${name(same[1])}: ${PURPOSE[same[0]]}`;
}

export const stacksTargetFromEnv = (env: NodeJS.ProcessEnv): Target | undefined => {
  const { values, origins } = apiValuesFromEnv({ id: 'stacks', options: STACKS_OPTIONS }, env);
  return stacksTarget(values, origins);
};

/**
 * Every key is tried with a list of the caller's own stacks; a key that must be allow-listed may not get 403 there.
 * The key of a user who is not allow-listed should get 403; another answer does not end the run (the 403 check then
 * fails, with the probe's answer as a hint), since that key is only one check's input.
 */
export const STACKS_CREDENTIAL_PROBE: CredentialProbe = {
  path: () => '/v1/stacks',
  refusedWith: (role) => (role === 'forbidden' ? [] : [401, 403]),
  expectedFor: (role) => (role === 'forbidden' ? 403 : undefined),
  // The ops API asks for basic authentication, and its errors are `{ messages: [...] }`.
  otherApi: (a) =>
    /^\s*basic/i.test(a.headers['www-authenticate'] ?? '') || Array.isArray((a.json as { messages?: unknown } | undefined)?.messages)
      ? 'the operations management API does (it asks for basic authentication)'
      : undefined,
  notFound: (t) =>
    /\/v1\/?$/.test(new URL(t.baseUrl).pathname)
      ? 'the base URL ends in /v1, which every path of the API already starts with: drop it'
      : 'the base URL may hold the API prefix twice, or point at another service: every path of the API starts with /v1',
};

/** The reference implementation on a free port, optionally wrapped (the self-tests wrap it in faults). */
export async function embeddedStacksTarget(
  wrap: (h: ApiHandler) => ApiHandler = (h) => h,
  overrides: Partial<StacksConfig> = {},
): Promise<Target> {
  const config = loadStacksConfig(overrides);
  const server = await listen(wrap(createStacksHandler(config)), { errorBody: stacksErrorBody });
  const user = (name: string) => config.users.find((u) => u.name === name)!;
  return {
    api: 'stacks',
    baseUrl: server.url,
    embedded: true,
    principals: {
      primary: bearer('primary', user('alice').apiKey, STACK_ROLES.primary, 'alice'),
      second: bearer('second', user('bob').apiKey, STACK_ROLES.second, 'bob'),
      forbidden: bearer('forbidden', user('mallory').apiKey, STACK_ROLES.forbidden, 'mallory'),
    },
    close: server.close,
  };
}
