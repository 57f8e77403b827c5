import type { Expectation } from './expectation';
import type { ApiHandler, ApiRequest, ApiResponse } from '../../reference-impl/http/types';

/**
 * A deliberately broken variant of a reference implementation: a wrapper around its handler, so the
 * implementation itself carries no fault code. What the suite must say about it is an Expectation, as for every
 * broken server; a fault always breaks something.
 */
export interface Fault<C = unknown, Req extends string = string> extends Expectation<Req> {
  id: string;
  description: string;
  breaks: Req[];
  wrap(inner: ApiHandler, config: C): ApiHandler;
}

/** Rewrites answers that match `when`. */
export const mapResponse =
  (when: (req: ApiRequest, res: ApiResponse) => boolean, change: (res: ApiResponse, req: ApiRequest) => ApiResponse) =>
  (inner: ApiHandler): ApiHandler =>
  async (req) => {
    const res = await inner(req);
    return when(req, res) ? change(structuredClone(res), req) : res;
  };

/** Rewrites requests that match `when` before the implementation sees them. */
export const mapRequest =
  (when: (req: ApiRequest) => boolean, change: (req: ApiRequest) => ApiRequest) =>
  (inner: ApiHandler): ApiHandler =>
  (req) =>
    inner(when(req) ? change(req) : req);

export const withBody = (req: ApiRequest, body: unknown): ApiRequest => {
  const rawBody = JSON.stringify(body);
  return { ...req, body, rawBody, bodyError: undefined };
};

export const withHeader = (req: ApiRequest, name: string, value: string | undefined): ApiRequest => {
  const headers = { ...req.headers };
  if (value === undefined) delete headers[name];
  else headers[name] = value;
  return { ...req, headers };
};

export const isOp = (method: string, path: RegExp) => (req: ApiRequest) => req.method === method && path.test(req.path);
