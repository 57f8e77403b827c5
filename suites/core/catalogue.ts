import { readYaml } from './yaml-cache';
import type { Catalogue } from './types';

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
