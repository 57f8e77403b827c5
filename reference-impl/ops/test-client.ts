import request from 'supertest';
import { toNodeListener } from '../http/server';
import type { ApiHandler } from '../http/types';
import { loadOpsConfig } from './config';
import { createOpsHandler, opsErrorBody } from './handler';

/*
 * The reference tests drive a handler in-process through supertest: every request goes through the same node:http
 * listener `listen()` serves (`toNodeListener`: body limits, request parsing, serialisation, error bodies), over
 * plain HTTP on a port supertest opens and closes (production serves HTTPS in front of the same listener).
 */

export interface CallOptions {
  /** `admin` by default; `null` sends no credentials. */
  as?: 'admin' | 'analyst' | null;
  query?: Record<string, string>;
  /** Sent as JSON (`content-type: application/json` unless `headers` declares another). */
  body?: unknown;
  /** Sent byte for byte instead of `body` (e.g. malformed JSON), with no content type but one in `headers`. */
  raw?: string;
  /** Extra request headers (e.g. content-type). */
  headers?: Record<string, string>;
}

const PASSWORDS: Record<string, string> = Object.fromEntries(loadOpsConfig().users.map((u) => [u.name, u.password]));

/** supertest over a fresh handler instance (or the one given), through the node:http listener. */
export function opsApp(handler: ApiHandler = createOpsHandler(loadOpsConfig())) {
  return request(toNodeListener(handler, { errorBody: opsErrorBody }));
}

type Method = 'get' | 'post' | 'put' | 'delete' | 'patch' | 'head' | 'options';

/**
 * `call(method, path, options)`: one supertest request to one handler instance, as the admin unless `as` says
 * otherwise; awaiting it gives supertest's response (`status`, `headers`, `body` parsed from JSON, `text`).
 */
export function opsClient(handler?: ApiHandler) {
  const app = opsApp(handler);
  return (method: string, path: string, opts: CallOptions = {}) => {
    const as = opts.as === undefined ? 'admin' : opts.as;
    // The query string exactly as URLSearchParams writes it, so the handler reads back the values given.
    const query = opts.query ? new URLSearchParams(opts.query).toString() : '';
    let test = app[method.toLowerCase() as Method](query ? `${path}?${query}` : path);
    if (as !== null) test = test.auth(as, PASSWORDS[as]!);
    if (opts.headers) test = test.set(opts.headers);
    const declared = Object.keys(opts.headers ?? {}).some((h) => h.toLowerCase() === 'content-type');
    const text = opts.raw ?? (opts.body === undefined ? undefined : JSON.stringify(opts.body));
    if (text === undefined) return test;
    if (opts.raw === undefined && !declared) test = test.set('content-type', 'application/json');
    // superagent sends a string as is once a content type is set; without one it would declare a form, so the
    // text then goes as a Buffer, which it sends as is and undeclared.
    return test.send(declared || opts.raw === undefined ? text : Buffer.from(text));
  };
}

export const ITOA_PATH = '/servicesNS/nobody/SA-ITOA/itoa_interface';
export const EVENTS_PATH = '/servicesNS/nobody/SA-ITOA/event_management_interface';
export const MAINTENANCE_PATH = '/servicesNS/nobody/SA-ITOA/maintenance_services_interface';
export const BACKUP_PATH = '/servicesNS/nobody/SA-ITOA/backup_restore_interface';
export const ICONS_PATH = '/services/SA-ITOA/v1/icon_collection';
