// Independent implementation of the Short-Lived Test Stack Provisioning API (/v1/stacks).
// Node 20 built-ins only. Run: PORT=0 npx tsx server.ts
import http from 'node:http';
import crypto from 'node:crypto';

// ---------------------------------------------------------------- switches
const BUGS = new Set(
  (process.env.BUG || '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean),
);
const VARIANT = (process.env.VARIANT || '').trim();
const bug = (name: string) => BUGS.has(name);

// ---------------------------------------------------------------- config
const KEYS: Record<string, { user: string; allowed: boolean }> = {
  'key-alice': { user: 'alice', allowed: true },
  'key-bob': { user: 'bob', allowed: true },
  'key-mallory': { user: 'mallory', allowed: false },
};

const MAX_STACKS_PER_USER = 3; // CREATING, RUNNING and ERROR stacks count; STOPPING do not
const STACK_LIFETIME_MS = 2 * 60 * 60 * 1000; // 2 hours
const STOPPING_MS = 2000; // a deleted stack stays STOPPING this long, then is gone

type VersionDef = {
  buildVersion: string;
  releaseName: string;
  status: 'released' | 'unreleased';
  provisionMs: number; // 0 = served from a warm pool, RUNNING at create
  outcome: 'RUNNING' | 'ERROR';
};

// Listed newest build first. The default is the newest *released* one (9.3.1).
const VERSIONS: VersionDef[] = [
  { buildVersion: '9.4.0-beta.2', releaseName: 'Lynx', status: 'unreleased', provisionMs: 1200, outcome: 'ERROR' },
  { buildVersion: '9.3.1', releaseName: 'Kestrel', status: 'released', provisionMs: 1500, outcome: 'RUNNING' },
  { buildVersion: '9.2.4', releaseName: 'Juniper', status: 'released', provisionMs: 0, outcome: 'RUNNING' },
  { buildVersion: '9.0.7', releaseName: 'Heron', status: 'released', provisionMs: 2500, outcome: 'RUNNING' },
];

function cmpBuild(a: string, b: string): number {
  // crude semver compare: numeric core, pre-release sorts before release
  const pa = a.split('-'),
    pb = b.split('-');
  const na = pa[0].split('.').map(Number),
    nb = pb[0].split('.').map(Number);
  for (let i = 0; i < Math.max(na.length, nb.length); i++) {
    const d = (na[i] || 0) - (nb[i] || 0);
    if (d) return d;
  }
  if (pa.length !== pb.length) return pa.length > pb.length ? -1 : 1;
  return 0;
}

function defaultVersion(): VersionDef {
  if (bug('default-unreleased')) return VERSIONS[0]; // "newest first" list head, ignores status
  return VERSIONS.filter((v) => v.status === 'released').sort((a, b) => cmpBuild(b.buildVersion, a.buildVersion))[0];
}

function findVersion(name: string): VersionDef | undefined {
  const exact = VERSIONS.find((v) => v.buildVersion === name);
  if (exact) return exact;
  if (bug('version-prefix-match') && name.length > 0) return VERSIONS.find((v) => v.buildVersion.startsWith(name));
  return undefined;
}

// ---------------------------------------------------------------- store
type Stack = {
  seq: number;
  id: string;
  name: string;
  owner: string;
  version: VersionDef;
  createdAt: number;
  terminationAt: number;
  deletedAt?: number;
  // lagging variant: reads ignore the create until visibleAt, and the delete until deleteVisibleAt
  visibleAt: number;
  deleteVisibleAt?: number;
  username: string;
  password: string;
};

const stacks = new Map<string, Stack>();
const nameCounters = new Map<string, number>();
let seq = 0;

const ALNUM = 'abcdefghijklmnopqrstuvwxyz0123456789';
function randStr(n: number, alphabet = ALNUM): string {
  const bytes = crypto.randomBytes(n);
  let s = '';
  for (let i = 0; i < n; i++) s += alphabet[bytes[i] % alphabet.length];
  return s;
}
function newId(): string {
  let id: string;
  do id = 'stk-' + randStr(12);
  while (stacks.has(id));
  return id;
}
function lagMs(): number {
  return VARIANT === 'lagging' ? 300 + Math.floor(Math.random() * 901) : 0;
}

type Phase = 'CREATING' | 'RUNNING' | 'ERROR' | 'STOPPING' | 'GONE';

// State of a stack at time t. `honourDelete` false = view before the delete (lagging reads).
function phaseAt(s: Stack, t: number, honourDelete: boolean): Phase {
  let end = s.terminationAt;
  if (honourDelete && s.deletedAt !== undefined) end = Math.min(end, s.deletedAt);
  if (t >= end) return t >= end + STOPPING_MS ? 'GONE' : 'STOPPING';
  if (t < s.createdAt + s.version.provisionMs) return 'CREATING';
  return s.version.outcome;
}
function truePhase(s: Stack, t = Date.now()): Phase {
  return phaseAt(s, t, true);
}
// What a read (list/get) sees. null = invisible.
function readPhase(s: Stack, t = Date.now()): Phase | null {
  if (t < s.visibleAt) return null;
  const honour = s.deleteVisibleAt === undefined || t >= s.deleteVisibleAt;
  const p = phaseAt(s, t, honour);
  return p === 'GONE' ? null : p;
}

function gc() {
  const t = Date.now();
  for (const [id, s] of stacks) {
    if (truePhase(s, t) === 'GONE' && readPhase(s, t) === null && t >= s.visibleAt) stacks.delete(id);
  }
}
setInterval(gc, 1000).unref();

function iso(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

function summary(s: Stack, phase: Phase): Record<string, unknown> {
  const out: Record<string, unknown> = {
    id: s.id,
    name: s.name,
    state: phase,
    createdAt: iso(s.createdAt),
    terminationDate: iso(s.terminationAt),
    platformVersion: s.version.buildVersion,
  };
  if (bug('termination-after-running') && phase === 'CREATING') out.terminationDate = null;
  return out;
}

function detail(s: Stack, phase: Phase): Record<string, unknown> {
  const out = summary(s, phase);
  if (bug('error-state-failed') && phase === 'ERROR') out.state = 'FAILED';
  if (phase === 'RUNNING') {
    out.stackAccessDetails = {
      url: `https://${s.id}.stacks.example.net/`,
      username: s.username,
      password: s.password,
    };
  }
  return out;
}

// ---------------------------------------------------------------- http helpers
class HttpError extends Error {
  constructor(
    public status: number,
    public code: string,
    message: string,
    public headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

type Reply = { status: number; body?: unknown; headers?: Record<string, string> };

function errReply(e: HttpError): Reply {
  let body: unknown = { code: e.code, message: e.message };
  if (e.status === 401 && bug('gateway-401-body')) body = { message: 'Unauthorized' };
  return { status: e.status, body, headers: e.headers };
}

const MAX_BODY = 64 * 1024;
function readBody(req: http.IncomingMessage): Promise<{ text: string; tooLarge: boolean }> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY) tooLarge = true;
      else chunks.push(c);
    });
    req.on('end', () => resolve({ text: Buffer.concat(chunks).toString('utf8'), tooLarge }));
    req.on('error', () => resolve({ text: '', tooLarge: true }));
  });
}

function authenticate(req: http.IncomingMessage): { user: string; allowed: boolean } {
  const h = req.headers['authorization'];
  if (typeof h !== 'string' || h.trim() === '')
    throw new HttpError(401, 'Unauthorized', "Missing API key: send 'Authorization: Bearer <API_KEY>'", { 'WWW-Authenticate': 'Bearer' });
  const m = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(h.trim());
  if (!m) throw new HttpError(401, 'Unauthorized', 'Authorization header must use the Bearer scheme', { 'WWW-Authenticate': 'Bearer' });
  const k = KEYS[m[1]];
  if (!k) throw new HttpError(401, 'Unauthorized', 'Invalid API key', { 'WWW-Authenticate': 'Bearer error="invalid_token"' });
  return k;
}

function requireAllowed(who: { user: string; allowed: boolean }) {
  if (!who.allowed) throw new HttpError(403, 'Forbidden', `User '${who.user}' is not on the allow list for test stacks`);
}

function notFound(id: string): HttpError {
  return new HttpError(404, 'NotFound', `Stack '${id}' was not found`);
}

// ---------------------------------------------------------------- handlers
async function createStack(req: http.IncomingMessage, user: string): Promise<Reply> {
  const { text, tooLarge } = await readBody(req);
  if (tooLarge) throw new HttpError(400, 'InvalidRequest', 'Request body too large');
  let body: unknown;
  if (text.trim() === '') {
    if (!bug('null-body-defaults')) throw new HttpError(400, 'InvalidRequest', 'A JSON request body is required (use {} for defaults)');
    body = {};
  } else {
    try {
      body = JSON.parse(text);
    } catch {
      throw new HttpError(400, 'InvalidRequest', 'Request body is not valid JSON');
    }
    if (body === null && bug('null-body-defaults')) body = {};
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw new HttpError(400, 'InvalidRequest', 'Request body must be a JSON object');
  const pv = (body as Record<string, unknown>).platformVersion;
  let version: VersionDef;
  if (pv === undefined) {
    version = defaultVersion();
  } else if (typeof pv !== 'string') {
    throw new HttpError(400, 'InvalidRequest', "Field 'platformVersion' must be a string");
  } else {
    const v = findVersion(pv);
    // BUG unknown-version-404: an unknown platformVersion is reported as a missing resource (404 NotFound) instead of 400 InvalidRequest
    if (!v && bug('unknown-version-404')) throw new HttpError(404, 'NotFound', `Platform version '${pv}' was not found`);
    if (!v) throw new HttpError(400, 'InvalidRequest', `Unknown platform version '${pv}'`);
    version = v;
  }

  const now = Date.now();
  let count = 0;
  for (const s of stacks.values()) {
    if (!bug('limit-shared') && s.owner !== user) continue;
    const p = truePhase(s, now);
    if (p === 'CREATING' || p === 'RUNNING' || p === 'ERROR') count++;
  }
  // BUG limit-429: the per-user limit is answered like a rate limit, 429 instead of 409 (code unchanged)
  if (count >= MAX_STACKS_PER_USER && bug('limit-429'))
    throw new HttpError(429, 'MaxStacksLimitReached', `Maximum number of stacks (${MAX_STACKS_PER_USER}) reached; delete a stack first`);
  if (count >= MAX_STACKS_PER_USER)
    throw new HttpError(409, 'MaxStacksLimitReached', `Maximum number of stacks (${MAX_STACKS_PER_USER}) reached; delete a stack first`);

  const n = (nameCounters.get(user) || 0) + 1;
  nameCounters.set(user, n);
  const s: Stack = {
    seq: ++seq,
    id: newId(),
    name: `${user}-${version.releaseName.toLowerCase()}-${n}`,
    owner: user,
    version,
    createdAt: now,
    terminationAt: now + STACK_LIFETIME_MS,
    visibleAt: now + lagMs(),
    username: 'admin',
    password: randStr(20, 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnpqrstuvwxyz23456789'),
  };
  stacks.set(s.id, s);
  const phase = truePhase(s, now);
  // BUG create-201-running: a stack that is already RUNNING (warm pool) is answered 201 Created instead of 202
  if (bug('create-201-running') && phase === 'RUNNING')
    return { status: 201, body: summary(s, phase), headers: { Location: `/v1/stacks/${s.id}` } };
  return { status: 202, body: summary(s, phase), headers: { Location: `/v1/stacks/${s.id}` } };
}

function listStacks(user: string): Reply {
  const now = Date.now();
  const out: Record<string, unknown>[] = [];
  const mine = [...stacks.values()].filter((s) => s.owner === user).sort((a, b) => b.seq - a.seq); // newest first
  const visible: [Stack, Phase][] = [];
  for (const s of mine) {
    const p = readPhase(s, now);
    if (p) visible.push([s, p]);
  }
  // BUG list-drops-oldest: off-by-one loop bound, the last (oldest) visible stack of the caller is never listed
  const n = bug('list-drops-oldest') ? visible.length - 1 : visible.length;
  for (let i = 0; i < n; i++) out.push(summary(visible[i][0], visible[i][1]));
  return { status: 200, body: { stacks: out } };
}

function listVersions(): Reply {
  return {
    status: 200,
    body: {
      versions: VERSIONS.map((v) => ({
        buildVersion: v.buildVersion,
        releaseName: v.releaseName,
        // BUG versions-status-prerelease: status derived from the semver suffix, so pre-release builds say "prerelease"
        status: bug('versions-status-prerelease') && v.buildVersion.includes('-') ? 'prerelease' : v.status,
      })),
    },
  };
}

function getStack(user: string, id: string): Reply {
  const s = stacks.get(id);
  const p = s ? readPhase(s) : null;
  if (!s || !p) throw notFound(id);
  if (s.owner !== user) {
    if (bug('get-foreign-403')) throw new HttpError(403, 'Forbidden', `You do not have access to stack '${id}'`);
    throw notFound(id);
  }
  const body = detail(s, p);
  // BUG get-createdat-epoch: get returns createdAt as raw epoch milliseconds (a number), not an ISO-8601 string
  if (bug('get-createdat-epoch')) body.createdAt = s.createdAt;
  return { status: 200, body };
}

function deleteStack(user: string, id: string): Reply {
  const s = stacks.get(id);
  const now = Date.now();
  // BUG delete-notfound-code: the delete path uses its own 404 code "StackNotFound" instead of "NotFound"
  const missing = () => (bug('delete-notfound-code') ? new HttpError(404, 'StackNotFound', `Stack '${id}' was not found`) : notFound(id));
  if (!s || truePhase(s, now) === 'GONE') throw missing();
  if (s.owner !== user && !bug('delete-any-owner')) throw missing();
  if (s.deletedAt === undefined && truePhase(s, now) !== 'STOPPING') {
    s.deletedAt = now;
    s.deleteVisibleAt = now + lagMs();
  }
  return { status: 204 };
}

// ---------------------------------------------------------------- router
async function route(req: http.IncomingMessage): Promise<Reply> {
  const method = (req.method || 'GET').toUpperCase();
  const path = (req.url || '/').split('?')[0];
  // BUG versions-no-auth: optional auth on the versions list; with no Authorization header at all it is served (200)
  if (bug('versions-no-auth') && path === '/v1/stacks/versions' && method === 'GET' && req.headers['authorization'] === undefined)
    return listVersions();
  const who = authenticate(req);

  const allow = (methods: string) =>
    new HttpError(405, 'MethodNotAllowed', `Method ${method} is not allowed on ${path}`, { Allow: methods });

  if (path === '/v1/stacks/versions' && method !== 'DELETE') {
    // DELETE /v1/stacks/versions falls through to deleteStack: no stack has that id -> 404
    if (!bug('versions-skip-allowlist')) requireAllowed(who);
    if (method !== 'GET') throw allow('GET');
    return listVersions();
  }
  requireAllowed(who);
  if (path === '/v1/stacks') {
    if (method === 'POST') return createStack(req, who.user);
    if (method === 'GET') return listStacks(who.user);
    throw allow('GET, POST');
  }
  const m = /^\/v1\/stacks\/([^/]+)$/.exec(path);
  if (m) {
    let id: string;
    try {
      id = decodeURIComponent(m[1]);
    } catch {
      throw notFound(m[1]);
    }
    if (method === 'GET') return getStack(who.user, id);
    if (method === 'DELETE') return deleteStack(who.user, id);
    throw allow('GET, DELETE');
  }
  throw new HttpError(404, 'NotFound', `Resource '${path}' was not found`);
}

function send(res: http.ServerResponse, r: Reply) {
  if (res.headersSent || res.destroyed) return;
  const headers: Record<string, string> = { ...(r.headers || {}) };
  if (r.status === 204 || r.body === undefined) {
    res.writeHead(r.status, headers);
    res.end();
    return;
  }
  const text = JSON.stringify(r.body);
  headers['Content-Type'] = 'application/json';
  headers['Content-Length'] = String(Buffer.byteLength(text));
  res.writeHead(r.status, headers);
  res.end(text);
}

const server = http.createServer(async (req, res) => {
  let reply: Reply;
  try {
    reply = await route(req);
  } catch (e) {
    if (e instanceof HttpError) reply = errReply(e);
    else {
      console.error(e);
      reply = { status: 500, body: { code: 'InternalServerError', message: 'Internal server error' } };
    }
  }
  // drain any unread body so keep-alive connections stay healthy
  req.resume();
  if (VARIANT === 'slow') await new Promise((r) => setTimeout(r, 150 + Math.floor(Math.random() * 251)));
  send(res, reply);
});
server.on('clientError', (_err, socket) => {
  try {
    socket.end(
      'HTTP/1.1 400 Bad Request\r\nContent-Type: application/json\r\nConnection: close\r\n\r\n' +
        JSON.stringify({ code: 'InvalidRequest', message: 'Malformed HTTP request' }),
    );
  } catch {}
});

server.listen(Number(process.env.PORT || 0), () => {
  const addr = server.address();
  const port = typeof addr === 'object' && addr ? addr.port : 0;
  process.stdout.write(`listening on ${port}\n`);
});
