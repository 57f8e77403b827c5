// Response helpers, body reading and authentication.
import { randomBytes, randomInt } from 'node:crypto';
import { bug, MAX_BODY_BYTES, RESPONSE_DELAY_MAX_MS, USERS } from './config.mjs';

export class ServiceError extends Error {
  constructor(status, code, message, headers = {}) {
    super(message);
    this.status = status;
    this.code = code;
    this.headers = headers;
  }
}

const delay = () => new Promise((resolve) => setTimeout(resolve, randomInt(0, RESPONSE_DELAY_MAX_MS + 1)));

export async function send(res, status, body, headers = {}) {
  await delay();
  const requestId = randomBytes(8).toString('hex');
  const base = { 'X-Request-Id': requestId, 'Cache-Control': 'no-store', ...headers };
  if (body === undefined) {
    res.writeHead(status, base);
    res.end();
    return;
  }
  const payload = JSON.stringify(body);
  res.writeHead(status, { ...base, 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(payload) });
  res.end(payload);
}

export function sendError(res, err) {
  const body = { code: err.code, message: err.message, requestId: randomBytes(6).toString('hex') };
  return send(res, err.status, body, err.headers);
}

// Resolves { text, tooLarge }; an oversized body is judged by the caller.
export function readBody(req) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    let size = 0;
    let tooLarge = false;
    req.on('data', (chunk) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) tooLarge = true;
      else chunks.push(chunk);
    });
    req.on('end', () => {
      resolve({ text: Buffer.concat(chunks).toString('utf8'), tooLarge });
    });
    req.on('error', reject);
  });
}

// Returns the user record of an allow-listed caller, or throws 401/403.
export function authenticate(req) {
  const header = req.headers.authorization;
  const match = typeof header === 'string' ? /^\s*bearer\s+(\S+)\s*$/i.exec(header) : null;
  if (!match) {
    if (bug('missing-auth-accepted') && (header === undefined || header.trim() === '')) return USERS[0];
    throw new ServiceError(401, 'Unauthorized', 'a bearer API key is required in the Authorization header', {
      'WWW-Authenticate': 'Bearer realm="stacks"',
    });
  }
  const user = USERS.find((u) => u.key === match[1]);
  if (!user) throw new ServiceError(403, 'Forbidden', 'this API key is not enabled for stack provisioning');
  if (!user.allowed && !bug('outsider-allowed'))
    throw new ServiceError(403, 'Forbidden', `user ${user.user} is not on the stack provisioning allow list`);
  return user;
}
