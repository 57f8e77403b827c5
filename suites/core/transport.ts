import { AsyncLocalStorage } from 'node:async_hooks';
import http from 'node:http';
import https from 'node:https';
import { settingName } from './enabler';
import { proxyAgents } from './proxy-agent';
import { RUN_OPTIONS } from './settings';
import zlib from 'node:zlib';
import { sleep } from './sleep';
import { plainError, transportHint } from './transport-hint';
import type { Exchange } from './types';

/** Raised when a request gets no usable answer: the check that sent it is aborted with this reason. */
export class TransportError extends Error {
  constructor(
    message: string,
    readonly kind: 'timeout' | 'connection' | 'too-large' | 'write-cap' | 'rate-limited',
    /** The setting that would let the request through (settingName), where one would. */
    readonly enabledBy?: string,
  ) {
    super(message);
  }
}

export interface TransportOptions {
  timeoutMs: number;
  maxBodyBytes: number;
  tlsInsecure?: boolean;
  /** Requests per second; 0 means unlimited. */
  rateLimit?: number;
  /** Cap on non-GET requests for fragile deployments; 0 means unlimited. */
  maxWrites?: number;
  /** A 429 whose body names a documented condition is an answer to judge, not a rate limit to wait out. */
  documentedRefusal?: (json: unknown) => boolean;
  /** Requests in flight to the target at most (the run's checks in flight); 0 or unset means unlimited. */
  maxInFlight?: number;
  /** The variable that accepts a self-signed certificate, named in the error when one is refused. */
  tlsInsecureVariable?: string;
  /** The HTTP proxy every request goes through (a CONNECT tunnel for https://). */
  proxy?: { url: string };
}

interface RawRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
}

export interface Transport {
  /** `lane`: who sends it (a check), so that requests in flight are shared out fairly. */
  send(req: RawRequest, lane?: string): Promise<Omit<Exchange, 'operationId' | 'principal'>>;
  /** Runs `fn` with its writes exempt from --max-writes: cleanup of what the run created is never capped. */
  exempt<T>(fn: () => Promise<T>): Promise<T>;
  stats: { requests: number; writes: number };
  close(): void;
}

const RATE_LIMIT_RETRIES = 5;
/** Bodies above this are announced with `Expect: 100-continue` (curl's threshold too). */
const EXPECT_CONTINUE_BYTES = 1024 * 1024;
/** How long an announced body waits for 100 Continue before it is sent anyway. */
const CONTINUE_WAIT_MS = 1000;
const exemptScope = new AsyncLocalStorage<true>();

/**
 * At most `n` calls of `fn` at a time. The others wait in lanes (one per check) served in turn, so a check that sends
 * one request at a time is not held up behind another's burst of requests sent together. Requests wait here rather
 * than in the socket pool, so a request's deadline starts when it is sent, not while it waits for a connection.
 *
 * A target that shows strain (`strained`: a 429, a 503, no answer in time) gets half as many requests in flight at
 * once, and one more for every round of answers without strain, back up to `n` (additive increase, multiplicative
 * decrease, as TCP does): the run never goes beyond `n`, and a fragile deployment is not held at it.
 */
export function limiter(n = 0): {
  run: <T>(fn: () => Promise<T>, lane?: string) => Promise<T>;
  strained(): void;
  answered(): void;
  readonly width: number;
} {
  let width = n;
  let calm = 0;
  if (!n) return { run: (fn) => fn(), strained() {}, answered() {}, width: 0 };
  let active = 0;
  // Insertion order is the turn: a lane that was served goes to the back.
  const lanes = new Map<string, (() => void)[]>();
  const release = () => {
    if (active <= width)
      for (const [lane, waiting] of lanes) {
        lanes.delete(lane);
        const next = waiting.shift()!;
        if (waiting.length) lanes.set(lane, waiting);
        return next();
      }
    active--;
  };
  const run = async <T>(fn: () => Promise<T>, lane = ''): Promise<T> => {
    if (active >= width) {
      await new Promise<void>((resolve) => {
        const waiting = lanes.get(lane);
        if (waiting) waiting.push(resolve);
        else lanes.set(lane, [resolve]);
      });
    } else active++;
    try {
      return await fn();
    } finally {
      release();
    }
  };
  return {
    run,
    strained() {
      width = Math.max(1, Math.floor(width / 2));
      calm = 0;
    },
    answered() {
      if (width >= n || ++calm < width) return;
      calm = 0;
      width++;
      // The new place goes to a waiting request at once (unless requests sent before a strain still fill it).
      if (active >= width) return;
      for (const [lane, waiting] of lanes) {
        lanes.delete(lane);
        const next = waiting.shift()!;
        if (waiting.length) lanes.set(lane, waiting);
        active++;
        return next();
      }
    },
    get width() {
      return width;
    },
  };
}

export function createTransport(options: TransportOptions): Transport {
  // As many sockets as requests may be in flight: a request never waits in the pool with its deadline running.
  const pooling = { keepAlive: true, maxSockets: Math.max(options.maxInFlight ?? 16, 1) };
  const agents = options.proxy
    ? proxyAgents(options.proxy.url, pooling, { rejectUnauthorized: !options.tlsInsecure })
    : {
        'http:': new http.Agent(pooling),
        'https:': new https.Agent({ ...pooling, rejectUnauthorized: !options.tlsInsecure }),
      };
  const stats = { requests: 0, writes: 0 };
  let nextSlot = 0;
  /** Answers received so far: a connection error before the first one may be the scheme or the certificate. */
  const seen = { responses: 0 };
  const slot = limiter(options.maxInFlight);

  async function pace(): Promise<void> {
    if (!options.rateLimit) return;
    const now = Date.now();
    const at = Math.max(now, nextSlot);
    nextSlot = at + 1000 / options.rateLimit;
    if (at > now) await sleep(at - now);
  }

  /**
   * Neither document gives rate limits: a 429 is the target asking for patience, never a verdict. Wait as long as
   * Retry-After says (or back off exponentially) and send again; a target that keeps refusing leaves the check untested.
   */
  async function send(req: RawRequest, lane?: string) {
    for (let attempt = 0; ; attempt++) {
      const ex = await slot
        .run(() => sendOnce(req), lane)
        .catch((e: unknown) => {
          if (e instanceof TransportError && e.kind === 'timeout') slot.strained();
          throw e;
        });
      if (ex.status === 429 || ex.status === 503) slot.strained();
      else slot.answered();
      if (ex.status !== 429 || options.documentedRefusal?.(ex.json)) return ex;
      if (attempt >= RATE_LIMIT_RETRIES)
        throw new TransportError(
          `still answered 429 after ${attempt + 1} attempts of ${req.method} ${new URL(req.url).pathname} (rate limits are not documented)`,
          'rate-limited',
        );
      const after = Number(ex.headers['retry-after']);
      await sleep(Number.isFinite(after) && after >= 0 ? Math.min(after, 30) * 1000 : 250 * 2 ** attempt);
    }
  }

  async function sendOnce(req: RawRequest) {
    const write = req.method !== 'GET' && req.method !== 'HEAD';
    if (write && options.maxWrites && stats.writes >= options.maxWrites && !exemptScope.getStore()) {
      throw new TransportError(
        `write cap of ${options.maxWrites} requests reached (${settingName(RUN_OPTIONS.maxWrites)})`,
        'write-cap',
        settingName(RUN_OPTIONS.maxWrites),
      );
    }
    await pace();
    stats.requests++;
    if (write) stats.writes++;
    const url = new URL(req.url);
    return exchangeOnce(req, url, agents[url.protocol as 'http:' | 'https:'], options, seen);
  }

  return {
    send,
    exempt: (fn) => exemptScope.run(true, fn),
    stats,
    close() {
      agents['http:'].destroy();
      agents['https:'].destroy();
    },
  };
}

type SentExchange = Omit<Exchange, 'operationId' | 'principal'>;

/** One request on the wire and its answer, within the whole-exchange deadline and the response body cap. */
function exchangeOnce(
  req: RawRequest,
  url: URL,
  agent: http.Agent,
  options: TransportOptions,
  seen: { responses: number },
): Promise<SentExchange> {
  const lib = url.protocol === 'https:' ? https : http;
  const started = performance.now();
  const at = Date.now();
  return new Promise<SentExchange>((resolve, reject) => {
    const headers: Record<string, string | number> = { ...req.headers };
    const bodyBytes = req.body === undefined ? 0 : Buffer.byteLength(req.body);
    if (req.body !== undefined) headers['content-length'] = bodyBytes;
    // A large body is announced first: a server that refuses it answers before any of it is sent, instead of
    // closing the connection under an upload that then fails with EPIPE or ECONNRESET and loses the answer.
    const announce = bodyBytes > EXPECT_CONTINUE_BYTES;
    if (announce) headers.expect = '100-continue';
    let uploaded = req.body === undefined;
    /** Set when the answer began before the whole body was written: a refusal, whatever becomes of the upload. */
    let early = false;
    let answered = false;
    const r = lib.request(url, { method: req.method, headers, agent }, (res) => {
      answered = true;
      seen.responses++;
      early = !uploaded;
      const chunks: Buffer[] = [];
      let size = 0;
      let read = false;
      const answer = () => {
        if (read) return;
        read = true;
        clearTimeout(deadline);
        resolve(exchangeOf(req, res, Buffer.concat(chunks), options.maxBodyBytes, { at, started }));
        // The connection of an answer that came before the body was written is not reused: the rest is not sent.
        if (early) r.destroy();
      };
      res.on('data', (c: Buffer) => {
        size += c.length;
        if (size > options.maxBodyBytes) {
          res.destroy();
          reject(
            new TransportError(`response body larger than ${options.maxBodyBytes} bytes from ${req.method} ${url.pathname}`, 'too-large'),
          );
          return;
        }
        chunks.push(c);
      });
      // A server that refuses a body early may close the connection under the rest of the upload, cutting its answer
      // short: the status it gave is the answer, with what arrived of its body.
      res.on('error', (e) =>
        early ? answer() : reject(new TransportError(`connection error reading ${req.method} ${url.pathname}: ${e.message}`, 'connection')),
      );
      res.on('close', () => (early && !res.complete ? answer() : undefined));
      res.on('end', answer);
    });
    // A whole-exchange deadline: a socket idle timeout would let a server that drips bytes hold the run forever.
    const deadline = setTimeout(() => {
      r.destroy();
      reject(new TransportError(`no complete answer within ${options.timeoutMs} ms to ${req.method} ${url.pathname}`, 'timeout'));
    }, options.timeoutMs);
    r.on('close', () => clearTimeout(deadline));
    r.on('error', (e: NodeJS.ErrnoException) => {
      // Once an answer has begun, a failing upload (EPIPE, ECONNRESET) changes nothing: the server has spoken.
      if (answered) return;
      reject(connectionError(e, req, url, options.tlsInsecureVariable, seen.responses > 0));
    });
    r.on('finish', () => (uploaded = true));
    sendBody(r, req.body, announce, () => answered);
  });
}

/** The exchange as a check reads it: the body decoded as its headers say, parsed as JSON where it is JSON. */
function exchangeOf(
  req: RawRequest,
  res: http.IncomingMessage,
  body: Buffer,
  maxBodyBytes: number,
  timing: { at: number; started: number },
): SentExchange {
  const text = decoded(body, res.headers['content-encoding'], maxBodyBytes).toString('utf8');
  const resHeaders: Record<string, string> = {};
  for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) resHeaders[k] = Array.isArray(v) ? v.join(', ') : v;
  let json: unknown;
  let jsonError: string | undefined;
  if (text.trim() !== '') {
    try {
      json = JSON.parse(text);
    } catch (e) {
      jsonError = (e as Error).message;
    }
  }
  return {
    request: req,
    status: res.statusCode ?? 0,
    headers: resHeaders,
    text,
    json,
    jsonError,
    at: timing.at,
    ms: performance.now() - timing.started,
  };
}

/** A request that got no answer, with the hint (scheme, certificate, proxy) that may explain why. */
function connectionError(
  e: NodeJS.ErrnoException,
  req: RawRequest,
  url: URL,
  tlsInsecureVariable: string | undefined,
  answeredBefore: boolean,
): TransportError {
  const hint = transportHint(e, url, { tlsInsecureVariable, answeredBefore });
  return new TransportError(
    `${e.code ?? 'error'} on ${req.method} ${url.origin}${url.pathname}: ${plainError(e.message)}${hint ? ` (${hint})` : ''}`,
    'connection',
  );
}

/** Writes the body, at once or, when it was announced, once the server says 100 Continue; never after an answer. */
function sendBody(r: http.ClientRequest, body: string | undefined, announce: boolean, answered: () => boolean): void {
  const upload = () => {
    if (answered() || r.writableEnded) return;
    r.end(body);
  };
  if (!announce) {
    upload();
    return;
  }
  // A server that ignores Expect never says 100 Continue: after a short wait the body goes anyway, as curl does.
  const patience = setTimeout(upload, CONTINUE_WAIT_MS);
  r.on('continue', () => {
    clearTimeout(patience);
    upload();
  });
  r.on('close', () => clearTimeout(patience));
  r.flushHeaders();
}

/**
 * A check may ask for compression (the platform's settings are observed); the body is judged as the client that
 * asked would read it. A body that does not decode as its header says is kept as sent, and judged as such.
 */
function decoded(body: Buffer, encoding: string | undefined, maxOutputLength: number): Buffer {
  const codings = (encoding ?? '')
    .toLowerCase()
    .split(',')
    .map((c) => c.trim())
    .filter((c) => c !== '' && c !== 'identity');
  try {
    // Codings are listed in the order they were applied: undone last first.
    return codings.reverse().reduce((b, c) => {
      if (c === 'gzip' || c === 'x-gzip') return zlib.gunzipSync(b, { maxOutputLength });
      if (c === 'br') return zlib.brotliDecompressSync(b, { maxOutputLength });
      if (c === 'deflate') return b[0] === 0x78 ? zlib.inflateSync(b, { maxOutputLength }) : zlib.inflateRawSync(b, { maxOutputLength });
      throw new Error(`unknown content coding ${c}`);
    }, body);
  } catch {
    return body;
  }
}
