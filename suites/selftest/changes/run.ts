import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadCorpus, namedBy } from '../corpus/manifest';
import { opsFaults } from '../ops/faults';
import { stacksFaults } from '../stacks/faults';
import { opsVariants } from '../variants/ops';
import { stacksVariants } from '../variants/stacks';
import { type Change, affected } from './affected';
import { chooser, SELECTION_VARIABLE, type Selection, type SelectionApi } from './selection';

/**
 * The quick edit loop: `npm run test:changed [-- <git ref>]`. The unit stage, then only the self-tests a change can
 * alter (affected.ts): the faults and corpus bugs that name a requirement the changed files reach, and the correct
 * runs of each API they touch (`--plan` lists them and runs nothing; `--file <path>` asks about a file instead of git's changes). With no ref, the change is the working tree against HEAD (untracked files included);
 * with one, everything since that ref. `npm test` and CI still run everything.
 */
const git = (...args: string[]) => execFileSync('git', args, { encoding: 'utf8' });

function changes(base: string): Change[] {
  const names = git('diff', '--name-only', base).split('\n').filter(Boolean);
  const untracked = git('ls-files', '--others', '--exclude-standard').split('\n').filter(Boolean);
  return [...new Set([...names, ...untracked])].map((file) => ({ file, lines: changedLines(base, file) }));
}

/** The line ranges of the new version a diff changed, from its hunk headers (`@@ -a,b +c,d @@`). */
function changedLines(base: string, file: string): Array<[number, number]> | undefined {
  const diff = git('diff', '-U0', base, '--', file);
  const hunks = [...diff.matchAll(/^@@ -\d+(?:,\d+)? \+(\d+)(?:,(\d+))? @@/gm)];
  return hunks.length ? hunks.map((h) => [Number(h[1]), Number(h[1]) + Math.max(Number(h[2] ?? 1), 1) - 1]) : undefined;
}

/** How many runs of each kind the selection keeps, and the test files that hold them. */
function plan(sel: Selection) {
  const pick = chooser(sel);
  const faults = [
    ...opsFaults.filter((f) => pick.fault('ops', f)).map((f) => `ops ${f.id}`),
    ...stacksFaults.filter((f) => pick.fault('stacks', f)).map((f) => `stacks ${f.id}`),
  ];
  const variants = [...opsVariants.map(() => 'ops' as const), ...stacksVariants.map(() => 'stacks' as const)].filter((a) =>
    pick.correct(a),
  );
  const corpus: Array<{ api: SelectionApi; run: string }> = [];
  for (const s of loadCorpus().servers) {
    const api = s.manifest.api as SelectionApi;
    const runs = pick.server(api, s.name) ? ['', ...Object.keys(s.manifest.variants ?? {})] : [];
    for (const [name, b] of Object.entries(s.manifest.bugs)) if (pick.bug(api, s.name, namedBy(b))) runs.push(`bug ${name}`);
    corpus.push(...runs.map((r) => ({ api, run: `${s.name} ${r}` })));
  }
  const files = [
    ...(faults.some((f) => f.startsWith('ops ')) || pick.correct('ops') ? ['suites/selftest/ops/faults.test.ts'] : []),
    ...(faults.some((f) => f.startsWith('stacks ')) || pick.correct('stacks') ? ['suites/selftest/stacks/faults.test.ts'] : []),
    ...(variants.length ? ['suites/selftest/variants/variants.test.ts', 'suites/selftest/readings/readings.test.ts'] : []),
    ...(['ops', 'stacks'] as const).filter((a) => corpus.some((c) => c.api === a)).map((a) => `suites/selftest/corpus/${a}.test.ts`),
    ...sel.testFiles,
  ];
  return { faults, variants, corpus, files };
}

function main(): number {
  const args = process.argv.slice(2);
  const planOnly = args.includes('--plan');
  // `--file <path>` (repeatable) asks about those files instead of what git shows changed.
  const asked = args.flatMap((a, i) => (args[i - 1] === '--file' ? [{ file: a }] : []));
  const base = args.find((a, i) => !a.startsWith('--') && args[i - 1] !== '--file') ?? 'HEAD';
  const found = asked.length ? asked : changes(base);
  if (!found.length) {
    console.log(`nothing changed against ${base}: the unit stage only`);
    return vitest(['--project', 'unit']);
  }
  const sel = affected(found);
  for (const line of sel.why) console.log(`  ${line}`);
  if (planOnly) return report(sel);
  const unit = vitest(['--project', 'unit']);
  if (unit !== 0 || sel.full) return unit || (sel.full ? vitest(['--project', 'selftest', '--project', 'corpus']) : 0);
  const p = plan(sel);
  console.log(`selected: ${p.faults.length} faults, ${p.variants.length} variants, ${p.corpus.length} corpus runs`);
  if (!p.files.length) return 0;
  const file = join(mkdtempSync(join(tmpdir(), 'selection-')), 'selection.json');
  writeFileSync(file, JSON.stringify(sel));
  return vitest(['--project', 'selftest', '--project', 'corpus', ...p.files], { [SELECTION_VARIABLE]: file });
}

/** `--plan`: what would run, one line per run, and nothing run. */
function report(sel: Selection): number {
  if (sel.full) {
    console.log('selected: everything (npm test)');
    return 0;
  }
  const p = plan(sel);
  for (const f of p.faults) console.log(`fault ${f}`);
  for (const c of p.corpus) console.log(`corpus ${c.run.trim()}`);
  console.log(
    `selected: ${p.faults.length} faults, ${p.variants.length} variants, ${p.corpus.length} corpus runs; files: ${p.files.join(' ')}`,
  );
  return 0;
}

function vitest(args: string[], env: Record<string, string> = {}): number {
  const r = spawnSync('npx', ['vitest', 'run', ...args], { stdio: 'inherit', env: { ...process.env, ...env } });
  return r.status ?? 1;
}

process.exitCode = main();
