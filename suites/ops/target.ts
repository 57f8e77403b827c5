import { listen } from '../../reference-impl/http/server';
import { localhostTls } from '../../reference-impl/http/tls';
import type { ApiHandler } from '../../reference-impl/http/types';
import { loadOpsConfig, type OpsConfig } from '../../reference-impl/ops/config';
import { createOpsHandler, opsErrorBody } from '../../reference-impl/ops/handler';
import { UsageError } from '../core/api';
import type { Principal, Target } from '../core/types';

const basic = (role: string, user: string, password: string, userVar: string, passVar: string): Principal => ({
  role,
  authorization: `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`,
  curlAuth: `-u "$${userVar}:$${passVar}"`,
  secrets: [password, Buffer.from(`${user}:${password}`).toString('base64')],
});

/** Roles the ops checks use, and the variables that supply each against a deployment. */
export const OPS_ROLES = { primary: 'OPS_USERNAME/OPS_PASSWORD', readonly: 'OPS_READONLY_USERNAME/OPS_READONLY_PASSWORD' } as const;

const PATH_DEFAULTS = { user: 'nobody', app: 'SA-ITOA' };

export function opsTargetFromEnv(env: NodeJS.ProcessEnv): Target | undefined {
  if (!env.OPS_BASE_URL) return undefined;
  if (!env.OPS_USERNAME || !env.OPS_PASSWORD) throw new UsageError('OPS_BASE_URL is set but OPS_USERNAME or OPS_PASSWORD is not');
  let url: URL;
  try {
    url = new URL(env.OPS_BASE_URL);
  } catch {
    throw new UsageError(`OPS_BASE_URL is not a valid URL: ${env.OPS_BASE_URL}`);
  }
  const principals: Record<string, Principal> = { primary: basic('primary', env.OPS_USERNAME, env.OPS_PASSWORD, 'OPS_USERNAME', 'OPS_PASSWORD') };
  if (env.OPS_READONLY_USERNAME && env.OPS_READONLY_PASSWORD) principals.readonly = basic('readonly', env.OPS_READONLY_USERNAME, env.OPS_READONLY_PASSWORD, 'OPS_READONLY_USERNAME', 'OPS_READONLY_PASSWORD');
  return {
    api: 'ops',
    baseUrl: url.origin,
    embedded: false,
    principals,
    tlsInsecure: env.OPS_TLS_INSECURE === '1' || env.OPS_TLS_INSECURE === 'true',
    pathDefaults: { user: env.OPS_NS_USER ?? PATH_DEFAULTS.user, app: env.OPS_NS_APP ?? PATH_DEFAULTS.app },
  };
}

export async function embeddedOpsTarget(wrap: (h: ApiHandler) => ApiHandler = (h) => h, overrides: Partial<OpsConfig> = {}): Promise<Target> {
  const config = loadOpsConfig(overrides);
  const server = await listen(wrap(createOpsHandler(config)), { errorBody: opsErrorBody, tls: localhostTls() });
  const admin = config.users.find((u) => !u.readOnly)!;
  const reader = config.users.find((u) => u.readOnly);
  const principals: Record<string, Principal> = { primary: basic('primary', admin.name, admin.password, 'OPS_USERNAME', 'OPS_PASSWORD') };
  if (reader) principals.readonly = basic('readonly', reader.name, reader.password, 'OPS_READONLY_USERNAME', 'OPS_READONLY_PASSWORD');
  return { api: 'ops', baseUrl: server.url, embedded: true, principals, pathDefaults: PATH_DEFAULTS, tlsInsecure: true, close: server.close };
}
