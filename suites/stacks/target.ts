import { listen } from '../../reference-impl/http/server';
import type { ApiHandler } from '../../reference-impl/http/types';
import { loadStacksConfig, type StacksConfig } from '../../reference-impl/stacks/config';
import { stacksErrorBody } from '../../reference-impl/stacks/errors';
import { createStacksHandler } from '../../reference-impl/stacks/handler';
import { UsageError } from '../core/api';
import type { Principal, Target } from '../core/types';

const bearer = (role: string, key: string, envVar: string): Principal => ({
  role,
  authorization: `Bearer ${key}`,
  curlAuth: `-H "Authorization: Bearer $${envVar}"`,
  secrets: [key],
});

/** Roles the stack checks use, and the variable that supplies each against a deployment. */
export const STACK_ROLES = { primary: 'STACKS_API_KEY', second: 'STACKS_API_KEY_2', forbidden: 'STACKS_API_KEY_FORBIDDEN' } as const;

export function stacksTargetFromEnv(env: NodeJS.ProcessEnv): Target | undefined {
  if (!env.STACKS_BASE_URL) return undefined;
  if (!env.STACKS_API_KEY) throw new UsageError('STACKS_BASE_URL is set but STACKS_API_KEY is not: give the API key of an allow-listed user');
  try {
    new URL(env.STACKS_BASE_URL);
  } catch {
    throw new UsageError(`STACKS_BASE_URL is not a valid URL: ${env.STACKS_BASE_URL}`);
  }
  const principals: Record<string, Principal> = {};
  for (const [role, envVar] of Object.entries(STACK_ROLES)) {
    const key = env[envVar];
    if (key) principals[role] = bearer(role, key, envVar);
  }
  return { api: 'stacks', baseUrl: env.STACKS_BASE_URL.replace(/\/$/, ''), embedded: false, principals };
}

/** The reference implementation on a free port, optionally wrapped (the self-tests wrap it in faults). */
export async function embeddedStacksTarget(wrap: (h: ApiHandler) => ApiHandler = (h) => h, overrides: Partial<StacksConfig> = {}): Promise<Target> {
  const config = loadStacksConfig(overrides);
  const server = await listen(wrap(createStacksHandler(config)), { errorBody: stacksErrorBody });
  const user = (name: string) => config.users.find((u) => u.name === name)!;
  return {
    api: 'stacks',
    baseUrl: server.url,
    embedded: true,
    principals: {
      primary: bearer('primary', user('alice').apiKey, STACK_ROLES.primary),
      second: bearer('second', user('bob').apiKey, STACK_ROLES.second),
      forbidden: bearer('forbidden', user('mallory').apiKey, STACK_ROLES.forbidden),
    },
    close: server.close,
  };
}
