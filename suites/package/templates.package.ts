/*
 * The CI templates (templates/*.yml) run as written: every `run:` script and `script:` line in order, with bash
 * options as each CI runs them, in the jobs' order (each shard, then the report job), against a user's repository
 * whose server is the stack reference implementation started with `api-conformance serve`. Only the values a user
 * sets are replaced: the package (the packed tarball), the start command, the address and the API key. The steps
 * that call actions (checkout, artifacts, JUnit) are done here the way the action does them; an action, an
 * expression or a key this file does not know fails the test, so the templates cannot drift from what it checks.
 * The shards of a template run one after another in one workspace, like a runner that keeps it between jobs.
 */
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { parse } from 'yaml';
import { freePort, REPO, run, stopGroup, tempDir, userEnv } from './sandbox';

const tarball = inject('tarball');
const STACKS_KEY = 'stk_demo_alice_4f1c9e27b3a85d60';
const RUN_ID = '13579246801'; // larger than a seed may be: the templates reduce it

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const template = (name: string) => parse(readFileSync(join(REPO, 'templates', name), 'utf8')) as Record<string, unknown>;

/** The user's repository: a package whose `npm start` serves the stack reference implementation on $PORT. */
function userRepository(): string {
  const dir = tempDir('cf-user-repo-');
  dirs.push(dir);
  const scripts = { start: 'api-conformance serve --api stacks --port "$PORT"' };
  writeFileSync(
    join(dir, 'package.json'),
    `${JSON.stringify({ name: 'my-stack-service', version: '1.0.0', private: true, scripts }, null, 2)}\n`,
  );
  return dir;
}

/** The values a user sets in the template, for a server on `port`. */
async function userValues(template: Record<string, unknown>, key: 'env' | 'variables') {
  const port = await freePort();
  const values = template[key] as Record<string, unknown>;
  for (const name of ['API_CONFORMANCE', 'START_COMMAND', 'STACKS_BASE_URL', 'READY_URL'])
    expect(values, `the template sets ${name}`).toHaveProperty(name);
  return {
    port,
    values: {
      API_CONFORMANCE: tarball,
      // `npm start` as the template says, on a port free here (a user's server has its own).
      START_COMMAND: `PORT=${port} ${values.START_COMMAND}`,
      STACKS_BASE_URL: `http://127.0.0.1:${port}`,
      READY_URL: `http://127.0.0.1:${port}/v1/stacks`,
    },
  };
}

/** Environment values as a CI gives them: strings. */
const strings = (o: Record<string, unknown> | undefined) => Object.fromEntries(Object.entries(o ?? {}).map(([k, v]) => [k, String(v)]));

function expectOnlyKeys(o: object, known: string[], where: string): void {
  expect(
    Object.keys(o).filter((k) => !known.includes(k)),
    `keys of ${where} this test does not emulate`,
  ).toEqual([]);
}

interface StepResult {
  name: string;
  code: number;
  output: string;
}

// ---------------------------------------------------------------------------------------------------------------
// GitHub Actions

interface GithubStep {
  name?: string;
  uses?: string;
  run?: string;
  if?: string;
  env?: Record<string, unknown>;
  with?: Record<string, unknown>;
}

interface GithubJob {
  name?: string;
  needs?: string | string[];
  if?: string;
  'runs-on': string;
  'timeout-minutes'?: number;
  strategy?: { 'fail-fast'?: boolean; matrix: { shard: number[] } };
  env?: Record<string, unknown>;
  steps: GithubStep[];
}

/** `${{ ... }}` expressions of the template, from the job's context; any other is a failure. */
function expand(value: string, context: Record<string, string>): string {
  return value.replace(/\$\{\{\s*([^}]*?)\s*\}\}/g, (_m, expr: string) => {
    if (!(expr in context)) throw new Error(`expression \${{ ${expr} }} is not emulated`);
    return context[expr];
  });
}
const expandAll = (o: Record<string, unknown> | undefined, context: Record<string, string>) =>
  Object.fromEntries(Object.entries(strings(o)).map(([k, v]) => [k, expand(v, context)]));

async function githubJob(
  job: GithubJob,
  o: {
    workflowEnv: Record<string, string>;
    context: Record<string, string>;
    workspace: string;
    artifacts: string;
    summary: string;
    repository: string;
  },
): Promise<StepResult[]> {
  expectOnlyKeys(job, ['name', 'needs', 'if', 'runs-on', 'timeout-minutes', 'strategy', 'env', 'steps'], 'a job');
  const results: StepResult[] = [];
  const groups: number[] = [];
  let failed = false;
  try {
    for (const step of job.steps) {
      expectOnlyKeys(step, ['name', 'uses', 'run', 'if', 'env', 'with'], 'a step');
      if (step.if !== undefined && step.if !== 'always()') throw new Error(`step condition ${step.if} is not emulated`);
      if (failed && step.if !== 'always()') continue;
      const name = step.name ?? step.uses ?? step.run!.split('\n')[0];
      const env = userEnv({
        ...o.workflowEnv,
        ...expandAll(job.env, o.context),
        ...expandAll(step.env, o.context),
        CI: 'true',
        GITHUB_ACTIONS: 'true',
        GITHUB_RUN_ID: RUN_ID,
        GITHUB_WORKSPACE: o.workspace,
        GITHUB_STEP_SUMMARY: o.summary,
      });
      let result: { code: number; output: string };
      if (step.run !== undefined) {
        // GitHub's `bash` shell for run steps: bash --noprofile --norc -eo pipefail {0}.
        const r = await run('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', step.run], {
          cwd: o.workspace,
          env,
          timeoutMs: 170_000,
        });
        // Whatever the step left running in the background (the server) belongs to the job, and stops with it.
        groups.push(r.pid);
        result = { code: r.code ?? 1, output: r.stdout + r.stderr };
      } else {
        result = githubAction(step, expandAll(step.with, o.context), o);
      }
      results.push({ name, ...result });
      if (result.code !== 0) failed = true;
    }
  } finally {
    for (const g of groups) stopGroup(g);
  }
  return results;
}

/** The actions the templates use, done here as they do it. */
function githubAction(
  step: GithubStep,
  inputs: Record<string, string>,
  o: { workspace: string; artifacts: string; repository: string },
): { code: number; output: string } {
  const [action, version] = step.uses!.split('@');
  expect(version, `${action} is pinned to a major version`).toMatch(/^v\d+$/);
  switch (action) {
    case 'actions/checkout':
      cpSync(o.repository, o.workspace, { recursive: true });
      return { code: 0, output: 'checked out' };
    case 'actions/setup-node':
      expect(inputs['node-version']).toBe('20');
      return { code: 0, output: `node ${process.version}` };
    case 'actions/upload-artifact': {
      expectOnlyKeys(inputs, ['name', 'path', 'overwrite'], 'upload-artifact inputs');
      // One path: its contents are the artifact's root.
      const from = join(o.workspace, inputs.path);
      if (!existsSync(from)) return { code: 0, output: `no files at ${inputs.path}` };
      const to = join(o.artifacts, inputs.name);
      // As v4 does: a name already taken in the workflow run (a job re-run) fails the upload unless overwrite is set.
      if (existsSync(to) && inputs.overwrite !== 'true')
        return { code: 1, output: `Failed to CreateArtifact: an artifact with this name already exists on the workflow run` };
      rmSync(to, { recursive: true, force: true });
      cpSync(from, to, { recursive: true });
      return { code: 0, output: `uploaded ${inputs.name}` };
    }
    case 'actions/download-artifact': {
      expect(inputs['merge-multiple']).toBe('true');
      const pattern = new RegExp(`^${inputs.pattern.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*')}$`);
      const names = existsSync(o.artifacts) ? readdirSync(o.artifacts).filter((n) => pattern.test(n)) : [];
      for (const n of names) cpSync(join(o.artifacts, n), join(o.workspace, inputs.path), { recursive: true });
      return { code: 0, output: `downloaded ${names.join(', ')}` };
    }
    case 'mikepenz/action-junit-report': {
      const file = join(o.workspace, inputs.report_paths);
      const xml = existsSync(file) ? readFileSync(file, 'utf8') : '';
      return { code: /<testsuites[\s>]/.test(xml) ? 0 : 1, output: xml ? `published ${inputs.report_paths}` : `no ${inputs.report_paths}` };
    }
    default:
      throw new Error(`action ${step.uses} is not emulated`);
  }
}

// ---------------------------------------------------------------------------------------------------------------
// GitLab CI

interface GitlabJob {
  stage: string;
  image: string;
  parallel?: number;
  timeout?: string;
  needs?: { job: string; artifacts: boolean }[];
  when?: string;
  variables?: Record<string, unknown>;
  script: string[];
  artifacts: { when: string; paths: string[]; expire_in?: string; expose_as?: string; reports?: { junit?: string } };
}

async function gitlabJob(
  job: GitlabJob,
  o: {
    variables: Record<string, string>;
    ci: Record<string, string>;
    workspace: string;
    artifacts: string;
    name: string;
    checkout?: string;
  },
): Promise<{ code: number; output: string }> {
  expectOnlyKeys(job, ['stage', 'image', 'parallel', 'timeout', 'needs', 'when', 'variables', 'script', 'artifacts'], 'a job');
  expect(job.image).toBe('node:20');
  if (o.checkout) cpSync(o.checkout, o.workspace, { recursive: true });
  for (const need of job.needs ?? []) {
    expect(need.artifacts).toBe(true);
    for (const n of existsSync(o.artifacts) ? readdirSync(o.artifacts).filter((a) => a === need.job || a.startsWith(`${need.job} `)) : []) {
      cpSync(join(o.artifacts, n), o.workspace, { recursive: true });
    }
  }
  const env = userEnv({
    ...o.variables,
    ...strings(job.variables),
    ...o.ci,
    CI: 'true',
    GITLAB_CI: 'true',
    CI_PROJECT_DIR: o.workspace,
    CI_PIPELINE_ID: RUN_ID,
  });
  // The runner's bash script: every line in one shell, stopping at the first that fails.
  const r = await run('bash', ['--noprofile', '--norc', '-c', `set -eo pipefail\n${job.script.join('\n')}`], {
    cwd: o.workspace,
    env,
    timeoutMs: 170_000,
  });
  stopGroup(r.pid);
  const code = r.code ?? 1;
  if (job.artifacts.when === 'always' || code === 0) {
    for (const p of job.artifacts.paths)
      if (existsSync(join(o.workspace, p))) cpSync(join(o.workspace, p), join(o.artifacts, o.name, p), { recursive: true });
  }
  return { code, output: r.stdout + r.stderr };
}

// ---------------------------------------------------------------------------------------------------------------

function expectMergedPass(file: string, shards: number): void {
  const report = JSON.parse(readFileSync(file, 'utf8'));
  expect(report.summary.gate).toBe('pass');
  expect(report.apis.map((a: { api: string }) => a.api)).toEqual(['stacks']);
  expect(report.run.config.mergedFrom).toBe(shards);
  // Fewer than against the embedded implementation: the templates give one API key, not the second user's.
  expect(report.requirements.filter((r: { status: string }) => r.status === 'passed').length).toBeGreaterThan(35);
  // The shards shared the seed the templates derive from the CI's run id.
  expect(report.run.seed).toBe(Number(BigInt(RUN_ID) % 2147483647n));
}

describe('the CI templates, run as written against a user repository', () => {
  it('GitHub Actions: three shards, then the report job merges, summarises, publishes JUnit and gates', async () => {
    const workflow = template('github-actions.yml') as { env: Record<string, unknown>; jobs: Record<string, GithubJob> };
    const repository = userRepository();
    const root = tempDir('cf-github-');
    dirs.push(root);
    const artifacts = join(root, 'artifacts');
    const workspace = join(root, 'shard-workspace');
    mkdirSync(workspace);
    const { conformance, report } = workflow.jobs;
    expect(Object.keys(workflow.jobs)).toEqual(['conformance', 'report']);
    expect(report.needs).toBe('conformance');
    expect(report.if).toBe('always()');
    const shards = conformance.strategy!.matrix.shard;
    expect(shards.length).toBeGreaterThan(1);
    const secrets = { 'secrets.STACKS_API_KEY': STACKS_KEY };

    for (const shard of shards) {
      const user = await userValues(workflow, 'env');
      const workflowEnv = { ...strings(workflow.env), ...user.values };
      const context = { 'matrix.shard': String(shard), 'strategy.job-total': String(shards.length), ...secrets };
      const summary = join(root, `summary-${shard}.md`);
      const steps = await githubJob(conformance, { workflowEnv, context, workspace, artifacts, summary, repository });
      const failures = steps.filter((s) => s.code !== 0);
      expect(failures, `shard ${shard}: ${failures.map((s) => `${s.name}:\n${s.output}`).join('\n')}`).toEqual([]);
      expect(steps.map((s) => s.name)).toContain('Conformance run');
      expect(steps.find((s) => s.name === 'Conformance run')!.output).toMatch(/verdict: PASS/);
      expect(existsSync(join(artifacts, `conformance-shard-${shard}`, `shard-${shard}`, 'compliance.json'))).toBe(true);
    }

    const reportWorkspace = join(root, 'report-workspace');
    mkdirSync(reportWorkspace);
    const summary = join(root, 'summary.md');
    const workflowEnv = { ...strings(workflow.env), API_CONFORMANCE: tarball };
    const steps = await githubJob(report, { workflowEnv, context: {}, workspace: reportWorkspace, artifacts, summary, repository });
    const failures = steps.filter((s) => s.code !== 0);
    expect(failures, failures.map((s) => `${s.name}:\n${s.output}`).join('\n')).toEqual([]);
    expect(steps.map((s) => s.name)).toEqual([
      'actions/setup-node@v4',
      'actions/download-artifact@v4',
      'Merge the shards',
      'Job summary',
      'Publish JUnit',
      'Upload the report',
      'Gate',
    ]);
    expect(steps.find((s) => s.name === 'Merge the shards')!.output).toMatch(new RegExp(`merged ${shards.length} reports; verdict PASS`));
    expect(readFileSync(summary, 'utf8')).toMatch(/PASS/);
    expect(existsSync(join(artifacts, 'conformance-report', 'compliance.html'))).toBe(true);
    expect(existsSync(join(reportWorkspace, 'node_modules/@stoplight/prism-cli'))).toBe(false);
    expectMergedPass(join(reportWorkspace, 'reports/compliance.json'), shards.length);

    // "Re-run failed jobs": the shard's job runs again in the same workflow run and uploads under the same name.
    const again = await githubJob(conformance, {
      workflowEnv: { ...strings(workflow.env), ...(await userValues(workflow, 'env')).values },
      context: { 'matrix.shard': String(shards[0]), 'strategy.job-total': String(shards.length), ...secrets },
      workspace,
      artifacts,
      summary: join(root, 'summary-rerun.md'),
      repository,
    });
    expect(again.filter((s) => s.code !== 0).map((s) => `${s.name}: ${s.output}`)).toEqual([]);

    // A shard that never uploaded (its runner lost): the report job fails, with the incomplete report still published.
    rmSync(join(artifacts, `conformance-shard-${shards.at(-1)}`), { recursive: true });
    const lacking = join(root, 'report-lacking');
    mkdirSync(lacking);
    const partial = await githubJob(report, { workflowEnv, context: {}, workspace: lacking, artifacts, summary, repository });
    const merge = partial.find((s) => s.name === 'Merge the shards')!;
    expect(merge.code).toBe(2);
    expect(merge.output).toContain(`error: Shards missing from the merge: ${shards.at(-1)}/${shards.length} of the stacks API`);
    expect(partial.map((s) => s.name)).not.toContain('Gate');
    expect(JSON.parse(readFileSync(join(lacking, 'reports/compliance.json'), 'utf8')).summary.gate).toBe('incomplete');
  });

  it('GitLab CI: parallel shards, then the report job merges, publishes JUnit and gates', async () => {
    const pipeline = template('gitlab-ci.yml') as Record<string, unknown> & { variables: Record<string, unknown> };
    const jobs = Object.keys(pipeline).filter((k) => k !== 'variables');
    expect(jobs).toEqual(['conformance', 'conformance-report']);
    const conformance = pipeline.conformance as GitlabJob;
    const report = pipeline['conformance-report'] as GitlabJob;
    expect(report.when).toBe('always');
    expect(report.needs?.map((n) => n.job)).toEqual(['conformance']);
    const repository = userRepository();
    const root = tempDir('cf-gitlab-');
    dirs.push(root);
    const artifacts = join(root, 'artifacts');
    const workspace = join(root, 'shard-workspace');
    mkdirSync(workspace);
    const total = conformance.parallel!;
    expect(total).toBeGreaterThan(1);

    for (let index = 1; index <= total; index++) {
      const user = await userValues(pipeline, 'variables');
      const variables = { ...strings(pipeline.variables), ...user.values, STACKS_API_KEY: STACKS_KEY };
      const ci = { CI_NODE_INDEX: String(index), CI_NODE_TOTAL: String(total) };
      const r = await gitlabJob(conformance, {
        variables,
        ci,
        workspace,
        artifacts,
        name: `conformance ${index}`,
        checkout: index === 1 ? repository : undefined,
      });
      expect(r.code, r.output).toBe(0);
      expect(r.output).toMatch(/verdict: PASS/);
    }

    const reportWorkspace = join(root, 'report-workspace');
    mkdirSync(reportWorkspace);
    expect(report.variables?.GIT_STRATEGY).toBe('none');
    const r = await gitlabJob(report, {
      variables: { ...strings(pipeline.variables), API_CONFORMANCE: tarball },
      ci: {},
      workspace: reportWorkspace,
      artifacts,
      name: 'conformance-report',
    });
    expect(r.code, r.output).toBe(0);
    expect(r.output).toMatch(new RegExp(`merged ${total} reports; verdict PASS`));
    expect(r.output).toMatch(/gate: pass/);
    expect(existsSync(join(reportWorkspace, report.artifacts.reports!.junit!))).toBe(true);
    for (const p of report.artifacts.paths) expect(existsSync(join(artifacts, 'conformance-report', p, 'compliance.html'))).toBe(true);
    expectMergedPass(join(reportWorkspace, 'reports/merged/compliance.json'), total);

    // A shard job that left no reports: the report job fails, after printing the incomplete report.
    rmSync(join(artifacts, `conformance ${total}`), { recursive: true });
    const lacking = join(root, 'report-lacking');
    mkdirSync(lacking);
    const partial = await gitlabJob(report, {
      variables: { ...strings(pipeline.variables), API_CONFORMANCE: tarball },
      ci: {},
      workspace: lacking,
      artifacts,
      name: 'conformance-report-lacking',
    });
    expect(partial.code).toBe(2);
    expect(partial.output).toContain(`error: Shards missing from the merge: ${total}/${total} of the stacks API`);
    expect(partial.output).toMatch(/# Conformance: INCOMPLETE/);
    expect(partial.output).not.toMatch(/gate: /);
  });
});
