import { readFileSync } from 'node:fs';

/** A stored object: free-form JSON, as the document leaves the full schemas out. */
export type Doc = Record<string, unknown>;

export interface OpsUser {
  name: string;
  password: string;
  /** Read-only users get 403 on every POST, PUT and DELETE. */
  readOnly: boolean;
  /** When set, the user reads only objects whose `sec_grp` (or one of `sec_grp_list`) is listed. */
  readGroups?: string[];
}

/** One installable object of a library content pack. `fields` is what the install writes besides id and title. */
export interface PackObject {
  id: string;
  title: string;
  description: string;
  entitlement_status?: boolean;
  has_dependency?: boolean;
  fields?: Doc;
}

export interface ContentPack {
  id: string;
  title: string;
  description: string;
  overview: string;
  author: string;
  version: string;
  icon: string;
  help_links: unknown[];
  installed_versions: string[];
  screenshots: { path: string; thumb: string }[];
  main_screenshot: { path: string; thumb: string };
  /** Keyed by object-type group (`services`, `glass_tables`...). */
  objects: Record<string, PackObject[]>;
  saved_searches: string[];
}

export interface EpisodeAction {
  /** The list entry: label, type, action_name and the integer-like flags. */
  entry: Doc & { action_name: string };
  /** What GET notable_event_actions/<action_name> answers. */
  config: Doc;
}

export interface IconCategory {
  name: string;
  immutable?: boolean;
}

interface OpsSeed {
  /** Stored objects by object type (core types, maintenance_calendar, backup_restore, event-management types...). */
  objects: Record<string, Doc[]>;
  contentPacks: { packs: ContentPack[]; failures: Doc[] };
  episodeActions: EpisodeAction[];
  iconCategories: IconCategory[];
  icons: Doc[];
}

export interface OpsConfig {
  users: OpsUser[];
  /** Written as `_version` on every stored object. */
  schemaVersion: string;
  /** The Global team: default `sec_grp`, and the team service-template linking needs read access to. */
  defaultSecurityGroup: string;
  /** `_key` of the default scheduled backup job, which no delete removes. */
  defaultBackupKey: string;
  /** Longest `$regex` pattern a filter may carry; a longer one makes the filter incorrect. */
  regexMaxPatternLength: number;
  seed: OpsSeed;
}

const FIXTURE = new URL('../../fixtures/ops.json', import.meta.url);

function fail(message: string): never {
  throw new Error(`ops config: ${message}`);
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function checkConfig(config: OpsConfig): OpsConfig {
  if (!Array.isArray(config.users)) fail('users must be an array');
  for (const u of config.users) {
    if (typeof u?.name !== 'string' || typeof u.password !== 'string' || typeof u.readOnly !== 'boolean') {
      fail(`bad user entry ${JSON.stringify(u)}`);
    }
    if (u.readGroups !== undefined && !(Array.isArray(u.readGroups) && u.readGroups.every((g) => typeof g === 'string'))) {
      fail(`readGroups of ${u.name} must be an array of strings`);
    }
  }
  if (new Set(config.users.map((u) => u.name)).size !== config.users.length) fail('user names must be unique');
  for (const key of ['schemaVersion', 'defaultSecurityGroup', 'defaultBackupKey'] as const) {
    if (typeof config[key] !== 'string' || config[key] === '') fail(`${key} must be a non-empty string`);
  }
  if (!Number.isInteger(config.regexMaxPatternLength) || config.regexMaxPatternLength < 1) {
    fail('regexMaxPatternLength must be a positive integer');
  }
  const seed = config.seed;
  if (!isRecord(seed) || !isRecord(seed.objects)) fail('seed.objects must be an object');
  for (const [type, docs] of Object.entries(seed.objects)) {
    if (!Array.isArray(docs) || !docs.every((d) => isRecord(d) && typeof d._key === 'string')) {
      fail(`seed.objects.${type} must be an array of objects with a string _key`);
    }
  }
  if (!isRecord(seed.contentPacks) || !Array.isArray(seed.contentPacks.packs) || !Array.isArray(seed.contentPacks.failures)) {
    fail('seed.contentPacks must hold packs and failures arrays');
  }
  if (!Array.isArray(seed.episodeActions) || !seed.episodeActions.every((a) => typeof a?.entry?.action_name === 'string')) {
    fail('seed.episodeActions entries need entry.action_name');
  }
  if (!Array.isArray(seed.iconCategories) || !Array.isArray(seed.icons)) fail('seed icons and iconCategories must be arrays');
  return config;
}

/** Reads fixtures/ops.json; `overrides` replace top-level fields (e.g. users in tests). */
export function loadOpsConfig(overrides: Partial<OpsConfig> = {}): OpsConfig {
  const base = JSON.parse(readFileSync(FIXTURE, 'utf8')) as OpsConfig;
  return checkConfig(structuredClone({ ...base, ...overrides }));
}
