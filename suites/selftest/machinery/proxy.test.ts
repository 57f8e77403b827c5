import http from 'node:http';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APIS } from '../../apis';
import { UsageError } from '../../core/api';
import { bypassed, proxyFor } from '../../core/proxy';
import { openSession, runSession } from '../../core/session';
import type { Environment, Target } from '../../core/types';
import { embeddedOpsTarget } from '../../ops/target';
import { embeddedStacksTarget } from '../../stacks/target';

/**
 * A small HTTP proxy on 127.0.0.1, as a corporate one behaves: CONNECT tunnels for https://, absolute-form requests
 * forwarded for http://; with `refuse`, every CONNECT is answered 407. It records what it was asked.
 */
async function startProxy(refuse = false) {
  const seen: string[] = [];
  const server = http.createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    const to = new URL(req.url!);
    const up = http.request(
      { host: to.hostname, port: to.port, path: `${to.pathname}${to.search}`, method: req.method, headers: req.headers },
      (r) => {
        res.writeHead(r.statusCode!, r.headers);
        r.pipe(res);
      },
    );
    up.on('error', () => res.writeHead(502).end());
    req.pipe(up);
  });
  server.on('connect', (req: http.IncomingMessage, socket: net.Socket, head: Buffer) => {
    seen.push(`CONNECT ${req.url}`);
    if (refuse) {
      socket.end('HTTP/1.1 407 Proxy Authentication Required\r\n\r\n');
      return;
    }
    const [host, port] = req.url!.split(':');
    const up = net.connect(Number(port), host, () => {
      socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      up.write(head);
      up.pipe(socket).on('error', () => {});
      socket.pipe(up);
    });
    up.on('error', () => socket.destroy());
    socket.on('error', () => up.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    close: () => new Promise<void>((resolve) => server.close(() => resolve(server.closeAllConnections()))),
  };
}

/** A run of a few checks through the session, as `api-conformance run` makes it, with this environment alone. */
async function runWith(env: Environment) {
  const session = openSession({ env: { CONFORMANCE_FORMATS: 'json', ...env } }, APIS);
  return { session, result: await runSession(session, { write: false }) };
}

describe('proxies are honoured as curl honours them', () => {
  it('chooses the proxy curl would, and refuses one it cannot use with one line', () => {
    expect(proxyFor('http://h.example.test', { HTTP_PROXY: 'http://p:3128' })).toBeUndefined();
    expect(proxyFor('http://h.example.test', { http_proxy: 'http://p:3128' })).toEqual({ url: 'http://p:3128/', from: 'http_proxy' });
    expect(proxyFor('https://h.example.test', { HTTPS_PROXY: 'p:3128' })).toEqual({ url: 'http://p:3128/', from: 'HTTPS_PROXY' });
    expect(proxyFor('https://h.example.test', { https_proxy: 'http://a:1', HTTPS_PROXY: 'http://b:2' })?.from).toBe('https_proxy');
    expect(proxyFor('https://h.example.test', { ALL_PROXY: 'http://p' })).toEqual({ url: 'http://p:1080/', from: 'ALL_PROXY' });
    expect(proxyFor('https://h.example.test', { HTTPS_PROXY: 'http://p:3128', NO_PROXY: 'other.test,.example.test' })).toBeUndefined();
    expect(() => proxyFor('https://h.example.test', { HTTPS_PROXY: 'socks5://p:1080' })).toThrow(
      new UsageError(
        'HTTPS_PROXY names a socks5 proxy (p:1080): only http:// proxies are supported; unset it for h.example.test or add the host to NO_PROXY',
      ),
    );
    for (const [host, list, expected] of [
      ['a.example.test', 'example.test', true],
      ['example.test', '.example.test', true],
      ['notexample.test', 'example.test', false],
      ['10.1.2.3', '10.0.0.0/8', true],
      ['11.1.2.3', '10.0.0.0/8', false],
      ['[::1]', '::1', true],
      ['anything', '*', true],
      ['h.test', 'h.test:8089', true],
    ] as const)
      expect(bypassed(host, list), `${host} in NO_PROXY=${list}`).toBe(expected);
  });

  let proxy: Awaited<ReturnType<typeof startProxy>>;
  let ops: Target;
  let stacks: Target;
  beforeAll(async () => {
    [proxy, ops, stacks] = await Promise.all([startProxy(), embeddedOpsTarget(), embeddedStacksTarget()]);
  });
  afterAll(() => Promise.all([proxy.close(), ops.close?.(), stacks.close?.()]));

  const opsEnv = () => ({
    CONFORMANCE_APIS: 'ops',
    CONFORMANCE_ONLY: 'ops.core.supported-object-types',
    OPS_BASE_URL: ops.baseUrl,
    OPS_USERNAME: 'admin',
    OPS_PASSWORD: 'ops-admin-demo',
  });
  const stacksEnv = () => ({
    CONFORMANCE_APIS: 'stacks',
    CONFORMANCE_ONLY: 'stacks.auth.*',
    STACKS_BASE_URL: stacks.baseUrl,
    STACKS_API_KEY: 'stk_demo_alice_4f1c9e27b3a85d60',
  });

  it('https:// through HTTPS_PROXY: a CONNECT tunnel, the certificate judged as set', async () => {
    proxy.seen.length = 0;
    const { result } = await runWith({ ...opsEnv(), OPS_TLS_INSECURE: '1', HTTPS_PROXY: proxy.url });
    expect(result.report.summary.gate).toBe('pass');
    const authority = new URL(ops.baseUrl).host;
    expect(proxy.seen.length).toBeGreaterThan(0);
    expect(new Set(proxy.seen)).toEqual(new Set([`CONNECT ${authority}`]));
  });

  it('http:// through http_proxy: every request in absolute form; NO_PROXY keeps a host off it', async () => {
    proxy.seen.length = 0;
    const through = await runWith({ ...stacksEnv(), http_proxy: proxy.url });
    expect(through.result.report.summary.gate).toBe('pass');
    expect(proxy.seen).toContain(`GET ${stacks.baseUrl}/v1/stacks`);
    expect(proxy.seen.every((s) => s.includes(` ${stacks.baseUrl}/`))).toBe(true);
    proxy.seen.length = 0;
    await runWith({ ...stacksEnv(), http_proxy: proxy.url, NO_PROXY: '127.0.0.1' });
    await runWith({ ...stacksEnv(), HTTP_PROXY: proxy.url });
    expect(proxy.seen).toEqual([]);
  });

  it('a proxy that refuses the tunnel, or is not there: one line naming it, before any check', async () => {
    const refusing = await startProxy(true);
    try {
      const [p, o] = [new URL(refusing.url).host, new URL(ops.baseUrl).host];
      await expect(runWith({ ...opsEnv(), OPS_TLS_INSECURE: '1', HTTPS_PROXY: refusing.url })).rejects.toThrow(
        new UsageError(
          `target ${ops.baseUrl} is unreachable (through the proxy ${p} named by HTTPS_PROXY): error on GET ${ops.baseUrl}/servicesNS/nobody/SA-ITOA/itoa_interface/get_supported_object_types: the proxy ${p} answered 407 Proxy Authentication Required to CONNECT ${o}`,
        ),
      );
    } finally {
      await refusing.close();
    }
    await expect(runWith({ ...opsEnv(), OPS_TLS_INSECURE: '1', HTTPS_PROXY: 'http://127.0.0.1:9' })).rejects.toThrow(
      /^target .* is unreachable \(through the proxy 127\.0\.0\.1:9 named by HTTPS_PROXY\): .*: the proxy 127\.0\.0\.1:9 could not be reached: connect ECONNREFUSED/,
    );
  });

  // Node warns that NODE_TLS_REJECT_UNAUTHORIZED=0 makes TLS insecure; the run must then do what the warning says.
  it('NODE_TLS_REJECT_UNAUTHORIZED=0 accepts the self-signed certificate, as the warning Node prints says', async () => {
    const { session, result } = await runWith({ ...opsEnv(), NODE_TLS_REJECT_UNAUTHORIZED: '0' });
    expect(session.targets.ops.tlsInsecure).toBe(true);
    expect(result.report.summary.gate).toBe('pass');
    const strict = openSession({ env: opsEnv() }, APIS);
    expect(strict.targets.ops.tlsInsecure).toBeFalsy();
  });
});
