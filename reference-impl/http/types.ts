import type { IncomingHttpHeaders } from 'node:http';

/** A parsed HTTP request, independent of node:http so handlers can be called in-process. */
export interface ApiRequest {
  method: string;
  /** Path without query string, percent-decoding left to the handler (segments may contain encoded `/`). */
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  /** Raw request body as received (utf-8). Empty string when there is none. */
  rawBody: string;
  /** Parsed JSON body; undefined when the body is empty or is not valid JSON (see bodyError). */
  body: unknown;
  /** Set when a non-empty body is not valid JSON: the parser's message. */
  bodyError?: string;
}

export interface ApiResponse {
  status: number;
  /** Serialised as JSON unless undefined (then the response has no body). */
  body?: unknown;
  /** Sent byte for byte instead of `body` (for wrappers that imitate odd but real servers). */
  rawBody?: string;
  headers?: Record<string, string>;
}

/** The whole behaviour of one API: a function from request to response, with no I/O of its own. */
export type ApiHandler = (req: ApiRequest) => ApiResponse | Promise<ApiResponse>;

/** How an API shapes the errors the shared HTTP layer produces itself (413, 414, 431, 500). */
export type ErrorBody = (status: number, message: string) => unknown;
