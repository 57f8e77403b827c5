import { readFileSync } from 'node:fs';

export type SelectionApi = 'ops' | 'stacks';

/**
 * What a change reaches, as the quick edit loop (`npm run test:changed`) hands it to the self-tests: the runs whose
 * expectation a changed file can alter. A file of the product names requirements (and the checks that judge them);
 * an expectation (a fault, a corpus bug) runs when it names one of them. Correct servers, variants and readings of an
 * API run whenever anything of that API changed, since a false alarm can come from any check.
 */
export interface Selection {
  /** Everything runs: a change to the engine, the build or a file the graph cannot place. */
  full: boolean;
  /** APIs whose correct runs go: the reference, its variants and readings, the corpus servers without a bug. */
  correct: SelectionApi[];
  /** Faults and corpus bugs that name one of these (breaks, collateral, warns, untested). */
  requirements: string[];
  /** APIs all of whose faults run (their reference implementation changed). */
  faultsOf: SelectionApi[];
  /** Faults by id (their own file changed). */
  faults: string[];
  /** Corpus servers all of whose runs go (their folder changed). */
  servers: string[];
  /** Test files that changed: each runs whole. */
  testFiles: string[];
  /** One line per changed file: what it reached. */
  why: string[];
}

/** The variable through which the quick loop names its selection file; unset, every self-test runs. */
export const SELECTION_VARIABLE = 'SELFTEST_SELECTION';

function load(): Selection | undefined {
  const file = process.env[SELECTION_VARIABLE];
  return file ? (JSON.parse(readFileSync(file, 'utf8')) as Selection) : undefined;
}

const active = load();

const names = (sel: Selection, ids: readonly string[]) => ids.some((id) => sel.requirements.includes(id));

/** The predicates the self-tests filter their cases with; each is true for every case when no selection is set. */
export function chooser(sel: Selection | undefined = active) {
  const all = !sel || sel.full;
  return {
    correct: (api: SelectionApi) => all || sel.correct.includes(api),
    fault: (api: SelectionApi, f: { id: string; breaks: readonly string[]; collateral?: readonly string[] }) =>
      all || sel.faultsOf.includes(api) || sel.faults.includes(f.id) || names(sel, [...f.breaks, ...(f.collateral ?? [])]),
    bug: (api: SelectionApi, server: string, ids: readonly string[]) =>
      all || sel.servers.includes(server) || (ids.length ? names(sel, ids) : sel.correct.includes(api)),
    server: (api: SelectionApi, server: string) => all || sel.servers.includes(server) || sel.correct.includes(api),
  };
}

/** Keeps the cases the selection reaches. */
export const chosen = chooser();
