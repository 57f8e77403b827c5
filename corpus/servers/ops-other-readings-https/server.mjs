// Operations intelligence management REST API -- test server.
// Start: PORT=8089 node server.mjs   (HTTPS, self-signed key.pem/cert.pem next to this file)
import https from 'node:https';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { HttpError, Reply, bad } from './lib/util.mjs';
import { authenticate, unauthenticated } from './lib/access.mjs';
import { handleCore } from './lib/core.mjs';
import { handleLibrary, handleAuthoring } from './lib/cp.mjs';
import { handleEvents } from './lib/events.mjs';
import { handleMaintenance, handleBackup } from './lib/maint.mjs';
import { handleIcons } from './lib/icons.mjs';
import { seed } from './lib/seed.mjs';
import { enabledBugs } from './lib/bugs.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const MAX_BODY = 1048576; // payload limit (bytes, after decompression)
const JSON_PREFIX = ' '.repeat(96) + '\n'; // JSON bodies are preceded by a run of white space and a newline

seed();

function readBody(req) {
  return new Promise((resolve, reject) => {
    const enc = String(req.headers['content-encoding'] || 'identity')
      .trim()
      .toLowerCase();
    let stream = req;
    if (enc === 'gzip' || enc === 'x-gzip') stream = req.pipe(zlib.createGunzip());
    else if (enc === 'deflate') stream = req.pipe(zlib.createInflate());
    else if (enc !== 'identity' && enc !== '') {
      req.resume();
      return reject(new HttpError(415, `Unsupported Content-Encoding '${enc}'`));
    }
    const chunks = [];
    let size = 0,
      done = false;
    const declared = Number(req.headers['content-length']);
    if (enc === 'identity' && Number.isFinite(declared) && declared > MAX_BODY) {
      req.resume();
      return reject(new HttpError(413, `Payload exceeds ${MAX_BODY} bytes`));
    }
    stream.on('data', (c) => {
      if (done) return;
      size += c.length;
      if (size > MAX_BODY) {
        done = true;
        req.resume();
        return reject(new HttpError(413, `Payload exceeds ${MAX_BODY} bytes`));
      }
      chunks.push(c);
    });
    stream.on('end', () => {
      if (!done) {
        done = true;
        resolve(Buffer.concat(chunks));
      }
    });
    stream.on('error', () => {
      if (!done) {
        done = true;
        reject(new HttpError(400, 'Malformed compressed body'));
      }
    });
    req.on('error', () => {
      if (!done) {
        done = true;
        reject(new HttpError(400, 'Request body could not be read'));
      }
    });
  });
}

function makeCtx(req, url, user, pathUser, raw) {
  const text = raw.toString('utf8');
  let parsed,
    parsedOk = false,
    parseErr = null;
  const parse = () => {
    if (parsedOk || parseErr) return;
    if (text.trim() === '') {
      parsed = undefined;
      parsedOk = true;
      return;
    }
    try {
      parsed = JSON.parse(text.replace(/^\uFEFF/, ''));
      parsedOk = true;
    } catch (e) {
      parseErr = e;
    }
  };
  return {
    req,
    method: req.method,
    q: url.searchParams,
    user,
    pathUser,
    get body() {
      parse();
      if (parseErr) throw bad('The payload is not valid JSON');
      if (parsed === undefined) throw bad('A JSON payload is required');
      return parsed;
    },
    get bodyOptional() {
      parse();
      if (parseErr) throw bad('The payload is not valid JSON');
      return parsed;
    },
  };
}

function decodeSegs(p) {
  const segs = p.split('/').filter((s, i, a) => !(s === '' && (i === 0 || i === a.length - 1)));
  return segs.map((s) => {
    try {
      return decodeURIComponent(s);
    } catch {
      throw bad('Malformed percent-encoding in the path');
    }
  });
}

function stripVersion(rest) {
  if (rest[0] === 'vLatest') return rest.slice(1);
  if (/^v[0-9]/.test(rest[0] || '') || /^vlatest$/i.test(rest[0] || '')) {
    throw new HttpError(404, `Only the latest version is supported ('${rest[0]}' is not)`);
  }
  return rest;
}

function route(ctx, segs) {
  if (segs[0] === 'servicesNS' && segs.length >= 4) {
    const iface = segs[3];
    let rest = stripVersion(segs.slice(4));
    switch (iface) {
      case 'itoa_interface':
        if (rest[0] === 'content_pack_authorship') return handleAuthoring(ctx, stripVersion(rest.slice(1)));
        if (rest[0] === 'content_pack') return handleLibrary(ctx, rest.slice(1));
        if (rest[0] === 'custom_threshold_windows' && rest[1] === 'vLatest') rest = [rest[0], ...rest.slice(2)];
        return handleCore(ctx, rest);
      case 'event_management_interface':
        return handleEvents(ctx, rest);
      case 'maintenance_services_interface':
        return handleMaintenance(ctx, rest);
      case 'backup_restore_interface':
        return handleBackup(ctx, rest);
      default:
        throw new HttpError(404, `Unknown interface '${iface}'`);
    }
  }
  if (segs[0] === 'services' && segs[1] === 'SA-ITOA' && (segs[2] === 'v1' || segs[2] === 'vLatest') && segs[3] === 'icon_collection') {
    return handleIcons(ctx, segs.slice(4));
  }
  throw new HttpError(404, 'Unknown endpoint');
}

function send(req, res, status, bodyStr, extraHeaders = {}, contentType = 'application/json; charset=UTF-8') {
  const headers = { ...extraHeaders };
  let buf = bodyStr === undefined ? Buffer.alloc(0) : Buffer.from(bodyStr, 'utf8');
  if (bodyStr !== undefined) headers['Content-Type'] = contentType;
  const ae = String(req.headers['accept-encoding'] || '');
  if (buf.length > 0 && /\bgzip\b/i.test(ae) && !/gzip;\s*q=0(\.0*)?\b/i.test(ae)) {
    buf = zlib.gzipSync(buf);
    headers['Content-Encoding'] = 'gzip';
    headers['Vary'] = 'Accept-Encoding';
  }
  headers['Content-Length'] = buf.length;
  res.writeHead(status, headers);
  res.end(buf);
}

function sendError(req, res, e) {
  const status = e instanceof HttpError ? e.status : 400;
  const text = e?.message ? e.message : 'Bad request';
  const body = e?.platform ? { messages: [{ type: 'WARN', text }] } : { message: `(${status}, '${text.replace(/'/g, '"')}')` };
  send(req, res, status, JSON_PREFIX + JSON.stringify(body), e instanceof HttpError ? e.extraHeaders : {});
}

async function handler(req, res) {
  let url;
  try {
    url = new URL(req.url, 'https://localhost');
  } catch {
    req.resume();
    return sendError(req, res, bad('Malformed request target'));
  }
  let raw;
  try {
    raw = await readBody(req);
  } catch (e) {
    return sendError(req, res, e);
  }
  try {
    const segs = decodeSegs(url.pathname);
    const user = authenticate(req);
    if (!user) throw unauthenticated();
    const pathUser = segs[0] === 'servicesNS' && segs[1] ? segs[1] : 'nobody';
    const ctx = makeCtx(req, url, user, pathUser, raw);
    const out = route(ctx, segs);
    const textMode = url.searchParams.get('report_as') === 'text';
    const ct = textMode ? 'text/plain; charset=UTF-8' : undefined;
    if (out instanceof Reply) {
      if (out.empty) return send(req, res, out.status, undefined);
      return send(req, res, out.status, JSON_PREFIX + JSON.stringify(out.json), {}, ct);
    }
    return send(req, res, 200, JSON_PREFIX + JSON.stringify(out === undefined ? null : out), {}, ct);
  } catch (e) {
    if (!(e instanceof HttpError)) process.stderr.write(`unexpected error on ${req.method} ${req.url}: ${e?.stack}\n`);
    return sendError(req, res, e);
  }
}

const server = https.createServer(
  {
    key: fs.readFileSync(path.join(here, 'key.pem')),
    cert: fs.readFileSync(path.join(here, 'cert.pem')),
  },
  (req, res) => {
    handler(req, res).catch((e) => {
      process.stderr.write(`handler failure: ${e?.stack}\n`);
      try {
        if (!res.headersSent) sendError(req, res, bad('Bad request'));
        else res.end();
      } catch {
        /* ignore */
      }
    });
  },
);
server.on('clientError', (_err, socket) => {
  try {
    socket.end('HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n');
  } catch {
    /* ignore */
  }
});
server.on('tlsClientError', () => {});
process.on('uncaughtException', (e) => process.stderr.write(`uncaught: ${e?.stack}\n`));
process.on('unhandledRejection', (e) => process.stderr.write(`unhandled: ${e?.stack}\n`));

const port = Number(process.env.PORT || 8089);
server.listen(port, '127.0.0.1', () => {
  if (enabledBugs().length) process.stderr.write(`BUG enabled: ${enabledBugs().join(',')}\n`);
  process.stdout.write(`listening on ${port}\n`);
});
