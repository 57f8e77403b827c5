/*
 * What only an installed project shows about the package's own files: its declarations type-check in a fresh
 * project made the way `npm i -D typescript` makes one today (the current TypeScript, strict settings, no `types`:
 * since TypeScript 6 no @types package is in the program unless named), with and without @types/node; and the
 * paths its help names exist from that project.
 */
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { run, tempDir, userEnv } from './sandbox';

const tarball = inject('tarball');
let dir: string;

beforeAll(async () => {
  dir = tempDir('cf-types-');
  writeFileSync(join(dir, 'package.json'), `${JSON.stringify({ name: 'types-user', private: true, version: '1.0.0' }, null, 2)}\n`);
  // `typescript` as npm resolves it today, and vitest for the vitest entry point's types.
  const r = await run('npm', ['install', '--save-dev', tarball, 'typescript@latest', 'vitest@^4.1.0'], {
    cwd: dir,
    env: userEnv(),
    timeoutMs: 240_000,
  });
  if (r.code !== 0) throw new Error(`npm install failed:\n${r.stdout}${r.stderr}`);
}, 300_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const tsc = (args: string[]) => run('npx', ['tsc', ...args], { cwd: dir, env: userEnv(), timeoutMs: 120_000 });

/** Strict settings a user turns on; `types` as given (absent: TypeScript's default). */
function tsconfig(types?: string[]): void {
  const compilerOptions = {
    module: 'nodenext',
    moduleResolution: 'nodenext',
    target: 'es2022',
    lib: ['es2022'],
    strict: true,
    exactOptionalPropertyTypes: true,
    noUncheckedIndexedAccess: true,
    skipLibCheck: false,
    noEmit: true,
    ...(types ? { types } : {}),
  };
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions, files: ['types.mts'] }, null, 2));
  writeFileSync(
    join(dir, 'types.mts'),
    [
      "import { runConformance, UsageError, type ComplianceReport, type ConformanceOptions } from 'api-conformance';",
      "import { defineConformanceTests } from 'api-conformance/vitest';",
      "const options: ConformanceOptions = { apis: ['stacks'], seed: 7, targets: { stacks: { baseUrl: 'http://127.0.0.1:4600' } } };",
      'const report: ComplianceReport = await runConformance(options, { env: {} });',
      'const partial: string | undefined = report.summary.partial;',
      'export const used = [partial, UsageError, defineConformanceTests];',
    ].join('\n'),
  );
}

describe('the declarations stand alone', () => {
  it('is the current TypeScript, 6 or later', async () => {
    const r = await tsc(['--version']);
    expect(r.stdout).toMatch(/^Version (\d+)\./);
    expect(Number(r.stdout.match(/^Version (\d+)\./)![1])).toBeGreaterThanOrEqual(6);
  });

  it('strict, without @types/node in the program: no error', async () => {
    tsconfig();
    const files = await tsc(['-p', '.', '--listFilesOnly']);
    expect(files.stdout).toContain('api-conformance/dist/types/suites/index.d.ts');
    expect(files.stdout).not.toContain('@types/node/');
    const r = await tsc(['-p', '.']);
    expect(r.stdout + r.stderr).toBe('');
    expect(r.code).toBe(0);
  });

  it('strict, with types: ["node"]: no error', async () => {
    tsconfig(['node']);
    const r = await tsc(['-p', '.']);
    expect(r.stdout + r.stderr).toBe('');
    expect(r.code).toBe(0);
  });
});

describe('the paths the help names exist where the package is installed', () => {
  it('run --help: the example config', async () => {
    const r = await run('npx', ['api-conformance', 'run', '--help'], { cwd: dir, env: userEnv(), timeoutMs: 60_000 });
    const path = r.stdout.match(/e\.g\. (\S+config\.example\.yaml);/)?.[1];
    expect(path).toBe('node_modules/api-conformance/fixtures/config.example.yaml');
    expect(existsSync(join(dir, path!))).toBe(true);
  });
});
