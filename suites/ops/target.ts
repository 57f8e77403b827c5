import { listen } from '../../reference-impl/http/server';
import { localhostTls } from '../../reference-impl/http/tls';
import type { ApiHandler } from '../../reference-impl/http/types';
import { loadOpsConfig, type OpsConfig } from '../../reference-impl/ops/config';
import { createOpsHandler, opsErrorBody } from '../../reference-impl/ops/handler';
import { UsageError, type CredentialProbe, type ProbeAnswer } from '../core/api';
import { apiValuesFromEnv, howToSet, opt, url, type OptionTable, type OptionValues, type Origins } from '../core/settings';
import type { Principal, Target } from '../core/types';

const basic = (role: string, user: string, password: string, userVar: string, passVar: string): Principal => ({
  role,
  name: user,
  authorization: `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`,
  curlAuth: `-u "$${userVar}:$${passVar}"`,
  secrets: [password, Buffer.from(`${user}:${password}`).toString('base64')],
});

/** Roles the ops checks use, and the variables that supply each against a deployment. */
export const OPS_ROLES = {
  primary: 'OPS_USERNAME/OPS_PASSWORD',
  readonly: 'OPS_READONLY_USERNAME/OPS_READONLY_PASSWORD',
  restricted: 'OPS_RESTRICTED_USERNAME/OPS_RESTRICTED_PASSWORD',
} as const;

const PATH_DEFAULTS = { user: 'nobody', app: 'SA-ITOA' };

/** The variables of an ops deployment (environment variable, key under `targets.ops` in the config file). */
const CREDENTIAL = { secret: true, refuseEmpty: 'give the value, or leave the variable out' } as const;

export const OPS_OPTIONS = {
  baseUrl: url({ env: 'OPS_BASE_URL', key: 'baseUrl', help: 'scheme, host and port of the ops API, e.g. https://ops.example.test:8089' }),
  username: opt.string({
    env: 'OPS_USERNAME',
    key: 'username',
    ...CREDENTIAL,
    help: 'basic-auth user with write access (required with the base URL)',
  }),
  password: opt.string({ env: 'OPS_PASSWORD', key: 'password', ...CREDENTIAL, help: 'its password' }),
  readonlyUsername: opt.string({
    env: 'OPS_READONLY_USERNAME',
    key: 'readonlyUsername',
    ...CREDENTIAL,
    help: 'read-only user: enables the access checks',
  }),
  readonlyPassword: opt.string({ env: 'OPS_READONLY_PASSWORD', key: 'readonlyPassword', ...CREDENTIAL, help: 'its password' }),
  restrictedUsername: opt.string({
    env: 'OPS_RESTRICTED_USERNAME',
    key: 'restrictedUsername',
    ...CREDENTIAL,
    help: 'user with write access who cannot read the Global team: enables the team-restricted access checks',
  }),
  restrictedPassword: opt.string({ env: 'OPS_RESTRICTED_PASSWORD', key: 'restrictedPassword', ...CREDENTIAL, help: 'its password' }),
  tlsInsecure: opt.boolean({ env: 'OPS_TLS_INSECURE', key: 'tlsInsecure', deployment: true, help: '1 accepts a self-signed certificate' }),
  nsUser: opt.string({ env: 'OPS_NS_USER', key: 'nsUser', deployment: true, help: 'the <user> path segment', default: PATH_DEFAULTS.user }),
  nsApp: opt.string({ env: 'OPS_NS_APP', key: 'nsApp', deployment: true, help: 'the <app> path segment', default: PATH_DEFAULTS.app }),
} satisfies OptionTable;

type OpsValues = OptionValues<typeof OPS_OPTIONS>;

export function opsTarget(values: Record<string, unknown>, origins: Origins = {}): Target | undefined {
  const v = values as OpsValues;
  if (!v.baseUrl) return undefined;
  const base = origins['ops.baseUrl'] ?? 'OPS_BASE_URL';
  const address = new URL(v.baseUrl);
  // Every path of the API starts at /servicesNS/<user>/<app>: a path in the base URL would be dropped or doubled.
  if (address.pathname !== '/' || address.search || address.hash) {
    throw new UsageError(
      `${base} holds the path ${address.pathname}${address.search}${address.hash}, which the ops API does not use: give only scheme, host and port (${address.origin}); the <user> and <app> segments are ${howToSet(OPS_OPTIONS.nsUser, 'ops')} and ${howToSet(OPS_OPTIONS.nsApp, 'ops')}`,
    );
  }
  if (!v.username || !v.password) {
    const missing = [!v.username && howToSet(OPS_OPTIONS.username, 'ops'), !v.password && howToSet(OPS_OPTIONS.password, 'ops')].filter(
      Boolean,
    );
    throw new UsageError(
      `${base} is set but ${missing.join(' and ')} ${missing.length > 1 ? 'are' : 'is'} not: give a user with write access`,
    );
  }
  const shared = sharedUser(v, origins);
  if (shared) throw new UsageError(shared);
  const principals: Record<string, Principal> = { primary: basic('primary', v.username, v.password, 'OPS_USERNAME', 'OPS_PASSWORD') };
  for (const [role, user, password, env] of [
    ['readonly', 'readonlyUsername', 'readonlyPassword', 'OPS_READONLY'],
    ['restricted', 'restrictedUsername', 'restrictedPassword', 'OPS_RESTRICTED'],
  ] as const) {
    const [name, secret] = [v[user], v[password]];
    if (Boolean(name) !== Boolean(secret)) {
      throw new UsageError(
        `${name ? origins[`ops.${user}`] : origins[`ops.${password}`]} is set but ${howToSet(OPS_OPTIONS[name ? password : user], 'ops')} is not: give both or neither`,
      );
    }
    if (name && secret) principals[role] = basic(role, name, secret, `${env}_USERNAME`, `${env}_PASSWORD`);
  }
  return {
    api: 'ops',
    baseUrl: address.origin,
    embedded: false,
    principals,
    tlsInsecure: v.tlsInsecure,
    pathDefaults: { user: v.nsUser, app: v.nsApp },
  };
}

/** What each optional user is for: one user given for two roles leaves the checks of the second without their user. */
const PURPOSE = {
  readonlyUsername: 'the access checks need a read-only user other than the user with write access',
  restrictedUsername: 'the team-restricted access checks need a user of their own, who cannot read the Global team',
};

/** Two roles given the same user name, as the line to print. */
function sharedUser(v: OpsValues, origins: Origins): string | undefined {
  const name = (o: 'username' | 'readonlyUsername' | 'restrictedUsername') => origins[`ops.${o}`] ?? OPS_OPTIONS[o].env;
  const pairs = [
    ['readonlyUsername', 'username'],
    ['restrictedUsername', 'username'],
    ['restrictedUsername', 'readonlyUsername'],
  ] as const;
  const same = pairs.find(([a, b]) => v[a] !== undefined && v[a] === v[b]);
  return same && `${name(same[0])} is the same user as ${name(same[1])}: ${PURPOSE[same[0]]}`;
}

export const opsTargetFromEnv = (env: NodeJS.ProcessEnv): Target | undefined => {
  const { values, origins } = apiValuesFromEnv({ id: 'ops', options: OPS_OPTIONS }, env);
  return opsTarget(values, origins);
};

const itoa = (t: Target) =>
  `/servicesNS/${encodeURIComponent(t.pathDefaults?.user ?? PATH_DEFAULTS.user)}/${encodeURIComponent(t.pathDefaults?.app ?? PATH_DEFAULTS.app)}/itoa_interface`;

/** The stack API's refusal: it asks for a bearer key, and its errors are `{ code, message }`. */
const stacksRefusal = (a: ProbeAnswer) => {
  const body = a.json as { code?: unknown; message?: unknown } | undefined;
  return /^\s*bearer/i.test(a.headers['www-authenticate'] ?? '') || (typeof body?.code === 'string' && typeof body?.message === 'string');
};

/**
 * Every configured user reads the list of supported object types, which any user with read access may do; the user
 * with write access also creates a service of the run's own (its title carries the run tag) and deletes it again.
 */
export const OPS_CREDENTIAL_PROBE: CredentialProbe = {
  path: (t) => `${itoa(t)}/get_supported_object_types`,
  refusedWith: () => [401, 403],
  notFound: (t) =>
    `check the address, and the <user> and <app> segments ${t.pathDefaults?.user ?? PATH_DEFAULTS.user}/${t.pathDefaults?.app ?? PATH_DEFAULTS.app} (OPS_NS_USER, OPS_NS_APP)`,
  otherApi: (a) => (stacksRefusal(a) ? 'the stack provisioning API does (it asks for a bearer API key)' : undefined),
  write: {
    roles: ['primary'],
    create: (t, runTag) => ({ path: `${itoa(t)}/service`, body: { title: `${runTag} credential probe` } }),
    keyOf: (json) => {
      const key = (json as { _key?: unknown } | undefined)?._key;
      return typeof key === 'string' && key ? key : undefined;
    },
    deletePath: (t, key) => `${itoa(t)}/service/${encodeURIComponent(key)}`,
    readOnlyHint: 'a read-only user goes in OPS_READONLY_USERNAME and OPS_READONLY_PASSWORD',
  },
};

export async function embeddedOpsTarget(
  wrap: (h: ApiHandler) => ApiHandler = (h) => h,
  overrides: Partial<OpsConfig> = {},
): Promise<Target> {
  const config = loadOpsConfig(overrides);
  const server = await listen(wrap(createOpsHandler(config)), { errorBody: opsErrorBody, tls: localhostTls() });
  const admin = config.users.find((u) => !u.readOnly && !u.readGroups)!;
  const reader = config.users.find((u) => u.readOnly);
  const restricted = config.users.find((u) => !u.readOnly && u.readGroups);
  const principals: Record<string, Principal> = { primary: basic('primary', admin.name, admin.password, 'OPS_USERNAME', 'OPS_PASSWORD') };
  if (reader) principals.readonly = basic('readonly', reader.name, reader.password, 'OPS_READONLY_USERNAME', 'OPS_READONLY_PASSWORD');
  if (restricted)
    principals.restricted = basic('restricted', restricted.name, restricted.password, 'OPS_RESTRICTED_USERNAME', 'OPS_RESTRICTED_PASSWORD');
  return {
    api: 'ops',
    baseUrl: server.url,
    embedded: true,
    principals,
    pathDefaults: PATH_DEFAULTS,
    tlsInsecure: true,
    close: server.close,
  };
}
