// Short-Lived Test Stack Provisioning API — in-memory implementation.
// Node 20, ESM, built-ins only.
import http from 'node:http';
import crypto from 'node:crypto';

// ---------------------------------------------------------------------------
// Configuration
// ---------------------------------------------------------------------------
const PORT = Number.parseInt(process.env.PORT ?? '0', 10) || 0;
const BUGS = new Set(
  (process.env.BUG ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean),
);
const bug = (name) => BUGS.has(name);

const MAX_STACKS_PER_USER = 2;
const STACK_LIFETIME_SECONDS = (() => {
  const v = Number.parseInt(process.env.STACK_LIFETIME_SECONDS ?? '', 10);
  return Number.isFinite(v) && v > 0 ? v : 47 * 60; // default lifetime: 47 minutes
})();
const MAX_BODY_BYTES = 64 * 1024;
const TS_OFFSET_MINUTES = 9 * 60; // timestamps are rendered with a fixed +09:00 offset
const WARM_POOL_PROBABILITY = 0.25; // chance that a create returns an already RUNNING stack

// Users (API key -> user). Only allow-listed users may use the service.
const USERS = new Map([
  ['tok_7f3a9c1e', { id: 'usr-7f3a', allowListed: true }],
  ['tok_b24d8e60', { id: 'usr-b24d', allowListed: true }],
  ['tok_0c5e2f99', { id: 'usr-0c5e', allowListed: false }],
]);

// Platform versions, deliberately NOT listed in sorted order.
// "Latest released" is decided by numeric (semver-like) comparison: 9.10.1.
const VERSIONS = [
  { buildVersion: '9.2.3', releaseName: 'Hawthorn', status: 'released', releasedOn: '2023-11-14', supportTier: 'extended' },
  { buildVersion: '10.1.0-dev.5', releaseName: 'Kestrel', status: 'unreleased', releasedOn: null, supportTier: 'none' },
  { buildVersion: '9.10.1', releaseName: 'Ironwood', status: 'released', releasedOn: '2024-09-02', supportTier: 'standard' },
  { buildVersion: '8.4.7', releaseName: 'Gingko', status: 'released', releasedOn: '2022-06-21', supportTier: 'legacy' },
  { buildVersion: '10.0.0-rc.2', releaseName: 'Juniper', status: 'unreleased', releasedOn: null, supportTier: 'preview' },
  { buildVersion: '9.10.0', releaseName: 'Ironwood', status: 'released', releasedOn: '2024-07-30', supportTier: 'standard' },
];
// Provisioning of this version always ends in ERROR.
const BROKEN_VERSIONS = new Set(['10.1.0-dev.5']);

function parseVer(v) {
  const [core, pre] = v.split('-', 2);
  return { nums: core.split('.').map((n) => Number.parseInt(n, 10) || 0), pre: pre ?? null };
}
function cmpVer(a, b) {
  const A = parseVer(a);
  const B = parseVer(b);
  for (let i = 0; i < Math.max(A.nums.length, B.nums.length); i++) {
    const d = (A.nums[i] ?? 0) - (B.nums[i] ?? 0);
    if (d) return d;
  }
  if (A.pre === B.pre) return 0;
  if (A.pre === null) return 1;
  if (B.pre === null) return -1;
  return A.pre < B.pre ? -1 : 1;
}
function latestReleased() {
  const rel = VERSIONS.filter((v) => v.status === 'released');
  if (bug('version-string-sort')) {
    // plain string sort: picks "9.2.3" as "latest"
    return rel
      .map((v) => v.buildVersion)
      .sort()
      .at(-1);
  }
  return rel
    .map((v) => v.buildVersion)
    .sort(cmpVer)
    .at(-1);
}

// ---------------------------------------------------------------------------
// State
// ---------------------------------------------------------------------------
/** @type {Map<string, any>} id (lowercase uuid) -> stack */
const stacks = new Map();

function rand(min, max) {
  return min + Math.random() * (max - min);
}

function isoTs(ms) {
  const d = new Date(Math.floor(ms / 1000) * 1000 + TS_OFFSET_MINUTES * 60000);
  const p = (n, w = 2) => String(n).padStart(w, '0');
  const sign = TS_OFFSET_MINUTES >= 0 ? '+' : '-';
  const off = Math.abs(TS_OFFSET_MINUTES);
  return (
    `${p(d.getUTCFullYear(), 4)}-${p(d.getUTCMonth() + 1)}-${p(d.getUTCDate())}` +
    `T${p(d.getUTCHours())}:${p(d.getUTCMinutes())}:${p(d.getUTCSeconds())}` +
    `${sign}${p(Math.floor(off / 60))}:${p(off % 60)}`
  );
}

const B36 = 'abcdefghijkmnpqrstuvwxyz23456789';
function randStr(n, alphabet) {
  const bytes = crypto.randomBytes(n);
  let s = '';
  for (let i = 0; i < n; i++) s += alphabet[bytes[i] % alphabet.length];
  return s;
}

function makeName(version) {
  const rn = VERSIONS.find((v) => v.buildVersion === version)?.releaseName ?? 'stack';
  return `${rn.toLowerCase()}-${randStr(6, B36)}`;
}

function setState(stack, state, reason = null) {
  stack.state = state;
  stack.stateReason = reason;
  stack.lastTransitionAt = Date.now();
}

function beginTeardown(stack, reason) {
  if (stack.state === 'STOPPING') return;
  clearTimeout(stack.provisionTimer);
  clearTimeout(stack.terminationTimer);
  setState(stack, 'STOPPING', reason);
  stack.teardownTimer = setTimeout(() => stacks.delete(stack.id), rand(1000, 3000));
}

function createStack(user, version) {
  const now = Date.now();
  const id = crypto.randomUUID();
  const created = Math.floor(now / 1000) * 1000;
  const terminates = created + STACK_LIFETIME_SECONDS * 1000;
  const broken = BROKEN_VERSIONS.has(version);
  const warm = !broken && VERSIONS.find((v) => v.buildVersion === version)?.status === 'released' && Math.random() < WARM_POOL_PROBABILITY;
  const stack = {
    id,
    owner: user.id,
    name: makeName(version),
    state: warm ? 'RUNNING' : 'CREATING',
    stateReason: warm ? 'warm-pool' : null,
    createdAt: created,
    terminationDate: terminates,
    lastTransitionAt: now,
    platformVersion: version,
    access: {
      url: `https://stacks.example.test:8443/s/${id}/ui/`,
      username: `u${crypto.randomBytes(4).toString('hex').slice(0, 7)}`,
      password: randStr(22, 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789!#%+-_=~'),
    },
  };
  stacks.set(id, stack);
  if (!warm) {
    stack.provisionTimer = setTimeout(
      () => {
        if (stack.state !== 'CREATING') return;
        if (broken) setState(stack, 'ERROR', 'provisioning-failed');
        else setState(stack, 'RUNNING', null);
      },
      rand(2000, 6000),
    );
  }
  stack.terminationTimer = setTimeout(() => beginTeardown(stack, 'terminated'), terminates - now);
  return stack;
}

function summary(stack) {
  return {
    id: stack.id,
    name: stack.name,
    state: stack.state,
    createdAt: isoTs(stack.createdAt),
    terminationDate: isoTs(stack.terminationDate),
    platformVersion: stack.platformVersion,
    // extra, undocumented fields
    stateReason: stack.stateReason,
    lastTransitionAt: isoTs(stack.lastTransitionAt),
    region: 'ap-northeast-3',
    kind: 'ephemeral',
  };
}

function detail(stack) {
  const d = summary(stack);
  // Access details are allocated at creation: available while CREATING or RUNNING,
  // withdrawn when the stack is STOPPING or in ERROR.
  if (stack.state === 'CREATING' || stack.state === 'RUNNING') {
    d.stackAccessDetails = { ...stack.access };
  }
  return d;
}

function userStacks(user) {
  const out = [];
  for (const s of stacks.values()) if (bug('list-all-users') || s.owner === user.id) out.push(s);
  return out;
}

// ---------------------------------------------------------------------------
// HTTP helpers
// ---------------------------------------------------------------------------
function send(res, status, body, extraHeaders = {}) {
  const delay = rand(5, 30);
  setTimeout(() => {
    try {
      if (res.destroyed || res.writableEnded) return;
      res.statusCode = status;
      res.setHeader('Connection', 'close');
      for (const [k, v] of Object.entries(extraHeaders)) res.setHeader(k, v);
      if (body === undefined || status === 204) {
        res.end();
        return;
      }
      res.setHeader('Content-Type', 'application/json');
      res.setHeader('Transfer-Encoding', 'chunked');
      const text = JSON.stringify(body);
      const cut = Math.max(1, Math.floor(text.length / 2));
      res.write(text.slice(0, cut));
      res.end(text.slice(cut));
    } catch (_e) {
      try {
        res.destroy();
      } catch {
        /* ignore */
      }
    }
  }, delay);
}

function sendError(res, status, code, message, extraHeaders) {
  send(res, status, { code, message }, extraHeaders);
}

function readBody(req) {
  return new Promise((resolve) => {
    const chunks = [];
    let size = 0;
    let tooBig = false;
    req.on('data', (c) => {
      size += c.length;
      if (size > MAX_BODY_BYTES) tooBig = true;
      else chunks.push(c);
    });
    req.on('end', () => resolve({ tooBig, buf: Buffer.concat(chunks), size }));
    req.on('error', () => resolve({ tooBig, buf: Buffer.concat(chunks), size, aborted: true }));
  });
}

// Route table. Paths are matched strictly (case-sensitive, no trailing-slash tolerance).
function route(method, path) {
  if (path === '/v1/stacks') {
    if (method === 'POST') return { op: 'createStack' };
    if (method === 'GET') return { op: 'listStacks' };
    return { allow: 'GET, POST' };
  }
  if (path === '/v1/stacks/versions' && method === 'GET') return { op: 'listStackVersions' };
  const m = /^\/v1\/stacks\/([^/]+)$/.exec(path);
  if (m) {
    let id;
    try {
      id = decodeURIComponent(m[1]);
    } catch {
      id = m[1];
    }
    if (method === 'GET') return { op: 'getStack', stackId: id };
    if (method === 'DELETE') return { op: 'deleteStack', stackId: id };
    return { allow: 'GET, DELETE' };
  }
  return null;
}

function authenticate(req) {
  const h = req.headers['authorization'];
  if (typeof h !== 'string') return { missing: true };
  const m = /^\s*bearer\s+(\S+)\s*$/i.exec(h);
  if (!m) return { missing: true };
  const user = USERS.get(m[1]);
  if (!user) return { unknown: true };
  return { user };
}

// ---------------------------------------------------------------------------
// Handlers
// ---------------------------------------------------------------------------
async function handle(req, res) {
  const body = await readBody(req);
  if (body.aborted) return;

  let pathname;
  const rawUrl = req.url ?? '/';
  try {
    pathname = rawUrl.startsWith('/') ? rawUrl.split(/[?#]/, 1)[0] : new URL(rawUrl).pathname; // absolute-form request target
  } catch {
    pathname = null;
  }
  const r = pathname === null ? null : route(req.method, pathname);
  if (!r) {
    return sendError(res, 404, 'RouteNotFound', `No route for ${req.method} ${pathname ?? '?'}`);
  }
  if (!r.op) {
    return sendError(res, 405, 'MethodNotAllowed', `Method ${req.method} is not supported here`, {
      Allow: r.allow,
    });
  }

  const auth = authenticate(req);
  if (auth.missing) {
    return sendError(res, 401, 'Unauthorized', 'A bearer API key is required', {
      'WWW-Authenticate': 'Bearer realm="stacks"',
    });
  }
  if (auth.unknown) {
    return sendError(res, 401, 'InvalidApiKey', 'The API key is not recognised', {
      'WWW-Authenticate': 'Bearer realm="stacks", error="invalid_token"',
    });
  }
  const user = auth.user;
  const allowListCheckApplies = !bug('no-allowlist') || r.op === 'createStack';
  if (!user.allowListed && allowListCheckApplies) {
    return sendError(res, 403, 'Forbidden', 'This user is not on the allow list for test stacks');
  }

  switch (r.op) {
    case 'createStack':
      return doCreate(res, user, body);
    case 'listStacks': {
      const list = userStacks(user)
        .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
        .map(summary);
      return send(res, 200, { stacks: list });
    }
    case 'listStackVersions':
      return send(res, 200, { versions: VERSIONS.map((v) => ({ ...v })) });
    case 'getStack': {
      const s = findStack(user, r.stackId);
      if (!s) return notFound(res, r.stackId);
      return send(res, 200, detail(s));
    }
    case 'deleteStack': {
      const s = findStack(user, r.stackId);
      if (!s) return notFound(res, r.stackId);
      beginTeardown(s, 'deleted');
      if (bug('delete-200')) return send(res, 200, summary(s));
      return send(res, 204);
    }
    default:
      return sendError(res, 500, 'InternalServerError', 'Unhandled operation');
  }
}

function findStack(user, rawId) {
  const s = stacks.get(String(rawId).toLowerCase());
  if (!s) return null;
  if (s.owner !== user.id && !bug('cross-user-access')) return null;
  return s;
}

function notFound(res, id) {
  return sendError(res, 404, 'NotFound', `Stack ${JSON.stringify(String(id))} was not found`);
}

function doCreate(res, user, body) {
  if (body.tooBig) {
    return sendError(res, 400, 'InvalidRequest', `Request body exceeds ${MAX_BODY_BYTES} bytes`);
  }
  // Content-Type is not inspected: the body is always parsed as JSON.
  const text = body.buf.toString('utf8').replace(/^\uFEFF/, '');
  if (text.trim() === '') {
    return sendError(res, 400, 'InvalidRequest', 'A JSON request body is required (use {} for defaults)');
  }
  let parsed;
  try {
    parsed = JSON.parse(text);
  } catch (_e) {
    if (bug('malformed-500')) {
      return sendError(res, 500, 'InternalServerError', 'Unexpected error');
    }
    return sendError(res, 400, 'InvalidRequest', 'Request body is not valid JSON');
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    return sendError(res, 400, 'InvalidRequest', 'Request body must be a JSON object');
  }
  const pv = Object.hasOwn(parsed, 'platformVersion') ? parsed.platformVersion : undefined;
  if (pv !== undefined && pv !== null && typeof pv !== 'string') {
    return sendError(res, 400, 'InvalidRequest', 'Field platformVersion must be a string');
  }

  // Quota is checked before the version is resolved. STOPPING and ERROR stacks still count.
  const owned = [...stacks.values()].filter((s) => s.owner === user.id).length;
  if (owned >= MAX_STACKS_PER_USER) {
    const status = bug('limit-429') ? 429 : 409;
    return sendError(res, status, 'MaxStacksLimitReached', `Maximum number of stacks (${MAX_STACKS_PER_USER}) reached for this user`);
  }

  let version;
  if (pv === undefined || pv === null) {
    version = latestReleased();
  } else {
    const known = VERSIONS.find((v) => v.buildVersion === pv);
    if (!known) {
      if (bug('unknown-version-404')) {
        return sendError(res, 404, 'NotFound', 'Platform version not found');
      }
      return sendError(res, 400, 'InvalidRequest', `Unknown platform version: ${JSON.stringify(pv)}`);
    }
    version = known.buildVersion;
  }

  const stack = createStack(user, version);
  return send(res, 202, summary(stack));
}

// ---------------------------------------------------------------------------
// Server
// ---------------------------------------------------------------------------
const server = http.createServer((req, res) => {
  handle(req, res).catch((e) => {
    process.stderr.write(`handler error: ${e?.stack ?? e}\n`);
    try {
      sendError(res, 500, 'InternalServerError', 'Internal failure');
    } catch {
      /* ignore */
    }
  });
});
server.on('clientError', (_err, socket) => {
  try {
    if (socket.writable) {
      const body = JSON.stringify({ code: 'BadHttpRequest', message: 'Malformed HTTP request' });
      socket.end(
        'HTTP/1.1 400 Bad Request\r\nContent-Type: application/json\r\nConnection: close\r\n' +
          `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
      );
    } else socket.destroy();
  } catch {
    /* ignore */
  }
});
process.on('uncaughtException', (e) => process.stderr.write(`uncaught: ${e?.stack ?? e}\n`));
process.on('unhandledRejection', (e) => process.stderr.write(`unhandled: ${e?.stack ?? e}\n`));

server.listen(PORT, '127.0.0.1', () => {
  process.stdout.write(`listening on ${server.address().port}\n`);
});
