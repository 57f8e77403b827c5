// Operations intelligence management REST API: in-memory implementation.
import http from 'node:http';
import zlib from 'node:zlib';
import { ApiError, send, errorBody, bad } from './lib/util.mjs';
import { authenticate, Unauthenticated } from './lib/auth.mjs';
import { handleCore } from './lib/core.mjs';
import { handleEvents } from './lib/events.mjs';
import { handleMaint } from './lib/maint.mjs';
import { handleBackup } from './lib/backup.mjs';
import { handleIcons } from './lib/icons.mjs';
import { seed } from './lib/seed.mjs';

const MAX_BODY = 4 * 1024 * 1024;
const INTERFACES = {
  itoa_interface: handleCore,
  event_management_interface: handleEvents,
  maintenance_services_interface: handleMaint,
  backup_restore_interface: handleBackup,
};

function readBody(req) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    let size = 0;
    let failed = false;
    req.on('data', (c) => {
      if (failed) return;
      size += c.length;
      if (size > MAX_BODY) {
        failed = true;
        reject(new ApiError(413, 'PAYLOAD_TOO_LARGE', `Payload exceeds ${MAX_BODY} bytes`));
        return;
      }
      chunks.push(c);
    });
    req.on('end', () => {
      if (!failed) resolve(Buffer.concat(chunks));
    });
    req.on('error', (e) => {
      if (!failed) reject(new ApiError(400, 'BAD_REQUEST', `Could not read the request: ${e.message}`));
    });
  });
}

function decodeBody(req, buf) {
  const enc = String(req.headers['content-encoding'] || '')
    .toLowerCase()
    .trim();
  if (!buf.length || !enc || enc === 'identity') return buf;
  try {
    let out;
    if (enc === 'gzip' || enc === 'x-gzip') out = zlib.gunzipSync(buf, { maxOutputLength: MAX_BODY });
    else if (enc === 'deflate') out = zlib.inflateSync(buf, { maxOutputLength: MAX_BODY });
    else throw new ApiError(415, 'UNSUPPORTED_ENCODING', `Content-Encoding ${enc} is not supported`);
    return out;
  } catch (e) {
    if (e instanceof ApiError) throw e;
    throw bad('Could not decompress the request body', 'BAD_ENCODING');
  }
}

function makeCtx(req, res, user, method, segs, q, raw) {
  const text = raw.toString('utf8');
  let parsed;
  let parsedDone = false;
  return {
    req,
    res,
    user,
    method,
    segs,
    q,
    hasBody: () => text.trim().length > 0,
    json() {
      if (parsedDone) return parsed;
      if (!text.trim()) throw bad('A JSON payload is required', 'MISSING_PAYLOAD');
      try {
        parsed = JSON.parse(text);
      } catch {
        const ct = String(req.headers['content-type'] || '');
        if (/x-www-form-urlencoded/i.test(ct) && !/^\s*[[{"]/.test(text)) {
          parsed = Object.fromEntries(new URLSearchParams(text));
        } else throw bad('The payload is not valid JSON', 'INVALID_JSON');
      }
      parsedDone = true;
      return parsed;
    },
    reply(status, body, headers) {
      send(req, res, status, body, headers);
    },
  };
}

async function handle(req, res) {
  const url = new URL(req.url || '/', 'http://127.0.0.1');
  let segs;
  try {
    segs = url.pathname
      .split('/')
      .filter((s) => s !== '')
      .map((s) => decodeURIComponent(s));
  } catch {
    throw bad('Malformed path encoding', 'BAD_PATH');
  }
  const user = authenticate(req);
  if (!user) throw new Unauthenticated();
  let method = String(req.method || 'GET').toUpperCase();
  if (!['GET', 'POST', 'PUT', 'DELETE'].includes(method)) {
    const e = new ApiError(405, 'METHOD_NOT_ALLOWED', `Method ${method} is not supported`);
    e.allow = ['GET', 'POST', 'PUT', 'DELETE'];
    throw e;
  }
  const raw = decodeBody(req, await readBody(req));
  const q = url.searchParams;

  if (segs[0] === 'services' && segs[1] === 'SA-ITOA' && segs[2] === 'v1' && segs[3] === 'icon_collection') {
    if (method === 'PUT') method = 'POST';
    return handleIcons(makeCtx(req, res, user, method, segs.slice(4), q, raw), segs.slice(4));
  }
  if (segs[0] === 'servicesNS' && segs.length >= 4 && Object.hasOwn(INTERFACES, segs[3])) {
    let rest = segs.slice(4);
    if (rest[0] === 'vLatest') rest = rest.slice(1);
    const iface = segs[3];
    if (method === 'PUT' && iface !== 'event_management_interface') method = 'POST';
    return INTERFACES[iface](makeCtx(req, res, user, method, rest, q, raw));
  }
  throw new ApiError(404, 'NOT_FOUND', `No endpoint at ${url.pathname}`);
}

seed();

const server = http.createServer((req, res) => {
  handle(req, res).catch((err) => {
    if (res.headersSent) {
      res.destroy();
      return;
    }
    if (err instanceof Unauthenticated) {
      send(
        req,
        res,
        401,
        { messages: [{ type: 'WARN', text: 'call not properly authenticated' }] },
        { 'WWW-Authenticate': 'Basic realm="/platform"' },
      );
      return;
    }
    if (err instanceof ApiError) {
      const h = {};
      if (err.allow) h.Allow = err.allow.join(', ');
      send(req, res, err.status, errorBody(err), h);
      return;
    }
    console.error(err);
    send(req, res, 500, { messages: [{ type: 'ERROR', code: 'INTERNAL', text: 'Internal error' }] });
  });
});
server.on('clientError', (_err, socket) => {
  if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n');
});
server.keepAliveTimeout = 5000;

const port = Number(process.env.PORT || 8089);
server.listen(port, '127.0.0.1', () => {
  process.stdout.write(`listening on ${port}\n`);
});
