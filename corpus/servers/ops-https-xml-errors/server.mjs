// Operations intelligence management REST API (simulated), HTTPS, in-memory.
import https from 'node:https';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { HttpError, bad, notFound } from './lib/util.mjs';
import { writeResponse, readBody, jsonBody, JSON_CT, TEXT_CT, XML_CT } from './lib/http.mjs';
import { authenticate, XML_401 } from './lib/auth.mjs';
import { handleCore } from './lib/core.mjs';
import { handleEvents } from './lib/events.mjs';
import { handleMaintenance, handleBackup } from './lib/other.mjs';
import { handleIcons } from './lib/icons.mjs';
import { seed } from './lib/seed.mjs';

const here = dirname(fileURLToPath(import.meta.url));

function splitPath(rawUrl) {
  let pathname, search;
  try {
    const u = new URL(rawUrl, 'https://127.0.0.1');
    pathname = u.pathname;
    search = u.searchParams;
  } catch {
    throw bad('Malformed request target');
  }
  const parts = pathname.split('/').slice(1);
  while (parts.length && parts[parts.length - 1] === '') parts.pop(); // trailing slash accepted
  let segs;
  try {
    segs = parts.map((p) => decodeURIComponent(p));
  } catch {
    throw bad('Malformed percent-encoding in path');
  }
  if (segs.some((s) => s === '')) throw notFound('Unknown endpoint');
  return { segs, query: search };
}

function dispatch(ctx, segs) {
  if (segs[0] === 'servicesNS' && segs.length >= 4) {
    const iface = segs[3];
    let rest = segs.slice(4);
    if (rest[0] === 'vLatest') rest = rest.slice(1);
    switch (iface) {
      case 'itoa_interface':
        return handleCore(ctx, rest);
      case 'event_management_interface':
        return handleEvents(ctx, rest);
      case 'maintenance_services_interface':
        return handleMaintenance(ctx, rest);
      case 'backup_restore_interface':
        return handleBackup(ctx, rest);
      default:
        throw notFound(`Unknown interface: ${iface}`);
    }
  }
  if (segs[0] === 'services' && segs[1] === 'SA-ITOA' && segs[2] === 'v1' && segs[3] === 'icon_collection') {
    return handleIcons(ctx, segs.slice(4));
  }
  throw notFound('Unknown endpoint');
}

async function handle(req, res) {
  let result;
  try {
    const user = authenticate(req.headers.authorization);
    if (!user) {
      await writeResponse(req, res, 401, XML_401, XML_CT, { 'WWW-Authenticate': 'Basic realm="/platform"' });
      return;
    }
    const { segs, query } = splitPath(req.url);
    const raw = await readBody(req);
    let parsed;
    let parsedDone = false;
    const ctx = {
      req,
      user,
      method: req.method,
      query,
      raw,
      body() {
        if (parsedDone) return parsed;
        parsedDone = true;
        let text = raw.toString('utf8');
        if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
        if (!text.trim()) return (parsed = undefined);
        try {
          parsed = JSON.parse(text);
        } catch {
          parsedDone = false;
          throw bad('The request body is not valid JSON');
        }
        return parsed;
      },
    };
    result = dispatch(ctx, segs);
  } catch (e) {
    if (e instanceof HttpError) {
      await writeResponse(req, res, e.status, e.message + '\n', TEXT_CT, e.headers);
    } else {
      process.stderr.write(`internal error: ${e?.stack ? e.stack : e}\n`);
      await writeResponse(req, res, 500, 'Internal server error\n', TEXT_CT);
    }
    return;
  }
  if (result.empty) await writeResponse(req, res, result.status || 200, null);
  else await writeResponse(req, res, result.status || 200, jsonBody(result.json), JSON_CT);
}

seed();

const server = https.createServer(
  {
    key: readFileSync(join(here, 'key.pem')),
    cert: readFileSync(join(here, 'cert.pem')),
    minVersion: 'TLSv1.2',
    maxVersion: 'TLSv1.3',
  },
  (req, res) => {
    handle(req, res).catch((e) => {
      process.stderr.write(`unhandled: ${e?.stack ? e.stack : e}\n`);
      try {
        if (!res.headersSent) {
          res.writeHead(500, { 'Content-Type': TEXT_CT });
          res.end('Internal server error\n');
        } else res.destroy();
      } catch {
        /* ignore */
      }
    });
  },
);
// Keep-alive: idle connections are closed after 1 s.  Node adds a hidden 1 s buffer to
// keepAliveTimeout, so the idle close is enforced with an explicit per-socket timer.
const IDLE_MS = 1000;
server.keepAliveTimeout = IDLE_MS;
function armIdle(socket) {
  clearTimeout(socket.__opsIdle);
  socket.__opsIdle = setTimeout(() => {
    if (!socket.destroyed && !socket.__opsBusy) socket.destroy();
  }, IDLE_MS);
  socket.__opsIdle.unref?.();
}
server.on('secureConnection', (socket) => {
  socket.__opsBusy = 0;
  armIdle(socket);
  socket.on('data', () => clearTimeout(socket.__opsIdle));
  socket.on('close', () => clearTimeout(socket.__opsIdle));
});
server.on('request', (req, res) => {
  const socket = req.socket;
  if (!socket) return;
  clearTimeout(socket.__opsIdle);
  socket.__opsBusy = (socket.__opsBusy || 0) + 1;
  res.on('close', () => {
    socket.__opsBusy = Math.max(0, (socket.__opsBusy || 1) - 1);
    if (!socket.__opsBusy) armIdle(socket);
  });
});
server.headersTimeout = 20000;
server.requestTimeout = 60000;
server.on('clientError', (_err, socket) => {
  try {
    if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nContent-Type: text/plain\r\nConnection: close\r\n\r\n');
    else socket.destroy();
  } catch {
    /* ignore */
  }
});
server.on('tlsClientError', () => {});
server.on('error', (e) => {
  process.stderr.write(`server error: ${e?.message}\n`);
  process.exit(1);
});
process.on('uncaughtException', (e) => process.stderr.write(`uncaught: ${e?.stack ? e.stack : e}\n`));
process.on('unhandledRejection', (e) => process.stderr.write(`unhandled rejection: ${e?.stack ? e.stack : e}\n`));

const port = Number(process.env.PORT || 8089);
server.listen(port, '127.0.0.1', () => {
  process.stdout.write(`listening on ${server.address().port}\n`);
});
