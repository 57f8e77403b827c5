import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { APIS } from '../apis';
import { stacksApi } from '../stacks/index';
import type { ApiRun } from '../core/runner';
import { sessionFromCode } from '../options';
import { groupsOf, planRun, selectedChecks, testName, verdictOf, type TaskLike } from './front-end';
import { serveStacksFault } from './serve-fault';
import { emptySelection } from './selection';

/** The session `defineConformanceTests()` opens in this environment. */
const sessionOf = (env: NodeJS.ProcessEnv) => sessionFromCode(undefined, 'defineConformanceTests options', env);

const ROOT = join(import.meta.dirname, '..', '..');
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** `vitest run --project conformance ARGS` in a child process, with only the given conformance variables set. */
function vitestConformance(args: string[], env: Record<string, string>): Promise<{ code: number | null; out: string; reportDir: string }> {
  const reportDir = mkdtempSync(join(tmpdir(), 'cf-vitest-'));
  dirs.push(reportDir);
  // The child must not take this worker's vitest state, nor any deployment or run variable of the caller.
  const clean = Object.fromEntries(
    Object.entries(process.env).filter(([k]) => !/^(VITEST|TEST$|NODE_ENV$|CONFORMANCE_|STACKS_|OPS_)/.test(k)),
  );
  const child = spawn(process.execPath, [join(ROOT, 'node_modules/vitest/vitest.mjs'), 'run', '--project', 'conformance', ...args], {
    cwd: ROOT,
    env: { ...clean, NO_COLOR: '1', CONFORMANCE_REPORT_DIR: reportDir, CONFORMANCE_SEED: '7', ...env },
  });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (out += d));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, out, reportDir })));
}

describe('the conformance project (vitest front-end over the runner)', () => {
  it('has a test per check of every API, at least 100, named by check and requirement ids', () => {
    const session = sessionOf({});
    const names = session.apis.flatMap((a) => groupsOf(a).flatMap(([, checks]) => checks.map(testName)));
    expect(session.apis.map((a) => a.id)).toEqual(APIS.map((a) => a.id));
    expect(names.length).toBe(APIS.reduce((n, a) => n + a.checks.length, 0));
    expect(names.length).toBeGreaterThanOrEqual(100);
    expect(new Set(names).size).toBe(names.length);
    expect(names).toContain('stacks.auth.missing-key-401 [STK-AUTH-401]');
  });

  it('resolves settings like the command line: a config file, the environment, and the same usage errors', () => {
    // The file wins over the environment, as with `api-conformance run --config FILE`; secrets come from the environment.
    const session = sessionOf({
      CONFORMANCE_SEED: '42',
      CONFORMANCE_RETRIES: '0',
      CONFORMANCE_CONFIG: join(ROOT, 'fixtures/config.example.yaml'),
      STACKS_API_KEY: 'k',
      OPS_PASSWORD: 'p',
      OPS_READONLY_PASSWORD: 'r',
    });
    expect(session.apis.map((a) => a.id)).toEqual(['stacks', 'ops']);
    expect(session.settings.seed).toBe(20261122);
    expect(session.settings.retries).toBe(2);
    expect(session.targets.stacks?.baseUrl).toBe('https://stacks.staging.example.test');
    expect(session.targets.ops?.tlsInsecure).toBe(true);
    expect(sessionOf({ CONFORMANCE_APIS: 'stacks', CONFORMANCE_SEED: '42' }).settings).toMatchObject({ apis: ['stacks'], seed: 42 });
    expect(() => sessionOf({ CONFORMANCE_CONFIG: join(ROOT, 'no-such.yaml') })).toThrow(
      /cannot read config file .*no-such.yaml: no such file/,
    );
    expect(() => sessionOf({ CONFORMANCE_APIS: 'stack' })).toThrow(/unknown API 'stack' in CONFORMANCE_APIS \(did you mean stacks\?/);
    expect(() => sessionOf({ CONFORMANCE_ONLY: 'STK-AUTH-4O1' })).toThrow(/CONFORMANCE_ONLY 'STK-AUTH-4O1' matches no check/);
    expect(() => sessionOf({ STACKS_BASE_URL: 'http://127.0.0.1:1' })).toThrow(/STACKS_API_KEY/);
  });

  it('runs only the checks vitest selected, within CONFORMANCE_ONLY', () => {
    const test = (check: string, mode: string): TaskLike => ({ type: 'test', mode, meta: { conformance: { check } } });
    const file: TaskLike = {
      type: 'suite',
      mode: 'run',
      tasks: [
        { type: 'suite', mode: 'run', tasks: [test('stacks.auth.missing-key-401', 'run'), test('stacks.create.accepted-202', 'skip')] },
      ],
    };
    expect(selectedChecks(file)).toEqual(['stacks.auth.missing-key-401']);
    expect(selectedChecks({ type: 'suite', mode: 'run', tasks: [test('a', 'run'), test('b', 'queued')] })).toBeUndefined();
    const session = sessionOf({ CONFORMANCE_ONLY: 'stacks.auth.*' });
    expect(planRun(session, undefined)).toEqual({ apis: session.apis, only: ['stacks.auth.*'] });
    const plan = planRun(session, ['stacks.auth.missing-key-401', 'stacks.create.accepted-202', 'ops.core.create-returns-key']);
    expect(plan.apis.map((a) => a.id)).toEqual(['stacks']);
    expect(plan.only).toEqual(['stacks.auth.missing-key-401']);
  });

  // Vitest skips every test of a -t that matches none and exits 0: the same mistake as an --only that matches nothing.
  it('a -t that selects no conformance test is a usage error, as vitest matches names (within a describe too)', () => {
    const { apis } = sessionOf({ CONFORMANCE_APIS: 'stacks' });
    expect(emptySelection(apis, /NOPE-XYZ/)).toBe(
      "vitest -t 'NOPE-XYZ' selects no conformance test of stacks (see 'api-conformance list')",
    );
    expect(emptySelection(apis, /STK-AUTH-4O1/)).toMatch(
      /^vitest -t 'STK-AUTH-4O1' selects no conformance test of stacks \(closest: STK-AUTH-401/,
    );
    expect(emptySelection(apis, /STK-AUTH/)).toBeUndefined();
    expect(emptySelection(apis, /^stacks auth /)).toBeUndefined();
    expect(emptySelection(apis, /^conformance stacks auth/)).toMatch(/selects no conformance test/);
    expect(emptySelection(apis, /^conformance stacks auth/, 'conformance')).toBeUndefined();
    expect(emptySelection(apis, undefined)).toBeUndefined();
  });

  it('fails a check only on MUST failures, warns on SHOULD failures, skips what it could not judge', () => {
    const check = stacksApi.checks.find((c) => c.id === 'stacks.auth.bearer-key-accepted')!;
    const [must, should] = check.requirements;
    const req = (
      id: string,
      level: 'MUST' | 'SHOULD',
      status: 'passed' | 'failed' | 'untested',
      evidence: ApiRun['requirements'][number]['evidence'] = [],
    ) =>
      ({
        id,
        level,
        group: 'g',
        section: 's',
        clause: 'c',
        summary: 's',
        checks: [check.id],
        status,
        passed: 0,
        failed: evidence.length,
        evidence,
        observations: [],
        reason: status === 'untested' ? 'no key' : undefined,
      }) as ApiRun['requirements'][number];
    const apiRun = (requirements: ApiRun['requirements']) =>
      ({ api: 'stacks', checks: [{ id: check.id, outcome: 'ran', requirements: check.requirements }], requirements }) as unknown as ApiRun;
    const failing = {
      requirement: must,
      check: check.id,
      outcome: 'fail' as const,
      message: 'expected 200, got 401',
      evidence: { curl: "curl -X GET 'http://x/v1/stacks' secret-key", response: 'HTTP 401\n\n{}' },
    };
    const failed = verdictOf(apiRun([req(must, 'MUST', 'failed', [failing])]), check, { mask: (t) => t.replaceAll('secret-key', '***') });
    expect(failed.state).toBe('failed');
    expect(failed.message).toContain(`${must} [MUST] failed: expected 200, got 401`);
    expect(failed.message).toContain("reproduce: curl -X GET 'http://x/v1/stacks' ***");
    expect(failed.message).toContain('HTTP 401');
    const warned = verdictOf(
      apiRun([req(must, 'MUST', 'passed'), req(should, 'SHOULD', 'failed', [{ ...failing, requirement: should }])]),
      check,
    );
    expect(warned.state).toBe('passed');
    expect(warned.warnings[0]).toContain(`${should} [SHOULD] failed`);
    const untested = verdictOf(apiRun(check.requirements.map((r) => req(r, 'MUST', 'untested'))), check);
    expect(untested.state).toBe('skipped');
    expect(untested.skipReason).toContain(`${must} untested: no key`);
    const partly = verdictOf(
      apiRun([req(must, 'MUST', 'passed'), ...check.requirements.slice(1).map((r) => req(r, 'MUST', 'untested'))]),
      check,
    );
    expect(partly.state).toBe('passed');
    expect(partly.notes.map((n) => n.type)).toContain('untested');
  });

  it('fails (exit 1) against a broken target, with the evidence, and passes against a correct one', async () => {
    const { server, env } = await serveStacksFault('auth-missing-key-accepted');
    try {
      const broken = await vitestConformance(['-t', 'STK-AUTH'], { ...env, CONFORMANCE_APIS: 'stacks' });
      expect(broken.code, broken.out).toBe(1);
      expect(broken.out).toContain(
        'FAIL  |conformance| suites/vitest/checks.conformance.ts > stacks > auth > stacks.auth.missing-key-401 [STK-AUTH-401]',
      );
      expect(broken.out).toMatch(/STK-AUTH-401 \[MUST\] failed: .* without Authorization: expected 401/);
      expect(broken.out).toContain(`reproduce: curl -sS -i -X`);
      expect(broken.out).not.toContain(env.STACKS_API_KEY);
      // The detail check holds the 401 rule on an existing stack too: both checks that name STK-AUTH-401 fail.
      expect(broken.out).toContain(
        'FAIL  |conformance| suites/vitest/checks.conformance.ts > stacks > get > stacks.get.detail-200 [STK-GET-200, STK-STACKID-PARAM, STK-AUTH-401, STK-AUTH-403]',
      );
      expect(broken.out).toMatch(/Tests +2 failed \| \d+ passed \| \d+ skipped \(\d+\)/);
      // The reports of the same run are written as usual, with the run's selection recorded.
      const report = JSON.parse(readFileSync(join(broken.reportDir, 'compliance.json'), 'utf8'));
      expect(report.summary.gate).toBe('fail');
      expect(report.run.only).toContain('stacks.auth.missing-key-401');
      expect(report.requirements.find((r: { id: string }) => r.id === 'STK-AUTH-401').status).toBe('failed');
    } finally {
      await server.close();
    }
    const embedded = await vitestConformance(['-t', 'STK-AUTH'], { CONFORMANCE_APIS: 'stacks' });
    expect(embedded.code, embedded.out).toBe(0);
    expect(embedded.out).toMatch(/Tests +\d+ passed \| \d+ skipped \(\d+\)/);
    // A selection's pass is a pass of part of the checks: the summary line and the report's first page say so.
    expect(embedded.out).toMatch(/verdict: PASS \(partial: \d+ of \d+ checks selected \(only stacks\.auth\./);
    expect(readFileSync(join(embedded.reportDir, 'compliance.md'), 'utf8')).toMatch(
      /^# Conformance: PASS \(partial\)\n\n\*\*Partial run: /,
    );
    const nothing = await vitestConformance(['-t', 'NOPE-XYZ'], { CONFORMANCE_APIS: 'stacks' });
    expect(nothing.code, nothing.out).toBe(1);
    expect(nothing.out).toContain("vitest -t 'NOPE-XYZ' selects no conformance test of stacks");
  }, 120_000);
});
