import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APIS } from '../../apis';
import { run } from '../../cli/run';
import { UsageError } from '../../core/api';
import { judgeProbe } from '../../core/credential-probe';
import { resolveSettings } from '../../core/settings';
import { setupMistake } from '../../core/setup-check';
import type { Target } from '../../core/types';
import { opsApi } from '../../ops/index';
import { stacksApi } from '../../stacks/index';
import { embeddedStacksTarget } from '../../stacks/target';

const DECLARED = APIS.map((a) => ({ id: a.id, options: a.options }));

/** The one line a set-up mistake ends with, from the settings alone (nothing is started or sent). */
function mistakeOf(env: Record<string, string>, flags: Record<string, string> = {}): string | undefined {
  try {
    const resolved = resolveSettings({ env, flags }, DECLARED);
    const line = setupMistake(env, resolved, DECLARED);
    if (line) return line;
    for (const a of APIS) a.targetFrom(resolved.settings.apiOptions?.[a.id] ?? {}, resolved.origins);
    return undefined;
  } catch (e) {
    if (e instanceof UsageError) return e.message;
    throw e;
  }
}

describe('a deployment configured by mistake is refused before anything runs', () => {
  it.each<[string, Record<string, string>, RegExp]>([
    [
      'a key with a misspelt base URL variable, which is named',
      { STACK_BASE_URL: 'http://h:4600', STACKS_API_KEY: 'k' },
      /^STACKS_API_KEY is set but STACKS_BASE_URL .* is not \(STACK_BASE_URL is set: misspelt\?\): without a base URL the run would check the embedded implementation/,
    ],
    ['a key without any base URL', { STACKS_API_KEY: 'k' }, /^STACKS_API_KEY is set but STACKS_BASE_URL .* is not: without a base URL/],
    ['an ops user without the ops base URL', { OPS_USERNAME: 'u', OPS_PASSWORD: 'p' }, /^OPS_USERNAME is set but OPS_BASE_URL .* is not/],
    ['an ops TLS setting without the ops base URL', { OPS_TLS_INSECURE: '1' }, /^OPS_TLS_INSECURE is set but OPS_BASE_URL/],
    [
      'an empty base URL (an unset CI secret)',
      { STACKS_BASE_URL: '' },
      /^STACKS_BASE_URL is empty \(an unset CI secret\?\): give the base URL of the deployment, or leave it out/,
    ],
    ['an empty key', { STACKS_BASE_URL: 'http://h', STACKS_API_KEY: '' }, /^STACKS_API_KEY is empty \(an unset CI secret\?\)/],
    [
      'a misspelt prefixed variable',
      { CONFORMANCE_SEEED: '3' },
      /^unknown variable CONFORMANCE_SEEED in the environment \(did you mean CONFORMANCE_SEED\?\)$/,
    ],
    [
      'a prefixed variable missing its end',
      { OPS_USER: 'x' },
      /^unknown variable OPS_USER in the environment \(did you mean OPS_USERNAME\?\)$/,
    ],
    [
      'an unprefixed misspelling of a known variable',
      { STACKS_BASEURL: 'http://h', STACKS_API_KEY: 'k' },
      /STACKS_BASEURL is set: misspelt\?/,
    ],
    [
      'the same key for the second user',
      { STACKS_BASE_URL: 'http://h', STACKS_API_KEY: 'k', STACKS_API_KEY_2: 'k' },
      /^STACKS_API_KEY_2 is the same key as STACKS_API_KEY: the ownership checks need/,
    ],
    [
      'the same key for the not-allow-listed user',
      { STACKS_BASE_URL: 'http://h', STACKS_API_KEY: 'k', STACKS_API_KEY_2: 'j', STACKS_API_KEY_FORBIDDEN: 'j' },
      /^STACKS_API_KEY_FORBIDDEN is the same key as STACKS_API_KEY_2: the 403 check needs/,
    ],
    [
      'the write user as the read-only user',
      {
        OPS_BASE_URL: 'https://h:8089',
        OPS_USERNAME: 'admin',
        OPS_PASSWORD: 'p',
        OPS_READONLY_USERNAME: 'admin',
        OPS_READONLY_PASSWORD: 'q',
      },
      /^OPS_READONLY_USERNAME is the same user as OPS_USERNAME: the access checks need a read-only user/,
    ],
    [
      'the read-only user as the restricted user',
      {
        OPS_BASE_URL: 'https://h:8089',
        OPS_USERNAME: 'admin',
        OPS_PASSWORD: 'p',
        OPS_READONLY_USERNAME: 'r',
        OPS_READONLY_PASSWORD: 'q',
        OPS_RESTRICTED_USERNAME: 'r',
        OPS_RESTRICTED_PASSWORD: 'q',
      },
      /^OPS_RESTRICTED_USERNAME is the same user as OPS_READONLY_USERNAME/,
    ],
    [
      'a path in the ops base URL',
      { OPS_BASE_URL: 'https://h:8089/foo', OPS_USERNAME: 'u', OPS_PASSWORD: 'p' },
      /^OPS_BASE_URL holds the path \/foo, which the ops API does not use: give only scheme, host and port \(https:\/\/h:8089\)/,
    ],
  ])('%s', (_name, env, line) => {
    const got = mistakeOf(env);
    expect(got).toMatch(line);
    expect(got).not.toContain('\n');
  });

  it('names config keys and flags where the value came from them', () => {
    expect(mistakeOf({ STACKS_API_KEY: 'k' }, { api: 'stacks', target: '' })).toMatch(/^--target is empty/);
    expect(mistakeOf({}, { api: 'stacks', target: 'http://h/' })).toMatch(/^--target is set but STACKS_API_KEY/);
  });

  it('leaves a correct deployment, the embedded run and unrelated variables alone', () => {
    expect(mistakeOf({})).toBeUndefined();
    expect(
      mistakeOf({ STACKS_BASE_URL: 'http://h/api', STACKS_API_KEY: 'k', STACKS_API_KEY_2: 'j', STACKS_API_KEY_FORBIDDEN: 'f' }),
    ).toBeUndefined();
    expect(
      mistakeOf({
        OPS_BASE_URL: 'https://h:8089/',
        OPS_USERNAME: 'u',
        OPS_PASSWORD: 'p',
        OPS_READONLY_USERNAME: 'r',
        OPS_READONLY_PASSWORD: 'p',
      }),
    ).toBeUndefined();
    expect(
      mistakeOf({
        PATH: '/usr/bin',
        HOME: '/root',
        GITHUB_WORKSPACE: '/w',
        OPS_TEAM_NAME_FOR_ALERTS: 'x',
        STACKS_READY_TIMEOUT_S: '30',
        CONFORMANCE_CONFIG: 'x.yaml',
      }),
    ).toBeUndefined();
  });
});

describe('the credential probe finds an address without the API', () => {
  const stacksAt = (baseUrl: string): Target => ({ api: 'stacks', baseUrl, embedded: false, principals: {} });
  it('a 404 on the list is no working credential: the base URL may hold the prefix twice', () => {
    expect(judgeProbe(stacksApi, stacksAt('http://h/v1'), 'primary', 404)).toEqual({
      kind: 'no-api',
      line: 'no stacks API at http://h/v1: GET /v1/stacks with STACKS_API_KEY answered 404 Not Found (the base URL ends in /v1, which every path of the API already starts with: drop it)',
    });
    expect(judgeProbe(stacksApi, stacksAt('http://h/gw'), 'second', 404)).toMatchObject({
      kind: 'no-api',
      line: expect.stringMatching(/may hold the API prefix twice/),
    });
    expect(judgeProbe(opsApi, { ...stacksAt('https://h:8089'), api: 'ops' }, 'primary', 404)).toMatchObject({
      kind: 'no-api',
      line: expect.stringMatching(/OPS_NS_USER, OPS_NS_APP/),
    });
    expect(judgeProbe(stacksApi, stacksAt('http://h'), 'primary', 200)).toEqual({ kind: 'ok' });
  });

  let stacks: Target;
  beforeAll(async () => {
    stacks = await embeddedStacksTarget();
  });
  afterAll(() => stacks.close?.());

  it('end to end: a base URL ending in /v1 exits 2 with one line, before any check', async () => {
    const key = stacks.principals.primary.authorization!.replace(/^Bearer /, '');
    const saved = { ...process.env };
    Object.assign(process.env, { STACKS_BASE_URL: `${stacks.baseUrl}/v1`, STACKS_API_KEY: key });
    try {
      await expect(run(['--api', 'stacks', '--report-dir', mkdtempSync(join(tmpdir(), 'conformance-404-'))])).rejects.toThrow(
        /^no stacks API at http:\/\/127\.0\.0\.1:\d+\/v1: GET \/v1\/stacks/,
      );
    } finally {
      for (const k of ['STACKS_BASE_URL', 'STACKS_API_KEY']) if (!(k in saved)) delete process.env[k];
      Object.assign(process.env, saved);
    }
  });
});

describe('spawned: each mistake exits 2 with exactly one line on stderr', () => {
  const exec = promisify(execFile);
  const cli = async (env: Record<string, string>) => {
    try {
      await exec(process.execPath, ['--import', 'tsx', 'suites/cli.ts', 'run', '--api', 'stacks,ops'], {
        env: { PATH: process.env.PATH, CI: 'true', ...env },
        timeout: 60_000,
      });
      return { code: 0, stderr: '' };
    } catch (e) {
      return e as { code: number; stderr: string };
    }
  };
  it('a misspelt base URL, an empty base URL, a path the ops API does not use', async () => {
    const results = await Promise.all([
      cli({ STACK_BASE_URL: 'http://x', STACKS_API_KEY: 'k' }),
      cli({ STACKS_BASE_URL: '' }),
      cli({ OPS_BASE_URL: 'https://h:8089/foo', OPS_USERNAME: 'u', OPS_PASSWORD: 'p' }),
    ]);
    for (const r of results) {
      expect(r.code).toBe(2);
      expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
    }
    expect(results[0].stderr).toMatch(/^error: STACKS_API_KEY is set but STACKS_BASE_URL .*\(STACK_BASE_URL is set: misspelt\?\)/);
    expect(results[1].stderr).toMatch(/^error: STACKS_BASE_URL is empty \(an unset CI secret\?\)/);
    expect(results[2].stderr).toMatch(/^error: OPS_BASE_URL holds the path \/foo/);
  }, 60_000);
});
