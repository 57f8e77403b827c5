import { once } from 'node:events';
import http from 'node:http';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTransport, type Transport } from '../../core/transport';

/** A server that compresses as each path names, to a client that asked for it: the body is judged decoded. */
const BODY = JSON.stringify(['service', 'entity']);
const ENCODED: Record<string, [string, Buffer]> = {
  '/gzip': ['gzip', zlib.gzipSync(BODY)],
  '/br': ['br', zlib.brotliCompressSync(BODY)],
  '/deflate': ['deflate', zlib.deflateSync(BODY)],
  '/deflate-raw': ['deflate', zlib.deflateRawSync(BODY)],
  '/twice': ['gzip, br', zlib.brotliCompressSync(zlib.gzipSync(BODY))],
  '/identity': ['identity', Buffer.from(BODY)],
  '/lying': ['gzip', Buffer.from(BODY)],
};

let server: http.Server;
let base: string;
let transport: Transport;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const [coding, body] = ENCODED[req.url ?? ''] ?? ['identity', Buffer.from('{}')];
    res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': coding });
    res.end(body);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  transport = createTransport({ timeoutMs: 5000, maxBodyBytes: 1024 * 1024 });
});

afterAll(() => {
  transport.close();
  server.close();
});

const get = (path: string) => transport.send({ method: 'GET', url: base + path, headers: { 'accept-encoding': 'gzip, deflate, br' } });

describe('transport: a compressed answer is judged as the client that asked for it reads it', () => {
  it.each(['/gzip', '/br', '/deflate', '/deflate-raw', '/twice', '/identity'])('%s: the JSON body is read decoded', async (path) => {
    const ex = await get(path);
    expect(ex.text).toBe(BODY);
    expect(ex.json).toEqual(['service', 'entity']);
  });

  it('a body that does not decode as its header says is kept as sent', async () => {
    const ex = await get('/lying');
    expect(ex.text).toBe(BODY);
  });
});
