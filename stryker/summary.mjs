#!/usr/bin/env node
/*
 * Reads Stryker's json report (mutation-testing-elements format) and writes reports/mutation.json: the score in
 * percent = killed / (killed + survived), the counts (killed, survived, timeouts, no coverage, errors) and the same
 * per file. Timeouts and mutants no check reaches are counted but left out of that score (Stryker's own "mutation
 * score", which counts timeouts as detected and no coverage as undetected, is given too).
 *
 *   node stryker/summary.mjs [REPORT.json ...] [--out FILE] [--duration-s N] [--scope S] [--tests T]
 *
 * Several reports (batches of files run one after the other) are merged: a file present in several keeps the last.
 * With stryker/survivors.md present, each survivor's reviewed verdict is counted (equivalent, unspecified, needs a
 * check, not reviewed yet).
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { mutantKey, readVerdicts } from './survivors.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const DEFAULT_REPORT = resolve(ROOT, 'reports/mutation/mutation-report.json');
const DEFAULT_OUT = resolve(ROOT, 'reports/mutation.json');

const round = (x) => Math.round(x * 100) / 100;
const percent = (num, den) => (den === 0 ? null : round((100 * num) / den));

function count(mutants) {
  const c = { total: mutants.length, killed: 0, survived: 0, timeouts: 0, noCoverage: 0, runtimeErrors: 0, compileErrors: 0, ignored: 0, pending: 0 };
  const field = {
    Killed: 'killed',
    Survived: 'survived',
    Timeout: 'timeouts',
    NoCoverage: 'noCoverage',
    RuntimeError: 'runtimeErrors',
    CompileError: 'compileErrors',
    Ignored: 'ignored',
    Pending: 'pending',
  };
  for (const m of mutants) c[field[m.status] ?? 'pending']++;
  return {
    score: percent(c.killed, c.killed + c.survived),
    ...c,
    // Stryker's own figure: (killed + timeout) / (killed + timeout + survived + no coverage).
    strykerScore: percent(c.killed + c.timeouts, c.killed + c.timeouts + c.survived + c.noCoverage),
  };
}

function version(pkg) {
  try {
    return JSON.parse(readFileSync(resolve(ROOT, 'node_modules', pkg, 'package.json'), 'utf8')).version;
  } catch {
    return undefined;
  }
}

/** Merges reports: files keyed by path, the last report wins for a file present in several. */
function mergeReports(reports) {
  const files = {};
  for (const r of reports) Object.assign(files, r.files);
  return { ...reports.at(-1), files };
}

function summarise(report, extra = {}) {
  const verdicts = readVerdicts();
  const files = Object.fromEntries(
    Object.entries(report.files)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([name, f]) => [name, count(f.mutants)]),
  );
  const all = Object.values(report.files).flatMap((f) => f.mutants);
  const review = { equivalent: 0, unspecified: 0, needsCheck: 0, notReviewed: 0 };
  if (verdicts) {
    for (const [name, f] of Object.entries(report.files)) {
      for (const m of f.mutants.filter((x) => x.status === 'Survived' || x.status === 'NoCoverage')) {
        const v = verdicts.get(mutantKey(name, m, f.source));
        if (v === 'equivalent') review.equivalent++;
        else if (v === 'unspecified') review.unspecified++;
        else if (v === 'needs a check') review.needsCheck++;
        else review.notReviewed++;
      }
    }
  }
  const totals = count(all);
  return {
    ...extra,
    tools: { '@stryker-mutator/core': version('@stryker-mutator/core'), '@stryker-mutator/vitest-runner': version('@stryker-mutator/vitest-runner'), vitest: version('vitest'), node: process.version },
    generatedAt: new Date().toISOString(),
    scoreDefinition: 'killed / (killed + survived), in percent; timeouts and no coverage are counted apart',
    ...totals,
    ...(verdicts ? { survivorsReview: { file: 'stryker/survivors.md', ...review } } : {}),
    files,
  };
}

/** Reads the report(s), writes the summary to `out` and prints it; returns it (undefined when a report is missing). */
export function writeSummary({ inputs = [DEFAULT_REPORT], out = DEFAULT_OUT, extra = {} } = {}) {
  const missing = inputs.filter((f) => !existsSync(f));
  if (missing.length) {
    process.stderr.write(`error: no Stryker json report at ${missing.join(', ')} (run npm run mutation first)\n`);
    return undefined;
  }
  const report = mergeReports(inputs.map((f) => JSON.parse(readFileSync(f, 'utf8'))));
  const s = summarise(report, extra);
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, `${JSON.stringify(s, null, 2)}\n`);
  process.stdout.write(
    `mutation score ${s.score ?? '-'}% (killed ${s.killed} / killed + survived ${s.killed + s.survived}); ` +
      `timeouts ${s.timeouts}, no coverage ${s.noCoverage}, errors ${s.runtimeErrors + s.compileErrors}, total ${s.total}` +
      `${s.durationS !== undefined ? `, ${s.durationS} s` : ''}\n` +
      Object.entries(s.files)
        .map(([f, c]) => `  ${f}: ${c.score ?? '-'}% (killed ${c.killed}, survived ${c.survived}, timeouts ${c.timeouts}, no coverage ${c.noCoverage})\n`)
        .join('') +
      `written to ${out}\n`,
  );
  return s;
}

function main(argv) {
  const inputs = [];
  let out = DEFAULT_OUT;
  const extra = {};
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--out') out = resolve(argv[++i]);
    else if (a === '--duration-s') extra.durationS = Number(argv[++i]);
    else if (a === '--scope') extra.scope = argv[++i];
    else if (a === '--tests') extra.tests = argv[++i];
    else if (a.startsWith('--')) throw new Error(`summary.mjs: unknown option ${a}`);
    else inputs.push(resolve(a));
  }
  if (!writeSummary({ inputs: inputs.length ? inputs : undefined, out, extra })) process.exit(2);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main(process.argv.slice(2));
