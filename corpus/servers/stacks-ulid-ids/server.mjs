// Short-Lived Test Stack Provisioning API (v1.0) -- in-memory implementation.
// Node 20, built-ins only. Start: PORT=4712 node server.mjs
import http from 'node:http';
import crypto from 'node:crypto';

const PORT = Number(process.env.PORT || 4712);
const bugs = new Set(
  (process.env.BUG || '')
    .split(',')
    .map((b) => b.trim())
    .filter(Boolean),
);

// ---------------------------------------------------------------------------
// Configuration (silent points in the document; see NOTES.md)
// ---------------------------------------------------------------------------
const MAX_STACKS_PER_USER = 3; // counted over CREATING/RUNNING/ERROR stacks
const STACK_LIFETIME_MS = Number(process.env.STACK_LIFETIME_SECONDS || 100 * 60) * 1000; // 100 min
const PROVISION_MIN_MS = 500; // CREATING -> RUNNING/ERROR after 0.5..2 s
const PROVISION_MAX_MS = 2000;
const TEARDOWN_MIN_MS = 1500; // STOPPING visible for 1.5..4 s, then gone
const TEARDOWN_MAX_MS = 4000;
const MAX_BODY_BYTES = 16 * 1024;

// API keys. alice/bob: allow-listed. mallory: authenticated but NOT allow-listed.
const API_KEYS = new Map([
  ['key-alice', { user: 'alice', allowed: true }],
  ['key-bob', { user: 'bob', allowed: true }],
  ['key-mallory', { user: 'mallory', allowed: false }],
]);

// Platform versions, listed newest build first (unreleased builds included).
// `failsProvisioning` is internal only (never serialized).
const VERSIONS = [
  { buildVersion: '9.5.0.41207', releaseName: 'Kestrel', status: 'unreleased', failsProvisioning: true },
  { buildVersion: '9.4.1.40988', releaseName: 'Juniper', status: 'unreleased' },
  { buildVersion: '9.3.2.40512', releaseName: 'Hawthorn', status: 'released' },
  { buildVersion: '9.3.0.40107', releaseName: 'Hawthorn', status: 'released' },
  { buildVersion: '9.2.5.39644', releaseName: 'Ginkgo', status: 'released' },
  { buildVersion: '9.1.8.38020', releaseName: 'Fir', status: 'released' },
];

function compareBuild(a, b) {
  const pa = a.split('.').map(Number);
  const pb = b.split('.').map(Number);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] || 0) - (pb[i] || 0);
    if (d !== 0) return d;
  }
  return 0;
}
// "the latest released version" = highest build number with status `released`.
const DEFAULT_VERSION = (bugs.has('default-unreleased') ? VERSIONS.slice() : VERSIONS.filter((v) => v.status === 'released')).sort((a, b) =>
  compareBuild(b.buildVersion, a.buildVersion),
)[0];
const VERSION_BY_BUILD = new Map(VERSIONS.map((v) => [v.buildVersion, v]));

// ---------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------
// ISO-8601 with millisecond precision and an explicit +00:00 offset.
function iso(ms) {
  return new Date(ms).toISOString().replace('Z', '+00:00');
}

// Lower-case ULID (26 chars Crockford base32: 10 time + 16 random), monotonic.
const CROCKFORD = '0123456789abcdefghjkmnpqrstvwxyz';
let lastUlidTime = -1;
let lastUlidRand = null;
function ulid() {
  let now = Date.now();
  let rand;
  if (now <= lastUlidTime && lastUlidRand) {
    now = lastUlidTime;
    rand = lastUlidRand.slice();
    for (let i = rand.length - 1; i >= 0; i--) {
      // increment base32 digits
      if (rand[i] < 31) {
        rand[i]++;
        break;
      }
      rand[i] = 0;
    }
  } else {
    const bytes = crypto.randomBytes(16);
    rand = Array.from(bytes, (b) => b & 31);
  }
  lastUlidTime = now;
  lastUlidRand = rand;
  let t = now;
  let timePart = '';
  for (let i = 0; i < 10; i++) {
    timePart = CROCKFORD[t % 32] + timePart;
    t = Math.floor(t / 32);
  }
  return timePart + rand.map((d) => CROCKFORD[d]).join('');
}

function randomBetween(min, max) {
  return min + Math.random() * (max - min);
}

function randomPassword() {
  const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789-_!';
  const bytes = crypto.randomBytes(22);
  return Array.from(bytes, (b) => alphabet[b % alphabet.length]).join('');
}

function send(res, status, body, extraHeaders = {}) {
  const headers = { 'X-Request-Id': res.requestId, 'Cache-Control': 'no-store', ...extraHeaders };
  if (body === undefined) {
    res.writeHead(status, headers);
    res.end();
    return;
  }
  const text = JSON.stringify(body, null, 2) + '\n';
  headers['Content-Type'] = 'application/json; charset=utf-8';
  headers['Content-Length'] = Buffer.byteLength(text);
  res.writeHead(status, headers);
  res.end(text);
}

function sendError(res, status, code, message, extraHeaders) {
  send(res, status, { code, message }, extraHeaders);
}

// ---------------------------------------------------------------------------
// State
// ---------------------------------------------------------------------------
/** @type {Map<string, object>} id -> stack record */
const stacks = new Map();
const nameCounters = new Map(); // user -> running counter for names
let createSeq = 0;

function summary(s) {
  return {
    id: s.id,
    name: s.name,
    state: s.state,
    createdAt: iso(s.createdAt),
    terminationDate: iso(s.terminationDate),
    platformVersion: s.platformVersion,
    releaseName: s.releaseName, // extra, informational
  };
}

function detail(s) {
  const d = summary(s);
  d.stateChangedAt = iso(s.stateChangedAt); // extra, informational
  if (s.state === 'RUNNING') {
    d.stackAccessDetails = { url: s.access.url, username: s.access.username, password: s.access.password };
    if (bugs.has('access-details-no-password')) delete d.stackAccessDetails.password;
  }
  return d;
}

function setState(s, state) {
  s.state = state;
  s.stateChangedAt = Date.now();
}

function beginTeardown(s) {
  if (s.state === 'STOPPING') return;
  clearTimeout(s.provisionTimer);
  clearTimeout(s.expiryTimer);
  setState(s, 'STOPPING');
  const t = setTimeout(() => stacks.delete(s.id), randomBetween(TEARDOWN_MIN_MS, TEARDOWN_MAX_MS));
  t.unref();
}

function ownedStacks(user) {
  return [...stacks.values()].filter((s) => s.owner === user);
}

function createStack(user, version) {
  const now = Date.now();
  const n = (nameCounters.get(user) || 0) + 1;
  nameCounters.set(user, n);
  const id = ulid();
  const initialState = bugs.has('state-provisioning') ? 'PROVISIONING' : 'CREATING';
  const s = {
    id,
    owner: user,
    name: `${user}-${version.releaseName.toLowerCase()}-${String(n).padStart(3, '0')}`,
    state: initialState,
    stateChangedAt: now,
    createdAt: now,
    seq: ++createSeq,
    terminationDate: now + STACK_LIFETIME_MS,
    platformVersion: version.buildVersion,
    releaseName: version.releaseName,
    access: {
      url: `https://${id}.stacks.example.test/`,
      username: `sc_admin_${id.slice(-6)}`,
      password: randomPassword(),
    },
  };
  stacks.set(id, s);
  s.provisionTimer = setTimeout(
    () => {
      if (s.state !== initialState) return;
      setState(s, version.failsProvisioning ? 'ERROR' : 'RUNNING');
    },
    randomBetween(PROVISION_MIN_MS, PROVISION_MAX_MS),
  );
  s.provisionTimer.unref();
  // Scheduled termination: at terminationDate the stack begins stopping.
  // (setTimeout max is ~24.8 days; clamp so very long lifetimes don't fire immediately.)
  s.expiryTimer = setTimeout(() => beginTeardown(s), Math.min(STACK_LIFETIME_MS, 2 ** 31 - 1));
  s.expiryTimer.unref();
  return s;
}

// ---------------------------------------------------------------------------
// Request handling
// ---------------------------------------------------------------------------
function readBody(req) {
  return new Promise((resolve) => {
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
    req.on('end', () => resolve({ tooLarge, text: Buffer.concat(chunks).toString('utf8') }));
    req.on('error', () => resolve({ tooLarge, text: null, aborted: true }));
  });
}

function authenticate(req) {
  const header = req.headers['authorization'];
  if (typeof header !== 'string') return null;
  const m = /^\s*bearer\s+(\S+)\s*$/i.exec(header);
  if (!m) return null;
  return API_KEYS.get(m[1]) || null;
}

const AUTH_CHALLENGE = { 'WWW-Authenticate': 'Bearer realm="stacks"' };

async function handle(req, res) {
  res.requestId = crypto.randomUUID();
  let pathname;
  try {
    pathname = new URL(req.url, 'http://localhost').pathname;
  } catch {
    pathname = req.url || '/';
  }

  // Route resolution first (so unknown paths are a plain 404).
  let route = null; // { op, stackId }
  let allowed = null;
  if (pathname === '/v1/stacks') {
    allowed = ['GET', 'POST'];
    route = { GET: 'listStacks', POST: 'createStack' }[req.method] || 'methodNotAllowed';
  } else if (pathname === '/v1/stacks/versions') {
    // DELETE /v1/stacks/versions falls through to deleteStack below (no such stack -> 404).
    allowed = ['GET'];
    route = req.method === 'GET' ? 'listStackVersions' : req.method === 'DELETE' ? 'deleteStack' : 'methodNotAllowed';
  } else if (
    pathname.startsWith('/v1/stacks/') &&
    pathname.indexOf('/', '/v1/stacks/'.length) === -1 &&
    pathname.length > '/v1/stacks/'.length
  ) {
    allowed = ['GET', 'DELETE'];
    route = { GET: 'getStack', DELETE: 'deleteStack' }[req.method] || 'methodNotAllowed';
  }

  if (!route) {
    req.resume();
    return sendError(res, 404, 'NotFound', `The resource ${pathname} was not found`);
  }

  // Authentication, then allow list.
  const principal = authenticate(req);
  if (!principal) {
    req.resume();
    if (bugs.has('missing-key-403') && !req.headers['authorization']) {
      return sendError(res, 403, 'Forbidden', 'Anonymous users are not on the allow list for this service');
    }
    return sendError(res, 401, 'Unauthorized', 'A valid API key is required: send "Authorization: Bearer <API_KEY>"', AUTH_CHALLENGE);
  }
  if (!principal.allowed && (!bugs.has('allowlist-create-only') || route === 'createStack')) {
    req.resume();
    return sendError(res, 403, 'Forbidden', `User "${principal.user}" is not on the allow list for this service`);
  }

  if (route === 'methodNotAllowed') {
    req.resume();
    return sendError(res, 405, 'MethodNotAllowed', `Method ${req.method} is not supported on ${pathname}`, { Allow: allowed.join(', ') });
  }

  const user = principal.user;

  switch (route) {
    case 'createStack': {
      const { text, tooLarge, aborted } = await readBody(req);
      if (aborted) return; // client went away
      if (tooLarge) {
        return sendError(res, 400, 'InvalidRequest', `Request body exceeds ${MAX_BODY_BYTES} bytes`);
      }
      if (!text || text.trim() === '') {
        return sendError(res, 400, 'InvalidRequest', 'A JSON request body is required (use {} for the defaults)');
      }
      let body;
      if (bugs.has('malformed-body-500')) {
        body = JSON.parse(text);
      } else {
        try {
          body = JSON.parse(text);
        } catch {
          return sendError(res, 400, 'InvalidRequest', 'Request body is not valid JSON');
        }
      }
      if (body === null || typeof body !== 'object' || Array.isArray(body)) {
        return sendError(res, 400, 'InvalidRequest', 'Request body must be a JSON object');
      }
      let version = DEFAULT_VERSION;
      if (Object.hasOwn(body, 'platformVersion')) {
        const pv = body.platformVersion;
        if (typeof pv !== 'string') {
          return sendError(res, 400, 'InvalidRequest', 'Field "platformVersion" must be a string');
        }
        version = VERSION_BY_BUILD.get(pv);
        if (!version && bugs.has('version-prefix-match') && pv) version = VERSIONS.find((v) => v.buildVersion.startsWith(pv));
        if (!version) {
          return sendError(res, 400, 'InvalidRequest', `Unknown platform version "${pv}"`);
        }
      }
      const active = ownedStacks(user).filter((s) => s.state !== 'STOPPING').length;
      if (active >= MAX_STACKS_PER_USER) {
        return sendError(
          res,
          bugs.has('limit-status-429') ? 429 : 409,
          'MaxStacksLimitReached',
          `Maximum number of stacks reached (${MAX_STACKS_PER_USER} per user); delete a stack first`,
        );
      }
      const s = createStack(user, version);
      return send(res, 202, summary(s), { Location: `/v1/stacks/${s.id}` });
    }

    case 'listStacks': {
      req.resume();
      const list = (bugs.has('list-all-users') ? [...stacks.values()] : ownedStacks(user)).sort((a, b) => b.seq - a.seq).map(summary); // newest first
      if (bugs.has('list-missing-termination')) for (const item of list) delete item.terminationDate;
      return send(res, 200, { stacks: list });
    }

    case 'listStackVersions': {
      req.resume();
      return send(res, 200, {
        versions: VERSIONS.map((v) => ({
          buildVersion: v.buildVersion,
          releaseName: v.releaseName,
          status: v.status,
          default: v === DEFAULT_VERSION, // extra, informational
        })),
      });
    }

    case 'getStack':
    case 'deleteStack': {
      req.resume();
      let stackId;
      try {
        stackId = decodeURIComponent(pathname.slice('/v1/stacks/'.length));
      } catch {
        stackId = null;
      }
      const s = stackId !== null ? stacks.get(stackId) : undefined;
      if (!s || (s.owner !== user && !(bugs.has('delete-other-user') && route === 'deleteStack'))) {
        return sendError(res, 404, 'NotFound', `Stack "${stackId ?? pathname.slice('/v1/stacks/'.length)}" was not found`);
      }
      if (route === 'getStack') return send(res, 200, detail(s));
      beginTeardown(s);
      if (bugs.has('delete-200-body')) return send(res, 200, summary(s));
      return send(res, 204);
    }

    default:
      return sendError(res, 404, 'NotFound', `The resource ${pathname} was not found`);
  }
}

const server = http.createServer((req, res) => {
  handle(req, res).catch((err) => {
    console.error('internal error', err);
    if (!res.headersSent) {
      try {
        sendError(res, 500, 'InternalServerError', 'An internal error occurred');
      } catch {
        /* ignore */
      }
    } else {
      res.destroy();
    }
  });
});

server.on('clientError', (_err, socket) => {
  if (socket.writable) {
    const body = JSON.stringify({ code: 'InvalidRequest', message: 'Malformed HTTP request' }, null, 2) + '\n';
    socket.end(
      `HTTP/1.1 400 Bad Request\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  } else {
    socket.destroy();
  }
});

process.on('uncaughtException', (err) => console.error('uncaught', err));
process.on('unhandledRejection', (err) => console.error('unhandled rejection', err));

server.listen(PORT, () => {
  console.log(`listening on ${server.address().port}`);
});
