import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import type { Duplex } from 'node:stream';
import tls from 'node:tls';

type Callback = (err: Error | null, stream: Duplex) => void;

const authOf = (proxy: URL): Record<string, string> =>
  proxy.username
    ? {
        'proxy-authorization': `Basic ${Buffer.from(`${decodeURIComponent(proxy.username)}:${decodeURIComponent(proxy.password)}`).toString('base64')}`,
      }
    : {};

/**
 * Plain HTTP through a proxy, as curl sends it: to the proxy, with the absolute URL as the request target. The
 * request is made as for a direct connection; the agent turns its path into the absolute form before it is written.
 */
class ForwardAgent extends http.Agent {
  constructor(
    private readonly proxy: URL,
    options: http.AgentOptions,
  ) {
    super(options);
  }

  override createConnection(): net.Socket {
    return net.connect({ host: this.proxy.hostname, port: Number(this.proxy.port) });
  }

  addRequest(req: http.ClientRequest, options: { host?: string; port?: number | string }): void {
    req.path = `http://${options.host}${options.port ? `:${options.port}` : ''}${req.path}`;
    for (const [k, v] of Object.entries(authOf(this.proxy))) req.setHeader(k, v);
    (http.Agent.prototype as unknown as { addRequest(r: unknown, o: unknown): void }).addRequest.call(this, req, options);
  }
}

/** HTTPS through a proxy: a CONNECT tunnel to the target, then TLS with the target inside it (certificate checks as set). */
class TunnelAgent extends https.Agent {
  constructor(
    private readonly proxy: URL,
    options: https.AgentOptions,
  ) {
    super(options);
  }

  override createConnection(requested: http.RequestOptions, callback?: Callback): undefined {
    const options = requested as tls.ConnectionOptions & { host: string; port: number };
    // Node's agent passes a callback whenever it creates a socket: the tunnel is ready only once CONNECT is answered.
    const done = callback!;
    const fail = (e: Error) => (done as (err: Error) => void)(e);
    const authority = `${options.host}:${options.port}`;
    const req = http.request({
      host: this.proxy.hostname,
      port: Number(this.proxy.port),
      method: 'CONNECT',
      path: authority,
      headers: { host: authority, ...authOf(this.proxy) },
      agent: false,
    });
    req.once('connect', (res, socket) => {
      if (res.statusCode !== 200) {
        socket.destroy();
        fail(
          new Error(`the proxy ${this.proxy.host} answered ${res.statusCode} ${res.statusMessage ?? ''} to CONNECT ${authority}`.trimEnd()),
        );
        return;
      }
      const servername = net.isIP(options.host) ? undefined : options.host;
      done(null, tls.connect({ ...options, socket, servername }));
    });
    req.once('error', (e) => fail(new Error(`the proxy ${this.proxy.host} could not be reached: ${e.message}`)));
    req.end();
    return undefined;
  }
}

/** The agents of a transport whose requests go through `proxy`, with the same pooling and TLS settings as direct ones. */
export function proxyAgents(proxy: string, agent: http.AgentOptions, tlsOptions: https.AgentOptions) {
  const url = new URL(proxy);
  return { 'http:': new ForwardAgent(url, agent), 'https:': new TunnelAgent(url, { ...agent, ...tlsOptions }) };
}
