#!/usr/bin/env node
/*
 * Reads Stryker's json report (mutation-testing-elements format) and writes reports/mutation.json: the score in
 * percent = killed / (killed + survived), the counts (killed, survived, timeouts, no coverage, errors) and the same
 * per file. Timeouts and mutants no check reaches are counted but left out of that score (Stryker's own "mutation
 * score", which counts timeouts as detected and no coverage as undetected, is given too).
 *
 *   node stryker/summary.mjs [REPORT.json ...] [--out FILE] [--duration-s N] [--scope S] [--tests T]
 *
 * Several reports are merged (stryker/merge.mjs): batches of files, or a run of some lines after a full run; each
 * mutant keeps the result of the last report that ran it.
 * With stryker/survivors.md present, each survivor's reviewed verdict is counted (equivalent, unspecified, needs a
 * check, not reviewed yet), and the score after review is given next to the raw score, overall and per file:
 * killed / (killed + survived - survived mutants reviewed as equivalent - survived mutants reviewed as unspecified),
 * the share of the mutants a conformance check could kill that the checks do kill.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { mergeReports } from './merge.mjs';
import { mutantKey, readVerdicts } from './survivors.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const DEFAULT_REPORT = resolve(ROOT, 'reports/mutation/mutation-report.json');
const DEFAULT_OUT = resolve(ROOT, 'reports/mutation.json');

const round = (x) => Math.round(x * 100) / 100;
const percent = (num, den) => (den === 0 ? null : round((100 * num) / den));

function count(mutants) {
  const c = {
    total: mutants.length,
    killed: 0,
    survived: 0,
    timeouts: 0,
    noCoverage: 0,
    runtimeErrors: 0,
    compileErrors: 0,
    ignored: 0,
    pending: 0,
  };
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

const VERDICT_FIELD = { equivalent: 'equivalent', unspecified: 'unspecified', 'needs a check': 'needsCheck' };
const emptyReview = () => ({ equivalent: 0, unspecified: 0, needsCheck: 0, notReviewed: 0 });

/** The reviewed verdicts of one file's Survived and NoCoverage mutants, each status apart. */
function reviewOf(name, f, verdicts) {
  const out = { survived: emptyReview(), noCoverage: emptyReview() };
  for (const m of f.mutants) {
    const bucket = m.status === 'Survived' ? out.survived : m.status === 'NoCoverage' ? out.noCoverage : undefined;
    if (bucket) bucket[VERDICT_FIELD[verdicts.get(mutantKey(name, m, f.source))] ?? 'notReviewed']++;
  }
  return out;
}

function addReview(into, r) {
  for (const status of ['survived', 'noCoverage']) for (const k of Object.keys(into[status])) into[status][k] += r[status][k];
}

/** killed / (killed + survived - survived mutants reviewed as equivalent or unspecified), in percent. */
const scoreAfterReview = (c, r) => percent(c.killed, c.killed + c.survived - r.survived.equivalent - r.survived.unspecified);

const SCORE_DEFINITION = 'killed / (killed + survived), in percent; timeouts and no coverage are counted apart';
const SCORE_AFTER_REVIEW_DEFINITION =
  'killed / (killed + survived - survivors reviewed as equivalent - survivors reviewed as unspecified), in percent, with the verdicts of ' +
  'stryker/survivors.md: the share of the mutants a conformance check could kill that the checks do kill. Equivalent survivors ' +
  'change no answer of the API, unspecified ones change answers only where the document leaves the behaviour open, so no check ' +
  'may kill either; survivors reviewed as needing a check, or not reviewed yet, stay in the denominator. Only Survived mutants ' +
  'are subtracted: no coverage (and timeouts) stay out of this score as out of the raw one';

function summarise(report, extra = {}) {
  const verdicts = readVerdicts();
  const total = { survived: emptyReview(), noCoverage: emptyReview() };
  const files = Object.fromEntries(
    Object.entries(report.files)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([name, f]) => {
        const c = count(f.mutants);
        if (!verdicts) return [name, c];
        const r = reviewOf(name, f, verdicts);
        addReview(total, r);
        return [name, { score: c.score, scoreAfterReview: scoreAfterReview(c, r), ...c }];
      }),
  );
  const all = Object.values(report.files).flatMap((f) => f.mutants);
  const totals = count(all);
  // Every surviving and uncovered mutant's verdict, as before, plus the same split by status.
  const review = Object.fromEntries(Object.keys(emptyReview()).map((k) => [k, total.survived[k] + total.noCoverage[k]]));
  return {
    ...extra,
    tools: {
      '@stryker-mutator/core': version('@stryker-mutator/core'),
      '@stryker-mutator/vitest-runner': version('@stryker-mutator/vitest-runner'),
      vitest: version('vitest'),
      node: process.version,
    },
    generatedAt: new Date().toISOString(),
    scoreDefinition: SCORE_DEFINITION,
    ...(verdicts ? { scoreAfterReviewDefinition: SCORE_AFTER_REVIEW_DEFINITION } : {}),
    score: totals.score,
    ...(verdicts ? { scoreAfterReview: scoreAfterReview(totals, total) } : {}),
    ...totals,
    ...(verdicts
      ? {
          survivorsReview: {
            file: 'stryker/survivors.md',
            definition:
              'verdicts of the Survived and NoCoverage mutants: equivalent (no answer of the API can differ), unspecified (answers differ only where the document leaves the behaviour open), needsCheck (a documented behaviour breaks and no check notices), notReviewed; bySurvived and byNoCoverage split them by status',
            ...review,
            bySurvived: total.survived,
            byNoCoverage: total.noCoverage,
          },
        }
      : {}),
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
      (s.scoreAfterReview !== undefined
        ? `after review ${s.scoreAfterReview ?? '-'}% (survivors reviewed as equivalent or unspecified left out); `
        : '') +
      `timeouts ${s.timeouts}, no coverage ${s.noCoverage}, errors ${s.runtimeErrors + s.compileErrors}, total ${s.total}` +
      `${s.durationS !== undefined ? `, ${s.durationS} s` : ''}\n` +
      Object.entries(s.files)
        .map(
          ([f, c]) =>
            `  ${f}: ${c.score ?? '-'}%${c.scoreAfterReview !== undefined ? `, after review ${c.scoreAfterReview ?? '-'}%` : ''} (killed ${c.killed}, survived ${c.survived}, timeouts ${c.timeouts}, no coverage ${c.noCoverage})\n`,
        )
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
