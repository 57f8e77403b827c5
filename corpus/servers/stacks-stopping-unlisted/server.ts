// Short-Lived Test Stack Provisioning API — independent implementation.
// Single process, in-memory state, Node built-ins only.
import http from 'node:http';
import crypto from 'node:crypto';

type StackState = 'CREATING' | 'RUNNING' | 'STOPPING' | 'ERROR';

interface PlatformVersion {
  buildVersion: string;
  releaseName: string;
  status: 'released' | 'unreleased';
  releaseDate: string | null; // extra field
  failsProvisioning?: boolean; // internal
}

interface Stack {
  id: string;
  owner: string;
  name: string;
  state: StackState;
  createdAt: Date;
  terminationDate: Date;
  platformVersion: string;
  region: string; // extra field
  access: { url: string; username: string; password: string };
  timers: NodeJS.Timeout[];
}

const PORT = Number(process.env.PORT || 4600);
const MAX_STACKS_PER_USER = 3;
const STACK_LIFETIME_MS = Number(process.env.STACK_LIFETIME_SECONDS || 5400) * 1000; // 90 min default
const MAX_BODY_BYTES = 64 * 1024;

// key -> user. allowListed=false means authenticated but not on the allow list.
const API_KEYS: Record<string, { user: string; allowListed: boolean }> = {
  'key-alice': { user: 'alice', allowListed: true },
  'key-bob': { user: 'bob', allowListed: true },
  'key-mallory': { user: 'mallory', allowListed: false },
};

// Deliberately not sorted by version; the default is the newest *released* one (9.4.2),
// which is neither the first nor the last element.
const VERSIONS: PlatformVersion[] = [
  { buildVersion: '9.3.7', releaseName: 'Hawthorn', status: 'released', releaseDate: '2024-11-05' },
  { buildVersion: '10.0.0-rc2', releaseName: 'Ironwood', status: 'unreleased', releaseDate: null },
  { buildVersion: '9.4.2', releaseName: 'Hawthorn', status: 'released', releaseDate: '2025-02-18' },
  { buildVersion: '9.2.11', releaseName: 'Gingko', status: 'released', releaseDate: '2024-06-21' },
  { buildVersion: '10.1.0-nightly', releaseName: 'Juniper', status: 'unreleased', releaseDate: null, failsProvisioning: true },
];

function cmpVersion(a: string, b: string): number {
  const pa = a.split(/[.-]/),
    pb = b.split(/[.-]/);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const x = pa[i] ?? '',
      y = pb[i] ?? '';
    const nx = Number(x),
      ny = Number(y);
    if (!Number.isNaN(nx) && !Number.isNaN(ny) && x !== '' && y !== '') {
      if (nx !== ny) return nx - ny;
    } else if (x !== y) return x < y ? -1 : 1;
  }
  return 0;
}
// A documented bug to switch on, by name (see manifest.json); none by default.
const BUG = process.env.BUG ?? '';
const DEFAULT_VERSION = VERSIONS.filter((v) => BUG === 'default-newest-any' || v.status === 'released').sort((a, b) =>
  cmpVersion(b.buildVersion, a.buildVersion),
)[0];

const stacks = new Map<string, Stack>();
const perUserSeq = new Map<string, number>();

// ---------- helpers ----------
function isoNoMillis(d: Date): string {
  // ISO-8601 with explicit +00:00 offset and second precision
  return d.toISOString().replace(/\.\d{3}Z$/, '+00:00');
}

function newStackId(): string {
  const alphabet = '0123456789abcdefghjkmnpqrstvwxyz';
  const bytes = crypto.randomBytes(12);
  let s = '';
  for (const b of bytes) s += alphabet[b % 32];
  return `ts-${s}`;
}

function summary(s: Stack) {
  return {
    id: s.id,
    name: s.name,
    state: s.state,
    createdAt: isoNoMillis(s.createdAt),
    terminationDate: isoNoMillis(s.terminationDate),
    platformVersion: s.platformVersion,
    region: s.region,
  };
}

function detail(s: Stack) {
  const d: Record<string, unknown> = summary(s);
  if (s.state === 'RUNNING') d.stackAccessDetails = { ...s.access };
  return d;
}

// Every answer carries the id of its request, kept beside the response it belongs to.
const requestIds = new WeakMap<http.ServerResponse, string>();

function send(res: http.ServerResponse, status: number, body?: unknown, headers: Record<string, string> = {}) {
  const reqId = requestIds.get(res) ?? '';
  const h: Record<string, string> = { 'X-Request-Id': reqId, 'Cache-Control': 'no-store', ...headers };
  if (body === undefined) {
    res.writeHead(status, h);
    res.end();
    return;
  }
  const text = JSON.stringify(body);
  h['Content-Type'] = 'application/json; charset=utf-8';
  h['Content-Length'] = String(Buffer.byteLength(text));
  res.writeHead(status, h);
  res.end(text);
}

function sendError(res: http.ServerResponse, status: number, code: string, message: string, headers: Record<string, string> = {}) {
  send(res, status, { code, message, requestId: requestIds.get(res) }, headers);
}

function clearTimers(s: Stack) {
  for (const t of s.timers) clearTimeout(t);
  s.timers = [];
}

function removeStack(s: Stack) {
  clearTimers(s);
  stacks.delete(s.id);
}

function schedule(s: Stack, ms: number, fn: () => void) {
  const t = setTimeout(fn, ms);
  t.unref?.();
  s.timers.push(t);
}

function scheduleTermination(s: Stack) {
  schedule(s, Math.max(0, s.terminationDate.getTime() - Date.now()), () => beginStopping(s));
}

function beginStopping(s: Stack) {
  if (!stacks.has(s.id) || s.state === 'STOPPING') return;
  clearTimers(s);
  s.state = 'STOPPING';
  // tear-down takes 1.2-2.0 s, after which the stack is gone (404)
  schedule(s, 1200 + Math.floor(Math.random() * 800), () => removeStack(s));
}

// Stacks in STOPPING are not "active": hidden from list, don't count toward the limit,
// but still readable via get until tear-down completes.
function activeStacksOf(user: string): Stack[] {
  return (
    [...stacks.values()]
      .filter((s) => s.owner === user && s.state !== 'STOPPING')
      // newest first
      .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (b.id < a.id ? -1 : 1))
  );
}

function readBody(req: http.IncomingMessage): Promise<{ ok: true; text: string } | { ok: false; tooLarge: true }> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY_BYTES) tooLarge = true;
      else chunks.push(c);
    });
    req.on('end', () =>
      tooLarge ? resolve({ ok: false, tooLarge: true }) : resolve({ ok: true, text: Buffer.concat(chunks).toString('utf8') }),
    );
    req.on('error', reject);
  });
}

type Auth = { kind: 'ok'; user: string } | { kind: 'missing' } | { kind: 'unknown' } | { kind: 'forbidden'; user: string };

function authenticate(req: http.IncomingMessage): Auth {
  const h = req.headers['authorization'];
  if (typeof h !== 'string' || h.trim() === '') return { kind: 'missing' };
  const m = /^\s*bearer\s+(\S+)\s*$/i.exec(h);
  if (!m) return { kind: 'missing' }; // no bearer token present
  const entry = API_KEYS[m[1]];
  if (!entry) return { kind: 'unknown' };
  if (!entry.allowListed) return { kind: 'forbidden', user: entry.user };
  return { kind: 'ok', user: entry.user };
}

// ---------- handlers ----------
async function handleCreate(req: http.IncomingMessage, res: http.ServerResponse, user: string) {
  const body = await readBody(req);
  if (!body.ok) return sendError(res, 413, 'PayloadTooLarge', `Request body exceeds ${MAX_BODY_BYTES} bytes`);
  if (body.text.trim() === '') return sendError(res, 400, 'InvalidRequest', 'Request body is required and must be a JSON object');
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.text);
  } catch {
    return sendError(res, 400, 'InvalidRequest', 'Request body is not valid JSON');
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    return sendError(res, 400, 'InvalidRequest', 'Request body must be a JSON object');
  }
  const obj = parsed as Record<string, unknown>;
  let version = DEFAULT_VERSION;
  if (Object.hasOwn(obj, 'platformVersion')) {
    const pv = obj.platformVersion;
    if (typeof pv !== 'string') {
      return sendError(res, 400, 'InvalidRequest', "Field 'platformVersion' must be a string");
    }
    const found = VERSIONS.find((v) => v.buildVersion === pv);
    if (!found) {
      return sendError(res, 400, 'InvalidRequest', `Unknown platform version '${pv}'`);
    }
    version = found;
  }
  if (activeStacksOf(user).length >= MAX_STACKS_PER_USER) {
    return sendError(
      res,
      409,
      BUG === 'limit-own-code' ? 'StackQuotaExceeded' : 'MaxStacksLimitReached',
      `Maximum number of stacks (${MAX_STACKS_PER_USER}) reached for this user`,
    );
  }
  const seq = (perUserSeq.get(user) ?? 0) + 1;
  perUserSeq.set(user, seq);
  const id = newStackId();
  const now = new Date();
  const s: Stack = {
    id,
    owner: user,
    name: `${version.releaseName.toLowerCase()}-${user}-${seq}`,
    state: 'CREATING',
    createdAt: now,
    terminationDate: new Date(now.getTime() + STACK_LIFETIME_MS),
    platformVersion: version.buildVersion,
    region: 'eu-north-1',
    access: {
      url: `https://${id}.stacks.example.test/`,
      username: `admin-${user}`,
      password: crypto.randomBytes(12).toString('base64url'),
    },
    timers: [],
  };
  stacks.set(id, s);
  // provisioning takes 1.5-2.5 s
  schedule(s, 1500 + Math.floor(Math.random() * 1000), () => {
    if (s.state !== 'CREATING') return;
    s.state = version.failsProvisioning ? 'ERROR' : 'RUNNING';
  });
  scheduleTermination(s);
  send(res, 202, summary(s), { Location: `/v1/stacks/${encodeURIComponent(id)}` });
}

function handleList(res: http.ServerResponse, user: string) {
  send(res, 200, { stacks: activeStacksOf(user).map(summary) });
}

function handleVersions(res: http.ServerResponse) {
  send(res, 200, {
    versions: VERSIONS.map((v) => ({
      buildVersion: v.buildVersion,
      releaseName: v.releaseName,
      status: v.status,
      releaseDate: v.releaseDate,
    })),
  });
}

function findOwned(user: string, id: string): Stack | undefined {
  const s = stacks.get(id);
  return s && s.owner === user ? s : undefined;
}

function handleGet(res: http.ServerResponse, user: string, id: string) {
  const s = BUG === 'get-any-owner' ? stacks.get(id) : findOwned(user, id);
  if (!s) return sendError(res, 404, 'NotFound', `Stack '${id}' was not found`);
  send(res, 200, detail(s));
}

function handleDelete(res: http.ServerResponse, user: string, id: string) {
  const s = findOwned(user, id);
  if (!s) return sendError(res, 404, 'NotFound', `Stack '${id}' was not found`);
  beginStopping(s); // no-op if already STOPPING
  send(res, 204);
}

// ---------- routing ----------
type Route = { kind: 'collection' } | { kind: 'versions' } | { kind: 'item'; id: string } | null;

function route(pathname: string): Route {
  let p = pathname;
  if (p.length > 1 && p.endsWith('/')) p = p.slice(0, -1);
  if (p === '/v1/stacks') return { kind: 'collection' };
  if (p === '/v1/stacks/versions') return { kind: 'versions' };
  const m = /^\/v1\/stacks\/([^/]+)$/.exec(p);
  if (m) {
    let id: string;
    try {
      id = decodeURIComponent(m[1]);
    } catch {
      id = m[1];
    }
    return { kind: 'item', id };
  }
  return null;
}

const ALLOWED: Record<string, string[]> = {
  collection: ['GET', 'POST'],
  versions: ['GET'],
  item: ['GET', 'DELETE'],
};

const server = http.createServer(async (req, res) => {
  requestIds.set(res, crypto.randomUUID());
  try {
    let pathname = '/';
    try {
      pathname = new URL(req.url || '/', 'http://localhost').pathname;
    } catch {
      return sendError(res, 400, 'InvalidRequest', 'Malformed request URL');
    }
    const r = route(pathname);
    if (!r) {
      req.resume();
      return sendError(res, 404, 'NotFound', `No resource at '${pathname}' was found`);
    }
    const method = (req.method || 'GET').toUpperCase();
    const allowed = ALLOWED[r.kind];
    if (!allowed.includes(method)) {
      req.resume();
      return sendError(res, 405, 'MethodNotAllowed', `Method ${method} is not allowed on this resource`, { Allow: allowed.join(', ') });
    }
    const auth = authenticate(req);
    if (auth.kind !== 'ok') {
      req.resume();
      if (auth.kind === 'missing')
        return sendError(res, 401, 'Unauthorized', 'A bearer API key is required', { 'WWW-Authenticate': 'Bearer realm="stacks"' });
      if (auth.kind === 'unknown')
        return sendError(res, 401, 'InvalidApiKey', 'The API key is not recognised', {
          'WWW-Authenticate': 'Bearer realm="stacks", error="invalid_token"',
        });
      return sendError(res, 403, 'Forbidden', `User '${auth.user}' is not on the allow list for this service`);
    }
    const user = auth.user;
    if (r.kind === 'collection') {
      if (method === 'POST') return await handleCreate(req, res, user);
      req.resume();
      return handleList(res, user);
    }
    req.resume();
    if (r.kind === 'versions') return handleVersions(res);
    if (method === 'GET') return handleGet(res, user, r.id);
    return handleDelete(res, user, r.id);
  } catch (err) {
    console.error(err);
    if (!res.headersSent) sendError(res, 500, 'InternalServerError', 'An internal error occurred');
    else res.destroy();
  }
});

server.on('clientError', (_err, socket) => {
  if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
  else socket.destroy();
});

server.listen(PORT, '127.0.0.1', () => {
  console.log(`listening on ${PORT}`);
});
