import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const API_DIRS = ['suites/stacks', 'suites/ops'];

const sources = (dir: string): string[] =>
  readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith('.ts') && !e.name.endsWith('.gen.ts') ? [join(dir, e.name)] : [],
  );

describe('checks assert through the expectation vocabulary', () => {
  // A direct ctx.assert leaves its record without expected and actual, and invites a message that says pass or fail
  // by a ternary on its own condition: it stays only where the line before says why.
  it('calls ctx.assert only where a comment on the line before gives the reason', () => {
    const bare: string[] = [];
    for (const file of API_DIRS.flatMap(sources)) {
      const lines = readFileSync(join(ROOT, file), 'utf8').split('\n');
      lines.forEach((line, i) => {
        if (/\bctx\.assert\(/.test(line) && !/^\s*\/\//.test(lines[i - 1] ?? '')) bare.push(`${relative(ROOT, join(ROOT, file))}:${i + 1}`);
      });
    }
    expect(bare).toEqual([]);
  });
});
