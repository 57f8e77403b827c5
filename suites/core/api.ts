import type { Check } from './check';
import type { Target } from './types';

/** Everything API-specific the shared runner needs; the rest of an API lives in its checks. */
export interface ApiDefinition {
  id: string;
  title: string;
  specFile: string;
  catalogueFile: string;
  checks: Check[];
  /** Id of the check under which automatic response validation (schema, status, content type) is recorded. */
  responseCheckId: string;
  /** Environment variable that supplies each optional role, for "untested" reasons. */
  roleHints: Record<string, string>;
  /** A target from environment variables, or undefined when none is set (the embedded implementation is used). */
  /** Most checks this API can run at once against one target (shared per-user state such as quotas). */
  maxConcurrency?: number;
  targetFromEnv(env: NodeJS.ProcessEnv): Target | undefined;
  startEmbedded(): Promise<Target>;
}

/** A mistake in how the tool was invoked or configured: exit code 2 with a one-line message. */
export class UsageError extends Error {}
