import { readFileSync, writeFileSync } from 'node:fs';
import { parseDocument, isMap, isSeq, type YAMLMap } from 'yaml';
import type { ApiDefinition } from './api';

/** Which checks cover each requirement, as the check registry declares it. */
export function coverage(def: ApiDefinition): Map<string, string[]> {
  const map = new Map<string, string[]>();
  for (const c of def.checks) for (const r of c.requirements) map.set(r, [...(map.get(r) ?? []), c.id]);
  return map;
}

/** The catalogue text with every `checks:` list rewritten from the registry; comments and layout are kept. */
export function syncedCatalogue(def: ApiDefinition): { text: string; unknown: string[] } {
  const doc = parseDocument(readFileSync(def.catalogueFile, 'utf8'));
  const cover = coverage(def);
  const known = new Set<string>();
  const reqs = doc.get('requirements');
  if (!isSeq(reqs)) throw new Error(`${def.catalogueFile}: requirements is not a list`);
  for (const item of reqs.items) {
    if (!isMap(item)) continue;
    const id = String((item as YAMLMap).get('id'));
    known.add(id);
    const checks = doc.createNode(cover.get(id) ?? []);
    checks.flow = true;
    (item as YAMLMap).set('checks', checks);
  }
  return { text: doc.toString({ lineWidth: 0 }), unknown: [...cover.keys()].filter((r) => !known.has(r)) };
}

export function writeSyncedCatalogue(def: ApiDefinition): boolean {
  const { text, unknown } = syncedCatalogue(def);
  if (unknown.length) throw new Error(`${def.id}: checks name requirements missing from the catalogue: ${unknown.join(', ')}`);
  const changed = text !== readFileSync(def.catalogueFile, 'utf8');
  if (changed) writeFileSync(def.catalogueFile, text);
  return changed;
}
