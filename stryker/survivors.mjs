#!/usr/bin/env node
/*
 * Keeps stryker/survivors.md, the reviewed list of the mutants the conformance checks let live, in step with
 * Stryker's json report:
 *
 *   node stryker/survivors.mjs [REPORT.json ...]      (default reports/mutation/mutation-report.json)
 *
 * Every Survived and NoCoverage mutant of the files in the report(s) is listed under its file as
 *
 *   - L<line>:<col> <Mutator> `<original>` → `<replacement>` — <verdict>[: <one-line reason>]
 *
 * with the verdict a reviewer gave it: `equivalent` (no answer of the API changes), `unspecified` (answers change,
 * but only where the documents leave the behaviour open, so a conformance check must accept both), `needs a check`
 * (a check should kill it), or `not reviewed` for a mutant new since the last review. Verdicts are kept when the
 * list is regenerated (matched by the whole line before the verdict); sections of files not in the report are kept,
 * and so is the hand-written section that follows the files, from its `## Checks to add` heading to the end.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { mergeReports } from './merge.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const SURVIVORS_FILE = resolve(ROOT, 'stryker/survivors.md');
const VERDICTS = ['equivalent', 'unspecified', 'needs a check', 'not reviewed'];
const SEP = ' — ';
/** Heading of the hand-written section after the file sections (the work plan for the checks), kept as it is. */
const TRAILER_HEADING = '## Checks to add';

/** Source text of a mutant's location (mutation-testing-elements locations: lines and columns from 1). */
function originalText(source, loc) {
  if (source === undefined) return '?';
  const lines = source.split('\n');
  const { start, end } = loc;
  if (start.line === end.line) return lines[start.line - 1].slice(start.column - 1, end.column - 1);
  return [
    lines[start.line - 1].slice(start.column - 1),
    ...lines.slice(start.line, end.line - 1),
    lines[end.line - 1].slice(0, end.column - 1),
  ].join('\n');
}

/** One line of code as inline markdown: whitespace collapsed, at most 90 characters. */
function code(text) {
  let t = text.replace(/\s+/g, ' ').replaceAll('—', '-').trim();
  if (t.length > 90) t = `${t.slice(0, 89)}…`;
  if (!t.includes('`')) return `\`${t}\``;
  return `\`\` ${t} \`\``;
}

function describeMutant(m, source) {
  const where = `L${m.location.start.line}:${m.location.start.column}`;
  const cov = m.status === 'NoCoverage' ? ' (no coverage)' : '';
  return `${where} ${m.mutatorName}${cov} ${code(originalText(source, m.location))} → ${code(m.replacement ?? '')}`;
}

/** A verdict is about the mutant, not about whether a check reached it: the key leaves the coverage mark out. */
const unplaced = (text) => text.replace(/^L\d+:\d+ /, '');
const keyOf = (file, text) => `${file}|${text.replace(' (no coverage)', '')}`;
export const mutantKey = (file, m, source) => keyOf(file, describeMutant(m, source));

/** The reviewed file: file → [{ text, verdict, reason }] in order, or undefined when there is none. */
function readSurvivors(path = SURVIVORS_FILE) {
  if (!existsSync(path)) return undefined;
  const sections = new Map();
  let current;
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    if (line.startsWith(TRAILER_HEADING)) break;
    const h = /^## (\S+)/.exec(line);
    if (h) {
      current = [];
      sections.set(h[1], current);
      continue;
    }
    if (!current || !line.startsWith('- L')) continue;
    const at = line.indexOf(SEP); // descriptions never hold an em dash (code() replaces it)
    if (at < 0) continue;
    const text = line.slice(2, at);
    const rest = line.slice(at + SEP.length);
    const verdict = VERDICTS.find((v) => rest === v || rest.startsWith(`${v}:`)) ?? 'not reviewed';
    const reason = rest.startsWith(`${verdict}:`) ? rest.slice(verdict.length + 1).trim() : '';
    current.push({ text, verdict, reason });
  }
  return sections;
}

/** The section from the `## Checks to add` heading to the end of the file, or '' when there is none. */
function readTrailer(path = SURVIVORS_FILE) {
  if (!existsSync(path)) return '';
  const text = readFileSync(path, 'utf8');
  const at = text.search(new RegExp(`^${TRAILER_HEADING}`, 'm'));
  return at < 0 ? '' : text.slice(at).trimEnd();
}

/** key (file|description) → verdict, for summary.mjs. */
export function readVerdicts(path = SURVIVORS_FILE) {
  const sections = readSurvivors(path);
  if (!sections) return undefined;
  const map = new Map();
  for (const [file, entries] of sections) for (const e of entries) map.set(keyOf(file, e.text), e.verdict);
  return map;
}

const HEADER = `# Surviving mutants

The mutants of the reference implementations (\`reference-impl/stacks\`, \`reference-impl/ops\`) that the conformance
checks let live, from \`npm run mutation\` (README, "Mutation testing"). Regenerate the list with
\`node stryker/survivors.mjs\` after a run: verdicts already given are kept, new survivors come as \`not reviewed\`.

Each line: \`L<line>:<column> <mutator> \\\`original\\\` → \\\`replacement\\\` — <verdict>: <reason>\`, where the verdict is

- **equivalent**: no answer of the API can differ (dead or redundant code, a value nothing reads);
- **unspecified**: answers differ, but only where the documents leave the behaviour open (a message's wording, a
  validation the document does not ask for): a conformance check must accept both, so none can kill it;
- **needs a check**: a documented behaviour breaks and no check notices: a check (or a stronger assertion) should
  kill it;
- **not reviewed**: not judged yet (new since the last review, or from a run nobody has reviewed): until it is,
  it counts as needing a check.

\`(no coverage)\` marks mutants in code that no check reaches at all. Lines and columns are those of the source
Stryker mutated (its report keeps it): the file may have moved on since. After the files, **Checks to add** groups the
\`needs a check\` mutants by the check that would kill them; regenerating the list keeps that section as it is.
`;

function render(sections, trailer = '') {
  const out = [HEADER];
  const totals = Object.fromEntries(VERDICTS.map((v) => [v, 0]));
  for (const entries of sections.values()) for (const e of entries) totals[e.verdict]++;
  out.push(`\n| file | listed | equivalent | unspecified | needs a check | not reviewed |\n|---|---|---|---|---|---|`);
  for (const [file, entries] of sections) {
    const c = (v) => entries.filter((e) => e.verdict === v).length;
    out.push(`| ${file} | ${entries.length} | ${c('equivalent')} | ${c('unspecified')} | ${c('needs a check')} | ${c('not reviewed')} |`);
  }
  const n = [...sections.values()].reduce((a, e) => a + e.length, 0);
  out.push(`| **all** | ${n} | ${totals.equivalent} | ${totals.unspecified} | ${totals['needs a check']} | ${totals['not reviewed']} |`);
  for (const [file, entries] of sections) {
    out.push(`\n## ${file}\n`);
    for (const e of entries) out.push(`- ${e.text}${SEP}${e.verdict}${e.reason ? `: ${e.reason}` : ''}`);
  }
  if (trailer) out.push('', trailer);
  return `${out.join('\n')}\n`;
}

function main(argv) {
  const inputs = argv.length ? argv.map((a) => resolve(a)) : [resolve(ROOT, 'reports/mutation/mutation-report.json')];
  const previous = readSurvivors() ?? new Map();
  const trailer = readTrailer();
  const known = new Map();
  // A mutant whose line moved (code added or removed above it) keeps its verdict: the same mutation of the same code
  // in the same file, taken in order when the file holds several.
  const moved = new Map();
  for (const [file, entries] of previous) {
    for (const e of entries) {
      known.set(keyOf(file, e.text), e);
      const k = keyOf(file, unplaced(e.text));
      moved.set(k, [...(moved.get(k) ?? []), e]);
    }
  }
  const sections = new Map(previous);
  const report = mergeReports(inputs.map((input) => JSON.parse(readFileSync(input, 'utf8'))));
  for (const [file, f] of Object.entries(report.files)) {
    const live = f.mutants
      .filter((m) => m.status === 'Survived' || m.status === 'NoCoverage')
      .sort(
        (a, b) =>
          a.location.start.line - b.location.start.line ||
          a.location.start.column - b.location.start.column ||
          a.mutatorName.localeCompare(b.mutatorName),
      );
    sections.set(
      file,
      live.map((m) => {
        const text = describeMutant(m, f.source);
        const was = known.get(keyOf(file, text)) ?? moved.get(keyOf(file, unplaced(text)))?.shift();
        return was ? { ...was, text } : { text, verdict: 'not reviewed', reason: '' };
      }),
    );
  }
  const sorted = new Map([...sections].filter(([, e]) => e.length).sort(([a], [b]) => a.localeCompare(b)));
  writeFileSync(SURVIVORS_FILE, render(sorted, trailer));
  const n = [...sorted.values()].reduce((a, e) => a + e.length, 0);
  process.stdout.write(`${n} surviving mutants listed in ${SURVIVORS_FILE}\n`);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main(process.argv.slice(2));
