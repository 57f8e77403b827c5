// Independent HTTPS implementation of the Operations Intelligence Management REST API.
//
//   npx tsx corpus/servers/ops-product-like/ops-server.ts [--variant X] [--bug Y ...] [--port N]
//   PORT=N VARIANT=X BUG=Y,Z npx tsx corpus/servers/ops-product-like/ops-server.ts
// It prints the variables a user sets (`export NAME=value`), then `listening on <port>`.

import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { checkBugs, OPS_BUGS, OPS_VARIANTS, profileFor, type Profile } from './ops-config.js';
import { handleCore } from './ops-core.js';
import { handleEvents } from './ops-events.js';
import { ApiError, badRequest, errorBody, render, statusFor, unknownPath, type Ctx, type Reply, type User } from './ops-http.js';
import { handleIcons } from './ops-icons.js';
import { handleBackup, handleMaintenance } from './ops-maintenance.js';
import { handleAuthoring, handleLibrary, libraryState } from './ops-packs.js';
import { seedAll } from './ops-seed.js';
import { DEFAULT_GROUP, Store } from './ops-store.js';

export { OPS_BUGS, OPS_VARIANTS };

export interface OpsServerOptions {
  variant?: string;
  bugs?: string[];
  port?: number;
}

export interface RunningServer {
  url: string;
  env: Record<string, string>;
  close(): Promise<void>;
}

const ADMIN: User = { name: 'admin', password: 'ops-admin-secret', write: true, readGroups: '*' };
const VIEWER: User = { name: 'ops_viewer', password: 'ops-viewer-secret', write: false, readGroups: new Set([DEFAULT_GROUP]) };
const USERS = [ADMIN, VIEWER];

const MAX_BODY = 16 * 1024 * 1024;
// A self-signed certificate for localhost and 127.0.0.1, beside this file.
const tlsFile = (name: string) => readFileSync(fileURLToPath(new URL(name, import.meta.url)));

interface Runtime {
  profile: Profile;
  bugs: ReadonlySet<string>;
  store: Store;
}

function authenticate(req: IncomingMessage): User | undefined {
  const header = req.headers.authorization ?? '';
  const m = /^Basic\s+(\S+)$/i.exec(header);
  if (!m) return undefined;
  const decoded = Buffer.from(m[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return undefined;
  const name = decoded.slice(0, colon);
  const password = decoded.slice(colon + 1);
  return USERS.find((u) => u.name === name && u.password === password);
}

function route(ctx: Ctx, segs: string[]): Reply {
  if (segs[0] === 'services' && segs[1] === 'SA-ITOA' && segs[2] === 'v1' && segs[3] === 'icon_collection') {
    return handleIcons(ctx, segs.slice(4));
  }
  if (segs[0] !== 'servicesNS' || segs.length < 4) throw unknownPath();
  let rest = segs.slice(4);
  if (rest[0] === 'vLatest') {
    if (ctx.bug('vlatest-rejected')) throw unknownPath();
    rest = rest.slice(1);
  }
  switch (segs[3]) {
    case 'itoa_interface':
      if (rest[0] === 'content_pack') return handleLibrary(ctx, rest.slice(1));
      if (rest[0] === 'content_pack_authorship') {
        if (rest[1] !== 'content_pack') throw unknownPath();
        return handleAuthoring(ctx, rest.slice(2));
      }
      return handleCore(ctx, rest);
    case 'event_management_interface':
      return handleEvents(ctx, rest);
    case 'maintenance_services_interface':
      return handleMaintenance(ctx, rest);
    case 'backup_restore_interface':
      return handleBackup(ctx, rest);
    default:
      throw unknownPath();
  }
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY) throw new ApiError(413, 'Request payload exceeds the maximum size');
    chunks.push(chunk as Buffer);
  }
  let raw = Buffer.concat(chunks);
  if (/\bgzip\b/i.test(String(req.headers['content-encoding'] ?? '')) && raw.length) {
    try {
      raw = gunzipSync(raw);
    } catch {
      throw badRequest('Request body is not valid gzip data');
    }
  }
  return raw;
}

function unauthenticated(res: ServerResponse, profile: Profile): void {
  const text = 'call not properly authenticated';
  const body = profile.errorShape === 'error' ? { error: text } : { messages: [{ type: 'WARN', text }] };
  const payload = JSON.stringify(body);
  res.writeHead(401, {
    'Content-Type': 'application/json; charset=UTF-8',
    'WWW-Authenticate': 'Basic realm="/platform"',
    'Content-Length': String(Buffer.byteLength(payload)),
  });
  res.end(payload);
}

async function handle(rt: Runtime, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const { profile } = rt;
  let reply: Reply;
  try {
    const rawBody = await readBody(req);
    const user = authenticate(req);
    if (!user) return unauthenticated(res, profile);
    const url = new URL(req.url ?? '/', 'https://localhost');
    let segs: string[];
    try {
      segs = url.pathname.split('/').filter(Boolean).map(decodeURIComponent);
    } catch {
      throw badRequest('Malformed URL path');
    }
    const ctx: Ctx = {
      method: (req.method ?? 'GET').toUpperCase(),
      segments: segs,
      query: url.searchParams,
      user,
      profile,
      store: rt.store,
      rawBody,
      bug: (id) => rt.bugs.has(id),
    };
    reply = route(ctx, segs);
  } catch (e) {
    if (e instanceof ApiError) {
      const status = statusFor(e, profile);
      reply = { status, body: errorBody(status, e.message, profile) };
    } else {
      console.error('[ops-server] internal error:', e);
      reply = { status: 500, body: errorBody(500, 'Internal server error', profile) };
    }
  }
  render(req, res, profile, reply);
}

/** Internal context used to create the seed objects. */
function seedContext(rt: Runtime): Ctx {
  return {
    method: 'POST',
    segments: [],
    query: new URLSearchParams(),
    user: ADMIN,
    profile: rt.profile,
    store: rt.store,
    rawBody: Buffer.alloc(0),
    bug: () => false,
  };
}

export async function startOpsServer(opts: OpsServerOptions = {}): Promise<RunningServer> {
  const profile = profileFor(opts.variant ?? 'real-product');
  const rt: Runtime = { profile, bugs: checkBugs(opts.bugs ?? []), store: new Store(profile.keyStyle) };
  libraryState(rt.store);
  seedAll(seedContext(rt));

  const server: Server = createServer({ key: tlsFile('key.pem'), cert: tlsFile('cert.pem') }, (req, res) => {
    handle(rt, req, res).catch((e: unknown) => {
      console.error('[ops-server] failed to answer:', e);
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : (opts.port ?? 0);
  const url = `https://127.0.0.1:${port}`;
  return {
    url,
    env: {
      OPS_BASE_URL: url,
      OPS_USERNAME: ADMIN.name,
      OPS_PASSWORD: ADMIN.password,
      OPS_READONLY_USERNAME: VIEWER.name,
      OPS_READONLY_PASSWORD: VIEWER.password,
      OPS_TLS_INSECURE: '1',
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((err) => (err ? reject(err) : resolve()));
        server.closeAllConnections();
      }),
  };
}

// ---------- command line ----------

/** The environment first (PORT, VARIANT, BUG as a comma list), then the flags, which win. */
function parseArgs(argv: string[], env: NodeJS.ProcessEnv): OpsServerOptions {
  const opts: OpsServerOptions = { bugs: (env.BUG ?? '').split(',').filter(Boolean) };
  if (env.VARIANT) opts.variant = env.VARIANT;
  if (env.PORT) opts.port = Number(env.PORT);
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = argv[i].split('=', 2) as [string, string | undefined];
    const value = () => inline ?? argv[++i];
    if (flag === '--variant') opts.variant = value();
    else if (flag === '--bug' || flag === '--bugs') opts.bugs!.push(...value().split(',').filter(Boolean));
    else if (flag === '--port') opts.port = Number(value());
    else if (flag === '--list') {
      for (const v of OPS_VARIANTS) console.log(`variant ${v.id}: ${v.description}`);
      for (const b of OPS_BUGS) console.log(`bug ${b.id}: ${b.description}`);
      process.exit(0);
    } else throw new Error(`unknown argument "${argv[i]}"`);
  }
  return opts;
}

async function main(): Promise<void> {
  const running = await startOpsServer(parseArgs(process.argv.slice(2), process.env));
  for (const [k, v] of Object.entries(running.env)) console.log(`export ${k}=${v}`);
  console.log(`listening on ${new URL(running.url).port}`);
  const stop = () => {
    running.close().finally(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((e: unknown) => {
    console.error(e instanceof Error ? e.message : e);
    process.exit(1);
  });
}
