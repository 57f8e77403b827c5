import { STATUS_CODES, createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { buildApiRequest } from './request';
import type { ApiHandler, ApiRequest, ApiResponse, ErrorBody } from './types';

export interface NodeListenerOptions {
  errorBody: ErrorBody;
  /** Largest accepted request body; default 1 MiB. */
  bodyLimitBytes?: number;
  /** Longest accepted request target (path + query); default 8192. */
  maxUrlLength?: number;
}

export interface ListenOptions extends NodeListenerOptions {
  /** Default 0: a free port chosen by the system. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** Serve HTTPS with this key and certificate (PEM) instead of plain HTTP. */
  tls?: { key: string | Buffer; cert: string | Buffer };
}

export interface RunningServer {
  url: string;
  port: number;
  close(): Promise<void>;
}

const DEFAULT_BODY_LIMIT = 1024 * 1024;
const DEFAULT_MAX_URL = 8192;

function logLine(text: string): void {
  process.stderr.write(`[http] ${text.replace(/\s*\n\s*/g, ' | ')}\n`);
}

function describe(err: unknown): string {
  if (err instanceof Error) return `${err.name}: ${err.message}`;
  return String(err);
}

type BodyResult = { kind: 'ok'; body: Buffer } | { kind: 'too-large' } | { kind: 'aborted' };

// Stops at the limit instead of buffering the rest: a declared length over the limit is refused before reading.
function readBody(req: IncomingMessage, limit: number): Promise<BodyResult> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) return Promise.resolve({ kind: 'too-large' });
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const finish = (result: BodyResult) => {
      if (settled) return;
      settled = true;
      req.off('data', onData);
      resolve(result);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        chunks.length = 0;
        req.pause();
        finish({ kind: 'too-large' });
        return;
      }
      chunks.push(chunk);
    };
    req.on('data', onData);
    req.on('end', () => finish({ kind: 'ok', body: Buffer.concat(chunks) }));
    req.on('error', () => finish({ kind: 'aborted' }));
    req.on('close', () => finish(req.complete ? { kind: 'ok', body: Buffer.concat(chunks) } : { kind: 'aborted' }));
  });
}

function parseRequest(req: IncomingMessage, raw: Buffer): ApiRequest {
  return buildApiRequest(req.method ?? 'GET', req.url ?? '/', req.headers, raw.toString('utf8'));
}

function isValidStatus(status: unknown): status is number {
  return typeof status === 'number' && Number.isInteger(status) && status >= 200 && status <= 599;
}

// Serialise first, then write: a response that cannot be serialised becomes a 500 instead of half a response.
function serialise(response: ApiResponse): { status: number; headers: Record<string, string>; payload?: Buffer } {
  if (typeof response !== 'object' || response === null || !isValidStatus(response.status)) {
    throw new Error(`handler returned an invalid response: ${JSON.stringify(response)?.slice(0, 200)}`);
  }
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(response.headers ?? {})) {
    if (name.toLowerCase() === 'content-length') continue;
    headers[name.toLowerCase()] = String(value);
  }
  const bodyless = response.status === 204 || response.status === 304;
  if (response.rawBody !== undefined && !bodyless) {
    const payload = Buffer.from(response.rawBody, 'utf8');
    headers['content-length'] = String(payload.length);
    return { status: response.status, headers, payload };
  }
  if (response.body === undefined || bodyless) {
    if (!bodyless) headers['content-length'] = '0';
    return { status: response.status, headers };
  }
  const json = JSON.stringify(response.body);
  if (json === undefined) throw new Error('handler returned a body that is not JSON-serialisable');
  const payload = Buffer.from(json, 'utf8');
  headers['content-type'] ??= 'application/json; charset=utf-8';
  headers['content-length'] = String(payload.length);
  return { status: response.status, headers, payload };
}

function write(res: ServerResponse, out: ReturnType<typeof serialise>): void {
  if (res.headersSent || res.destroyed) return;
  res.writeHead(out.status, out.headers);
  res.end(out.payload);
}

function errorResponse(errorBody: ErrorBody, status: number, message: string): ReturnType<typeof serialise> {
  let body: unknown;
  try {
    body = errorBody(status, message);
  } catch (err) {
    logLine(`errorBody(${status}) failed: ${describe(err)}`);
    body = { code: 'InternalServerError', message };
  }
  return serialise({ status, body });
}

/** Adapts an in-process ApiHandler to a node:http request listener. */
export function toNodeListener(handler: ApiHandler, opts: NodeListenerOptions): (req: IncomingMessage, res: ServerResponse) => void {
  const limit = opts.bodyLimitBytes ?? DEFAULT_BODY_LIMIT;
  const maxUrl = opts.maxUrlLength ?? DEFAULT_MAX_URL;

  // The connection is closed after refusing a request whose body was not read: the unread bytes would otherwise
  // be taken for the next request on a keep-alive connection.
  const refuse = (res: ServerResponse, status: number, message: string) => {
    const out = errorResponse(opts.errorBody, status, message);
    out.headers.connection = 'close';
    write(res, out);
  };

  const serve = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const target = req.url ?? '/';
    if (target.length > maxUrl) {
      refuse(res, 414, `Request target is ${target.length} characters long; the limit is ${maxUrl}`);
      return;
    }
    const read = await readBody(req, limit);
    if (read.kind === 'aborted') return;
    if (read.kind === 'too-large') {
      refuse(res, 413, `Request body exceeds the limit of ${limit} bytes`);
      return;
    }
    const apiRequest = parseRequest(req, read.body);
    let out: ReturnType<typeof serialise>;
    try {
      out = serialise(await handler(apiRequest));
    } catch (err) {
      logLine(`${apiRequest.method} ${apiRequest.path.slice(0, 200)} failed: ${describe(err)}`);
      out = errorResponse(opts.errorBody, 500, 'Internal server error');
    }
    write(res, out);
  };

  return (req, res) => {
    // Socket-level failures (client gone) must not become unhandled 'error' events.
    req.on('error', () => {});
    res.on('error', () => {});
    serve(req, res).catch((err: unknown) => {
      logLine(`unexpected failure: ${describe(err)}`);
      if (!res.headersSent && !res.destroyed) {
        res.writeHead(500, { 'content-length': '0', connection: 'close' });
        res.end();
      } else {
        res.destroy();
      }
    });
  };
}

function formatHost(host: string): string {
  return host.includes(':') ? `[${host}]` : host;
}

/** Starts a node:http server for `handler` (127.0.0.1, free port by default). */
export async function listen(handler: ApiHandler, opts: ListenOptions): Promise<RunningServer> {
  const host = opts.host ?? '127.0.0.1';
  const listener = toNodeListener(handler, opts);
  const server = opts.tls ? createTlsServer({ keepAlive: true, ...opts.tls }, listener) : createServer({ keepAlive: true }, listener);

  // Node answers `Expect: 100-continue` by itself; refuse instead when the body or target would be refused anyway,
  // so the client never starts sending it.
  const limit = opts.bodyLimitBytes ?? DEFAULT_BODY_LIMIT;
  const maxUrl = opts.maxUrlLength ?? DEFAULT_MAX_URL;
  server.on('checkContinue', (req: IncomingMessage, res: ServerResponse) => {
    const declared = Number(req.headers['content-length']);
    const refused = (req.url ?? '').length > maxUrl || (Number.isFinite(declared) && declared > limit);
    if (!refused) res.writeContinue();
    listener(req, res);
  });

  // Replaces node's bare default so parse errors and oversized headers (431) carry the API's error body too.
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Duplex) => {
    const current = (socket as Duplex & { _httpMessage?: ServerResponse })._httpMessage;
    if (err.code === 'ECONNRESET' || !socket.writable || current?.headersSent) {
      socket.destroy();
      return;
    }
    const status = err.code === 'HPE_HEADER_OVERFLOW' ? 431 : err.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
    const message = status === 431 ? 'Request header fields too large' : status === 408 ? 'Request timeout' : 'Malformed HTTP request';
    try {
      const out = errorResponse(opts.errorBody, status, message);
      const head = [`HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Error'}`, 'connection: close'];
      for (const [name, value] of Object.entries(out.headers)) head.push(`${name}: ${value}`);
      socket.end(Buffer.concat([Buffer.from(`${head.join('\r\n')}\r\n\r\n`), out.payload ?? Buffer.alloc(0)]));
    } catch {
      socket.destroy();
    }
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  server.on('error', (err) => logLine(`server error: ${describe(err)}`));

  const port = (server.address() as AddressInfo).port;
  let closing: Promise<void> | undefined;
  return {
    url: `${opts.tls ? 'https' : 'http'}://${formatHost(host)}:${port}`,
    port,
    close() {
      closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return closing;
    },
  };
}
