import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { UsageError } from '../core/api';
import { compareReports } from '../core/report/compare';
import { renderHtml } from '../core/report/html';
import { renderJunit } from '../core/report/junit';
import { renderMarkdown } from '../core/report/markdown';
import { mergeReports } from '../core/report/merge';
import type { ComplianceReport } from '../core/report/model';
import { TOOL } from './tool';

export const REPORT_HELP = `usage: ${TOOL.name} report [FILE.json ...] [--compare OLD.json] [--merge] [--report-dir DIR] [--format LIST]

Re-renders compliance.md, compliance.html and junit.xml from a compliance.json (default reports/compliance.json).
  --merge            merge the given compliance.json files (the shards of one run) into one report
  --compare OLD.json print what changed between OLD.json and the (merged) report; exit 1 if a requirement newly fails
  --report-dir DIR   where the re-rendered files go (default: the directory of the first file)
  --format LIST      json,md,html,junit (default md,html,junit; json is written only with --merge)`;

function load(file: string): ComplianceReport {
  try {
    const r = JSON.parse(readFileSync(file, 'utf8'));
    if (!Array.isArray(r?.requirements) || !r?.summary) throw new Error('not a compliance.json');
    return r as ComplianceReport;
  } catch (e) {
    throw new UsageError(`cannot read ${file}: ${(e as Error).message}`);
  }
}

export function report(argv: string[]): number {
  const { values, positionals } = parseArgs({ args: argv, strict: true, allowPositionals: true, options: { help: { type: 'boolean', short: 'h' }, compare: { type: 'string' }, merge: { type: 'boolean' }, 'report-dir': { type: 'string' }, format: { type: 'string' } } });
  if (values.help) {
    console.log(REPORT_HELP);
    return 0;
  }
  const files = positionals.length ? positionals : ['reports/compliance.json'];
  if (files.length > 1 && !values.merge) throw new UsageError('several reports given: add --merge to merge them');
  const reports = files.map(load);
  const current = values.merge ? mergeReports(reports) : reports[0];
  const dir = values['report-dir'] ?? (values.merge ? 'reports' : files[0].replace(/[^/]*$/, '') || '.');
  const formats = (values.format ?? (values.merge ? 'json,md,html,junit' : 'md,html,junit')).split(',');
  mkdirSync(dir, { recursive: true });
  const out: [string, string][] = [];
  if (formats.includes('json')) out.push(['compliance.json', JSON.stringify(current, null, 2)]);
  if (formats.includes('md')) out.push(['compliance.md', renderMarkdown(current)]);
  if (formats.includes('html')) out.push(['compliance.html', renderHtml(current)]);
  if (formats.includes('junit')) out.push(['junit.xml', renderJunit(current)]);
  for (const [name, text] of out) writeFileSync(join(dir, name), text);
  console.log(`${values.merge ? `merged ${files.length} reports; ` : ''}verdict ${current.summary.gate.toUpperCase()}: ${current.summary.passed} passed, ${current.summary.failed} failed, ${current.summary.untested} untested, ${current.summary.skipped} skipped; wrote ${out.map(([n]) => join(dir, n)).join(', ')}`);
  if (values.compare) {
    const diff = compareReports(load(values.compare), current);
    process.stdout.write(diff.text);
    if (diff.changes.some((c) => c.to === 'failed')) return 1;
  }
  return 0;
}
