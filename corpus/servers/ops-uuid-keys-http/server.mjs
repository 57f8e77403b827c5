// Operations intelligence management REST API - in-memory implementation.
// Start: PORT=4711 node server.mjs
import http from 'node:http';
import { authenticate } from './lib/auth.mjs';
import { ApiError, Reply } from './lib/util.mjs';
import { handleCore } from './lib/core.mjs';
import { handleEvents } from './lib/events.mjs';
import { handleMaintenance, handleBackup } from './lib/maint.mjs';
import { handleIcons } from './lib/icons.mjs';
import { seed } from './lib/seed.mjs';

const MAX_BODY = 2 * 1024 * 1024;
const JSON_TYPES = ['application/json', 'application/x-www-form-urlencoded'];

function errorBody(text, type = 'ERROR') {
  return { messages: [{ type, text }] };
}

function readBody(req) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    let size = 0;
    let failed = false;
    req.on('data', (c) => {
      if (failed) return;
      size += c.length;
      if (size > MAX_BODY) {
        failed = true;
        reject(new ApiError(413, `Request body exceeds ${MAX_BODY} bytes`));
        return;
      }
      chunks.push(c);
    });
    req.on('end', () => {
      if (!failed) resolve(Buffer.concat(chunks));
    });
    req.on('error', (e) => {
      if (!failed) {
        failed = true;
        reject(new ApiError(400, `Could not read request body: ${e.message}`));
      }
    });
  });
}

function makeCtx(req, url, user, rawBody, pathUser, pathApp) {
  let parsed,
    done = false;
  return {
    method: req.method,
    user,
    params: url.searchParams,
    pathUser,
    pathApp,
    /** parse the JSON body; required=true -> 422 when empty */
    async json(required) {
      if (done) return parsed;
      const text = rawBody.toString('utf8').trim();
      if (!text) {
        if (required) throw new ApiError(422, 'This request needs a JSON payload');
        done = true;
        return (parsed = undefined);
      }
      const ct = String(req.headers['content-type'] || '')
        .split(';')[0]
        .trim()
        .toLowerCase();
      if (ct && !JSON_TYPES.includes(ct)) throw new ApiError(415, `Unsupported Content-Type '${ct}'; send the payload as application/json`);
      try {
        parsed = JSON.parse(text, (k, v) => (k === '__proto__' ? undefined : v));
      } catch (e) {
        throw new ApiError(400, `The payload is not valid JSON: ${e.message}`);
      }
      done = true;
      return parsed;
    },
  };
}

async function route(req, url, user, rawBody) {
  let segs;
  try {
    segs = url.pathname.split('/').filter(Boolean).map(decodeURIComponent);
  } catch {
    throw new ApiError(400, 'The request path is not correctly URL-encoded');
  }
  if (segs[0] === 'servicesNS' && segs.length >= 4) {
    const [, pathUser, pathApp, iface, ...rest0] = segs;
    const rest = rest0[0] === 'vLatest' ? rest0.slice(1) : rest0;
    const ctx = makeCtx(req, url, user, rawBody, pathUser, pathApp);
    switch (iface) {
      case 'itoa_interface':
        return handleCore(ctx, rest);
      case 'event_management_interface':
        return handleEvents(ctx, rest);
      case 'maintenance_services_interface':
        return handleMaintenance(ctx, rest);
      case 'backup_restore_interface':
        return handleBackup(ctx, rest);
    }
    throw new ApiError(404, `Unknown interface '${iface}'`);
  }
  if (segs[0] === 'services' && segs[1] === 'SA-ITOA' && segs[2] === 'v1' && segs[3] === 'icon_collection') {
    return handleIcons(makeCtx(req, url, user, rawBody, 'nobody', 'SA-ITOA'), segs.slice(4));
  }
  throw new ApiError(
    404,
    `No endpoint at ${url.pathname}. Use /servicesNS/<user>/<app>/<interface>/... or /services/SA-ITOA/v1/icon_collection`,
  );
}

function send(req, res, status, body, headers = {}) {
  const h = { ...headers };
  let payload = '';
  if (body !== undefined) {
    payload = JSON.stringify(body, null, 2);
    h['Content-Type'] = 'application/json; charset=utf-8';
  }
  h['Content-Length'] = Buffer.byteLength(payload);
  h['Cache-Control'] = 'no-store';
  res.writeHead(status, h);
  res.end(req.method === 'HEAD' ? undefined : payload);
}

const server = http.createServer(async (req, res) => {
  try {
    const url = new URL(req.url, 'http://localhost');
    const user = authenticate(req.headers.authorization);
    if (!user) {
      req.resume();
      return send(req, res, 401, errorBody('call not properly authenticated', 'WARN'), { 'WWW-Authenticate': 'Basic realm="/platform"' });
    }
    const rawBody = await readBody(req);
    const out = await route(req, url, user, rawBody);
    if (out instanceof Reply) return send(req, res, out.status, out.body, out.headers);
    return send(req, res, 200, out);
  } catch (e) {
    if (e instanceof ApiError) {
      if (e.status === 413) res.setHeader('Connection', 'close');
      return send(req, res, e.status, errorBody(e.message), e.headers);
    }
    console.error(e);
    return send(req, res, 500, errorBody('Internal server error'));
  }
});

seed();
const port = Number(process.env.PORT) || 4711;
server.listen(port, () => console.log(`listening on ${port}`));
