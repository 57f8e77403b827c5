import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadOpsConfig } from '../../../reference-impl/ops/config';
import { loadStacksConfig } from '../../../reference-impl/stacks/config';
import { runConformance } from '../../core/conformance';
import { createMasker } from '../../core/mask';
import { opsApi } from '../../ops/index';
import { embeddedOpsTarget } from '../../ops/target';
import { summaryText } from '../../cli/summary';
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
      settings: { ...selftestSettings('stacks', { apis: ['stacks', 'ops'], formats: ['json', 'md', 'html', 'junit'], har: true, reportDir: dir, runs: 3 }), only: ['stacks.auth.*', 'stacks.create.*', 'ops.core.*', 'ops.auth.*'] },
      apis: [stacksApi, opsApi],
      targets: { stacks: await embeddedStacksTarget((h) => fault.wrap(h, stacks)), ops: await embeddedOpsTarget() },
      tool: { name: 'api-conformance', version: 'test' },
    });
    expect(result.report.summary.failed).toBeGreaterThan(0);
    const files = readdirSync(dir);
    expect(files.sort()).toEqual(['compliance.html', 'compliance.json', 'compliance.md', 'junit.xml', 'traffic.har']);
    const texts = files.map((f) => [f, readFileSync(join(dir, f), 'utf8')] as const);
    texts.push(['summary', createMasker(result.runs.flatMap((r) => r.secrets))(summaryText(result.report, []))]);
    for (const [name, text] of texts) for (const s of secrets) expect(text.includes(s), `${name} contains a credential`).toBe(false);
    // The reproducers still carry the credential, as an environment variable reference.
    expect(readFileSync(join(dir, 'compliance.md'), 'utf8')).toContain('$STACKS_API_KEY');
  });
});
