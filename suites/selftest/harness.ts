import type { ApiDefinition } from '../core/api';
import { runConformance } from '../core/conformance';
import type { ComplianceReport } from '../core/report/model';
import { settingsFrom, type Settings } from '../core/settings';
import type { Target } from '../core/types';

const TOOL = { name: 'api-conformance', version: 'selftest' };

/**
 * Settings for in-process runs: a fixed seed, a small property budget, no retries (the reference is deterministic).
 * The servers self-tests start hold only test data, so destructive checks are allowed explicitly, as a CI gate
 * against a disposable server allows them.
 */
export function selftestSettings(api: string, overrides: Partial<Settings> = {}): Settings {
  return {
    ...settingsFrom({}, [api]),
    allowDestructive: true,
    seed: Number(process.env.CONFORMANCE_SEED ?? 20261122),
    runs: Number(process.env.SELFTEST_RUNS ?? 8),
    retries: 0,
    readyTimeoutS: 5,
    formats: [],
    ...overrides,
  };
}

export async function runAgainst(def: ApiDefinition, target: Target, overrides: Partial<Settings> = {}): Promise<ComplianceReport> {
  const { report } = await runConformance({
    settings: selftestSettings(def.id, overrides),
    apis: [def],
    targets: { [def.id]: target },
    tool: TOOL,
    write: false,
  });
  return report;
}

export const failedIds = (r: ComplianceReport) => r.requirements.filter((q) => q.status === 'failed').map((q) => q.id);
export const mustFailed = (r: ComplianceReport) =>
  r.requirements.filter((q) => q.status === 'failed' && q.level === 'MUST').map((q) => q.id);
export const shouldFailed = (r: ComplianceReport) =>
  r.requirements.filter((q) => q.status === 'failed' && q.level === 'SHOULD').map((q) => q.id);
