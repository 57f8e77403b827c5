import { readYaml } from './yaml-cache';
import type { Catalogue, Level } from './types';

const cache = new Map<string, Catalogue>();

export function loadCatalogue(file: string): Catalogue {
  let c = cache.get(file);
  if (!c) {
    c = readYaml(file) as Catalogue;
    for (const r of c.requirements) r.checks ??= [];
    cache.set(file, c);
  }
  return c;
}

const levels = new Map<string, Map<string, Level>>();

/** Requirement id → level, read once per catalogue: the runner, the retries and the assertion guard all ask it. */
export function levelsOf(file: string): Map<string, Level> {
  let l = levels.get(file);
  if (!l) {
    l = new Map(loadCatalogue(file).requirements.map((r) => [r.id, r.level]));
    levels.set(file, l);
  }
  return l;
}
