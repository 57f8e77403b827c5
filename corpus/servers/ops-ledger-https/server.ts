// Entry point: HTTPS server, authentication, routing, body handling, compression, lag variant.
import https from 'node:https';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { ApiError, USERS, type User, initStore, readDb, writeDb, commit, LAGGING } from './lib';
import { coreRoute, type Ctx, type Resp } from './core';
import { contentRoute, seedContent } from './content';
import { eventRoute, maintenanceRoute, backupRoute, iconRoute } from './other';
import { seed } from './seed';

const here = path.dirname(fileURLToPath(import.meta.url));
const MAX_BODY = 50 * 1024 * 1024; // platform "max_content_length" style limit

initStore((db) => {
  seed(db);
  seedContent(db);
});

function authenticate(h: string | undefined): User | null {
  if (!h || !/^basic /i.test(h)) return null;
  let dec = '';
  try {
    dec = Buffer.from(h.slice(6).trim(), 'base64').toString('utf8');
  } catch {
    return null;
  }
  const i = dec.indexOf(':');
  if (i < 0) return null;
  const u = USERS[dec.slice(0, i)];
  return u && u.password === dec.slice(i + 1) ? u : null;
}

type Route = { iface: string; parts: string[] } | null;
const IFACES = ['itoa_interface', 'event_management_interface', 'maintenance_services_interface', 'backup_restore_interface'];
function parseRoute(pathname: string): Route {
  let segs: string[];
  try {
    segs = pathname
      .split('/')
      .filter(Boolean)
      .map((s) => decodeURIComponent(s));
  } catch {
    return null;
  }
  if (segs[0] === 'services' && segs[1] === 'SA-ITOA' && segs[2] === 'v1' && segs[3] === 'icon_collection') {
    return { iface: 'icon_collection', parts: segs.slice(4) };
  }
  let rest: string[];
  if (segs[0] === 'servicesNS' && segs.length >= 4) rest = segs.slice(3);
  else if (segs[0] === 'services' && segs.length >= 2) rest = segs.slice(1);
  else return null;
  const iface = rest[0];
  if (!IFACES.includes(iface)) return null;
  let parts = rest.slice(1);
  if (parts[0] === 'vLatest') parts = parts.slice(1);
  return { iface, parts };
}

function dispatch(r: NonNullable<Route>, ctx: Ctx): Resp {
  switch (r.iface) {
    case 'itoa_interface':
      return coreRoute(ctx, contentRoute);
    case 'event_management_interface':
      return eventRoute(ctx);
    case 'maintenance_services_interface':
      return maintenanceRoute(ctx);
    case 'backup_restore_interface':
      return backupRoute(ctx);
    default:
      return iconRoute(ctx);
  }
}

const server = https.createServer(
  { cert: fs.readFileSync(path.join(here, 'cert.pem')), key: fs.readFileSync(path.join(here, 'key.pem')) },
  (req, res) => {
    const send = (status: number, body: unknown, extra: Record<string, string> = {}) => {
      if (res.headersSent) return;
      let buf = body === undefined ? Buffer.alloc(0) : Buffer.from(JSON.stringify(body));
      const headers: Record<string, string> = { ...extra };
      if (buf.length) headers['Content-Type'] = 'application/json; charset=UTF-8';
      const ae = String(req.headers['accept-encoding'] || '');
      if (buf.length >= 1024 && /\bgzip\b/.test(ae)) {
        buf = zlib.gzipSync(buf);
        headers['Content-Encoding'] = 'gzip';
        headers['Vary'] = 'Accept-Encoding';
      }
      headers['Content-Length'] = String(buf.length);
      res.writeHead(status, headers);
      res.end(req.method === 'HEAD' ? undefined : buf);
    };
    const err = (status: number, text: string, extra: Record<string, string> = {}) =>
      send(status, { messages: [{ type: 'ERROR', text }] }, extra);

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
        if (tooBig) return err(413, `Content-Length exceeds the maximum of ${MAX_BODY} bytes.`);
        const url = new URL(req.url || '/', 'https://localhost');
        const user = authenticate(req.headers.authorization);
        if (!user) return err(401, 'call not properly authenticated', { 'WWW-Authenticate': 'Basic realm="/platform"' });
        const route = parseRoute(url.pathname);
        if (!route) return err(404, `Unknown endpoint ${url.pathname}.`);
        let raw = Buffer.concat(chunks);
        const ce = String(req.headers['content-encoding'] || '').toLowerCase();
        if (ce && ce !== 'identity') {
          try {
            if (ce === 'gzip') raw = zlib.gunzipSync(raw);
            else if (ce === 'deflate') raw = zlib.inflateSync(raw);
            else return err(415, `Unsupported Content-Encoding "${ce}".`);
          } catch {
            return err(400, 'The request body could not be decompressed.');
          }
          if (raw.length > MAX_BODY) return err(413, `Decompressed body exceeds the maximum of ${MAX_BODY} bytes.`);
        }
        const method = (req.method || 'GET').toUpperCase();
        let parsed: unknown;
        let parsedDone = false;
        const ctx: Ctx = {
          method: method === 'HEAD' ? 'GET' : method,
          parts: route.parts,
          q: url.searchParams,
          user,
          db: method === 'GET' || method === 'HEAD' ? readDb() : writeDb(),
          body: () => {
            if (!parsedDone) {
              const text = raw.toString('utf8').trim();
              parsedDone = true;
              if (!text) parsed = undefined;
              else {
                try {
                  parsed = JSON.parse(text);
                } catch {
                  parsedDone = false;
                  throw new ApiError(400, 'The request body is not valid JSON.');
                }
              }
            }
            return parsed;
          },
        };
        const r = dispatch(route, ctx);
        if (ctx.method !== 'GET' && r.status < 400) commit();
        send(r.status, r.body);
      } catch (e) {
        if (e instanceof ApiError) return err(e.status, e.message);
        console.error(e);
        err(500, 'Internal server error.');
      }
    });
  },
);
server.keepAliveTimeout = 5000;
server.on('clientError', (_e, sock) => {
  try {
    sock.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n');
  } catch {
    /* ignore */
  }
});
process.on('uncaughtException', (e) => console.error('uncaught', e));
const port = Number(process.env.PORT ?? 8089);
server.listen(Number.isFinite(port) ? port : 0, () => {
  const addr = server.address();
  const p = typeof addr === 'object' && addr ? addr.port : port;
  console.log(`listening on ${p}`);
  if (LAGGING) console.error('variant lagging: reads lag writes by 300-1200 ms');
});
