#!/usr/bin/env node
/*
 * `npm run mutation [-- OPTIONS]`: runs Stryker (stryker.config.mjs), then stryker/summary.mjs, which writes
 * reports/mutation.json (with the wall time of the run). Options of this script:
 *
 *   --scope stacks|ops|all      what to mutate (and whose checks run); default all (MUTATION_SCOPE)
 *   --tests per-check|project   how the conformance checks are run as tests (MUTATION_TESTS, see stryker.config.mjs)
 *
 * Every other option goes to `stryker run` unchanged, e.g. --concurrency 1, --incremental, --mutate 'FILE:10-20'.
 * The exit code is Stryker's (2 when it wrote no report).
 */
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeSummary } from './summary.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const pass = [];
for (let i = 0; i < args.length; i++) {
  const a = args[i];
  const [name, inline] = a.split('=', 2);
  const value = () => inline ?? args[++i];
  if (name === '--scope') process.env.MUTATION_SCOPE = value();
  else if (name === '--tests') process.env.MUTATION_TESTS = value();
  else pass.push(a);
}
const scope = process.env.MUTATION_SCOPE ?? 'all';
const tests = process.env.MUTATION_TESTS ?? 'per-check';

// The package exports no bin path: it is found next to its package.json.
const stryker = resolve(dirname(createRequire(import.meta.url).resolve('@stryker-mutator/core/package.json')), 'bin/stryker.js');
const started = Date.now();
const run = spawnSync(process.execPath, [stryker, 'run', 'stryker.config.mjs', ...pass], { cwd: ROOT, stdio: 'inherit', env: process.env });
const seconds = Math.round((Date.now() - started) / 1000);
if (run.error) throw run.error;
// A failed Stryker run (e.g. its dry run failed) leaves the last run's report in place: it is not summarised.
if (run.status !== 0) process.exit(run.status ?? 1);
process.exit(writeSummary({ extra: { scope, tests, durationS: seconds } }) ? 0 : 2);
