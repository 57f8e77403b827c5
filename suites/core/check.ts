import type { Client } from './client';
import type { Expect, Facts } from './expect';
import type { Ledger } from './ledger';
import type { ApiOptionValues } from './settings';
import type { Exchange, Reach, Target } from './types';

/** The id of an API's response check, after `<api>.`: the validating client records what it finds in every answer under it. */
export const RESPONSE_CHECK = 'responses.conform-to-spec';
/** Whether a check id names an API's response check. */
export const isResponseCheck = (id: string) => id.endsWith(`.${RESPONSE_CHECK}`);

export interface RunOptions {
  seed: number;
  /** Runs per property-based check. */
  runs: number;
  /** Counterexample path of a failed property (with its seed): the property runs that case alone. */
  replayPath?: string;
  /** Whether destructive checks run against this target (always against the embedded implementation). */
  allowDestructive: boolean;
  /** How long checks that need a provisioned resource wait for it. */
  readyTimeoutS: number;
  /**
   * How long the target may take to show a write to its reads (0: at once). A check that fails a MUST is run again
   * with each read after a write held back this long, and its verdict is that run's: the documents promise no read
   * after a write at once.
   */
  settleS: number;
  /**
   * Marks everything the check creates, so it can be told apart from data it must not touch: the run's tag followed by
   * the check's number, so that checks running side by side each see only their own rows.
   */
  runTag: string;
  /** The API's own variables its checks read (those its option table marks `exported`), by option name. */
  apiOptions?: ApiOptionValues;
}

/**
 * `Ops`: the API's operations as generated from its document, so that `http.send` types each success body. `Req`: the
 * API's requirement ids as generated from its catalogue, so that a misspelt id does not compile.
 */
export interface CheckContext<Ops extends object = Record<string, unknown>, Req extends string = string> {
  readonly checkId: string;
  readonly target: Target;
  readonly options: RunOptions;
  readonly http: Client<Ops>;
  /** Objects created by this check; removed when the check ends, whatever happens. */
  readonly ledger: Ledger;
  /** Assertions with what they expected and what they saw (status, equality, membership, any predicate). */
  readonly expect: Expect<Req>;
  /** Records one assertion against a requirement the check declares, with what it expected and saw when given; returns `ok`. */
  assert(requirement: Req, ok: boolean, message: string, ex?: Exchange, facts?: Facts, details?: unknown): boolean;
  /** The assertion could not be made (missing input, resource never became ready): reported, never passed. */
  untested(requirement: Req, reason: string, ex?: Exchange, enabledBy?: string): void;
  /** Behaviour the document leaves open: recorded for the report, never judged. */
  observe(requirement: Req, note: string): void;
  /** Whether credentials for a role were given. */
  has(role: string): boolean;
  /** What the attempt's requests reached: `mark()` before a run of requests, `since(mark)` after it (each once). */
  readonly traffic: { mark(): number; since(mark: number): Reach[] };
}

/**
 * One conformance rule. `id` is the key everywhere: config, `--only`, catalogue and report.
 * `title` is the MUST-worded description shown in listings. `State`: the names of the shared state an API's checks may
 * declare in `shares` and `uses` (its own union, so that a misspelt name does not compile); any string by default.
 */
export interface Check<Ops extends object = Record<string, unknown>, State extends string = string, Req extends string = string> {
  id: string;
  title: string;
  requirements: Req[];
  /** Can change or delete data the run did not create: runs only when destructive checks are allowed. */
  destructive?: boolean;
  /** Roles whose credentials the check needs; without them its requirements are reported untested. */
  needs?: string[];
  /**
   * Shared state the check reads or changes beyond its own rows (a collection read whole, a singleton, a per-user
   * quota): checks that name the same state never run side by side. `*` is all of it (nothing else runs alongside).
   */
  shares?: (State | '*')[];
  /**
   * Shared state the check touches in a way that cannot disturb others doing the same (reading it, or writing only its
   * own rows): it runs beside other checks that use it, never beside one that `shares` it.
   */
  uses?: State[];
  run(ctx: CheckContext<Ops, Req>): Promise<void>;
}
