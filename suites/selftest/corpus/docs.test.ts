import { existsSync, readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { corpusDocs } from './docs';
import { CORPUS_DIR, type CorpusServer, manifestProblems } from './manifest';

describe('the corpus documentation is made from the manifests', () => {
  it.each([...corpusDocs()].map(([file, text]) => [relative(CORPUS_DIR, file), file, text]))(
    '%s is in step with the manifests (npm run corpus:docs)',
    (_, file, text) => {
      expect(existsSync(file) ? readFileSync(file, 'utf8') : '(missing)').toBe(text);
    },
  );

  it('a bug table names every requirement, and says so when a bug has none', () => {
    const server: CorpusServer = {
      name: 'example',
      dir: '/nonexistent/example',
      manifest: {
        api: 'ops',
        summary: 'An example.',
        entry: 'server.mjs',
        scheme: 'http',
        credentials: {},
        expected: { mustFailures: ['OPS-AUTH-HTTPS'], warnings: [] },
        bugs: {
          'sort-dir': {
            clause: 'sort_dir | integer | 1 ascending, 0 descending',
            does: 'inverts it',
            breaks: ['OPS-QUERY-SORT-DIR'],
            collateral: ['OPS-ICON-LIST'],
          },
          unmapped: { clause: 'Transport: HTTPS', does: 'anything' },
        },
      },
    };
    const bugs = [...corpusDocs([server])].find(([file]) => file.endsWith('BUGS.md'))![1];
    expect(bugs).toContain(
      '| `sort-dir` | "sort_dir \\| integer \\| 1 ascending, 0 descending" | inverts it | `OPS-QUERY-SORT-DIR` (also fails `OPS-ICON-LIST`) |',
    );
    expect(bugs).toContain('| `unmapped` | "Transport: HTTPS" | anything | **none mapped** |');
  });

  it('a manifest of the wrong shape is refused, naming what is wrong', () => {
    expect(
      manifestProblems({
        api: 'soap',
        summary: '',
        entry: 'server.py',
        scheme: 'http',
        credentials: {},
        expected: { mustFailures: 'OPS-AUTH-HTTPS' },
        bugs: { x: { clause: 'c', does: 'd', breaks: 'ID' } },
        extra: 1,
      }),
    ).toEqual([
      'unknown key "extra"',
      'api must be "stacks" or "ops"',
      'summary must be a sentence',
      'entry must name a .mjs or .ts file',
      'expected.mustFailures and expected.warnings must be lists of requirement ids',
      'bug x: breaks must be a list of requirement ids',
    ]);
  });
});
