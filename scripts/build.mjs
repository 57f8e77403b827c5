#!/usr/bin/env node
/*
 * `npm run build` (and `npm pack`, through prepack): the compiled package in dist/.
 *
 * JavaScript: esbuild bundles the three entry points (the command line, the programmatic API, the vitest entry point)
 * with their shared code split into chunks, every npm dependency left external. The sources import without file
 * extensions (moduleResolution bundler), which Node cannot load as they are and tsc does not rewrite: a bundler
 * resolves them as the type checker does. The sources find the files they read at run time (specs/, fixtures/,
 * package.json) relative to themselves (`new URL('../../specs/…', import.meta.url)`); in a bundle `import.meta.url`
 * is the output file's, so each module's `import.meta.url` becomes the URL its source file would have beside dist/.
 * Those paths then resolve inside the installed package whatever the working directory.
 *
 * Types: TypeScript's declaration emit (tsconfig.build.json, the compiler API as `tsc --emitDeclarationOnly` uses
 * it) for the declarations the public entry points reach, their relative imports given the `.js` extension that
 * Node16/NodeNext resolution needs.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import ts from 'typescript';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const DIST = join(ROOT, 'dist');

/** Entry points by output name; package.json's `exports` and bin/api-conformance.mjs name these files. */
const ENTRIES = { cli: 'suites/cli.ts', index: 'suites/index.ts', vitest: 'suites/vitest/define.ts' };

/** Every output file sits directly in dist/, so `..` from it is the package root. */
const sourceUrlPlugin = {
  name: 'source-import-meta-url',
  setup(b) {
    b.onLoad({ filter: /\.ts$/ }, (args) => {
      if (args.path.includes(`${sep}node_modules${sep}`)) return undefined;
      const text = readFileSync(args.path, 'utf8');
      const fromDist = `../${relative(ROOT, args.path).split(sep).join('/')}`;
      return { contents: text.replaceAll('import.meta.url', `new URL(${JSON.stringify(fromDist)}, import.meta.url).href`), loader: 'ts' };
    });
  },
};

rmSync(DIST, { recursive: true, force: true });
await build({
  absWorkingDir: ROOT,
  entryPoints: ENTRIES,
  outdir: DIST,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  packages: 'external',
  chunkNames: 'chunk-[hash]',
  legalComments: 'none',
  logLevel: 'warning',
  plugins: [sourceUrlPlugin],
});

// Declarations: only the files the public entry points reach are emitted (and checked for declaration emit), so a
// module elsewhere whose inferred types cannot be written out does not stop the build.
const config = ts.getParsedCommandLineOfConfigFile(
  join(ROOT, 'tsconfig.build.json'),
  {},
  { ...ts.sys, onUnRecoverableConfigFileDiagnostic: (d) => fail([d]) },
);
const program = ts.createProgram({ rootNames: config.fileNames, options: config.options });

function fail(diagnostics) {
  const host = { getCanonicalFileName: (f) => f, getCurrentDirectory: () => ROOT, getNewLine: () => '\n' };
  process.stderr.write(ts.formatDiagnostics(diagnostics, host));
  process.exit(1);
}

/** The source a relative specifier of `from` names (`x.ts` or `x/index.ts`), and the specifier Node resolves (`.js`). */
function resolveSource(from, specifier) {
  const base = resolve(dirname(from), specifier);
  if (existsSync(`${base}.ts`)) return { file: `${base}.ts`, specifier: `${specifier}.js` };
  if (existsSync(join(base, 'index.ts'))) return { file: join(base, 'index.ts'), specifier: `${specifier}/index.js` };
  throw new Error(`${relative(ROOT, from)}: cannot resolve '${specifier}'`);
}

const RELATIVE = /(\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)(['"])(\.\.?\/[^'"]*)\2/g;
const queue = [ENTRIES.index, ENTRIES.vitest].map((e) => join(ROOT, e));
const seen = new Set();
while (queue.length) {
  const file = queue.pop();
  if (seen.has(file)) continue;
  seen.add(file);
  const source = program.getSourceFile(file);
  if (!source) throw new Error(`${relative(ROOT, file)} is not in tsconfig.build.json's program`);
  const checked = ts.getPreEmitDiagnostics(program, source);
  if (checked.length) fail(checked);
  let text;
  const emitted = program.emit(source, (_name, output) => (text = output), undefined, true);
  if (emitted.diagnostics.length) fail(emitted.diagnostics);
  text = text.replace(RELATIVE, (_m, lead, quote, specifier) => {
    const found = resolveSource(file, specifier);
    queue.push(found.file);
    return `${lead}${quote}${found.specifier}${quote}`;
  });
  const out = join(DIST, 'types', relative(ROOT, file).replace(/\.ts$/, '.d.ts'));
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, text);
}
process.stdout.write(`dist/: ${Object.keys(ENTRIES).join(', ')} bundles and ${seen.size} declaration files\n`);
