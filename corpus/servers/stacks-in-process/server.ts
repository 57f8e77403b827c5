/**
 * An independent, written-from-the-document implementation of the
 * "Short-Lived Test Stack Provisioning API" (interface label v1.0).
 *
 * Its purpose is to exercise a conformance tool: every *variant* must be judged
 * conforming (it only makes different choices where the document is silent),
 * and every *bug* flag introduces exactly one defect against a sentence the
 * document states, which the tool should report.
 *
 * Only node built-ins are used; nothing is imported from the repository.
 *
 * Run directly:
 *   npx tsx corpus/servers/stacks-in-process/server.ts [--variant X] [--bug Y ...] [--port N]
 *   PORT=N VARIANT=X BUG=Y,Z npx tsx corpus/servers/stacks-in-process/server.ts
 * It prints the variables a user sets (`export NAME=value`), then `listening on <port>`.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes, randomUUID } from 'node:crypto';
import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

// ---------------------------------------------------------------------------
// Public surface
// ---------------------------------------------------------------------------

export interface StacksServerOptions {
  variant?: string; // one of the exported STACK_VARIANTS ids; default 'plain'
  bugs?: string[]; // ids from the exported STACK_BUGS table; default none
  port?: number; // default 0 (free port)
}

export interface RunningServer {
  url: string;
  env: Record<string, string>;
  close(): Promise<void>;
}

// ---------------------------------------------------------------------------
// Variants: every knob below is a point where the document says nothing (or
// "not shown"), so each setting is a legitimate vendor choice.
// ---------------------------------------------------------------------------

type StackState = 'CREATING' | 'RUNNING' | 'STOPPING' | 'ERROR';

interface VariantConfig {
  id: string;
  description: string;
  /** Path the API is mounted under; STACKS_BASE_URL includes it. */
  mountPath: string;
  /** Per-user stack maximum ("The numeric maximum: not shown"). */
  maxStacks: number;
  /** Time from create to the end of provisioning; 0 = created already RUNNING. */
  provisionMs: number;
  /** Extra wait after RUNNING before login details are published. */
  detailsDelayMs: number;
  /** How long a deleted stack lingers as STOPPING; 0 = gone at once. */
  stoppingMs: number;
  /** Whether STOPPING stacks still use up a slot of the per-user maximum. */
  stoppingCounts: boolean;
  /** Default stack lifetime ("the default stack lifetime: not shown"). */
  lifetimeMs: number;
  /** Answer for a well-formed bearer key that was never issued (document silent). */
  unknownKeyStatus: 401 | 403;
  idStyle: 'base36' | 'uuid' | 'serial';
  nameStyle: 'owner-seq' | 'whimsical' | 'same-as-id' | 'by-version';
  timeStyle: 'iso-ms-z' | 'utc-offset' | 'local-offset' | 'micro';
  listOrder: 'oldest-first' | 'newest-first' | 'by-name';
  catalogue: 'standard' | 'four-part';
  versionsOrder: 'ascending' | 'descending' | 'shuffled';
  /** Treat properties other than platformVersion as an invalid body. */
  rejectUnknownFields: boolean;
  /** Check the stack maximum before looking at the body at all. */
  limitBeforeValidation: boolean;
  /** Stacks of unreleased builds fail provisioning and end in ERROR. */
  unreleasedEndsInError: boolean;
  /** Add vendor fields the document does not forbid (owner, region, requestId...). */
  extraFields: boolean;
  contentType: string;
  locationHeader: boolean;
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

const BASELINE: Omit<VariantConfig, 'id' | 'description'> = {
  mountPath: '',
  maxStacks: 2,
  provisionMs: 300,
  detailsDelayMs: 0,
  stoppingMs: 0,
  stoppingCounts: true,
  lifetimeMs: 8 * HOUR,
  unknownKeyStatus: 403,
  idStyle: 'base36',
  nameStyle: 'owner-seq',
  timeStyle: 'iso-ms-z',
  listOrder: 'oldest-first',
  catalogue: 'standard',
  versionsOrder: 'ascending',
  rejectUnknownFields: false,
  limitBeforeValidation: false,
  unreleasedEndsInError: false,
  extraFields: false,
  contentType: 'application/json; charset=utf-8',
  locationHeader: false,
};

function variant(id: string, description: string, overrides: Partial<VariantConfig> = {}): VariantConfig {
  return { ...BASELINE, ...overrides, id, description };
}

const VARIANT_CONFIGS: VariantConfig[] = [
  variant(
    'plain',
    'Default choices: max 2 stacks per user, CREATING -> RUNNING after ~300 ms with login details, delete removes at once, ' +
      'never-issued key -> 403, ids "stk-<base36>", ISO times with ms and Z, 8 h lifetime.',
  ),
  variant(
    'real-product',
    'Like the real service: provisioning takes 75 min (stays CREATING for any test run, no login details), delete leaves the ' +
      'stack STOPPING for ~1.5 s (listed, readable, still counted toward the max of 2) before get answers 404; UUID ids, ' +
      '"+00:00" second-precision times, newest first, 4 h lifetime, extra vendor fields, Location header, never-issued key -> 401.',
    {
      provisionMs: 75 * MINUTE,
      stoppingMs: 1500,
      stoppingCounts: true,
      lifetimeMs: 4 * HOUR,
      unknownKeyStatus: 401,
      idStyle: 'uuid',
      nameStyle: 'whimsical',
      timeStyle: 'utc-offset',
      listOrder: 'newest-first',
      versionsOrder: 'descending',
      extraFields: true,
      contentType: 'application/json',
      locationHeader: true,
    },
  ),
  variant(
    'limit-1',
    'Per-user maximum of 1 stack; UUID ids with name = id, "+00:00" times, 2 h lifetime, newest first, never-issued key -> 401.',
    {
      maxStacks: 1,
      unknownKeyStatus: 401,
      idStyle: 'uuid',
      nameStyle: 'same-as-id',
      timeStyle: 'utc-offset',
      lifetimeMs: 2 * HOUR,
      listOrder: 'newest-first',
    },
  ),
  variant(
    'instant',
    'Stacks are created directly RUNNING with login details; delete removes at once; max 3; serial ids, microsecond times, ' +
      'list sorted by name, versions newest first, extra vendor fields, Location header.',
    {
      provisionMs: 0,
      maxStacks: 3,
      idStyle: 'serial',
      nameStyle: 'whimsical',
      timeStyle: 'micro',
      lifetimeMs: 2 * HOUR,
      listOrder: 'by-name',
      versionsOrder: 'descending',
      extraFields: true,
      locationHeader: true,
    },
  ),
  variant(
    'strict-keys',
    'Never-issued keys answer 401 Unauthorized; times carry a +05:30 offset; names derived from the build version; extra fields.',
    {
      unknownKeyStatus: 401,
      timeStyle: 'local-offset',
      nameStyle: 'by-version',
      extraFields: true,
    },
  ),
  variant(
    'strict-body',
    'Create refuses properties other than platformVersion with 400 InvalidRequest; serial ids; plain application/json.',
    {
      rejectUnknownFields: true,
      idStyle: 'serial',
      contentType: 'application/json',
    },
  ),
  variant(
    'limit-first',
    'The per-user maximum (2) is checked before the body is validated, so an invalid body at the limit gets 409; UUID ids.',
    {
      limitBeforeValidation: true,
      idStyle: 'uuid',
    },
  ),
  variant(
    'error-prone',
    'Stacks of unreleased builds end in ERROR after ~250 ms (no login details, still counted); versions newest first; extra fields.',
    {
      provisionMs: 250,
      unreleasedEndsInError: true,
      versionsOrder: 'descending',
      extraFields: true,
    },
  ),
  variant(
    'late-details',
    'RUNNING after ~200 ms but login details only appear ~700 ms later; microsecond times; never-issued key -> 401.',
    {
      provisionMs: 200,
      detailsDelayMs: 700,
      timeStyle: 'micro',
      unknownKeyStatus: 401,
    },
  ),
  variant(
    'slow-delete',
    'Delete leaves the stack STOPPING for ~800 ms, but STOPPING stacks do not count toward the max of 2; list sorted by name.',
    {
      stoppingMs: 800,
      stoppingCounts: false,
      listOrder: 'by-name',
    },
  ),
  variant(
    'short-lifetime',
    'Stacks live only 2 minutes (terminationDate = createdAt + 120 s) and vanish (404) once expired; "+00:00" times.',
    {
      lifetimeMs: 2 * MINUTE,
      timeStyle: 'utc-offset',
    },
  ),
  variant('mounted', 'API served under a path prefix: STACKS_BASE_URL ends in /stack-provisioning; UUID ids; never-issued key -> 401.', {
    mountPath: '/stack-provisioning',
    contentType: 'application/json',
    unknownKeyStatus: 401,
    idStyle: 'uuid',
  }),
  variant(
    'four-part-versions',
    'Four-part build numbers where numeric and string order disagree (9.10 > 9.9; unreleased 10.0), listed in no particular order.',
    {
      catalogue: 'four-part',
      versionsOrder: 'shuffled',
      nameStyle: 'by-version',
    },
  ),
];

export const STACK_VARIANTS: { id: string; description: string }[] = VARIANT_CONFIGS.map(({ id, description }) => ({ id, description }));

// ---------------------------------------------------------------------------
// Bugs: each one breaks exactly one stated rule; `clause` quotes it verbatim.
// ---------------------------------------------------------------------------

export const STACK_BUGS: { id: string; clause: string; description: string }[] = [
  // --- authentication ---
  {
    id: 'auth-accept-unknown-key',
    clause: 'Every operation requires HTTP bearer authentication: header `Authorization: Bearer <API_KEY>`.',
    description: 'Any well-formed bearer token is accepted: a never-issued key is served (2xx) as its own guest user.',
  },
  {
    id: 'auth-missing-403',
    clause: 'A request without the key returns 401 with code `Unauthorized`.',
    description: 'A request without Authorization answers 403 Forbidden instead of 401.',
  },
  {
    id: 'auth-missing-wrong-code',
    clause: 'A request without the key returns 401 with code `Unauthorized`.',
    description: 'A request without Authorization answers 401, but with code "AuthenticationRequired".',
  },
  {
    id: 'forbidden-as-401',
    clause: "A caller who is authenticated but not on the service's allow list returns 403 with code `Forbidden`.",
    description: 'The authenticated, not-allow-listed user gets 401 Unauthorized instead of 403 Forbidden.',
  },
  {
    id: 'forbidden-served',
    clause: "A caller who is authenticated but not on the service's allow list returns 403 with code `Forbidden`.",
    description: 'The allow list is not enforced: the not-allow-listed user is served like any other user.',
  },
  {
    id: 'forbidden-wrong-code',
    clause: "A caller who is authenticated but not on the service's allow list returns 403 with code `Forbidden`.",
    description: 'The not-allow-listed user gets 403, but with code "AccessDenied".',
  },
  // --- create: body and version ---
  {
    id: 'version-unknown-wrong-code',
    clause: 'When `platformVersion` names a version the service does not know, create returns 400 with code `InvalidRequest`.',
    description: 'An unknown platformVersion answers 400 with code "UnknownPlatformVersion".',
  },
  {
    id: 'version-unknown-accepted',
    clause: 'When `platformVersion` names a version the service does not know, create returns 400 with code `InvalidRequest`.',
    description: 'An unknown platformVersion is passed through to provisioning: 202 with that version string.',
  },
  {
    id: 'version-unknown-message-silent',
    clause: 'invalid request body, or unknown platform version (the message names the version)',
    description: 'An unknown platformVersion answers 400 InvalidRequest, but the message does not name the version.',
  },
  {
    id: 'body-not-json-accepted',
    clause: 'A malformed create body returns 400 with code `InvalidRequest`.',
    description: 'A create body that is not JSON at all (or empty) is treated as {} and accepted with 202.',
  },
  {
    id: 'body-not-object-accepted',
    clause: 'A malformed create body returns 400 with code `InvalidRequest`.',
    description: 'A create body that is JSON but not an object (array, string, number, null) is treated as {} and accepted.',
  },
  {
    id: 'body-version-type-accepted',
    clause: 'object with one optional field `platformVersion` (string): the build version to provision',
    description: 'A non-string platformVersion (number, boolean, object, null) is ignored and the default version is provisioned (202).',
  },
  {
    id: 'empty-object-rejected',
    clause: 'An empty object `{}` or an omitted `platformVersion` selects the default latest released version',
    description: 'Create without platformVersion (e.g. {}) answers 400 "platformVersion is required".',
  },
  {
    id: 'unreleased-rejected',
    clause: '`GET /v1/stacks/versions` lists the selectable versions, each with status `released` or `unreleased`.',
    description: 'A listed version with status unreleased cannot be selected: create answers 400.',
  },
  {
    id: 'create-201',
    clause: '202 with StackSummary',
    description: 'A successful create answers 201 Created instead of 202.',
  },
  {
    id: 'create-200',
    clause: '202 with StackSummary',
    description: 'A successful create answers 200 OK instead of 202.',
  },
  {
    id: 'default-unreleased',
    clause: 'When it is omitted, the latest released version is used.',
    description: 'Omitted platformVersion selects the newest build overall, which is unreleased.',
  },
  {
    id: 'default-oldest-released',
    clause: 'When it is omitted, the latest released version is used.',
    description: 'Omitted platformVersion selects the oldest released build instead of the latest.',
  },
  {
    id: 'version-drift',
    clause: 'The platform version of a new stack is chosen with `platformVersion` in the create body.',
    description:
      'The create answer echoes the requested version, but the stack is provisioned with the default version, which get and list then show.',
  },
  {
    id: 'termination-before-created',
    clause: 'ISO-8601 date-time at which the stack will be terminated',
    description: 'terminationDate is reported as createdAt minus the lifetime (sign error), i.e. before createdAt.',
  },
  // --- ownership ---
  {
    id: 'list-other-users',
    clause: "Every operation acts only on the caller's own stacks.",
    description: "List returns every user's active stacks, not only the caller's.",
  },
  {
    id: 'get-other-user',
    clause: 'Get and delete on a stack that does not exist for the caller return 404.',
    description: "Get of another user's stack answers 200 with its details (including the login password).",
  },
  {
    id: 'delete-other-user',
    clause: 'Get and delete on a stack that does not exist for the caller return 404.',
    description: "Delete of another user's stack succeeds (204) and deletes it.",
  },
  // --- limit ---
  {
    id: 'limit-not-enforced',
    clause: 'A per-user maximum number of stacks exists; create beyond it returns 409 `MaxStacksLimitReached`.',
    description: 'The per-user maximum is never enforced: every valid create is accepted.',
  },
  {
    id: 'limit-wrong-code',
    clause: '| 409 | MaxStacksLimitReached | maximum number of stacks reached at create |',
    description: 'Create beyond the maximum answers 409, but with code "StackLimitExceeded".',
  },
  {
    id: 'limit-429',
    clause: 'A per-user maximum number of stacks exists; create beyond it returns 409 `MaxStacksLimitReached`.',
    description: 'Create beyond the maximum answers 429 (code MaxStacksLimitReached) instead of 409.',
  },
  {
    id: 'limit-counts-deleted',
    clause: 'request valid, user allowed, stack limit not reached',
    description: 'The limit counts every stack the user ever created, so after deleting them (and they are gone) create still answers 409.',
  },
  {
    id: 'limit-global',
    clause: 'A per-user maximum number of stacks exists; create beyond it returns 409 `MaxStacksLimitReached`.',
    description: "The maximum is applied to all users' stacks together, so one user's stacks block another user's create.",
  },
  // --- get / delete ---
  {
    id: 'get-unknown-200',
    clause: 'Get and delete on a stack that does not exist for the caller return 404.',
    description: 'Get of an id that does not exist for the caller answers 200 with an empty object.',
  },
  {
    id: 'get-unknown-400',
    clause: 'Get and delete on a stack that does not exist for the caller return 404.',
    description: "Get of an id not shaped like this server's ids answers 400 InvalidRequest (well-shaped unknown ids still 404).",
  },
  {
    id: 'delete-unknown-204',
    clause: 'Get and delete on a stack that does not exist for the caller return 404.',
    description: 'Delete is "idempotent": an id that does not exist for the caller answers 204.',
  },
  {
    id: 'delete-200-body',
    clause: '204, empty body',
    description: 'A successful delete answers 200 with the stack summary as body.',
  },
  {
    id: 'not-found-wrong-code',
    clause: '| 404 | NotFound | stack does not exist (message says the resource was not found) |',
    description: 'Get/delete of a missing stack answers 404 with code "StackNotFound".',
  },
  {
    id: 'stack-visible-late',
    clause: 'stack appears in list and get results; `terminationDate` is set',
    description:
      'A stack in CREATING is missing from list and get answers 404 until provisioning finishes (no effect where stacks start RUNNING).',
  },
  // --- resource shapes ---
  {
    id: 'summary-missing-field',
    clause: 'All fields are required.',
    description: 'StackSummary items in the list omit terminationDate.',
  },
  {
    id: 'detail-missing-version',
    clause: 'The fields are those of StackSummary, all required, plus one optional field:',
    description: 'StackDetail (get) omits platformVersion.',
  },
  {
    id: 'state-pending',
    clause: '`CREATING`, `RUNNING`, `STOPPING`, `ERROR`.',
    description: 'A stack being provisioned reports state "PENDING" instead of CREATING (no effect where stacks start RUNNING).',
  },
  {
    id: 'created-at-not-iso',
    clause: '| createdAt | string | ISO-8601 date-time of stack creation |',
    description: 'createdAt is an RFC 1123 string ("Tue, 11 Jun 2024 10:00:00 GMT"), not ISO-8601.',
  },
  {
    id: 'access-url-not-uri',
    clause: '| url | string | uri | Web URL of the stack |',
    description: 'stackAccessDetails.url is a bare host name without scheme, which is not a URI.',
  },
  {
    id: 'access-details-incomplete',
    clause: 'All fields are required.',
    description: 'stackAccessDetails omits username.',
  },
  {
    id: 'list-bare-array',
    clause: 'object with required `stacks`: array of StackSummary',
    description: 'List answers a bare JSON array instead of {"stacks": [...]}.',
  },
  // --- versions ---
  {
    id: 'versions-bad-status',
    clause: '`released` or `unreleased`',
    description: 'Unreleased versions are reported with status "preview".',
  },
  {
    id: 'versions-missing-release-name',
    clause: '| releaseName | string | Release codename |',
    description: 'Unreleased versions are listed without releaseName (codename not yet public).',
  },
  {
    id: 'versions-bare-array',
    clause: 'object with required `versions`: array of PlatformVersion',
    description: 'The versions list answers a bare JSON array instead of {"versions": [...]}.',
  },
  // --- errors and media type ---
  {
    id: 'error-missing-message',
    clause: 'Every error body is a ServiceError: `{code: string, message: string}`.',
    description: 'Error bodies carry only {"code": ...}.',
  },
  {
    id: 'error-missing-code',
    clause: 'Every error body is a ServiceError: `{code: string, message: string}`.',
    description: 'Error bodies use {"error": ..., "message": ...} instead of a code field.',
  },
  {
    id: 'content-type-text',
    clause: 'All request and response bodies are JSON (`application/json`).',
    description: 'JSON response bodies are labelled Content-Type text/plain.',
  },
];

const KNOWN_BUGS = new Set(STACK_BUGS.map((b) => b.id));

// ---------------------------------------------------------------------------
// Platform version catalogues, ordered oldest -> newest. That order (not the
// order the list endpoint uses) is what "latest released" refers to.
// ---------------------------------------------------------------------------

interface CatalogueEntry {
  buildVersion: string;
  releaseName: string;
  released: boolean;
  releasedOn?: string;
}

const CATALOGUES: Record<VariantConfig['catalogue'], CatalogueEntry[]> = {
  standard: [
    { buildVersion: '9.2.4', releaseName: 'Kestrel', released: true, releasedOn: '2024-03-12' },
    { buildVersion: '9.3.1', releaseName: 'Lynx', released: true, releasedOn: '2024-09-03' },
    { buildVersion: '9.4.0-rc.1', releaseName: 'Marten', released: false },
  ],
  'four-part': [
    { buildVersion: '9.8.3.2207', releaseName: 'Heron', released: true, releasedOn: '2023-02-20' },
    { buildVersion: '9.9.12.2311', releaseName: 'Ibis', released: true, releasedOn: '2023-11-14' },
    { buildVersion: '9.10.0.2402', releaseName: 'Jackal', released: true, releasedOn: '2024-02-27' },
    { buildVersion: '10.0.0.2409', releaseName: 'Koala', released: false },
  ],
};

// ---------------------------------------------------------------------------
// Service state
// ---------------------------------------------------------------------------

interface Account {
  handle: string;
  allowListed: boolean;
}

interface AccessDetails {
  url: string;
  username: string;
  password: string;
}

interface StackRecord {
  id: string;
  name: string;
  owner: string; // Account.handle
  platformVersion: string; // what the stack actually runs
  createdAt: number;
  readyAt: number; // end of provisioning
  terminatesAt: number;
  endsInError: boolean;
  deletedAt: number | null;
  access: AccessDetails;
}

/** What a stack looks like at a given instant; null once it no longer exists. */
interface Phase {
  state: StackState;
  since: number;
  detailsReady: boolean;
}

type AuthOutcome = { ok: true; account: Account } | { ok: false; status: number; code: string; message: string };

class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

const MAX_BODY_BYTES = 64 * 1024;
const ADJECTIVES = ['amber', 'brisk', 'calm', 'dapper', 'eager', 'fuzzy', 'gentle', 'hazel', 'jolly', 'lucid'];
const ANIMALS = ['otter', 'falcon', 'badger', 'heron', 'marten', 'puffin', 'wombat', 'gecko'];

function randomToken(bytes: number): string {
  return randomBytes(bytes).toString('base64url');
}

function randomBase36(length: number): string {
  return Array.from(randomBytes(length), (b) => (b % 36).toString(36)).join('');
}

function formatTime(ms: number, style: VariantConfig['timeStyle']): string {
  const iso = new Date(ms).toISOString(); // always YYYY-MM-DDTHH:mm:ss.sssZ
  switch (style) {
    case 'iso-ms-z':
      return iso;
    case 'utc-offset':
      return iso.replace(/\.\d{3}Z$/, '+00:00');
    case 'micro':
      return iso.replace(/Z$/, '000Z');
    case 'local-offset': {
      // A vendor reporting wall-clock time of its data centre (UTC+05:30).
      const shifted = new Date(ms + 330 * MINUTE).toISOString();
      return shifted.replace(/Z$/, '+05:30');
    }
  }
}

class StackService {
  private readonly accountsByKey = new Map<string, Account>();
  private readonly stacks = new Map<string, StackRecord>();
  /** Stacks ever created per user; only consulted by the 'limit-counts-deleted' bug. */
  private readonly createdTally = new Map<string, number>();
  private serial = 4100 + Math.floor(Math.random() * 800);
  private readonly catalogue: CatalogueEntry[];
  readonly keys: { primary: string; secondary: string; outsider: string };

  constructor(
    private readonly cfg: VariantConfig,
    private readonly bugs: ReadonlySet<string>,
  ) {
    this.catalogue = CATALOGUES[cfg.catalogue];
    // Issued once, like keys handed to a tester: the same at every start, so they can be written down (manifest.json).
    this.keys = {
      primary: 'dpk_q7Xm2LwR9tVb4KcN8sEa1Hf3',
      secondary: 'dpk_Z5nP0yJd6GuT2rWk9BxC7mQe',
      outsider: 'dpk_h4Ls8VfA1oYc3NjR6tDz0KpU',
    };
    this.accountsByKey.set(this.keys.primary, { handle: 'alice.tester', allowListed: true });
    this.accountsByKey.set(this.keys.secondary, { handle: 'bruno.tester', allowListed: true });
    this.accountsByKey.set(this.keys.outsider, { handle: 'carol.outsider', allowListed: false });
  }

  private bug(id: string): boolean {
    return this.bugs.has(id);
  }

  // ----- HTTP plumbing -----------------------------------------------------

  async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const requestId = `rq-${randomBytes(6).toString('hex')}`;
    res.setHeader('X-Request-Id', requestId);
    res.setHeader('Cache-Control', 'no-store');
    try {
      await this.route(req, res);
    } catch (err) {
      if (err instanceof HttpError) {
        this.sendError(res, err.status, err.code, err.message, requestId, err.headers);
      } else {
        this.sendError(res, 500, 'InternalServerError', 'The stack service hit an unexpected condition.', requestId);
      }
    }
  }

  private async route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const method = (req.method ?? 'GET').toUpperCase();
    let path: string;
    try {
      path = new URL(req.url ?? '/', 'http://stack-service.invalid').pathname;
    } catch {
      throw new HttpError(404, 'NotFound', 'Resource not found.');
    }
    const originalPath = path;
    const mount = this.cfg.mountPath;
    if (mount && path !== mount && !path.startsWith(`${mount}/`)) path = '';
    path = path.slice(mount.length);
    if (path.length > 1 && path.endsWith('/')) path = path.slice(0, -1); // tolerate one trailing slash

    if (path !== '/v1/stacks' && !path.startsWith('/v1/stacks/')) {
      req.resume();
      throw new HttpError(404, 'NotFound', `Resource not found: ${originalPath}`);
    }

    // The gateway authenticates before anything else, so even a bad method or
    // bad body from an anonymous caller yields 401.
    const auth = this.authenticate(req.headers.authorization);
    if (!auth.ok) {
      req.resume();
      throw new HttpError(auth.status, auth.code, auth.message);
    }
    const account = auth.account;

    if (path === '/v1/stacks') {
      if (method === 'POST') return this.createStack(req, res, account);
      req.resume();
      if (method === 'GET') return this.listStacks(res, account);
      throw new HttpError(405, 'MethodNotAllowed', `${method} is not supported on this resource.`, { Allow: 'GET, POST' });
    }

    req.resume();
    if (path === '/v1/stacks/versions' && method === 'GET') return this.listVersions(res);

    const rawId = path.slice('/v1/stacks/'.length);
    let stackId: string;
    try {
      stackId = decodeURIComponent(rawId);
    } catch {
      throw new HttpError(404, 'NotFound', 'Stack not found.');
    }
    if (rawId.includes('/') || stackId === '') throw new HttpError(404, 'NotFound', `Resource not found: ${originalPath}`);
    if (method === 'GET') return this.getStack(res, account, stackId);
    if (method === 'DELETE') return this.deleteStack(res, account, stackId);
    throw new HttpError(405, 'MethodNotAllowed', `${method} is not supported on this resource.`, { Allow: 'GET, DELETE' });
  }

  private contentType(): string {
    return this.bug('content-type-text') ? 'text/plain; charset=utf-8' : this.cfg.contentType;
  }

  private sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
    const text = JSON.stringify(body);
    res.writeHead(status, { ...headers, 'Content-Type': this.contentType(), 'Content-Length': String(Buffer.byteLength(text)) });
    res.end(text);
  }

  private sendEmpty(res: ServerResponse, status: number): void {
    res.writeHead(status);
    res.end();
  }

  private sendError(
    res: ServerResponse,
    status: number,
    code: string,
    message: string,
    requestId: string,
    headers: Record<string, string> = {},
  ): void {
    if (res.headersSent) {
      res.destroy();
      return;
    }
    let body: Record<string, unknown>;
    if (this.bug('error-missing-code')) body = { error: code, message };
    else if (this.bug('error-missing-message')) body = { code };
    else body = { code, message };
    if (this.cfg.extraFields) body = { ...body, requestId, status };
    this.sendJson(res, status, body, headers);
  }

  // ----- authentication ----------------------------------------------------

  private authenticate(header: string | undefined): AuthOutcome {
    const match = header === undefined ? null : /^\s*Bearer\s+(\S+)\s*$/i.exec(header);
    if (!match) {
      // No bearer key at all (absent header, other scheme, empty token).
      if (this.bug('auth-missing-403')) return { ok: false, status: 403, code: 'Forbidden', message: 'Access denied.' };
      const code = this.bug('auth-missing-wrong-code') ? 'AuthenticationRequired' : 'Unauthorized';
      return { ok: false, status: 401, code, message: "No API key supplied; send 'Authorization: Bearer <developer-portal API key>'." };
    }
    const key = match[1]!;
    let account = this.accountsByKey.get(key);
    if (!account) {
      if (this.bug('auth-accept-unknown-key')) {
        // The defect: only the token's shape is checked, and a guest identity is minted for it.
        account = { handle: `guest-${key.slice(-6)}`, allowListed: true };
        this.accountsByKey.set(key, account);
      } else if (this.cfg.unknownKeyStatus === 401) {
        return { ok: false, status: 401, code: 'Unauthorized', message: 'The API key presented is not valid.' };
      } else {
        return { ok: false, status: 403, code: 'Forbidden', message: 'The API key presented is not recognised for stack provisioning.' };
      }
    }
    if (!account.allowListed && !this.bug('forbidden-served')) {
      if (this.bug('forbidden-as-401')) return { ok: false, status: 401, code: 'Unauthorized', message: 'Authentication failed.' };
      const code = this.bug('forbidden-wrong-code') ? 'AccessDenied' : 'Forbidden';
      return { ok: false, status: 403, code, message: `Account '${account.handle}' is not enabled for test stack provisioning.` };
    }
    return { ok: true, account };
  }

  // ----- lifecycle -----------------------------------------------------------

  private phaseOf(s: StackRecord, now: number): Phase | null {
    if (now >= s.terminatesAt) return null; // expired
    if (s.deletedAt !== null) {
      return now < s.deletedAt + this.cfg.stoppingMs ? { state: 'STOPPING', since: s.deletedAt, detailsReady: false } : null;
    }
    if (now < s.readyAt) return { state: 'CREATING', since: s.createdAt, detailsReady: false };
    if (s.endsInError) return { state: 'ERROR', since: s.readyAt, detailsReady: false };
    return { state: 'RUNNING', since: s.readyAt, detailsReady: now >= s.readyAt + this.cfg.detailsDelayMs };
  }

  /** Live stacks with their phase; stacks that have gone are dropped for good. */
  private liveStacks(now: number): { stack: StackRecord; phase: Phase }[] {
    const out: { stack: StackRecord; phase: Phase }[] = [];
    for (const stack of this.stacks.values()) {
      const phase = this.phaseOf(stack, now);
      if (phase) out.push({ stack, phase });
      else this.stacks.delete(stack.id);
    }
    return out;
  }

  private visibleTo(account: Account, stack: StackRecord, phase: Phase, foreignOk: boolean): boolean {
    if (stack.owner !== account.handle && !foreignOk) return false;
    if (phase.state === 'CREATING' && this.bug('stack-visible-late')) return false;
    return true;
  }

  private limitRefusal(account: Account, now: number): HttpError | null {
    if (this.bug('limit-not-enforced')) return null;
    let used: number;
    if (this.bug('limit-counts-deleted')) {
      used = this.createdTally.get(account.handle) ?? 0;
    } else {
      used = this.liveStacks(now).filter(
        ({ stack, phase }) =>
          (stack.owner === account.handle || this.bug('limit-global')) && (phase.state !== 'STOPPING' || this.cfg.stoppingCounts),
      ).length;
    }
    if (used < this.cfg.maxStacks) return null;
    const status = this.bug('limit-429') ? 429 : 409;
    const code = this.bug('limit-wrong-code') ? 'StackLimitExceeded' : 'MaxStacksLimitReached';
    return new HttpError(status, code, `Stack quota exhausted: at most ${this.cfg.maxStacks} active stack(s) per user. Delete one first.`);
  }

  // ----- versions --------------------------------------------------------------

  private defaultVersion(): CatalogueEntry {
    const released = this.catalogue.filter((v) => v.released);
    if (this.bug('default-unreleased')) return this.catalogue[this.catalogue.length - 1]!;
    if (this.bug('default-oldest-released')) return released[0]!;
    return released[released.length - 1]!;
  }

  private listVersions(res: ServerResponse): void {
    const latest = this.defaultVersion();
    let entries = [...this.catalogue];
    if (this.cfg.versionsOrder === 'descending') entries.reverse();
    if (this.cfg.versionsOrder === 'shuffled') entries = [1, 3, 0, 2].map((i) => this.catalogue[i]!).filter(Boolean);
    const versions = entries.map((v) => {
      const item: Record<string, unknown> = { buildVersion: v.buildVersion };
      if (v.released || !this.bug('versions-missing-release-name')) item.releaseName = v.releaseName;
      item.status = v.released ? 'released' : this.bug('versions-bad-status') ? 'preview' : 'unreleased';
      if (this.cfg.extraFields) {
        item.isDefault = v === latest;
        if (v.releasedOn) item.releasedOn = v.releasedOn;
      }
      return item;
    });
    if (this.bug('versions-bare-array')) {
      this.sendJson(res, 200, versions);
      return;
    }
    const body: Record<string, unknown> = { versions };
    if (this.cfg.extraFields) body.defaultBuildVersion = latest.buildVersion;
    this.sendJson(res, 200, body);
  }

  // ----- views -------------------------------------------------------------------

  private summaryView(s: StackRecord, phase: Phase): Record<string, unknown> {
    const t = (ms: number) => formatTime(ms, this.cfg.timeStyle);
    const reportedEnd = this.bug('termination-before-created') ? s.createdAt - this.cfg.lifetimeMs : s.terminatesAt;
    const view: Record<string, unknown> = {
      id: s.id,
      name: s.name,
      platformVersion: s.platformVersion,
      state: phase.state === 'CREATING' && this.bug('state-pending') ? 'PENDING' : phase.state,
      createdAt: this.bug('created-at-not-iso') ? new Date(s.createdAt).toUTCString() : t(s.createdAt),
      terminationDate: t(reportedEnd),
    };
    if (this.cfg.extraFields) {
      view.owner = s.owner;
      view.region = 'eu-central-1';
      view.stateChangedAt = t(phase.since);
    }
    return view;
  }

  private detailView(s: StackRecord, phase: Phase): Record<string, unknown> {
    const view = this.summaryView(s, phase);
    if (this.bug('detail-missing-version')) delete view.platformVersion;
    if (phase.detailsReady) {
      const access: Record<string, unknown> = { ...s.access };
      if (this.bug('access-url-not-uri')) access.url = new URL(s.access.url).host;
      if (this.bug('access-details-incomplete')) delete access.username;
      view.stackAccessDetails = access;
    }
    return view;
  }

  // ----- identifiers and names -------------------------------------------------

  private newId(): string {
    switch (this.cfg.idStyle) {
      case 'base36':
        return `stk-${randomBase36(10)}`;
      case 'uuid':
        return randomUUID();
      case 'serial':
        return `st${String(++this.serial).padStart(6, '0')}`;
    }
  }

  private looksLikeOurId(id: string): boolean {
    switch (this.cfg.idStyle) {
      case 'base36':
        return /^stk-[0-9a-z]{10}$/.test(id);
      case 'uuid':
        return /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id);
      case 'serial':
        return /^st\d{6,}$/.test(id);
    }
  }

  private newName(id: string, owner: Account, version: string, ordinal: number): string {
    switch (this.cfg.nameStyle) {
      case 'owner-seq':
        return `${owner.handle.split('.')[0]}-stack-${ordinal}`;
      case 'whimsical': {
        const [a, b] = randomBytes(2);
        return `${ADJECTIVES[a! % ADJECTIVES.length]}-${ANIMALS[b! % ANIMALS.length]}-${String(ordinal).padStart(2, '0')}`;
      }
      case 'same-as-id':
        return id;
      case 'by-version':
        return `pv${version.replace(/[^0-9a-z]+/gi, '')}-${randomBase36(4)}`;
    }
  }

  // ----- operations ---------------------------------------------------------------

  /** Validates the create body; returns the requested build version, or undefined for "use the default". */
  private parseCreateBody(text: string | null): string | undefined {
    if (text === null) throw new HttpError(400, 'InvalidRequest', `Request body exceeds ${MAX_BODY_BYTES} bytes.`);
    let parsed: unknown;
    if (text.trim() === '') {
      if (!this.bug('body-not-json-accepted'))
        throw new HttpError(400, 'InvalidRequest', 'A JSON request body is required (use {} for defaults).');
      parsed = {};
    } else {
      try {
        parsed = JSON.parse(text);
      } catch (err) {
        if (!this.bug('body-not-json-accepted')) {
          throw new HttpError(400, 'InvalidRequest', `Request body is not valid JSON: ${(err as Error).message}`);
        }
        parsed = {};
      }
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
      if (!this.bug('body-not-object-accepted')) throw new HttpError(400, 'InvalidRequest', 'Request body must be a JSON object.');
      parsed = {};
    }
    const body = parsed as Record<string, unknown>;
    if (this.cfg.rejectUnknownFields) {
      const stray = Object.keys(body).filter((k) => k !== 'platformVersion');
      if (stray.length > 0) throw new HttpError(400, 'InvalidRequest', `Unexpected field(s) in request body: ${stray.join(', ')}.`);
    }
    const requested = body.platformVersion;
    if (requested === undefined) {
      if (this.bug('empty-object-rejected')) throw new HttpError(400, 'InvalidRequest', "Field 'platformVersion' is required.");
      return undefined;
    }
    if (typeof requested !== 'string') {
      if (this.bug('body-version-type-accepted')) return undefined;
      throw new HttpError(400, 'InvalidRequest', "Field 'platformVersion' must be a string.");
    }
    return requested;
  }

  private resolveVersion(requested: string | undefined): { buildVersion: string; released: boolean } {
    if (requested === undefined) return this.defaultVersion();
    const entry = this.catalogue.find((v) => v.buildVersion === requested);
    if (!entry) {
      if (this.bug('version-unknown-accepted')) return { buildVersion: requested, released: true };
      const code = this.bug('version-unknown-wrong-code') ? 'UnknownPlatformVersion' : 'InvalidRequest';
      const message = this.bug('version-unknown-message-silent')
        ? 'The requested platform version cannot be provisioned.'
        : `Platform version "${requested}" is not offered by this service; see GET /v1/stacks/versions.`;
      throw new HttpError(400, code, message);
    }
    if (!entry.released && this.bug('unreleased-rejected')) {
      throw new HttpError(400, 'InvalidRequest', 'Only released platform builds can be provisioned.');
    }
    return entry;
  }

  private async createStack(req: IncomingMessage, res: ServerResponse, account: Account): Promise<void> {
    const text = await readBody(req, MAX_BODY_BYTES);
    const now = Date.now();
    if (this.cfg.limitBeforeValidation) {
      const refusal = this.limitRefusal(account, now);
      if (refusal) throw refusal;
    }
    const chosen = this.resolveVersion(this.parseCreateBody(text));
    if (!this.cfg.limitBeforeValidation) {
      const refusal = this.limitRefusal(account, now);
      if (refusal) throw refusal;
    }

    const ordinal = (this.createdTally.get(account.handle) ?? 0) + 1;
    this.createdTally.set(account.handle, ordinal);
    const id = this.newId();
    // Under 'version-drift' the provisioner silently uses the default build.
    const provisioned = this.bug('version-drift') ? this.defaultVersion().buildVersion : chosen.buildVersion;
    const stack: StackRecord = {
      id,
      name: this.newName(id, account, chosen.buildVersion, ordinal),
      owner: account.handle,
      platformVersion: provisioned,
      createdAt: now,
      readyAt: now + this.cfg.provisionMs,
      terminatesAt: now + this.cfg.lifetimeMs,
      endsInError: this.cfg.unreleasedEndsInError && !chosen.released,
      deletedAt: null,
      access: {
        url: `https://${id.toLowerCase()}.stacks.example.test/`,
        username: this.cfg.extraFields ? `${account.handle.split('.')[0]}-admin` : 'admin',
        password: randomToken(15),
      },
    };
    this.stacks.set(id, stack);

    const view = this.summaryView(stack, this.phaseOf(stack, now)!);
    view.platformVersion = chosen.buildVersion; // what the caller asked for / was promised
    const status = this.bug('create-201') ? 201 : this.bug('create-200') ? 200 : 202;
    const headers: Record<string, string> = this.cfg.locationHeader
      ? { Location: `${this.cfg.mountPath}/v1/stacks/${encodeURIComponent(id)}` }
      : {};
    this.sendJson(res, status, view, headers);
  }

  private listStacks(res: ServerResponse, account: Account): void {
    const now = Date.now();
    const rows = this.liveStacks(now).filter(({ stack, phase }) => this.visibleTo(account, stack, phase, this.bug('list-other-users')));
    // biome-ignore lint/suspicious/useIterableCallbackReturn: the switch covers every value of the listOrder union (tsc checks it)
    rows.sort((x, y) => {
      switch (this.cfg.listOrder) {
        case 'oldest-first':
          return x.stack.createdAt - y.stack.createdAt;
        case 'newest-first':
          return y.stack.createdAt - x.stack.createdAt;
        case 'by-name':
          return x.stack.name.localeCompare(y.stack.name);
      }
    });
    const stacks = rows.map(({ stack, phase }) => {
      const view = this.summaryView(stack, phase);
      if (this.bug('summary-missing-field')) delete view.terminationDate;
      return view;
    });
    if (this.bug('list-bare-array')) {
      this.sendJson(res, 200, stacks);
      return;
    }
    const body: Record<string, unknown> = { stacks };
    if (this.cfg.extraFields) {
      body.count = stacks.length;
      body.maxStacks = this.cfg.maxStacks;
    }
    this.sendJson(res, 200, body);
  }

  private findFor(account: Account, stackId: string, foreignOk: boolean): { stack: StackRecord; phase: Phase } | null {
    const stack = this.stacks.get(stackId);
    if (!stack) return null;
    const phase = this.phaseOf(stack, Date.now());
    if (!phase) {
      this.stacks.delete(stackId);
      return null;
    }
    return this.visibleTo(account, stack, phase, foreignOk) ? { stack, phase } : null;
  }

  private notFound(stackId: string): HttpError {
    const code = this.bug('not-found-wrong-code') ? 'StackNotFound' : 'NotFound';
    return new HttpError(404, code, `Stack "${stackId}" not found for this account.`);
  }

  private getStack(res: ServerResponse, account: Account, stackId: string): void {
    const hit = this.findFor(account, stackId, this.bug('get-other-user'));
    if (!hit) {
      if (this.bug('get-unknown-200')) {
        this.sendJson(res, 200, {});
        return;
      }
      if (this.bug('get-unknown-400') && !this.looksLikeOurId(stackId)) {
        throw new HttpError(400, 'InvalidRequest', `"${stackId}" is not a valid stack identifier.`);
      }
      throw this.notFound(stackId);
    }
    this.sendJson(res, 200, this.detailView(hit.stack, hit.phase));
  }

  private deleteStack(res: ServerResponse, account: Account, stackId: string): void {
    const hit = this.findFor(account, stackId, this.bug('delete-other-user'));
    if (!hit) {
      if (this.bug('delete-unknown-204')) {
        this.sendEmpty(res, 204);
        return;
      }
      throw this.notFound(stackId);
    }
    const { stack, phase } = hit;
    // A repeated delete of a stack that is already STOPPING keeps the original
    // deletion time: the stack still exists, so 204 (not 404) is the answer.
    if (stack.deletedAt === null) stack.deletedAt = Date.now();
    if (this.cfg.stoppingMs === 0) this.stacks.delete(stack.id);
    if (this.bug('delete-200-body')) {
      const after = this.phaseOf(stack, Date.now()) ?? { ...phase, state: 'STOPPING' as const };
      this.sendJson(res, 200, this.summaryView(stack, after));
      return;
    }
    this.sendEmpty(res, 204);
  }
}

function readBody(req: IncomingMessage, limit: number): Promise<string | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) chunks.push(chunk); // keep draining past the limit so the connection stays usable
    });
    req.on('end', () => resolve(size > limit ? null : Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

// ---------------------------------------------------------------------------
// Entry point
// ---------------------------------------------------------------------------

export async function startStacksServer(opts: StacksServerOptions = {}): Promise<RunningServer> {
  const variantId = opts.variant ?? 'plain';
  const cfg = VARIANT_CONFIGS.find((v) => v.id === variantId);
  if (!cfg) throw new Error(`Unknown stacks variant '${variantId}'. Known: ${VARIANT_CONFIGS.map((v) => v.id).join(', ')}`);
  const bugs = new Set(opts.bugs ?? []);
  for (const b of bugs) if (!KNOWN_BUGS.has(b)) throw new Error(`Unknown stacks bug '${b}'.`);

  const service = new StackService(cfg, bugs);
  const server = createServer((req, res) => {
    void service.handle(req, res);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const baseUrl = `http://127.0.0.1:${port}${cfg.mountPath}`;

  return {
    url: baseUrl,
    env: {
      STACKS_BASE_URL: baseUrl,
      STACKS_API_KEY: service.keys.primary,
      STACKS_API_KEY_2: service.keys.secondary,
      STACKS_API_KEY_FORBIDDEN: service.keys.outsider,
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((err) => (err ? reject(err) : resolve()));
        server.closeAllConnections();
      }),
  };
}

/** The environment first (PORT, VARIANT, BUG as a comma list), then the flags, which win. */
function parseCli(argv: string[], env: NodeJS.ProcessEnv): StacksServerOptions {
  const opts: StacksServerOptions = { bugs: (env.BUG ?? '').split(',').filter(Boolean) };
  if (env.VARIANT) opts.variant = env.VARIANT;
  if (env.PORT) opts.port = Number(env.PORT);
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    const value = argv[i + 1];
    if ((flag === '--variant' || flag === '--bug' || flag === '--port') && value === undefined) throw new Error(`${flag} needs a value`);
    if (flag === '--variant') opts.variant = value;
    else if (flag === '--bug') opts.bugs!.push(value!);
    else if (flag === '--port') opts.port = Number(value);
    else throw new Error(`Unknown argument '${flag}'. Usage: [--variant X] [--bug Y ...] [--port N]`);
    i++;
  }
  return opts;
}

async function main(): Promise<void> {
  const running = await startStacksServer(parseCli(process.argv.slice(2), process.env));
  for (const [name, value] of Object.entries(running.env)) console.log(`export ${name}=${value}`);
  console.log(`listening on ${new URL(running.url).port}`);
  const stop = () => {
    void running.close().finally(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

function invokedDirectly(): boolean {
  try {
    return process.argv[1] !== undefined && realpathSync(process.argv[1]) === realpathSync(fileURLToPath(import.meta.url));
  } catch {
    return false;
  }
}

if (invokedDirectly()) {
  main().catch((err: unknown) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  });
}
