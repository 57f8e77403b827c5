import fc from 'fast-check';
import type { ApiHandler } from '../../../reference-impl/http/types';
import { callHandler, describeError, toApiRequest, type WireRequest } from './api-request';
import type { WireClient, WireResponse } from './wire';

/** Every call, in-process or over a socket, must answer within this. */
const TIME_LIMIT_MS = 1000;

/** FUZZ_SEED replays a run (fast-check prints the seed of a failure); unset, every run explores new cases. */
export function fuzzSeed(): number | undefined {
  const n = Number(process.env.FUZZ_SEED);
  return process.env.FUZZ_SEED !== undefined && Number.isInteger(n) ? n : undefined;
}

/** Scales the fuzz budget: FUZZ_RUNS=2000 for a long run. */
export function fuzzRuns(fallback: number): number {
  const n = Number(process.env.FUZZ_RUNS);
  return Number.isInteger(n) && n > 0 ? n : fallback;
}

export interface FuzzStats {
  requests: number;
  rejected: number;
  byStatus: Map<number, number>;
  maxMs: number;
  slowest: string;
}

export const newStats = (): FuzzStats => ({ requests: 0, rejected: 0, byStatus: new Map(), maxMs: 0, slowest: '' });

export function summary(label: string, runs: number, stats: FuzzStats): string {
  const statuses = [...stats.byStatus.entries()]
    .sort((a, b) => a[0] - b[0])
    .map(([s, n]) => `${s}:${n}`)
    .join(' ');
  return `${label}: ${stats.requests} generated requests in ${runs} runs, ${stats.rejected} rejected (>= 400); statuses ${statuses}; slowest ${stats.maxMs.toFixed(1)} ms (${stats.slowest})`;
}

/** Credentials stay out of logs even in tests: the scheme is kept, the secret is not. */
export const maskedHeaders = (h: Record<string, string>) =>
  Object.fromEntries(Object.entries(h).map(([k, v]) => [k, k.toLowerCase() === 'authorization' ? v.replace(/^(\S+\s+).+$/, '$1***') : v]));

/** A short description of a request for failure messages and counterexamples (bodies can be megabytes). */
export function describeWire(w: WireRequest): string {
  const cut = (s: string, n: number) => (s.length > n ? `${s.slice(0, n)}…(${s.length} chars)` : s);
  return `${w.method} ${cut(w.target, 160)} headers=${cut(JSON.stringify(maskedHeaders(w.headers)), 200)} body=${cut(JSON.stringify(w.body), 160)}`;
}

/** Gives a generated value a short printed form in fast-check counterexamples. */
export function withPreview<T extends object>(value: T, describe: (v: T) => string): T {
  Object.defineProperty(value, fc.toStringMethod, { value: () => describe(value), enumerable: false });
  return value;
}

/** What a response must satisfy besides "no 5xx, no throw, in time"; returns the problems found. */
export type ResponseCheck = (wire: WireRequest, status: number, body: unknown, headers: Record<string, unknown>) => string[];

function note(stats: FuzzStats, wire: WireRequest, status: number, ms: number): void {
  stats.requests++;
  if (status >= 400) stats.rejected++;
  stats.byStatus.set(status, (stats.byStatus.get(status) ?? 0) + 1);
  if (ms > stats.maxMs) {
    stats.maxMs = ms;
    stats.slowest = describeWire(wire).slice(0, 120);
  }
}

function fail(wire: WireRequest, problems: string[]): never {
  throw new Error(`${problems.join('; ')}\n  request: ${describeWire(wire)}`);
}

/** One in-process call with the shared properties checked; answers the status. */
export async function inProcessStep(handler: ApiHandler, wire: WireRequest, check: ResponseCheck, stats: FuzzStats): Promise<number> {
  const out = await callHandler(handler, toApiRequest(wire));
  if (!out.ok) fail(wire, [`handler threw (the HTTP layer would answer 500): ${describeError(out.error)}`]);
  const { status } = out.res;
  note(stats, wire, status, out.ms);
  const problems: string[] = [];
  if (!Number.isInteger(status) || status < 200 || status > 599) problems.push(`invalid status ${status}`);
  if (status >= 500) problems.push(`answered ${status}: ${out.json?.slice(0, 300)}`);
  if (out.ms > TIME_LIMIT_MS) problems.push(`took ${out.ms.toFixed(0)} ms`);
  problems.push(...check(wire, status, out.res.body, out.res.headers ?? {}));
  if (problems.length > 0) fail(wire, problems);
  return status;
}

/** One call over a socket with the shared properties checked; answers the status. */
export async function wireStep(client: WireClient, wire: WireRequest, check: ResponseCheck, stats: FuzzStats): Promise<number> {
  let res: WireResponse;
  try {
    res = await client.send(wire);
  } catch (err) {
    fail(wire, [`no answer: ${describeError(err)}`]);
  }
  note(stats, wire, res.status, res.ms);
  const problems: string[] = [];
  if (res.status >= 500) problems.push(`answered ${res.status}: ${res.text.slice(0, 300)}`);
  if (res.ms > TIME_LIMIT_MS) problems.push(`took ${res.ms.toFixed(0)} ms`);
  let body: unknown;
  if (res.text.length > 0) {
    try {
      body = JSON.parse(res.text);
    } catch {
      problems.push(`body is not JSON: ${res.text.slice(0, 200)}`);
    }
  }
  // HEAD answers carry no body; 413/414/431 come from the HTTP layer and are checked like any other answer.
  if (wire.method !== 'HEAD') problems.push(...check(wire, res.status, body, res.headers));
  if (problems.length > 0) fail(wire, problems);
  return res.status;
}

/**
 * Sends `wires` one after the other through `step`; after each rejected one (status >= 400) the state fingerprint
 * must be what it was before the request.
 */
export async function checkedSequence(
  wires: WireRequest[],
  step: (w: WireRequest) => Promise<number>,
  fingerprint: () => Promise<string>,
): Promise<void> {
  let before = await fingerprint();
  for (const wire of wires) {
    const status = await step(wire);
    const after = await fingerprint();
    if (status >= 400 && after !== before) fail(wire, [`rejected with ${status} but changed the state`]);
    before = after;
  }
}
