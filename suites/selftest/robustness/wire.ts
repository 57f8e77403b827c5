import { Agent as HttpAgent, request as httpRequest, type IncomingHttpHeaders, type OutgoingHttpHeaders } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { WireRequest } from './api-request';

export interface WireResponse {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
  ms: number;
}

export interface WireClient {
  send(req: WireRequest & { chunked?: boolean }): Promise<WireResponse>;
  close(): void;
}

const VALID_HEADER_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;

/**
 * A keep-alive client for one server; self-signed certificates are accepted (the ops reference serves a fixture
 * certificate). Header values node refuses to send are left out, so a generated request always reaches the server.
 */
export function wireClient(baseUrl: string, maxSockets = 8): WireClient {
  const url = new URL(baseUrl);
  const secure = url.protocol === 'https:';
  const pool = secure
    ? new HttpsAgent({ keepAlive: true, maxSockets, rejectUnauthorized: false })
    : new HttpAgent({ keepAlive: true, maxSockets });
  const send = (req: WireRequest & { chunked?: boolean }) =>
    new Promise<WireResponse>((resolve, reject) => {
      const started = performance.now();
      const headers: OutgoingHttpHeaders = {};
      for (const [name, value] of Object.entries(req.headers)) if (VALID_HEADER_VALUE.test(value)) headers[name] = value;
      const payload = Buffer.from(req.body, 'utf8');
      if (!req.chunked && (payload.length > 0 || !['GET', 'HEAD', 'DELETE', 'OPTIONS'].includes(req.method))) {
        headers['content-length'] = String(payload.length);
      }
      const options = { host: url.hostname, port: url.port, method: req.method, path: req.target, headers, agent: pool };
      let settled = false;
      const onResponse = (res: import('node:http').IncomingMessage) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          settled = true;
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            text: Buffer.concat(chunks).toString('utf8'),
            ms: performance.now() - started,
          });
        });
        res.on('error', (err) => {
          if (!settled) reject(err);
        });
      };
      const r = secure ? httpsRequest(options, onResponse) : httpRequest(options, onResponse);
      // A server that answers before reading the whole body may close while the rest is still being written.
      r.on('error', (err) => {
        if (!settled) setTimeout(() => !settled && reject(err), 50);
      });
      if (req.chunked) {
        const size = 64 * 1024;
        for (let i = 0; i < payload.length; i += size) r.write(payload.subarray(i, i + size));
        r.end();
      } else {
        r.end(payload);
      }
    });
  return { send, close: () => pool.destroy() };
}
