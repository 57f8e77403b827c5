import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { findChromium } from '../browser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadStacksConfig } from '../../../reference-impl/stacks/config';
import { renderHtml } from '../../core/report/html';
import { anchors } from '../../core/report/html-text';
import { countOf, type ComplianceReport, type Counts } from '../../core/report/model';
import { stacksApi } from '../../stacks/index';
import { embeddedStacksTarget } from '../../stacks/target';
import { runAgainst } from '../harness';
import { stacksFaults } from '../stacks/faults';

const STATUSES = ['passed', 'failed', 'untested', 'skipped'] as const;

/** Several faults at once, so that several MUST requirements fail (and others go untested). */
const FAULTS = ['create-answers-201', 'auth-missing-key-accepted', 'malformed-body-500'];

function write(report: ComplianceReport): string {
  const file = join(mkdtempSync(join(tmpdir(), 'conformance-html-')), 'compliance.html');
  writeFileSync(file, renderHtml(report));
  return pathToFileURL(file).href;
}

describe('the HTML report in a real browser', () => {
  let browser: Browser;
  let report: ComplianceReport;
  let url: string;
  const errors: string[] = [];

  async function open(href: string, width = 1280): Promise<Page> {
    const page = await browser.newPage({ viewport: { width, height: 1000 } });
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('request', (r) => !r.url().startsWith('file:') && errors.push(`network request: ${r.url()}`));
    await page.goto(href);
    return page;
  }

  beforeAll(async () => {
    const executablePath = findChromium();
    const config = loadStacksConfig();
    const faults = FAULTS.map((id) => stacksFaults.find((f) => f.id === id)!);
    report = await runAgainst(stacksApi, await embeddedStacksTarget((h) => faults.reduce((inner, f) => f.wrap(inner, config), h)), {
      runs: 3,
    });
    url = write(report);
    browser = await chromium.launch({
      executablePath,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--no-first-run',
      ],
    });
  }, 900_000);

  afterAll(async () => {
    await browser?.close();
    expect(errors).toEqual([]);
  });

  it('loads without console errors and its filters narrow the table', async () => {
    const page = await open(url);
    const all = await page.locator('#reqs tr.req:visible').count();
    expect(all).toBe(report.requirements.length);

    await page.selectOption('#f-status', 'failed');
    const failed = report.requirements.filter((q) => q.status === 'failed');
    expect(failed.length).toBeGreaterThan(0);
    expect(await page.locator('#reqs tr.req:visible').count()).toBe(failed.length);
    expect(await page.locator('#shown').textContent()).toBe(`${failed.length} of ${all} requirements`);
    // A failure shows its evidence: the curl reproducer is on the page.
    expect(await page.locator('#reqs tr.detail:visible pre').first().textContent()).toContain('curl');

    await page.selectOption('#f-status', '');
    await page.fill('#f-text', 'STK-AUTH-401');
    expect(await page.locator('#reqs tr.req:visible').count()).toBe(1);
    await page.close();
  });

  it('lists the failed MUST requirements first, each linked to its evidence', async () => {
    const failedMust = report.requirements.filter((q) => q.level === 'MUST' && q.status === 'failed');
    expect(failedMust.length).toBeGreaterThanOrEqual(3);
    const page = await open(url);
    // The failure block is the first thing in the page body after the header, before the bars and the table.
    expect(await page.evaluate(() => document.querySelector('main')!.firstElementChild!.id)).toBe('failed-must');
    const links = page.locator('#failed-must > ol > li.fm a.fm-link');
    expect(await links.allTextContents()).toEqual(failedMust.map((q) => q.id));
    expect(await links.evaluateAll((as) => as.map((a) => a.getAttribute('href')))).toEqual(
      failedMust.map((q) => `#${anchors(q).evidence}`),
    );

    for (const [i, q] of failedMust.entries()) {
      // Even with the table filtered to something else and the entry collapsed, the link lands on the evidence.
      await page.selectOption('#f-status', 'passed');
      await page
        .locator(`#${anchors(q).row} details`)
        .first()
        .evaluate((d: HTMLDetailsElement) => (d.open = false));
      await links.nth(i).click();
      expect(await page.evaluate(() => location.hash)).toBe(`#${anchors(q).evidence}`);
      const target = page.locator(`#${anchors(q).evidence}`);
      expect(await target.isVisible()).toBe(true);
      expect(await target.evaluate((e) => e.closest('tbody')!.querySelector('tr.req code')!.textContent)).toBe(q.id);
      const box = (await target.boundingBox())!;
      expect(box.y).toBeGreaterThanOrEqual(0);
      expect(box.y).toBeLessThan(1000);
      // curl reproducer, request and response of the first failure are shown.
      expect(await target.locator('pre.curl').first().textContent()).toMatch(/^curl /);
      const first = target.locator('.ev-fail').first();
      expect(await first.locator('details.rr > pre').first().isVisible()).toBe(true);
      expect(await first.locator('summary').allTextContents()).toEqual(expect.arrayContaining(['request', 'response']));
    }
    await page.close();
  });

  it('draws per-API and per-group bars whose counts match the report', async () => {
    const page = await open(url);
    const expectRow = async (selector: string, c: Counts) => {
      const row = page.locator(selector);
      expect(await row.count(), selector).toBe(1);
      expect(await row.getAttribute('data-total')).toBe(String(c.total));
      for (const s of STATUSES) {
        expect(await row.getAttribute(`data-${s}`), `${selector} ${s}`).toBe(String(c[s]));
        expect((await row.locator(`.bar-counts .n-${s}`).textContent())?.trim()).toBe(`${c[s]} ${s}`);
      }
      // The drawn segments are proportional to the counts.
      const widths = await row
        .locator('svg.bar rect')
        .evaluateAll((rs) => rs.map((r) => [r.getAttribute('data-status'), Number(r.getAttribute('width'))] as const));
      for (const s of STATUSES) {
        const w = widths.find(([st]) => st === s)?.[1] ?? 0;
        expect(w, `${selector} ${s} width`).toBeCloseTo((c[s] / c.total) * 1000, 1);
      }
    };
    for (const a of report.apis) {
      expect(countOf(report.requirements.filter((q) => q.api === a.api))).toEqual(a.summary);
      await expectRow(`#bars .bar-row.bar-api[data-api="${a.api}"]`, a.summary);
      const groups = [...new Set(report.requirements.filter((q) => q.api === a.api).map((q) => q.group))];
      expect(await page.locator(`#bars .bar-row.bar-group[data-api="${a.api}"]`).count()).toBe(groups.length);
      for (const g of groups)
        await expectRow(
          `#bars .bar-row.bar-group[data-api="${a.api}"][data-group="${g}"]`,
          countOf(report.requirements.filter((q) => q.api === a.api && q.group === g)),
        );
    }
    expect(await page.locator('#bars svg.bar').first().isVisible()).toBe(true);

    // A group's label filters the table to that group.
    const group = report.requirements[0].group;
    await page.locator(`#bars .bar-row.bar-group[data-group="${group}"] a`).first().click();
    expect(await page.locator('#reqs tr.req:visible').count()).toBe(report.requirements.filter((q) => q.group === group).length);
    await page.close();
  });

  it('reads at 800 px without scrolling the page sideways, all sections open', async () => {
    const page = await open(url, 800);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(800);
    await page.evaluate(() =>
      document.querySelectorAll('details').forEach((d) => {
        d.open = true;
      }),
    );
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(800);
    // Long curl lines stay inside their box.
    const overflow = await page.locator('pre.curl').evaluateAll((ps) => ps.filter((p) => p.getBoundingClientRect().right > 800).length);
    expect(overflow).toBe(0);
    await page.close();
  });

  it('prints everything and nothing interactive, and page.pdf() makes a PDF', async () => {
    const page = await open(url, 800);
    await page.selectOption('#f-status', 'failed'); // a filter on screen does not shorten the printout
    await page.emulateMedia({ media: 'print' });
    expect(await page.locator('.filters').isVisible()).toBe(false);
    expect(await page.locator('#reqs tr.req:visible').count()).toBe(report.requirements.length);
    // Collapsed entries print expanded: the clause of a passed requirement and the response of every failure.
    const passed = report.requirements.find((q) => q.status === 'passed')!;
    expect(await page.locator(`#${anchors(passed).row} blockquote`).isVisible()).toBe(true);
    const responses = page.locator('#reqs .ev-fail details.rr > pre');
    expect(await responses.count()).toBeGreaterThan(0);
    for (const pre of await responses.all()) expect(await pre.isVisible()).toBe(true);
    expect(await page.evaluate(() => getComputedStyle(document.documentElement).getPropertyValue('print-color-adjust'))).toBe('exact');
    expect(await page.evaluate(() => getComputedStyle(document.querySelector('#reqs tbody.req-item')!).breakInside)).toBe('avoid');

    const pdf = await page.pdf({ format: 'A4', printBackground: false });
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    const pages = pdf.toString('latin1').match(/\/Type\s*\/Page(?![a-z])/g) ?? [];
    expect(pages.length).toBeGreaterThanOrEqual(1);
    await page.close();
  });

  it('says so at the top when no MUST requirement failed', async () => {
    const passing: ComplianceReport = structuredClone(report);
    for (const q of passing.requirements.filter((q) => q.status === 'failed'))
      Object.assign(q, { status: 'passed', failed: 0, evidence: [] });
    passing.summary = { ...passing.summary, ...countOf(passing.requirements), gate: 'pass' };
    passing.summary.byLevel.MUST = countOf(passing.requirements.filter((q) => q.level === 'MUST'));
    for (const a of passing.apis) a.summary = countOf(passing.requirements.filter((q) => q.api === a.api));
    const page = await open(write(passing), 800);
    expect(await page.locator('#failed-must.none h2').textContent()).toBe('No MUST requirement failed');
    expect(await page.locator('#failed-must a').count()).toBe(0);
    expect(await page.locator('#bars .bar-row.bar-api').getAttribute('data-failed')).toBe('0');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(800);
    await page.close();
  });
});
