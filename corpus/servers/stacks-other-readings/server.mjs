// Short-Lived Test Stack Provisioning API — in-memory implementation.
// Node 20, ESM, built-ins only. See NOTES.md for the readings chosen and BUGS.md for BUG switches.
import http from 'node:http';
import crypto from 'node:crypto';

// ---------------------------------------------------------------------------
// Configuration
// ---------------------------------------------------------------------------
const BUGS = new Set(
  String(process.env.BUG || '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean),
);
const bug = (name) => BUGS.has(name);

const USERS = new Map([
  ['pk_9d1e77aa', { id: 'u-ada', allowed: true }],
  ['pk_3b08c2ff', { id: 'u-bo', allowed: true }],
  ['pk_55f0e1d4', { id: 'u-cy', allowed: false }],
]);

const MAX_STACKS_PER_USER = 3; // counts CREATING, RUNNING, STOPPING and ERROR stacks
const STOPPING_MS = 5000; // a deleted / terminated stack stays visible as STOPPING this long
const COLD_BOOT_MS = 1500; // released version, pool empty: CREATING -> RUNNING
const POOL_REFILL_MS = 8000; // a warm instance is replaced this long after being handed out
const POOL_BOOT_MS = 45000; // a warm instance was "created" this long before it became available
const LIFETIME_MS = 90 * 60 * 1000; // then rounded up to the next 5-minute boundary
const MAX_BODY = 64 * 1024;
const TZ_OFFSET_MIN = 5 * 60 + 30; // timestamps are emitted with offset +05:30
const REGION = 'ap-south-1';

// Versions, in the (deliberately unsorted) order they are listed.
// "seq" is the build sequence number (last component of buildVersion): higher = built later.
const VERSIONS = [
  { buildVersion: '10.1.0.50210', releaseName: 'Quetzal', status: 'unreleased', channel: 'nightly', outcome: 'ERROR', bootMs: 2000 },
  { buildVersion: '9.10.0.41207', releaseName: 'Osprey', status: 'released', channel: 'stable', outcome: 'RUNNING', bootMs: COLD_BOOT_MS },
  {
    buildVersion: '9.2.14.41350',
    releaseName: 'Lark',
    status: 'released',
    channel: 'lts-hotfix',
    outcome: 'RUNNING',
    bootMs: COLD_BOOT_MS,
  },
  { buildVersion: '10.0.0.50001', releaseName: 'Pelican', status: 'unreleased', channel: 'preview', outcome: 'RUNNING', bootMs: 3000 },
  {
    buildVersion: '9.9.3.40990',
    releaseName: 'Nighthawk',
    status: 'released',
    channel: 'stable',
    outcome: 'RUNNING',
    bootMs: COLD_BOOT_MS,
  },
];
const buildSeq = (v) => Number(v.buildVersion.split('.').pop());

// "The latest released version": the released version built most recently, i.e. highest build sequence
// number (the last component), NOT the highest major.minor.patch.
function latestReleased() {
  const pool = bug('default-unreleased') ? VERSIONS : VERSIONS.filter((v) => v.status === 'released');
  return pool.reduce((a, b) => (buildSeq(b) > buildSeq(a) ? b : a));
}

function findVersion(name) {
  // A version is "named" by its build version or by its release codename (exact, case-sensitive).
  return VERSIONS.find((v) => v.buildVersion === name) || VERSIONS.find((v) => v.releaseName === name) || null;
}

// ---------------------------------------------------------------------------
// State
// ---------------------------------------------------------------------------
const serverStart = Date.now();
const stacks = new Map(); // id -> stack record
const userCounters = new Map(); // userId -> number of stacks ever created (for names)
let seq = 0;
// Warm pool: one instance per released version.
const warmPool = new Map();
VERSIONS.forEach((v, i) => {
  if (v.status === 'released') warmPool.set(v.buildVersion, { availableAt: serverStart - i * 7000 });
});

const ALNUM = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789';
function randomFrom(chars, n) {
  const bytes = crypto.randomBytes(n);
  let s = '';
  for (let i = 0; i < n; i++) s += chars[bytes[i] % chars.length];
  return s;
}

function fmtTime(ms, withMicros) {
  const d = new Date(ms + TZ_OFFSET_MIN * 60000);
  const p = (n, w = 2) => String(n).padStart(w, '0');
  let s = `${d.getUTCFullYear()}-${p(d.getUTCMonth() + 1)}-${p(d.getUTCDate())}T${p(d.getUTCHours())}:${p(d.getUTCMinutes())}:${p(d.getUTCSeconds())}`;
  if (withMicros) s += `.${p(d.getUTCMilliseconds(), 3)}000`;
  const sign = TZ_OFFSET_MIN >= 0 ? '+' : '-';
  const off = Math.abs(TZ_OFFSET_MIN);
  return `${s}${sign}${p(Math.floor(off / 60))}:${p(off % 60)}`;
}

// Effective state at time `now`; null when the stack no longer exists.
function stateOf(st, now) {
  const stopStart = Math.min(st.deletedAt ?? Infinity, st.terminationMs);
  if (now >= stopStart) {
    return now >= stopStart + STOPPING_MS ? null : 'STOPPING';
  }
  return now < st.readyAt ? 'CREATING' : st.outcome;
}

function hasAccessDetails(st, now) {
  const state = stateOf(st, now);
  if (state === 'RUNNING') return true;
  if (state === 'STOPPING') {
    const stopStart = Math.min(st.deletedAt ?? Infinity, st.terminationMs);
    return st.outcome === 'RUNNING' && st.readyAt <= stopStart;
  }
  return false;
}

function sweep(now) {
  for (const [id, st] of stacks) if (stateOf(st, now) === null) stacks.delete(id);
}

function userStacks(userId, now) {
  sweep(now);
  return [...stacks.values()].filter((s) => s.owner === userId);
}

function summary(st, now) {
  const out = {
    id: st.id,
    name: st.name,
    state: stateOf(st, now),
    createdAt: fmtTime(st.createdMs, true),
    terminationDate: fmtTime(st.terminationMs, false),
    platformVersion: st.platformVersion,
    region: REGION,
    tier: 'ephemeral',
  };
  return out;
}

function detail(st, now) {
  const out = summary(st, now);
  if (hasAccessDetails(st, now)) out.stackAccessDetails = { ...st.access };
  return out;
}

// ---------------------------------------------------------------------------
// HTTP helpers
// ---------------------------------------------------------------------------
function send(res, status, body, headers = {}) {
  if (res.headersSent || res.writableEnded) return;
  const h = { 'Cache-Control': 'no-store', ...headers };
  if (body === undefined) {
    res.writeHead(status, h);
    res.end();
    return;
  }
  const text = JSON.stringify(body);
  h['Content-Type'] = 'application/json; charset=utf-8';
  h['Content-Length'] = Buffer.byteLength(text);
  res.writeHead(status, h);
  res.end(text);
}

function sendError(res, status, code, message, headers) {
  send(res, status, { code, message, requestId: `req_${randomFrom(ALNUM, 12)}` }, headers);
}

const notFoundStack = (res, id) => sendError(res, 404, 'NotFound', `Stack resource '${id}' could not be found.`);

function readBody(req) {
  return new Promise((resolve) => {
    const chunks = [];
    let size = 0;
    let tooLarge = false;
    let done = false;
    const finish = (v) => {
      if (!done) {
        done = true;
        resolve(v);
      }
    };
    req.on('data', (c) => {
      size += c.length;
      if (size > MAX_BODY) tooLarge = true;
      else chunks.push(c);
    });
    req.on('end', () => finish({ buf: Buffer.concat(chunks), tooLarge }));
    req.on('error', () => finish({ buf: Buffer.alloc(0), tooLarge: false, aborted: true }));
    req.on('close', () => finish({ buf: Buffer.concat(chunks), tooLarge }));
  });
}

// Authentication: returns {user} or {status, code, message}
function authenticate(req) {
  const h = req.headers['authorization'];
  const m = typeof h === 'string' ? /^\s*bearer[ \t]+([^\s]+)\s*$/i.exec(h) : null;
  if (!m) {
    return {
      status: 401,
      code: 'Unauthorized',
      message: 'A developer-portal API key is required (Authorization: Bearer <API_KEY>); none was supplied.',
    };
  }
  const user = USERS.get(m[1]);
  if (!user?.allowed) {
    return { status: 403, code: 'Forbidden', message: 'This API key is not on the allow list for test stack provisioning.', user };
  }
  return { user };
}

// Parse + validate the create body. Returns {platformVersion?} or {error}
function parseCreateBody(req, body) {
  if (body.tooLarge) return { error: `Request body exceeds ${MAX_BODY} bytes.` };
  const ct = req.headers['content-type'];
  if (ct !== undefined && !/^\s*application\/([a-z0-9.+-]*\+)?json\s*(;|$)/i.test(ct)) {
    return { error: `Request body must be JSON (application/json); got Content-Type '${ct}'.` };
  }
  let text;
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(body.buf);
  } catch {
    return { error: 'Request body is not valid UTF-8.' };
  }
  if (text.trim() === '') return { error: 'A JSON body is required; send {} to use the default version.' };
  let obj;
  try {
    obj = JSON.parse(text);
  } catch {
    return { error: 'Request body is not well-formed JSON.' };
  }
  if (obj === null || typeof obj !== 'object' || Array.isArray(obj)) {
    return { error: 'Request body must be a JSON object.' };
  }
  const extra = Object.keys(obj).filter((k) => k !== 'platformVersion');
  if (extra.length) return { error: `Unexpected field(s) in CreateStackRequest: ${extra.join(', ')}.` };
  if (Object.hasOwn(obj, 'platformVersion')) {
    if (typeof obj.platformVersion !== 'string') return { error: 'Field platformVersion must be a string.' };
    return { platformVersion: obj.platformVersion };
  }
  return {};
}

// ---------------------------------------------------------------------------
// Handlers
// ---------------------------------------------------------------------------
function handleCreate(req, res, user, body) {
  const now = Date.now();
  const mine = userStacks(user.id, now);
  if (mine.length >= MAX_STACKS_PER_USER) {
    const st = bug('limit-429') ? 429 : 409;
    return sendError(
      res,
      st,
      'MaxStacksLimitReached',
      `Stack quota exhausted: ${mine.length} of ${MAX_STACKS_PER_USER} stacks in use (stopping and failed stacks count towards the quota).`,
    );
  }
  const parsed = parseCreateBody(req, body);
  if (parsed.error) {
    if (bug('malformed-500')) return sendError(res, 500, 'InternalServerError', 'Unexpected failure while reading the request.');
    return sendError(res, 400, 'InvalidRequest', parsed.error);
  }
  let version;
  let reportedVersion;
  if (parsed.platformVersion === undefined) {
    version = latestReleased();
    reportedVersion = version.buildVersion;
  } else {
    version = findVersion(parsed.platformVersion);
    if (!version) {
      if (bug('unknown-version-accepted')) {
        version = latestReleased();
        reportedVersion = parsed.platformVersion;
      } else {
        return sendError(
          res,
          400,
          'InvalidRequest',
          `Platform version ${parsed.platformVersion} is not offered by this service; see GET /v1/stacks/versions.`,
        );
      }
    } else {
      reportedVersion = version.buildVersion;
    }
  }

  seq += 1;
  const n = (userCounters.get(user.id) || 0) + 1;
  userCounters.set(user.id, n);
  const id = `s.${randomFrom(ALNUM, 10)}~${seq}`;
  const host = `stk-${String(seq).padStart(5, '0')}`;

  let createdMs;
  let readyAt;
  const warm = warmPool.get(version.buildVersion);
  if (warm && warm.availableAt <= now) {
    // Hand out the pre-provisioned instance: it is already up.
    createdMs = warm.availableAt - POOL_BOOT_MS;
    readyAt = now;
    warmPool.set(version.buildVersion, { availableAt: now + POOL_REFILL_MS });
  } else {
    createdMs = now;
    readyAt = now + version.bootMs;
  }
  const FIVE_MIN = 5 * 60 * 1000;
  const terminationMs = Math.ceil((now + LIFETIME_MS) / FIVE_MIN) * FIVE_MIN;

  const st = {
    id,
    seqNo: seq,
    owner: user.id,
    name: `${version.releaseName} sandbox \u2116${n}`,
    platformVersion: reportedVersion,
    createdMs,
    readyAt,
    outcome: version.outcome,
    terminationMs,
    deletedAt: null,
    access: {
      url: `https://${host}.${REGION}.sandbox.example.test:8443/console/login?next=%2Fhome`,
      username: `admin@${host}`,
      password: randomFrom(ALNUM + '!#%&*+-=?@^_~<>', 20),
    },
  };
  stacks.set(id, st);
  return send(res, 202, summary(st, now), { Location: `/v1/stacks/${id}` });
}

function handleList(res, user) {
  const now = Date.now();
  const list = userStacks(user.id, now)
    .filter((s) => stateOf(s, now) !== 'ERROR') // ERROR stacks are not "active"
    .sort((a, b) => b.seqNo - a.seqNo || (a.id < b.id ? 1 : -1))
    .map((s) => summary(s, now));
  return send(res, 200, { stacks: list });
}

function handleVersions(res) {
  return send(res, 200, {
    versions: VERSIONS.map((v) => ({ buildVersion: v.buildVersion, releaseName: v.releaseName, status: v.status, channel: v.channel })),
  });
}

function lookup(user, id, now, allowCrossUser) {
  sweep(now);
  const st = stacks.get(id);
  if (!st) return null;
  if (st.owner !== user.id && !allowCrossUser) return null;
  return st;
}

function handleGet(res, user, id) {
  const now = Date.now();
  const st = lookup(user, id, now, bug('cross-user-get'));
  if (!st) return notFoundStack(res, id);
  return send(res, 200, detail(st, now));
}

function handleDelete(res, user, id) {
  const now = Date.now();
  const st = lookup(user, id, now, false);
  if (!st) return notFoundStack(res, id);
  if (st.deletedAt === null) st.deletedAt = now;
  if (bug('delete-200')) return send(res, 200, detail(st, now));
  return send(res, 204);
}

// ---------------------------------------------------------------------------
// Routing
// ---------------------------------------------------------------------------
function route(method, path) {
  if (path === '/v1/stacks') {
    if (method === 'GET') return { op: 'list' };
    if (method === 'POST') return { op: 'create' };
    return { allow: 'GET, POST' };
  }
  const m = /^\/v1\/stacks\/([^/]+)$/.exec(path);
  if (m) {
    let id;
    try {
      id = decodeURIComponent(m[1]);
    } catch {
      id = m[1];
    }
    if (m[1] === 'versions' && method === 'GET') return { op: 'versions' };
    if (method === 'GET') return { op: 'get', id };
    if (method === 'DELETE') return { op: 'delete', id };
    return { allow: 'GET, DELETE' };
  }
  return null;
}

async function handle(req, res) {
  const body = await readBody(req);
  if (body.aborted) return;
  let path;
  try {
    path = new URL(req.url || '/', 'http://localhost').pathname;
  } catch {
    path = '';
  }
  const r = route(req.method, path);
  if (!r) return sendError(res, 404, 'NotFound', `No resource could be found at ${req.method} ${path || req.url}.`);
  if (r.allow) return sendError(res, 405, 'MethodNotAllowed', `Method ${req.method} is not supported on ${path}.`, { Allow: r.allow });

  const skipAuth = bug('no-auth-versions') && r.op === 'versions';
  let user = null;
  if (!skipAuth) {
    const a = authenticate(req);
    if (a.status) {
      const forbiddenListBug = bug('forbidden-list') && r.op === 'list' && a.status === 403 && a.user;
      if (!forbiddenListBug) {
        const headers = a.status === 401 ? { 'WWW-Authenticate': 'Bearer realm="test-stacks"' } : {};
        return sendError(res, a.status, a.code, a.message, headers);
      }
      user = a.user;
    } else {
      user = a.user;
    }
  }

  switch (r.op) {
    case 'create':
      return handleCreate(req, res, user, body);
    case 'list':
      return handleList(res, user);
    case 'versions':
      return handleVersions(res);
    case 'get':
      return handleGet(res, user, r.id);
    case 'delete':
      return handleDelete(res, user, r.id);
    default:
      return sendError(res, 404, 'NotFound', 'No resource could be found.');
  }
}

const server = http.createServer((req, res) => {
  handle(req, res).catch(() => {
    try {
      sendError(res, 500, 'InternalServerError', 'Unexpected failure.');
    } catch {
      /* ignore */
    }
  });
});
server.on('clientError', (_err, socket) => {
  try {
    if (socket.writable) {
      const text = JSON.stringify({ code: 'InvalidRequest', message: 'The HTTP request could not be parsed.' });
      socket.end(
        `HTTP/1.1 400 Bad Request\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(text)}\r\nConnection: close\r\n\r\n${text}`,
      );
    } else socket.destroy();
  } catch {
    /* ignore */
  }
});
process.on('uncaughtException', () => {});
process.on('unhandledRejection', () => {});

const port = Number.parseInt(process.env.PORT ?? '', 10);
server.listen(Number.isFinite(port) ? port : 0, '127.0.0.1', () => {
  process.stdout.write(`listening on ${server.address().port}\n`);
});
