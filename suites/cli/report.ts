import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { UsageError } from '../core/usage-error';
import { compareReports } from '../core/report/compare';
import { renderHtml } from '../core/report/html';
import { renderJunit } from '../core/report/junit';
import { renderMarkdown } from '../core/report/markdown';
import { mergeReports } from '../core/report/merge';
import type { ComplianceReport } from '../core/report/model';
import { closest } from '../core/settings';
import { parseCommand } from './args';
import { TOOL } from '../core/tool';

export const REPORT_HELP = `usage: ${TOOL.name} report [FILE.json ...] [--merge] [--compare NEW.json] [--report-dir DIR] [--format LIST]

Re-renders compliance.md, compliance.html and junit.xml from a compliance.json (default reports/compliance.json).
  --merge             merge the given compliance.json files (the shards of one run, same --seed) into one report;
                      without every shard 1..N the gate is incomplete and the exit code 2
  --compare NEW.json  compare the given (old) report with NEW.json: lists each requirement whose status changed
                      (NEW FAILURE, FIXED, ...); exit 1 if one newly fails. Writes nothing unless --report-dir is
                      given (then NEW.json is re-rendered there)
  --report-dir DIR    where the re-rendered files go (default: the directory of the first file; 'reports' with --merge)
  --format LIST       json,md,html,junit (default md,html,junit; json too with --merge)
  --summary-only      compliance.html holds only the first page (verdict, deployment, documents, counts, failed
                      MUSTs): a PDF of at most 2 pages

  ${TOOL.name} report OLD.json --compare NEW.json   # e.g. last release's run against today's`;

const OPTIONS = {
  help: { type: 'boolean', short: 'h' },
  compare: { type: 'string' },
  merge: { type: 'boolean' },
  'report-dir': { type: 'string' },
  format: { type: 'string' },
  'summary-only': { type: 'boolean' },
} as const;
const FORMATS = ['json', 'md', 'html', 'junit'];

export function loadReport(file: string): ComplianceReport {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new UsageError(
      `cannot read ${file}: ${code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'is a directory' : (e as Error).message}`,
    );
  }
  try {
    const r = JSON.parse(text);
    if (!Array.isArray(r?.requirements) || !r?.summary || !r?.run) throw new Error('not a compliance.json');
    return r as ComplianceReport;
  } catch (e) {
    throw new UsageError(`cannot read ${file}: ${(e as Error).message.split('\n')[0]}`);
  }
}

function formatsOf(raw: string | undefined, fallback: string): string[] {
  const list = (raw ?? fallback)
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  for (const f of list) {
    if (FORMATS.includes(f)) continue;
    const near = closest(f, FORMATS);
    throw new UsageError(
      `unknown report format '${f}' in --format (${near.length ? `did you mean ${near[0]}? ` : ''}known: ${FORMATS.join(', ')})`,
    );
  }
  return list;
}

function render(r: ComplianceReport, dir: string, formats: string[], summaryOnly = false): string[] {
  mkdirSync(dir, { recursive: true });
  const out: [string, string][] = [];
  if (formats.includes('json')) out.push(['compliance.json', JSON.stringify(r, null, 2)]);
  if (formats.includes('md')) out.push(['compliance.md', renderMarkdown(r)]);
  if (formats.includes('html')) out.push(['compliance.html', renderHtml(r, { summaryOnly })]);
  if (formats.includes('junit')) out.push(['junit.xml', renderJunit(r)]);
  for (const [name, text] of out) writeFileSync(join(dir, name), text);
  return out.map(([n]) => join(dir, n));
}

const verdictLine = (r: ComplianceReport) =>
  `verdict ${r.summary.gate.toUpperCase()}${r.summary.partial ? ` (partial: ${r.summary.partial})` : ''}: ${r.summary.passed} passed, ${r.summary.failed} failed, ${r.summary.untested} untested, ${r.summary.skipped} skipped`;

export function report(argv: string[]): number {
  const { values: v, positionals } = parseCommand('report', OPTIONS, argv, true);
  const values = v as {
    help?: boolean;
    compare?: string;
    merge?: boolean;
    'report-dir'?: string;
    format?: string;
    'summary-only'?: boolean;
  };
  if (values.help) {
    console.log(REPORT_HELP);
    return 0;
  }
  const files = positionals.length ? positionals : ['reports/compliance.json'];
  if (files.length > 1 && !values.merge)
    throw new UsageError(
      `${files.length} reports given: add --merge to merge them${values.compare ? '' : ', or --compare NEW.json to compare one with another'}`,
    );
  const formats = formatsOf(values.format, values.merge ? 'json,md,html,junit' : 'md,html,junit');
  const reports = files.map(loadReport);
  const base = values.merge ? mergeReports(reports, files) : reports[0];

  if (values.compare !== undefined) {
    // OLD (the positional report, merged if asked) against NEW (--compare); the compared runs' files are left alone.
    const newer = loadReport(values.compare);
    const diff = compareReports(base, newer);
    process.stdout.write(
      `comparing ${values.merge ? `${files.length} merged reports` : files[0]} (old, seed ${base.run.seed}, ${base.run.startedAt}) with ${values.compare} (new, seed ${newer.run.seed}, ${newer.run.startedAt})\n${diff.text}`,
    );
    if (values['report-dir'])
      process.stdout.write(
        `${verdictLine(newer)}; wrote ${render(newer, values['report-dir'], formats, values['summary-only']).join(', ')}\n`,
      );
    return diff.changes.some((c) => c.kind === 'NEW FAILURE') ? 1 : 0;
  }

  const dir = values['report-dir'] ?? (values.merge ? 'reports' : files[0].replace(/[^/]*$/, '') || '.');
  if (values.merge && formats.includes('json') && files.some((f) => resolve(f) === resolve(dir, 'compliance.json'))) {
    throw new UsageError(`--merge would overwrite ${join(dir, 'compliance.json')}, one of the merged reports: give --report-dir`);
  }
  const written = render(base, dir, formats, values['summary-only']);
  console.log(`${values.merge ? `merged ${files.length} reports; ` : ''}${verdictLine(base)}; wrote ${written.join(', ')}`);
  // The reports are written either way (a CI job publishes them), but a merge that is not a whole run must not
  // leave a green step behind it.
  if (values.merge && base.summary.incomplete) {
    console.error(`error: ${base.summary.incomplete}`);
    return 2;
  }
  return 0;
}
