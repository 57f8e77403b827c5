import type { Exchange, Principal, Target } from './types';
import type { Spec } from './spec';
import type { Transport } from './transport';

export interface SendOptions {
  /** Principal role to authenticate as; `null` sends no credentials. Default: primary. */
  as?: string | null;
  params?: Record<string, string>;
  /** An array is sent as the parameter repeated, once per element. */
  query?: Record<string, string | number | boolean | readonly string[] | undefined>;
  /** JSON-serialised request body. */
  body?: unknown;
  /** Body sent byte for byte (malformed-input checks). Wins over `body`. */
  rawBody?: string;
  headers?: Record<string, string>;
  /** Rewrites the expanded path, e.g. to send the same operation in another documented path form. */
  path?: (path: string) => string;
}

/** The JSON body a response documents, or never when it documents none. */
type JsonOf<R> = R extends { content: { 'application/json': infer B } } ? B : never;
/** The JSON body an operation documents for its 2xx answers; unknown for an operation the client has no types for. */
type SuccessBody<Op> = Op extends { responses: infer R }
  ? { [S in keyof R]: S extends 200 | 201 | 202 | 203 | 204 | 206 | '2XX' ? JsonOf<R[S]> : never }[keyof R]
  : unknown;

/**
 * An answer whose body is typed as the operation's success body. Only that far: a server may answer anything, so a
 * check reads the typed body after it has seen a success status, and error bodies through its API's helpers.
 */
export type Answer<Body> = Omit<Exchange, 'json'> & { json?: Body };

/** Operations by id, as openapi-typescript generates them (`operations` of suites/<api>/openapi.gen.ts). */
type Operations = object;

export interface Client<Ops extends Operations = Record<string, unknown>> {
  /** Sends a spec operation; the answer is validated against the spec before it is returned. */
  send<Id extends keyof Ops & string>(operationId: Id, opts?: SendOptions): Promise<Answer<SuccessBody<Ops[Id]>>>;
  /** Sends a request that is not a spec operation (unknown paths, wrong methods); no schema validation. */
  raw(method: string, path: string, opts?: SendOptions): Promise<Exchange>;
  principal(role: string | null | undefined): Principal | undefined;
}

/** Called with every answer to a spec operation; the runner turns it into schema/status/content-type records. */
export type ExchangeInspector = (ex: Exchange) => void;

/** `lane`: the sender's name for the transport's fair share of requests in flight (the check's id). */
export function createClient(target: Target, spec: Spec, transport: Transport, inspect: ExchangeInspector, lane?: string): Client {
  const principal = (role: string | null | undefined) => (role === null ? undefined : target.principals[role ?? 'primary']);

  async function dispatch(method: string, path: string, opts: SendOptions, operationId?: string): Promise<Exchange> {
    const who = principal(opts.as);
    if (opts.as !== null && opts.as !== undefined && !who) throw new Error(`no credentials configured for role '${opts.as}'`);
    const finalPath = opts.path ? opts.path(path) : path;
    const base = opts.rawBody !== undefined && target.directUrl ? target.directUrl : target.baseUrl;
    const url = new URL(base.replace(/\/$/, '') + finalPath);
    for (const [k, v] of Object.entries(opts.query ?? {})) {
      if (Array.isArray(v)) for (const each of v) url.searchParams.append(k, each);
      else if (v !== undefined) url.searchParams.set(k, String(v));
    }
    const headers: Record<string, string> = { accept: 'application/json', ...opts.headers };
    if (who?.authorization) headers.authorization = who.authorization;
    let body: string | undefined;
    if (opts.rawBody !== undefined) body = opts.rawBody;
    else if (opts.body !== undefined) body = JSON.stringify(opts.body);
    if (body !== undefined && !Object.keys(headers).some((h) => h.toLowerCase() === 'content-type'))
      headers['content-type'] = 'application/json';
    const ex: Exchange = {
      ...(await transport.send({ method, url: url.toString(), headers, body }, lane)),
      operationId,
      principal: who?.role,
      ...(opts.path ? { pathRewritten: true } : {}),
    };
    return ex;
  }

  return {
    principal,
    async send(operationId: string, opts: SendOptions = {}) {
      const op = spec.operations.get(operationId);
      if (!op) throw new Error(`operation ${operationId} is not in the spec`);
      const path = op.path.replace(/\{([^}]+)\}/g, (_, name: string) => {
        const value = opts.params?.[name] ?? target.pathDefaults?.[name];
        if (value === undefined) throw new Error(`missing path parameter ${name} for ${operationId}`);
        return encodeURIComponent(value);
      });
      const ex = await dispatch(op.method, path, opts, operationId);
      const outside = spec.requestDepartures(operationId, ex.request.body, ex.request.url);
      if (outside.length) ex.outsideShape = outside;
      inspect(ex);
      return ex;
    },
    async raw(method, path, opts = {}) {
      const ex = await dispatch(method, path, opts);
      inspect(ex);
      return ex;
    },
  };
}
