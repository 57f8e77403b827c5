import { proxyFor, unusedProxyNote } from './proxy';
import type { Environment, Target } from './types';

/**
 * A deployment's target with the network settings of the environment the session reads, as curl would take them:
 * the proxy its address goes through (see proxyFor), and NODE_TLS_REJECT_UNAUTHORIZED=0. Node reads that variable
 * itself and warns that TLS is insecure, but an agent that sets `rejectUnauthorized` overrides it: the run follows
 * it instead (a self-signed certificate accepted, as with OPS_TLS_INSECURE=1), so that the warning is true.
 */
export function withNetwork(t: Target, env: Environment): Target {
  const proxy = proxyFor(t.baseUrl, env);
  const note = proxy ? undefined : unusedProxyNote(t.baseUrl, env);
  const insecure = t.tlsInsecure || env.NODE_TLS_REJECT_UNAUTHORIZED === '0';
  return { ...t, ...(proxy ? { proxy } : {}), ...(note ? { connectionNote: note } : {}), ...(insecure ? { tlsInsecure: true } : {}) };
}

/** The line for a target that gave no answer at all, naming the proxy it was reached through, if any. */
export function unreachableLine(target: Target, e: Error): string {
  const via = target.proxy ? ` (through the proxy ${new URL(target.proxy.url).host} named by ${target.proxy.from})` : '';
  return `target ${target.baseUrl} is unreachable${via}: ${e.message}${target.connectionNote ? `; ${target.connectionNote}` : ''}`;
}
