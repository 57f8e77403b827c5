import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadCatalogue } from '../catalogue';

/*
 * What a report was judged against, for its first page: the documents by name and full sha256, and the suite's
 * commit. A reader can then tell two reports of the same version of a deployment apart by what judged them.
 */

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

export interface DocumentRef {
  /** What the file is to the run. */
  kind: 'document' | 'OpenAPI description' | 'requirement catalogue';
  /** Path from the suite's root, e.g. specs/stacks.openapi.yaml. */
  name: string;
  sha256: string;
}

const sha256 = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');

/** The document the catalogue quotes, the OpenAPI description answers are validated against, and the catalogue itself. */
export function documentsOf(specFile: string, catalogueFile: string): DocumentRef[] {
  const source = join(dirname(catalogueFile), '..', 'documents', loadCatalogue(catalogueFile).document);
  return [
    { kind: 'document', file: source },
    { kind: 'OpenAPI description', file: specFile },
    { kind: 'requirement catalogue', file: catalogueFile },
  ].map(({ kind, file }) => ({ kind: kind as DocumentRef['kind'], name: relative(ROOT, file), sha256: sha256(file) }));
}

let commit: string | undefined;

/** The suite's git commit, or "unknown" where it is not a git checkout (a package, an archive). */
export function suiteCommit(): string {
  if (commit === undefined) {
    try {
      // An installed package sits inside the user's checkout: its commit is not the suite's.
      if (!existsSync(join(ROOT, '.git'))) throw new Error('not a checkout of the suite');
      commit =
        execFileSync('git', ['rev-parse', 'HEAD'], {
          cwd: ROOT,
          encoding: 'utf8',
          stdio: ['ignore', 'pipe', 'ignore'],
          timeout: 5000,
        }).trim() || 'unknown';
    } catch {
      commit = 'unknown';
    }
  }
  return commit;
}
