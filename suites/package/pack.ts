/*
 * Global set-up of the `package` project (`npm run test:package`): `npm pack` once, which builds dist/ through
 * prepack, into a temporary folder; every test file installs that tarball as a user would.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { REPO, userEnv } from './sandbox';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Absolute path of the packed api-conformance tarball. */
    tarball: string;
  }
}

export default function setup(project: TestProject): () => void {
  const dir = mkdtempSync(join(tmpdir(), 'cf-pack-'));
  const out = execFileSync('npm', ['pack', '--json', '--pack-destination', dir], {
    cwd: REPO,
    env: userEnv(),
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  // prepack's output comes first; the JSON array is the last thing npm prints.
  const [packed] = JSON.parse(out.slice(out.lastIndexOf('\n[') + 1)) as {
    filename: string;
    entryCount: number;
    size: number;
    unpackedSize: number;
  }[];
  process.stdout.write(
    `packed ${packed.filename}: ${packed.entryCount} files, ${(packed.size / 1024).toFixed(0)} KiB (${(packed.unpackedSize / 1024).toFixed(0)} KiB unpacked)\n`,
  );
  project.provide('tarball', join(dir, packed.filename));
  return () => rmSync(dir, { recursive: true, force: true });
}
