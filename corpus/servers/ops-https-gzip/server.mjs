// Operations intelligence management REST API - in-memory implementation over HTTPS.
import https from 'node:https';
import fs from 'node:fs';
import zlib from 'node:zlib';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { HttpError, bad, notFound } from './lib/util.mjs';
import { authenticate } from './lib/auth.mjs';
import { EMPTY } from './lib/http.mjs';
import { coreRoutes } from './lib/core.mjs';
import { eventRoutes } from './lib/events.mjs';
import { kvInterfaceRoutes } from './lib/maintbackup.mjs';
import { iconRoutes } from './lib/icons.mjs';
import { seedAll } from './lib/seed.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const BUGS = new Set(
  (process.env.BUG || '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean),
);
const MAX_BODY = 8 * 1024 * 1024;

seedAll();

function route(ctx, method, segs, q) {
  if (segs[0] === 'servicesNS') {
    if (segs.length < 4) throw notFound('Unknown path');
    const iface = segs[3];
    let rest = segs.slice(4);
    if (rest[0] === 'vLatest') rest = rest.slice(1);
    switch (iface) {
      case 'itoa_interface':
        return coreRoutes(ctx, method, rest, q);
      case 'event_management_interface':
        return eventRoutes(ctx, method, rest, q);
      case 'maintenance_services_interface':
        return kvInterfaceRoutes(ctx, method, rest, q, ['maintenance_calendar'], { supportedTypesRoute: true });
      case 'backup_restore_interface':
        return kvInterfaceRoutes(ctx, method, rest, q, ['backup_restore'], { supportedTypesRoute: false });
      default:
        throw notFound(`Unknown interface "${iface}"`);
    }
  }
  if (segs[0] === 'services' && segs[1] === 'SA-ITOA' && segs[2] === 'v1' && segs[3] === 'icon_collection') {
    return iconRoutes(ctx, method, segs.slice(4), q);
  }
  throw notFound('Unknown path');
}

function acceptsGzip(header) {
  if (typeof header !== 'string') return false;
  return header.split(',').some((part) => {
    const [enc, ...params] = part
      .trim()
      .split(';')
      .map((s) => s.trim());
    if (enc.toLowerCase() !== 'gzip') return false;
    const qp = params.find((p) => p.toLowerCase().startsWith('q='));
    return !qp || Number(qp.slice(2)) > 0;
  });
}

function send(req, res, status, payload, extraHeaders = {}) {
  if (res.headersSent || res.destroyed) return;
  res.statusCode = status;
  res.setHeader('Connection', 'close');
  for (const [k, v] of Object.entries(extraHeaders)) res.setHeader(k, v);
  if (req.httpVersion === '1.1') res.setHeader('Transfer-Encoding', 'chunked');
  if (payload === EMPTY) {
    res.end();
    return;
  }
  res.setHeader('Content-Type', 'application/json');
  let buf = Buffer.from(JSON.stringify(payload), 'utf8');
  if (acceptsGzip(req.headers['accept-encoding'])) {
    buf = zlib.gzipSync(buf);
    res.setHeader('Content-Encoding', 'gzip');
  }
  res.setHeader('Vary', 'Accept-Encoding');
  if (req.method === 'HEAD') {
    res.end();
    return;
  }
  res.write(buf);
  res.end();
}

const errorBody = (type, text) => ({ messages: [{ type, text }] });

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
        reject(new HttpError(413, 'Payload too large'));
        return;
      }
      chunks.push(c);
    });
    req.on('end', () => {
      if (!failed) resolve(Buffer.concat(chunks));
    });
    req.on('error', (_e) => {
      if (!failed) {
        failed = true;
        reject(new HttpError(400, 'Could not read the request body'));
      }
    });
  });
}

async function handle(req, res) {
  const delay = 5 + Math.floor(Math.random() * 26);
  let status = 200,
    payload,
    headers = {};
  try {
    let raw = await readBody(req);
    const enc = String(req.headers['content-encoding'] || '')
      .trim()
      .toLowerCase();
    if (raw.length && (enc === 'gzip' || enc === 'x-gzip')) {
      try {
        raw = zlib.gunzipSync(raw, { maxOutputLength: MAX_BODY });
      } catch {
        throw bad('Request body is not valid gzip data');
      }
    }
    const user = authenticate(req.headers.authorization);
    if (!user) {
      throw Object.assign(new HttpError(401, 'call not properly authenticated', { 'WWW-Authenticate': 'Basic realm="/servicesNS"' }), {
        kind: 'WARN',
      });
    }
    let url;
    try {
      url = new URL(req.url, 'https://localhost');
    } catch {
      throw bad('Malformed request target');
    }
    let segs;
    try {
      segs = url.pathname
        .split('/')
        .filter((s) => s !== '')
        .map((s) => decodeURIComponent(s));
    } catch {
      throw bad('Malformed percent-encoding in the path');
    }
    let method = req.method.toUpperCase();
    if (method === 'HEAD') method = 'GET';
    if (method === 'PUT') method = 'POST';
    const text = raw.toString('utf8');
    let parsed,
      parsedDone = false;
    const ctx = {
      user,
      bug: (n) => BUGS.has(n),
      json() {
        if (!parsedDone) {
          parsedDone = true;
          const t = text.replace(/^\uFEFF/, '');
          if (t.trim() === '') parsed = undefined;
          else {
            try {
              parsed = JSON.parse(t);
            } catch {
              parsedDone = false;
              throw bad('Payload is not valid JSON');
            }
          }
        }
        return parsed;
      },
    };
    payload = route(ctx, method, segs, url.searchParams);
    if (payload === undefined) payload = EMPTY;
  } catch (e) {
    if (e instanceof HttpError) {
      status = e.status;
      headers = e.headers || {};
      payload = errorBody(e.kind || 'ERROR', e.text);
    } else {
      process.stderr.write(`internal error on ${req.method} ${req.url}: ${e?.stack ? e.stack : e}\n`);
      status = 500;
      payload = errorBody('ERROR', 'Internal server error');
    }
  }
  setTimeout(() => {
    try {
      send(req, res, status, payload, headers);
    } catch (e) {
      process.stderr.write(`send failure: ${e?.stack}\n`);
      try {
        res.destroy();
      } catch {
        /* ignore */
      }
    }
  }, delay);
}

const server = https.createServer(
  {
    key: fs.readFileSync(path.join(here, 'key.pem')),
    cert: fs.readFileSync(path.join(here, 'cert.pem')),
    ALPNProtocols: ['http/1.1', 'http/1.0'],
  },
  (req, res) => {
    handle(req, res).catch((e) => {
      process.stderr.write(`handler failure: ${e?.stack}\n`);
      try {
        res.destroy();
      } catch {
        /* ignore */
      }
    });
  },
);

server.on('clientError', (_err, socket) => {
  try {
    socket.destroy();
  } catch {
    /* ignore */
  }
});
server.on('tlsClientError', () => {});
process.on('uncaughtException', (e) => process.stderr.write(`uncaught: ${e?.stack}\n`));
process.on('unhandledRejection', (e) => process.stderr.write(`unhandled: ${e?.stack}\n`));

const port = process.env.PORT === undefined || process.env.PORT === '' ? 8089 : Number(process.env.PORT);
server.listen(port, '127.0.0.1', () => {
  process.stdout.write(`listening on ${server.address().port}\n`);
});
