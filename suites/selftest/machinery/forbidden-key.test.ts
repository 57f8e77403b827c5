import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run } from '../../cli/run';
import type { ComplianceReport } from '../../core/report/model';
import type { Target } from '../../core/types';
import { embeddedStacksTarget } from '../../stacks/target';

/** `run` in-process with these variables; its exit code and the report it wrote. */
async function runWith(env: Record<string, string>, args: string[]) {
  const dir = mkdtempSync(join(tmpdir(), 'conformance-forbidden-'));
  const saved = { ...process.env };
  const write = process.stdout.write;
  let out = '';
  process.stdout.write = ((chunk: string) => {
    out += chunk;
    return true;
  }) as typeof process.stdout.write;
  Object.assign(process.env, env);
  try {
    const code = await run([...args, '--report-dir', dir]);
    return { code, out, report: JSON.parse(readFileSync(join(dir, 'compliance.json'), 'utf8')) as ComplianceReport };
  } finally {
    process.stdout.write = write;
    for (const k of Object.keys(env)) if (!(k in saved)) delete process.env[k];
    Object.assign(process.env, saved);
  }
}

describe('a key meant to get 403 that gets 401 fails the 403 requirement with a hint, instead of ending the run', () => {
  let stacks: Target;
  beforeAll(async () => {
    stacks = await embeddedStacksTarget();
  });
  afterAll(() => stacks.close?.());
  const key = (role: string) => stacks.principals[role].authorization!.replace(/^Bearer /, '');
  const args = ['--api', 'stacks', '--only', 'stacks.auth.not-allow-listed-403', '--retries', '0'];

  it('an unknown STACKS_API_KEY_FORBIDDEN: the run goes on, STK-AUTH-403 fails, and says the key may be wrong', async () => {
    const { code, out, report } = await runWith(
      { STACKS_BASE_URL: stacks.baseUrl, STACKS_API_KEY: key('primary'), STACKS_API_KEY_FORBIDDEN: 'not-a-key' },
      args,
    );
    expect(code).toBe(1);
    const q = report.requirements.find((r) => r.id === 'STK-AUTH-403')!;
    expect(q.status).toBe('failed');
    expect(q.hint).toMatch(
      /^the key may be wrong: the server does not know it \(before the run, GET \/v1\/stacks with STACKS_API_KEY_FORBIDDEN was answered 401 Unauthorized, not 403 Forbidden\)$/,
    );
    expect(out).toMatch(/FAIL STK-AUTH-403: .*\n\s+hint: the key may be wrong/);
    // Requirements of other checks carry no hint.
    expect(report.requirements.filter((r) => r.hint).map((r) => r.id)).toEqual(['STK-AUTH-403']);
  });

  it('the right key: STK-AUTH-403 passes, no hint', async () => {
    const { code, report } = await runWith(
      { STACKS_BASE_URL: stacks.baseUrl, STACKS_API_KEY: key('primary'), STACKS_API_KEY_FORBIDDEN: key('forbidden') },
      args,
    );
    expect(code).toBe(0);
    const q = report.requirements.find((r) => r.id === 'STK-AUTH-403')!;
    expect([q.status, q.hint]).toEqual(['passed', undefined]);
  });
});
