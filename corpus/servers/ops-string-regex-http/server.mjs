// Operations intelligence management REST API: in-memory server (plain HTTP on 127.0.0.1:$PORT).
import http from 'node:http';
import { HttpError, sendJson, sendEmpty, errorBody, bad, notFound } from './lib/util.mjs';
import { authenticate } from './lib/auth.mjs';
import { handleCore } from './lib/core.mjs';
import { handleEvents } from './lib/events.mjs';
import { handleMaintenance, handleBackup, handleIcons } from './lib/maint.mjs';
import { seed } from './lib/seed.mjs';

const MAX_BODY = 16 * 1024 * 1024;
const INTERFACES = {
  itoa_interface: handleCore,
  event_management_interface: handleEvents,
  maintenance_services_interface: handleMaintenance,
  backup_restore_interface: handleBackup,
};

seed();

function route(ctx, method, segs, q) {
  // /servicesNS/<user>/<app>/<interface>[/vLatest]/...
  if (segs[0] === 'servicesNS' && segs.length >= 4) {
    const handler = Object.hasOwn(INTERFACES, segs[3]) ? INTERFACES[segs[3]] : undefined;
    if (!handler) throw notFound(`Unknown interface "${segs[3]}"`);
    ctx.pathUser = segs[1];
    ctx.app = segs[2];
    let rest = segs.slice(4);
    if (rest[0] === 'vLatest') rest = rest.slice(1);
    return handler(ctx, method, rest, q);
  }
  // /services/SA-ITOA/v1/icon_collection[/<_key>]
  if (segs[0] === 'services' && segs[1] === 'SA-ITOA' && segs[2] === 'v1' && segs[3] === 'icon_collection') {
    ctx.pathUser = 'nobody';
    return handleIcons(ctx, method, segs.slice(4), q);
  }
  throw notFound('Unknown endpoint');
}

function makeCtx(user, raw) {
  return {
    user,
    pathUser: 'nobody',
    raw,
    json(optional = false) {
      const text = raw.toString('utf8').replace(/^\uFEFF/, '');
      if (text.trim() === '') {
        if (optional) return undefined;
        throw bad('A JSON payload is required');
      }
      try {
        return JSON.parse(text, (k, v) => (k === '__proto__' ? undefined : v));
      } catch (e) {
        throw bad(`Payload is not valid JSON: ${e.message}`);
      }
    },
  };
}

const server = http.createServer((req, res) => {
  const chunks = [];
  let size = 0;
  let tooBig = false;
  req.on('data', (c) => {
    size += c.length;
    if (size > MAX_BODY) {
      tooBig = true;
      return;
    }
    chunks.push(c);
  });
  req.on('error', () => {});
  req.on('end', () => {
    try {
      const user = authenticate(req);
      if (!user) {
        sendJson(
          res,
          401,
          { messages: [{ type: 'WARN', text: 'call not properly authenticated' }] },
          { 'WWW-Authenticate': 'Basic realm="/platform"' },
        );
        return;
      }
      if (tooBig) throw new HttpError(413, `Payload larger than ${MAX_BODY} bytes`);
      let url;
      try {
        url = new URL(req.url, 'http://127.0.0.1');
      } catch {
        throw bad('Malformed URL');
      }
      let segs;
      try {
        segs = url.pathname
          .split('/')
          .slice(1)
          .map((s) => decodeURIComponent(s));
      } catch {
        throw bad('Malformed percent-encoding in path');
      }
      if (segs.length && segs[segs.length - 1] === '') segs.pop();
      const ctx = makeCtx(user, Buffer.concat(chunks));
      const out = route(ctx, req.method.toUpperCase(), segs, url.searchParams);
      if (out.empty) sendEmpty(res, out.status);
      else sendJson(res, out.status, out.json);
    } catch (e) {
      if (e instanceof HttpError) {
        sendJson(res, e.status, errorBody(e.status, e.message), e.extra || {});
      } else {
        console.error(e);
        try {
          sendJson(res, 500, errorBody(500, 'Internal error'));
        } catch {
          /* ignore */
        }
      }
    }
  });
});

server.on('clientError', (_err, socket) => {
  try {
    socket.end('HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n');
  } catch {
    /* ignore */
  }
});
process.on('uncaughtException', (e) => console.error('uncaught', e));
process.on('unhandledRejection', (e) => console.error('unhandled', e));

const port = Number(process.env.PORT || 8089);
server.listen(port, '127.0.0.1', () => {
  console.log(`listening on ${port}`);
});
