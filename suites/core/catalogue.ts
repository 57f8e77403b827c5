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

const outsideShape = new Map<string, Set<string>>();

/** Requirements whose clause states the reaction to input outside the documented shape (`judgesInputOutsideShape`). */
export function judgingOutsideShape(file: string): Set<string> {
  let s = outsideShape.get(file);
  if (!s) {
    s = new Set(
      loadCatalogue(file)
        .requirements.filter((r) => r.judgesInputOutsideShape)
        .map((r) => r.id),
    );
    outsideShape.set(file, s);
  }
  return s;
}
