import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { APIS } from '../../apis';
import { configSchema } from '../../core/settings';
import { runConformance, UsageError } from '../../index';
import type { ConformanceOptions, OpsTargetOptions, StacksTargetOptions } from '../../options';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});
const temp = () => {
  const d = mkdtempSync(join(tmpdir(), 'cf-api-'));
  dirs.push(d);
  return d;
};

// Every key of the hand-written option types, checked by the compiler in both directions (a missing or an extra key
// does not type-check); the test compares them with the config file's schema, which the option table generates.
const RUN_KEYS: Record<keyof ConformanceOptions, true> = {
  apis: true,
  only: true,
  seed: true,
  replayPath: true,
  runs: true,
  allowDestructive: true,
  label: true,
  summaryOnly: true,
  requireAll: true,
  timeoutS: true,
  retries: true,
  settleS: true,
  concurrency: true,
  rateLimit: true,
  maxWrites: true,
  shard: true,
  viaPrismProxy: true,
  reportDir: true,
  overwrite: true,
  formats: true,
  har: true,
  targets: true,
};
const STACKS_KEYS: Record<keyof StacksTargetOptions, true> = {
  baseUrl: true,
  apiKey: true,
  apiKey2: true,
  apiKeyForbidden: true,
  readyTimeoutS: true,
  limitProbeMax: true,
};
const OPS_KEYS: Record<keyof OpsTargetOptions, true> = {
  baseUrl: true,
  username: true,
  password: true,
  readonlyUsername: true,
  readonlyPassword: true,
  restrictedUsername: true,
  restrictedPassword: true,
  tlsInsecure: true,
  nsUser: true,
  nsApp: true,
};

type Schema = { properties: Record<string, Schema> };
const keys = (o: object) => Object.keys(o).sort();

describe('the programmatic API (runConformance)', () => {
  it('types exactly the keys of the config file', () => {
    const schema = configSchema(APIS) as Schema;
    expect(keys(RUN_KEYS)).toEqual(keys(schema.properties));
    expect(keys(STACKS_KEYS)).toEqual(keys(schema.properties.targets.properties.stacks.properties));
    expect(keys(OPS_KEYS)).toEqual(keys(schema.properties.targets.properties.ops.properties));
    expect(keys(schema.properties.targets.properties)).toEqual(['ops', 'stacks']);
  });

  it('runs the selected checks and resolves to the report it wrote', async () => {
    const reportDir = temp();
    const report = await runConformance(
      { apis: ['stacks'], only: 'stacks.auth.*', seed: 11, formats: ['json'], reportDir, overwrite: true },
      { env: {} },
    );
    expect(report.summary.gate).toBe('pass');
    expect(report.run.seed).toBe(11);
    expect(report.apis.map((a) => a.api)).toEqual(['stacks']);
    expect(report.requirements.find((r) => r.id === 'STK-AUTH-401')?.status).toBe('passed');
    expect(JSON.parse(readFileSync(join(reportDir, 'compliance.json'), 'utf8'))).toEqual(JSON.parse(JSON.stringify(report)));
  });

  it('refuses what the command line refuses, with its one-line message', async () => {
    const refused = (o: unknown) =>
      runConformance(o as ConformanceOptions, { env: {} }).then(
        () => undefined,
        (e: Error) => e,
      );
    const unknownKey = await refused({ sed: 3 });
    expect(unknownKey).toBeInstanceOf(UsageError);
    expect(unknownKey?.message).toMatch(/^runConformance options: unknown key 'sed' \(did you mean 'seed'\?\)/);
    expect((await refused({ targets: { stacks: { apikey: 'k' } } }))?.message).toMatch(
      /unknown key 'targets\.stacks\.apikey' \(did you mean 'targets\.stacks\.apiKey'\?\)/,
    );
    expect((await refused({ apis: ['stack'] }))?.message).toMatch(
      /unknown API 'stack' in config key 'apis' \(runConformance options\) \(did you mean stacks\?/,
    );
    expect((await refused({ targets: { stacks: { baseUrl: 'http://127.0.0.1:1' } } }))?.message).toMatch(/STACKS_API_KEY/);
    expect((await refused({ only: ['STK-NO-SUCH-RULE'] }))?.message).toMatch(/'STK-NO-SUCH-RULE' matches no check or requirement/);
    // A report folder that holds another run's reports is not written over unless asked.
    const reportDir = temp();
    writeFileSync(join(reportDir, 'compliance.json'), JSON.stringify({ run: { startedAt: 'earlier' }, summary: { gate: 'pass' } }));
    expect((await refused({ apis: 'stacks', reportDir }))?.message).toMatch(/already holds the reports of a run started earlier/);
  });

  it('gives its options precedence over CONFORMANCE_CONFIG, which wins over the environment', async () => {
    const dir = temp();
    const config = join(dir, 'run.yaml');
    writeFileSync(config, 'apis: [stacks]\nseed: 5\nruns: 2\nformats: [json]\n');
    const report = await runConformance(
      { seed: 9, only: ['stacks.auth.missing-key-401'], reportDir: join(dir, 'r') },
      { env: { CONFORMANCE_CONFIG: config, CONFORMANCE_RUNS: '7' } },
    );
    expect(report.run).toMatchObject({ seed: 9, runs: 2 });
    expect(report.apis.map((a) => a.api)).toEqual(['stacks']);
  });
});
