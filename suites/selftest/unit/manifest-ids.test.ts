import { describe, expect, it } from 'vitest';
import { levelsOf } from '../../core/catalogue';
import { OPS_CATALOGUE } from '../../ops/paths';
import { STACKS_CATALOGUE } from '../../stacks/paths';
import { loadCorpus } from '../corpus/manifest';

const CATALOGUE = { stacks: STACKS_CATALOGUE, ops: OPS_CATALOGUE };

/** Every requirement id a manifest names, with where it names it. */
function namedIds(manifest: ReturnType<typeof loadCorpus>['servers'][number]['manifest']): [string, string][] {
  const out: [string, string][] = [];
  for (const id of manifest.expected.mustFailures) out.push(['expected.mustFailures', id]);
  for (const id of manifest.expected.warnings) out.push(['expected.warnings', id]);
  for (const [name, bug] of Object.entries(manifest.bugs))
    for (const key of ['breaks', 'collateral', 'warns', 'untested', 'passes'] as const)
      for (const id of bug[key] ?? []) out.push([`bugs.${name}.${key}`, id]);
  return out;
}

it('every corpus server folder has a manifest.json that reads', () => {
  expect([...loadCorpus().problems.values()]).toEqual([]);
});

describe('the corpus manifests name requirements of their catalogue', () => {
  // The manifests are JSON, out of the compiler's reach: a misspelt id would only show as a bug that is never caught.
  it.each(loadCorpus().servers.map((s) => [s.name, s] as const))('%s', (_, server) => {
    const levels = levelsOf(CATALOGUE[server.manifest.api]);
    const unknown = namedIds(server.manifest).filter(([, id]) => !levels.has(id));
    expect(unknown.map(([where, id]) => `${where}: ${id}`)).toEqual([]);
  });
});
