import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { APIS } from '../../apis';
import { CONFIG_EXAMPLE, RUN_HELP } from '../../cli/run';
import { onlyMistake } from '../../core/only-check';
import { runConformance } from '../../core/conformance';
import type { RunOptions } from '../../core/check';
import { closest, configSchema, loadConfigFile, recordedConfig, resolveSettings, RUN_OPTIONS, type OptionDef } from '../../core/settings';
import { stacksApi } from '../../stacks/index';

const decls = APIS.map((a) => ({ id: a.id, options: a.options }));
const example = fileURLToPath(new URL('../../../fixtures/config.example.yaml', import.meta.url));
const settingsOf = (table: Record<string, { kind: string }>) => Object.values(table).filter((d): d is OptionDef => d.kind === 'setting');

describe('one option table drives flags, help, config file and settings', () => {
  it('every flag, variable and config key of the run and of each API is in --help', () => {
    for (const d of Object.values(RUN_OPTIONS)) {
      if (d.flag) expect(RUN_HELP).toContain(`--${d.flag}`);
      if (d.kind === 'setting' && d.env) expect(RUN_HELP).toContain(d.env);
      if (d.kind === 'setting' && d.key) expect(RUN_HELP).toContain(d.key);
    }
    for (const a of APIS)
      for (const d of settingsOf(a.options)) expect(RUN_HELP).toContain(`${d.env}`), expect(RUN_HELP).toContain(`targets.${a.id}.${d.key}`);
  });

  it('README documents every environment variable the tables declare', () => {
    const readme = readFileSync(fileURLToPath(new URL('../../../README.md', import.meta.url)), 'utf8');
    const vars = [...settingsOf(RUN_OPTIONS), ...APIS.flatMap((a) => settingsOf(a.options))]
      .map((d) => d.env)
      .filter((e): e is string => !!e && e !== 'CONFORMANCE_RUN_TAG');
    for (const v of vars) expect(readme, v).toContain(`\`${v}\``);
  });

  it('each API declares its own variables; the shared settings know no API by name', () => {
    expect(Object.values(APIS.find((a) => a.id === 'stacks')!.options).map((d) => (d as OptionDef).env)).toEqual([
      'STACKS_BASE_URL',
      'STACKS_API_KEY',
      'STACKS_API_KEY_2',
      'STACKS_API_KEY_FORBIDDEN',
      'STACKS_READY_TIMEOUT_S',
      'STACKS_LIMIT_PROBE_MAX',
    ]);
    expect(Object.values(APIS.find((a) => a.id === 'ops')!.options).map((d) => (d as OptionDef).env)).toEqual([
      'OPS_BASE_URL',
      'OPS_USERNAME',
      'OPS_PASSWORD',
      'OPS_READONLY_USERNAME',
      'OPS_READONLY_PASSWORD',
      'OPS_RESTRICTED_USERNAME',
      'OPS_RESTRICTED_PASSWORD',
      'OPS_TLS_INSECURE',
      'OPS_NS_USER',
      'OPS_NS_APP',
    ]);
    const source = readFileSync(fileURLToPath(new URL('../../core/settings.ts', import.meta.url)), 'utf8');
    expect(source).not.toMatch(/STACKS_|OPS_/);
    const schema = configSchema(decls) as { properties: { targets: { properties: Record<string, unknown> } } };
    expect(Object.keys(schema.properties.targets.properties)).toEqual(['stacks', 'ops']);
  });

  it('fixtures/config.example.yaml is valid against the schema and resolves', () => {
    const file = loadConfigFile(example, decls);
    const { settings, origins } = resolveSettings(
      { file, env: { STACKS_API_KEY: 'k', OPS_PASSWORD: 'p', OPS_READONLY_PASSWORD: 'q' } },
      decls,
    );
    expect(settings.rateLimit).toBe(20);
    expect(settings.apiOptions?.stacks.readyTimeoutS).toBe(3600);
    expect(settings.apiOptions?.ops.username).toBe('conformance');
    expect(origins['stacks.apiKey']).toBe('STACKS_API_KEY');
    expect(origins.rateLimit).toBe(`config key 'rateLimit' (${example})`);
  });

  // The example's commented-out keys are what a user uncomments first: each must work as it stands.
  it("the example's commented-out only and shard select checks once uncommented", () => {
    const text = readFileSync(example, 'utf8');
    const uncommented = text.replace(/^# (only|shard|replayPath): /gm, '$1: ');
    expect(uncommented).not.toBe(text);
    const doc = parse(uncommented) as Record<string, unknown>;
    const { settings, origins } = resolveSettings(
      { file: { file: example, doc }, env: { STACKS_API_KEY: 'k', OPS_PASSWORD: 'p', OPS_READONLY_PASSWORD: 'q' } },
      decls,
    );
    expect(settings.only).toEqual(['stacks.auth.*', 'OPS-CORE-*']);
    expect(onlyMistake(settings.only, APIS, APIS, origins.only)).toBeUndefined();
    expect(settings.shard).toEqual({ index: 1, count: 3 });
  });

  it('run --help names the example config where this copy of the tool has it', () => {
    expect(RUN_HELP).toContain(`e.g. ${CONFIG_EXAMPLE};`);
    expect(existsSync(CONFIG_EXAMPLE)).toBe(true);
  });

  it('flags win over the file, the file over the environment; each value remembers where it came from', () => {
    const file = { file: 'run.yaml', doc: { seed: 5, runs: 4, targets: { stacks: { limitProbeMax: 30 } } } };
    const env = {
      CONFORMANCE_SEED: '9',
      CONFORMANCE_RUNS: '3',
      CONFORMANCE_RETRIES: '1',
      STACKS_LIMIT_PROBE_MAX: '20',
      STACKS_READY_TIMEOUT_S: '7',
    };
    const { settings, origins } = resolveSettings({ flags: { seed: '11' }, file, env }, decls);
    expect([settings.seed, settings.runs, settings.retries]).toEqual([11, 4, 1]);
    expect([origins.seed, origins.runs, origins.retries]).toEqual(['--seed', "config key 'runs' (run.yaml)", 'CONFORMANCE_RETRIES']);
    expect(settings.apiOptions?.stacks).toMatchObject({ limitProbeMax: 30, readyTimeoutS: 7 });
    expect(settings.timeoutMs).toBe(10_000);
  });

  it('--target sets the base URL of the one API chosen, and the remote defaults follow', () => {
    const { settings, origins } = resolveSettings(
      { flags: { api: 'stacks', target: 'http://127.0.0.1:4600' }, env: { STACKS_API_KEY: 'k' } },
      decls,
    );
    expect(settings.apiOptions?.stacks).toMatchObject({ baseUrl: 'http://127.0.0.1:4600', readyTimeoutS: 60 });
    expect(origins['stacks.baseUrl']).toBe('--target');
    expect(stacksApi.targetFrom(settings.apiOptions!.stacks, origins)?.baseUrl).toBe('http://127.0.0.1:4600');
  });

  it('the replay path and the limit probe go through the table: into the options the checks read and into run.config', async () => {
    const { settings } = resolveSettings(
      {
        flags: { api: 'stacks', 'replay-path': '0:1', only: 'stacks.auth.missing-key-401' },
        file: { file: 'x.yaml', doc: { targets: { stacks: { limitProbeMax: 5 } } } },
        env: { STACKS_API_KEY: 'secret-key' },
      },
      decls,
    );
    const recorded = recordedConfig(settings, decls);
    expect(recorded).toMatchObject({ replayPath: '0:1', targets: { stacks: { limitProbeMax: 5, readyTimeoutS: 10 } } });
    expect(JSON.stringify(recorded)).not.toContain('secret-key');
    // A check standing in for the one the run selects keeps what it was handed.
    const seen: RunOptions[] = [];
    const check = stacksApi.checks.find((c) => c.id === 'stacks.auth.missing-key-401')!;
    const spy = { ...check, run: async (ctx: { options: RunOptions }) => void seen.push(ctx.options) };
    const { report } = await runConformance({
      settings: { ...settings, formats: [] },
      apis: [{ ...stacksApi, checks: [spy] }],
      tool: { name: 'test', version: '0' },
      write: false,
    });
    expect(seen[0]).toMatchObject({ replayPath: '0:1', apiOptions: { limitProbeMax: 5 } });
    expect(JSON.stringify(seen[0])).not.toContain('secret-key');
    expect(report.run.config).toMatchObject({
      apis: ['stacks'],
      only: ['stacks.auth.missing-key-401'],
      targets: { stacks: { limitProbeMax: 5 } },
    });
  }, 30_000);

  it('closest names: typos, prefixes, and nothing when nothing is near', () => {
    expect(closest('fromat', ['format', 'har', 'seed'])).toEqual(['format']);
    expect(closest('timeout', ['timeoutS', 'retries'])).toEqual(['timeoutS']);
    expect(closest('STK-CREAT-*', ['STK-CREATE-*', 'STK-AUTH-*'])).toEqual(['STK-CREATE-*']);
    expect(closest('bogus', ['format', 'seed', 'api'])).toEqual([]);
  });
});
