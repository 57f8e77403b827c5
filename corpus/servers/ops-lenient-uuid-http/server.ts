import http from 'node:http';
import { HttpError, type Doc } from './util.js';
import type { User } from './store.js';
import { USERS, seed } from './seed.js';
import type { Ctx, Reply } from './generic.js';
import { handleCore, handleEm, handleMaintenance, handleBackup, handleIcons } from './handlers.js';

const MAX_BODY = 50 * 1024 * 1024;

function authenticate(header: string | undefined): User | undefined {
  if (!header) return undefined;
  const m = /^Basic\s+(.+)$/i.exec(header.trim());
  if (!m) return undefined;
  let decoded: string;
  try {
    decoded = Buffer.from(m[1], 'base64').toString('utf8');
  } catch {
    return undefined;
  }
  const i = decoded.indexOf(':');
  if (i < 0) return undefined;
  const name = decoded.slice(0, i);
  const pw = decoded.slice(i + 1);
  const u = USERS[name];
  if (!u || u.password !== pw) return undefined;
  return u.user;
}

function parseBody(raw: string): { hasBody: boolean; body: unknown } {
  if (raw.trim() === '') return { hasBody: false, body: undefined };
  try {
    return { hasBody: true, body: JSON.parse(raw) as unknown };
  } catch {
    // form-encoded fallback (key=value&...)
    if (/^[^{[\s][^=]*=/.test(raw.trim())) {
      const p = new URLSearchParams(raw.trim());
      const d: Doc = {};
      for (const [k, v] of p) {
        let val: unknown = v;
        const t = v.trim();
        if (t.startsWith('{') || t.startsWith('[')) {
          try {
            val = JSON.parse(t);
          } catch {
            val = v;
          }
        }
        d[k] = val;
      }
      return { hasBody: true, body: d };
    }
    throw new HttpError(400, 'request body is not valid JSON');
  }
}

function route(ctx: Ctx, segs: string[]): Reply {
  if (segs[0] === 'services' && segs[1] === 'SA-ITOA' && segs[2] === 'v1' && segs[3] === 'icon_collection') {
    return handleIcons(ctx, segs.slice(4));
  }
  if (segs[0] === 'servicesNS' && segs.length >= 4) {
    const iface = segs[3];
    let rest = segs.slice(4);
    if (rest[0] === 'vLatest') rest = rest.slice(1);
    switch (iface) {
      case 'itoa_interface':
        return handleCore(ctx, rest);
      case 'event_management_interface':
        return handleEm(ctx, rest);
      case 'maintenance_services_interface':
        return handleMaintenance(ctx, rest);
      case 'backup_restore_interface':
        return handleBackup(ctx, rest);
      case 'icon_collection':
        return handleIcons(ctx, rest);
      default:
        break;
    }
  }
  throw new HttpError(404, 'endpoint not found');
}

function send(res: http.ServerResponse, status: number, body: unknown, extra: Record<string, string> = {}): void {
  if (body === undefined) {
    res.writeHead(status, { 'Content-Length': '0', ...extra });
    res.end();
    return;
  }
  const s = JSON.stringify(body);
  res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': String(Buffer.byteLength(s)), ...extra });
  res.end(s);
}

const server = http.createServer((req, res) => {
  const chunks: Buffer[] = [];
  let size = 0;
  let aborted = false;
  req.on('data', (c: Buffer) => {
    if (aborted) return;
    size += c.length;
    if (size > MAX_BODY) {
      aborted = true;
      send(res, 413, { error: 'payload too large' });
      req.resume();
      return;
    }
    chunks.push(c);
  });
  req.on('error', () => {
    if (!res.headersSent) send(res, 400, { error: 'request error' });
  });
  req.on('end', () => {
    if (aborted) return;
    try {
      const url = new URL(req.url ?? '/', 'http://localhost');
      let segs: string[];
      try {
        segs = url.pathname
          .split('/')
          .filter((s) => s !== '')
          .map((s) => decodeURIComponent(s));
      } catch {
        throw new HttpError(400, 'malformed URL');
      }
      const user = authenticate(req.headers.authorization);
      if (!user) {
        send(res, 401, { error: 'authentication required' }, { 'WWW-Authenticate': 'Basic realm="ops"' });
        return;
      }
      let method = (req.method ?? 'GET').toUpperCase();
      if (method === 'HEAD') method = 'GET';
      const { hasBody, body } = parseBody(Buffer.concat(chunks).toString('utf8'));
      const ctx: Ctx = { method, q: url.searchParams, body, hasBody, user };
      const r = route(ctx, segs);
      send(res, r.status, req.method === 'HEAD' ? undefined : r.body);
    } catch (e) {
      if (e instanceof HttpError) send(res, e.status, { error: e.message });
      else {
        console.error(e);
        send(res, 400, { error: e instanceof Error ? e.message : 'bad request' });
      }
    }
  });
});

seed();
const port = Number(process.env.PORT ?? 8090) || 8090;
server.listen(port, '127.0.0.1', () => {
  console.log(`listening on ${port}`);
});
