import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UsageError } from '../../core/api';
import { run } from '../../cli/run';
import { report } from '../../cli/report';
import { embeddedOpsTarget } from '../../ops/target';
import { embeddedStacksTarget } from '../../stacks/target';
import type { Target } from '../../core/types';

const exec = promisify(execFile);

/** The environment of a spawned CLI: nothing of the developer's own configuration leaks in. */
function cleanEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^(STACKS_|OPS_|CONFORMANCE_)/.test(k)));
  return { ...env, NO_COLOR: '1', CI: 'true', ...extra };
}

async function cli(args: string[], env: Record<string, string> = {}) {
  try {
    const { stdout, stderr } = await exec(process.execPath, ['--import', 'tsx', 'suites/cli.ts', ...args], {
      env: cleanEnv(env),
      timeout: 60_000,
    });
    return { code: 0, stdout, stderr };
  } catch (e) {
    const err = e as { code: number; stdout: string; stderr: string };
    return { code: err.code, stdout: err.stdout, stderr: err.stderr };
  }
}

/** Runs the CLI functions in-process with a clean environment: the message of the usage error they end with. */
async function usageError(fn: () => unknown, env: Record<string, string> = {}): Promise<string> {
  const saved = { ...process.env };
  for (const k of Object.keys(process.env)) if (/^(STACKS_|OPS_|CONFORMANCE_)/.test(k)) delete process.env[k];
  Object.assign(process.env, env);
  try {
    await fn();
  } catch (e) {
    if (e instanceof UsageError) {
      expect(e.message).not.toContain('\n');
      return e.message;
    }
    throw e;
  } finally {
    for (const k of Object.keys(process.env)) if (!(k in saved)) delete process.env[k];
    Object.assign(process.env, saved);
  }
  throw new Error('expected a usage error, got none');
}

const dir = mkdtempSync(join(tmpdir(), 'conformance-cli-usage-'));
const file = (name: string, text: string) => {
  writeFileSync(join(dir, name), text);
  return join(dir, name);
};

describe('a mistake in how the tool is called is one line and exit code 2, never a run', () => {
  it.each<[string, string[], Record<string, string>, RegExp]>([
    [
      'an unknown option, with the closest one',
      ['--fromat', 'md'],
      {},
      /^unknown option '--fromat' \(did you mean --format\? try run --help\)$/,
    ],
    ['an unknown option with nothing close', ['--bogus'], {}, /^unknown option '--bogus' \(try run --help\)$/],
    ['an option without its value', ['--seed'], {}, /^option --seed needs a value/],
    ['a non-numeric --seed', ['--seed', 'abc'], {}, /^--seed must be an integer .* got 'abc'$/],
    ['a non-numeric seed in the environment', [], { CONFORMANCE_SEED: '12x' }, /^CONFORMANCE_SEED must be an integer/],
    ['a bad --shard', ['--shard', '3/2'], {}, /^--shard must look like I\/N/],
    ['a bad --shard of another shape', ['--shard', 'two'], {}, /^--shard must look like I\/N/],
    ['--api foo, blamed on --api', ['--api', 'foo'], {}, /^unknown API 'foo' in --api \(known: stacks, ops\)$/],
    [
      'an API misspelt in the environment, blamed on the variable',
      [],
      { CONFORMANCE_APIS: 'stcks' },
      /^unknown API 'stcks' in CONFORMANCE_APIS \(did you mean stacks\?/,
    ],
    [
      '--only matching nothing, with the closest ids',
      ['--only', 'stacks.auht.*'],
      {},
      /^--only 'stacks\.auht\.\*' matches no check or requirement of stacks, ops \(closest: stacks\.auth\.\*/,
    ],
    [
      '--only naming a requirement that does not exist',
      ['--only', 'STK-CREAT-202'],
      {},
      /matches no check or requirement .*closest: STK-CREATE-202/,
    ],
    [
      '--only selecting only checks of an API left out',
      ['--api', 'stacks', '--only', 'ops.*'],
      {},
      /^--only 'ops\.\*' matches no check or requirement of stacks \(it matches checks of ops, which are not selected\)$/,
    ],
    [
      'CONFORMANCE_ONLY matching nothing, blamed on the variable',
      [],
      { CONFORMANCE_ONLY: 'nothing-like-this' },
      /^CONFORMANCE_ONLY 'nothing-like-this' matches no check/,
    ],
    ['a missing config file', ['--config', join(dir, 'missing.yaml')], {}, /^cannot read config file .*missing\.yaml: no such file$/],
    ['--target with two APIs', ['--target', 'http://127.0.0.1:1'], {}, /^--target needs exactly one API/],
    ['a target URL that is not one', ['--api', 'stacks', '--target', 'notaurl'], {}, /^--target is not a valid http\(s\) URL/],
    [
      'a base URL without its key',
      ['--api', 'stacks'],
      { STACKS_BASE_URL: 'http://127.0.0.1:1' },
      /^STACKS_BASE_URL is set but STACKS_API_KEY .*is not/,
    ],
    [
      'half a read-only user',
      ['--api', 'ops'],
      { OPS_BASE_URL: 'https://127.0.0.1:1', OPS_USERNAME: 'u', OPS_PASSWORD: 'p', OPS_READONLY_USERNAME: 'r' },
      /^OPS_READONLY_USERNAME is set but OPS_READONLY_PASSWORD/,
    ],
    ['a positional argument', ['stacks'], {}, /^unexpected argument 'stacks'/],
  ])('%s', async (_name, args, env, message) => {
    expect(await usageError(() => run(args), env)).toMatch(message);
  });

  it.each<[string, string, RegExp]>([
    [
      'an unknown key, with the closest valid one',
      'seed: 5\ntimeout: 10\n',
      /^config file .*: unknown key 'timeout' \(did you mean 'timeoutS'\?\)/,
    ],
    [
      'a misspelt target key',
      'targets:\n  stacks:\n    apikey: x\n',
      /unknown key 'targets\.stacks\.apikey' \(did you mean 'targets\.stacks\.apiKey'\?\)/,
    ],
    [
      'a misspelt API under targets',
      'targets:\n  stcks:\n    baseUrl: http://x\n',
      /unknown key 'targets\.stcks' \(did you mean 'targets\.stacks'\?\)/,
    ],
    ['a value of the wrong type', 'seed: abc\n', /'seed' must be an integer, got "abc"/],
    ['a value out of range', 'runs: 0\n', /'runs' must be ≥ 1, got 0/],
    ['an unknown API, blamed on the key', 'apis: [stacks, foo]\n', /^unknown API 'foo' in config key 'apis' \(.*\.yaml\)/],
    ['a file that is not YAML', 'seed: [1\n', /is not valid YAML/],
    ['a file that is not a mapping', '- a\n- b\n', /must be a mapping of settings/],
  ])('config file: %s', async (name, text, message) => {
    expect(await usageError(() => run(['--config', file(`${name.replace(/\W+/g, '-')}.yaml`, text)]))).toMatch(message);
  });

  it('report: unknown option, missing file, several files without --merge', async () => {
    expect(await usageError(() => report(['--comapre', 'x.json']))).toMatch(
      /^unknown option '--comapre' \(did you mean --compare\? try report --help\)$/,
    );
    expect(await usageError(() => report([join(dir, 'none.json')]))).toMatch(/^cannot read .*none\.json: no such file$/);
    expect(await usageError(() => report(['a.json', 'b.json']))).toMatch(/add --merge/);
  });

  it('spawned: each kind of mistake exits 2 with exactly one line on stderr and nothing on stdout', async () => {
    const cases: [string[], Record<string, string>, RegExp][] = [
      [['run', '--fromat', 'md'], {}, /^error: unknown option '--fromat' \(did you mean --format\? try run --help\)$/],
      [['run', '--only', 'stacks.auht.*'], {}, /^error: --only 'stacks\.auht\.\*' matches no check or requirement/],
      [['run', '--api', 'foo'], {}, /^error: unknown API 'foo' in --api/],
      [['run', '--config', file('typo.yaml', 'seeed: 1\n')], {}, /^error: config file .*unknown key 'seeed' \(did you mean 'seed'\?\)/],
      [['run', '--seed', 'abc'], {}, /^error: --seed must be an integer/],
      [['run', '--config', join(dir, 'missing.yaml')], {}, /^error: cannot read config file/],
      [[], {}, /^error: no command given/],
    ];
    // Two at a time: each is a node start-up.
    for (let i = 0; i < cases.length; i += 2) {
      await Promise.all(
        cases.slice(i, i + 2).map(async ([args, env, line]) => {
          const r = await cli(args, env);
          expect(r.code, args.join(' ')).toBe(2);
          expect(r.stdout, args.join(' ')).toBe('');
          expect(r.stderr.trimEnd().split('\n'), args.join(' ')).toHaveLength(1);
          expect(r.stderr.trimEnd(), args.join(' ')).toMatch(line);
        }),
      );
    }
  }, 60_000);
});

describe('credentials the deployment refuses end the run before any check', () => {
  let stacks: Target;
  let ops: Target;
  beforeAll(async () => {
    [stacks, ops] = await Promise.all([embeddedStacksTarget(), embeddedOpsTarget()]);
  });
  afterAll(async () => {
    await Promise.all([stacks.close?.(), ops.close?.()]);
  });
  const key = (role: string) => stacks.principals[role].authorization!.replace(/^Bearer /, '');
  const basic = (role: string) =>
    Buffer.from(ops.principals[role].authorization!.replace(/^Basic /, ''), 'base64')
      .toString()
      .split(':');

  it('each refused key or user is named with the status, in one line', async () => {
    const base = { STACKS_BASE_URL: stacks.baseUrl };
    expect(await usageError(() => run(['--api', 'stacks']), { ...base, STACKS_API_KEY: 'not-a-key' })).toBe(
      'STACKS_API_KEY was refused: 401 Unauthorized',
    );
    // The not-allow-listed user's key given as the main key: 403, refused (the main key must be allow-listed).
    expect(await usageError(() => run(['--api', 'stacks']), { ...base, STACKS_API_KEY: key('forbidden') })).toBe(
      'STACKS_API_KEY was refused: 403 Forbidden',
    );
    expect(await usageError(() => run(['--api', 'stacks']), { ...base, STACKS_API_KEY: key('primary'), STACKS_API_KEY_2: 'nope' })).toBe(
      'STACKS_API_KEY_2 was refused: 401 Unauthorized',
    );
    // STACKS_API_KEY_FORBIDDEN is not refused here: it is meant to be refused, and only one check uses it (forbidden-key.test.ts).
    const [user, password] = basic('primary');
    const [reader] = basic('readonly');
    const opsBase = { OPS_BASE_URL: ops.baseUrl, OPS_TLS_INSECURE: '1', OPS_USERNAME: user };
    expect(await usageError(() => run(['--api', 'ops']), { ...opsBase, OPS_PASSWORD: 'wrong' })).toBe(
      'OPS_USERNAME/OPS_PASSWORD was refused: 401 Unauthorized',
    );
    expect(
      await usageError(() => run(['--api', 'ops']), {
        ...opsBase,
        OPS_PASSWORD: password,
        OPS_READONLY_USERNAME: reader,
        OPS_READONLY_PASSWORD: 'wrong',
      }),
    ).toBe('OPS_READONLY_USERNAME/OPS_READONLY_PASSWORD was refused: 401 Unauthorized');
  });

  it('spawned: exit 2, one line, no report written', async () => {
    const reportDir = join(dir, 'refused');
    const [s, o] = await Promise.all([
      cli(['run', '--api', 'stacks', '--report-dir', reportDir], { STACKS_BASE_URL: stacks.baseUrl, STACKS_API_KEY: 'not-a-key' }),
      cli(['run', '--api', 'ops', '--report-dir', reportDir], {
        OPS_BASE_URL: ops.baseUrl,
        OPS_TLS_INSECURE: '1',
        OPS_USERNAME: basic('primary')[0],
        OPS_PASSWORD: 'wrong',
      }),
    ]);
    expect([s.code, s.stderr]).toEqual([2, 'error: STACKS_API_KEY was refused: 401 Unauthorized\n']);
    expect([o.code, o.stderr]).toEqual([2, 'error: OPS_USERNAME/OPS_PASSWORD was refused: 401 Unauthorized\n']);
    expect(s.stdout + o.stdout).toBe('');
    expect(existsSync(reportDir)).toBe(false);
  }, 60_000);
});

describe('serve and mock on a port in use', () => {
  let busy: Server;
  let port: number;
  beforeAll(async () => {
    busy = createServer();
    await new Promise<void>((r) => busy.listen(0, '127.0.0.1', r));
    port = (busy.address() as { port: number }).port;
  });
  afterAll(() => new Promise<void>((r) => busy.close(() => r())));

  it('says so in one line and exits 2', async () => {
    const [serve, mock] = await Promise.all([
      cli(['serve', '--api', 'stacks', '--port', String(port)]),
      cli(['mock', '--api', 'ops', '--port', String(port)]),
    ]);
    for (const r of [serve, mock]) {
      expect(r.code).toBe(2);
      expect(r.stderr).toBe(`error: port ${port} is already in use\n`);
    }
  }, 60_000);
});
