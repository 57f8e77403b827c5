import { BlockList, isIP } from 'node:net';
import type { Environment } from './types';
import { UsageError } from './usage-error';

/** The proxy a target's requests go through, and the variable that named it (for the lines that mention it). */
export interface ProxyChoice {
  url: string;
  from: string;
}

/** The first of these variables that is set (lower case first, as curl reads them), with its name. */
function first(env: Environment, names: string[]): { name: string; value: string } | undefined {
  for (const name of names) {
    const value = env[name]?.trim();
    if (value) return { name, value };
  }
  return undefined;
}

/** The host without IPv6 brackets, in lower case. */
const bare = (host: string) => host.replace(/^\[|\]$/g, '').toLowerCase();

/**
 * Whether NO_PROXY keeps `host` off the proxy, as curl reads it: a comma-separated list of names, each matching the
 * host itself or any name in its domain (a leading dot is the same), IP addresses and CIDR ranges, or `*` for all.
 */
export function bypassed(host: string, noProxy: string): boolean {
  const h = bare(host);
  for (const raw of noProxy.split(',')) {
    const trimmed = raw.trim().replace(/^\./, '');
    // A port after a name or IPv4 address is ignored; an IPv6 address is all colons, so only a bracketed one has a port.
    const entry = bare(trimmed.split(':').length > 2 ? trimmed.replace(/^\[(.*)\](:\d+)?$/, '$1') : trimmed.replace(/:\d+$/, ''));
    if (!entry) continue;
    if (entry === '*' || entry === h || h.endsWith(`.${entry}`)) return true;
    const [net, bits] = entry.split('/');
    const family = isIP(net);
    if (bits !== undefined && family && isIP(h) === family) {
      const list = new BlockList();
      list.addSubnet(net, Number(bits), family === 6 ? 'ipv6' : 'ipv4');
      if (list.check(h, family === 6 ? 'ipv6' : 'ipv4')) return true;
    }
  }
  return false;
}

/**
 * The proxy curl would use for `target` given these variables: `http_proxy` for http:// (lower case only: curl
 * ignores HTTP_PROXY, which a CGI request can set), `https_proxy` or `HTTPS_PROXY` for https://, else `all_proxy` or
 * `ALL_PROXY`; none for a host NO_PROXY names. A proxy is http:// (the default scheme, port 1080 as with curl);
 * another scheme is refused with one line rather than ignored, since the run would then go direct.
 */
export function proxyFor(target: string, env: Environment): ProxyChoice | undefined {
  const url = new URL(target);
  const scheme = url.protocol === 'https:' ? ['https_proxy', 'HTTPS_PROXY'] : ['http_proxy'];
  const chosen = first(env, [...scheme, 'all_proxy', 'ALL_PROXY']);
  if (!chosen) return undefined;
  const noProxy = first(env, ['no_proxy', 'NO_PROXY']);
  if (noProxy && bypassed(url.hostname, noProxy.value)) return undefined;
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(chosen.value) ? chosen.value : `http://${chosen.value}`;
  let proxy: URL;
  try {
    proxy = new URL(withScheme);
  } catch {
    throw new UsageError(`${chosen.name} is not a URL: '${chosen.value}'`);
  }
  if (proxy.protocol !== 'http:')
    throw new UsageError(
      `${chosen.name} names a ${proxy.protocol.replace(':', '')} proxy (${proxy.host}): only http:// proxies are supported; unset it for ${url.host} or add the host to NO_PROXY`,
    );
  if (!proxy.port) proxy.port = '1080';
  return { url: proxy.href, from: chosen.name };
}

/** A note for a connection that failed without a proxy where curl too would have used none though one is set. */
export function unusedProxyNote(target: string, env: Environment): string | undefined {
  if (new URL(target).protocol !== 'http:' || env.http_proxy || !env.HTTP_PROXY) return undefined;
  return 'HTTP_PROXY is set, but as with curl only the lower-case http_proxy applies to http:// addresses';
}
