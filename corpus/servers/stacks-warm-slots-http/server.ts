// Short-lived test stack provisioning API — independent implementation.
// Node 20 built-ins only. Run: PORT=0 VARIANT=... BUG=... tsx server.ts
import * as http from 'node:http';
import { randomBytes, randomInt } from 'node:crypto';

const VARIANT = (process.env.VARIANT || '').trim();
const BUG = (process.env.BUG || '').trim();
const BUGS = new Set(
  BUG.split(',')
    .map((b) => b.trim())
    .filter(Boolean),
);
const bug = (name: string): boolean => BUGS.has(name);

// ---------------------------------------------------------------- config
const USERS: Record<string, { user: string; allowed: boolean }> = {
  'key-alice': { user: 'alice', allowed: true },
  'key-bob': { user: 'bob', allowed: true },
  'key-mallory': { user: 'mallory', allowed: false },
};

const MAX_STACKS_PER_USER = 3;
const LIFETIME_MS = (4 * 60 + 30) * 60 * 1000; // 4h30m
const LINGER_MS = 2500; // a deleted stack stays visible in STOPPING this long
const PROVISION_MIN_MS = 1500;
const PROVISION_MAX_MS = 3500;
const WARM_POOL_SIZE = 2;
const WARM_REFILL_MS = 6000;

interface Version {
  buildVersion: string;
  releaseName: string;
  status: 'released' | 'unreleased';
  failsProvisioning?: boolean;
}

// Listed ordered by release name (not by version number).
const VERSIONS: Version[] = [
  { buildVersion: '10.0.0-alpha1', releaseName: 'Aurora', status: 'unreleased', failsProvisioning: true },
  { buildVersion: '9.3.1', releaseName: 'Kestrel', status: 'released' },
  { buildVersion: '9.1.7', releaseName: 'Lumen', status: 'released' },
  { buildVersion: '9.2.4', releaseName: 'Nimbus', status: 'released' },
  { buildVersion: '9.4.0-rc2', releaseName: 'Pallas', status: 'unreleased' },
];

function cmpVersion(a: string, b: string): number {
  const pa = a.split('-')[0].split('.').map(Number);
  const pb = b.split('-')[0].split('.').map(Number);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] || 0) - (pb[i] || 0);
    if (d !== 0) return d;
  }
  const ra = a.includes('-'),
    rb = b.includes('-');
  if (ra !== rb) return ra ? -1 : 1; // pre-release sorts below the release
  return a < b ? -1 : a > b ? 1 : 0;
}

function defaultVersion(): Version {
  if (bug('default-version-unreleased')) {
    // BUG: picks the "highest" build string, ignoring status (and comparing as strings)
    return [...VERSIONS].sort((x, y) => (x.buildVersion < y.buildVersion ? 1 : -1))[0];
  }
  return VERSIONS.filter((v) => v.status === 'released').sort((x, y) => cmpVersion(y.buildVersion, x.buildVersion))[0];
}

// ---------------------------------------------------------------- state
type State = 'CREATING' | 'RUNNING' | 'STOPPING' | 'ERROR';

interface Stack {
  id: string;
  owner: string;
  name: string;
  version: string;
  fails: boolean;
  createdAt: number;
  provisionMs: number;
  terminationAt: number;
  visibleAt: number; // reads (lagging) see the stack only from here
  deletedAt?: number;
  deleteVisibleAt?: number; // reads (lagging) see the delete only from here
  username: string;
  password: string;
}

const stacks = new Map<string, Stack>();
const seqByUser = new Map<string, number>();
const warmPool: number[] = new Array(WARM_POOL_SIZE).fill(0); // readyAt per slot

function lag(): number {
  return VARIANT === 'lagging' ? randomInt(300, 1201) : 0;
}

const B32 = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
function newId(): string {
  let s = '';
  const b = randomBytes(10);
  for (const x of b) s += B32[x & 31];
  return `TS-${s.slice(0, 5)}-${s.slice(5)}`;
}

/**
 * State of a stack at `now`. consistent=true gives the write-side truth,
 * consistent=false gives what reads see (differs only in the lagging variant).
 * Returns null when the stack does not exist (from that point of view).
 */
function stateOf(s: Stack, now: number, consistent: boolean): State | null {
  if (!consistent && now < s.visibleAt) return null;
  let endAt: number | undefined;
  if (s.deletedAt !== undefined && (consistent || now >= (s.deleteVisibleAt ?? 0))) endAt = s.deletedAt;
  if (now >= s.terminationAt && (endAt === undefined || s.terminationAt < endAt)) endAt = s.terminationAt;
  if (endAt !== undefined) return now - endAt >= LINGER_MS ? null : 'STOPPING';
  if (now < s.createdAt + s.provisionMs) return 'CREATING';
  return s.fails ? 'ERROR' : 'RUNNING';
}

function countsTowardLimit(s: Stack, now: number): boolean {
  if (bug('limit-counts-deleted')) return true; // BUG: every stack ever created counts
  const st = stateOf(s, now, true);
  return st === 'CREATING' || st === 'RUNNING' || st === 'ERROR';
}

function summary(s: Stack, st: State, where: 'create' | 'list' | 'get'): Record<string, unknown> {
  const o: Record<string, unknown> = {
    id: s.id,
    name: s.name,
    state: st,
    // BUG created-at-not-iso: an HTTP-date instead of ISO-8601
    createdAt: bug('created-at-not-iso') ? new Date(s.createdAt).toUTCString() : new Date(s.createdAt).toISOString(),
    terminationDate: new Date(s.terminationAt).toISOString(),
    platformVersion: s.version,
  };
  // BUG: a failed stack is treated as never scheduled for termination
  if (st === 'ERROR' && bug('error-stack-no-termination')) delete o.terminationDate;
  if (where === 'create' && bug('create-missing-termination-date')) delete o.terminationDate;
  if (where === 'list' && bug('list-omits-platform-version')) delete o.platformVersion;
  return o;
}

function detail(s: Stack, st: State): Record<string, unknown> {
  const o = summary(s, st, 'get');
  // BUG get-created-at-now: the read time is reported as the creation time
  if (bug('get-created-at-now')) o.createdAt = new Date().toISOString();
  if (st === 'RUNNING') {
    const ad: Record<string, unknown> = {
      // BUG access-url-no-scheme: a bare host name instead of a URI
      url: bug('access-url-no-scheme')
        ? `${s.id.toLowerCase()}.stacks.test-platform.example`
        : `https://${s.id.toLowerCase()}.stacks.test-platform.example/`,
      username: s.username,
      password: s.password,
    };
    if (bug('access-details-missing-username')) delete ad.username;
    o.stackAccessDetails = ad;
  } else if (bug('get-null-access-details')) {
    o.stackAccessDetails = null; // BUG: null instead of leaving the field out
  }
  return o;
}

// ---------------------------------------------------------------- http helpers
function send(res: http.ServerResponse, status: number, body?: unknown, headers: Record<string, string> = {}): void {
  const finish = () => {
    if (body === undefined) {
      res.writeHead(status, headers);
      res.end();
      return;
    }
    const text = JSON.stringify(body);
    res.writeHead(status, {
      'Content-Type': 'application/json',
      'Content-Length': String(Buffer.byteLength(text)),
      ...headers,
    });
    res.end(text);
  };
  if (VARIANT === 'slow') setTimeout(finish, randomInt(150, 401));
  else finish();
}

function err(res: http.ServerResponse, status: number, code: string, message: string, headers?: Record<string, string>): void {
  send(res, status, { code, message }, headers);
}

function readBody(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > 256 * 1024) {
        reject(new Error('body too large'));
        req.destroy();
        return;
      }
      chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

type Caller = { user: string; allowed: boolean };
type AuthResult = { ok: true; caller: Caller } | { ok: false; reason: 'missing' | 'invalid' };

function authenticate(req: http.IncomingMessage): AuthResult {
  const h = req.headers['authorization'];
  if (!h?.trim()) return { ok: false, reason: 'missing' };
  const m = /^\s*bearer\s+(\S+)\s*$/i.exec(h);
  if (!m) return { ok: false, reason: 'invalid' };
  const u = USERS[m[1]];
  if (!u) return { ok: false, reason: 'invalid' };
  return { ok: true, caller: u };
}

// ---------------------------------------------------------------- handlers
async function createStack(req: http.IncomingMessage, res: http.ServerResponse, caller: Caller): Promise<void> {
  let raw: string;
  try {
    raw = await readBody(req);
  } catch {
    return err(res, 400, 'InvalidRequest', 'Request body could not be read or is too large.');
  }
  let body: unknown;
  if (bug('malformed-body-500')) {
    // BUG: parse errors escape to the generic error handler
    body = JSON.parse(raw);
  } else {
    if (!raw.trim()) return err(res, 400, 'InvalidRequest', 'A JSON request body is required (use {} for defaults).');
    try {
      body = JSON.parse(raw);
    } catch {
      return err(res, 400, 'InvalidRequest', 'Request body is not valid JSON.');
    }
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return err(res, 400, 'InvalidRequest', 'Request body must be a JSON object.');
  }
  if (bug('create-empty-object-400') && Object.keys(body).length === 0) {
    // BUG: `{}` is taken for a missing body
    return err(res, 400, 'InvalidRequest', 'Request body is empty.');
  }
  const pv = (body as Record<string, unknown>).platformVersion;
  let version: Version;
  // BUG empty-version-uses-default: a falsy test treats "" like an omitted field
  if (pv === undefined || (bug('empty-version-uses-default') && pv === '')) {
    version = defaultVersion();
  } else {
    if (typeof pv !== 'string') return err(res, 400, 'InvalidRequest', "Field 'platformVersion' must be a string.");
    const found = bug('version-match-ignores-suffix')
      ? // BUG: versions are compared without their pre-release suffix
        VERSIONS.find((v) => v.buildVersion.split('-')[0] === pv.split('-')[0])
      : VERSIONS.find((v) => v.buildVersion === pv);
    if (!found) {
      if (bug('unknown-version-accepted')) {
        // BUG: unknown versions are passed straight through to provisioning
        version = { buildVersion: pv, releaseName: 'custom', status: 'unreleased' };
      } else {
        if (bug('unknown-version-message-generic')) {
          // BUG: the message does not name the version
          return err(res, 400, 'InvalidRequest', 'Unknown platform version. See GET /v1/stacks/versions.');
        }
        return err(res, 400, 'InvalidRequest', `Unknown platform version '${pv}'. See GET /v1/stacks/versions.`);
      }
    } else version = found;
  }

  const now = Date.now();
  const counted = [...stacks.values()].filter((s) => (bug('limit-global') || s.owner === caller.user) && countsTowardLimit(s, now)).length;
  if (counted >= MAX_STACKS_PER_USER) {
    return err(
      res,
      bug('limit-returns-429') ? 429 : 409,
      'MaxStacksLimitReached',
      `Maximum of ${MAX_STACKS_PER_USER} active stacks per user reached.`,
    );
  }

  let provisionMs = randomInt(PROVISION_MIN_MS, PROVISION_MAX_MS + 1);
  if (version.buildVersion === defaultVersion().buildVersion || bug('warm-slot-ignores-version')) {
    const slot = warmPool.findIndex((readyAt) => readyAt <= now);
    if (slot >= 0) {
      provisionMs = 0; // served from the warm pool: already up
      warmPool[slot] = now + WARM_REFILL_MS;
      // BUG warm-slot-ignores-version: a warm (default-version) stack is handed out for any requested version
      if (bug('warm-slot-ignores-version')) version = defaultVersion();
    }
  }
  const seq = (seqByUser.get(caller.user) || 0) + 1;
  seqByUser.set(caller.user, seq);
  const s: Stack = {
    id: newId(),
    owner: caller.user,
    name: `${caller.user}-${version.releaseName.toLowerCase()}-${String(seq).padStart(3, '0')}`,
    version: version.buildVersion,
    fails: !!version.failsProvisioning,
    createdAt: now,
    provisionMs,
    terminationAt: now + LIFETIME_MS,
    visibleAt: now + lag(),
    username: `qa_${caller.user}_${seq}`,
    password: randomBytes(15).toString('base64url'),
  };
  stacks.set(s.id, s);
  const st = stateOf(s, now, true) as State;
  const created = summary(s, st, 'create');
  // BUG create-state-provisioning: an internal state name leaks into the create response
  if (bug('create-state-provisioning') && st === 'CREATING') created.state = 'PROVISIONING';
  send(res, bug('create-returns-201') ? 201 : 202, created, { Location: `/v1/stacks/${s.id}` });
}

function listStacks(res: http.ServerResponse, caller: Caller): void {
  const now = Date.now();
  let out: Record<string, unknown>[] = [];
  const all = [...stacks.values()].sort((a, b) => b.createdAt - a.createdAt || (a.id < b.id ? 1 : -1));
  for (const s of all) {
    if (!bug('list-shows-all-users') && s.owner !== caller.user) continue;
    let st = stateOf(s, now, false);
    if (!st && bug('list-keeps-gone-stacks') && now >= s.visibleAt) st = 'STOPPING'; // BUG: gone stacks stay listed
    if (!st) continue;
    if (bug('list-hides-creating') && st === 'CREATING') continue;
    out.push(summary(s, st, 'list'));
  }
  if (bug('list-skips-oldest')) {
    // BUG: off-by-one copy loop (i < length - 1) drops the last (oldest) entry
    const copy: Record<string, unknown>[] = [];
    for (let i = 0; i < out.length - 1; i++) copy.push(out[i]);
    out = copy;
  }
  send(res, 200, { stacks: out });
}

function findForCaller(id: string, caller: Caller, ignoreOwner: boolean): Stack | undefined {
  const s = stacks.get(id);
  if (!s) return undefined;
  if (!ignoreOwner && s.owner !== caller.user) return undefined;
  return s;
}

function notFound(res: http.ServerResponse, id: string): void {
  err(res, 404, 'NotFound', `Stack '${id}' was not found.`);
}

function getStack(res: http.ServerResponse, caller: Caller, id: string): void {
  const now = Date.now();
  const s = findForCaller(id, caller, bug('get-ignores-owner'));
  const st = s ? stateOf(s, now, false) : null;
  if (!s || !st) {
    notFound(res, id);
    return;
  }
  send(res, 200, detail(s, st));
}

function deleteStack(res: http.ServerResponse, caller: Caller, id: string): void {
  const now = Date.now();
  const s = findForCaller(id, caller, bug('delete-ignores-owner'));
  const st = s ? stateOf(s, now, true) : null;
  if (!s || !st) {
    if (bug('delete-missing-204')) {
      // BUG: delete treated as idempotent for stacks the caller does not have
      send(res, 204);
      return;
    }
    if (bug('delete-notfound-code')) {
      // BUG: a resource-specific code on delete only
      err(res, 404, 'StackNotFound', `Stack '${id}' was not found.`);
      return;
    }
    notFound(res, id);
    return;
  }
  if (s.deletedAt === undefined && now < s.terminationAt) {
    s.deletedAt = now;
    s.deleteVisibleAt = now + lag();
  }
  if (bug('delete-returns-200')) {
    // BUG: answers with the stopping stack instead of an empty 204
    send(res, 200, summary(s, stateOf(s, now, true) as State, 'get'));
    return;
  }
  send(res, 204);
}

function listVersions(res: http.ServerResponse): void {
  send(res, 200, {
    versions: VERSIONS.map((v) => ({
      buildVersion: v.buildVersion,
      releaseName: v.releaseName,
      // BUG versions-status-capitalized: display form of the status
      status: bug('versions-status-capitalized') ? v.status[0].toUpperCase() + v.status.slice(1) : v.status,
    })),
  });
}

// ---------------------------------------------------------------- routing
async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  const url = new URL(req.url || '/', 'http://localhost');
  let path = url.pathname;
  if (path.length > 1 && path.endsWith('/')) path = path.slice(0, -1);
  const method = (req.method || 'GET').toUpperCase();

  type Route = { op: 'create' | 'list' | 'versions' | 'get' | 'delete'; id?: string };
  let route: Route | null = null;
  let allow = '';
  if (path === '/v1/stacks') {
    allow = 'GET, POST';
    if (method === 'GET') route = { op: 'list' };
    else if (method === 'POST') route = { op: 'create' };
  } else if (path === '/v1/stacks/versions') {
    allow = 'GET';
    if (method === 'GET') route = { op: 'versions' };
  } else {
    const m = /^\/v1\/stacks\/([^/]+)$/.exec(path);
    if (m) {
      allow = 'GET, DELETE';
      let id = m[1];
      try {
        id = decodeURIComponent(id);
      } catch {
        /* keep raw */
      }
      if (method === 'GET') route = { op: 'get', id };
      else if (method === 'DELETE') route = { op: 'delete', id };
    }
  }
  if (!allow) return err(res, 404, 'NotFound', `Resource '${path}' was not found.`);

  const auth = authenticate(req);
  const skipAllowList = bug('versions-skips-allowlist') && route?.op === 'versions';
  if (!auth.ok) {
    if (bug('list-anonymous-empty') && route?.op === 'list' && auth.reason === 'missing') {
      return send(res, 200, { stacks: [] }); // BUG: an anonymous caller simply owns no stacks
    }
    if (bug('get-missing-key-403') && route?.op === 'get' && auth.reason === 'missing') {
      return err(res, 403, 'Forbidden', 'Access denied.');
    }
    return err(
      res,
      401,
      'Unauthorized',
      auth.reason === 'missing' ? "API key missing: send 'Authorization: Bearer <API_KEY>'." : 'API key is not valid.',
      { 'WWW-Authenticate': 'Bearer realm="stacks"' },
    );
  }
  if (!auth.caller.allowed && !skipAllowList) {
    if (bug('forbidden-empty-body')) return send(res, 403); // BUG: bare status, no ServiceError body
    return err(res, 403, 'Forbidden', `User '${auth.caller.user}' is not on the allow list for test stacks.`);
  }
  if (!route) return err(res, 405, 'MethodNotAllowed', `Method ${method} is not allowed on ${path}.`, { Allow: allow });

  switch (route.op) {
    case 'create':
      return createStack(req, res, auth.caller);
    case 'list':
      return listStacks(res, auth.caller);
    case 'versions':
      return listVersions(res);
    case 'get':
      return getStack(res, auth.caller, route.id!);
    case 'delete':
      return deleteStack(res, auth.caller, route.id!);
  }
}

// Periodically forget stacks that are long gone (except when a bug needs them).
setInterval(() => {
  if (bug('limit-counts-deleted') || bug('list-keeps-gone-stacks')) return;
  const now = Date.now();
  for (const [id, s] of stacks) {
    const end = Math.min(s.deletedAt ?? Infinity, s.terminationAt);
    if (now - end > LINGER_MS + 5000) stacks.delete(id);
  }
}, 10000).unref();

const server = http.createServer((req, res) => {
  handle(req, res).catch((e) => {
    if (!res.headersSent) err(res, 500, 'InternalServerError', 'Internal failure: ' + (e instanceof Error ? e.message : String(e)));
  });
});
server.keepAliveTimeout = 5000;
server.listen(Number(process.env.PORT || 0), () => {
  const addr = server.address();
  const port = typeof addr === 'object' && addr ? addr.port : 0;
  process.stdout.write(`listening on ${port}\n`);
});
