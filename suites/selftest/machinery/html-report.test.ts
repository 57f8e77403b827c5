import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { loadStacksConfig } from '../../../reference-impl/stacks/config';
import { renderHtml } from '../../core/report/html';
import { stacksApi } from '../../stacks/index';
import { embeddedStacksTarget } from '../../stacks/target';
import { runAgainst } from '../harness';
import { stacksFaults } from '../stacks/faults';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

describe('the HTML report in a real browser', () => {
  it('loads without console errors and its filters narrow the table', async () => {
    expect(existsSync(CHROMIUM), `${CHROMIUM} is needed (Debian package chromium; .ci/run installs it)`).toBe(true);
    const fault = stacksFaults.find((f) => f.id === 'create-answers-201')!;
    const report = await runAgainst(stacksApi, await embeddedStacksTarget((h) => fault.wrap(h, loadStacksConfig())), { runs: 3 });
    const file = join(mkdtempSync(join(tmpdir(), 'conformance-html-')), 'compliance.html');
    writeFileSync(file, renderHtml(report));

    const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'] });
    try {
      const page = await browser.newPage();
      const errors: string[] = [];
      page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
      page.on('pageerror', (e) => errors.push(e.message));
      await page.goto(pathToFileURL(file).href);
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
      expect(errors).toEqual([]);
    } finally {
      await browser.close();
    }
  }, 60_000);
});
