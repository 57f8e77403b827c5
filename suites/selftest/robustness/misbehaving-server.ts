import http from 'node:http';
import type { AddressInfo } from 'node:net';

export type Misbehaviour = 'hang' | 'reset' | 'non-json' | 'gigantic' | 'redirect' | 'slow';

/**
 * A proxy in front of a real server that behaves for the first `healthy` requests and then misbehaves on every
 * request: the suite must end within its limits and report what it saw.
 */
export async function misbehavingProxy(
  upstream: string,
  kind: Misbehaviour,
  healthy: number,
): Promise<{ url: string; close(): Promise<void> }> {
  let seen = 0;
  const sockets = new Set<import('node:net').Socket>();
  const server = http.createServer((req, res) => {
    if (++seen <= healthy) {
      const chunks: Buffer[] = [];
      req.on('data', (c) => chunks.push(c));
      req.on('end', () => {
        const up = http.request(new URL(req.url ?? '/', upstream), { method: req.method, headers: req.headers }, (r) => {
          res.writeHead(r.statusCode ?? 502, r.headers);
          r.pipe(res);
        });
        up.on('error', () => res.destroy());
        up.end(Buffer.concat(chunks));
      });
      return;
    }
    switch (kind) {
      case 'hang':
        return; // never answers
      case 'reset':
        return req.socket.destroy();
      case 'non-json':
        res.writeHead(200, { 'content-type': 'text/html' });
        return res.end('<html><body>Service Unavailable</body></html>');
      case 'gigantic': {
        res.writeHead(200, { 'content-type': 'application/json' });
        const chunk = Buffer.alloc(1 << 20, 0x20);
        let sent = 0;
        const push = () => {
          while (sent < 64 && res.write(chunk)) sent++;
          if (sent < 64) res.once('drain', push);
          else res.end('{}');
        };
        return push();
      }
      case 'redirect':
        res.writeHead(302, { location: 'http://127.0.0.1:9/elsewhere' });
        return res.end();
      case 'slow':
        setTimeout(() => {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end('{}');
        }, 3000).unref();
    }
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((r) => {
        for (const s of sockets) s.destroy();
        server.close(() => r());
      }),
  };
}
