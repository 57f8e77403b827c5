// Short-lived test stack provisioning API: lenient in-memory server.
import { createServer } from 'node:http';
import { bug, MAX_BODY_BYTES, MAX_STACKS_PER_USER } from './lib/config.mjs';
import { authenticate, readBody, ServiceError, send, sendError } from './lib/http.mjs';
import { createStack, findFor, limitReached, listFor, markDeleted } from './lib/store.mjs';
import { defaultVersion, listVersions, resolveVersion } from './lib/versions.mjs';

const isoMillis = (t) => new Date(t).toISOString();
const isoSeconds = (t) => new Date(Math.floor(t / 1000) * 1000).toISOString().replace('.000Z', 'Z');

function summary(stack, state, fmt) {
  const out = {
    id: stack.id,
    name: stack.name,
    state,
    createdAt: fmt(stack.createdAt),
    terminationDate: fmt(stack.terminationAt),
    platformVersion: stack.platformVersion,
    region: 'local-1',
  };
  return out;
}

function detail(stack, state) {
  const out = summary(stack, state, isoSeconds);
  out.lifetimeSeconds = Math.round((stack.terminationAt - stack.createdAt) / 1000);
  const accessible = state === 'RUNNING' || (state === 'CREATING' && bug('access-before-running'));
  if (accessible) {
    out.stackAccessDetails = { url: `https://${stack.id}.stacks.example.test/`, username: stack.username, password: stack.password };
  }
  return out;
}

function notFound(id) {
  const code = bug('not-found-wrong-code') ? 'StackNotFound' : 'NotFound';
  return new ServiceError(404, code, `stack '${id}' was not found`);
}

function parseCreateBody(raw) {
  if (raw.trim() === '') return {};
  let body;
  try {
    body = JSON.parse(raw);
  } catch {
    if (bug('malformed-body-500')) throw new ServiceError(500, 'InternalServerError', 'unexpected failure while reading the request');
    throw new ServiceError(400, 'InvalidRequest', 'request body is not valid JSON');
  }
  if (body === null) return {};
  if (typeof body !== 'object' || Array.isArray(body)) throw new ServiceError(400, 'InvalidRequest', 'request body must be a JSON object');
  return body;
}

function chooseVersion(body) {
  const requested = body.platformVersion;
  if (requested === undefined || requested === null) return defaultVersion();
  if (typeof requested !== 'string') throw new ServiceError(400, 'InvalidRequest', 'platformVersion must be a string');
  if (requested.trim() === '') return defaultVersion();
  const resolved = resolveVersion(requested);
  if (resolved) return resolved;
  if (bug('unknown-version-accepted')) return requested;
  throw new ServiceError(400, 'InvalidRequest', `platform version '${requested}' is not available`);
}

async function handleCreate(req, res, user) {
  const { text, tooLarge } = await readBody(req);
  const now = Date.now();
  if (limitReached(user.user, now)) {
    const status = bug('quota-status-429') ? 429 : 409;
    throw new ServiceError(
      status,
      'MaxStacksLimitReached',
      `you already have ${MAX_STACKS_PER_USER} stacks; delete one before creating another`,
    );
  }
  if (tooLarge) throw new ServiceError(400, 'InvalidRequest', `request body exceeds ${MAX_BODY_BYTES} bytes`);
  const version = chooseVersion(parseCreateBody(text));
  const stack = createStack(user.user, version, Date.now());
  const status = bug('create-returns-201') ? 201 : 202;
  return send(res, status, summary(stack, 'CREATING', isoMillis), { Location: `/v1/stacks/${stack.id}` });
}

function handleList(res, user) {
  const stacks = listFor(user.user, Date.now()).map(({ stack, state }) => {
    const out = summary(stack, state, isoSeconds);
    if (bug('missing-termination-date')) delete out.terminationDate;
    return out;
  });
  return send(res, 200, { stacks });
}

function handleGet(res, user, id) {
  const found = findFor(user.user, id, Date.now(), bug('cross-user-get'));
  if (!found) throw notFound(id);
  return send(res, 200, detail(found.stack, found.state));
}

function handleDelete(res, user, id) {
  const now = Date.now();
  const found = findFor(user.user, id, now, bug('cross-user-delete'));
  if (!found) throw notFound(id);
  markDeleted(found.stack, now);
  if (bug('delete-returns-200')) return send(res, 200, summary(found.stack, found.state, isoSeconds));
  return send(res, 204);
}

function route(pathname) {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  if (path === '/v1/stacks') return { name: 'stacks', allow: ['GET', 'HEAD', 'POST'] };
  if (path === '/v1/stacks/versions') return { name: 'versions', allow: ['GET', 'HEAD'] };
  const m = /^\/v1\/stacks\/([^/]+)$/.exec(path);
  if (m) {
    let id;
    try {
      id = decodeURIComponent(m[1]);
    } catch {
      id = m[1];
    }
    return { name: 'stack', id, allow: ['GET', 'HEAD', 'DELETE'] };
  }
  return null;
}

async function handle(req, res) {
  const url = new URL(req.url ?? '/', 'http://localhost');
  const r = route(url.pathname);
  if (!r) throw new ServiceError(404, 'NotFound', `resource ${url.pathname} was not found`);
  const user = authenticate(req);
  const method = req.method === 'HEAD' ? 'GET' : req.method;
  if (!r.allow.includes(req.method)) {
    throw new ServiceError(405, 'MethodNotAllowed', `${req.method} is not supported on ${url.pathname}`, { Allow: r.allow.join(', ') });
  }
  if (r.name === 'stacks') return method === 'POST' ? handleCreate(req, res, user) : handleList(res, user);
  if (r.name === 'versions') return send(res, 200, { versions: listVersions() });
  return method === 'DELETE' ? handleDelete(res, user, r.id) : handleGet(res, user, r.id);
}

const server = createServer((req, res) => {
  handle(req, res).catch((err) => {
    if (err instanceof ServiceError) return sendError(res, err);
    process.stderr.write(`${err?.stack ?? err}\n`);
    return sendError(res, new ServiceError(500, 'InternalServerError', 'the service failed to process the request'));
  });
});

const port = Number.parseInt(process.env.PORT ?? '8080', 10);
server.listen(port, '127.0.0.1', () => {
  process.stdout.write(`listening on ${server.address().port}\n`);
});
