import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { LineCounter, parseDocument } from 'yaml';
import { APIS } from '../../apis';
import { loadCatalogue } from '../../core/catalogue';
import type { Selection, SelectionApi } from './selection';

/** A changed file, with the line ranges of the new version that changed (empty: the whole file, or unknown). */
export interface Change {
  file: string;
  lines?: Array<[number, number]>;
}

const ROOT = join(import.meta.dirname, '../../..');
const API_IDS: SelectionApi[] = ['ops', 'stacks'];

interface Index {
  requirementIds: Map<SelectionApi, Set<string>>;
  /** Check id → the requirements it declares. */
  checks: Map<string, { api: SelectionApi; requirements: string[] }>;
}

function buildIndex(): Index {
  const requirementIds = new Map<SelectionApi, Set<string>>();
  const checks: Index['checks'] = new Map();
  for (const api of APIS) {
    const id = api.id as SelectionApi;
    requirementIds.set(id, new Set(loadCatalogue(api.catalogueFile).requirements.map((r) => r.id)));
    for (const c of api.checks) checks.set(c.id, { api: id, requirements: c.requirements.map(String) });
  }
  return { requirementIds, checks };
}

/** The quoted strings of a source file: requirement ids, check ids and fault ids are all written as literals. */
const literals = (text: string) => new Set([...text.matchAll(/['"`]([A-Za-z0-9_.:-]+)['"`]/g)].map((m) => m[1]!));

/** Requirement ids and check ids a product file names, and so the requirements its change can alter. */
function requirementsNamed(text: string, api: SelectionApi, index: Index): string[] {
  const named = literals(text);
  const out = new Set([...named].filter((s) => index.requirementIds.get(api)!.has(s)));
  for (const s of named) for (const r of index.checks.get(s)?.api === api ? index.checks.get(s)!.requirements : []) out.add(r);
  return [...out];
}

/** The entries of a catalogue that the changed lines touch (every entry when the lines are unknown). */
function catalogueEntries(text: string, lines: Change['lines']): string[] | undefined {
  const counter = new LineCounter();
  const doc = parseDocument(text, { lineCounter: counter });
  const items = (doc.get('requirements') as { items?: Array<{ range?: [number, number]; get(k: string): unknown }> })?.items;
  if (!items) return undefined;
  const touched = (from: number, to: number) => !lines?.length || lines.some(([a, b]) => a <= to && b >= from);
  return items
    .filter((it) => it.range && touched(counter.linePos(it.range[0]).line, counter.linePos(it.range[1]).line))
    .map((it) => String(it.get('id')));
}

const empty = (): Selection => ({
  full: false,
  correct: [],
  requirements: [],
  faultsOf: [],
  faults: [],
  servers: [],
  testFiles: [],
  why: [],
});

/** What a rule is given: the selection to add to, the file's text (undefined: removed) and the index. */
interface Reach {
  sel: Selection;
  text: string | undefined;
  lines: Change['lines'];
  index: Index;
}

const includes = <T>(xs: T[], x: T) => (xs.includes(x) ? undefined : xs.push(x));
const correctRuns = (r: Reach, api: SelectionApi, ids: string[], what: string) => {
  includes(r.sel.correct, api);
  r.sel.requirements.push(...ids);
  return what;
};
const allOf = (r: Reach, api: SelectionApi, what: string) => {
  includes(r.sel.faultsOf, api);
  return correctRuns(r, api, [...r.index.requirementIds.get(api)!], what);
};

/**
 * The rules, first match wins: each says what a changed file of its kind reaches, in words for the summary, or
 * undefined when the file is gone and the rule cannot tell. No rule: everything runs.
 */
const RULES: Array<{ match: RegExp; reach(r: Reach, m: RegExpMatchArray): string | undefined }> = [
  // The durations only order the start of checks; the unit stage holds them to the registry.
  { match: /\.md$|^(reports|bench)\/|durations\.gen\.ts$/, reach: () => 'no self-test depends on it' },
  { match: /\.test\.ts$/, reach: (r, m) => (r.sel.testFiles.push(m.input!), 'the test file itself') },
  {
    match: /^corpus\/servers\/([^/]+)\//,
    reach: (r, m) => (r.sel.servers.push(m[1]!), `every run of the corpus server ${m[1]}`),
  },
  {
    match: /^specs\/requirements\/(ops|stacks)\.yaml$/,
    reach: (r, m) => {
      const api = m[1] as SelectionApi;
      if (r.text === undefined) return undefined;
      const ids = catalogueEntries(r.text, r.lines) ?? [...r.index.requirementIds.get(api)!];
      return correctRuns(r, api, ids, `${ids.length} requirement entries of the ${api} catalogue`);
    },
  },
  { match: /^specs\/(ops|stacks)\.openapi\.yaml$/, reach: (r, m) => allOf(r, m[1] as SelectionApi, `every ${m[1]} check`) },
  {
    match: /^reference-impl\/(ops|stacks)\//,
    reach: (r, m) => (
      includes(r.sel.faultsOf, m[1] as SelectionApi), correctRuns(r, m[1] as SelectionApi, [], `every ${m[1]} fault and correct run`)
    ),
  },
  {
    match: /^suites\/selftest\/(ops|stacks)\/faults?\b/,
    reach: (r, m) => (r.text === undefined ? undefined : (r.sel.faults.push(...literals(r.text)), `the ${m[1]} faults it defines`)),
  },
  {
    match: /^suites\/selftest\/variants\/(ops|stacks)\.ts$/,
    reach: (r, m) => correctRuns(r, m[1] as SelectionApi, [], `the ${m[1]} variants`),
  },
  {
    match: /^suites\/selftest\/readings\/|^specs\/readings\.yaml$/,
    reach: (r) => API_IDS.map((api) => correctRuns(r, api, [], `the readings register (${api})`)).join(', '),
  },
  {
    match: /^suites\/(ops|stacks)\//,
    reach: (r, m) => {
      const api = m[1] as SelectionApi;
      if (r.text === undefined) return undefined;
      const ids = requirementsNamed(r.text, api, r.index);
      if (ids.length) return correctRuns(r, api, ids, `${ids.length} ${api} requirements it names or its checks declare`);
      // A support module names no requirement: every check of its API may use it.
      return allOf(r, api, `a ${api} module naming no requirement: all of ${api}`);
    },
  },
];

/** Adds to `sel` what one changed file reaches, and says so in `sel.why`. */
function place(sel: Selection, change: Change, index: Index, read: (f: string) => string | undefined): void {
  const reach = { sel, text: read(change.file), lines: change.lines, index };
  for (const rule of RULES) {
    const m = change.file.match(rule.match);
    if (!m) continue;
    const what = rule.reach(reach, m);
    if (what !== undefined) {
      sel.why.push(`${change.file}: ${what}`);
      return;
    }
    break;
  }
  sel.full = true;
  sel.why.push(`${change.file}: the engine, the build, or a file the graph cannot place or that is gone: everything runs`);
}

/** What the changed files reach: the self-tests whose expectation they can alter. */
export function affected(changes: Change[], read = (f: string) => readOr(f)): Selection {
  const index = buildIndex();
  const sel = empty();
  for (const c of changes) place(sel, c, index, read);
  const unique = <T>(xs: T[]) => [...new Set(xs)].sort();
  return {
    ...sel,
    correct: unique(sel.correct).filter((a) => API_IDS.includes(a)),
    requirements: unique(sel.requirements),
    faultsOf: unique(sel.faultsOf),
    faults: unique(sel.faults),
    servers: unique(sel.servers),
    testFiles: unique(sel.testFiles),
  };
}

function readOr(file: string): string | undefined {
  try {
    return readFileSync(join(ROOT, file), 'utf8');
  } catch {
    return undefined;
  }
}
