import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiHandler } from '../../../reference-impl/http/types';
import { progressPrinter } from '../../cli/progress';
import { runConformance } from '../../core/conformance';
import type { ProgressEvent } from '../../core/runner';
import { sleep } from '../../core/sleep';
import type { Target } from '../../core/types';
import { stacksApi } from '../../stacks/index';
import { embeddedStacksTarget } from '../../stacks/target';
import { selftestSettings } from '../harness';

/** A stream that keeps what is written, as a terminal or as a log file. */
function fakeStream(tty: boolean) {
  const writes: { at: number; text: string }[] = [];
  const stream = {
    isTTY: tty,
    columns: 200,
    write: (text: string) => (writes.push({ at: Date.now(), text }), true),
  } as unknown as NodeJS.WriteStream;
  return { stream, writes, text: () => writes.map((w) => w.text).join('') };
}

const slow =
  (ms: number) =>
  (h: ApiHandler): ApiHandler =>
  async (req) => {
    await sleep(ms);
    return h(req);
  };

describe('progress without a terminal', () => {
  it('prints a line while a slow check runs, and nothing extra while checks end quickly', async () => {
    const { stream, writes, text } = fakeStream(false);
    const p = progressPrinter(stream, { tty: false, heartbeatMs: 300 });
    let requests = 0;
    const ev = (e: ProgressEvent) => p(e);
    ev({ type: 'api-start', api: 'stacks', baseUrl: 'http://x', embedded: false, checks: 4, requests: () => requests });
    ev({ type: 'check-start', api: 'stacks', check: 'stacks.slow.one' });
    requests = 17;
    await sleep(1000);
    const during = text()
      .split('\n')
      .filter((l) => l.includes('still running'));
    expect(during.length).toBeGreaterThanOrEqual(2);
    expect(during[0]).toMatch(/still running: stacks stacks\.slow\.one \(running for [\d.]+s, 17 requests so far\)/);
    ev({ type: 'check-end', api: 'stacks', check: 'stacks.slow.one', index: 1, total: 4, failed: 0, outcome: 'ran', ms: 1000 });
    const after = writes.length;
    for (let i = 2; i <= 4; i++) {
      ev({ type: 'check-start', api: 'stacks', check: `stacks.quick.${i}` });
      ev({ type: 'check-end', api: 'stacks', check: `stacks.quick.${i}`, index: i, total: 4, failed: 0, outcome: 'ran', ms: 1 });
    }
    await sleep(700);
    p.close();
    // One line per finished check, no heartbeat: nothing was running.
    expect(writes.slice(after).map((w) => w.text)).toEqual(
      [2, 3, 4].map((i) => expect.stringMatching(new RegExp(`^\\[[\\d.]+s\\] stacks ${i}/4 stacks\\.quick\\.${i} ok \\(1 ms\\)\\n$`))),
    );
  });
});

describe('progress on a terminal', () => {
  it('keeps one live line with the current check, requests so far and elapsed time, redrawn at least every second', async () => {
    const { stream, writes } = fakeStream(true);
    const p = progressPrinter(stream, { tty: true });
    let requests = 3;
    p({ type: 'api-start', api: 'ops', baseUrl: 'https://x', embedded: false, checks: 9, requests: () => requests });
    p({ type: 'check-start', api: 'ops', check: 'ops.filter.model' });
    const start = writes.length;
    requests = 42;
    await sleep(2100);
    p.close();
    const redraws = writes.slice(start).filter((w) => w.text.startsWith('\r\x1b[K['));
    expect(redraws.length).toBeGreaterThanOrEqual(3);
    for (let i = 1; i < redraws.length; i++) expect(redraws[i].at - redraws[i - 1].at).toBeLessThanOrEqual(1000);
    // biome-ignore lint/suspicious/noControlCharactersInRegex: the live line starts with the ANSI escape that clears it
    expect(redraws.at(-1)!.text).toMatch(/^\r\x1b\[K\[2\.\ds\] ops 0\/9 ops\.filter\.model · 42 requests$/);
    // No newline inside the live line; close() leaves the line clean.
    expect(redraws.every((w) => !w.text.includes('\n'))).toBe(true);
    expect(writes.at(-1)!.text).toBe('\r\x1b[K');
  });
});

describe('a run against a slow target', () => {
  let target: Target;
  beforeAll(async () => {
    target = await embeddedStacksTarget(slow(1000));
  });
  afterAll(() => target.close?.());

  it('in-process: the runner reports which check is running, and the printer says so while it runs', async () => {
    const fast = await embeddedStacksTarget(slow(300));
    const { stream, text } = fakeStream(false);
    const progress = progressPrinter(stream, { tty: false, heartbeatMs: 400 });
    try {
      await runConformance({
        settings: selftestSettings('stacks', { only: ['stacks.create.accepted-202'], runs: 2 }),
        apis: [stacksApi],
        targets: { stacks: fast },
        progress,
        tool: { name: 'test', version: '0' },
        write: false,
      });
    } finally {
      progress.close();
    }
    const lines = text().trimEnd().split('\n');
    expect(lines[0]).toMatch(/^stacks: 1 checks against the embedded reference implementation/);
    expect(
      lines.some((l) => /still running: stacks stacks\.create\.accepted-202 \(running for [\d.]+s, \d+ requests so far\)/.test(l)),
    ).toBe(true);
    expect(lines.at(-1)).toMatch(/stacks 1\/1 stacks\.create\.accepted-202 ok/);
  }, 30_000);

  it('spawned, without a terminal: a progress line within 10 s of a slow check starting', async () => {
    const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^(STACKS_|OPS_|CONFORMANCE_)/.test(k)));
    const key = target.principals.primary.authorization!.replace(/^Bearer /, '');
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', 'suites/cli.ts', 'run', '--api', 'stacks', '--only', 'stacks.lifecycle.*', '--timeout', '30', '--retries', '0'],
      {
        env: { ...env, CI: 'true', STACKS_BASE_URL: target.baseUrl, STACKS_API_KEY: key },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stderr = '';
    let started = 0;
    const seen = await new Promise<{ line: string; after: number }>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no progress line; stderr so far: ${stderr}`)), 40_000);
      child.stderr!.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
        if (!started && /stacks: 1 checks against/.test(stderr)) started = Date.now();
        const line = stderr.split('\n').find((l) => l.includes('still running'));
        if (started && line) {
          clearTimeout(timer);
          resolve({ line, after: Date.now() - started });
        }
      });
      child.once('exit', (code) => reject(new Error(`exited ${code} before a progress line: ${stderr}`)));
    }).finally(() => child.kill('SIGTERM'));
    expect(seen.line).toMatch(/still running: stacks stacks\.lifecycle\.\S+ \(running for \d+s, \d+ requests so far\)/);
    expect(seen.after).toBeLessThan(11_000);
  }, 60_000);

  it('spawned: --dry-run shows progress too', async () => {
    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        'suites/cli.ts',
        'run',
        '--api',
        'stacks',
        '--only',
        'stacks.auth.*',
        '--dry-run',
        '--report-dir',
        `${process.env.TMPDIR ?? '/tmp'}/conformance-dry-${process.pid}`,
      ],
      { env: { ...process.env, CI: 'true' }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stderr = '';
    let stdout = '';
    child.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
    child.stdout!.on('data', (c: Buffer) => (stdout += c.toString()));
    const code = await new Promise<number | null>((r) => child.once('exit', r));
    expect(code).toBe(0);
    expect(stderr).toMatch(/^dry run: rehearsing/);
    expect(stderr).toMatch(/\[[\d.]+s\] stacks 1\/\d+ stacks\.auth\.\S+ ok/);
    expect(stdout).toMatch(/requests to the embedded implementation/);
  }, 60_000);
});
