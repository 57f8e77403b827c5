import { readFileSync } from 'node:fs';

export interface PlatformVersion {
  buildVersion: string;
  releaseName: string;
  status: 'released' | 'unreleased';
}

export interface StackUser {
  name: string;
  apiKey: string;
  /** False: authenticated, but not on the service's allow list (403). */
  allowed: boolean;
}

export interface StacksConfig {
  users: StackUser[];
  /** Counted over the caller's active (not expired) stacks. */
  maxStacksPerUser: number;
  /** How long a new stack stays CREATING; 0 makes it RUNNING at once. */
  provisioningDelayMs: number;
  /** terminationDate = createdAt + lifetimeMinutes. */
  lifetimeMinutes: number;
  /** Selectable versions, in the order GET /v1/stacks/versions returns them. */
  versions: PlatformVersion[];
}

const FIXTURE = new URL('../../fixtures/stacks.json', import.meta.url);

function fail(message: string): never {
  throw new Error(`stacks config: ${message}`);
}

function checkConfig(config: StacksConfig): StacksConfig {
  if (!Array.isArray(config.users)) fail('users must be an array');
  for (const u of config.users) {
    if (typeof u?.name !== 'string' || typeof u.apiKey !== 'string' || typeof u.allowed !== 'boolean') {
      fail(`bad user entry ${JSON.stringify(u)}`);
    }
  }
  if (new Set(config.users.map((u) => u.apiKey)).size !== config.users.length) fail('API keys must be unique');
  for (const key of ['maxStacksPerUser', 'provisioningDelayMs', 'lifetimeMinutes'] as const) {
    const n = config[key];
    if (typeof n !== 'number' || !Number.isFinite(n) || n < 0) fail(`${key} must be a non-negative number`);
  }
  if (!Array.isArray(config.versions)) fail('versions must be an array');
  for (const v of config.versions) {
    if (typeof v?.buildVersion !== 'string' || typeof v.releaseName !== 'string' || (v.status !== 'released' && v.status !== 'unreleased')) {
      fail(`bad version entry ${JSON.stringify(v)}`);
    }
  }
  if (latestReleased(config.versions) === undefined) fail('at least one released version is needed as the default');
  return config;
}

/** Reads fixtures/stacks.json; `overrides` replace top-level fields (e.g. provisioningDelayMs: 0 in tests). */
export function loadStacksConfig(overrides: Partial<StacksConfig> = {}): StacksConfig {
  const base = JSON.parse(readFileSync(FIXTURE, 'utf8')) as StacksConfig;
  return checkConfig(structuredClone({ ...base, ...overrides }));
}

/** Orders build versions by their dot-separated parts, numerically where both parts are numbers. */
export function compareBuildVersions(a: string, b: string): number {
  const pa = a.split('.');
  const pb = b.split('.');
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const x = pa[i] ?? '0';
    const y = pb[i] ?? '0';
    const nx = /^\d+$/.test(x) ? Number(x) : NaN;
    const ny = /^\d+$/.test(y) ? Number(y) : NaN;
    const diff = Number.isNaN(nx) || Number.isNaN(ny) ? x.localeCompare(y) : nx - ny;
    if (diff !== 0) return Math.sign(diff);
  }
  return 0;
}

/** The default for a create without platformVersion: the newest version whose status is `released`. */
export function latestReleased(versions: readonly PlatformVersion[]): PlatformVersion | undefined {
  let best: PlatformVersion | undefined;
  for (const v of versions) {
    if (v.status !== 'released') continue;
    if (best === undefined || compareBuildVersions(v.buildVersion, best.buildVersion) > 0) best = v;
  }
  return best;
}
