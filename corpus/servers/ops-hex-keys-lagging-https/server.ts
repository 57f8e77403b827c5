// biome-ignore-all lint/suspicious/noExplicitAny: the documents are free-form JSON read by shape, as their author wrote them
// HTTPS entry point: TLS, Basic auth, body parsing, routing, refusal rendering.
import { createServer, type ServerOptions } from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Ctx, Refusal, type Reply, USERS, type User, VARIANT, badInput, notFound, refuse } from './lib';
import { coreRoutes, seedCore } from './core';
import { seedLibrary } from './contentpack';
import { backupRoutes, eventRoutes, iconRoutes, maintenanceRoutes, seedEvents, seedIcons, seedOps } from './others';

const here = dirname(fileURLToPath(import.meta.url));
const tls: ServerOptions = { key: readFileSync(join(here, 'key.pem')), cert: readFileSync(join(here, 'cert.pem')) };
const MAX_BODY = 8 * 1024 * 1024;

seedCore();
seedLibrary();
seedEvents();
seedOps();
seedIcons();

function authenticate(req: IncomingMessage): User {
  const h = req.headers.authorization || '';
  const m = /^Basic\s+(\S+)$/i.exec(h);
  if (!m) refuse(401, 'unauthenticated', 'authentication required (HTTP Basic)');
  const dec = Buffer.from(m![1], 'base64').toString('utf8');
  const i = dec.indexOf(':');
  const name = i < 0 ? dec : dec.slice(0, i),
    pw = i < 0 ? '' : dec.slice(i + 1);
  const u = USERS[name];
  if (!u || u.pw !== pw) refuse(401, 'unauthenticated', 'unknown user name or wrong password');
  return u!.user;
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY) {
        reject(new Refusal(413, 'payload_too_large', 'payload exceeds 8 MiB'));
        req.destroy();
        return;
      }
      chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}
function parseBody(raw: Buffer, ctype: string): any {
  const s = raw.toString('utf8').trim();
  if (!s) return undefined;
  if (ctype.includes('application/x-www-form-urlencoded') && !/^[[{]/.test(s)) {
    return Object.fromEntries(new URLSearchParams(s));
  }
  try {
    return JSON.parse(s);
  } catch {
    return badInput('payload is not valid JSON');
  }
}

function route(ctx: Ctx, segs: string[]): Reply {
  if (segs[0] === 'services' && segs[1] === 'SA-ITOA' && segs[2] === 'v1' && segs[3] === 'icon_collection')
    return iconRoutes(ctx, segs.slice(4));
  if (segs[0] !== 'servicesNS' || segs.length < 4) return notFound('unknown path');
  ctx.pathUser = segs[1];
  const iface = segs[3];
  let rest = segs.slice(4);
  if (rest[0] === 'vLatest') rest = rest.slice(1);
  switch (iface) {
    case 'itoa_interface':
      return coreRoutes(ctx, rest);
    case 'event_management_interface':
      return eventRoutes(ctx, rest);
    case 'maintenance_services_interface':
      return maintenanceRoutes(ctx, rest);
    case 'backup_restore_interface':
      return backupRoutes(ctx, rest);
  }
  return notFound(`unknown interface '${iface}'`);
}

function send(res: ServerResponse, r: Reply): void {
  if (r.status === 204 || r.body === undefined) {
    res.writeHead(r.status === 200 ? 204 : r.status);
    res.end();
    return;
  }
  const data = JSON.stringify(r.body);
  res.writeHead(r.status, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(data) });
  res.end(data);
}
function sendRefusal(res: ServerResponse, e: Refusal): void {
  if (VARIANT === 'refusals-200') {
    send(res, { status: 200, body: { success: false, message: e.message } });
    return;
  }
  const headers: Record<string, string> = {};
  if (e.status === 401) headers['WWW-Authenticate'] = 'Basic realm="ops-management"';
  const data = JSON.stringify({ error: { status: e.status, reason: e.reason, detail: e.message } });
  res.writeHead(e.status, { ...headers, 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(data) });
  res.end(data);
}

const server = createServer(tls, async (req, res) => {
  try {
    const url = new URL(req.url || '/', 'https://localhost');
    const user = authenticate(req);
    const raw = await readBody(req);
    let segs: string[];
    try {
      segs = url.pathname.split('/').filter(Boolean).map(decodeURIComponent);
    } catch {
      segs = [];
      badInput('malformed path');
    }
    const ctx: Ctx = {
      method: (req.method || 'GET').toUpperCase(),
      segs,
      q: url.searchParams,
      user,
      pathUser: 'nobody',
      body: parseBody(raw, String(req.headers['content-type'] || '')),
    };
    send(res, route(ctx, segs));
  } catch (e) {
    if (e instanceof Refusal) {
      sendRefusal(res, e);
      return;
    }
    console.error(e);
    if (!res.headersSent) {
      const data = JSON.stringify({ error: { status: 500, reason: 'internal', detail: String((e as Error)?.message ?? e) } });
      res.writeHead(500, { 'Content-Type': 'application/json' });
      res.end(data);
    }
  }
});

server.listen(Number(process.env.PORT || 0), () => {
  const a = server.address();
  process.stdout.write(`listening on ${typeof a === 'object' && a ? a.port : process.env.PORT}\n`);
});
