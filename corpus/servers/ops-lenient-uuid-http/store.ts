import type { Doc } from './util.js';

export const GLOBAL_TEAM = 'default_ops_security_group';

export class Collection {
  private m = new Map<string, Doc>();
  get(key: string): Doc | undefined {
    return this.m.get(key);
  }
  has(key: string): boolean {
    return this.m.has(key);
  }
  set(key: string, d: Doc): void {
    this.m.set(key, d);
  }
  delete(key: string): boolean {
    return this.m.delete(key);
  }
  all(): Doc[] {
    return [...this.m.values()];
  }
  clear(): void {
    this.m.clear();
  }
}

const collections = new Map<string, Collection>();

export function coll(ns: string): Collection {
  let c = collections.get(ns);
  if (!c) {
    c = new Collection();
    collections.set(ns, c);
  }
  return c;
}

/** key -> user name that created the object (used for team visibility). */
export const creators = new Map<string, string>();

/** Entities that were retired: key -> services they were linked to before retirement. */
export const retiredLinks = new Map<string, unknown>();

/** Keys of protected objects (cannot be deleted). */
export const protectedKeys = new Set<string>();

export interface LibraryItem {
  id: string;
  title: string;
  description: string;
  object: Doc;
  saved_searches?: string[];
}

export interface LibraryPack {
  pack: Doc; // id, title, description, overview, author, version, icon, help_links, installed_versions, screenshots, main_screenshot
  contents: Record<string, LibraryItem[]>; // group -> items
  savedSearches: string[];
}

/** content pack library: key `${id}` -> pack (one version per id). */
export const library = new Map<string, LibraryPack>();

export interface IconCategory {
  name: string;
  immutable: boolean;
}
export const iconCategories = new Map<string, IconCategory>();

export interface User {
  name: string;
  canWrite: boolean;
  readGlobal: boolean;
  team?: string;
}
