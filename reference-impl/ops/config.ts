import { loadFixture } from '../http/fixture';

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

/** Reads fixtures/ops.json (checked against fixtures/ops.schema.json); `overrides` replace top-level fields (e.g. users in tests). */
export function loadOpsConfig(overrides: Partial<OpsConfig> = {}): OpsConfig {
  return loadFixture('ops', overrides, 'name');
}
