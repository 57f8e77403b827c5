// Short-Lived Test Stack Provisioning API — in-memory implementation.
// Node 20, ESM, built-ins only. Start: PORT=8080 node server.mjs
import http from 'node:http';
import crypto from 'node:crypto';

// ---------------------------------------------------------------------------
// Configuration
// ---------------------------------------------------------------------------
const PORT = Number.parseInt(process.env.PORT ?? '8080', 10);
const BUGS = new Set(
  String(process.env.BUG ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean),
);
const bug = (name) => BUGS.has(name);

// API keys -> user. `allowed` = on the service allow list.
const API_KEYS = new Map([
  ['sk_live_alpha01', { user: 'alpha', allowed: true }],
  ['sk_live_beta02', { user: 'beta', allowed: true }],
  ['sk_live_gamma03', { user: 'gamma', allowed: false }],
]);

const MAX_ACTIVE_STACKS = 3;
const STACK_LIFETIME_MS = 2 * 60 * 60 * 1000; // terminationDate = createdAt + 2h
const STOPPING_VISIBLE_MS = 1500; // deleted stack readable (STOPPING) this long
const RATE_LIMIT = 25; // requests per second per API key
const MAX_BODY_BYTES = 64 * 1024;

// Oldest first; mixes released/unreleased; last entry is unreleased.
const VERSIONS = [
  { buildVersion: '9.2.4-b2231', releaseName: 'Juniper', status: 'released' },
  { buildVersion: '9.3.0-b2410', releaseName: 'Kestrel', status: 'unreleased' },
  { buildVersion: '9.3.1-b2502', releaseName: 'Lantern', status: 'released' },
  { buildVersion: '10.0.0-b3001', releaseName: 'Meridian', status: 'unreleased' },
];
const LATEST_RELEASED = [...VERSIONS].reverse().find((v) => v.status === 'released').buildVersion;

const ADJECTIVES = [
  'amber',
  'brisk',
  'cobalt',
  'dusky',
  'ember',
  'frosty',
  'gilded',
  'hazel',
  'ivory',
  'jade',
  'lunar',
  'misty',
  'nimble',
  'opal',
  'quiet',
  'russet',
  'silver',
  'tawny',
  'velvet',
  'woven',
];
const ANIMALS = [
  'falcon',
  'badger',
  'heron',
  'lynx',
  'otter',
  'marten',
  'osprey',
  'ibex',
  'gecko',
  'kestrel',
  'puffin',
  'raven',
  'stoat',
  'tapir',
  'vole',
  'wombat',
  'yak',
  'zebu',
  'newt',
  'crane',
];

// ---------------------------------------------------------------------------
// State
// ---------------------------------------------------------------------------
/** @type {Map<string, any>} id -> stack record */
const stacks = new Map();
let seq = 0;
/** @type {Map<string, number[]>} api key -> timestamps of accepted requests (last second) */
const rateWindows = new Map();

// ---------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------
const ts = (ms) => new Date(ms).toISOString().replace(/Z$/, '+00:00');

function randomBase36(n) {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789';
  const bytes = crypto.randomBytes(n);
  let out = '';
  for (let i = 0; i < n; i++) out += alphabet[bytes[i] % 36];
  return out;
}

function newStackId() {
  let id;
  do id = 'stk-' + randomBase36(10);
  while (stacks.has(id));
  return id;
}

function newStackName() {
  const used = new Set([...stacks.values()].map((s) => s.name));
  for (let i = 0; i < 1000; i++) {
    const a = ADJECTIVES[crypto.randomInt(ADJECTIVES.length)];
    const b = ANIMALS[crypto.randomInt(ANIMALS.length)];
    const n = crypto.randomInt(1, 100);
    const name = `stack-${a}-${b}-${n}`;
    if (!used.has(name)) return name;
  }
  return `stack-${randomBase36(6)}`;
}

function newRequestId() {
  return 'rq_' + crypto.randomBytes(9).toString('hex');
}

// Current lifecycle phase of a stack, derived lazily from its timestamps.
// Returns 'GONE' when the stack no longer exists.
function phaseOf(s, now = Date.now()) {
  if (s.deletedAt !== null) {
    return now - s.deletedAt < STOPPING_VISIBLE_MS ? 'STOPPING' : 'GONE';
  }
  if (now >= s.terminationMs) return 'GONE';
  if (now < s.readyAt) return 'CREATING';
  return 'RUNNING';
}

function sweep(now = Date.now()) {
  for (const [id, s] of stacks) if (phaseOf(s, now) === 'GONE') stacks.delete(id);
}

function summaryOf(s, now = Date.now()) {
  const state = phaseOf(s, now);
  const out = {
    id: s.id,
    name: s.name,
    state,
    createdAt: ts(s.createdMs),
    terminationDate: ts(s.terminationMs),
    platformVersion: s.platformVersion,
  };
  if (bug('creating-no-termination') && state === 'CREATING') delete out.terminationDate;
  return out;
}

function detailOf(s, now = Date.now()) {
  const out = summaryOf(s, now);
  if (out.state === 'RUNNING') {
    out.stackAccessDetails = {
      url: `https://${s.id}.stacks.example.test/console/`,
      username: s.username,
      password: s.password,
    };
  }
  return out;
}

// ---------------------------------------------------------------------------
// Response writing
// ---------------------------------------------------------------------------
function delay() {
  return new Promise((r) => setTimeout(r, crypto.randomInt(0, 21)));
}

async function send(ctx, status, bodyObj, extraHeaders = {}) {
  const { res } = ctx;
  const body = bodyObj === undefined ? Buffer.alloc(0) : Buffer.from(JSON.stringify(bodyObj), 'utf8');
  const etag = '"' + crypto.createHash('sha256').update(body).digest('hex').slice(0, 24) + '"';
  const headers = {
    ETag: etag,
    'X-Request-Id': ctx.requestId,
    ...extraHeaders,
  };
  if (bodyObj !== undefined) {
    headers['Content-Type'] = 'application/json; charset=utf-8';
    headers['Content-Length'] = String(body.length);
  }
  await delay();
  if (res.headersSent || res.destroyed || res.writableEnded) return;
  try {
    res.writeHead(status, headers);
    res.end(ctx.method === 'HEAD' ? undefined : body.length ? body : undefined);
  } catch {
    try {
      res.destroy();
    } catch {
      /* ignore */
    }
  }
}

function sendError(ctx, status, code, message, details = [], extraHeaders = {}) {
  return send(ctx, status, { code, message, requestId: ctx.requestId, details }, extraHeaders);
}

// ---------------------------------------------------------------------------
// Routing
// ---------------------------------------------------------------------------
// Returns { route, allow, params } or null for unknown paths.
function resolve(path) {
  if (path === '/v1/stacks') return { route: 'stacks', allow: ['GET', 'POST'], params: {} };
  if (path === '/v1/stacks/versions') return { route: 'versions', allow: ['GET'], params: {} };
  const m = /^\/v1\/stacks\/([^/]+)$/.exec(path);
  if (m) return { route: 'stack', allow: ['GET', 'DELETE'], params: { stackId: m[1] } };
  return null;
}

// Authorization. Returns { ok: true, key, principal } or { ok:false, status, code, message }.
function authenticate(req) {
  const raw = req.headers['authorization'];
  const m = typeof raw === 'string' ? /^bearer[ ]+(\S+)$/i.exec(raw.trim()) : null;
  if (!m) {
    if (bug('missing-key-403')) {
      return { ok: false, status: 403, code: 'Forbidden', message: 'Access denied.' };
    }
    return {
      ok: false,
      status: 401,
      code: 'Unauthorized',
      message: 'API key missing from the request: send "Authorization: Bearer <API_KEY>".',
    };
  }
  const key = m[1];
  const principal = API_KEYS.get(key);
  if (!principal) {
    return {
      ok: false,
      status: 401,
      code: 'InvalidApiKey',
      message: 'The API key presented in the Authorization header is not recognised.',
    };
  }
  return { ok: true, key, principal };
}

// Sliding one-second window per API key. Refused requests are not counted.
function rateLimited(key, now = Date.now()) {
  let win = rateWindows.get(key);
  if (!win) rateWindows.set(key, (win = []));
  while (win.length && now - win[0] >= 1000) win.shift();
  if (win.length >= RATE_LIMIT) return true;
  win.push(now);
  return false;
}

function readBody(req) {
  return new Promise((resolveBody) => {
    const chunks = [];
    let size = 0;
    let tooLarge = false;
    req.on('data', (c) => {
      size += c.length;
      if (size > MAX_BODY_BYTES) {
        tooLarge = true;
        return;
      }
      chunks.push(c);
    });
    req.on('end', () => resolveBody({ tooLarge, text: Buffer.concat(chunks).toString('utf8') }));
    req.on('error', () => resolveBody({ tooLarge, text: null, aborted: true }));
  });
}

// ---------------------------------------------------------------------------
// Handlers
// ---------------------------------------------------------------------------
function ownStack(ctx, stackId) {
  sweep();
  const s = stacks.get(stackId);
  if (!s) return null;
  if (s.owner !== ctx.principal.user && !bug('cross-user-access')) return null;
  return s;
}

function notFound(ctx, stackId) {
  return sendError(ctx, 404, 'NotFound', `Stack '${stackId}' was not found.`, [{ resource: 'stack', stackId }]);
}

async function handleCreate(ctx, bodyInfo) {
  const bad = (message, details = []) => sendError(ctx, 400, 'InvalidRequest', message, details);
  if (bodyInfo.tooLarge) {
    return bad(`Request body exceeds ${MAX_BODY_BYTES} bytes.`, [{ issue: 'body_too_large' }]);
  }
  const text = bodyInfo.text ?? '';
  if (text.trim() === '') {
    return bad('A JSON request body is required (use {} for the defaults).', [{ issue: 'body_missing' }]);
  }
  let body;
  try {
    body = JSON.parse(text);
  } catch (e) {
    if (bug('malformed-json-500')) {
      return sendError(ctx, 500, 'InternalServerError', 'Unexpected error.');
    }
    return bad('The request body is not valid JSON.', [{ issue: 'invalid_json', detail: String(e.message) }]);
  }
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    return bad('The request body must be a JSON object.', [{ issue: 'not_an_object' }]);
  }
  const extra = Object.keys(body).filter((k) => k !== 'platformVersion');
  if (extra.length) {
    return bad(
      `Unknown field(s) in request body: ${extra.join(', ')}.`,
      extra.map((field) => ({ field, issue: 'unknown_field' })),
    );
  }
  let version;
  if (Object.hasOwn(body, 'platformVersion')) {
    if (typeof body.platformVersion !== 'string') {
      return bad('Field platformVersion must be a string.', [{ field: 'platformVersion', issue: 'not_a_string' }]);
    }
    version = body.platformVersion;
    if (!VERSIONS.some((v) => v.buildVersion === version)) {
      return bad(`Unknown platform version '${version}'.`, [{ field: 'platformVersion', issue: 'unknown_version', value: version }]);
    }
  } else {
    version = bug('default-last-entry') ? VERSIONS[VERSIONS.length - 1].buildVersion : LATEST_RELEASED;
  }

  const now = Date.now();
  sweep(now);
  const active = [...stacks.values()].filter((s) => s.owner === ctx.principal.user && s.deletedAt === null).length;
  if (active >= MAX_ACTIVE_STACKS) {
    const code = bug('limit-wrong-code') ? 'StackLimitExceeded' : 'MaxStacksLimitReached';
    return sendError(ctx, 409, code, `Maximum number of stacks (${MAX_ACTIVE_STACKS}) reached; delete a stack first.`, [
      { limit: MAX_ACTIVE_STACKS, active },
    ]);
  }

  const warm = version === LATEST_RELEASED;
  const s = {
    id: newStackId(),
    name: newStackName(),
    owner: ctx.principal.user,
    seq: ++seq,
    createdMs: now,
    terminationMs: now + STACK_LIFETIME_MS,
    readyAt: warm ? now : now + 1000 + crypto.randomInt(0, 1001),
    deletedAt: null,
    platformVersion: version,
    username: `qa_${randomBase36(6)}`,
    password: crypto.randomBytes(12).toString('base64url'),
  };
  stacks.set(s.id, s);
  return send(ctx, 202, summaryOf(s, now));
}

function handleList(ctx) {
  const now = Date.now();
  sweep(now);
  const mine = [...stacks.values()]
    .filter((s) => s.deletedAt === null && phaseOf(s, now) !== 'GONE')
    .filter((s) => s.owner === ctx.principal.user)
    .sort((a, b) => b.seq - a.seq)
    .map((s) => summaryOf(s, now));
  return send(ctx, 200, { stacks: mine });
}

function handleVersions(ctx) {
  return send(ctx, 200, { versions: VERSIONS.map((v) => ({ ...v })) });
}

function handleGet(ctx, stackId) {
  const s = ownStack(ctx, stackId);
  if (!s) return notFound(ctx, stackId);
  return send(ctx, 200, detailOf(s));
}

function handleDelete(ctx, stackId) {
  const s = ownStack(ctx, stackId);
  if (!s) return notFound(ctx, stackId);
  const now = Date.now();
  if (s.deletedAt === null) s.deletedAt = now;
  if (bug('delete-200-body')) return send(ctx, 200, summaryOf(s, now));
  return send(ctx, 204, undefined);
}

// ---------------------------------------------------------------------------
// Request entry point
// ---------------------------------------------------------------------------
async function handle(req, res) {
  const ctx = { req, res, method: req.method, requestId: newRequestId(), principal: null };
  try {
    const rawUrl = typeof req.url === 'string' ? req.url : '';
    const qi = rawUrl.indexOf('?');
    const path = qi === -1 ? rawUrl : rawUrl.slice(0, qi);

    // Always consume the body so keep-alive connections stay usable.
    const bodyPromise = readBody(req);

    const r = resolve(path);
    if (!r) {
      await bodyPromise;
      return await sendError(ctx, 404, 'NotFound', `No resource was found at '${path}'.`, [{ resource: 'path', path }]);
    }
    if (!r.allow.includes(req.method)) {
      await bodyPromise;
      return await sendError(
        ctx,
        405,
        'MethodNotAllowed',
        `Method ${req.method} is not allowed on ${path}; allowed: ${r.allow.join(', ')}.`,
        [{ allow: r.allow }],
        { Allow: r.allow.join(', ') },
      );
    }

    const auth = authenticate(req);
    if (!auth.ok) {
      await bodyPromise;
      const hdr = auth.status === 401 ? { 'WWW-Authenticate': 'Bearer realm="stacks"' } : {};
      return await sendError(ctx, auth.status, auth.code, auth.message, [], hdr);
    }
    if (rateLimited(auth.key)) {
      await bodyPromise;
      return await sendError(
        ctx,
        429,
        'TooManyRequests',
        `Rate limit of ${RATE_LIMIT} requests per second exceeded for this API key.`,
        [{ limit: RATE_LIMIT, windowSeconds: 1 }],
        {
          'Retry-After': '1',
        },
      );
    }
    if (!auth.principal.allowed && !bug('no-allowlist')) {
      await bodyPromise;
      return await sendError(ctx, 403, 'Forbidden', 'The caller is not on the service allow list.');
    }
    ctx.principal = auth.principal;

    const bodyInfo = await bodyPromise;
    if (bodyInfo.aborted) return;
    if (r.route === 'stacks') {
      return await (req.method === 'POST' ? handleCreate(ctx, bodyInfo) : handleList(ctx));
    }
    if (r.route === 'versions') return await handleVersions(ctx);
    if (req.method === 'GET') return await handleGet(ctx, r.params.stackId);
    return await handleDelete(ctx, r.params.stackId);
  } catch (err) {
    console.error('internal error', err);
    try {
      await sendError(ctx, 500, 'InternalServerError', 'An internal error occurred.');
    } catch {
      /* ignore */
    }
  }
}

// ---------------------------------------------------------------------------
// Server
// ---------------------------------------------------------------------------
const IDLE_MS = 2000;
const server = http.createServer(handle);
// Advertised as "Keep-Alive: timeout=2". Node's own keep-alive timer has slack, so idle
// connections are additionally closed by our own timer exactly IDLE_MS after the last response.
server.keepAliveTimeout = IDLE_MS;
function armIdle(socket) {
  clearTimeout(socket.__idleTimer);
  if (socket.__inFlight > 0) return;
  socket.__idleTimer = setTimeout(() => {
    if (!socket.__inFlight) socket.destroy();
  }, IDLE_MS);
  socket.__idleTimer.unref?.();
}
server.on('connection', (socket) => {
  socket.__inFlight = 0;
  armIdle(socket);
  socket.on('close', () => clearTimeout(socket.__idleTimer));
});
server.on('request', (req, res) => {
  const socket = req.socket;
  if (!socket) return;
  socket.__inFlight = (socket.__inFlight || 0) + 1;
  clearTimeout(socket.__idleTimer);
  let done = false;
  const fin = () => {
    if (done) return;
    done = true;
    socket.__inFlight = Math.max(0, socket.__inFlight - 1);
    armIdle(socket);
  };
  res.on('finish', fin);
  res.on('close', fin);
});
server.on('clientError', (err, socket) => {
  try {
    if (socket.writable && !err.code?.startsWith('ERR_HTTP_REQUEST_TIMEOUT')) {
      const body = JSON.stringify({
        code: 'InvalidRequest',
        message: 'Malformed HTTP request.',
        requestId: newRequestId(),
        details: [],
      });
      socket.end(
        'HTTP/1.1 400 Bad Request\r\nContent-Type: application/json; charset=utf-8\r\n' +
          `Date: ${new Date().toUTCString()}\r\n` +
          `ETag: "${crypto.createHash('sha256').update(body).digest('hex').slice(0, 24)}"\r\n` +
          `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
      );
    } else {
      socket.destroy();
    }
  } catch {
    /* ignore */
  }
});
process.on('uncaughtException', (e) => console.error('uncaught', e));
process.on('unhandledRejection', (e) => console.error('unhandled', e));

server.listen(PORT, '127.0.0.1', () => {
  process.stdout.write(`listening on ${server.address().port}\n`);
});
