import type { ApiHandler, ApiRequest, ApiResponse } from '../http/types';
import { loadOpsConfig } from './config';
import { createOpsHandler } from './handler';

export interface CallOptions {
  /** `admin` by default; `null` sends no credentials. */
  as?: 'admin' | 'analyst' | null;
  query?: Record<string, string>;
  body?: unknown;
  /** Sent as the raw body instead of `body` (e.g. malformed JSON). */
  raw?: string;
  /** Extra request headers (e.g. content-type). */
  headers?: Record<string, string>;
}

const PASSWORDS = Object.fromEntries(loadOpsConfig().users.map((u) => [u.name, u.password]));

export function basicAuth(user: string, password: string): string {
  return `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
}

/** An in-process client for one fresh handler instance. */
export function opsClient(handler: ApiHandler = createOpsHandler(loadOpsConfig())) {
  return async (method: string, path: string, opts: CallOptions = {}): Promise<ApiResponse> => {
    const as = opts.as === undefined ? 'admin' : opts.as;
    const headers: ApiRequest['headers'] = { ...opts.headers };
    if (as !== null) headers.authorization = basicAuth(as, PASSWORDS[as]!);
    const rawBody = opts.raw ?? (opts.body === undefined ? '' : JSON.stringify(opts.body));
    const req: ApiRequest = { method, path, query: new URLSearchParams(opts.query ?? {}), headers, rawBody, body: undefined };
    if (rawBody !== '') {
      try {
        req.body = JSON.parse(rawBody);
      } catch (err) {
        req.bodyError = (err as Error).message;
      }
    }
    return handler(req);
  };
}

export const ITOA_PATH = '/servicesNS/nobody/SA-ITOA/itoa_interface';
export const EVENTS_PATH = '/servicesNS/nobody/SA-ITOA/event_management_interface';
export const MAINTENANCE_PATH = '/servicesNS/nobody/SA-ITOA/maintenance_services_interface';
export const BACKUP_PATH = '/servicesNS/nobody/SA-ITOA/backup_restore_interface';
export const ICONS_PATH = '/services/SA-ITOA/v1/icon_collection';
