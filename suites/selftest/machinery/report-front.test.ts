import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadOpsConfig } from '../../../reference-impl/ops/config';
import { loadStacksConfig } from '../../../reference-impl/stacks/config';
import { renderHtml } from '../../core/report/html';
import { renderMarkdown } from '../../core/report/markdown';
import type { ComplianceReport } from '../../core/report/model';
import { opsApi } from '../../ops/index';
import { embeddedOpsTarget } from '../../ops/target';
import { findChromium } from '../browser';
import { runAgainst } from '../harness';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const sha = (file: string) =>
  createHash('sha256')
    .update(readFileSync(join(ROOT, file)))
    .digest('hex');
const gitHead = () => {
  try {
    return execFileSync('git', ['rev-parse', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).trim();
  } catch {
    return 'unknown';
  }
};

/** A failing run: the ops reference with a deployment's users, so that names appear and passwords must not. */
let report: ComplianceReport;
beforeAll(async () => {
  const live = await embeddedOpsTarget();
  try {
    report = await runAgainst(
      opsApi,
      { ...live, embedded: false, close: undefined },
      { only: ['ops.core.*', 'ops.auth.*'], label: 'ops service 9.1.2, staging' },
    );
  } finally {
    await live.close?.();
  }
  // Many failed MUST requirements: the summary page must still print on two pages.
  for (const q of report.requirements.filter((x) => x.level === 'MUST').slice(0, 40)) {
    Object.assign(q, {
      status: 'failed',
      failed: 2,
      evidence: [
        {
          requirement: q.id,
          check: 'c',
          outcome: 'fail',
          message: `${q.id}: expected 200, got 500 Internal Server Error`,
          expected: '200',
          actual: '500',
        },
      ],
    });
  }
  report.summary.byLevel.MUST.failed = 40;
  report.summary.gate = 'fail';
}, 120_000);

const SECRETS = () => loadOpsConfig().users.flatMap((u) => [u.password, Buffer.from(`${u.name}:${u.password}`).toString('base64')]);

describe("the report's first page says what was checked, against what, and the verdict", () => {
  it('HTML: verdict, label, date, targets, users by role, documents with full sha256, suite commit, counts, failed MUSTs; then the contents', () => {
    const html = renderHtml(report);
    const header = html.slice(html.indexOf('<header id="summary">'), html.indexOf('</header>'));
    expect(header).toContain('Conformance report: <span class="fail">FAIL</span>');
    expect(header).toContain('<div class="label">ops service 9.1.2, staging</div>');
    expect(header).toContain(`<dt>date</dt><dd>${report.run.startedAt}`);
    expect(header).toContain(`<dt>ops target</dt><dd>${report.apis[0].target.baseUrl}`);
    expect(header).toMatch(/primary: <b>admin<\/b> <span class="muted">\(OPS_USERNAME\/OPS_PASSWORD\)<\/span>, readonly: <b>analyst<\/b>/);
    for (const f of ['specs/documents/001_7be9d46c9e81355f.txt', 'specs/ops.openapi.yaml', 'specs/requirements/ops.yaml'])
      expect(header).toContain(`<code>${f}</code><br><span class="sha">sha256 <code>${sha(f)}</code>`);
    expect(header).toContain(`commit <code>${gitHead()}</code>`);
    expect(header).toMatch(/<b class="fail">40<\/b>failed \(MUST\)/);
    for (const s of SECRETS()) expect(html.includes(s)).toBe(false);
    const order = [
      '<header id="summary">',
      'id="failed-must"',
      '<nav id="contents">',
      'id="bars"',
      'id="requirements"',
      'id="observed"',
      'id="checks"',
      'id="run"',
    ].map((m) => html.indexOf(m));
    expect(
      order.every((at, i) => at >= 0 && (i === 0 || at > order[i - 1])),
      String(order),
    ).toBe(true);
  });

  it('markdown: the same first page, then the contents before the sections', () => {
    const md = renderMarkdown(report);
    const lines = md.split('\n');
    // The run is filtered (--only): its title says so.
    expect(lines[0]).toBe('# Conformance: FAIL (partial)');
    expect(md).toContain('**ops service 9.1.2, staging**');
    expect(md).toMatch(/\| ops users \| primary: \*\*admin\*\* \(OPS_USERNAME\/OPS_PASSWORD\)/);
    expect(md).toContain(`specs/ops.openapi.yaml\` sha256 \`${sha('specs/ops.openapi.yaml')}\``);
    expect(md).toContain(`commit \`${gitHead()}\``);
    expect(md.indexOf('**Failed MUST requirements (40)**')).toBeLessThan(md.indexOf('## Contents'));
    expect(md).toContain('- [Failed requirements](#failed-requirements)');
    expect(md.indexOf('## Contents')).toBeLessThan(md.indexOf('## Failed requirements'));
    for (const s of SECRETS()) expect(md.includes(s)).toBe(false);
  });

  it('an unlabelled run says how to label it', () => {
    const bare = { ...report, run: { ...report.run, label: undefined } };
    expect(renderHtml(bare)).toContain('no deployment label given (--label)');
    expect(renderMarkdown(bare)).toContain('_no deployment label given (--label)_');
  });

  it('stacks users have no names, only roles and variables; no key appears', async () => {
    const keys = loadStacksConfig().users.map((u) => u.apiKey);
    const html = renderHtml({ ...report, apis: [{ ...report.apis[0], users: [{ role: 'primary', variable: 'STACKS_API_KEY' }] }] });
    expect(html).toContain('primary <span class="muted">(STACKS_API_KEY)</span>');
    for (const k of keys) expect(html.includes(k)).toBe(false);
  });

  it('--summary-only: the first page alone, at most two printed pages however many MUSTs failed', async () => {
    const html = renderHtml(report, { summaryOnly: true });
    expect(html).toContain('<header id="summary">');
    expect(html).not.toContain('id="reqs"');
    expect(html).toContain('and 28 more, in the full report.');
    const file = join(mkdtempSync(join(tmpdir(), 'conformance-summary-')), 'compliance.html');
    writeFileSync(file, html);
    const browser = await chromium.launch({ executablePath: findChromium(), args: ['--headless', '--no-sandbox', '--disable-gpu'] });
    try {
      const page = await browser.newPage();
      await page.goto(pathToFileURL(file).href);
      for (const format of ['A4', 'Letter'] as const) {
        const pdf = await page.pdf({ format });
        const pages = pdf.toString('latin1').match(/\/Type\s*\/Page(?![a-z])/g) ?? [];
        expect(pages.length, format).toBeGreaterThanOrEqual(1);
        expect(pages.length, format).toBeLessThanOrEqual(2);
      }
    } finally {
      await browser.close();
    }
  }, 120_000);
});
