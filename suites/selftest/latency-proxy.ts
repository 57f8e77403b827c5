import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { localhostTls } from '../../reference-impl/http/tls';

export interface LatencyProxy {
  url: string;
  close(): Promise<void>;
}

/**
 * A deployment far away: forwards every request to `target` and holds each answer for `delayMs` before sending it,
 * the way an answer from a remote deployment arrives. Serves HTTPS (the fixtures' certificate) when the target does.
 */
export async function startLatencyProxy(target: string, delayMs: number): Promise<LatencyProxy> {
  const upstream = new URL(target);
  const secure = upstream.protocol === 'https:';
  const agent = secure ? new https.Agent({ keepAlive: true, rejectUnauthorized: false }) : new http.Agent({ keepAlive: true });
  const forward = (req: http.IncomingMessage, res: http.ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', upstream);
      const out = (secure ? https : http).request(
        url,
        { method: req.method, headers: { ...req.headers, host: upstream.host }, agent },
        (answer) => {
          const body: Buffer[] = [];
          answer.on('data', (c: Buffer) => body.push(c));
          answer.on('end', () =>
            setTimeout(() => {
              if (res.headersSent || res.destroyed) return;
              res.writeHead(answer.statusCode ?? 502, answer.headers);
              res.end(Buffer.concat(body));
            }, delayMs),
          );
        },
      );
      // An upstream that answers early (413 to a huge body) and closes may still error the upload: the answer stands.
      out.on('error', () => {
        if (res.headersSent || res.destroyed) return;
        setTimeout(() => {
          if (res.headersSent || res.destroyed) return;
          res.writeHead(502);
          res.end();
        }, delayMs);
      });
      out.end(Buffer.concat(chunks));
    });
  };
  const server = secure ? https.createServer(localhostTls(), forward) : http.createServer(forward);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `${secure ? 'https' : 'http'}://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        agent.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
