import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

/**
 * The corpus (corpus/) and the product import nothing of each other: biome.json's noRestrictedImports, one override
 * per side. Proved on a scratch tree linted with the project's own configuration: an import across the line is an
 * error either way, an import inside either side is not.
 */
const ROOT = join(import.meta.dirname, '../../..');
const BIOME = join(ROOT, 'node_modules/.bin/biome');

const files: Record<string, string> = {
  'corpus/servers/example/server.mjs': "import { opsApi } from '../../../suites/ops/index';\nexport const api = opsApi;\n",
  'corpus/servers/example/lib/product.mjs': "import { runConformance } from 'api-conformance';\nexport const run = runConformance;\n",
  'corpus/servers/example/lib/own.mjs': "import { api } from '../server.mjs';\nexport const own = api;\n",
  'suites/selftest/example.test.ts':
    "import { startOpsServer } from '../../corpus/servers/ops-product-like/ops-server';\nexport const start = startOpsServer;\n",
  'suites/selftest/own.ts': "import { loadCorpus } from './corpus/manifest';\nexport const load = loadCorpus;\n",
};

const scratch = mkdtempSync(join(tmpdir(), 'corpus-boundary-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('the corpus and the product import nothing of each other (biome.json, noRestrictedImports)', () => {
  it('an import across the line is an error either way, an import within a side is not', async () => {
    // The project's configuration as it is, less what ties it to this checkout (the schema path, the git ignore file).
    const config = JSON.parse(readFileSync(join(ROOT, 'biome.json'), 'utf8')) as Record<string, unknown>;
    delete config.$schema;
    delete config.vcs;
    writeFileSync(join(scratch, 'biome.json'), JSON.stringify(config));
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(scratch, path)), { recursive: true });
      writeFileSync(join(scratch, path), text);
    }
    const result = await promisify(execFile)(BIOME, ['lint', '--max-diagnostics=50', '.'], {
      cwd: scratch,
      env: { ...process.env, NO_COLOR: '1' },
    }).then(
      () => ({ code: 0, out: '' }),
      (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, out: e.stdout + e.stderr }),
    );
    expect(result.code).toBe(1);
    const flagged = [...result.out.matchAll(/^(\S+):\d+:\d+ lint\/style\/noRestrictedImports/gm)].map((m) => m[1]).sort();
    expect(flagged).toEqual([
      'corpus/servers/example/lib/product.mjs',
      'corpus/servers/example/server.mjs',
      'suites/selftest/example.test.ts',
    ]);
    expect(result.out).toContain('it imports nothing of the product');
    expect(result.out).toContain('never by importing its code');
  }, 30_000);
});
