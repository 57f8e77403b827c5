import { createServer } from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync, gunzipSync } from 'node:zlib';
import { timingSafeEqual } from 'node:crypto';
import { HttpError, notFound } from './lib.js';
import { USERS, type User, seed } from './state.js';
import type { Ctx, Res } from './ctx.js';
import { coreHandler } from './core.js';
import { libraryHandler, authoringHandler, emHandler, maintHandler, backupHandler, iconHandler } from './other.js';

const here = dirname(fileURLToPath(import.meta.url));
const MAX_BODY = 50 * 1024 * 1024;
const METHODS = ['GET', 'POST', 'PUT', 'DELETE'];

function authenticate(req: IncomingMessage): User | null {
  const h = req.headers.authorization;
  if (!h || !/^basic\s+/i.test(h)) return null;
  let dec: string;
  try {
    dec = Buffer.from(h.replace(/^basic\s+/i, '').trim(), 'base64').toString('utf8');
  } catch {
    return null;
  }
  const i = dec.indexOf(':');
  if (i < 0) return null;
  const name = dec.slice(0, i);
  const pw = Buffer.from(dec.slice(i + 1));
  const u = USERS.find((x) => x.name === name);
  if (!u) return null;
  const want = Buffer.from(u.password);
  if (want.length !== pw.length || !timingSafeEqual(want, pw)) return null;
  return u;
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let n = 0;
    let tooBig = false;
    req.on('data', (c: Buffer) => {
      n += c.length;
      if (n > MAX_BODY) tooBig = true;
      else if (!tooBig) chunks.push(c);
    });
    req.on('end', () =>
      tooBig ? reject(new HttpError(413, `The request body exceeds the ${MAX_BODY} byte limit.`)) : resolve(Buffer.concat(chunks)),
    );
    req.on('error', reject);
  });
}

function send(req: IncomingMessage, res: ServerResponse, r: Res): void {
  const headers: Record<string, string> = { 'X-Content-Type-Options': 'nosniff', 'Cache-Control': 'no-store', ...(r.headers ?? {}) };
  if (r.status === 204 || r.body === undefined) {
    res.writeHead(r.status, headers);
    res.end();
    return;
  }
  let buf = Buffer.from(JSON.stringify(r.body, null, 2) + '\n', 'utf8');
  headers['Content-Type'] = 'application/json; charset=utf-8';
  const ae = String(req.headers['accept-encoding'] ?? '');
  if (buf.length > 1024 && /\bgzip\b/i.test(ae)) {
    buf = gzipSync(buf);
    headers['Content-Encoding'] = 'gzip';
    headers.Vary = 'Accept-Encoding';
  }
  headers['Content-Length'] = String(buf.length);
  res.writeHead(r.status, headers);
  res.end(req.method === 'HEAD' ? undefined : buf);
}
function errBody(status: number, text: string, headers: Record<string, string> = {}): Res {
  return { status, body: { messages: [{ type: 'ERROR', text }] }, headers };
}

const IFACES = ['itoa_interface', 'event_management_interface', 'maintenance_services_interface', 'backup_restore_interface'];

function route(ctx: Ctx, segs: string[]): Res {
  // /services/SA-ITOA/v1/icon_collection[/key]
  if (segs[0] === 'services' && segs[1] === 'SA-ITOA' && segs[2] === 'v1' && segs[3] === 'icon_collection') {
    return iconHandler(ctx, segs.slice(4));
  }
  if (segs[0] !== 'servicesNS' || segs.length < 4) throw notFound(`No endpoint at /${segs.join('/')}.`);
  const iface = segs[3];
  if (!IFACES.includes(iface)) throw notFound(`Unknown interface "${iface}".`);
  let rest = segs.slice(4);
  if (rest[0] === 'vLatest') rest = rest.slice(1);
  else if (rest[0] !== undefined && /^v\d/.test(rest[0]))
    throw notFound(`Only the latest API version is supported; use "vLatest" or leave the version out.`);
  switch (iface) {
    case 'itoa_interface':
      if (rest[0] === 'content_pack') return libraryHandler(ctx, rest.slice(1));
      if (rest[0] === 'content_pack_authorship') return authoringHandler(ctx, rest.slice(1));
      return coreHandler(ctx, rest);
    case 'event_management_interface':
      return emHandler(ctx, rest);
    case 'maintenance_services_interface':
      return maintHandler(ctx, rest);
    default:
      return backupHandler(ctx, rest);
  }
}

async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
  let r: Res;
  try {
    const method = (req.method ?? 'GET').toUpperCase();
    const url = new URL(req.url ?? '/', 'https://localhost');
    const raw = await readBody(req);
    const user = authenticate(req);
    if (!user) {
      r = errBody(401, 'Authentication is required: call this endpoint with HTTP Basic credentials.', {
        'WWW-Authenticate': 'Basic realm="/platform"',
      });
      send(req, res, r);
      return;
    }
    if (!METHODS.includes(method)) throw new HttpError(405, `Method ${method} is not supported.`, { Allow: METHODS.join(', ') });
    let segs: string[];
    try {
      segs = url.pathname
        .split('/')
        .filter((s) => s !== '')
        .map((s) => decodeURIComponent(s));
    } catch {
      throw new HttpError(400, 'The request path is not validly URL-encoded.');
    }
    let bodyBuf = raw;
    const ce = String(req.headers['content-encoding'] ?? '').toLowerCase();
    if (ce === 'gzip' && raw.length) {
      try {
        bodyBuf = gunzipSync(raw);
      } catch {
        throw new HttpError(400, 'The request body is not valid gzip data.');
      }
    } else if (ce && ce !== 'identity') throw new HttpError(415, `Content-Encoding "${ce}" is not supported.`);
    const text = bodyBuf.toString('utf8').trim();
    let body: unknown;
    if (text !== '') {
      try {
        body = JSON.parse(text);
      } catch {
        throw new HttpError(400, 'The request body is not valid JSON.');
      }
    }
    const ctx: Ctx = {
      method: method === 'PUT' && !url.pathname.includes('icon_collection') ? 'PUT' : method,
      q: url.searchParams,
      body,
      hasBody: text !== '',
      user,
    };
    r = route(ctx, segs);
  } catch (e) {
    if (e instanceof HttpError) r = errBody(e.status, e.message, e.headers);
    else {
      console.error(e);
      r = errBody(500, 'Internal server error.');
    }
  }
  send(req, res, r);
}

seed();
const server = createServer({ key: readFileSync(join(here, 'key.pem')), cert: readFileSync(join(here, 'cert.pem')) }, (req, res) => {
  handle(req, res).catch((e: unknown) => {
    console.error(e);
    if (!res.headersSent) res.writeHead(500);
    res.end();
  });
});
const port = Number(process.env.PORT ?? 8443);
server.listen(port, '127.0.0.1', () => {
  console.log(`listening on ${port}`);
});
