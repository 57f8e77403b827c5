// Operations intelligence management REST API: independent in-memory HTTPS server.
import { createServer } from 'node:https';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { HttpError, USERS, beginRequest, fail, type User } from './store.js';
import { seedAll } from './seed.js';
import { handleCore, type Res } from './core.js';
import { handleLibrary, handleAuthoring } from './cp.js';
import { handleEm, handleMaint, handleBackup, handleIcons } from './misc.js';

let here: string;
try {
  here = dirname(fileURLToPath(import.meta.url));
} catch {
  here = __dirname;
}

seedAll();

const MAX_BODY = 2 * 1024 * 1024;

function authenticate(h: string | undefined): User | null {
  if (!h || !/^basic\s+/i.test(h)) return null;
  let dec = '';
  try {
    dec = Buffer.from(h.replace(/^basic\s+/i, '').trim(), 'base64').toString('utf8');
  } catch {
    return null;
  }
  const i = dec.indexOf(':');
  if (i < 0) return null;
  const name = dec.slice(0, i),
    pw = dec.slice(i + 1);
  const rec = Object.hasOwn(USERS, name) ? USERS[name] : undefined;
  return rec && rec.pw === pw ? rec.u : null;
}

function parseBody(raw: string, ctype: string): any {
  if (!raw.trim()) return undefined;
  try {
    return JSON.parse(raw);
  } catch {
    if (/x-www-form-urlencoded/i.test(ctype)) {
      const out: any = {};
      for (const [k, v] of new URLSearchParams(raw)) out[k] = v;
      return out;
    }
    return fail(400, 'bad_json', 'the request body is not valid JSON');
  }
}

function route(method: string, segs: string[], q: URLSearchParams, body: any, u: User): Res {
  if (segs[0] === 'services' && segs[1] === 'SA-ITOA' && segs[2] === 'v1' && segs[3] === 'icon_collection')
    return handleIcons(method, segs.slice(4), q, body, u);
  if (segs[0] === 'servicesNS' && segs.length >= 4 && segs[1] && segs[2]) {
    let rest = segs.slice(4);
    if (rest[0] === 'vLatest') rest = rest.slice(1);
    switch (segs[3]) {
      case 'itoa_interface':
        if (rest[0] === 'content_pack') return handleLibrary(method, rest.slice(1), q, body, u);
        if (rest[0] === 'content_pack_authorship') return handleAuthoring(method, rest.slice(1), q, body, u);
        return handleCore(method, rest, q, body, u);
      case 'event_management_interface':
        return handleEm(method, rest, q, body, u);
      case 'maintenance_services_interface':
        return handleMaint(method, rest, q, body, u);
      case 'backup_restore_interface':
        return handleBackup(method, rest, q, body, u);
    }
  }
  return fail(404, 'not_found', 'no such endpoint');
}

function send(res: any, status: number, body: any, extra: Record<string, string> = {}) {
  if (status === 204 || body === undefined) {
    res.writeHead(status === 200 ? 204 : status, extra);
    res.end();
    return;
  }
  const text = JSON.stringify(body);
  res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(text), ...extra });
  res.end(text);
}
function sendError(res: any, e: HttpError, extra: Record<string, string> = {}) {
  send(res, e.status, { error: { http_status: e.status, code: e.code, message: e.message } }, extra);
}

const server = createServer({ key: readFileSync(join(here, 'key.pem')), cert: readFileSync(join(here, 'cert.pem')) }, (req, res) => {
  const chunks: Buffer[] = [];
  let size = 0;
  let tooBig = false;
  req.on('data', (c: Buffer) => {
    size += c.length;
    if (size > MAX_BODY) tooBig = true;
    else chunks.push(c);
  });
  req.on('error', () => {});
  req.on('end', () => {
    try {
      const method = String(req.method || 'GET').toUpperCase();
      const u = authenticate(req.headers.authorization);
      if (!u) {
        sendError(res, new HttpError(401, 'unauthorized', 'valid credentials (HTTP Basic) are required'), {
          'WWW-Authenticate': 'Basic realm="ops-management"',
        });
        return;
      }
      if (tooBig) fail(413, 'payload_too_large', 'request body exceeds the payload limit');
      let url: URL;
      try {
        url = new URL(req.url || '/', 'https://localhost');
      } catch {
        return fail(400, 'bad_request', 'malformed URL');
      }
      let segs: string[];
      try {
        segs = url.pathname
          .split('/')
          .filter(Boolean)
          .map((s) => decodeURIComponent(s));
      } catch {
        return fail(400, 'bad_request', 'malformed URL encoding');
      }
      const body = parseBody(Buffer.concat(chunks).toString('utf8'), String(req.headers['content-type'] || ''));
      beginRequest(method);
      const r = route(method, segs, url.searchParams, body, u);
      send(res, r.s, r.b);
    } catch (e: any) {
      if (e instanceof HttpError) sendError(res, e);
      else {
        console.error(e);
        sendError(res, new HttpError(500, 'internal_error', 'internal server error'));
      }
    }
  });
});
server.on('clientError', (_e, sock) => {
  try {
    sock.destroy();
  } catch {}
});
const port = Number(process.env.PORT || 0) || 0;
server.listen(port, '0.0.0.0', () => {
  const a: any = server.address();
  process.stdout.write(`listening on ${a.port}\n`);
});
