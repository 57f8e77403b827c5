#!/usr/bin/env node
// The command line. Installed as a package it runs the compiled CLI in dist/ (built by `npm run build`, which
// `npm pack` runs); in a clone, where the TypeScript sources are beside it, it runs them through tsx's loader, so
// nothing needs building there (`npx api-conformance`, `npm install -g .`).
import { existsSync } from 'node:fs';

const sources = new URL('../suites/cli.ts', import.meta.url);
if (existsSync(sources)) {
  const { register } = await import('tsx/esm/api');
  register();
  await import(sources.href);
} else {
  await import('../dist/cli.js');
}
