import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

/**
 * The corpus (corpus/) and the product import nothing of each other, and inside the product the layers of ARCHITECTURE.md
 * hold: biome.json's noRestrictedImports, one override
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
  // The layers inside the product (ARCHITECTURE.md): the machinery imports no API, an API not the other, the
  // reference implementation nothing of the suite.
  'suites/core/example.ts': "import { opsApi } from '../ops/index';\nexport const api = opsApi;\n",
  'suites/core/report/example.ts': "import { runCli } from '../../cli/main';\nexport const run = runCli;\n",
  'suites/ops/example.ts': "import { stacksApi } from '../stacks/index';\nexport const api = stacksApi;\n",
  'suites/ops/own.ts': "import { levelsOf } from '../core/catalogue';\nexport const levels = levelsOf;\n",
  'suites/cli/example.ts': "import { runAgainst } from '../selftest/harness';\nexport const run = runAgainst;\n",
  'reference-impl/example.ts': "import { levelsOf } from '../suites/core/catalogue';\nexport const levels = levelsOf;\n",
};

const scratch = mkdtempSync(join(tmpdir(), 'corpus-boundary-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('the corpus and the product import nothing of each other, nor the layers across theirs (biome.json, noRestrictedImports)', () => {
  it('an import across a line is an error, an import within a side is not', async () => {
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
      'reference-impl/example.ts',
      'suites/cli/example.ts',
      'suites/core/example.ts',
      'suites/core/report/example.ts',
      'suites/ops/example.ts',
      'suites/selftest/example.test.ts',
    ]);
    expect(result.out).toContain('it imports nothing of the product');
    expect(result.out).toContain('never by importing its code');
  }, 30_000);
});
