// Operations intelligence management REST API: an in-memory HTTPS server.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:https';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { AuthError, authenticate } from './lib/auth.mjs';
import { handleBackup } from './lib/backup.mjs';
import { handleCore } from './lib/core.mjs';
import { handleEvents } from './lib/events.mjs';
import { HttpError, notFound, parseBody, readBody, sendEmpty, sendError, sendJson } from './lib/http.mjs';
import { handleIcons, seedIcons } from './lib/icons.mjs';
import { handleMaintenance } from './lib/maintenance.mjs';
import { seedCore } from './lib/seed-core.mjs';
import { seedEvents } from './lib/seed-events.mjs';

const here = dirname(fileURLToPath(import.meta.url));

seedCore();
seedEvents();
seedIcons();

const INTERFACES = {
  itoa_interface: handleCore,
  event_management_interface: handleEvents,
  maintenance_services_interface: handleMaintenance,
  backup_restore_interface: handleBackup,
};

function segments(pathname) {
  return pathname
    .split('/')
    .filter((s) => s !== '')
    .map((s) => {
      try {
        return decodeURIComponent(s);
      } catch {
        return s;
      }
    });
}

function stripVersion(rest) {
  return rest.length && /^vlatest$/i.test(rest[0]) ? rest.slice(1) : rest;
}

/** Which handler serves a path, and the segments left for it. */
function route(parts) {
  if (parts[0] === 'servicesNS' && parts.length >= 4) {
    const iface = parts[3];
    const rest = stripVersion(parts.slice(4));
    if (iface === 'icon_collection') return { icons: true, rest };
    const handler = INTERFACES[iface];
    if (handler) return { handler, rest };
  }
  if (parts[0] === 'services' && parts[1] === 'SA-ITOA') {
    let rest = parts.slice(2);
    if (rest[0] && /^v(1|latest)$/i.test(rest[0])) rest = rest.slice(1);
    if (rest[0] === 'icon_collection') return { icons: true, rest: rest.slice(1) };
  }
  return null;
}

const delay = () => new Promise((r) => setTimeout(r, Math.floor(Math.random() * 31)));

async function handle(req, res) {
  await delay();
  const url = new URL(req.url, 'https://localhost');
  const user = authenticate(req);
  if (!user) throw new AuthError();
  const target = route(segments(url.pathname));
  if (!target) throw notFound(`path ${url.pathname}`);
  const q = url.searchParams;
  let method = req.method.toUpperCase();
  if (method === 'PUT') method = 'POST';
  if (method === 'PATCH') {
    method = 'POST';
    q.set('is_partial_data', '1');
  }
  if (!['GET', 'POST', 'DELETE'].includes(method)) throw new HttpError(405, `method ${req.method} is not supported`);
  const body = method === 'GET' ? undefined : parseBody(await readBody(req));
  const ctx = { method, q, body, user, segs: target.rest };
  const result = target.icons ? handleIcons(ctx, target.rest) : target.handler(ctx);
  if (result.status === 204) sendEmpty(res, 204);
  else sendJson(res, result.status, result.body);
}

const server = createServer({ cert: readFileSync(join(here, 'cert.pem')), key: readFileSync(join(here, 'key.pem')) }, (req, res) => {
  handle(req, res).catch((err) => {
    if (res.headersSent) return;
    if (err instanceof AuthError) {
      sendJson(
        res,
        401,
        { messages: [{ type: 'WARN', text: 'call not properly authenticated' }] },
        { 'WWW-Authenticate': 'Basic realm="/platform"' },
      );
      return;
    }
    if (!(err instanceof HttpError)) process.stderr.write(`${err?.stack || err}\n`);
    sendError(res, err instanceof HttpError ? err : new HttpError(500, 'internal server error'));
  });
});

const port = Number(process.env.PORT || 8089);
server.listen(port, '127.0.0.1', () => {
  process.stdout.write(`listening on ${server.address().port}\n`);
});
