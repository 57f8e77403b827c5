// Short-lived test stack provisioning API (v1), in-memory, plain HTTP.
//
// Run:  node --import tsx server.ts
// Env:  PORT     port to listen on (0 or unset: any free port)
//       VARIANT  "lagging": creates and deletes reach list/get only after 300-1200 ms
//       BUG      comma-separated names of deliberate defects to switch on (see AUTHOR-BUGS.md)

import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { randomBytes, randomInt } from 'node:crypto';

// ---------------------------------------------------------------------------
// Configuration

const BUGS = new Set(
  (process.env.BUG ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s.length > 0),
);
const bug = (name: string): boolean => BUGS.has(name);

const LAGGING = process.env.VARIANT === 'lagging';

/** Per-user cap on stacks that count as active (CREATING, RUNNING, ERROR). */
const MAX_STACKS_PER_USER = 3;
/** Lifetime of a stack: terminationDate = createdAt + this. */
const STACK_LIFETIME_MS = 150 * 60 * 1000;
/** Provisioning takes a random time in this range (inclusive). */
const PROVISION_MIN_MS = 1000;
const PROVISION_MAX_MS = 4000;
/** After delete (or termination) a stack shows STOPPING for this long, then is gone. */
const STOPPING_MS = 2500;
/** Lagging variant: delay before a write becomes visible to reads. */
const LAG_MIN_MS = 300;
const LAG_MAX_MS = 1200;
/** Create bodies above this size are rejected as invalid. */
const MAX_BODY_BYTES = 16 * 1024;

interface Caller {
  user: string;
  allowed: boolean; // on the service's allow list
}

const API_KEYS: Record<string, Caller> = {
  'key-ann': { user: 'ann', allowed: true },
  'key-ben': { user: 'ben', allowed: true },
  // A genuine developer-portal key whose owner is not on the allow list.
  'key-zed': { user: 'zed', allowed: false },
};

interface PlatformVersion {
  buildVersion: string;
  releaseName: string;
  status: 'released' | 'unreleased';
}

// Deliberately includes 9.9.1 and 9.10.0 so that "latest" has to be decided
// numerically, not by string order. Listed newest first.
const VERSIONS: PlatformVersion[] = [
  { buildVersion: '10.0.0-beta.1', releaseName: 'Nimbus', status: 'unreleased' },
  { buildVersion: '9.11.0-rc.2', releaseName: 'Marlin', status: 'unreleased' },
  { buildVersion: '9.10.0', releaseName: 'Lodestar', status: 'released' },
  { buildVersion: '9.9.1', releaseName: 'Kestrel', status: 'released' },
  { buildVersion: '9.8.3', releaseName: 'Juniper', status: 'released' },
];

/** Builds of this version never come up: provisioning ends in ERROR. */
const FAILING_BUILD = '10.0.0-beta.1';

// ---------------------------------------------------------------------------
// Version ordering (semver-like: numeric core, a pre-release sorts below its release)

function compareVersions(a: string, b: string): number {
  const split = (v: string) => {
    const [core, pre] = v.split('-', 2) as [string, string | undefined];
    return { core: core.split('.').map((n) => Number(n)), pre };
  };
  const x = split(a);
  const y = split(b);
  for (let i = 0; i < Math.max(x.core.length, y.core.length); i++) {
    const d = (x.core[i] ?? 0) - (y.core[i] ?? 0);
    if (d !== 0) return d;
  }
  if (x.pre === undefined && y.pre === undefined) return 0;
  if (x.pre === undefined) return 1;
  if (y.pre === undefined) return -1;
  return x.pre < y.pre ? -1 : x.pre > y.pre ? 1 : 0;
}

function defaultVersion(): PlatformVersion {
  let candidates = VERSIONS.filter((v) => v.status === 'released');
  // BUG default-unreleased: the status filter was dropped when the list was
  // made "newest first", so the default is the newest build of any status.
  if (bug('default-unreleased')) candidates = VERSIONS.slice();
  return candidates.reduce((best, v) => (compareVersions(v.buildVersion, best.buildVersion) > 0 ? v : best));
}

// ---------------------------------------------------------------------------
// Store

type Phase = 'CREATING' | 'RUNNING' | 'STOPPING' | 'ERROR' | 'GONE';

interface Stack {
  id: string;
  owner: string;
  seq: number; // per-owner creation counter, also used in the name
  name: string;
  version: string;
  createdAt: number;
  readyAt: number; // end of provisioning
  outcome: 'RUNNING' | 'ERROR'; // state reached at readyAt
  terminationAt: number;
  deletedAt?: number;
  username: string;
  password: string;
  // Lagging variant: moments from which reads see the create / the delete.
  createVisibleAt: number;
  deleteVisibleAt?: number;
}

const stacks = new Map<string, Stack>();
const nameCounters = new Map<string, number>();

// Crockford-style lower-case base32, no i/l/o/u, so ids read unambiguously.
const ID_ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';
function newStackId(): string {
  let id: string;
  do {
    const bytes = randomBytes(10);
    id = 'st-' + Array.from(bytes, (b) => ID_ALPHABET[b & 31]).join('');
  } while (stacks.has(id));
  return id;
}

function newPassword(): string {
  return randomBytes(15).toString('base64url');
}

function lag(): number {
  return LAGGING ? randomInt(LAG_MIN_MS, LAG_MAX_MS + 1) : 0;
}

/**
 * Lifecycle state at `now`. The state is derived from timestamps, so
 * provisioning and termination need no timers. `honourDelete` lets the
 * lagging read view ignore a delete that is not visible yet.
 */
function phaseOf(s: Stack, now: number, honourDelete: boolean): Phase {
  const stopAt = Math.min(s.terminationAt, honourDelete && s.deletedAt !== undefined ? s.deletedAt : Infinity);
  if (now >= stopAt + STOPPING_MS) return 'GONE';
  if (now >= stopAt) return 'STOPPING';
  if (now < s.readyAt) return 'CREATING';
  return s.outcome;
}

/** State as writes see it: always the latest. */
function writePhase(s: Stack, now: number): Phase {
  return phaseOf(s, now, true);
}

/** State as list/get see it: in the lagging variant, writes arrive late. */
function readPhase(s: Stack, now: number): Phase {
  if (now < s.createVisibleAt) return 'GONE';
  const deleteSeen = s.deleteVisibleAt !== undefined && now >= s.deleteVisibleAt;
  return phaseOf(s, now, deleteSeen);
}

/** Active = counts against the limit and appears in the list. */
const isActive = (p: Phase): boolean => p === 'CREATING' || p === 'RUNNING' || p === 'ERROR';

// Drop records that no view can see any more.
setInterval(() => {
  const now = Date.now();
  for (const [id, s] of stacks) {
    if (writePhase(s, now) === 'GONE' && readPhase(s, now) === 'GONE' && now >= s.createVisibleAt) stacks.delete(id);
  }
}, 5000).unref();

// ---------------------------------------------------------------------------
// Representations

const iso = (ms: number): string => new Date(ms).toISOString();

function summary(s: Stack, phase: Phase): Record<string, unknown> {
  return {
    id: s.id,
    name: s.name,
    state: phase,
    createdAt: iso(s.createdAt),
    terminationDate: iso(s.terminationAt),
    platformVersion: s.version,
  };
}

function detail(s: Stack, phase: Phase): Record<string, unknown> {
  const body = summary(s, phase);
  // Login details exist only while the stack is up.
  if (phase === 'RUNNING') {
    body.stackAccessDetails = {
      url: `https://${s.id}.stacks.example.test/`,
      username: s.username,
      password: s.password,
    };
  }
  return body;
}

// ---------------------------------------------------------------------------
// HTTP helpers

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

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(text),
    'Cache-Control': 'no-store',
    ...headers,
  });
  res.end(text);
}

function sendError(res: ServerResponse, e: HttpError): void {
  sendJson(res, e.status, { code: e.code, message: e.message }, e.headers);
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooBig = false;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY_BYTES) tooBig = true;
      else chunks.push(c);
    });
    req.on('end', () =>
      tooBig
        ? reject(new HttpError(400, 'InvalidRequest', `request body exceeds ${MAX_BODY_BYTES} bytes`))
        : resolve(Buffer.concat(chunks)),
    );
    req.on('error', reject);
  });
}

/** Resolves the bearer key to a caller, or throws 401. */
function authenticate(req: IncomingMessage): Caller {
  const header = req.headers.authorization;
  const challenge = { 'WWW-Authenticate': 'Bearer realm="stacks"' };
  if (header === undefined || header.trim() === '') {
    throw new HttpError(401, 'Unauthorized', 'API key missing: send Authorization: Bearer <API_KEY>', challenge);
  }
  const m = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header);
  if (!m) {
    throw new HttpError(401, 'Unauthorized', 'API key missing: Authorization header is not a Bearer credential', challenge);
  }
  const caller = API_KEYS[m[1]!];
  if (!caller) throw new HttpError(401, 'Unauthorized', 'API key not recognised', challenge);
  return caller;
}

function requireAllowed(caller: Caller): void {
  if (!caller.allowed) {
    throw new HttpError(403, 'Forbidden', `user '${caller.user}' is not on the allow list for test stacks`);
  }
}

function notFound(id: string): HttpError {
  return new HttpError(404, 'NotFound', `stack '${id}' was not found`);
}

// ---------------------------------------------------------------------------
// Operations

async function createStack(req: IncomingMessage, res: ServerResponse, caller: Caller): Promise<void> {
  const raw = (await readBody(req)).toString('utf8');
  if (raw.trim() === '') throw new HttpError(400, 'InvalidRequest', 'request body is required (send {} for the defaults)');

  let body: unknown;
  if (bug('malformed-body-500')) {
    // BUG malformed-body-500: the parse is not guarded, so a syntax error
    // escapes to the generic handler and becomes a 500.
    body = JSON.parse(raw);
  } else {
    try {
      body = JSON.parse(raw);
    } catch {
      throw new HttpError(400, 'InvalidRequest', 'request body is not valid JSON');
    }
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new HttpError(400, 'InvalidRequest', 'request body must be a JSON object');
  }
  const fields = body as Record<string, unknown>;
  for (const key of Object.keys(fields)) {
    if (key !== 'platformVersion') throw new HttpError(400, 'InvalidRequest', `unknown field '${key}'`);
  }

  let version: PlatformVersion;
  if (!('platformVersion' in fields)) {
    version = defaultVersion();
  } else {
    const requested = fields.platformVersion;
    if (typeof requested !== 'string') {
      throw new HttpError(400, 'InvalidRequest', 'platformVersion must be a string');
    }
    const known = VERSIONS.find((v) => v.buildVersion === requested);
    if (known) {
      version = known;
    } else if (bug('unknown-version-fallback')) {
      // BUG unknown-version-fallback: an unrecognised build is treated like an
      // omitted one and silently provisions the default version.
      version = defaultVersion();
    } else {
      throw new HttpError(400, 'InvalidRequest', `unknown platform version '${requested}'`);
    }
  }

  const now = Date.now();
  // The limit is checked against the latest state, never the lagging view.
  const activeCount = [...stacks.values()].filter(
    (s) =>
      // BUG limit-global: the owner filter is missing, so every user's stacks
      // count against the caller's limit.
      (bug('limit-global') || s.owner === caller.user) && isActive(writePhase(s, now)),
  ).length;
  if (activeCount >= MAX_STACKS_PER_USER) {
    throw new HttpError(
      409,
      'MaxStacksLimitReached',
      `user '${caller.user}' already has ${MAX_STACKS_PER_USER} active stacks; delete one first`,
    );
  }

  const seq = (nameCounters.get(caller.user) ?? 0) + 1;
  nameCounters.set(caller.user, seq);
  const s: Stack = {
    id: newStackId(),
    owner: caller.user,
    seq,
    name: `${caller.user}-${version.releaseName.toLowerCase()}-${seq}`,
    version: version.buildVersion,
    createdAt: now,
    readyAt: now + randomInt(PROVISION_MIN_MS, PROVISION_MAX_MS + 1),
    outcome: version.buildVersion === FAILING_BUILD ? 'ERROR' : 'RUNNING',
    terminationAt: now + STACK_LIFETIME_MS,
    username: `${caller.user}-admin`,
    password: newPassword(),
    createVisibleAt: now + lag(),
  };
  stacks.set(s.id, s);

  const out = summary(s, writePhase(s, now));
  // BUG create-epoch-termination: the create response serialises the raw
  // epoch-millisecond number instead of the ISO-8601 string.
  if (bug('create-epoch-termination')) out.terminationDate = s.terminationAt;
  sendJson(res, 202, out, { Location: `/v1/stacks/${s.id}` });
}

function listStacks(res: ServerResponse, caller: Caller): void {
  const now = Date.now();
  const items = [...stacks.values()]
    .filter((s) => s.owner === caller.user)
    .map((s) => ({ s, p: readPhase(s, now) }))
    // BUG list-running-only: the list keeps only RUNNING stacks, so a stack
    // still provisioning (or failed) is missing from it.
    .filter(({ p }) => (bug('list-running-only') ? p === 'RUNNING' : isActive(p)))
    // Newest first; ties (same millisecond) broken by creation counter.
    .sort((a, b) => b.s.createdAt - a.s.createdAt || b.s.seq - a.s.seq)
    .map(({ s, p }) => summary(s, p));
  sendJson(res, 200, { stacks: items });
}

function listVersions(res: ServerResponse): void {
  sendJson(res, 200, { versions: VERSIONS.map((v) => ({ ...v })) });
}

function getStack(res: ServerResponse, caller: Caller, id: string): void {
  const now = Date.now();
  const s = stacks.get(id);
  // BUG get-any-owner: the ownership test was left out of get (delete has it),
  // so any allowed user can read another user's stack and its password.
  const mine = s !== undefined && (bug('get-any-owner') || s.owner === caller.user);
  if (!s || !mine) throw notFound(id);
  const p = readPhase(s, now);
  if (p === 'GONE') throw notFound(id);
  sendJson(res, 200, detail(s, p));
}

function deleteStack(res: ServerResponse, caller: Caller, id: string): void {
  const now = Date.now();
  const s = stacks.get(id);
  if (!s || s.owner !== caller.user) throw notFound(id);
  const p = writePhase(s, now);
  if (p === 'GONE') throw notFound(id);
  // Deleting a stack that is already stopping is accepted and changes nothing.
  if (s.deletedAt === undefined && p !== 'STOPPING') {
    s.deletedAt = now;
    s.deleteVisibleAt = now + lag();
  }
  if (bug('delete-200-body')) {
    // BUG delete-200-body: answers 200 with the stack's summary instead of
    // 204 with an empty body.
    sendJson(res, 200, summary(s, writePhase(s, now)));
    return;
  }
  res.writeHead(204);
  res.end();
}

// ---------------------------------------------------------------------------
// Routing

type Route = { kind: 'collection' } | { kind: 'versions' } | { kind: 'item'; id: string };

function route(pathname: string): Route | undefined {
  if (pathname === '/v1/stacks') return { kind: 'collection' };
  if (pathname === '/v1/stacks/versions') return { kind: 'versions' };
  const m = /^\/v1\/stacks\/([^/]+)$/.exec(pathname);
  if (m) {
    try {
      return { kind: 'item', id: decodeURIComponent(m[1]!) };
    } catch {
      return undefined;
    }
  }
  return undefined;
}

const ALLOWED_METHODS: Record<Route['kind'], string[]> = {
  collection: ['GET', 'POST'],
  versions: ['GET'],
  item: ['GET', 'DELETE'],
};

async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://localhost');
  const r = route(url.pathname);
  const method = req.method ?? 'GET';

  if (!r) {
    // Outside the API's paths: nothing to authenticate against.
    throw new HttpError(404, 'NotFound', `resource '${url.pathname}' was not found`);
  }

  // BUG versions-no-auth: the versions list was treated as public reference
  // data and is served before the credential is checked.
  if (bug('versions-no-auth') && r.kind === 'versions' && method === 'GET') {
    listVersions(res);
    return;
  }

  const caller = authenticate(req);
  // BUG allowlist-create-only: the allow-list check sits only on the create
  // path; other operations accept any authenticated key.
  const isCreate = r.kind === 'collection' && method === 'POST';
  if (!bug('allowlist-create-only') || isCreate) requireAllowed(caller);

  if (!ALLOWED_METHODS[r.kind].includes(method)) {
    throw new HttpError(405, 'MethodNotAllowed', `method ${method} is not allowed on ${url.pathname}`, {
      Allow: ALLOWED_METHODS[r.kind].join(', '),
    });
  }

  switch (r.kind) {
    case 'collection':
      if (method === 'POST') return createStack(req, res, caller);
      return listStacks(res, caller);
    case 'versions':
      return listVersions(res);
    case 'item':
      if (method === 'GET') return getStack(res, caller, r.id);
      return deleteStack(res, caller, r.id);
  }
}

const server = createServer((req, res) => {
  handle(req, res).catch((err: unknown) => {
    if (!(err instanceof HttpError)) {
      console.error(err);
      err = new HttpError(500, 'InternalServerError', 'internal failure');
    }
    if (res.headersSent) {
      res.destroy();
      return;
    }
    // Drain any unread body so the connection can be reused.
    req.resume();
    sendError(res, err as HttpError);
  });
});

const port = Number(process.env.PORT ?? 0) || 0;
server.listen(port, () => {
  const addr = server.address();
  const actual = typeof addr === 'object' && addr ? addr.port : port;
  console.log(`listening on ${actual}`);
});
