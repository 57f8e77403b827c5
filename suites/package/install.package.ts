/*
 * The packed product installed into a fresh npm project, as a user installs it, and used from there with nothing of
 * this repository on the path: the command line, Prism's mock for both APIs, the programmatic API with its types,
 * the vitest entry point; then installed without its optional dependencies (Prism), where `mock` and
 * `--via-prism-proxy` must say how to add it.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { background, diskUsage, freePort, mib, run, tempDir, userEnv } from './sandbox';

const tarball = inject('tarball');
const devDependencies = (
  JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { devDependencies: Record<string, string> }
).devDependencies;
const PRISM_LINE =
  /^error: mock needs Prism, an optional dependency that is not installed: add it with npm install --save-dev @stoplight\/prism-cli@[\d.]+\n$/;
const STACKS_KEY = 'stk_demo_alice_4f1c9e27b3a85d60';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** A new npm project with the tarball (and `extra` packages) installed; `omit` passes --omit=optional. */
async function project(name: string, extra: string[], omitOptional = false): Promise<string> {
  const dir = tempDir(`cf-${name}-`);
  dirs.push(dir);
  writeFileSync(join(dir, 'package.json'), `${JSON.stringify({ name, private: true, version: '1.0.0' }, null, 2)}\n`);
  const args = ['install', '--prefer-offline', '--no-audit', '--no-fund', ...(omitOptional ? ['--omit=optional'] : []), tarball, ...extra];
  const r = await run('npm', args, { cwd: dir, timeoutMs: 150_000 });
  if (r.code !== 0) throw new Error(`npm ${args.join(' ')} failed:\n${r.stdout}${r.stderr}`);
  return dir;
}

const npx = (dir: string, args: string[], env: Record<string, string> = {}) =>
  run('npx', args, { cwd: dir, env: userEnv(env), timeoutMs: 120_000 });

describe('the package, installed into a new project', () => {
  let dir: string;
  let installedSize = 0;
  beforeAll(async () => {
    dir = await project('conformance-user', []);
    installedSize = diskUsage(join(dir, 'node_modules')).bytes;
    // What the vitest entry point and the types check need, as a user's project would have them.
    const extra = [
      `vitest@${devDependencies.vitest}`,
      `typescript@${devDependencies.typescript}`,
      `@types/node@${devDependencies['@types/node']}`,
    ];
    const r = await run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--save-dev', ...extra], {
      cwd: dir,
      timeoutMs: 150_000,
    });
    if (r.code !== 0) throw new Error(`npm install ${extra.join(' ')} failed:\n${r.stdout}${r.stderr}`);
  }, 240_000);

  it('holds the compiled runtime and the files it reads, none of the repository tooling', () => {
    const files = execFileSync('tar', ['tzf', tarball], { encoding: 'utf8' })
      .trim()
      .split('\n')
      .map((f) => f.replace(/^package\//, ''));
    for (const f of [
      'bin/api-conformance.mjs',
      'dist/cli.js',
      'dist/index.js',
      'dist/vitest.js',
      'dist/types/suites/index.d.ts',
      'dist/types/suites/vitest/define.d.ts',
    ])
      expect(files).toContain(f);
    for (const f of [
      'specs/stacks.openapi.yaml',
      'specs/ops.openapi.yaml',
      'specs/requirements/stacks.yaml',
      'specs/requirements/ops.yaml',
      'fixtures/stacks.json',
      'fixtures/ops.json',
      'fixtures/tls/localhost.crt',
    ])
      expect(files).toContain(f);
    for (const f of ['templates/github-actions.yml', 'templates/gitlab-ci.yml', 'CHANGELOG.md', 'README.md', 'package.json'])
      expect(files).toContain(f);
    expect(files.filter((f) => f.startsWith('specs/documents/')).length).toBeGreaterThanOrEqual(2);
    expect(
      files.filter(
        (f) =>
          /^(suites|reference-impl|corpus|stryker|bench|scripts|fixtures\/realworld)\//.test(f) ||
          f.endsWith('.ts') !== f.endsWith('.d.ts'),
      ),
    ).toEqual([]);
    const manifest = JSON.parse(readFileSync(join(dir, 'node_modules/api-conformance/package.json'), 'utf8'));
    expect(manifest.private).toBeUndefined();
    expect(Object.keys(manifest.dependencies)).not.toContain('tsx');
    expect(existsSync(join(dir, 'node_modules/tsx'))).toBe(false);
    console.log(`tarball: ${files.length} files; installed with Prism: ${mib(installedSize)}`);
  });

  it('runs the command line against the embedded stacks API from any folder', async () => {
    const r = await npx(dir, ['api-conformance', 'run', '--api', 'stacks']);
    expect(r.stderr + r.stdout).toMatch(/verdict: PASS/);
    expect(r.code).toBe(0);
    const report = JSON.parse(readFileSync(join(dir, 'reports/compliance.json'), 'utf8'));
    expect(report.tool).toMatchObject({ name: 'api-conformance', commit: 'unknown' });
    expect(report.apis[0].documents.map((d: { name: string }) => d.name)).toContain('specs/stacks.openapi.yaml');
  });

  it.each([
    ['stacks', '/v1/stacks', { authorization: `Bearer ${STACKS_KEY}` }],
    [
      'ops',
      '/servicesNS/nobody/SA-ITOA/itoa_interface/get_supported_object_types',
      { authorization: `Basic ${Buffer.from('admin:x').toString('base64')}` },
    ],
  ])('serves a Prism mock of the %s API: start, one request, stop', async (api, path, headers) => {
    const port = await freePort();
    const mock = background('npx', ['api-conformance', 'mock', '--api', api, '--port', String(port)], { cwd: dir });
    try {
      await mock.waitFor(/listening on http:\/\/127\.0\.0\.1:\d+/, 60_000);
      const res = await fetch(`http://127.0.0.1:${port}${path}`, { headers });
      expect(res.status).toBe(200);
      expect(await res.json()).toBeTruthy();
    } finally {
      await mock.stop();
    }
  });

  it('runs from the programmatic API, resolving to the compliance.json model', async () => {
    const script = [
      "const m = await import('api-conformance');",
      "const report = await m.runConformance({ apis: ['stacks'], formats: 'json', reportDir: 'api-reports' });",
      'console.log(JSON.stringify({ gate: report.summary.gate, apis: report.apis.map((a) => a.api), requirements: report.requirements.length }));',
      'const refused = await m.runConformance({ sed: 1 }).catch((e) => e);',
      'console.log(refused instanceof m.UsageError, refused.message);',
    ].join('\n');
    const r = await run('node', ['--input-type=module', '-e', script], { cwd: dir, timeoutMs: 120_000 });
    expect(r.code, r.stderr).toBe(0);
    const [first, second] = r.stdout.trim().split('\n').slice(-2);
    expect(JSON.parse(first)).toMatchObject({ gate: 'pass', apis: ['stacks'] });
    expect(JSON.parse(first).requirements).toBeGreaterThan(40);
    expect(second).toBe(
      "true runConformance options: unknown key 'sed' (did you mean 'seed'?); known keys: " + second.split('known keys: ')[1],
    );
    expect(JSON.parse(readFileSync(join(dir, 'api-reports/compliance.json'), 'utf8')).summary.gate).toBe('pass');
  });

  it('declares types a NodeNext TypeScript project resolves', async () => {
    writeFileSync(
      join(dir, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          module: 'nodenext',
          moduleResolution: 'nodenext',
          target: 'es2022',
          strict: true,
          noEmit: true,
          skipLibCheck: false,
          types: ['node'],
        },
        files: ['types.mts'],
      }),
    );
    writeFileSync(
      join(dir, 'types.mts'),
      [
        "import { runConformance, UsageError, type ComplianceReport, type ConformanceOptions } from 'api-conformance';",
        "import { defineConformanceTests } from 'api-conformance/vitest';",
        "const options: ConformanceOptions = { apis: ['stacks'], seed: 7, shard: '1/2', targets: { stacks: { baseUrl: 'http://127.0.0.1:4600', apiKey: 'k' } } };",
        'const report: ComplianceReport = await runConformance(options, { env: {} });',
        "const gate: 'pass' | 'fail' | 'incomplete' = report.summary.gate;",
        '// @ts-expect-error: not a key of the option table',
        'await runConformance({ sed: 7 });',
        'export const used = [gate, UsageError, defineConformanceTests];',
      ].join('\n'),
    );
    const r = await npx(dir, ['tsc', '-p', '.']);
    expect(r.stdout + r.stderr).toBe('');
    expect(r.code).toBe(0);
  });

  describe('the vitest entry point', () => {
    beforeAll(() => {
      writeFileSync(
        join(dir, 'conformance.test.ts'),
        "import { defineConformanceTests } from 'api-conformance/vitest';\n\ndefineConformanceTests();\n",
      );
    });

    it('runs every check as a test against the embedded implementation', async () => {
      const r = await npx(dir, ['vitest', 'run', 'conformance.test.ts'], {
        CONFORMANCE_APIS: 'stacks',
        CONFORMANCE_REPORT_DIR: 'vitest-reports',
      });
      expect(r.code, r.stdout + r.stderr).toBe(0);
      expect(r.stdout).toMatch(/Tests\s+\d+ passed( \| \d+ skipped)? \(\d+\)/);
      expect(existsSync(join(dir, 'vitest-reports/junit.xml'))).toBe(true);
    });

    it('selects with -t and fails with the reproducer against a broken deployment, credentials masked', async () => {
      // A stack API that lets everyone in: its 401 requirement must fail.
      writeFileSync(
        join(dir, 'open-door.mjs'),
        [
          "import { createServer } from 'node:http';",
          "const server = createServer((req, res) => { res.writeHead(200, { 'content-type': 'application/json' }); res.end('{\"stacks\":[]}'); });",
          "server.listen(0, '127.0.0.1', () => console.log('listening on http://127.0.0.1:' + server.address().port));",
        ].join('\n'),
      );
      const server = background('node', ['open-door.mjs'], { cwd: dir });
      try {
        const url = (await server.waitFor(/http:\/\/127\.0\.0\.1:\d+/)).trim();
        const secret = 'key-that-must-not-appear-2718';
        const r = await npx(dir, ['vitest', 'run', 'conformance.test.ts', '-t', 'STK-AUTH-401'], {
          CONFORMANCE_APIS: 'stacks',
          STACKS_BASE_URL: url,
          STACKS_API_KEY: secret,
          CONFORMANCE_REPORT_DIR: 'broken-reports',
        });
        const out = r.stdout + r.stderr;
        expect(r.code, out).toBe(1);
        // -t STK-AUTH-401 selects the auth check and the detail check, which holds the rule on an existing stack too:
        // against a server that opens every door the first fails, the second fails or finds no stack to hold it on.
        expect(out).toMatch(/Tests\s+[12] failed \| (\d+ passed \| )?\d+ skipped/);
        expect(out).toContain('stacks.auth.missing-key-401 [STK-AUTH-401]');
        expect(out).toMatch(/STK-AUTH-401 \[MUST\] failed/);
        expect(out).toMatch(/reproduce: curl .*\/v1\/stacks/);
        expect(out).not.toContain(secret);
      } finally {
        await server.stop();
      }
    });
  });
});

describe('the package installed without optional dependencies (--omit=optional)', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await project('conformance-lean', [], true);
  }, 120_000);

  it('leaves Prism out, and mock and --via-prism-proxy say in one line how to add it (exit 2)', async () => {
    expect(existsSync(join(dir, 'node_modules/@stoplight/prism-cli'))).toBe(false);
    const mock = await npx(dir, ['api-conformance', 'mock', '--api', 'stacks']);
    expect(mock.stderr).toMatch(PRISM_LINE);
    expect(mock.code).toBe(2);
    const proxy = await npx(dir, ['api-conformance', 'run', '--api', 'stacks', '--via-prism-proxy']);
    expect(proxy.stderr).toBe(mock.stderr.replace('mock needs', '--via-prism-proxy needs'));
    expect(proxy.code).toBe(2);
    expect(existsSync(join(dir, 'reports'))).toBe(false);
    const run = await npx(dir, ['api-conformance', 'run', '--api', 'stacks', '--format', 'json']);
    expect(run.code, run.stderr).toBe(0);
    console.log(`installed without Prism (--omit=optional): ${mib(diskUsage(join(dir, 'node_modules')).bytes)}`);
  });
});
