/*
 * What a run can be told in code: the config file's keys as types (the option table of README "Checking a
 * deployment"), for `runConformance` and `defineConformanceTests`, and the session they open.
 */
import type { Environment, Interruption } from './core/types';
import { APIS } from './apis';
import { openSession, type Session } from './core/session';
import { configFromObject, type ConfigFile } from './core/settings';
import { CONFIG_FILE_VARIABLE } from './core/setup-check';

/** The APIs the suite checks. */
export type ApiId = 'stacks' | 'ops';
/** The report files a run can write. */
export type ReportFormat = 'json' | 'md' | 'html' | 'junit';

/** A deployment of the stack API (`targets.stacks` in a config file; `STACKS_*` variables). */
export interface StacksTargetOptions {
  /** Base address of the stack API, e.g. `http://127.0.0.1:4600` (`STACKS_BASE_URL`). */
  baseUrl?: string;
  /** API key of an allow-listed user, required with `baseUrl` (`STACKS_API_KEY`). */
  apiKey?: string;
  /** A second allow-listed user: enables the ownership and isolation checks (`STACKS_API_KEY_2`). */
  apiKey2?: string;
  /** Key of an authenticated user who is not allow-listed: enables the 403 check (`STACKS_API_KEY_FORBIDDEN`). */
  apiKeyForbidden?: string;
  /** Seconds the checks that need a RUNNING stack wait (default 60 against a deployment, 10 embedded). */
  readyTimeoutS?: number;
  /** Creates the limit check attempts before reporting the limit untested (default 12). */
  limitProbeMax?: number;
}

/** A deployment of the ops API (`targets.ops` in a config file; `OPS_*` variables). */
export interface OpsTargetOptions {
  /** Scheme, host and port, e.g. `https://ops.example.test:8089` (`OPS_BASE_URL`). */
  baseUrl?: string;
  /** Basic-auth user with write access, required with `baseUrl` (`OPS_USERNAME`, `OPS_PASSWORD`). */
  username?: string;
  password?: string;
  /** Read-only user (both or neither): enables the access checks. */
  readonlyUsername?: string;
  readonlyPassword?: string;
  /** User with write access who cannot read the Global team (both or neither): enables the team-restricted checks. */
  restrictedUsername?: string;
  restrictedPassword?: string;
  /** Accept a self-signed certificate (`OPS_TLS_INSECURE`). */
  tlsInsecure?: boolean;
  /** The `<user>` and `<app>` path segments (default `nobody`, `SA-ITOA`). */
  nsUser?: string;
  nsApp?: string;
}

/**
 * Everything a run can be told: the keys of the config file (`api-conformance run --config FILE`, README "Checking a
 * deployment"), with the same meanings and defaults. Given here, they win over `CONFORMANCE_CONFIG`'s file, which wins
 * over the environment; secrets may stay in the environment. A list may also be given as one comma-separated string.
 */
export interface ConformanceOptions {
  /** APIs to run (default all). */
  apis?: ApiId[] | string;
  /** Only the checks whose id or requirement ids match these globs. */
  only?: string[] | string;
  /** Seed of the property-based checks (default random, recorded in the report). */
  seed?: number;
  /** Counterexample path printed with a failure: replays exactly that case (with its seed). */
  replayPath?: string;
  /** Generated cases per property check (default 8). */
  runs?: number;
  /** Run checks that can change data the run did not create against a target you name. */
  allowDestructive?: boolean;
  /** The deployment and its version, for the report's first page. */
  label?: string;
  /** `compliance.html` holds only the report's first page. */
  summaryOnly?: boolean;
  /** A MUST requirement left untested for want of a credential, flag or longer wait fails the gate. */
  requireAll?: boolean;
  /** Seconds to wait for one complete answer (default 10). */
  timeoutS?: number;
  /** Re-runs of a check that fails a MUST (default 2). */
  retries?: number;
  /** Seconds a deployment may take to show a write to its reads (default 3 against a deployment, 0 embedded). */
  settleS?: number;
  /** Checks of one API in flight, and requests at most (default 10 against a deployment, 1 embedded). */
  concurrency?: number;
  /** At most N requests per second. */
  rateLimit?: number;
  /** At most N non-GET requests (cleanup is never capped). */
  maxWrites?: number;
  /** `I/N`: run the I-th of N slices of the checks. */
  shard?: `${number}/${number}`;
  /** Route every request through `prism proxy` (needs the optional dependency `@stoplight/prism-cli`). */
  viaPrismProxy?: boolean;
  /** Where the reports go (default `reports`, relative to the working directory). */
  reportDir?: string;
  /** Replace another run's reports in a `reportDir` you name. */
  overwrite?: boolean;
  /** Report files to write (default all). */
  formats?: ReportFormat[] | string;
  /** Also save the traffic as `<reportDir>/traffic.har`, credentials masked. */
  har?: boolean;
  /** Deployments to check; an API without one is checked against its embedded reference implementation. */
  targets?: { stacks?: StacksTargetOptions; ops?: OpsTargetOptions };
}

/** What a run reads besides its options. */
export interface RunContext {
  /** Environment the deployment variables and defaults come from (default `process.env`). */
  env?: Environment;
  /** Aborting it interrupts the run: the checks in flight finish and clean up, and the gate is `incomplete`. */
  signal?: Interruption;
}

/** Options given in code, validated as a config file is (unknown keys refused, naming the closest one). */
function givenSettings(options: ConformanceOptions | undefined, source: string): ConfigFile | undefined {
  if (options === undefined) return undefined;
  // Keys set to undefined are not given.
  const doc: unknown = JSON.parse(JSON.stringify(options));
  return configFromObject(doc, source, APIS);
}

/**
 * The session of a run started in code (`source` names it in messages). There is no command line of the tool's own
 * (vitest owns it: its `--config` is the vitest config), so the conformance config file is named by
 * CONFORMANCE_CONFIG in `env`; `options` win over that file.
 */
export function sessionFromCode(options: ConformanceOptions | undefined, source: string, env: Environment): Session {
  return openSession({ configFile: env[CONFIG_FILE_VARIABLE], given: givenSettings(options, source), env }, APIS);
}
