import type { Check, RunOptions } from './check';
import type { ApiOptionValues, OptionDef, OptionTable, Origins } from './settings';
import type { Spec } from './spec';
import type { Environment, Exchange, Target } from './types';

// Also here for the API modules (suites/<api>/), which take it with the types they fill in.
export { UsageError } from './usage-error';

/**
 * One harmless GET that every configured credential of a deployment may make, sent once per credential before any
 * check: a refused credential is a usage error (exit 2), not a run full of failures.
 */
export interface CredentialProbe {
  /** Path (with query) of the GET, e.g. `/v1/stacks`. */
  path(target: Target): string;
  /** Statuses that mean the credential of this role was refused (e.g. 401; 403 for a user who must be allow-listed): exit 2. */
  refusedWith(role: string): number[];
  /**
   * The status a role's credential should get where the run goes on whatever it gets (a key meant to be refused):
   * another answer does not stop the run, but the failures of the checks that use the role carry a hint.
   */
  expectedFor?(role: string): number | undefined;
  /** What a 404 for the probe's path most likely means (no API there): e.g. the API's prefix given twice. */
  notFound?(target: Target): string;
  /**
   * What API a refusal comes from when it is not this one's (another scheme of authentication asked for, another
   * shape of error): then the address is wrong, not the credential. Undefined when it may be this API's own.
   */
  otherApi?(answer: ProbeAnswer): string | undefined;
  /** The harmless write that shows a role meant to write can: none, where the API has no such role. */
  write?: WriteProbe;
}

/** The probe's answer, as far as judging it needs. */
export interface ProbeAnswer {
  status: number;
  headers: Record<string, string>;
  json?: unknown;
}

/**
 * A write that touches nothing but an object of the run's own: a create tagged with the run tag, like every other
 * object of the run, then the delete of the key that create answered (and of nothing else).
 */
interface WriteProbe {
  /** Roles whose checks write: a refusal of their write ends the run before any check. */
  roles: string[];
  create(target: Target, runTag: string): { path: string; body: unknown };
  /** The key of the created object in the create's answer, if any. */
  keyOf(json: unknown): string | undefined;
  deletePath(target: Target, key: string): string;
  /** Where the user goes who cannot write, for the line that ends the run (e.g. the read-only user's variable). */
  readOnlyHint: string;
}

/** Everything API-specific the shared runner needs; the rest of an API lives in its checks. */
export interface ApiDefinition {
  id: string;
  title: string;
  specFile: string;
  catalogueFile: string;
  checks: Check[];
  /** Id of the check under which automatic response validation (schema, status, content type) is recorded. */
  responseCheckId: string;
  /** Environment variable that supplies each optional role, for "untested" reasons and refused-credential messages. */
  roleHints: Record<string, string>;
  /** Most checks this API can run at once against one target (shared per-user state such as quotas). */
  maxConcurrency?: number;
  /** Seconds each check takes alone at a distance (`suites/<api>/durations.gen.ts`): which checks start first. */
  durations?: Readonly<Record<string, number>>;
  /**
   * Whether a 429 answer names a condition the document defines (so it is a verdict to judge, not a rate limit to
   * wait out): e.g. a stack create refused at the limit with the wrong status.
   */
  documentedRefusal?(json: unknown): boolean;
  /**
   * Whether a 2xx answer is a refusal all the same: for an API whose document does not show status codes, the
   * documented success is the answer's body, so a 200 that says it refused is a refusal. Checks then read it as one
   * (`ok`, `expect.status(..., '2xx' | 'not 2xx')`) and its body is not held to the success schema.
   */
  refusedIn2xx?(ex: Exchange, spec: Spec): boolean;
  /** The path form an exchange was sent at, where the API has more than one (ops: `vLatest`): what `governs` names. */
  pathForm?(ex: Exchange): string | undefined;
  /**
   * The variables of a deployment of this API (environment variable, key under `targets.<id>` in the config file,
   * type, default, help), read by the shared settings code; `baseUrl` is the one `--target` sets.
   */
  options: OptionTable & { baseUrl: OptionDef<string | undefined> };
  /** The target the resolved variables describe, or undefined when no base URL is set (the embedded implementation is used). */
  targetFrom(values: ApiOptionValues, origins: Origins): Target | undefined;
  /** A target from environment variables alone, or undefined when none is set (self-tests; a run's target is its session's). */
  targetFromEnv(env: Environment): Target | undefined;
  /** Run options this API takes from its own variables (e.g. how long checks wait for a provisioned stack). */
  runOptions?(values: ApiOptionValues): Partial<Pick<RunOptions, 'readyTimeoutS'>>;
  /** The credential probe run before any check against a deployment. */
  credentialProbe?: CredentialProbe;
  startEmbedded(): Promise<Target>;
}
