// Operations intelligence management REST API - in-memory implementation.
// Start: PORT=8089 node server.mjs   (optional BUG=name1,name2 ; MALFORMED_STATUS=400)
import http from 'node:http';
import zlib from 'node:zlib';
import { HttpError, errorBody, randomInt, sleep } from './lib/util.mjs';
import { authenticate } from './lib/store.mjs';
import { handleCore } from './lib/core.mjs';
import { handleEvents } from './lib/events.mjs';
import { handleMaint } from './lib/maint.mjs';
import { handleBackup } from './lib/backup.mjs';
import { handleIcons } from './lib/icons.mjs';
import { seed } from './lib/seed.mjs';
import { activeBugs, KNOWN_BUGS } from './lib/bugs.mjs';

const PORT = Number(process.env.PORT || 8089);
const MAX_BODY = 4 * 1024 * 1024;
// status for a body that is not valid JSON (the real product answers 500 here)
const MALFORMED_STATUS = Number(process.env.MALFORMED_STATUS || 500);

for (const b of activeBugs()) if (!KNOWN_BUGS.includes(b)) process.stderr.write(`warning: unknown BUG name "${b}"\n`);

const INTERFACES = {
  itoa_interface: handleCore,
  event_management_interface: handleEvents,
  maintenance_services_interface: handleMaint,
  backup_restore_interface: handleBackup,
};

function splitPath(pathname) {
  let p = pathname;
  if (p.length > 1 && p.endsWith('/')) p = p.slice(0, -1);
  const raw = p.split('/').slice(1);
  return raw.map((s) => {
    try {
      return decodeURIComponent(s);
    } catch {
      throw new HttpError(400, `Malformed percent-encoding in path segment "${s}"`);
    }
  });
}

function route(segs) {
  // /services/SA-ITOA/v1/icon_collection[/<key>]
  if (segs[0] === 'services' && segs[1] === 'SA-ITOA' && segs[2] === 'v1' && segs[3] === 'icon_collection')
    return { handler: handleIcons, rest: segs.slice(4) };
  // /servicesNS/<user>/<app>/<interface>[/vLatest]/...
  if (segs[0] === 'servicesNS' && segs.length >= 4 && segs[1] && segs[2] && INTERFACES[segs[3]]) {
    let rest = segs.slice(4);
    if (rest[0] === 'vLatest') rest = rest.slice(1);
    if (rest.some((s) => s === '')) return null;
    return { handler: INTERFACES[segs[3]], rest };
  }
  return null;
}

function parseJson(buf) {
  let text = buf.toString('utf8');
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  if (!text.trim()) return undefined;
  try {
    // keys that could reach Object.prototype through a merge are dropped
    return JSON.parse(text, (k, v) => (k === '__proto__' ? undefined : v));
  } catch (e) {
    throw new HttpError(MALFORMED_STATUS, `Malformed JSON payload: ${e.message}`);
  }
}

function send(req, res, status, body, extraHeaders = {}) {
  const headers = {
    'Cache-Control': 'no-store, no-cache, must-revalidate, max-age=0',
    'X-Content-Type-Options': 'nosniff',
    'X-Frame-Options': 'SAMEORIGIN',
    Server: 'Platformd',
    Vary: 'Authorization',
    ...extraHeaders,
  };
  if (status === 204 || body === undefined) {
    res.writeHead(status, headers);
    res.end();
    return;
  }
  // real deployments precede the JSON document with a run of white space and a newline
  let payload = Buffer.from(`${' '.repeat(randomInt(24, 160))}\n${JSON.stringify(body, null, 4)}`, 'utf8');
  headers['Content-Type'] = 'application/json; charset=UTF-8';
  const ae = String(req.headers['accept-encoding'] || '');
  if (/\bgzip\b/i.test(ae) && payload.length > 1024 && req.method !== 'HEAD') {
    payload = zlib.gzipSync(payload);
    headers['Content-Encoding'] = 'gzip';
  }
  headers['Content-Length'] = payload.length;
  res.writeHead(status, headers);
  res.end(req.method === 'HEAD' ? undefined : payload);
}

async function handle(req, res, bodyBuf, bodyErr) {
  const url = new URL(req.url, 'http://localhost');
  const user = authenticate(req.headers.authorization);
  if (!user) {
    send(req, res, 401, errorBody('call not properly authenticated', 'WARN'), { 'WWW-Authenticate': 'Basic realm="/platform"' });
    return;
  }
  const segs = splitPath(url.pathname);
  const r = route(segs);
  if (!r) throw new HttpError(404, `Unknown path ${url.pathname}`);
  let parsed;
  let done = false;
  const ctx = {
    user,
    method: req.method === 'HEAD' ? 'GET' : req.method,
    query: url.searchParams,
    async json(required) {
      if (bodyErr) throw bodyErr;
      if (!done) {
        parsed = parseJson(bodyBuf);
        done = true;
      }
      if (parsed === undefined && required) throw new HttpError(400, 'A JSON payload is required for this request');
      return parsed;
    },
  };
  const out = await r.handler(ctx, r.rest);
  send(req, res, out.status || 200, out.status === 204 ? undefined : out.body, out.headers);
}

let queue = Promise.resolve();

function readBody(req) {
  return new Promise((resolve) => {
    const chunks = [];
    let size = 0;
    let tooBig = false;
    req.on('data', (c) => {
      size += c.length;
      if (size > MAX_BODY) tooBig = true;
      else chunks.push(c);
    });
    req.on('end', () => {
      if (tooBig) return resolve({ err: new HttpError(413, `Payload larger than ${MAX_BODY} bytes`) });
      let buf = Buffer.concat(chunks);
      const enc = String(req.headers['content-encoding'] || '').toLowerCase();
      try {
        if (enc === 'gzip' || enc === 'x-gzip') buf = zlib.gunzipSync(buf);
        else if (enc === 'deflate') buf = zlib.inflateSync(buf);
      } catch {
        return resolve({ err: new HttpError(400, 'Request body could not be decompressed') });
      }
      resolve({ buf });
    });
    req.on('error', () => resolve({ err: new HttpError(400, 'Request body could not be read') }));
  });
}

const server = http.createServer((req, res) => {
  const bodyP = readBody(req);
  queue = queue
    .then(async () => {
      const { buf, err } = await bodyP;
      await sleep(randomInt(3, 16));
      try {
        await handle(req, res, buf || Buffer.alloc(0), err);
      } catch (e) {
        if (e instanceof HttpError) send(req, res, e.status, errorBody(e.text), e.extraHeaders);
        else {
          process.stderr.write(`internal error on ${req.method} ${req.url}: ${e?.stack}\n`);
          send(req, res, 500, errorBody(`Internal error: ${e?.message}`));
        }
      }
    })
    .catch((e) => {
      process.stderr.write(`response failure: ${e?.stack}\n`);
      try {
        if (!res.headersSent) res.writeHead(500);
        res.end();
      } catch {
        /* socket gone */
      }
    });
});

server.on('clientError', (_err, socket) => {
  try {
    if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
    else socket.destroy();
  } catch {
    /* ignore */
  }
});
process.on('uncaughtException', (e) => process.stderr.write(`uncaught: ${e?.stack}\n`));
process.on('unhandledRejection', (e) => process.stderr.write(`unhandled: ${e?.stack}\n`));

seed();
server.listen(PORT, '127.0.0.1', () => {
  process.stdout.write(`listening on ${PORT}\n`);
});
