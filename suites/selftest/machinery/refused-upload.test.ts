import { once } from 'node:events';
import http from 'node:http';
import net from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { summaryText } from '../../cli/summary';
import { runCheck } from '../../core/check-run';
import type { Check } from '../../core/check';
import { renderMarkdown } from '../../core/report/markdown';
import type { ComplianceReport } from '../../core/report/model';
import { specOf } from '../../core/spec';
import { createTransport, TransportError } from '../../core/transport';
import { opsApi } from '../../ops/index';

const FOUR_MB = 'x'.repeat(4 * 1024 * 1024);
const transport = createTransport({ timeoutMs: 10_000, maxBodyBytes: 1024 * 1024 });
const servers: { close(): void }[] = [];
afterAll(() => {
  transport.close();
  for (const s of servers) s.close();
});

async function listening(server: net.Server): Promise<string> {
  servers.push(server);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`;
}

const post = (base: string) =>
  transport.send({ method: 'POST', url: `${base}/objects`, headers: { 'content-type': 'application/json' }, body: FOUR_MB });

describe('a body the server refuses before it is written is answered by the refusal, whatever happens to the upload', () => {
  it('a server that honours Expect: 100-continue refuses before the body is sent, and closes', async () => {
    let received = 0;
    const server = http.createServer((req, res) => {
      req.on('data', (c) => (received += c.length));
      res.writeHead(413, { 'content-type': 'application/json', connection: 'close' });
      res.end('{"message":"too large"}');
    });
    server.on('checkContinue', (req, res) => server.emit('request', req, res));
    const base = await listening(server);
    for (let i = 0; i < 5; i++) {
      const ex = await post(base);
      expect([ex.status, ex.json]).toEqual([413, { message: 'too large' }]);
    }
    // Announced, the body was never sent: nothing was left to fail under the refusal.
    expect(received).toBe(0);
  });

  it('a server that ignores Expect, stops reading, answers 413 with half a body and resets the connection', async () => {
    // Raw TCP, to control every byte: no 100 Continue, read a little of the body, answer, then drop the connection
    // while the client is still uploading (the upload then fails with EPIPE or ECONNRESET).
    const base = await listening(
      net.createServer((socket) => {
        let seen = 0;
        socket.on('error', () => {});
        socket.on('data', (c) => {
          seen += c.length;
          if (seen < 64 * 1024 || socket.isPaused()) return;
          socket.pause();
          socket.write('HTTP/1.1 413 Payload Too Large\r\ncontent-type: application/json\r\ncontent-length: 40\r\n\r\n{"message":"too');
          setTimeout(() => socket.resetAndDestroy(), 50);
        });
      }),
    );
    for (let i = 0; i < 3; i++) {
      const ex = await post(base);
      expect(ex.status).toBe(413);
      expect(ex.text).toBe('{"message":"too');
    }
  }, 30_000);

  it('a connection lost before any answer is still a transport error', async () => {
    const base = await listening(net.createServer((socket) => socket.on('data', () => socket.resetAndDestroy())));
    await expect(post(base)).rejects.toBeInstanceOf(TransportError);
  }, 10_000);
});

describe('what the document leaves open is never failed, not even by a lost connection', () => {
  /** A check that loses its connection at once: its requirements are recorded as the runner records an abort. */
  const aborting = (requirements: string[]): Check => ({
    id: 'ops.limits.platform-settings',
    title: 'aborts',
    requirements,
    run: () => Promise.reject(new TransportError('EPIPE on POST https://h/x: write EPIPE', 'connection')),
  });
  const env = {
    spec: specOf(opsApi.specFile),
    target: { api: 'ops', baseUrl: 'https://127.0.0.1:9', embedded: false, principals: {} },
    transport,
    options: {
      seed: 1,
      runs: 1,
      readyTimeoutS: 1,
      runTag: 't',
      retries: 0,
      settleS: 0,
      timeoutMs: 1000,
      maxBodyBytes: 1024,
      allowDestructive: false,
    },
  };

  it('a check cut short by the connection leaves its requirements untested with the reason, a MUST one too', async () => {
    const run = await runCheck(opsApi, aborting(['OPS-LIMITS-PAYLOAD', 'OPS-LIMITS-RATE']), env);
    expect(run.records.map((r) => [r.requirement, r.outcome])).toEqual([
      ['OPS-LIMITS-PAYLOAD', 'untested'],
      ['OPS-LIMITS-RATE', 'untested'],
    ]);
    expect(run.records[0].message).toMatch(/^not judged: the check was cut short, .*EPIPE/);
    const must = await runCheck(opsApi, { ...aborting(['OPS-CORE-SUPPORTED-TYPES']), id: 'ops.core.supported-object-types' }, env);
    // No answer says nothing of what the document requires: never the server's failure.
    expect(must.records.map((r) => r.outcome)).toEqual(['untested']);
  });
});

describe('a warning is never shown as a failure', () => {
  const requirement = (id: string, level: 'MUST' | 'SHOULD', status: 'passed' | 'failed') => ({
    api: 'ops',
    id,
    level,
    status,
    group: 'g',
    section: 's',
    clause: 'c',
    summary: `${id} summary`,
    checks: ['c'],
    passed: status === 'passed' ? 1 : 0,
    failed: status === 'failed' ? 1 : 0,
    evidence: status === 'failed' ? [{ requirement: id, check: 'c', outcome: 'fail' as const, message: `${id} went wrong` }] : [],
    observations: [],
  });
  const report = (reqs: ReturnType<typeof requirement>[]): ComplianceReport => {
    const mustFailed = reqs.filter((q) => q.level === 'MUST' && q.status === 'failed').length;
    const counts = { total: reqs.length, passed: 0, failed: 0, skipped: 0, untested: 0, error: 0 };
    return {
      tool: { name: 't', version: '0' },
      run: { startedAt: '2026-01-01T00:00:00Z', durationMs: 1, seed: 1, runs: 1, retries: 0, runTag: 't', node: 'v20', config: {} },
      summary: {
        ...counts,
        byLevel: { MUST: { ...counts, failed: mustFailed }, SHOULD: counts, unspecified: counts },
        gate: mustFailed ? 'fail' : 'pass',
        warnings: 1,
        intermittent: 0,
      },
      apis: [
        {
          api: 'ops',
          title: 'ops',
          target: { baseUrl: 'https://h', embedded: false },
          allowDestructive: false,
          specSha256: '0',
          summary: counts,
          stats: { requests: 1, writes: 0, assertions: 1, ms: 1 },
          cleanup: { created: 0, removed: 0, failed: [] },
          checks: [],
        },
      ],
      requirements: reqs,
    };
  };

  it('a run whose only failure is a SHOULD has no "Failed requirements" and counts no failure', () => {
    const r = report([requirement('OPS-A', 'MUST', 'passed'), requirement('OPS-B', 'SHOULD', 'failed')]);
    const md = renderMarkdown(r);
    expect(md).not.toContain('## Failed requirements');
    expect(md).toContain('## Warnings (SHOULD: reported, not gating)');
    expect(md).toMatch(/\| ops \| https:\/\/h \| 1 \| 0 \| 1 \| 0 \| 0 \| 1 \|/);
    const text = summaryText(r, []);
    expect(text).toMatch(/^ops +https:\/\/h +2 +1 +0 +1 +0 +0 /m);
    expect(text).toContain('  WARN OPS-B: OPS-B went wrong');
    expect(text).not.toMatch(/FAIL OPS-B/);
  });

  it('a failed MUST is under "Failed requirements", before the warnings', () => {
    const r = report([requirement('OPS-B', 'SHOULD', 'failed'), requirement('OPS-A', 'MUST', 'failed')]);
    const md = renderMarkdown(r);
    expect(md.indexOf('## Failed requirements')).toBeLessThan(md.indexOf('## Warnings'));
    expect(summaryText(r, []).indexOf('FAIL OPS-A')).toBeLessThan(summaryText(r, []).indexOf('WARN OPS-B'));
  });
});
