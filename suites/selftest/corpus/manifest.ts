import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Expectation } from '../expectation';

/**
 * The servers of the corpus (corpus/servers/<name>/), each described by its manifest.json: read as data, never
 * imported, so the product and the corpus share no code (a lint rule keeps it so).
 */
export const CORPUS_DIR = join(dirname(fileURLToPath(import.meta.url)), '../../../corpus');
const SERVERS_DIR = join(CORPUS_DIR, 'servers');

export type CorpusApi = 'stacks' | 'ops';

/**
 * One documented bug, switched on with `BUG=<name>`: the sentence it breaks, what the server does, and what the suite
 * must say about it (the shape every broken or unusual server's case has, selftest/expectation.ts). `breaks` are MUST
 * requirements here: a manifest bug fails the gate, or warns (`warns`), or is a `reading`.
 */
export interface ManifestBug extends Expectation {
  /** The sentence of the document it breaks, quoted (several, each in its own quotation marks, when it breaks more). */
  clause: string;
  /** What the server does with the bug on. */
  does: string;
}

export { namedBy } from '../expectation';

interface Manifest {
  api: CorpusApi;
  /** One sentence: what makes this server different. */
  summary: string;
  /** The program, beside the manifest: `.mjs` runs on node, `.ts` with tsx. */
  entry: string;
  scheme: 'http' | 'https';
  /** The README's variables a user sets for this server, its base URL aside. */
  credentials: Record<string, string>;
  /** Settings of the server process for the self-test runs (a shorter teardown, say), beside PORT, BUG and VARIANT. */
  serverEnv?: Record<string, string>;
  /** Both lists empty when left out. */
  expected: {
    /** MUST requirements every run of the server fails, whatever its bugs (plain HTTP fails OPS-AUTH-HTTPS). */
    mustFailures: string[];
    /** SHOULD requirements the correct server departs from (its warnings). */
    warnings: string[];
    why?: string;
  };
  /** Variants (`VARIANT=<name>`) besides the default, each correct, and what it changes. */
  variants?: Record<string, string>;
  /**
   * The seconds a write may take to show in reads, by variant (`"*"` for every run of the server): the run settles
   * for that long, as a user who knows it of a deployment would set `--settle`. A server not named shows writes at once.
   */
  lagS?: Record<string, number>;
  bugs: Record<string, ManifestBug>;
}

export interface CorpusServer {
  name: string;
  dir: string;
  manifest: Manifest;
}

const isStrings = (v: unknown): v is string[] => Array.isArray(v) && v.every((x) => typeof x === 'string');
const isStringMap = (v: unknown): v is Record<string, string> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && Object.values(v).every((x) => typeof x === 'string');

const isSecondsMap = (v: unknown, variants: string[]): boolean =>
  typeof v === 'object' &&
  v !== null &&
  !Array.isArray(v) &&
  Object.entries(v).every(([k, x]) => (k === '*' || variants.includes(k)) && typeof x === 'number' && x >= 0);

/** What is wrong with the shape of a manifest, one line each; empty when nothing is. Mapping is judged by the tests. */
export function manifestProblems(m: unknown): string[] {
  if (typeof m !== 'object' || m === null) return ['not a JSON object'];
  const o = m as Record<string, unknown>;
  const out: string[] = [];
  const known = new Set(['api', 'summary', 'entry', 'scheme', 'credentials', 'serverEnv', 'expected', 'variants', 'lagS', 'bugs']);
  for (const k of Object.keys(o)) if (!known.has(k)) out.push(`unknown key "${k}"`);
  if (o.api !== 'stacks' && o.api !== 'ops') out.push('api must be "stacks" or "ops"');
  if (typeof o.summary !== 'string' || !o.summary) out.push('summary must be a sentence');
  if (typeof o.entry !== 'string' || !/\.(mjs|ts)$/.test(o.entry)) out.push('entry must name a .mjs or .ts file');
  if (o.scheme !== 'http' && o.scheme !== 'https') out.push('scheme must be "http" or "https"');
  if (!isStringMap(o.credentials)) out.push('credentials must map variables to strings');
  if (o.serverEnv !== undefined && !isStringMap(o.serverEnv)) out.push('serverEnv must map variables to strings');
  const e = (o.expected ?? {}) as Record<string, unknown>;
  if (
    typeof e !== 'object' ||
    e === null ||
    (e.mustFailures !== undefined && !isStrings(e.mustFailures)) ||
    (e.warnings !== undefined && !isStrings(e.warnings))
  )
    out.push('expected.mustFailures and expected.warnings must be lists of requirement ids');
  if (o.variants !== undefined && !isStringMap(o.variants)) out.push('variants must map names to what each changes');
  if (o.lagS !== undefined && !isSecondsMap(o.lagS, Object.keys((o.variants ?? {}) as object)))
    out.push('lagS must map "*" or variant names to seconds');
  if (typeof o.bugs !== 'object' || o.bugs === null || Array.isArray(o.bugs)) return [...out, 'bugs must map names to bugs'];
  const bugKeys = new Set(['clause', 'does', 'breaks', 'collateral', 'warns', 'untested', 'passes', 'reading', 'why']);
  for (const [name, b] of Object.entries(o.bugs as Record<string, Record<string, unknown>>)) {
    if (typeof b !== 'object' || b === null) {
      out.push(`bug ${name}: not an object`);
      continue;
    }
    for (const k of Object.keys(b)) if (!bugKeys.has(k)) out.push(`bug ${name}: unknown key "${k}"`);
    if (typeof b.clause !== 'string' || typeof b.does !== 'string') out.push(`bug ${name}: clause and does must be strings`);
    for (const k of ['breaks', 'collateral', 'warns', 'untested', 'passes'] as const)
      if (b[k] !== undefined && !isStrings(b[k])) out.push(`bug ${name}: ${k} must be a list of requirement ids`);
    for (const k of ['reading', 'why'] as const)
      if (b[k] !== undefined && typeof b[k] !== 'string') out.push(`bug ${name}: ${k} must be a string`);
  }
  return out;
}

/** Every server folder, with a manifest or not. */
const serverFolders = (): string[] =>
  readdirSync(SERVERS_DIR, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name)
    .sort();

/** One server of the corpus by its folder's name; a manifest missing or of the wrong shape throws, naming the file. */
export function readServer(name: string): CorpusServer {
  const dir = join(SERVERS_DIR, name);
  const file = join(dir, 'manifest.json');
  if (!existsSync(file)) throw new Error(`corpus/servers/${name} has no manifest.json`);
  let manifest: unknown;
  try {
    manifest = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    throw new Error(`corpus/servers/${name}/manifest.json: ${(e as Error).message}`);
  }
  const problems = manifestProblems(manifest);
  if (problems.length) throw new Error(`corpus/servers/${name}/manifest.json: ${problems.join('; ')}`);
  const m = manifest as Manifest;
  return {
    name,
    dir,
    manifest: { ...m, expected: { ...m.expected, mustFailures: m.expected?.mustFailures ?? [], warnings: m.expected?.warnings ?? [] } },
  };
}

/** Every server folder: those whose manifest.json reads, and what is wrong with the others. */
export function loadCorpus(): { servers: CorpusServer[]; problems: Map<string, string> } {
  const servers: CorpusServer[] = [];
  const problems = new Map<string, string>();
  for (const name of serverFolders())
    try {
      servers.push(readServer(name));
    } catch (e) {
      problems.set(name, (e as Error).message);
    }
  return { servers, problems };
}
