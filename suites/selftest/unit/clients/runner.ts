import { expect } from 'vitest';
import { type CallOptions, opsClient } from '../../../../reference-impl/ops/test-client';

/*
 * Transcripts of published clients: each test replays the requests one client sends (paths, parameters and bodies
 * as its public code builds them) against a fresh reference implementation, and reads the answers the way that
 * client reads them. A step the client treats as failed fails the test, naming the client and the request.
 */

const NS = '/servicesNS/nobody/SA-ITOA';
export const ITOA = `${NS}/itoa_interface`;
export const EVENTS = `${NS}/event_management_interface`;
export const MAINTENANCE = `${NS}/maintenance_services_interface`;

export type Row = Record<string, unknown>;

export interface Answer {
  status: number;
  body: unknown;
  text: string;
}

/** One client's session: `send` answers whatever the server says; `ok` fails the test unless it is a 2xx. */
export function session(client: string) {
  const call = opsClient();
  const sent: string[] = [];
  const send = async (method: string, path: string, opts: CallOptions = {}): Promise<Answer> => {
    const res = await call(method, path, opts);
    sent.push(`${method} ${path}${opts.query ? `?${new URLSearchParams(opts.query)}` : ''} -> ${res.status}`);
    return { status: res.status, body: res.body, text: res.text };
  };
  const ok = async (method: string, path: string, opts: CallOptions = {}): Promise<unknown> => {
    const res = await send(method, path, opts);
    const where = `${client}: ${method} ${path} answered ${res.status} ${res.text.slice(0, 300)}\n${sent.join('\n')}`;
    expect(res.status >= 200 && res.status < 300, where).toBe(true);
    return res.body;
  };
  return { send, ok, sent };
}

/** The rows of a list answer (fails the test when the answer is not an array). */
export function rows(body: unknown): Row[] {
  expect(Array.isArray(body), `expected a list, got ${JSON.stringify(body)?.slice(0, 200)}`).toBe(true);
  return body as Row[];
}

/** Fields the server rewrites on every write: left out when a test checks that an update lost nothing. */
const STAMPS = new Set(['mod_time', 'mod_timestamp', 'mod_by', 'mod_source']);

/** `doc` without the fields every write stamps anew: what an update must leave as it was. */
export function kept(doc: unknown): Row {
  return Object.fromEntries(Object.entries(doc as Row).filter(([k]) => !STAMPS.has(k)));
}
