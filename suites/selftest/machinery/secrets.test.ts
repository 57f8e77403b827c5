import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadOpsConfig } from '../../../reference-impl/ops/config';
import { loadStacksConfig } from '../../../reference-impl/stacks/config';
import { runConformance } from '../../core/conformance';
import { opsApi } from '../../ops/index';
import { embeddedOpsTarget } from '../../ops/target';
import { stacksApi } from '../../stacks/index';
import { embeddedStacksTarget } from '../../stacks/target';
import { selftestSettings } from '../harness';
import { stacksFaults } from '../stacks/faults';

describe('no credential appears in any output of a run', () => {
  it('keeps keys and passwords out of every report, the HAR file and the summary, also when checks fail', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'conformance-secrets-'));
    const stacks = loadStacksConfig();
    const ops = loadOpsConfig();
    const secrets = [
      ...stacks.users.map((u) => u.apiKey),
      ...ops.users.map((u) => u.password),
      ...ops.users.map((u) => Buffer.from(`${u.name}:${u.password}`).toString('base64')),
    ];
    // A broken server, so that failures with curl reproducers and request excerpts are in the reports.
    const fault = stacksFaults.find((f) => f.id === 'error-body-not-service-error')!;
    const result = await runConformance({
      settings: {
        ...selftestSettings('stacks', {
          apis: ['stacks', 'ops'],
          formats: ['json', 'md', 'html', 'junit'],
          har: true,
          reportDir: dir,
          runs: 3,
        }),
        only: ['stacks.auth.*', 'stacks.create.*', 'ops.core.*', 'ops.auth.*'],
      },
      apis: [stacksApi, opsApi],
      targets: { stacks: await embeddedStacksTarget((h) => fault.wrap(h, stacks)), ops: await embeddedOpsTarget() },
      tool: { name: 'api-conformance', version: 'test' },
    });
    expect(result.report.summary.failed).toBeGreaterThan(0);
    const files = readdirSync(dir);
    expect(files.sort()).toEqual(['compliance.html', 'compliance.json', 'compliance.md', 'junit.xml', 'traffic.har']);
    const texts = files.map((f) => [f, readFileSync(join(dir, f), 'utf8')] as const);
    for (const [name, text] of texts) for (const s of secrets) expect(text.includes(s), `${name} contains a credential`).toBe(false);
    // The reproducers still carry the credential, as an environment variable reference.
    expect(readFileSync(join(dir, 'compliance.md'), 'utf8')).toContain('$STACKS_API_KEY');
  });

  it('keeps them out of what the command line prints and writes, watched from outside', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'conformance-secrets-cli-'));
    const stacks = loadStacksConfig();
    const fault = stacksFaults.find((f) => f.id === 'error-body-not-service-error')!;
    const target = await embeddedStacksTarget((h) => fault.wrap(h, stacks));
    const key = (name: string) => stacks.users.find((u) => u.name === name)!.apiKey;
    try {
      const env = {
        ...process.env,
        STACKS_BASE_URL: target.baseUrl,
        STACKS_API_KEY: key('alice'),
        STACKS_API_KEY_2: key('bob'),
        STACKS_API_KEY_FORBIDDEN: key('mallory'),
        NO_COLOR: '1',
      };
      const args = [
        '--import',
        'tsx',
        'suites/cli.ts',
        'run',
        '--api',
        'stacks',
        '--only',
        'stacks.auth.*,stacks.create.*',
        '--runs',
        '2',
        '--har',
        '--report-dir',
        dir,
      ];
      const out = await new Promise<{ code: number | null; text: string }>((resolve) => {
        const child = spawn(process.execPath, args, { env, cwd: new URL('../../../', import.meta.url) });
        let text = '';
        child.stdout.on('data', (c) => (text += c));
        child.stderr.on('data', (c) => (text += c));
        child.on('close', (code) => resolve({ code, text }));
      });
      expect(out.code, out.text).toBe(1);
      const written = readdirSync(dir).map((f) => [f, readFileSync(join(dir, f), 'utf8')] as const);
      for (const [name, text] of [['stdout and stderr', out.text] as const, ...written])
        for (const u of stacks.users) expect(text.includes(u.apiKey), `${name} contains ${u.name}'s key`).toBe(false);
      expect(out.text).toMatch(/FAIL STK-/);
    } finally {
      await target.close?.();
    }
  }, 120_000);
});
