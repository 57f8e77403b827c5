import request from 'supertest';
import { toNodeListener } from '../http/server';
import type { ApiHandler } from '../http/types';
import { stacksErrorBody } from './errors';

/*
 * The reference tests drive a handler in-process through supertest: every request goes through the same node:http
 * listener `listen()` serves (`toNodeListener`: body limits, request parsing, serialisation, error bodies).
 */

export interface CallOptions {
  /** API key sent as `Authorization: Bearer <key>`; none when undefined. */
  key?: string;
  /** Request body, sent byte for byte (valid JSON or not), with no content type but one in `headers`. */
  body?: string;
  headers?: Record<string, string>;
}

/** supertest over the handler, through the node:http listener. */
const stacksApp = (handler: ApiHandler) => request(toNodeListener(handler, { errorBody: stacksErrorBody }));

type Method = 'get' | 'post' | 'put' | 'delete' | 'patch' | 'head' | 'options';

/** `send(method, path, options)`: one supertest request; awaiting it gives supertest's response. */
export function stacksClient(handler: ApiHandler) {
  const app = stacksApp(handler);
  return (method: string, path: string, opts: CallOptions = {}) => {
    let test = app[method.toLowerCase() as Method](path);
    if (opts.key !== undefined) test = test.set('authorization', `Bearer ${opts.key}`);
    if (opts.headers) test = test.set(opts.headers);
    if (opts.body === undefined) return test;
    const declared = Object.keys(opts.headers ?? {}).some((h) => h.toLowerCase() === 'content-type');
    // superagent sends a string as is once a content type is set; without one it would declare a form, so the
    // body then goes as a Buffer, which it sends as is and undeclared.
    return test.send(declared ? opts.body : Buffer.from(opts.body));
  };
}
