import { describe, expect, it } from 'vitest';
import { APIS } from '../apis';
import { loadCatalogue } from '../core/catalogue';
import { coverage, syncedCatalogue } from '../core/catalogue-sync';
import { readFileSync } from 'node:fs';

describe.each(APIS.map((a) => [a.id, a] as const))('traceability of %s', (_, api) => {
  const catalogue = loadCatalogue(api.catalogueFile);
  const ids = new Set(catalogue.requirements.map((r) => r.id));

  it('has unique requirement ids, each with a level, a quoted clause and a summary', () => {
    expect(ids.size).toBe(catalogue.requirements.length);
    for (const r of catalogue.requirements) {
      expect(['MUST', 'SHOULD', 'unspecified'], r.id).toContain(r.level);
      expect(r.clause.length, r.id).toBeGreaterThan(5);
      expect(r.summary.length, r.id).toBeGreaterThan(5);
      if (r.level === 'unspecified') expect(r.tolerance, `${r.id} needs a tolerance`).toBeTruthy();
    }
  });

  it('quotes every clause from the document', () => {
    const doc = readFileSync(new URL(`../../specs/documents/${catalogue.document}`, import.meta.url), 'utf8').replace(/\s+/g, ' ');
    for (const r of catalogue.requirements) {
      for (const fragment of r.clause
        .split('…')
        .map((f) => f.trim().replace(/^"|"$/g, '').replace(/\s+/g, ' '))
        .filter((f) => f.length > 3)) {
        expect(doc.includes(fragment), `${r.id}: "${fragment}" is not in ${catalogue.document}`).toBe(true);
      }
    }
  });

  it('gives every requirement at least one check', () => {
    const cover = coverage(api);
    expect(catalogue.requirements.filter((r) => !cover.has(r.id)).map((r) => r.id)).toEqual([]);
  });

  it('names only catalogued requirements in its checks', () => {
    for (const c of api.checks) for (const r of c.requirements) expect(ids.has(r), `${c.id} names ${r}`).toBe(true);
  });

  it('keeps the catalogue checks lists in step with the registry (npm run catalogue:sync)', () => {
    expect(syncedCatalogue(api).text).toBe(readFileSync(api.catalogueFile, 'utf8'));
  });
});
