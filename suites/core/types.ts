/** Shared vocabulary of a conformance run: requirements, checks, exchanges and the records that tie them together. */

export type Level = 'MUST' | 'SHOULD' | 'unspecified';

/**
 * Environment variables by name, as `process.env` holds them. The package's declarations name this instead of
 * `NodeJS.ProcessEnv`, so that they type-check in a project whose compiler includes no @types/node (TypeScript 6
 * and later include none unless `types` names them).
 */
export type Environment = Record<string, string | undefined>;

/** What a run reads of the AbortSignal that interrupts it: declared here for the same reason, and DOM-free. */
export interface Interruption {
  readonly aborted: boolean;
}
/** `error`: the tool itself failed (an exception in a check, a record against an undeclared requirement): no verdict. */
export type Status = 'passed' | 'failed' | 'skipped' | 'untested' | 'error';

export interface Requirement {
  id: string;
  level: Level;
  group: string;
  section: string;
  clause: string;
  summary: string;
  tolerance?: string;
  destructive?: boolean;
  /**
   * The clause states the reaction to input outside the documented shape (stacks rules 1 and 2: a malformed body is
   * answered 400): only such a requirement may judge, at MUST, the answer to a request outside the shape.
   */
  judgesInputOutsideShape?: boolean;
  /**
   * What the clause governs, read from the document: operation ids, each optionally with a query parameter
   * (`coreBulkDelete?limit`) or a path form (`coreGet@vLatest`). A self-test fails when the run's assertions of a MUST
   * requirement reach less than this against the embedded implementation (suites/core/reach.ts).
   */
  governs?: string[];
  checks: string[];
}

/** Where an assertion was made: the operation of its exchange, the query parameters sent and the path form. */
export interface Reach {
  operation: string;
  params: string[];
  /** The path form, where the API has more than one (ops: `vLatest`); absent for the document's own. */
  form?: string;
}

export interface Catalogue {
  api: string;
  document: string;
  title: string;
  requirements: Requirement[];
}

/** One HTTP request/response pair as sent and received, kept as evidence. */
export interface Exchange {
  operationId?: string;
  /** The check that sent it. */
  check?: string;
  principal?: string;
  request: { method: string; url: string; headers: Record<string, string>; body?: string };
  status: number;
  headers: Record<string, string>;
  text: string;
  /** Parsed body when the body is JSON. */
  json?: unknown;
  jsonError?: string;
  /** When the request was sent (epoch ms) and how long the answer took. */
  at?: number;
  ms: number;
  /** Sent at another path form than the spec's (e.g. vLatest), so tools matching paths to the spec may disagree. */
  pathRewritten?: boolean;
  /** Where the request departs from the documented request shape: an answer to it can back a MUST only where the clause says so. */
  outsideShape?: string[];
  /**
   * A 2xx whose body is a refusal (`{"success": false, "message": ...}`), where the document does not show status
   * codes: its success is the documented answer, not the status line (ApiDefinition.refusedIn2xx).
   */
  refusal?: true;
}

export interface Evidence {
  curl?: string;
  request?: string;
  response?: string;
  /** Free-form details: counterexamples, seeds, schema errors. */
  details?: unknown;
}

type Outcome = 'pass' | 'fail' | 'untested' | 'skipped' | 'error';

/**
 * The kinds of assertion: one per `ctx.expect` method, `response` for an answer judged against the spec whatever check
 * sent it, `property` for a generated case, `transport` when the target did not answer, `tool` for the suite's own fault.
 */
export type AssertionKind =
  | 'status'
  | 'equal'
  | 'one-of'
  | 'contains'
  | 'absent'
  | 'predicate'
  | 'response'
  | 'property'
  | 'transport'
  | 'tool'
  /** Untested because the check's set-up could not be made (Unmet). */
  | 'unmet';

/** The smallest unit of a result: one assertion (or one reason it did not run) against one requirement. */
export interface AssertionRecord {
  requirement: string;
  check: string;
  outcome: Outcome;
  message: string;
  /** What the assertion expected and what it saw, as short text (suites/core/expect.ts). */
  expected?: string;
  actual?: string;
  /** What kind of assertion made the record: how a report or a front end groups and words it. */
  kind?: AssertionKind;
  /** For an answer judged by the response check (schema, status, content type): the check that sent the request. */
  seenIn?: string;
  evidence?: Evidence;
  /** Set on failures that disappeared when the check was run again. */
  intermittent?: boolean;
  /** What the exchanges the assertion judged reached (its own exchange, or a property's traffic). */
  reached?: Reach[];
  /** Why a check was not run, for a record it left skipped or untested without running (NotRunCause). */
  cause?: NotRunCause;
  /** For a record left untested or skipped for want of input: the setting that would have it checked (settingName). */
  enabledBy?: string;
}

/**
 * Why a check did not run, as data a front end reads instead of its message: the run was interrupted, the target had
 * gone, the check was left to another shard or out of --only, it is destructive and not allowed, or it needs a
 * credential that was not given.
 */
export type NotRunCause = 'interrupted' | 'lost-target' | 'not-selected' | 'destructive' | 'credentials';

/** Notes on behaviour the document leaves open: reported, never judged. */
export interface Observation {
  requirement: string;
  check: string;
  note: string;
}

export interface Principal {
  /** Role name used by checks: primary, second, forbidden, readonly. */
  role: string;
  /** The user's name where it is not a secret (a basic-auth user name, a demo user): reports list users by it. */
  name?: string;
  /** Authorization header value; absent for an anonymous principal. */
  authorization?: string;
  /** How a reproducer passes the credential, with environment variables in place of secrets. */
  curlAuth?: string;
  /** Strings that must never appear in any output. */
  secrets: string[];
}

export interface Target {
  api: string;
  baseUrl: string;
  embedded: boolean;
  principals: Record<string, Principal>;
  tlsInsecure?: boolean;
  /** The HTTP proxy its requests go through, and the variable that named it (see proxy.ts). */
  proxy?: { url: string; from: string };
  /** Said with a connection that failed: why no proxy was used though one is set (see unusedProxyNote). */
  connectionNote?: string;
  /**
   * The deployment's own address when baseUrl is a validating proxy in front of it: requests with deliberately
   * malformed bodies go there directly (the proxy would refuse them itself), and address checks judge it.
   */
  directUrl?: string;
  /** Values for path parameters the checks do not set themselves (e.g. user and app segments). */
  pathDefaults?: Record<string, string>;
  close?: () => Promise<void>;
}
