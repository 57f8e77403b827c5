import { loadFixture } from '../http/fixture';

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

/** Reads fixtures/stacks.json (checked against fixtures/stacks.schema.json); `overrides` replace top-level fields (e.g. provisioningDelayMs: 0 in tests). */
export function loadStacksConfig(overrides: Partial<StacksConfig> = {}): StacksConfig {
  return loadFixture('stacks', overrides, 'apiKey');
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
